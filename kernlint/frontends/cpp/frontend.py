"""The tree-sitter C/C++ front-end: SYCL and OpenMP C/C++ source to `FileFacts`.

The file is parsed once (`CppUnit`); one query (`queries/cpp.scm`) finds every node of interest in C,
and Python only interprets those few nodes. Kernel bodies are found first, because "is this inside
device code?" decides how loops, buffers and barriers are classified. The analyses each receive the
unit, and this module is the only one that calls them all.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

import tree_sitter

from kernlint.facts import Barrier, Buffer, FileFacts, KernelLaunch, Pragma, QueueConstruction
from kernlint.facts.kinds import BarrierScope, Language, LaunchApi, LoopKind, Side
from kernlint.frontends.common.nodes import arguments_of, inside_any, span_of, text_of
from kernlint.frontends.common.preprocess import ConditionalArm, counterparts
from kernlint.frontends.cpp.coverage import kernel_coverage, lost_lines
from kernlint.frontends.cpp.device.result import DeviceCode
from kernlint.frontends.cpp.host import (
    calls_in_loops,
    defining_function,
    element_of,
    loop_fact,
    outlives_iteration,
)
from kernlint.frontends.cpp.hostflow import host_flows
from kernlint.frontends.cpp.includers import compiled_as_c
from kernlint.frontends.cpp.inclusion import preprocessor_facts
from kernlint.frontends.cpp.sycl.api import LAUNCH_METHODS
from kernlint.frontends.cpp.sycl.constructions import (
    accessor_of,
    buffer_of,
    construction_from_call,
    construction_from_decl,
    get_access_accessor,
    local_allocation,
    queue_of,
)
from kernlint.frontends.cpp.sycl.launches import LaunchReader
from kernlint.frontends.cpp.syntax import base_type, last_word
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.frontends.cpp.variants import merged
from kernlint.records import record

if TYPE_CHECKING:
    from kernlint.facts import (
        Accessor,
        Branch,
        FunctionCall,
        HostFlow,
        LimitReached,
        LocalAllocation,
        Loop,
        OmpConstruct,
        Span,
        UsmAllocation,
    )
    from kernlint.facts.memory import MemoryAccess
    from kernlint.frontends.cpp.sycl.constructions import Construction

# Words only SYCL code writes. `parallel_for` is not one: Kokkos, TBB and plain C++ thread pools have
# their own, and a member `.parallel_for(…)` alone does not make a file SYCL either.
_SYCL_USAGE = re.compile(rb"\bsycl\b|\bnd_item\b|\bnd_range\b|\bsingle_task\b|\bparallel_for_work_group\b")
_SYCL_INDEX_TYPES = frozenset({"id", "item", "nd_item", "group", "h_item"})
_Construct = TypeVar("_Construct", KernelLaunch, QueueConstruction)
#: The file query's loop captures, by the kind of loop each captures.
_LOOP_CAPTURES: dict[str, LoopKind] = {
    "loop.for": "for",
    "loop.range-for": "range-for",
    "loop.while": "while",
    "loop.do": "do",
}


def facts_of_unit(unit: CppUnit) -> FileFacts:
    """Sort the file query's matches, then run each analysis once over what it needs."""
    groups: dict[str, list[tree_sitter.Node]] = {}
    members: list[tuple[str, tree_sitter.Node]] = []
    frees: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
    host_calls: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
    decls: list[tree_sitter.Node] = []
    loops: list[tuple[LoopKind, tree_sitter.Node]] = []
    functors: dict[str, tree_sitter.Node] = {}
    free_launches: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
    candidates: dict[tuple[int, int], tree_sitter.Node] = {}
    for _index, match in unit.file_matches["cpp"]:
        if "member.call" in match:
            members.append((text_of(match["member.name"][0]), match["member.call"][0]))
        elif "launch.call" in match:
            free_launches.append((match["launch.call"][0], match["launch.callee"][0]))
        elif "kernel.candidate" in match:
            node = match["kernel.candidate"][0]
            candidates[(node.start_byte, node.end_byte)] = node
        elif "free.call" in match:
            frees.append((match["free.call"][0], match["free.callee"][0]))
        elif "host.call" in match:
            host_calls.append((match["host.call"][0], match["host.callee"][0]))
        elif "decl" in match:
            decls.append(match["decl"][0])
        elif "functor.def" in match:
            functors[text_of(match["functor.class"][0])] = match["functor.def"][0]
        else:
            for name, nodes in match.items():
                if name in _LOOP_CAPTURES:
                    loops.append((_LOOP_CAPTURES[name], nodes[0]))
                elif name != "include.path":  # the unit has read the quoted includes' names
                    groups.setdefault(name, []).extend(nodes)

    constructions = [c for c in (construction_from_decl(d) for d in decls) if c] + [
        c for c in (construction_from_call(n, t) for n, t in frees) if c
    ]
    locals_ = {
        id(c): local for c in constructions if c.cls not in ("buffer", "queue") and (local := local_allocation(unit, c))
    }
    reader = LaunchReader(unit, functors)
    found = [
        launch
        for method, call in members
        if method in LAUNCH_METHODS
        for launch in reader.launches(LAUNCH_METHODS[method], call)
    ]
    sycl = bool(_SYCL_USAGE.search(unit.data))
    for call, callee in free_launches:
        api = _free_launch(callee, reader) if sycl else None
        if api is not None:
            found += reader.launches(api, call, free=True)
    found.sort(key=lambda launch: launch.span.start_byte)
    unlaunched = reader.unlaunched(sorted(candidates.values(), key=lambda n: n.start_byte)) if sycl else []
    pragmas = tuple(
        Pragma(span_of(node), unit.pragma_texts.get(node.start_byte) or _pragma_text(node))
        for node in groups.get("pragma", [])
    )
    sides_found: list[_HostSide] = []

    def host_side(launched: tuple[KernelLaunch, ...]) -> None:
        """What reads the launches but no kernel's facts, once (see `_HostSide`)."""
        if not sides_found:
            sides_found.append(
                _host_side(unit, launched, constructions, locals_, members, host_calls, loops, pragmas, sycl)
            )

    # With no OpenMP directive, the host side is read while forked children analyse the kernels, if any are.
    meanwhile = None if openmp_directives(pragmas) else host_side
    device = _device_code(unit, found, unlaunched, tuple(locals_.values()), meanwhile)
    host_side(device.launches)
    side = sides_found[0]
    launches, in_device, omp, omp_branches = side.launches, side.in_device, side.omp, side.omp_branches
    if device.barriers is not None:  # scoped by the handles the dependence analysis resolved
        barriers = list(device.barriers)
    else:
        barriers = [b for b, c in (_barrier(c) for m, c in members if m == "barrier") if in_device(c)]
        barriers += [b for b, c in filter(None, (_group_barrier(n, t) for n, t in frees)) if in_device(c)]
    errors = tuple(span_of(n) for n in groups.get("error", []))
    # (a `.parallel_for` of a file that is not SYCL is another library's: not a launch kernlint reads)
    sycl_launches = launches if side.language == "sycl" else ()
    coverage = kernel_coverage(sycl_launches, omp, device.complete, lost_lines(unit, groups.get("error", [])))
    as_c, c_sources = compiled_as_c(unit.path) if unit.path else (False, ())
    return FileFacts(
        path=unit.path,
        language=side.language,
        launches=launches,
        buffers=side.buffers,
        accessors=side.accessors,
        local_allocations=tuple(locals_.values()),
        barriers=tuple(sorted(barriers, key=lambda b: b.span.start_byte)),
        loops=side.loops,
        queues=_once_per_arm(side.queues, unit.arms),
        pragmas=pragmas,
        branches=device.branches + omp_branches[0],
        block_accesses=device.block_accesses,
        memory_accesses=device.memory_accesses + side.omp_memory,
        omp=omp,
        syntax_errors=errors,
        dependencies=tuple(unit.constants.included()) + c_sources,
        calls=side.calls,
        coverage=coverage,
        limits=device.limits + omp_branches[1],
        preprocessor=preprocessor_facts(unit.root, groups.get("include", []), unit.constants.macro_names()),
        compiled_as_c=as_c,
        host_flows=side.flows,
        usm=side.usm,
    )


