; Identifiers inside one OpenMP region of Fortran (run with the region's point range); uses of mapped
; variables are classified from their parents in Python.
(identifier) @use
