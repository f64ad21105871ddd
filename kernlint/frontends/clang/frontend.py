"""The precise C/C++ front-end: tree-sitter facts, refined where only a compiler can be right.

The tree-sitter front-end still finds every fact (its analyses of kernels, accessors and device code
are the ones the rules are tuned on); libclang, given the build's flags, then corrects the facts that
depend on what the compiler sees:

- constants tree-sitter cannot evaluate (a `static constexpr` member of a header class, a `constexpr`
  function's result, a macro whose value depends on `-D`): each expression the tree-sitter analyses
  fail to evaluate is appended to the parsed text as a `constexpr` probe in the namespace it was
  written in, and clang's evaluator answers; the tree-sitter analyses then run again with those
  answers, so launch extents, kernel attributes and local-memory sizes all benefit;
- inactive `#if`/`#ifdef` branches, when the build's macros are known (a compile database or `-D`):
  facts inside them are dropped; without them, clang's choice of arm is a guess, and a constant that
  hangs on an arm tree-sitter could not choose is not asked (`choices`);
- declarations whose resolved type is not in the `sycl` namespace (`host::buffer<T>`) are dropped;
- `sycl::buffer`s declared by a macro expansion are added, and accessors whose mode is only in their
  type (an alias such as `using in_t = sycl::accessor<…, access_mode::read_write>`) are added with it.

A file libclang cannot parse in time keeps its tree-sitter facts, and the caller's notes say so.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from typing import Any, cast

import tree_sitter
from clang import cindex

from kernlint.facts import Accessor, Buffer, FileFacts, Span
from kernlint.facts.kinds import AccessMode, AccessTarget
from kernlint.frontends.clang.choices import ConditionalChoices
from kernlint.frontends.clang.flags import FileFlags, flags_for, from_build
from kernlint.frontends.clang.headers import header_args, shipped_sycl, stand_ins, sycl_dir
from kernlint.frontends.clang.openmp import directive_macros
from kernlint.frontends.clang.templates import instantiate_launches
from kernlint.frontends.clang.unit import DEFAULT_PARSE_TIMEOUT_S, ClangUnit, Declaration, ParseTimeout
from kernlint.frontends.common.nodes import span_of, text_of
from kernlint.frontends.cpp.accessors.uses import analyse_accessor_uses
from kernlint.frontends.cpp.constants import CppConstants
from kernlint.frontends.cpp.frontend import facts_of_unit as tree_sitter_facts
from kernlint.frontends.cpp.sycl.api import MODE_WORDS
from kernlint.frontends.cpp.unit import CppUnit

_IDENTIFIER = re.compile(r"(?<![\w:.>])(?<!::)([A-Za-z_]\w*)(?!\s*::)(?!\w)")
_FILE_SCOPE = (0, 1 << 62)
_C_SUFFIXES = (".c",)
# Facts that sit at one place in the source: dropped when that place is in an inactive branch.
_PLACED_FIELDS = (
    "launches",
    "buffers",
    "accessors",
    "local_allocations",
    "barriers",
    "loops",
    "queues",
    "pragmas",
    "branches",
    "block_accesses",
    "memory_accesses",
    "omp",
)


def extract(
    path: str,
    data: bytes,
    include_dirs: tuple[str, ...] = (),
    defines: dict[str, str] | None = None,
    compile_db: str | None = None,
    clang_args: tuple[str, ...] = (),
    timeout_s: float | None = DEFAULT_PARSE_TIMEOUT_S,
    notes: list[str] | None = None,
    macros: dict[str, str] | None = None,
) -> FileFacts:
    """The facts of one C/C++ file: tree-sitter's, refined by libclang with the file's build flags
    (parsed within `timeout_s`, None: no bound); `notes` gets a line when libclang's part is missing."""
    flags = flags_for(path, compile_db)
    extra = FileFlags(clang_args, "arguments")
    all_defines = {**dict(flags.defines), **dict(extra.defines), **(defines or {})}
    all_dirs = tuple(include_dirs) + extra.include_dirs + flags.include_dirs
    build_known = from_build(flags, defines or {}, clang_args)
    probes = _Probes()
    unit = _tree_sitter_unit(path, data, all_dirs, all_defines, probes.ask, macros)
    probes.root = unit.root
    if not build_known:  # clang's `#if` choices are then a guess: constants that hang on one stay unknown
        probes.guessed = ConditionalChoices(data, unit.root, unit.arms, unit.constants.included(), all_defines)
    facts = tree_sitter_facts(unit)
    try:
        clang = clang_unit(path, data, flags, include_dirs, defines or {}, clang_args, probes.requests, timeout_s)
    except ParseTimeout:
        late = f"libclang did not finish parsing this file in {timeout_s:g} s (half of --timeout)"
        _note(notes, f"{late}; used the tree-sitter facts")
        return facts
    except cindex.TranslationUnitLoadError:
        _note(notes, "libclang could not parse this file; used the tree-sitter facts")
        return facts
    # Directives behind macros only clang expanded are read as configured macros (clang/openmp.py);
    # their clause values not yet asked are probed with one more parse.
    macros = directive_macros(clang.tu, clang.top_level, data, {c.span.line for c in facts.omp}, build_known)
    if macros:
        all_defines, asked = {**all_defines, **macros}, len(probes.requests)
        tree_sitter_facts(_tree_sitter_unit(path, data, all_dirs, all_defines, probes.ask, macros))
        if len(probes.requests) > asked:
            with suppress(ParseTimeout, cindex.TranslationUnitLoadError):
                clang = clang_unit(
                    path, data, flags, include_dirs, defines or {}, clang_args, probes.requests, timeout_s
                )
    answers = probes.answers(clang.probe_values())
    if answers or macros:
        unit = _tree_sitter_unit(
            path, data, all_dirs, all_defines, lambda text, at, _c: answers.get((text, at)), macros
        )
        facts = tree_sitter_facts(unit)
    facts = _refine(facts, unit, clang, select_branches=build_known)
    facts = instantiate_launches(facts, unit, clang)
    if flags.database:
        facts = replace(facts, dependencies=(*facts.dependencies, flags.database))
    return facts


