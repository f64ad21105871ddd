"""The Fortran front-end (tree-sitter-fortran): OpenMP-offload Fortran source to `FileFacts`.

Free and fixed form (fixed form is rewritten in place as free form, every line and column unchanged:
see `fortran.source`); fpp `#define`/`#ifdef` lines are part of the grammar, and `#if 0` blocks are
blanked. `!$omp` directives are comments to the grammar, so they are found line by line with the
shared OpenMP scanner and associated with the code after them by position (`fortran.openmp`). The
facts are the ones the C/C++ front-end produces: loops, OpenMP constructs, raw pragmas, syntax errors.
"""

from __future__ import annotations

from kernlint.config import Config
from kernlint.facts import FileFacts, Loop, Pragma, Span
from kernlint.facts.coverage import LostLines
from kernlint.facts.span_index import SpanIndex
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.coverage import kernel_coverage, merged_lines
from kernlint.frontends.common.preprocess import blank_disabled_blocks
from kernlint.frontends.fortran.constants import FortranConstants
from kernlint.frontends.fortran.hostflow import fortran_flows
from kernlint.frontends.fortran.openmp import FortranOmpSource
from kernlint.frontends.fortran.source import LineMap, looks_fixed_form, normalise_fixed
from kernlint.frontends.openmp.dependence import RegionBranches, openmp_branches, solve_regions
from kernlint.frontends.openmp.directives import scan_fortran_directives
from kernlint.frontends.openmp.facts import build_constructs
from kernlint.frontends.openmp.memory import openmp_memory_accesses
from kernlint.source import SourceFile


def extract(source: SourceFile, *, fixed_form: bool, config: Config) -> FileFacts:
    """Parse `source` once and return its facts; `fixed_form` is what the file extension says."""
    text = source.text
    fixed = looks_fixed_form(text, fixed_form)
    parsed_text = normalise_fixed(text) if fixed else text
    data = blank_disabled_blocks(parsed_text.encode("utf-8"))
    tree = treesitter.parser("fortran").parse(data)
    root = tree.root_node
    linemap = LineMap(source.data)
    lines = text.split("\n")
    code_lines = data.decode("utf-8", errors="replace").split("\n")
    directives = [d for d in scan_fortran_directives(code_lines, fixed_form=fixed) if _live(d, code_lines)]

    def span(node) -> Span:
        return Span(
            linemap.offset(*node.start_point),
            linemap.offset(*node.end_point),
            node.start_point[0] + 1,
            node.start_point[1],
            node.end_point[0] + 1,
            node.end_point[1],
        )

    captures = treesitter.captures("fortran", "fortran", root)
    omp: tuple = ()
    found = RegionBranches()
    memory: tuple = ()
    flows: tuple = ()
    if directives:
        constants = FortranConstants(root, dict(config.defines))
        omp_source = FortranOmpSource(root, lines, code_lines, linemap, constants, directives, fixed)
        omp = build_constructs(omp_source)
        solved = solve_regions(omp, omp_source)
        if solved is not None:
            found = openmp_branches(omp, omp_source, solved)
            memory = openmp_memory_accesses(solved, omp_source, omp)
        flows = fortran_flows(omp_source, omp, captures.get("loop", []))
    pragmas = tuple(Pragma(construct.span, "omp " + text) for construct, (_s, _e, text) in zip(omp, directives))
    targets = SpanIndex((c.region, c.region) for c in omp if c.region is not None and "target" in c.leaves)
    loops = []
    for node in sorted(captures.get("loop", []), key=lambda n: n.start_byte):
        loop_span = span(node)
        statement = node.named_children[0] if node.named_children else None
        # a counted `do i = …` is a `for` loop in the language-neutral facts; `do while` and a bare
        # `do … exit` loop are `while` loops (`do` means C's do-while)
        counted = statement is not None and any(c.type == "loop_control_expression" for c in statement.named_children)
        device = bool(targets.containing(loop_span))
        loops.append(Loop(loop_span, "for" if counted else "while", "device" if device else "host"))
    errors = tuple(span(n) for n in captures.get("error", []))
    return FileFacts(
        path=source.path,
        language="openmp-fortran",
        loops=tuple(loops),
        pragmas=pragmas,
        branches=found.branches,
        memory_accesses=memory,
        omp=omp,
        syntax_errors=errors,
        coverage=kernel_coverage((), omp, lost=_lost(errors)),
        limits=found.limits,
        host_flows=flows,
    )


def _lost(errors: tuple[Span, ...]) -> tuple[LostLines, ...]:
    """The error regions merged by line (no cause: Fortran has no attribute macros to blame)."""
    found = []
    for first, last in merged_lines((e.line, e.end_line) for e in errors):
        inside = [e for e in errors if first <= e.line <= last]
        start, end = inside[0], max(inside, key=lambda e: e.end_byte)
        found.append(
            LostLines(Span(start.start_byte, end.end_byte, first, start.column_byte, last, end.end_column_byte))
        )
    return tuple(found)


def _live(directive: tuple[int, int, str], code_lines: list[str]) -> bool:
    """False for a directive inside a blanked `#if 0` block."""
    return bool(code_lines[directive[0] - 1].strip())
