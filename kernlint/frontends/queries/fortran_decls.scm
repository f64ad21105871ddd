; Declarations and assignments of one Fortran program unit: types and bounds of arrays, and whether a
; variable is assigned exactly once (so its definition can be substituted).
(variable_declaration) @decl
(assignment_statement left: (identifier) @assigned)
(loop_control_expression . (identifier) @assigned)