def clang_unit(
    path: str,
    data: bytes,
    flags: FileFlags,
    include_dirs: tuple[str, ...] = (),
    defines: dict[str, str] | None = None,
    clang_args: tuple[str, ...] = (),
    probes: list[tuple[tuple[str, ...], str]] | None = None,
    timeout_s: float | None = DEFAULT_PARSE_TIMEOUT_S,
) -> ClangUnit:
    """libclang's parse of `path` with its flags; a parse stopped by a missing header is redone once
    with an empty stand-in for it. Raises `ParseTimeout` when both parses together pass `timeout_s`."""
    args, empty = parse_inputs(path, data, flags, include_dirs, defines or {}, clang_args)
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    unit = ClangUnit(path, data, args, probes or [], empty, timeout_s)
    missing = unit.missing_headers(shipped_sycl())
    if not missing:
        return unit
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    return ClangUnit(path, data, args, probes or [], empty + missing, left)


def parse_inputs(
    path: str,
    data: bytes,
    flags: FileFlags,
    include_dirs: tuple[str, ...],
    defines: dict[str, str],
    clang_args: tuple[str, ...],
) -> tuple[list[str], list[str]]:
    """libclang's command line for `path` (the language unless the build's flags say it, the build's
    flags, the configured `-I`/`-D`, `clang-args`, then the headers kernlint supplies) and the
    missing headers to stand in for with empty files."""
    args: list[str] = []
    own = flags.args + clang_args
    if "-x" not in own:
        args += ["-x", "c" if path.endswith(_C_SUFFIXES) else "c++"]
    if not any(a.startswith("-std=") for a in own):
        args.append("-std=c11" if path.endswith(_C_SUFFIXES) else "-std=c++17")
    args += list(flags.args)
    if flags.origin != "database" and b"sycl" not in data and not any(a.startswith("-fopenmp") for a in own):
        args.append("-fopenmp")  # an OpenMP file's directives become cursors only with it (clang/openmp.py)
    args += [f"-I{d}" for d in include_dirs]
    args += [f"-D{name}={value}" for name, value in defines.items()]
    args += list(clang_args)
    args += ["-ferror-limit=0", "-Wno-everything"]
    searched = tuple(include_dirs) + FileFlags(clang_args, "arguments").include_dirs + flags.include_dirs
    uses_sycl = b"sycl" in data
    args += header_args(searched, uses_sycl)
    return args, stand_ins(path, data, searched, sycl_dir(searched)) if b"#" in data else []


def _note(notes: list[str] | None, text: str) -> None:
    if notes is not None:
        notes.append(text)


# -- constants: tree-sitter asks, clang answers ----------------------------------------------------

_Answer = Callable[[str, int, CppConstants], "int | None"]


class _AnsweringConstants:
    """The tree-sitter constant table, with `answer` consulted for what it cannot evaluate."""

    def __init__(self, inner: CppConstants, answer: _Answer) -> None:
        self._inner = inner
        self._answer = answer

    def value(self, text: str, at_byte: int) -> int | None:
        found = self._inner.value(text, at_byte)
        return found if found is not None else self._answer(text, at_byte, self._inner)

    def node_value(self, node: tree_sitter.Node) -> int | None:
        return self.value(text_of(node), node.start_byte)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _tree_sitter_unit(
    path: str,
    data: bytes,
    include_dirs: tuple[str, ...],
    defines: dict[str, str],
    answer: _Answer,
    macros: dict[str, str] | None = None,
) -> CppUnit:
    unit = CppUnit(path, data, include_dirs, defines, macros)
    unit.constants = cast(CppConstants, _AnsweringConstants(unit.constants, answer))
    return unit


