; Assignments and conditionals inside one OpenMP device parallel region of Fortran (run with the
; region's point range), lowered into the work-item dependence analysis for KL501.
(if_statement (parenthesized_expression) @condition) @if
(elseif_clause (parenthesized_expression) @condition) @elseif
(select_case_statement (selector) @condition) @switch
(do_loop) @loop
(assignment_statement left: (identifier) @name right: (_) @value) @assign
; `associate (x => a(r, c))`: the name stands for the selector, as if assigned from it
(association name: (identifier) @name selector: (_) @value) @assign
