"""The Fortran front-end (tree-sitter-fortran): OpenMP-offload Fortran source to `FileFacts`.

`!$omp` directives are comments to the grammar, so they are found line by line with the shared
OpenMP scanner; the tree supplies syntax-error regions and (with issue 5) loops and constants.
"""

from __future__ import annotations

from kernlint.config import Config
from kernlint.facts import FileFacts, Pragma, Span
from kernlint.frontends import treesitter
from kernlint.frontends.cpp import span_of
from kernlint.source import SourceFile


def extract(source: SourceFile, *, fixed_form: bool, config: Config) -> FileFacts:
    from kernlint.frontends.openmp import scan_fortran_directives

    data = source.data
    lines = source.text.splitlines()
    pragmas = []
    starts = source.line_starts
    for start, end, directive in scan_fortran_directives(lines, fixed_form=fixed_form):
        first, last = starts[start - 1], starts[end] - 1 if end < len(starts) else len(data)
        pragmas.append(Pragma(Span(first, last, start, 0, end, 0), "omp " + directive))
    errors: tuple[Span, ...] = ()
    if not fixed_form:
        tree = treesitter.parser("fortran").parse(data)
        errors = tuple(span_of(n) for n in treesitter.captures("fortran", "fortran", tree.root_node).get("error", []))
    return FileFacts(path=source.path, language="openmp-fortran", pragmas=tuple(pragmas), syntax_errors=errors)

