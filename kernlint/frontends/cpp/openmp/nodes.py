"""tree-sitter-cpp node types that the OpenMP layer's readers of C/C++ code share."""

from __future__ import annotations

#: Statements that loop.
LOOP_TYPES = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})
#: Nodes that open a function scope: the search for enclosing loops and conditions stops there.
FUNCTION_TYPES = frozenset({"function_definition", "lambda_expression"})
#: Statements that leave the rest of a loop body unrun.
JUMP_TYPES = frozenset({"continue_statement", "break_statement", "return_statement", "goto_statement"})
#: Nodes whose parts run only under a condition.
CONDITIONAL_TYPES = frozenset({"if_statement", "switch_statement", "case_statement", "conditional_expression"})
