; Assignments and conditionals inside one OpenMP device parallel region of C/C++ (run on the region's
; statement node), lowered into the work-item dependence analysis for KL501.
(if_statement condition: (condition_clause value: (_) @condition)) @if
(switch_statement condition: (condition_clause value: (_) @condition)) @switch
(while_statement condition: (condition_clause value: (_) @condition)) @loop
(do_statement condition: (parenthesized_expression) @condition) @loop
(for_statement condition: (_) @condition) @loop
(conditional_expression condition: (_) @condition) @ternary
(assignment_expression left: (identifier) @name right: (_) @value) @assign
(init_declarator declarator: (identifier) @name value: (_) @value) @assign
(update_expression argument: (identifier) @name) @update
