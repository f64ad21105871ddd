; Loops inside one OpenMP region of C/C++ (run on the region's statement node).
(for_statement) @loop
(for_range_loop) @loop
(while_statement) @loop
(do_statement) @loop
