; Declarations that give a name a type (element sizes, array extents), and assignments (to know
; whether a local is defined once). Run on one function, or on the file for file-scope names.
(parameter_declaration type: (_) @decl.type declarator: (_) @decl.declarator) @decl
(declaration type: (_) @decl.type declarator: (_) @decl.declarator) @decl
(assignment_expression left: (identifier) @assigned)
(update_expression argument: (identifier) @assigned)
