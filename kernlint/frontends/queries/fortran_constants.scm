; Constants of a Fortran file: fpp `#define`s and `parameter`s (both spellings). Run only when a value
; is needed.
(preproc_def name: (identifier) @macro.name value: (preproc_arg) @macro.value)
(preproc_def name: (identifier) @macro.name !value)
(parameter_assignment . (identifier) @param.name (_) @param.value .)
((variable_declaration
   attribute: (type_qualifier) @param.qualifier
   declarator: (init_declarator left: (identifier) @param.name right: (_) @param.value))
 (#match? @param.qualifier "^[pP][aA][rR][aA][mM][eE][tT][eE][rR]$"))
