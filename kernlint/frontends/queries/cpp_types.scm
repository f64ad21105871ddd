; Type definitions (tree-sitter-cpp): run over a file whose device code reads a struct member or calls a
; macro in an index, and over each quoted header it includes, for struct layouts, aliases and macros.

(struct_specifier name: (_) body: (field_declaration_list)) @struct
(class_specifier name: (_) body: (field_declaration_list)) @struct
(union_specifier name: (_) body: (field_declaration_list)) @union
(type_definition) @typedef
(alias_declaration) @alias

; Function-like macros an index may be written with (`IDX(i, j)`): expanded where a lane stride is read.
(preproc_function_def name: (identifier) @macro.name parameters: (preproc_params) value: (preproc_arg))
