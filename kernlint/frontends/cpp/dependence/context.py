"""What the C++ dependence analysis knows about one unit (a kernel lambda, a device function or a
lambda inside one): its syntax, and the facts lowering needs (handles, scopes, shared memory)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kernlint.analysis.names import Local, Variable
from kernlint.frontends.cpp.dependence.definitions import UnitFlow
from kernlint.frontends.cpp.dependence.nodes import Key, Node


@dataclass
class UnitSource:
    """One unit's syntax: its root (lambda or function definition), the captures it owns, its parent."""

    key: Key
    root: Node
    parent: Key | None
    nodes: dict[str, list[Node]]
    index_param: tuple[str, str] | None = None  # a kernel's (parameter name, handle kind)
    # a kernel's work-group extent along its fastest dimension and required sub-group size, when its
    # launch fixes them
    group_size: int | None = None
    sub_group: int | None = None


@dataclass
class UnitContext:
    """What lowering needs to know about one unit."""

    source: UnitSource
    handles: dict[str, str] = field(default_factory=dict)
    dims: dict[str, int] = field(default_factory=dict)  # handle name -> dimensions (`nd_item<2>`: 2)
    id_like: set[str] = field(default_factory=set)
    arrays: set[str] = field(default_factory=set)
    assigned: set[str] = field(default_factory=set)
    params: list[tuple[str, bool]] = field(default_factory=list)  # (name, passed by non-const reference)
    inherited_varying: set[str] = field(default_factory=set)
    loop_sets: dict[Key, set[Variable]] = field(default_factory=dict)
    geometric: set[Variable] = field(default_factory=set)  # loop variables only ever halved or doubled
    doubling: set[Variable] = field(default_factory=set)  # those of them only ever doubled
    # name -> [(scope start, scope end, declared at, variable key)]: C++ scoping, so a shadowing
    # `for (int i …)` is a different variable from the kernel's `i`.
    scopes: dict[str, list[tuple[int, int, int, Local]]] = field(default_factory=dict)
    shared: set[Variable] = field(default_factory=set)  # references to shared memory (`int& n = slm[0]`)
    escaped: set[Variable] = field(default_factory=set)  # own variables nested lambdas or calls write too
    stores: set[Variable] = field(default_factory=set)  # captured names the unit assigns (accessors: memory)
    uninitialized: set[Variable] = field(default_factory=set)  # own variables declared without a value
    flow: UnitFlow | None = None
