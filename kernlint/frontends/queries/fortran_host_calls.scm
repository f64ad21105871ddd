; Calls in a Fortran program unit or loop, for host flows: subroutine calls (a launch through a call of a
; subroutine holding device work, or a clock read such as `call cpu_time(t)`) and function references
; (`omp_get_wtime()`), told apart from array elements by the name.
(subroutine_call . (identifier)) @call
(call_expression . (identifier)) @call
