; Device code scan (tree-sitter-cpp): run on each kernel body and each device function or stored lambda
; it reaches, never on a whole file. Python reads only these captures.

; Calls: the call graph, id sources, barriers, sub-group block loads and stores.
(call_expression) @call
; `sg.load<4>(p)` outside a template parses as `(sg.load < 4) > (p)`: a call all the same.
(binary_expression
  left: (binary_expression left: (field_expression) operator: "<")
  operator: ">"
  right: (parenthesized_expression)) @tcall

; Conditions and the code they guard.
(if_statement) @if
(conditional_expression) @ternary
(switch_statement) @switch
(for_statement) @loop
(while_statement) @loop
(do_statement) @loop

; Data flow: declarations, assignments, updates, returns.
(declaration) @decl
(assignment_expression) @assign
(update_expression) @update
(return_statement) @return

; Memory accesses: subscripts of global and local memory (KL6xx).
(subscript_expression) @subscript

; Early exits and nested lambdas (units of their own).
(break_statement) @jump
(continue_statement) @jump
(lambda_expression) @lambda
(function_definition) @function  ; a local class's member: its statements are not the kernel's
