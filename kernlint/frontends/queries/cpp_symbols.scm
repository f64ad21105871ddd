; Symbol table for constant evaluation. Run only when an identifier must be resolved.

(preproc_def name: (identifier) @macro.name value: (preproc_arg) @macro.value)
(preproc_def name: (identifier) @macro.name !value) @macro.empty

(declaration
  type: (_) @var.type
  declarator: (init_declarator declarator: (identifier) @var.name value: (_) @var.value)) @var.decl
(declaration
  type: (_) @var.type
  declarator: (function_declarator declarator: (identifier) @var.name parameters: (parameter_list) @var.value)) @var.decl
(field_declaration
  type: (_) @var.type
  declarator: (field_identifier) @var.name
  default_value: (_) @var.value) @var.decl

(parameter_declaration declarator: (identifier) @param.name)
(parameter_declaration declarator: (_ (identifier) @param.name))
(optional_parameter_declaration declarator: (identifier) @param.name)
(for_range_loop declarator: (identifier) @param.name)

(assignment_expression left: (identifier) @assigned.name)
(update_expression argument: (identifier) @assigned.name)
(pointer_expression argument: (identifier) @assigned.name)

(template_declaration
  parameters: (template_parameter_list
    [(parameter_declaration declarator: (identifier) @tparam.name)
     (optional_parameter_declaration declarator: (identifier) @tparam.name)])) @tparam.template

(template_function name: (identifier) @inst.name arguments: (template_argument_list) @inst.args)
(template_type name: (type_identifier) @inst.name arguments: (template_argument_list) @inst.args)
(template_method name: (field_identifier) @inst.name arguments: (template_argument_list) @inst.args)
