; Names declared inside one OpenMP parallel region of C/C++ (run on the region's statement node): each
; thread has its own copy, while a name declared outside the region is shared by the team.
; One pattern with alternatives rather than one pattern per shape: compiling a query costs a walk of
; the grammar per pattern (about 2 ms each here), and every process that reads OpenMP compiles this.
(declaration
  declarator: [
    (identifier) @declared
    (init_declarator declarator: (identifier) @declared)
    (array_declarator declarator: (identifier) @declared)
    (init_declarator declarator: (array_declarator declarator: (identifier) @declared))
    (pointer_declarator declarator: (identifier) @declared)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @declared))
    (reference_declarator (identifier) @declared)
    (init_declarator declarator: (reference_declarator (identifier) @declared))
    ; Arrays of two and three dimensions (`float tile[16][17];`).
    (array_declarator declarator: (array_declarator declarator: (identifier) @declared))
    (array_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @declared)))
  ])
(for_range_loop declarator: (identifier) @declared)