@record
class _HostSide:
    """The facts of a file that read its launches (their device regions) but no kernel's facts: its
    buffers, queues and accessors, its OpenMP constructs, its loops and their calls, and its host flows.
    Worked out while forked children analyse the kernels, when they do (`fanout.forked_map`'s
    `meanwhile`), else after the kernels; the same either way."""

    launches: tuple[KernelLaunch, ...]
    in_device: Callable[[tree_sitter.Node], bool]
    language: Language
    buffers: tuple[Buffer, ...]
    accessors: tuple[Accessor, ...]
    queues: list[QueueConstruction]
    omp: tuple[OmpConstruct, ...]
    omp_branches: tuple[tuple[Branch, ...], tuple[LimitReached, ...]]
    omp_memory: tuple[MemoryAccess, ...]
    loops: tuple[Loop, ...]
    calls: tuple[FunctionCall, ...]
    flows: tuple[HostFlow, ...]
    usm: tuple[UsmAllocation, ...]


def _host_side(
    unit: CppUnit,
    launched: tuple[KernelLaunch, ...],
    constructions: list[Construction],
    locals_: dict[int, LocalAllocation],
    members: list[tuple[str, tree_sitter.Node]],
    host_calls: list[tuple[tree_sitter.Node, tree_sitter.Node]],
    loops: list[tuple[LoopKind, tree_sitter.Node]],
    pragmas: tuple[Pragma, ...],
    sycl: bool,
) -> _HostSide:
    launches = _once_per_arm(launched, unit.arms)
    in_device = inside_any([region for launch in launches for region in launch.regions])
    buffers, accessors, queues = [], [], []
    for c in constructions:
        if c.cls == "buffer":
            buffer = buffer_of(unit, c, in_device(c.node))
            buffers.append(
                replace(
                    buffer,
                    function=defining_function(c.node, clean=True),
                    kept=not buffer.in_device_code and outlives_iteration(c.node, c.name),
                )
            )
        elif c.cls == "queue":
            queues.append(replace(queue_of(unit, c), element_of=element_of(c.node)))
        elif id(c) not in locals_:
            accessors.append(accessor_of(c))
    for method, call in members:
        if method in ("get_access", "get_host_access"):
            accessors.append(get_access_accessor(method, call))
    accessors = _accessor_uses(unit, launches, accessors)
    language = _language(sycl, launches, pragmas)
    omp, omp_branches, device_functions, omp_memory = _openmp_facts(unit, pragmas)
    in_target = inside_any([c.region for c in omp if c.region is not None and "target" in c.leaves] + device_functions)
    sides: list[tuple[LoopKind, tree_sitter.Node, Side]] = [
        (kind, n, "device" if in_device(n) or in_target(n) else "host") for kind, n in loops
    ]
    host_loops = [span_of(n) for _kind, n, side in sides if side == "host"]
    calls = calls_in_loops(unit, _buffer_helpers(buffers), host_loops, in_device)
    # How often a loop runs matters only to the loop rules, around what they report.
    reported = sorted(
        span.start_byte for span in (*(b.span for b in buffers), *(q.span for q in queues), *(c.span for c in calls))
    )
    all_loops = tuple(
        loop_fact(unit, kind, n, side, side == "host" and _holds_any(n, reported)) for kind, n, side in sides
    )
    looping = [(kind, n) for kind, n, side in sides if side == "host"]
    flows, usm = host_flows(unit, members, host_calls, looping, accessors, queues, omp, in_device)
    return _HostSide(
        launches,
        in_device,
        language,
        tuple(buffers),
        tuple(accessors),
        queues,
        omp,
        omp_branches,
        omp_memory,
        all_loops,
        tuple(calls),
        flows,
        usm,
    )


