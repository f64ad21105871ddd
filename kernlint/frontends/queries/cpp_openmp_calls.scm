; Calls by plain name inside one OpenMP device region of C/C++ (run on the region's statement node):
; those of the file's own functions are followed one level into their code (KL501).
(call_expression function: (identifier) arguments: (argument_list)) @call
