; Loops inside one OpenMP region of Fortran (run with the region's point range).
(do_loop) @loop
