; Identifiers inside one OpenMP region of C/C++ (run on the region's statement node, or on its function
; to find pointer aliases made outside it); uses of mapped variables are classified from their parents
; in Python.
(identifier) @use
; `T obj(a, n);` in a function body: tree-sitter reads the arguments as a prototype's parameter types.
(declaration
  declarator: (function_declarator
    parameters: (parameter_list (parameter_declaration type: (type_identifier) @use .))))
; Code `#include`d into the region: what it does to mapped variables cannot be seen.
(preproc_include) @include
; Calls: a function that may write a mapped variable that is not local.
(call_expression function: (_) @callee)
; Inline assembly: what it reads and writes cannot be seen.
(gnu_asm_expression) @asm
