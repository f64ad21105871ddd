"""Which memory a subscript in SYCL device code indexes: global (a USM pointer, a buffer accessor, a
pointer parameter passed one) or work-group local (a `local_accessor`, `group_local_memory`, a
parameter passed one), its element type and the extents of its dimensions.

A name is followed to where its memory comes from: a capture to its host declaration, a pointer
declared in device code to its initialiser (`float *row = a + i * n`), a device function's parameter
to the arguments of every call that reaches it (they must agree). Arrays declared in device code
are private to the work-item and are not memory the lanes share: they resolve to nothing, as does
anything kernlint cannot follow.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import tree_sitter

from kernlint.analysis.names import Local
from kernlint.facts import LocalAllocation, Span
from kernlint.facts.kinds import MemorySpace
from kernlint.frontends.common.nodes import arguments_of, text_of
from kernlint.frontends.cpp.dependence.context import UnitContext
from kernlint.frontends.cpp.dependence.nodes import Key, call_parts
from kernlint.frontends.cpp.dependence.program import CppDependence
from kernlint.frontends.cpp.types import CppTypes, Declared
from kernlint.records import record

Node = tree_sitter.Node

_TEMPLATE_ARGS = re.compile(r"<(.*)>")
_ACCESSOR = re.compile(r"(?:^|::)(?:accessor|local_accessor|host_accessor|raw_local_ptr|local_ptr|global_ptr)\b")
_LOCAL = re.compile(r"local_accessor|local_ptr|target::local|local_space|group_local_memory")
_MALLOC = re.compile(r"\bmalloc_(?:device|shared|host)\s*<\s*(?P<type>[^>]+?)\s*>|\bmalloc\s*<\s*(?P<t2>[^>]+?)\s*>")
_GROUP_LOCAL = re.compile(r"group_local_memory(?:_for_overwrite)?\s*<\s*(?P<type>.+)\s*>\s*\(")
_POINTER_METHODS = frozenset({"get_pointer", "get_multi_ptr", "get", "get_raw_pointer"})
_VALUE_WRAPPERS = frozenset({"parenthesized_expression"})
_MAX_DEPTH = 12


@record(slots=True)
class MemoryObject:
    """Memory the lanes share: its space, the type one index step covers at the innermost level, and
    the extents of the dimensions a subscript chain walks (`float (*t)[33]`: (None, 33); `float *p`:
    (None,); a 2-D accessor: (None, None))."""

    name: str
    space: MemorySpace
    element_type: str | None
    extents: tuple[int | None, ...]


class MemoryObjects:
    """Resolves the base of a subscript to the memory it indexes, in one file's device code."""

    def __init__(
        self,
        dependence: CppDependence,
        types: CppTypes,
        in_device: Callable[[int], bool],
        local_allocations: tuple[LocalAllocation, ...],
        calls: dict[Key, list[tuple[Node, UnitContext]]],
    ) -> None:
        self._dependence = dependence
        self._types = types
        self._in_device = in_device
        self._locals = local_allocations
        self._calls = calls  # device function -> the calls that reach it, with the caller's unit
        self._busy: set[tuple[Key, int]] = set()
        self._parameters: dict[tuple[Key, int], MemoryObject | None] = {}
        self._names: dict[tuple[str, Key], MemoryObject | None] = {}  # a name means one memory in a unit

    def of(self, base: Node, context: UnitContext, depth: int = 0) -> MemoryObject | None:
        """The memory `base` (the part before a subscript) points into, or None."""
        if depth > _MAX_DEPTH:
            return None
        node = base
        if node.type in _VALUE_WRAPPERS and node.named_children:
            return self.of(node.named_children[0], context, depth + 1)
        if node.type == "cast_expression":
            inner = node.child_by_field_name("value")
            found = self.of(inner, context, depth + 1) if inner is not None else None
            cast = _pointee(text_of(node.child_by_field_name("type")))
            return replace(found, element_type=cast, extents=(None,)) if found is not None and cast else found
        if node.type == "call_expression":
            receiver, name, args = call_parts(node)
            if receiver is not None and name in _POINTER_METHODS:
                return self.of(receiver, context, depth + 1)
            if receiver is None and name in ("static_cast", "reinterpret_cast") and len(args) == 1:
                return self.of(args[0], context, depth + 1)
            return None
        if node.type == "binary_expression" and text_of(node.child_by_field_name("operator")) in ("+", "-"):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            found = self.of(left, context, depth + 1) if left is not None else None
            if found is None and right is not None and text_of(node.child_by_field_name("operator")) == "+":
                found = self.of(right, context, depth + 1)
            return found
        if node.type == "pointer_expression" and text_of(node.child_by_field_name("operator")) == "&":
            inner = node.child_by_field_name("argument")  # &a[k]: the array a
            while inner is not None and inner.type == "subscript_expression":
                inner = inner.child_by_field_name("argument")
            return self.of(inner, context, depth + 1) if inner is not None else None
        if node.type != "identifier":
            return None
        key = (text_of(node), context.source.key)
        if key not in self._names:
            self._names[key] = self._named(key[0], node, context, depth)
        return self._names[key]

    def _named(self, name: str, node: Node, context: UnitContext, depth: int) -> MemoryObject | None:
        scopes = self._dependence.scopes
        if scopes.lookup_handle(context, name) is not None or name in context.id_like:
            return None
        declared = self._in_units(name, node, context)
        if declared is None:
            declared = self._types.declared(name, node)
        if declared is None:
            return None
        if declared.parameter:
            index = next((i for i, p in enumerate(context.params) if p[0] == name), None)
            if index is not None and context.source.parent is None and context.source.index_param is None:
                return self._parameter(context.source.key, index, declared)
            if index is not None:
                return None  # a kernel lambda's or a nested lambda's parameter: not memory we can follow
        if self._in_device(declared.start_byte) and not declared.parameter:
            return self._device_local(declared, context, depth)
        return self._captured(declared)

    def _in_units(self, name: str, node: Node, context: UnitContext) -> Declared | None:
        """A local the device units around `node` declare (their scopes know it): read from its declaration."""
        variable = self._dependence.scopes.variable(context, name, node.start_byte)
        if not isinstance(variable, Local):
            return None
        owner = self._dependence.scopes.contexts.get(self._dependence.scopes.owners.get(variable))  # type: ignore[arg-type]
        for declaration in (owner or context).source.nodes.get("decl", []):
            if declaration.start_byte == variable.declared_at:
                return self._types.read(declaration, name)
        return None

    def _device_local(self, declared: Declared, context: UnitContext, depth: int) -> MemoryObject | None:
        """A name declared in device code: a pointer into other memory, group-local memory, or private."""
        value = declared.value
        text = text_of(value) if value is not None else ""
        group_local = _GROUP_LOCAL.search(text)
        if group_local is not None:
            element, extents = _array_type(group_local.group("type"))
            return MemoryObject(declared.name, "local", element, extents or (1,))
        if value is None or not (declared.pointers or declared.reference or declared.type_text == "auto"):
            return None  # an array or a value of the work-item's own
        found = self.of(value, context, depth + 1)
        if found is None or declared.type_text == "auto" or declared.reference:
            return found
        if declared.shape is None or declared.pointers != 1:
            return None
        return MemoryObject(declared.name, found.space, declared.type_text, declared.shape)

    def _captured(self, declared: Declared) -> MemoryObject | None:
        """A name declared outside device code (a capture, a functor member, a global)."""
        text = declared.type_text
        if _ACCESSOR.search(text) or text == "auto":
            return self._accessor(declared)
        if declared.pointers == 1 and declared.shape is not None:
            return MemoryObject(declared.name, "global", text, declared.shape)
        return None  # a value, an array of pointers, a pointer to pointers: not followed

    def _accessor(self, declared: Declared) -> MemoryObject | None:
        text = declared.type_text
        value_text = text_of(declared.value) if declared.value is not None else ""
        if text == "auto":
            malloc = _MALLOC.search(value_text)
            if malloc is not None:
                return MemoryObject(declared.name, "global", malloc.group("type") or malloc.group("t2"), (None,))
            if not re.search(r"\bget_access\b|\baccessor\b", value_text):
                return None
        local = _LOCAL.search(text) or _LOCAL.search(value_text)
        allocation = self._allocation(declared) if local else None
        element, dims = _accessor_type(text)
        if element is None:
            element, dims = self._buffer_type(declared)
        if allocation is not None:
            element = element or allocation.element_type
            extents = allocation.extent.dims if allocation.extent is not None else (None,) * (dims or 1)
            return MemoryObject(declared.name, "local", element, tuple(extents))
        if local:
            return MemoryObject(declared.name, "local", element, (None,) * (dims or 1))
        return MemoryObject(declared.name, "global", element, (None,) * (dims or 1))

    def _allocation(self, declared: Declared) -> LocalAllocation | None:
        return next(
            (a for a in self._locals if a.name == declared.name and a.span.start_byte == declared.start_byte), None
        )

    def _buffer_type(self, declared: Declared) -> tuple[str | None, int | None]:
        """`auto a = b.get_access<…>(h)` / `accessor a(b, h, …)`: the element type of the buffer `b`."""
        value = declared.value
        if value is None:
            return None, None
        if value.type == "call_expression":
            receiver, _name, args = call_parts(value)
            buffer = receiver if receiver is not None else (args[0] if args else None)
        else:
            found = arguments_of(value)
            buffer = found[0] if found else None
        if buffer is None or buffer.type != "identifier":
            return None, None
        owner = self._types.declared(text_of(buffer), buffer)
        if owner is None:
            return None, None
        return _accessor_type(owner.type_text)

    def _parameter(self, function: Key, index: int, declared: Declared) -> MemoryObject | None:
        """A device function's pointer (or accessor) parameter: the memory every call passes it."""
        key = (function, index)
        if key in self._parameters:
            return self._parameters[key]
        if key in self._busy:
            return None
        self._busy.add(key)
        typed = _LOCAL.search(declared.type_text)
        spaces: set[MemorySpace] = {"local"} if typed else set()
        passed: MemoryObject | None = None
        for call, caller in self._calls.get(function, []):
            _receiver, _name, args = call_parts(call)
            arg = args[index] if index < len(args) else None
            found = self.of(arg, caller) if arg is not None else None
            if found is None:
                spaces.add("unknown")  # type: ignore[arg-type]
                continue
            spaces.add(found.space)
            passed = passed or found
        self._busy.discard(key)
        result = None
        if len(spaces) == 1 and "unknown" not in spaces and (passed is not None or typed):
            space = next(iter(spaces))
            if _ACCESSOR.search(declared.type_text):
                element, dims = _accessor_type(declared.type_text)
                extents: tuple[int | None, ...] = (
                    passed.extents
                    if passed is not None and len(passed.extents) == (dims or 1)
                    else (None,) * (dims or 1)
                )
                result = MemoryObject(declared.name, space, element, extents)
            elif declared.shape is not None:
                result = MemoryObject(declared.name, space, declared.type_text, declared.shape)
        self._parameters[key] = result
        return result


