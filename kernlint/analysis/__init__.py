"""Analyses shared by every front-end, on what a front-end lowered, never on a parse tree.

Constant evaluation: `consteval` (values of C integer expressions, over the operator grammar of
`precedence`). Work-item dependence: a front-end describes device code in the expression language of
`expressions`, naming variables with `names`; `dependence` solves the program, with reaching
definitions from `reaching`, grades conditions by `grading` (with `blocks`), and counts uniform trips by `trips`.
"""
