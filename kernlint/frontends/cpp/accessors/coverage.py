"""Whether a kernel's writes overwrite the whole buffer an accessor is created over.

A write covers the buffer when it is unconditional, at the work-item's own index over a global range
equal to the buffer's extent (or in a counting loop over that extent), or guarded only by bounds
checks that the range proves true. Extents are compared by value, or by identical text when every
name in it is never reassigned in the function.
"""

from __future__ import annotations

import re

import tree_sitter

from kernlint.analysis.consteval import type_size
from kernlint.facts import Accessor, Buffer, Extent, KernelLaunch, Span
from kernlint.frontends.common.nodes import arguments_of, node_at, span_of, text_of
from kernlint.frontends.cpp.accessors.index import Index, Write, is_own
from kernlint.frontends.cpp.accessors.mode_syntax import is_property, template_args
from kernlint.frontends.cpp.sycl.constructions import buffer_of, construction_from_call, construction_from_decl
from kernlint.frontends.cpp.sycl.containers import container_size
from kernlint.frontends.cpp.sycl.ranges import evaluate_range
from kernlint.frontends.cpp.syntax import no_spaces
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.records import record

Node = tree_sitter.Node

_CONTAINER_MUTATORS = r"resize|push_back|emplace_back|pop_back|clear|erase|insert|assign|swap|reserve"


@record
class Coverage:
    """What is known of an accessor's buffer and whether one of the kernel's writes covers it."""

    buffer: Buffer | None
    element_size: int | None
    range_matches: bool | None  # the launch's global range equals the buffer's extent (None: unknown)
    covering_write: Span | None


