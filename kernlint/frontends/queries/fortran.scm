; Structural search for the Fortran front-end (tree-sitter-fortran).
(ERROR) @error
