"""The tree-sitter Fortran front-end: OpenMP-offload Fortran (free and fixed form) to facts."""