# The passes below are imported only for a file that has what they read: a one-file run of an OpenMP
# file loads no SYCL device analysis, and one of a SYCL file no OpenMP front-end. Each gate is the
# pass's own first test (`tests/test_frontend_gates.py` checks that the pass gives the same for what
# the gate skips).


def _device_code(
    unit: CppUnit,
    launches: list[KernelLaunch],
    unlaunched: list[KernelLaunch],
    locals_: tuple[LocalAllocation, ...],
    meanwhile: Callable[[tuple[KernelLaunch, ...]], object] | None = None,
) -> DeviceCode:
    """`analyse_device_code`, imported when there is a kernel to analyse."""
    if not launches and not unlaunched:
        return DeviceCode(())
    from kernlint.frontends.cpp.device.code import analyse_device_code

    return analyse_device_code(unit, launches, unlaunched, locals_, meanwhile)


def _accessor_uses(unit: CppUnit, launches: tuple[KernelLaunch, ...], accessors: list[Accessor]) -> list[Accessor]:
    """`analyse_accessor_uses`, imported when there are accessors and kernels to read them in."""
    if not accessors or not launches:
        return accessors
    from kernlint.frontends.cpp.accessors.uses import analyse_accessor_uses

    return analyse_accessor_uses(unit, launches, accessors)