class _Probes:
    """The expressions tree-sitter could not evaluate and clang may: each is asked at file scope in
    the namespaces around it, so only expressions whose every unqualified name is bound at file scope
    (or not bound in the file at all: a header's) are asked, never one naming a local or parameter."""

    def __init__(self) -> None:
        self.requests: list[tuple[tuple[str, ...], str]] = []
        self._keys: list[tuple[str, int]] = []
        self._seen: set[tuple[str, int]] = set()
        self.root: tree_sitter.Node | None = None  # the file's tree, for the namespaces around a probe
        self.guessed: ConditionalChoices | None = None  # with default flags: what clang would only guess

    def ask(self, text: str, at: int, constants: CppConstants) -> None:
        key = (text, at)
        if key in self._seen or not text.strip() or "\n#" in text:
            return None
        self._seen.add(key)
        if self.guessed is not None and self.guessed.decides(text):
            return None
        for name in _IDENTIFIER.findall(text):
            definition = constants.definition(name, at)
            if definition is not None and definition.scope != _FILE_SCOPE:
                return None
        self.requests.append((_namespaces_at(self.root, at) if self.root is not None else (), text))
        self._keys.append(key)
        return None

    def answers(self, values: dict[int, int]) -> dict[tuple[str, int], int]:
        return {self._keys[number]: value for number, value in values.items()}


def _namespaces_at(root: tree_sitter.Node, at: int) -> tuple[str, ...]:
    """The named namespaces enclosing byte `at`, outermost first."""
    node: tree_sitter.Node | None = root.descendant_for_byte_range(at, at)
    names: list[str] = []
    while node is not None:
        if node.type == "namespace_definition":
            name = node.child_by_field_name("name")
            if name is None:
                return ()  # an anonymous namespace cannot be reopened by name: ask nothing scoped
            names.extend(reversed(text_of(name).split("::")))
        node = node.parent
    return tuple(reversed(names))


# -- refinements from the AST -----------------------------------------------------------------------


def _refine(facts: FileFacts, unit: CppUnit, clang: ClangUnit, select_branches: bool) -> FileFacts:
    if select_branches and clang.skipped:
        facts = _drop_inactive(facts, clang.skipped)
    declarations = clang.declarations
    facts = _drop_foreign(facts, declarations)
    return _add_from_declarations(facts, unit, declarations, clang)


def _drop_inactive(facts: FileFacts, skipped: list[tuple[int, int]]) -> FileFacts:
    def active(fact: Any) -> bool:
        start = fact.span.start_byte
        return not any(lo <= start < hi for lo, hi in skipped)

    changes: dict[str, Any] = {name: tuple(f for f in getattr(facts, name) if active(f)) for name in _PLACED_FIELDS}
    return replace(facts, **changes)


def _declaration_of(name: str | None, span: Span, declarations: list[Declaration]) -> Declaration | None:
    if name is None:
        return None
    for declaration in declarations:
        if declaration.name == name and span.start_byte <= declaration.offset < span.end_byte:
            return declaration
    return None


def _foreign(declaration: Declaration | None) -> bool:
    """Whether clang resolved the declaration's type to a class outside the `sycl` namespace."""
    return (
        declaration is not None
        and declaration.valid
        and declaration.namespace is not None
        and declaration.namespace.split("::")[0] != "sycl"
    )


def _drop_foreign(facts: FileFacts, declarations: list[Declaration]) -> FileFacts:
    """Drop buffers, accessors, local memory and queues whose declared type is not SYCL's."""

    def keep(fact: Any) -> bool:
        # A temporary has no declaration of its own (`auto p = std::make_unique<sycl::buffer<…>>(…)`).
        return getattr(fact, "form", None) == "temporary" or not _foreign(
            _declaration_of(fact.name, fact.span, declarations)
        )

    return replace(
        facts,
        buffers=tuple(filter(keep, facts.buffers)),
        accessors=tuple(filter(keep, facts.accessors)),
        local_allocations=tuple(filter(keep, facts.local_allocations)),
        queues=tuple(filter(keep, facts.queues)),
    )


def _template_arguments(type_text: str, cls: str) -> list[str] | None:
    """The template arguments of a canonical `sycl::<cls><…>` type, split at top-level commas."""
    match = re.match(rf"(?:const\s+)?sycl::(?:_V1::)?{cls}(?:<(.*)>)?\s*$", type_text)
    if match is None:
        return None
    inner, depth, current, parts = match.group(1) or "", 0, "", []
    for char in inner:
        depth += (char in "<(" and 1) or (-1 if char in ">)" else 0)
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()] if current.strip() else parts


