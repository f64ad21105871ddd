; The names declarators declare (tree-sitter-cpp), for the declared type of a name a memory access
; indexes: run over the outermost function or class around device code that subscripts memory. Each
; pattern has a named parent, so the matcher never tries a wildcard at every node.
(declaration declarator: (identifier) @name)
(parameter_declaration declarator: (identifier) @name)
(optional_parameter_declaration declarator: (identifier) @name)
(field_declaration declarator: (field_identifier) @name)
(init_declarator declarator: (identifier) @name)
(pointer_declarator declarator: [(identifier) (field_identifier)] @name)
(reference_declarator (identifier) @name)
(array_declarator declarator: [(identifier) (field_identifier)] @name)
