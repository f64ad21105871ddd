"""Query files written to compile cheaply, for a process that reads few files (`treesitter.Loose`).

Compiling a pattern costs tree-sitter a search of the grammar for every node that holds a child in
it, and some cost milliseconds each: a wildcard, an alternation or a field of a common node such as
`declaration` or `binary_expression` (`(declaration declarator: [(identifier) (init_declarator …) …])`
about 7 ms here, against nothing for `(declaration)`). A process that reads one file pays that for
every query it compiles, far more than running them costs. Here each of those query files is written
again with patterns that compile for almost nothing (a node alone, or a cheap field), and a function
turns the matches of that text into exactly the matches of the query file: the same patterns, the
same captured nodes, in the same order (tree-sitter returns matches as their last node is reached:
`shapes.in_order`). `tests/test_loose_queries.py` checks each against its query file (`queries/*.scm`,
what a long run compiles) on every corpus file.
"""

from __future__ import annotations

from kernlint.frontends.common.treesitter import Loose
from kernlint.frontends.cpp.loose import openmp, whole_file

#: The loose text of each query file that has one, with what turns its matches into the file's.
LOOSE: dict[str, Loose] = {**openmp.LOOSE, **whole_file.LOOSE}
