; Calls of free functions (`submit(q, r, k)`, `submit<Name>(q, r, k)`, `ns::submit(…)`): the call sites of a
; launch wrapper, whose arguments are the kernels it launches. Run only for a file with such a wrapper.
(call_expression function: [(identifier) (qualified_identifier) (template_function)]) @call
