"""Kernel launches whose sizes are template arguments, read per instantiation (clang front-end).

tree-sitter knows a template parameter's value only when every instantiation written in the file
passes the same one; when `Reduce<16>` and `Reduce<32>` are both launched, or `launch<256>` and
`launch<2048>` both called, the size stays unknown and the rules stay silent. libclang knows each
instantiation's arguments (`clang_Cursor_getTemplateArgumentValue`), so:

- a launch of a functor class template (`q.parallel_for(r, Reduce<32>{…})`) is read again with the
  arguments of the instantiation it launches bound to the class template's parameters: its
  `reqd_sub_group_size` (and `reqd_work_group_size`) become known, and `instantiation` names it;
- a launch written in a function template is read again once per instantiation the file calls, with
  that instantiation's arguments bound to the function template's parameters; each reading whose
  sizes tree-sitter could not know becomes one of the launch's `instances`.

Only sizes tree-sitter left unknown are taken from a reading; everything else stays tree-sitter's.
The re-reading is tree-sitter's own launch reader with a constant table that answers the bound
parameters, so the sizes are evaluated exactly as everywhere else. Dependent uses (an instantiation
written inside another template) are not resolved by libclang's AST and are left alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any, cast

import tree_sitter
from clang import cindex

from kernlint.analysis.consteval import evaluate
from kernlint.facts import Extent, FileFacts, KernelLaunch
from kernlint.frontends.clang.native import in_main_file
from kernlint.frontends.clang.unit import ClangUnit
from kernlint.frontends.common.nodes import text_of
from kernlint.frontends.cpp.constants import CppConstants
from kernlint.frontends.cpp.sycl.launches import LaunchReader
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.records import record

_KIND = cindex.CursorKind
_MAX_INSTANTIATIONS = 16  # per template: a file instantiating more is generated code, read as tree-sitter does
_MAX_DEPTH = 16


@record
class Instantiation:
    """One instantiation of a template of the main file: its name as written for a reader
    (`launch<2048>`), where its template starts and its integral arguments by parameter index."""

    name: str
    template: tuple[int, int]  # byte extent of the template declaration (from `template`)
    values: tuple[tuple[int, int], ...]


def instantiate_launches(facts: FileFacts, unit: CppUnit, clang: ClangUnit) -> FileFacts:
    """`facts` with the launches whose sizes are template arguments read per instantiation."""
    launches = [launch for launch in facts.launches if _unknown(launch)]
    if not launches:
        return facts
    found = _Instantiations(clang)
    reader = LaunchReader(unit, _functors(unit))
    changed: dict[int, KernelLaunch] = {}
    for launch in launches:
        functor = found.functor_at(launch.span.start_byte, launch.span.end_byte)
        if functor is not None:
            reading = _read(unit, reader, launch, functor)
            if reading is not None:
                changed[id(launch)] = reading
            continue
        instances = [
            reading
            for instantiation in found.enclosing(launch.span.start_byte)
            if (reading := _read(unit, reader, launch, instantiation)) is not None
        ]
        if instances:
            changed[id(launch)] = replace(launch, instances=tuple(instances))
    if not changed:
        return facts
    return replace(facts, launches=tuple(changed.get(id(launch), launch) for launch in facts.launches))


def _unknown(launch: KernelLaunch) -> bool:
    """Whether a size of the launch is written but was not evaluated."""
    attributes = launch.attributes
    return (
        (attributes.reqd_sub_group_size is None and attributes.reqd_sub_group_size_text is not None)
        or _partly_unknown(attributes.reqd_work_group_size)
        or _partly_unknown(launch.local_range)
        or _partly_unknown(launch.global_range)
    )


def _partly_unknown(extent: Extent | None) -> bool:
    return extent is not None and not extent.known


def _read(
    unit: CppUnit, reader: LaunchReader, launch: KernelLaunch, instantiation: Instantiation
) -> KernelLaunch | None:
    """The launch as `instantiation` runs it: the sizes tree-sitter left unknown, evaluated with the
    instantiation's arguments; None when none of them becomes known (or the call is not found again)."""
    call = _call_node(unit.root, launch)
    if call is None:
        return None
    inner = unit.constants
    unit.constants = cast(CppConstants, _BoundConstants(inner, instantiation))
    try:
        reading = reader.launch(launch.api, call)
    finally:
        unit.constants = inner
    if reading is None:
        return None
    old, new = launch.attributes, reading.attributes
    attributes = old
    if old.reqd_sub_group_size is None and new.reqd_sub_group_size is not None:
        attributes = replace(attributes, reqd_sub_group_size=new.reqd_sub_group_size)
    if _partly_unknown(old.reqd_work_group_size) and _known(new.reqd_work_group_size):
        attributes = replace(attributes, reqd_work_group_size=new.reqd_work_group_size)
    global_range = _better(launch.global_range, reading.global_range)
    local_range = _better(launch.local_range, reading.local_range)
    if (attributes, global_range, local_range) == (old, launch.global_range, launch.local_range):
        return None
    return replace(
        launch,
        attributes=attributes,
        global_range=global_range,
        local_range=local_range,
        instantiation=instantiation.name,
    )


def _known(extent: Extent | None) -> bool:
    return extent is not None and extent.known


def _better(old: Extent | None, new: Extent | None) -> Extent | None:
    """The reading's extent where tree-sitter's was written but not fully evaluated."""
    return (
        new
        if _partly_unknown(old) and _known(new) and new is not None and old is not None and new.text == old.text
        else old
    )


def _call_node(root: tree_sitter.Node, launch: KernelLaunch) -> tree_sitter.Node | None:
    node: tree_sitter.Node | None = root.descendant_for_byte_range(launch.span.start_byte, launch.span.end_byte)
    while node is not None and not (
        node.type == "call_expression"
        and node.start_byte == launch.span.start_byte
        and node.end_byte == launch.span.end_byte
    ):
        node = node.parent
    return node


