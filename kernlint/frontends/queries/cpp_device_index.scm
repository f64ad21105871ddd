; Device-function index (tree-sitter-cpp): every function definition and every lambda stored in a named
; variable, so calls from kernels can be resolved to bodies in the same file. Run once per file, and
; only when the file launches kernels.
(function_definition) @function
(declaration
  declarator: (init_declarator
    declarator: (identifier) @lambda.name
    value: (lambda_expression) @lambda))
