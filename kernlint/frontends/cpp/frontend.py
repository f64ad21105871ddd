"""The tree-sitter C/C++ front-end: SYCL and OpenMP C/C++ source to `FileFacts`.

The file is parsed once; one query (`queries/cpp.scm`) finds every node of interest in C, and Python
only interprets those few nodes. Kernel bodies are found first, because "is this inside device code?"
decides how loops, buffers and barriers are classified.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable

import tree_sitter

from kernlint.facts import (
    Accessor, Barrier, Buffer, Extent, FileFacts, KernelAttributes, KernelLaunch, LocalAllocation, Loop,
    Pragma, QueueConstruction, Span,
)
from kernlint.analysis.consteval import ARITHMETIC_SIZES
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.preprocess import blank_disabled_blocks
from kernlint.frontends.cpp.accessors import analyse_accessor_uses
from kernlint.frontends.cpp.constants import CppConstants
from kernlint.frontends.cpp.device import analyse_device_code
from kernlint.frontends.cpp.openmp import openmp_facts
from kernlint.frontends.cpp.ranges import evaluate_nd_range, evaluate_range

_LAUNCH_METHODS = frozenset({"parallel_for", "single_task", "parallel_for_work_group"})
_SYCL_CLASSES = frozenset({"buffer", "accessor", "host_accessor", "local_accessor", "queue"})
_MODE_WORDS = {
    "read": "read", "write": "write", "read_write": "read_write", "discard_write": "discard_write",
    "discard_read_write": "discard_read_write", "atomic": "atomic",
    "read_only": "read", "write_only": "write",
}
_TARGET_WORDS = {"local": "local", "constant_buffer": "constant", "host_buffer": "host", "global_buffer": "device",
                 "device": "device", "host_task": "host"}
_SYCL_USAGE = re.compile(rb"\bsycl\b|\bparallel_for\b|\bsingle_task\b")


def _text(node: tree_sitter.Node | None) -> str:
    return node.text.decode("utf-8", errors="replace") if node is not None and node.text is not None else ""


def span_of(node: tree_sitter.Node) -> Span:
    return Span(node.start_byte, node.end_byte, node.start_point[0] + 1, node.start_point[1],
                node.end_point[0] + 1, node.end_point[1])


def _arguments(node: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """The argument nodes of an argument_list / initializer_list / parameter_list (vexing parse)."""
    if node is None:
        return []
    return [c for c in node.named_children if c.type != "comment"]


def _base_type(node: tree_sitter.Node | None) -> tuple[str, tree_sitter.Node | None]:
    """The unqualified class name of a type node and its template argument list, if any."""
    while node is not None and node.type == "qualified_identifier":
        node = node.child_by_field_name("name")
    if node is None:
        return "", None
    if node.type in ("template_type", "template_function"):
        return _text(node.child_by_field_name("name")), node.child_by_field_name("arguments")
    return _text(node), None


def _method_field(call: tree_sitter.Node) -> tree_sitter.Node | None:
    """The method name node of `obj.m(…)`, `obj.m<T>(…)` or `obj.template m<T>(…)`."""
    function = call.child_by_field_name("function")
    field = function.child_by_field_name("field") if function is not None else None
    if field is not None and field.type == "dependent_name":
        field = field.named_children[0] if field.named_children else None
    return field


def _inside_any(regions: list[Span]) -> Callable[[tree_sitter.Node], bool]:
    """A test of whether a node lies inside one of `regions` (spans of nodes, so nested or disjoint),
    by bisection over the outermost ones."""
    starts: list[int] = []
    ends: list[int] = []
    for region in sorted(regions, key=lambda r: (r.start_byte, -r.end_byte)):
        if not ends or region.end_byte > ends[-1]:  # not nested in the previous outermost region
            starts.append(region.start_byte)
            ends.append(region.end_byte)

    def inside(node: tree_sitter.Node) -> bool:
        at = bisect_right(starts, node.start_byte) - 1
        return at >= 0 and node.end_byte <= ends[at]

    return inside


def _last_word(text: str) -> str:
    return re.split(r"::|\.", text.strip())[-1].strip()


@dataclass
class _Construction:
    """A construction of a SYCL class, however it was spelled."""

    cls: str
    node: tree_sitter.Node
    type_node: tree_sitter.Node
    template_args: list[tree_sitter.Node]
    args: list[tree_sitter.Node]
    name: str | None
    form: str


@dataclass
class _Kernel:
    """A kernel's callable: the lambda or functor operator() that the launch runs."""

    body: tree_sitter.Node | None
    kind: str | None
    params: tree_sitter.Node | None
    attributes: list[tree_sitter.Node]
    name: str | None


