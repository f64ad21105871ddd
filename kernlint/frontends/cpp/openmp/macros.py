"""OpenMP directives of a C/C++ file read through macros: the C++ front-end's `CppOmpSource`, but a
directive written as `_Pragma("…")` or as a macro line is read as the directive it stands for, and
one whose clauses are macros (`THREAD_LIMIT`, defined by the file, the configuration or an include)
with those macros expanded (`pragma_operators` finds both)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from kernlint import stopping
from kernlint.facts import OmpConstruct, Pragma, Span
from kernlint.facts.memory import MemoryAccess
from kernlint.facts.openmp_directive import OmpDirective, OmpParseError
from kernlint.frontends.common.nodes import span_of
from kernlint.frontends.cpp.device import reuse as device_reuse
from kernlint.frontends.cpp.openmp.constructs import CppOmpSource
from kernlint.frontends.cpp.openmp.memory import RegionArrays
from kernlint.frontends.cpp.openmp.syntax import associated_loops, collapse_depth, following_statement
from kernlint.frontends.cpp.pragma_operators import expanded_clauses
from kernlint.frontends.openmp.dependence import openmp_branches, solve_regions
from kernlint.frontends.openmp.device_code import RegionBranches
from kernlint.frontends.openmp.directives import is_macro_name, parse_directive
from kernlint.frontends.openmp.facts import Located, build_constructs, has_region, is_loop_construct
from kernlint.frontends.openmp.memory import RawArrayAccess, openmp_memory_accesses

if TYPE_CHECKING:
    from kernlint.frontends.cpp.unit import CppUnit


class MacroAwareOmpSource(CppOmpSource):
    """`CppOmpSource` that reads a directive written through `_Pragma` or a macro as the directive it
    stands for, and a directive with macro clauses with the macros expanded; and the array elements a
    region uses, for the memory pass."""

    def array_accesses(self, region: Span) -> list[RawArrayAccess]:
        if not hasattr(self, "_arrays"):
            self._arrays = RegionArrays(self.unit)
        node = self.nodes.get(region)
        return self._arrays.accesses(node) if node is not None else []

    def located(self) -> list[Located]:
        expanded = (self._expanded(found) for found in super().located())
        return [found for found in expanded if not _unexpanded_macro(found)]

    def _expanded(self, found: Located) -> Located:
        text = self.unit.pragma_texts.get(found.span.start_byte) or expanded_clauses(found.directive.text, self._macro)
        if text is None:
            return found
        directive = parse_directive(text, language="c", line=found.span.line, end_line=found.span.end_line)
        node = self.nodes.get(found.span)
        region = loops = None
        if node is not None and isinstance(directive, OmpDirective) and has_region(directive):
            statement = following_statement(node, self._logical_end(node))
            if statement is not None:
                region = span_of(statement)
                self.nodes[region] = statement
                if is_loop_construct(directive):
                    loops = associated_loops(statement, collapse_depth(directive, self.value, found.span.start_byte))
        return replace(found, directive=directive, region=region, loops=tuple(span_of(loop) for loop in loops or ()))

    def _macro(self, word: str) -> str | None:
        """The body of `word` when it is an all-caps object-like macro kernlint knows (macros are what
        an all-caps word in a directive is; other words are not looked up)."""
        return self.unit.constants.macro_body(word) if is_macro_name(word) else None


def openmp_facts(
    unit: CppUnit, pragmas: tuple[Pragma, ...]
) -> tuple[tuple[OmpConstruct, ...], RegionBranches, list[Span], tuple[MemoryAccess, ...]]:
    """Every `#pragma omp` / `#pragma ompx` of the file as an OmpConstruct, reading directives through
    `MacroAwareOmpSource`; the id-dependent branches of its device parallel regions (with the limits
    their analysis met); the bodies of the file's functions that run on the device
    (`device_functions`); and the memory accesses of the device parallel regions (from the same solved
    dependence program as the branches)."""
    if not any(p.text.split()[:1] in (["omp"], ["ompx"]) for p in pragmas):
        return (), RegionBranches(), [], ()
    source = MacroAwareOmpSource(unit, pragmas)
    cache = device_reuse.active()
    if cache is not None:  # the language server's worker: components kept between edits
        from kernlint.frontends.cpp.openmp.kept import kept_facts

        kept = kept_facts(unit, source, pragmas, cache)
        if kept is not None:
            stopping.checkpoint()
            return kept[0], kept[1], device_functions(source, kept[0]), kept[2]
    constructs = build_constructs(source)
    stopping.checkpoint()  # (the language server's worker stops a superseded analysis between stages)
    functions = device_functions(source, constructs)
    solved = solve_regions(constructs, source)
    stopping.checkpoint()
    if solved is None:
        return constructs, RegionBranches(), functions, ()
    memory = openmp_memory_accesses(solved, source, constructs)
    stopping.checkpoint()
    return constructs, openmp_branches(constructs, source, solved), functions, memory


def device_functions(source: CppOmpSource, constructs: tuple[OmpConstruct, ...]) -> list[Span]:
    """Bodies of the file's functions that are device code: those between `declare target` and
    `end declare target`, and those a target region calls (one level, as the region is followed)."""
    bodies: list[Span] = []
    opened: list[int] = []
    for construct in constructs:
        if construct.leaves == ("declare target",) and construct.directive is not None:
            if construct.directive.is_end:
                start = opened.pop() if opened else None
                if start is not None:
                    bodies += [
                        span_of(body)
                        for definitions in source.functions.values()
                        for definition in definitions
                        if start <= definition.start_byte < construct.span.start_byte
                        and (body := definition.child_by_field_name("body")) is not None
                    ]
            elif not construct.directive.clauses and not construct.directive.arguments:
                opened.append(construct.span.end_byte)  # the block form (with a list, it names functions)
        elif "target" in construct.leaves and construct.region is not None:
            for call in source.calls(construct.region):
                function = source.function(call.name)
                if function is not None:
                    bodies.append(function.body)
    return bodies


def _unexpanded_macro(found: Located) -> bool:
    """A directive whose name is an all-caps word kernlint cannot expand (`#pragma omp TARGET_LOOP`):
    a macro the build defines, so nothing kernlint can read, and nothing wrong to report."""
    words = found.directive.text.split()
    return (
        isinstance(found.directive, OmpParseError)
        and len(words) > 1
        and words[0] in ("omp", "ompx")
        and is_macro_name(words[1])
    )
