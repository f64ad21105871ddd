; Calls inside one OpenMP device region of Fortran (run over the region's point range): a function
; reference `f(x, t)` (read like an array element, told apart by the names the file defines) and a
; `call s(x)` statement. Those of the file's own procedures are followed one level (KL501).
(call_expression (identifier) @name (argument_list) @args) @call
(subroutine_call (identifier) @name (argument_list)? @args) @call
