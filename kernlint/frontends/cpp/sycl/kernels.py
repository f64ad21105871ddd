"""The kernel a launch runs, wherever it is written, and kernels found by what they are.

A launch's last argument is often not the kernel itself but a name: a variable holding a lambda, a
call to a function that returns one (`auto k = make_kernel(cgh, …)`), a functor built elsewhere, or
the parameter of a launch wrapper (`template <class K> void submit(queue&, range<1>, K k)`) whose
callers pass the lambda. `KernelFinder` follows each to the definition in the file (wrappers one
call level up, as KL101 follows helpers), or names the quoted header that defines it, or says why it
could not. A lambda or function whose parameter is a SYCL index (`nd_item`, `item`, `group`,
`h_item`, and for a call operator `id`) is device code wherever it is written: `unlaunched` lists
those of the file, so that a header of kernels is analysed even though its launches are elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from kernlint.facts.kinds import KernelBodyKind, KernelLink
from kernlint.frontends.common import treesitter
from kernlint.frontends.common.nodes import arguments_of, text_of
from kernlint.frontends.cpp.syntax import base_type, function_declarator, last_word
from kernlint.frontends.cpp.unit import CppUnit

Node = tree_sitter.Node

#: A parameter type that makes its lambda or function a kernel: a SYCL index, qualified with `sycl`
#: or written with its dimensions (`nd_item<1>`); a bare `item` or `group` may be anyone's class.
_INDEX_TYPE = re.compile(
    r"^(?:(?:::)?(?:cl::)?sycl::(?:ext::oneapi::)?)?(?P<a>nd_item|item|id|group|h_item)\s*<"
    r"|^(?:::)?(?:cl::)?sycl::(?P<b>nd_item|item|id|group|h_item)$"
)
#: Unwrappers around a kernel argument that pass the same callable on.
_PASS_THROUGH = frozenset({"move", "forward", "ref", "cref"})
_MAX_FOLLOW = 4  # names followed from a launch (a variable holding a factory's result, …)


@dataclass
class KernelCallable:
    """A kernel's callable: the lambda, functor `operator()` or function that a launch runs, and how
    it was found. `body` None: not found here (`link` "header": in that header; `link` None: `note`
    says why)."""

    body: Node | None
    kind: KernelBodyKind | None
    params: Node | None
    attributes: list[Node]
    name: str | None
    link: KernelLink | None = "inline"
    note: str | None = None

    @property
    def root(self) -> Node | None:
        """The lambda or function definition whose body this is."""
        return self.body.parent if self.body is not None else None


def index_type_of(type_node: Node | None) -> str | None:
    """`nd_item`, `item`, `id`, `group` or `h_item` when `type_node` spells a SYCL index, else None."""
    match = _INDEX_TYPE.match(text_of(type_node)) if type_node is not None else None
    return (match.group("a") or match.group("b")) if match is not None else None


class KernelFinder:
    """Follows kernel arguments of one file to their definitions; `functors` are its classes with an
    `operator()`, by name."""

    def __init__(self, unit: CppUnit, functors: dict[str, Node]) -> None:
        self.unit = unit
        self.functors = functors
        self._functions: dict[str, list[Node]] | None = None
        self._calls: dict[str, list[Node]] | None = None

    # -- launches ----------------------------------------------------------------------------------

    def kernels_of(self, arg: Node) -> list[KernelCallable]:
        """The kernels a launch's kernel argument stands for: one, or one per call of the launch
        wrapper whose parameter it is; a single unresolved one (body None) when none is found."""
        return self._follow(arg, wrappers=True, depth=0)

    def _follow(self, arg: Node, wrappers: bool, depth: int) -> list[KernelCallable]:
        arg = _unwrapped(arg)
        if arg.type == "lambda_expression":
            return [lambda_kernel(arg, "inline")]
        if depth > _MAX_FOLLOW:
            return [_unseen(f"`{_short(arg)}` is followed through too many names")]
        if arg.type in ("call_expression", "compound_literal_expression"):
            return [self._construction_or_call(arg, depth)]
        if arg.type == "identifier":
            return self._named(arg, wrappers, depth)
        return [_unseen(f"the kernel is `{_short(arg)}`, which kernlint does not follow to a definition")]

    def _construction_or_call(self, node: Node, depth: int) -> KernelCallable:
        """`Functor{…}` / `Functor(…)` (a construction), or `make_kernel(…)` (a factory's result)."""
        type_node = node.child_by_field_name("function") or node.child_by_field_name("type")
        name = base_type(type_node)[0]
        if name in self.functors:
            return functor_kernel(self.functors[name], name)
        for definition in self.functions().get(name, []):
            returned = self._returned(definition, depth)
            if returned is not None:
                return returned
        return self._elsewhere(name, f"`{name}(…)`")

    def _named(self, name_node: Node, wrappers: bool, depth: int) -> list[KernelCallable]:
        name = text_of(name_node)
        definition = self.unit.constants.definition(name, name_node.start_byte)
        if definition is None:
            if name in self.functors:  # a functor passed by its class name is not valid C++; no guess
                return [_unseen(f"`{name}` names a class, not an object")]
            return [_unseen(f"`{name}` is not declared where kernlint can see it (a member, a global of a header)")]
        if definition.kind == "param":
            if not wrappers:
                return [_unseen(f"`{name}` is a parameter of a launch wrapper's caller (one call level is followed)")]
            return self._through_wrapper(name_node, name)
        if definition.kind != "var":
            return [_unseen(f"`{name}` is not a variable holding a kernel")]
        value = self._initialiser(definition.start_byte, name)
        if value is not None:
            found = self._follow(value, wrappers, depth + 1)
            return [_relinked(k, "variable") if k.link == "inline" else k for k in found]
        functor = last_word(re.sub(r"<.*", "", definition.type_text or ""))
        if functor in self.functors:  # `Functor k(a, b);` or `Functor k{a, b};`
            return [functor_kernel(self.functors[functor], functor)]
        return [self._elsewhere(functor, f"`{name}` (a `{definition.type_text}`)")]

    def _initialiser(self, start_byte: int, name: str) -> Node | None:
        """The value expression of the declaration of `name` at `start_byte` (`auto k = …;`)."""
        node = self.unit.root.descendant_for_byte_range(start_byte, start_byte + 1)
        while node is not None and node.type != "declaration":
            node = node.parent
        if node is None:
            return None
        for declarator in node.children_by_field_name("declarator"):
            target = declarator.child_by_field_name("declarator")
            if declarator.type == "init_declarator" and text_of(target) == name:
                value = declarator.child_by_field_name("value")
                if value is not None and value.type not in ("argument_list", "initializer_list"):
                    return value
        return None

    def _returned(self, definition: Node, depth: int) -> KernelCallable | None:
        """The kernel a function returns (`return [=](nd_item<1> it) {…};`, or a variable holding one,
        or a functor it builds), linked as `factory`; None when it returns none of these."""
        body = definition.child_by_field_name("body")
        if body is None:
            return None
        for statement in _returns(body):
            value = next(iter(statement.named_children), None)
            if value is None:
                continue
            found = self._follow(value, wrappers=False, depth=depth + 1)
            if found and found[0].body is not None:
                return _relinked(found[0], "factory")
        return None

    def _through_wrapper(self, name_node: Node, name: str) -> list[KernelCallable]:
        """The kernels the callers of the launch wrapper pass as its parameter `name`."""
        function = name_node.parent
        while function is not None and function.type != "function_definition":
            function = function.parent
        declarator = function_declarator(function) if function is not None else None
        if declarator is None:
            return [_unseen(f"`{name}` is a parameter of a lambda, whose callers kernlint does not follow")]
        wrapper = last_word(text_of(declarator.child_by_field_name("declarator")))
        params = [text_of(_declared(p)) for p in arguments_of(declarator.child_by_field_name("parameters"))]
        if name not in params:
            return [_unseen(f"`{name}` is a parameter kernlint could not place")]
        position = params.index(name)
        found: list[KernelCallable] = []
        for call in self.calls_of(wrapper):
            args = arguments_of(call.child_by_field_name("arguments"))
            if position < len(args) and not (function is not None and _inside(call, function)):
                found += [
                    _relinked(k, "wrapper") if k.body is not None else k
                    for k in self._follow(args[position], wrappers=False, depth=1)
                ]
        if not found:
            return [_unseen(f"`{name}` is a parameter of `{wrapper}`, which no call in this file passes a kernel to")]
        seen = [k for k in found if k.body is not None or k.link == "header"]
        return seen or found[:1]

    def _elsewhere(self, name: str, what: str) -> KernelCallable:
        """A kernel named `name` that the file does not define: in a quoted header, or not seen."""
        header = self.unit.constants.header_defining(name) if name else None
        if header is not None:
            return KernelCallable(None, None, None, [], name, "header", header)
        return _unseen(f"{what} is not defined in this file or its quoted headers", name or None)

    # -- indexes -----------------------------------------------------------------------------------

    def functions(self) -> dict[str, list[Node]]:
        """The file's function definitions by unqualified name."""
        if self._functions is None:
            self._functions = {}
            for _index, match in self.unit.file_matches["cpp_device_index"]:
                if "function" in match:
                    declarator = function_declarator(match["function"][0])
                    name = declarator.child_by_field_name("declarator") if declarator is not None else None
                    if name is not None and name.type not in ("operator_name", "destructor_name"):
                        self._functions.setdefault(last_word(text_of(name)), []).append(match["function"][0])
        return self._functions

    def calls_of(self, name: str) -> list[Node]:
        """Calls of the free function `name` in the file (`submit(q, r, k)`, `submit<Name>(q, r, k)`)."""
        if self._calls is None:
            self._calls = {}
            for call in treesitter.captures("cpp", "cpp_calls", self.unit.root).get("call", []):
                callee = base_type(call.child_by_field_name("function"))[0]
                self._calls.setdefault(callee, []).append(call)
        return self._calls.get(name, [])

    # -- kernels by what they are -------------------------------------------------------------------

    def unlaunched(self, candidates: list[Node]) -> list[KernelCallable]:
        """The lambdas and functions among `candidates` (matched by the file query for a parameter that
        spells a SYCL index) that are kernels: a call operator taking any SYCL index, or a function
        taking one other than `id` (a host function may take an `id`; no host code holds an `nd_item`)."""
        found: list[KernelCallable] = []
        for node in candidates:
            if node.type == "lambda_expression":
                kernel = lambda_kernel(node, "unlaunched")
                accepted = _index_parameter(kernel.params) is not None
            else:
                kernel = _function_kernel(node)
                index = _index_parameter(kernel.params)
                accepted = index is not None and (index[1] != "id" or kernel.kind == "functor")
            if accepted and kernel.body is not None:
                found.append(kernel)
        return found


def lambda_kernel(node: Node, link: KernelLink) -> KernelCallable:
    """A lambda expression as a kernel: its body, parameters and attributes."""
    declarator = node.child_by_field_name("declarator")
    attributes = [a for a in (declarator.named_children if declarator else []) if a.type == "attribute_declaration"]
    attributes += [a for a in node.named_children if a.type == "attribute_declaration"]
    params = declarator.child_by_field_name("parameters") if declarator else None
    return KernelCallable(node.child_by_field_name("body"), "lambda", params, attributes, None, link)


def functor_kernel(definition: Node, name: str) -> KernelCallable:
    """A functor's `operator()` definition as a kernel."""
    declarator = definition.child_by_field_name("declarator")
    attributes = [a for a in definition.named_children if a.type == "attribute_declaration"]
    if declarator is not None:
        attributes += [a for a in declarator.named_children if a.type == "attribute_declaration"]
    params = declarator.child_by_field_name("parameters") if declarator else None
    return KernelCallable(definition.child_by_field_name("body"), "functor", params, attributes, name, "functor")


def index_parameter(params: Node | None) -> tuple[Node, str] | None:
    """The first parameter of `params` whose type spells a SYCL index, with that index's name."""
    return _index_parameter(params)


def _index_parameter(params: Node | None) -> tuple[Node, str] | None:
    for param in arguments_of(params):
        kind = index_type_of(param.child_by_field_name("type"))
        if kind is not None:
            return param, kind
    return None


def _function_kernel(definition: Node) -> KernelCallable:
    """A function definition (a functor's `operator()` among them) as an unlaunched kernel."""
    declarator = function_declarator(definition)
    name_node = declarator.child_by_field_name("declarator") if declarator is not None else None
    parent = definition.parent
    if name_node is not None and name_node.type == "operator_name" and parent is not None:
        holder = parent.parent
        class_name = text_of(holder.child_by_field_name("name")) if holder is not None else ""
        return _relinked(functor_kernel(definition, class_name), "unlaunched")
    attributes = [a for a in definition.named_children if a.type == "attribute_declaration"]
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    name = last_word(text_of(name_node)) if name_node is not None else None
    return KernelCallable(definition.child_by_field_name("body"), "function", params, attributes, name, "unlaunched")


def _relinked(kernel: KernelCallable, link: KernelLink) -> KernelCallable:
    return KernelCallable(kernel.body, kernel.kind, kernel.params, kernel.attributes, kernel.name, link, kernel.note)


def _unseen(reason: str, name: str | None = None) -> KernelCallable:
    return KernelCallable(None, None, None, [], name, None, reason)


def _unwrapped(node: Node) -> Node:
    """The callable inside `( … )` and `std::move(…)`-like wrappers."""
    while True:
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        elif node.type == "call_expression" and base_type(node.child_by_field_name("function"))[0] in _PASS_THROUGH:
            args = arguments_of(node.child_by_field_name("arguments"))
            if len(args) != 1:
                return node
            node = args[0]
        else:
            return node


def _returns(body: Node) -> list[Node]:
    """The `return` statements of a function body, not those of lambdas nested in it."""
    found: list[Node] = []
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type == "return_statement":
            found.append(node)
        elif node.type not in ("lambda_expression", "function_definition", "class_specifier", "struct_specifier"):
            stack.extend(node.named_children)
    return sorted(found, key=lambda n: n.start_byte)


def _declared(param: Node) -> Node | None:
    """The identifier a parameter declares (under `&`, `*`, `&&`)."""
    declarator = param.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "identifier":
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if c.type == "identifier"), None
        )
    return declarator


def _inside(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def _short(node: Node) -> str:
    text = " ".join(text_of(node).split())
    return text if len(text) <= 40 else text[:39] + "…"