def openmp_directives(pragmas: tuple[Pragma, ...]) -> bool:
    """Whether the file has an OpenMP directive for `openmp_facts` to read (`omp` or `ompx`)."""
    return any(p.text.split()[:1] in (["omp"], ["ompx"]) for p in pragmas)


def _openmp_facts(
    unit: CppUnit, pragmas: tuple[Pragma, ...]
) -> tuple[
    tuple[OmpConstruct, ...],
    tuple[tuple[Branch, ...], tuple[LimitReached, ...]],
    list[Span],
    tuple[MemoryAccess, ...],
]:
    """`openmp_facts` (its branches as (branches, limits)), imported for a file with OpenMP directives."""
    if not openmp_directives(pragmas):
        return (), ((), ()), [], ()
    from kernlint.frontends.cpp.openmp.macros import openmp_facts

    constructs, branches, functions, memory = openmp_facts(unit, pragmas)
    return constructs, (branches.branches, branches.limits), functions, memory


def _once_per_arm(constructs: Sequence[_Construct], arms: list[ConditionalArm]) -> tuple[_Construct, ...]:
    """One construct per `#if` group whose condition is unknown, not one per arm: a queue built in both
    arms of `#ifdef USE_GPU` is one queue (the first arm's is kept). A launch restated in another arm
    keeps its body but not its ranges, which the first arm's launch carries; when the arms' ranges
    differ, neither is known (a CPU arm's work-group size is not the GPU's)."""
    if not any(arm.state is None for arm in arms):
        return tuple(constructs)
    restated = counterparts(arms, [c.span.start_byte for c in constructs])
    kept: list[_Construct | None] = list(constructs)
    for index, leader in enumerate(restated):
        if leader is None:
            continue
        first, other = constructs[leader], constructs[index]
        if isinstance(first, KernelLaunch) and isinstance(other, KernelLaunch):
            if (first.global_range, first.local_range) != (other.global_range, other.local_range):
                kept[leader] = replace(first, global_range=None, local_range=None, range_kind=None)
            kept[index] = replace(other, global_range=None, local_range=None, range_kind=None)
        else:
            kept[index] = None
    return tuple(c for c in kept if c is not None)


