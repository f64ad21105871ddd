; Structural search for the Fortran front-end (tree-sitter-fortran). Runs once per file.
(ERROR) @error
(do_loop) @loop