_MODE_VALUES = dict(
    zip(range(1024, 1030), ("read", "write", "read_write", "discard_write", "discard_read_write", "atomic"))
)
_TARGETS: dict[str, AccessTarget] = {
    "device": "device",
    "global_buffer": "device",
    "constant_buffer": "constant",
    "local": "local",
    "host_buffer": "host",
    "host_task": "host",
}


def _accessor_mode(arguments: list[str]) -> tuple[AccessMode, AccessTarget] | None:
    """Mode and target of a resolved `sycl::accessor<T, D, mode, target>` type (defaults included)."""
    mode_text = arguments[2] if len(arguments) > 2 else "read_write"
    target_text = arguments[3] if len(arguments) > 3 else "device"
    value = re.fullmatch(r"\(.*\)\s*(\d+)", mode_text)
    mode = _MODE_VALUES.get(int(value.group(1))) if value else MODE_WORDS.get(mode_text.rsplit("::", 1)[-1])
    target = _TARGETS.get(target_text.rsplit("::", 1)[-1])
    if mode is None or target is None:
        return None
    return cast(AccessMode, mode), target


def _add_from_declarations(
    facts: FileFacts, unit: CppUnit, declarations: list[Declaration], clang: ClangUnit
) -> FileFacts:
    """Buffers a macro declares, and accessors whose mode only their resolved type shows."""
    data = unit.data
    buffers = list(facts.buffers)
    accessors: list[Accessor] = []
    refined: list[Accessor] = []
    for fact in facts.accessors:
        declaration = _declaration_of(fact.name, fact.span, declarations)
        arguments = _template_arguments(declaration.type, "accessor") if declaration else None
        mode = _accessor_mode(arguments) if arguments else None
        if fact.mode is None and mode is not None and mode[0] != "read_write" and fact.form == "constructor":
            fact = replace(fact, mode=mode[0])
        refined.append(fact)
    placed = (
        [f.span for f in facts.buffers] + [f.span for f in facts.accessors] + [f.span for f in facts.local_allocations]
    )
    for declaration in declarations:
        if not declaration.valid or declaration.field or declaration.start >= clang.size:
            continue  # (a functor's member holds an accessor made elsewhere, where its fact is)
        span = _span(data, declaration.start, declaration.end)
        if any(s.start_byte < declaration.end and declaration.start < s.end_byte for s in placed):
            continue  # tree-sitter has a fact for this declaration already
        if declaration.in_macro and _template_arguments(declaration.type, "buffer") is not None:
            buffers.append(Buffer(span, declaration.name, "declaration", None, False))
            continue
        arguments = _template_arguments(declaration.type, "accessor")
        mode = _accessor_mode(arguments) if arguments else None
        if mode is None or mode[1] not in ("device", "constant"):
            continue
        span = _declaration_span(unit.root, span)
        text = data[declaration.start : declaration.end].decode("utf-8", "replace")
        buffer = re.search(r"[({]\s*([A-Za-z_]\w*)\s*,", text)
        group = next(
            (
                launch.command_group
                for launch in facts.launches
                if launch.command_group is not None and launch.command_group.contains(span)
            ),
            None,
        )
        properties = ("no_init",) if re.search(r"\bno_init\b", text) else ()
        accessors.append(
            Accessor(
                span,
                declaration.name,
                buffer.group(1) if buffer else None,
                mode[0],
                None,
                None,
                "constructor",
                properties,
                mode[1],
                group,
            )
        )
    if accessors:
        accessors = analyse_accessor_uses(unit, facts.launches, accessors)
    ordered = sorted((*refined, *accessors), key=lambda a: a.span.start_byte)
    return replace(facts, buffers=tuple(sorted(buffers, key=lambda b: b.span.start_byte)), accessors=tuple(ordered))


def _declaration_span(root: tree_sitter.Node, span: Span) -> Span:
    """The span of tree-sitter's declaration statement around clang's declaration (which stops
    before the `;`), so the accessor analyses find the node again; `span` when there is none."""
    node: tree_sitter.Node | None = root.descendant_for_byte_range(span.start_byte, span.end_byte)
    while node is not None and node.type != "declaration":
        node = node.parent
    return span_of(node) if node is not None and node.start_byte == span.start_byte else span


def _span(data: bytes, start: int, end: int) -> Span:
    """A span from byte offsets (lines 1-based, columns in bytes)."""
    line = data.count(b"\n", 0, start) + 1
    end_line = data.count(b"\n", 0, end) + 1
    return Span(
        start, end, line, start - (data.rfind(b"\n", 0, start) + 1), end_line, end - (data.rfind(b"\n", 0, end) + 1)
    )
