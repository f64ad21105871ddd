; Symbol table for constant evaluation, run over the whole file together with cpp.scm (one walk).
; Only captures that Python reads are named: each one costs a node object per match.

(preproc_def name: (identifier) @macro.name value: (preproc_arg))
(preproc_def name: (identifier) @macro.name !value) @macro.empty
(preproc_function_def name: (identifier) @macro.function)

(declaration
  type: (_)
  declarator: (init_declarator declarator: (identifier) value: (_))) @var.decl
(declaration
  type: (_)
  declarator: (function_declarator declarator: (identifier) parameters: (parameter_list))) @var.decl
(field_declaration
  type: (_)
  declarator: (field_identifier)
  default_value: (_)) @var.decl

(parameter_declaration declarator: (identifier) @param.name)
(parameter_declaration declarator: (_ (identifier) @param.name))
(optional_parameter_declaration declarator: (identifier) @param.name)
(for_range_loop declarator: (identifier) @param.name)

; Writes after the initialiser, which make a variable's value unknown: assignments (also to one
; element or member, `lws[2] = 64`, `v.x = 1`), `++`/`--`, the address taken (`&n`), a reference bound.
(assignment_expression left: (identifier) @assigned.name)
(assignment_expression left: (subscript_expression argument: (identifier) @assigned.name))
(assignment_expression left: (field_expression argument: (identifier) @assigned.name))
(update_expression argument: (identifier) @assigned.name)
(pointer_expression argument: (identifier) @assigned.name)
(init_declarator declarator: (reference_declarator) value: (identifier) @assigned.name)
; The functions the file declares: whether a call may write a variable passed to it is in their
; parameters (the calls themselves are found only for the variables looked up).
(function_declarator declarator: [(identifier) (field_identifier)] @function.name parameters: (parameter_list))

(template_declaration
  parameters: (template_parameter_list
    [(parameter_declaration declarator: (identifier))
     (optional_parameter_declaration declarator: (identifier))])) @tparam.template

(template_function name: (identifier) @inst.name arguments: (template_argument_list))
(template_type name: (type_identifier) @inst.name arguments: (template_argument_list))
(template_method name: (field_identifier) @inst.name arguments: (template_argument_list))
