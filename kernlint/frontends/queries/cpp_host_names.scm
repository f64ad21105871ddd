; Names inside one SYCL command group or kernel submitted from host code (host flows): the identifiers
; it uses, and the declarators of what it declares itself (locals, lambda parameters), which are not the
; host's data.
(identifier) @use
(declaration declarator: (_) @local)
(parameter_declaration declarator: (_) @local)
(optional_parameter_declaration declarator: (_) @local)
(for_range_loop declarator: (_) @local)
