"""The tree-sitter C/C++ front-end: SYCL and OpenMP C/C++ source to facts."""
