; Array elements inside one OpenMP region of Fortran (run with the region's point range): `a(i, k)`
; parses as a call; Python keeps the names declared as arrays.
(call_expression . (identifier) @name . (argument_list) @args) @element