#: Query files run over the whole file, together in one walk of the tree: the front-end's own, the
#: symbol table of constant evaluation and the device-function index.
FILE_QUERIES = ("cpp", "cpp_symbols", "cpp_device_index")


class CppFrontend:
    """Extracts facts from one parsed C/C++ file."""

    def __init__(self, path: str, data: bytes, include_dirs: tuple[str, ...] = (),
                 defines: dict[str, str] | None = None) -> None:
        self.path = path
        self.data = data
        self.tree = treesitter.parser("cpp").parse(blank_disabled_blocks(data))
        self.root = self.tree.root_node
        self.file_matches = treesitter.matches_by_file("cpp", FILE_QUERIES, self.root)
        symbols = treesitter.as_captures(self.file_matches["cpp_symbols"])
        self._includes: list[str] = []
        self.constants = CppConstants(self.root, path, include_dirs, defines, includes=self._includes,
                                      symbols=symbols)
        self._assigned = symbols.get("assigned.name", [])
        self._functors: dict[str, tree_sitter.Node] = {}

    # -- driver ------------------------------------------------------------------------------

    def facts(self) -> FileFacts:
        groups: dict[str, list[tree_sitter.Node]] = {}
        members: list[tuple[str, tree_sitter.Node]] = []
        frees: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
        decls: list[tree_sitter.Node] = []
        loops: list[tuple[str, tree_sitter.Node]] = []
        for _index, match in self.file_matches["cpp"]:
            if "member.call" in match:
                members.append((_text(match["member.name"][0]), match["member.call"][0]))
            elif "free.call" in match:
                frees.append((match["free.call"][0], match["free.callee"][0]))
            elif "decl" in match:
                decls.append(match["decl"][0])
            elif "functor.def" in match:
                self._functors[_text(match["functor.class"][0])] = match["functor.def"][0]
            else:
                for name, nodes in match.items():
                    if name == "include.path":
                        self._includes.append(_text(nodes[0]))
                    elif name.startswith("loop."):
                        loops.append((name[5:], nodes[0]))
                    else:
                        groups.setdefault(name, []).extend(nodes)

        found = [self._launch(method, call) for method, call in members if method in _LAUNCH_METHODS]
        device = analyse_device_code(self, [launch for launch in found if launch is not None])
        launches = device.launches
        in_device = _inside_any([region for launch in launches for region in launch.regions])

        constructions = [c for c in (self._construction_from_decl(d) for d in decls) if c] + \
                        [c for c in (self._construction_from_call(n, t) for n, t in frees) if c]
        buffers, accessors, locals_, queues = [], [], [], []
        for c in constructions:
            if c.cls == "buffer":
                buffers.append(self._buffer(c, in_device(c.node)))
            elif c.cls == "queue":
                queues.append(QueueConstruction(span_of(c.node), c.name, tuple(_text(a) for a in c.args),
                                                tuple(self._declared_type(a) for a in c.args)))
            else:
                local = self._local_allocation(c)
                if local is not None:
                    locals_.append(local)
                else:
                    accessors.append(self._accessor_from_construction(c))
        for method, call in members:
            if method in ("get_access", "get_host_access"):
                accessors.append(self._accessor_from_get_access(method, call))
        accessors = analyse_accessor_uses(self, launches, accessors)
        barriers = [b for b in (self._barrier(m, c) for m, c in members if m == "barrier") if b and in_device(b[1])]
        barriers += [b for b in (self._group_barrier(n, t) for n, t in frees) if b and in_device(b[1])]

        pragmas = tuple(Pragma(span_of(node), self._pragma_text(node)) for node in groups.get("pragma", []))
        language = self._language(launches, pragmas)
        errors = tuple(span_of(n) for n in groups.get("error", []))
        omp, omp_branches = openmp_facts(self, pragmas)
        in_target = _inside_any([c.region for c in omp if c.region is not None and "target" in c.leaves])
        return FileFacts(
            path=self.path,
            language=language,
            launches=launches,
            buffers=tuple(buffers),
            accessors=tuple(accessors),
            local_allocations=tuple(locals_),
            barriers=tuple(sorted((b[0] for b in barriers), key=lambda b: b.span.start_byte)),
            loops=tuple(Loop(span_of(n), kind, "device" if in_device(n) or in_target(n) else "host")
                for kind, n in loops),
            queues=tuple(queues),
            pragmas=pragmas,
            branches=device.branches + omp_branches,
            block_accesses=device.block_accesses,
            omp=omp,
            syntax_errors=errors,
            dependencies=tuple(self.constants.dependencies),
        )

    def _language(self, launches: tuple[KernelLaunch, ...], pragmas: tuple[Pragma, ...]) -> str:
        if launches or _SYCL_USAGE.search(self.data):
            return "sycl"
        if any(p.text.split()[:1] == ["omp"] for p in pragmas):
            return "openmp-c"
        return "cpp"

    # -- kernel launches ---------------------------------------------------------------------

    def _launch(self, method: str, call: tree_sitter.Node) -> KernelLaunch | None:
        function = call.child_by_field_name("function")
        args = _arguments(call.child_by_field_name("arguments"))
        if function is None or not args:
            return None
        field = _method_field(call)
        kernel_name = None
        if field is not None and field.type == "template_method":
            targs = _arguments(field.child_by_field_name("arguments"))
            if targs:
                kernel_name = _last_word(re.sub(r"^(class|struct)\s+", "", _text(targs[0])))
        kernel = self._kernel_callable(args[-1])
        global_range = local_range = None
        range_kind = None
        if method != "single_task" and len(args) >= 2:
            first = _text(args[0])
            at = args[0].start_byte
            value = lambda t, at=at: self.constants.value(t, at)  # noqa: E731
            init_of = lambda n, at=at: self._init_text(n, at)  # noqa: E731
            nd = evaluate_nd_range(first, value, init_of)
            if nd is not None:
                range_kind, (global_range, local_range) = "nd_range", nd
            else:
                global_range = evaluate_range(first, value, init_of)
                range_kind = "scalar" if global_range and not re.search(r"range", first) else "range"
                if method == "parallel_for_work_group" and len(args) >= 3:
                    local_range = evaluate_range(_text(args[1]), value, init_of)
        index_param, index_type = self._index_parameter(kernel.params)
        command_group = self._command_group(call)
        return KernelLaunch(
            api=method,
            via="handler" if command_group is not None else "queue",
            span=span_of(call),
            name=kernel_name or kernel.name,
            range_kind=range_kind,
            global_range=global_range,
            local_range=local_range,
            attributes=self._attributes(kernel.attributes),
            body=span_of(kernel.body) if kernel.body is not None else None,
            body_kind=kernel.kind,
            index_param=index_param,
            index_type=index_type,
            command_group=command_group,
            function=self._enclosing_function_name(call),
        )

    def _kernel_callable(self, arg: tree_sitter.Node, depth: int = 0) -> _Kernel:
        if arg.type == "lambda_expression":
            declarator = arg.child_by_field_name("declarator")
            attributes = [a for a in (declarator.named_children if declarator else []) if a.type == "attribute_declaration"]
            attributes += [a for a in arg.named_children if a.type == "attribute_declaration"]
            params = declarator.child_by_field_name("parameters") if declarator else None
            return _Kernel(arg.child_by_field_name("body"), "lambda", params, attributes, None)
        type_name = None
        if arg.type in ("call_expression", "compound_literal_expression"):
            type_node = arg.child_by_field_name("function") or arg.child_by_field_name("type")
            type_name = _base_type(type_node)[0]
        elif arg.type == "identifier" and depth == 0:
            definition = self.constants.definition(_text(arg), arg.start_byte)
            if definition is not None and definition.value_text:
                if definition.value_text.lstrip().startswith("["):
                    lam = self._lambda_for(definition)
                    if lam is not None:
                        return self._kernel_callable(lam, depth + 1)
                type_name = _last_word(re.sub(r"<.*", "", definition.type_text or ""))
                if type_name == "auto":
                    type_name = _last_word(re.split(r"[({<]", definition.value_text)[0])
        if type_name and type_name in self._functors:
            definition_node = self._functors[type_name]
            declarator = definition_node.child_by_field_name("declarator")
            attributes = [a for a in definition_node.named_children if a.type == "attribute_declaration"]
            if declarator is not None:
                attributes += [a for a in declarator.named_children if a.type == "attribute_declaration"]
            params = declarator.child_by_field_name("parameters") if declarator else None
            return _Kernel(definition_node.child_by_field_name("body"), "functor", params, attributes, type_name)
        return _Kernel(None, None, None, [], type_name)

    def _lambda_for(self, definition) -> tree_sitter.Node | None:
        node = self.root.descendant_for_byte_range(definition.start_byte, definition.start_byte + 1)
        while node is not None and node.type != "declaration":
            node = node.parent
        if node is None:
            return None
        for declarator in node.children_by_field_name("declarator"):
            value = declarator.child_by_field_name("value")
            if value is not None and value.type == "lambda_expression":
                return value
        return None

    def _attributes(self, nodes: list[tree_sitter.Node]) -> KernelAttributes:
        sub_group = sub_group_text = work_group = None
        restrict = False
        span = None
        for declaration in nodes:
            for attribute in declaration.named_children:
                if attribute.type != "attribute":
                    continue
                name = _text(attribute.child_by_field_name("name"))
                args = next((c for c in attribute.named_children if c.type == "argument_list"), None)
                values = [self.constants.node_value(a) for a in _arguments(args)]
                if name in ("reqd_sub_group_size", "sub_group_size") and values:
                    sub_group, sub_group_text = values[0], _text(_arguments(args)[0])
                    span = span_of(attribute)
                elif name == "reqd_work_group_size" and values:
                    work_group = Extent(tuple(values), _text(args))
                elif name == "kernel_args_restrict":
                    restrict = True
        return KernelAttributes(sub_group, sub_group_text, work_group, restrict, span)

    @staticmethod
    def _index_parameter(params: tree_sitter.Node | None) -> tuple[str | None, str | None]:
        first = next(iter(_arguments(params)), None)
        if first is None:
            return None, None
        declarator = first.child_by_field_name("declarator")
        while declarator is not None and declarator.type not in ("identifier",):
            declarator = declarator.child_by_field_name("declarator") or next(
                (c for c in declarator.named_children if c.type == "identifier"), None)
        type_name = _base_type(first.child_by_field_name("type"))[0]
        kind = type_name if type_name in ("nd_item", "item", "id", "group", "h_item") else (
            "auto" if type_name == "auto" else "integral")
        return (_text(declarator) if declarator is not None else None), kind

    def _command_group(self, node: tree_sitter.Node) -> Span | None:
        """The nearest enclosing lambda or function that receives a `handler` (a command group)."""
        parent = node.parent
        while parent is not None:
            if parent.type in ("lambda_expression", "function_definition"):
                declarator = parent.child_by_field_name("declarator")
                while declarator is not None and declarator.type not in ("abstract_function_declarator",
                                                                         "function_declarator"):
                    declarator = declarator.child_by_field_name("declarator")
                params = declarator.child_by_field_name("parameters") if declarator is not None else None
                if params is not None and "handler" in _text(params):
                    return span_of(parent)
                grand = parent.parent.parent if parent.parent is not None else None
                if parent.type == "lambda_expression" and grand is not None and grand.type == "call_expression" \
                        and _last_word(_text(grand.child_by_field_name("function"))) == "submit":
                    return span_of(parent)
            parent = parent.parent
        return None

    def _enclosing_function_name(self, node: tree_sitter.Node) -> str | None:
        parent = node.parent
        while parent is not None and parent.type != "function_definition":
            parent = parent.parent
        if parent is None:
            return None
        declarator = parent.child_by_field_name("declarator")
        while declarator is not None and declarator.type in ("function_declarator", "pointer_declarator",
                                                             "reference_declarator"):
            declarator = declarator.child_by_field_name("declarator")
        return _text(declarator) if declarator is not None else None

    def _declared_type(self, node: tree_sitter.Node) -> str | None:
        """The declared type of a variable named by `node`, when the file declares it."""
        if node.type != "identifier":
            return None
        definition = self.constants.definition(_text(node), node.start_byte)
        return definition.type_text if definition is not None and definition.kind == "var" else None

    def assigned_names(self, node: tree_sitter.Node) -> set[str]:
        """Names written inside `node` by an assignment (`=`, `+=`, …) or `++`/`--`, read from the
        symbol query's captures rather than by walking `node` again."""
        return {_text(n) for n in self._assigned if node.start_byte <= n.start_byte and n.end_byte <= node.end_byte
                and n.parent is not None and n.parent.type in ("assignment_expression", "update_expression")}

    def _init_text(self, name: str, at_byte: int) -> str | None:
        definition = self.constants.definition(name, at_byte)
        return definition.value_text if definition is not None and definition.kind == "var" else None

    # -- constructions -----------------------------------------------------------------------

    def _construction_from_decl(self, decl: tree_sitter.Node) -> _Construction | None:
        type_node = decl.child_by_field_name("type")
        cls, targs = _base_type(type_node)
        if cls not in _SYCL_CLASSES or type_node is None:
            return None
        declarator = decl.child_by_field_name("declarator")
        if declarator is None:
            return None
        name_node, args_node = declarator, None
        if declarator.type == "init_declarator":
            name_node = declarator.child_by_field_name("declarator")
            args_node = declarator.child_by_field_name("value")
            if args_node is not None and args_node.type not in ("argument_list", "initializer_list"):
                return None  # `T x = expr;` is a copy; the expression itself is captured as a call
        elif declarator.type == "function_declarator":
            name_node = declarator.child_by_field_name("declarator")
            args_node = declarator.child_by_field_name("parameters")
        elif declarator.type not in ("identifier",):
            return None
        form = "ctad" if targs is None and cls == "buffer" else "declaration"
        return _Construction(cls, decl, type_node, _arguments(targs), _arguments(args_node), _text(name_node), form)

    def _construction_from_call(self, node: tree_sitter.Node, callee: tree_sitter.Node) -> _Construction | None:
        cls, targs = _base_type(callee)
        if cls in ("make_unique", "make_shared") and targs is not None:
            # std::make_unique<sycl::buffer<T>>(args): the buffer is what gets constructed.
            inner = _arguments(targs)
            type_node = inner[0].child_by_field_name("type") if inner and inner[0].type == "type_descriptor" else None
            cls, targs = _base_type(type_node)
        if cls not in _SYCL_CLASSES:
            return None
        args_node = node.child_by_field_name("arguments") or node.child_by_field_name("value")
        if node.type == "new_expression":
            args_node = node.child_by_field_name("arguments")
        name = None
        form = "temporary"
        parent = node.parent
        if parent is not None and parent.type == "init_declarator":
            name = _text(parent.child_by_field_name("declarator"))
            form = "auto"
        return _Construction(cls, node, callee, _arguments(targs), _arguments(args_node), name, form)

    def _buffer(self, c: _Construction, in_device: bool) -> Buffer:
        """A buffer and, when its construction spells one out, its range (`buffer(ptr, range)`,
        `buffer(range)`, `buffer{ptr, {n}}`)."""
        has_host_data = extent = None
        if c.args:
            first = c.args[0]
            has_host_data = not (first.type == "initializer_list" or re.search(r"\brange\b", _text(first)))
            range_arg = c.args[1] if has_host_data and len(c.args) >= 2 else (first if not has_host_data else None)
            if range_arg is not None:
                at = range_arg.start_byte
                extent = evaluate_range(_text(range_arg), lambda t: self.constants.value(t, at),
                                        lambda n: self._init_text(n, at))
        return Buffer(span_of(c.node), c.name, c.form, has_host_data, in_device, extent)

    def _mode_from_words(self, nodes: list[tree_sitter.Node]) -> tuple[str | None, tree_sitter.Node | None, str | None, tuple[str, ...]]:
        """(mode, the node that spells it, target, properties) from an accessor's template and
        constructor arguments. A mode or target word counts when it is qualified as one
        (`access::mode::read`, `access_mode::read`, `access::target::local`) or is a short tag
        (`sycl::read_only`); the same word deep inside another expression does not."""
        mode = target = None
        mode_node = None
        properties: list[str] = []
        for node in nodes:
            text = _text(node)
            words = re.findall(r"[A-Za-z_]\w*", text)
            if not words:
                continue
            last = words[-1]
            if "no_init" in words:
                properties.append("no_init")
                continue
            if "property_list" in words or "no_init" in text:
                continue
            if last in _MODE_WORDS and ("mode" in words or "access_mode" in words or last.endswith("_only")
                                        or last == "read_write" or len(words) <= 3):
                mode, mode_node = _MODE_WORDS[last], node
            elif last in _TARGET_WORDS and ("target" in words or len(words) <= 3):
                target = _TARGET_WORDS[last]
        return mode, mode_node, target, tuple(properties)

    def _accessor_from_construction(self, c: _Construction) -> Accessor:
        mode, mode_node, target, properties = self._mode_from_words(c.template_args[2:] + c.args[1:])
        if c.cls == "host_accessor":
            target = "host"
        return Accessor(
            span=span_of(c.node), name=c.name,
            buffer=_text(c.args[0]) if c.args else None,
            mode=mode, mode_spelling=_text(mode_node) if mode_node is not None else None,
            mode_span=span_of(mode_node) if mode_node is not None else None,
            form="host_accessor" if c.cls == "host_accessor" else "constructor",
            properties=properties, target=target or "device",
            command_group=self._command_group(c.node),
        )

    def _accessor_from_get_access(self, method: str, call: tree_sitter.Node) -> Accessor:
        function = call.child_by_field_name("function")
        obj = function.child_by_field_name("argument") if function is not None else None
        field = _method_field(call)
        targs = _arguments(field.child_by_field_name("arguments")) if field is not None and field.type == "template_method" else []
        args = _arguments(call.child_by_field_name("arguments"))
        mode, mode_node, target, properties = self._mode_from_words(targs + args)
        name = None
        if call.parent is not None and call.parent.type == "init_declarator":
            name = _text(call.parent.child_by_field_name("declarator"))
        is_host = method == "get_host_access" or not args or "handler" not in _text(args[0]) and not self._looks_like_handler(args[0], call)
        return Accessor(
            span=span_of(call), name=name, buffer=_text(obj) if obj is not None else None,
            mode=mode, mode_spelling=_text(mode_node) if mode_node is not None else None,
            mode_span=span_of(mode_node) if mode_node is not None else None,
            form=method, properties=properties,
            target="host" if is_host else (target or "device"),
            command_group=self._command_group(call),
        )

    def _looks_like_handler(self, arg: tree_sitter.Node, call: tree_sitter.Node) -> bool:
        """Is `arg` the command group's handler (`h`, `cgh`) rather than a range or a tag?"""
        if arg.type != "identifier":
            return False
        return self._command_group(call) is not None or _text(arg) in ("h", "cgh", "handler")

    def _local_allocation(self, c: _Construction) -> LocalAllocation | None:
        mode, _node, target, _props = self._mode_from_words(c.template_args[2:])
        if c.cls != "local_accessor" and target != "local":
            return None
        element = _text(c.template_args[0]) if c.template_args else None
        extent = None
        if c.args:
            at = c.args[0].start_byte
            extent = evaluate_range(_text(c.args[0]), lambda t: self.constants.value(t, at),
                                    lambda n: self._init_text(n, at))
            if extent is not None and len(c.args) == 1 and not re.search(r"range|\{", _text(c.args[0])):
                extent = Extent((1,), "scalar")  # local_accessor<T, 0>(h): one element
        if not c.args or (len(c.args) == 1 and c.cls == "local_accessor" and extent and extent.text == "scalar"):
            extent = Extent((1,), "1")
        size = ARITHMETIC_SIZES.get((element or "").removeprefix("std::").removeprefix("sycl::").strip())
        total = extent.total if extent is not None else None
        return LocalAllocation(span_of(c.node), c.name, element, extent,
                               size * total if size is not None and total is not None else None,
                               c.cls, self._command_group(c.node))

    # -- barriers and pragmas ----------------------------------------------------------------

    @staticmethod
    def _barrier(method: str, call: tree_sitter.Node) -> tuple[Barrier, tree_sitter.Node] | None:
        function = call.child_by_field_name("function")
        obj = _text(function.child_by_field_name("argument")) if function is not None else ""
        scope = "sub-group" if re.search(r"sub_?group|\bsg\b", obj) else "work-group"
        return Barrier(span_of(call), f"{_last_word(obj) or 'item'}.barrier", scope), call

    @staticmethod
    def _group_barrier(call: tree_sitter.Node, callee: tree_sitter.Node) -> tuple[Barrier, tree_sitter.Node] | None:
        if _base_type(callee)[0] != "group_barrier" or call.type != "call_expression":
            return None
        args = _arguments(call.child_by_field_name("arguments"))
        group = _text(args[0]) if args else ""
        scope = "sub-group" if re.search(r"sub_?group|\bsg\b", group) else "work-group"
        return Barrier(span_of(call), "group_barrier", scope), call

    @staticmethod
    def _pragma_text(node: tree_sitter.Node) -> str:
        argument = node.child_by_field_name("argument")
        text = _text(argument)
        return re.sub(r"\\\r?\n", " ", text).strip()


def extract(path: str, data: bytes, include_dirs: tuple[str, ...] = (),
            defines: dict[str, str] | None = None) -> FileFacts:
    """Parse `data` once and return its facts. C goes through the C++ grammar too: the OpenMP and
    host constructs kernlint reads parse the same, and one grammar keeps one set of queries."""
    return CppFrontend(path, data, include_dirs, defines).facts()
