; Names declared inside one OpenMP parallel region of C/C++ (run on the region's statement node): each
; thread has its own copy, while a name declared outside the region is shared by the team.
(declaration declarator: (identifier) @declared)
(declaration declarator: (init_declarator declarator: (identifier) @declared))
(declaration declarator: (array_declarator declarator: (identifier) @declared))
(declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @declared)))
(declaration declarator: (pointer_declarator declarator: (identifier) @declared))
(declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @declared)))
(declaration declarator: (reference_declarator (identifier) @declared))
(declaration declarator: (init_declarator declarator: (reference_declarator (identifier) @declared)))
(for_range_loop declarator: (identifier) @declared)
; Arrays of two and three dimensions (`float tile[16][17];`).
(declaration declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @declared)))
(declaration declarator: (array_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @declared))))