class CoverageReader:
    """Buffer extents, launch ranges and coverage in one file, each buffer and launch read once."""

    def __init__(self, unit: CppUnit) -> None:
        self.unit = unit
        self._assigned_in: dict[int, tuple[set[str], str]] = {}
        self._launch_texts_at: dict[int, tuple[str, ...] | None] = {}
        self._buffer_at: dict[int, tuple[Buffer | None, tuple[str, ...] | None, int | None]] = {}

    def coverage(
        self, accessor: Accessor, node: Node, launch: KernelLaunch, writes: list[Write], ranged: bool
    ) -> Coverage:
        """The coverage of the accessor created at `node` by `writes` in the kernel of `launch`
        (a ranged accessor sees part of the buffer, so none of its writes covers it)."""
        buffer, buffer_texts, element = self._buffer(accessor, node)
        launch_texts = self._launch_texts(launch)
        range_matches = self._same_extent(
            launch.global_range, launch_texts, buffer.extent if buffer else None, buffer_texts, launch
        )
        over_accessor = self._launch_over_accessor(launch, accessor)
        if over_accessor:
            range_matches = True
        covering = None
        if not ranged:
            for element_node, index, guards, ok in writes:
                if not ok:
                    continue
                if (
                    over_accessor and index == [Index("whole")] and not guards and not self._launch_has_offset(launch)
                ) or (buffer is not None and self._covers(index, guards, launch, range_matches, buffer, buffer_texts)):
                    covering = span_of(element_node)
                    break
        return Coverage(buffer, element, range_matches, covering)

    def _covers(
        self,
        index: list[Index],
        guards: list[Node],
        launch: KernelLaunch,
        range_matches: bool | None,
        buffer: Buffer,
        buffer_texts: tuple[str, ...] | None,
    ) -> bool:
        extent = buffer.extent
        dims = len(extent.dims) if extent is not None else (len(buffer_texts) if buffer_texts else 0)
        if not dims:
            return False
        if len(index) == 1 and index[0].kind == "const":
            return index[0].value == 0 and extent is not None and extent.total == 1 and not guards
        if len(index) == 1 and index[0].kind == "counter" and index[0].bound is not None:
            return dims == 1 and not guards and self._equals_dim(index[0].bound, extent, buffer_texts, 0)
        if launch.api != "parallel_for" or self._launch_has_offset(launch) or not is_own(index):
            return False
        if index[0].kind == "linear":
            if dims != 1:
                return False
        elif index[0].kind == "dim" and len(index) != dims:
            return False
        global_range = launch.global_range
        if global_range is not None and index[0].kind != "linear" and len(global_range.dims) != dims:
            return False
        if not guards:
            if (
                index[0].kind == "linear"
                and range_matches is not True
                and global_range is not None
                and global_range.known
                and extent is not None
                and extent.known
            ):
                return global_range.total == extent.total
            return range_matches is True
        if dims != 1 or not all(self._equals_dim(g, extent, buffer_texts, 0) for g in guards):
            return False
        if range_matches is True:
            return True
        global_total = global_range.total if global_range is not None else None
        extent_total = extent.total if extent is not None else None  # a total is known when every dimension is
        return global_total is not None and extent_total is not None and global_total >= extent_total

    def _equals_dim(self, bound: Node, extent: Extent | None, texts: tuple[str, ...] | None, dim: int) -> bool:
        value = self.unit.constants.value(text_of(bound), bound.start_byte)
        if value is not None and extent is not None and len(extent.dims) > dim and extent.dims[dim] is not None:
            return value == extent.dims[dim]
        if texts and len(texts) > dim:
            return no_spaces(text_of(bound)) == no_spaces(texts[dim]) and self._stable(texts[dim], bound)
        return False

    def _same_extent(
        self,
        launch_extent: Extent | None,
        launch_texts: tuple[str, ...] | None,
        buffer_extent: Extent | None,
        buffer_texts: tuple[str, ...] | None,
        launch: KernelLaunch,
    ) -> bool | None:
        if launch_extent is not None and buffer_extent is not None and launch_extent.known and buffer_extent.known:
            return launch_extent.dims == buffer_extent.dims
        if launch_texts and buffer_texts and len(launch_texts) == len(buffer_texts):
            call = node_at(self.unit.root, launch.span, ("call_expression",))
            if call is not None and all(
                no_spaces(a) == no_spaces(b) and self._stable(a, call) for a, b in zip(launch_texts, buffer_texts)
            ):
                return True
        return None

    def _stable(self, text: str, at: Node) -> bool:
        """Every name in `text` keeps its value through the function around `at` (never assigned or
        resized), and the text calls nothing but `.size()`."""
        if "(" in re.sub(r"\.\s*size\s*\(\s*\)", "", text):
            return False
        function = at
        while function.parent is not None and function.type != "function_definition":
            function = function.parent
        if function.id not in self._assigned_in:
            self._assigned_in[function.id] = (self.unit.assigned_names(function), text_of(function))
        assigned, body = self._assigned_in[function.id]
        for name in set(re.findall(r"[A-Za-z_]\w*", text)) - {"size"}:
            if name in assigned or re.search(rf"\b{re.escape(name)}\s*(\.|->)\s*({_CONTAINER_MUTATORS})\s*\(", body):
                return False
        return True

    def _launch_args(self, launch: KernelLaunch) -> list[Node]:
        call = node_at(self.unit.root, launch.span, ("call_expression",))
        return arguments_of(call.child_by_field_name("arguments")) if call is not None else []

    def _launch_texts(self, launch: KernelLaunch) -> tuple[str, ...] | None:
        """Per-dimension texts of a launch's range, needed only when it has no value."""
        if (
            launch.range_kind not in ("range", "scalar")
            or launch.api != "parallel_for"
            or (launch.global_range is not None and launch.global_range.known)
        ):
            return None
        key = launch.span.start_byte
        if key not in self._launch_texts_at:
            args = self._launch_args(launch)
            self._launch_texts_at[key] = self._dim_texts(args[0]) if len(args) >= 2 else None
        return self._launch_texts_at[key]

    def _launch_over_accessor(self, launch: KernelLaunch, accessor: Accessor) -> bool:
        """`parallel_for(acc.get_range(), …)`, or a one-dimensional range of `acc.size()` (the buffer's
        too, or `get_count()`): the launch is exactly the accessor's range."""
        if launch.api != "parallel_for" or not accessor.name:
            return False
        args = self._launch_args(launch)
        if len(args) != 2:
            return False
        text = no_spaces(text_of(args[0]))
        names = (accessor.name, accessor.buffer)
        if text in (f"{name}.get_range()" for name in names):
            return True
        wrapped = _ONE_DIMENSION.fullmatch(text)
        count = wrapped.group(1) if wrapped else text
        return count in (f"{name}.{method}()" for name in names for method in ("size", "get_count"))

    def _launch_has_offset(self, launch: KernelLaunch) -> bool:
        return any(re.search(r"\bid\b|offset", text_of(a)) for a in self._launch_args(launch)[1:-1])

    def _dim_texts(self, node: Node) -> tuple[str, ...] | None:
        """The per-dimension expressions of a range written at `node` (following range variables)."""
        parts: list[str] = []
        at = node.start_byte

        def value(text: str) -> int | None:
            parts.append(text.strip())
            return self.unit.constants.value(text, at)

        extent = evaluate_range(text_of(node), value, lambda n: self.unit.init_text(n, at))
        if extent is None or len(parts) != len(extent.dims):
            return None
        return tuple(parts)

    def _buffer(self, accessor: Accessor, node: Node) -> tuple[Buffer | None, tuple[str, ...] | None, int | None]:
        """The buffer the accessor is created over, when it is constructed in the file and visible here,
        with the per-dimension texts of its extent and its element size."""
        element = _element_size(template_args(node)[:1])
        name = re.sub(r"^this\s*->\s*", "", (accessor.buffer or "").strip())  # a member: `this->buf`
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return None, None, element
        definition = self.unit.constants.definition(name, accessor.span.start_byte)
        if (
            definition is not None
            and definition.kind == "var"
            and definition.value_text
            and re.fullmatch(r"&\s*[A-Za-z_]\w*", definition.value_text.strip())
        ):
            # `p->get_access(h)` with `buffer<T> *p = &buf;`: the buffer pointed to
            pointee = definition.value_text.strip()[1:].strip()
            definition = self.unit.constants.definition(pointee, definition.start_byte)
        if definition is None or definition.kind != "var":
            return None, None, element
        key = definition.start_byte
        if key not in self._buffer_at:
            self._buffer_at[key] = self._buffer_declared_at(definition.start_byte)
        buffer, texts, buffer_element = self._buffer_at[key]
        return buffer, texts, buffer_element or element

    def _buffer_declared_at(self, start_byte: int) -> tuple[Buffer | None, tuple[str, ...] | None, int | None]:
        decl = self.unit.root.descendant_for_byte_range(start_byte, start_byte + 1)
        while decl is not None and not (
            decl.type in ("declaration", "field_declaration") and decl.start_byte == start_byte
        ):
            decl = decl.parent
        if decl is None:
            return None, None, None
        construction = construction_from_decl(decl)
        if construction is None:
            declarator = decl.child_by_field_name("declarator")
            value = declarator.child_by_field_name("value") if declarator is not None else None
            if decl.type == "field_declaration":
                value = decl.child_by_field_name("default_value")
            callee = (
                (value.child_by_field_name("function") or value.child_by_field_name("type"))
                if value is not None
                else None
            )
            if value is not None and callee is not None:
                construction = construction_from_call(value, callee)
        if construction is None or construction.cls != "buffer":
            return None, None, None
        args = construction.args
        if (len(args) >= 3 and not is_property(args[2])) or any(
            re.search(r"\.\s*(c?r?begin|c?r?end)\s*\(", text_of(a)) for a in args
        ):
            return None, None, None  # a sub-buffer or an iterator range: the extent is not the range argument
        buffer = buffer_of(self.unit, construction, False)
        texts: tuple[str, ...] | None = None
        single = args and (len(args) == 1 or is_property(args[1])) and re.fullmatch(r"[A-Za-z_]\w*", text_of(args[0]))
        element = _element_size(construction.template_args[:1])
        if single and buffer.extent is not None:
            texts = (buffer.extent.text,) if buffer.extent.text else None  # a container's or a count's size
            if element is None:  # `sycl::buffer b(vec)`: the element type is the container's
                size = container_size(self.unit, args[0], construction.node)
                element = type_size(size.element) if size is not None and size.element else None
        elif single:
            texts = (f"{text_of(args[0])}.size()",)  # a container of a type not read here: its size by name
        elif buffer.extent is not None and not buffer.extent.known:
            range_arg = args[1] if buffer.has_host_data and len(args) >= 2 else args[0]
            texts = self._dim_texts(range_arg)
        return buffer, texts, element


#: A one-dimensional range around a count: `sycl::range<1>(n)`, `range{n}`.
_ONE_DIMENSION = re.compile(r"(?:sycl::)?range(?:<1>)?[({](.*)[)}]")


def _element_size(args: list[Node]) -> int | None:
    return type_size(text_of(args[0])) if args else None
