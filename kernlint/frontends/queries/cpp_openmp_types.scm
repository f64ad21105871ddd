; Struct and class definitions of a C/C++ file, with their members: which members are pointers (a map
; of the struct copies those pointers, not what they point to). Run on the file once, when a mapped
; variable's type is a struct.
(struct_specifier name: (_) @name body: (field_declaration_list) @body)
(class_specifier name: (_) @name body: (field_declaration_list) @body)
(type_definition type: (struct_specifier body: (field_declaration_list) @body) declarator: (type_identifier) @name)
