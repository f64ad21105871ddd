; Identifiers inside one OpenMP region of C/C++ (run on the region's statement node); uses of
; mapped variables are classified from their parents in Python.
(identifier) @use
