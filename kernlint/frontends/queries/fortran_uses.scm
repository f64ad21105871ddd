; Identifiers inside one OpenMP region of Fortran (run with the region's point range, or over its program
; unit to find pointer associations made outside it); uses of mapped variables are classified from their
; parents in Python.
(identifier) @use
; Code included into the region: what it does to mapped variables cannot be seen.
[(include_statement) (preproc_include)] @include
; Procedures called in the region: they may change a mapped variable that is not local to the unit.
(subroutine_call . (identifier) @callee)
(call_expression . (identifier) @callee)