def calls_into(
    dependence: CppDependence, scans: dict[Key, dict[str, list[Node]]], callees: Callable[[Node], list[Key]]
) -> dict[Key, list[tuple[Node, UnitContext]]]:
    """Every device function of the file with the calls that reach it and the unit each is made in."""
    found: dict[Key, list[tuple[Node, UnitContext]]] = {}
    for captures in scans.values():
        for call in captures.get("call", []):
            targets = callees(call)
            if not targets:
                continue
            caller = dependence.context_of(call)
            if caller is None:
                continue
            for target in targets:
                found.setdefault(target, []).append((call, caller))
    return found


def _accessor_type(type_text: str) -> tuple[str | None, int | None]:
    """(element type, dimensions) of `accessor<T, N, …>` / `local_accessor<T, N>` as written."""
    match = _TEMPLATE_ARGS.search(type_text)
    if match is None:
        return None, None
    args = _split_arguments(match.group(1))
    element = args[0].strip() if args else None
    dims = int(args[1]) if len(args) > 1 and args[1].strip().isdigit() else (1 if len(args) == 1 else None)
    return element or None, dims


def _array_type(text: str) -> tuple[str, tuple[int | None, ...]]:
    """`float[16][17]` → ("float", (16, 17)); `T` → (T, ())."""
    extents = tuple(int(e) if e.strip().isdigit() else None for e in re.findall(r"\[([^\]]*)\]", text))
    return re.sub(r"\[[^\]]*\]", "", text).strip(), extents


def _pointee(type_text: str) -> str | None:
    """`float *` → float; anything but a single pointer → None."""
    text = " ".join(type_text.split())
    if text.count("*") != 1 or not text.endswith("*"):
        return None
    return re.sub(r"\b(?:const|volatile)\b", "", text[:-1]).strip() or None


def _split_arguments(text: str) -> list[str]:
    """Template arguments split at top-level commas."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current] if current.strip() else parts


def span_in(spans: list[Span]) -> Callable[[int], bool]:
    """Whether a byte lies in one of `spans`."""
    return lambda at: any(s.start_byte <= at < s.end_byte for s in spans)
