; Subscripts inside one OpenMP device region (tree-sitter-cpp): the array elements it uses (KL6xx).
(subscript_expression) @subscript