def _functors(unit: CppUnit) -> dict[str, tree_sitter.Node]:
    """The file's classes with an `operator()`, by name (as the tree-sitter front-end collects them)."""
    found: dict[str, tree_sitter.Node] = {}
    for _index, match in unit.file_matches["cpp"]:
        if "functor.def" in match:
            found[text_of(match["functor.class"][0])] = match["functor.def"][0]
    return found


class _BoundConstants:
    """The file's constant table with one instantiation's arguments bound to its template's parameters
    (and the constants the template computes from them: `constexpr int tile = WG / 2;`)."""

    def __init__(self, inner: CppConstants, instantiation: Instantiation) -> None:
        self._inner = inner
        self._template = instantiation.template
        self._values = dict(instantiation.values)

    def value(self, text: str, at_byte: int) -> int | None:
        return self._value(text, at_byte, 0)

    def node_value(self, node: tree_sitter.Node) -> int | None:
        return self._value(text_of(node), node.start_byte, 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _value(self, text: str, at_byte: int, depth: int) -> int | None:
        return evaluate(text, lambda name: self._resolve(name, at_byte, depth))

    def _resolve(self, name: str, at_byte: int, depth: int) -> int | None:
        definition = None if "::" in name or depth > _MAX_DEPTH else self._inner.definition(name, at_byte)
        lo, hi = self._template
        if definition is not None and definition.kind == "tparam" and definition.scope[0] == self._template[0]:
            return self._values.get(definition.template_index)
        if (
            definition is not None
            and definition.kind == "var"
            and definition.value_text
            and lo <= definition.start_byte < hi
            and self._inner.macro_body(name) is None
            and not self._inner.written(definition)
        ):
            return self._value(definition.value_text, definition.start_byte, depth + 1)
        return self._inner.value(name, at_byte)


class _Instantiations:
    """The instantiations of the main file's templates that libclang resolved: the functor type each
    launch call passes, and the specialisations each function template is called or named with."""

    def __init__(self, clang: ClangUnit) -> None:
        self._functors: dict[tuple[int, int], Instantiation] = {}
        self._functions: dict[tuple[int, int], dict[str, Instantiation]] = {}
        for cursor in clang.main_cursors():
            if cursor.kind == _KIND.CALL_EXPR:
                self._functor_call(cursor)
            if cursor.kind in (_KIND.CALL_EXPR, _KIND.DECL_REF_EXPR):
                self._function_use(cursor)

    def functor_at(self, start: int, end: int) -> Instantiation | None:
        """The functor class template instantiation the launch call at [start, end) passes."""
        return self._functors.get((start, end))

    def enclosing(self, at: int) -> Iterator[Instantiation]:
        """The instantiations of the innermost function template around byte `at`."""
        around = [extent for extent in self._functions if extent[0] <= at < extent[1]]
        if around:
            innermost = min(around, key=lambda extent: extent[1] - extent[0])
            yield from list(self._functions[innermost].values())[:_MAX_INSTANTIATIONS]

    def _functor_call(self, call: cindex.Cursor) -> None:
        arguments = list(call.get_arguments())
        if not arguments:
            return
        declaration = arguments[-1].type.get_canonical().get_declaration()
        if declaration.kind not in (_KIND.STRUCT_DECL, _KIND.CLASS_DECL):
            return
        instantiation = _instantiation(declaration, _KIND.CLASS_TEMPLATE)
        if instantiation is not None:
            extent = call.extent
            self._functors[(extent.start.offset, extent.end.offset)] = instantiation

    def _function_use(self, use: cindex.Cursor) -> None:
        referenced = use.referenced
        if referenced is None or referenced.kind not in (_KIND.FUNCTION_DECL, _KIND.CXX_METHOD):
            return
        instantiation = _instantiation(referenced, _KIND.FUNCTION_TEMPLATE)
        if instantiation is not None:
            self._functions.setdefault(instantiation.template, {})[instantiation.name] = instantiation


def _instantiation(specialization: cindex.Cursor, template_kind: cindex.CursorKind) -> Instantiation | None:
    """The instantiation a specialisation cursor stands for, when its template is in the main file
    and every argument is resolved (no parameter pack)."""
    count = specialization.get_num_template_arguments()
    if count <= 0:
        return None
    template = cindex.conf.lib.clang_getSpecializedCursorTemplate(specialization)
    if template is None or template.kind != template_kind or not in_main_file(template):
        return None
    parameters = [
        c
        for c in template.get_children()
        if c.kind
        in (_KIND.TEMPLATE_TYPE_PARAMETER, _KIND.TEMPLATE_NON_TYPE_PARAMETER, _KIND.TEMPLATE_TEMPLATE_PARAMETER)
    ]
    if len(parameters) != count or any("..." in _tokens(p) for p in parameters):
        return None
    words: list[str] = []
    values: list[tuple[int, int]] = []
    for index in range(count):
        kind = specialization.get_template_argument_kind(index)
        if kind == cindex.TemplateArgumentKind.INTEGRAL:
            value = int(specialization.get_template_argument_value(index))
            values.append((index, value))
            words.append(str(value))
        elif kind == cindex.TemplateArgumentKind.TYPE:
            words.append(specialization.get_template_argument_type(index).spelling)
        else:
            return None
    extent = template.extent
    return Instantiation(
        f"{specialization.spelling}<{', '.join(words)}>", (extent.start.offset, extent.end.offset), tuple(values)
    )


def _tokens(cursor: cindex.Cursor) -> list[str]:
    return [token.spelling for token in cursor.get_tokens()]