def _free_launch(callee: tree_sitter.Node, reader: LaunchReader) -> LaunchApi | None:
    """The launch a free call makes (`parallel_for(q, r, k)` of SYCL's enqueue-functions extension),
    or None: another library's (`Kokkos::parallel_for`, `tbb::parallel_for`) or a wrapper the file
    defines itself, whose own launch is read where it is written."""
    text = text_of(callee)
    qualifier, _, name = re.sub(r"<.*", "", text, flags=re.S).rpartition("::")
    if qualifier and not re.search(r"sycl|experimental", qualifier, re.I):
        return None
    if not qualifier and name in reader.finder.functions():
        return None
    return "single_task" if name == "single_task" else "parallel_for"


def _holds_any(node: tree_sitter.Node, positions: list[int]) -> bool:
    """Whether one of the sorted byte `positions` lies inside `node`."""
    at = bisect_left(positions, node.start_byte)
    return at < len(positions) and positions[at] < node.end_byte


def _buffer_helpers(buffers: list[Buffer]) -> set[str]:
    """Functions of the file that construct a buffer over host memory outside any loop of their own
    (KL101 follows their calls made inside loops)."""
    return {b.function for b in buffers if b.function and b.has_host_data and not b.in_device_code}


def _language(sycl_words: bool, launches: tuple[KernelLaunch, ...], pragmas: tuple[Pragma, ...]) -> Language:
    """SYCL when the file says so (`sycl_words`: `sycl`, SYCL-only words, searched once per file) or
    launches a kernel that takes a SYCL index (`id`, `item`, `nd_item`, `group`): a `parallel_for` whose
    callable takes an `int` is another library's."""
    if sycl_words or any(launch.index_type in _SYCL_INDEX_TYPES for launch in launches):
        return "sycl"
    if any(p.text.split()[:1] == ["omp"] for p in pragmas):
        return "openmp-c"
    return "cpp"


def _barrier(call: tree_sitter.Node) -> tuple[Barrier, tree_sitter.Node]:
    """`item.barrier(…)` (work-group) or `sg.barrier()` (sub-group)."""
    function = call.child_by_field_name("function")
    obj = text_of(function.child_by_field_name("argument")) if function is not None else ""
    scope: BarrierScope = "sub-group" if re.search(r"sub_?group|\bsg\b", obj) else "work-group"
    return Barrier(span_of(call), f"{last_word(obj) or 'item'}.barrier", scope), call


def _group_barrier(call: tree_sitter.Node, callee: tree_sitter.Node) -> tuple[Barrier, tree_sitter.Node] | None:
    """`group_barrier(g)`, scoped by the group it is given."""
    if base_type(callee)[0] != "group_barrier" or call.type != "call_expression":
        return None
    args = arguments_of(call.child_by_field_name("arguments"))
    group = text_of(args[0]) if args else ""
    scope: BarrierScope = "sub-group" if re.search(r"sub_?group|\bsg\b", group) else "work-group"
    return Barrier(span_of(call), "group_barrier", scope), call


def _pragma_text(node: tree_sitter.Node) -> str:
    argument = node.child_by_field_name("argument")
    text = text_of(argument)
    return re.sub(r"\\\r?\n", " ", text).strip()


def extract(
    path: str,
    data: bytes,
    include_dirs: tuple[str, ...] = (),
    defines: dict[str, str] | None = None,
    macros: Mapping[str, str] | None = None,
) -> FileFacts:
    """Parse `data` once and return its facts. C goes through the C++ grammar too: the OpenMP and
    host constructs kernlint reads parse the same, and one grammar keeps one set of queries.
    `macros` are the configuration's (see `cpp.dialect`)."""
    unit = CppUnit(path, data, include_dirs, defines, macros)
    facts = facts_of_unit(unit)
    for choice, regions in unit.other_arms():  # `#if` arms that split a construct: each read in turn
        facts = merged(facts, facts_of_unit(unit.with_arm(choice)), regions)
    return facts
