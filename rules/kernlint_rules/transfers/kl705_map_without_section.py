"""A pointer, or a Fortran assumed-size array, mapped without an array section: its data is not copied.

What it does
    C/C++: reports a `map` list item that names a pointer (`float *a`, a parameter `float a[]`) with no
    array section (`map(to: a)`) on a `target` construct, a `target data` region or a `target enter
    data`, when the region uses the pointer (a `target enter data` has no region: a later region will).
    It is silent when the pointer holds device memory (it is given `omp_target_alloc`,
    `malloc_device`, `malloc_shared`, `cudaMalloc` … memory, or an `is_device_ptr`, `has_device_addr`,
    `use_device_ptr` or `use_device_addr` clause in the file names it), and when the file maps the data
    it points to somewhere (`map(to: a[0:n])`, a `target enter data` or an enclosing `target data` of a
    section of it): that mapping makes the pointee present. A pointer to pointers is KL708.

    Fortran: reports an assumed-size array (`dimension(*)`, `a(n, *)`) in a map clause without a
    section, or with a section whose last dimension has no upper bound (`a(2:)`).

Why it matters
    A pointer listed on its own is a scalar to OpenMP: `map(to: a)` copies the 8 bytes of the
    pointer, not the data it points to, so the device dereferences a host address: the kernel faults
    or reads garbage. Some compilers accept it silently. An assumed-size array has no upper bound the
    compiler could copy up to: gfortran rejects it ("Assumed size array in MAP clause"), others copy
    the wrong memory.

Example
    void add(const float *a, const float *b, float *c, int n) {
    #pragma omp target teams distribute parallel for map(to: a, b) map(from: c)   // KL705 ×3
      for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
    }

    real :: x(*)
    !$omp target map(tofrom: x)                                                   ! KL705

Fix
    Map the array section the region uses: `map(to: a[0:n], b[0:n]) map(from: c[0:n])`; in Fortran
    `map(tofrom: x(1:n))`, or declare the dummy argument with its shape (`x(n)`, `x(:)`). The message
    names the section when the region's accesses show it.

Severity
    Error: the device dereferences a host address (C/C++), or the map clause cannot be compiled or
    copies the wrong memory (Fortran assumed size): the code does not work as written. Nothing when
    the pointer may hold device memory or the data it points to is mapped too.

Occupancy basis
    None: the code does not work as written, whatever the device.

Cost
    A failure: the kernel dereferences host addresses (or does not compile), all its work is lost.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import failure_cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts
from kernlint.facts.openmp import OmpConstruct, OmpMapped, OmpRange
from kernlint.facts.openmp_directive import OmpMapItem
from kernlint.rule import Rule, RuleContext
from kernlint_rules.transfers.map_items import (
    fold,
    map_items,
    mapped_by_enclosing,
    mapped_sections,
    mapping_constructs,
    sections_of,
)

_MOVING = frozenset({"to", "from", "tofrom", "alloc"})


class MapWithoutSection(Rule):
    code = "KL705"
    name = "map-without-section"
    severity = Severity.ERROR
    languages = frozenset({"openmp-c", "openmp-fortran"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        sections = mapped_sections(facts)
        for construct in mapping_constructs(facts, standalone=True):
            outer = mapped_by_enclosing(facts, construct)
            for item, mapped in map_items(construct):
                if item.map_type not in _MOVING:
                    continue
                if mapped.storage == "assumed-size":
                    yield self._assumed_size(construct, item, mapped, ctx)
                    continue
                name = fold(item.item.name, construct)
                if mapped.storage != "pointer" or item.item.dims or mapped.device_pointer:
                    continue
                if sections_of(sections, name, construct, mapped.local) or name in outer:
                    continue  # the data it points to is mapped too: the pointer is attached to it
                use = construct.variable(name)
                if construct.region is not None and (use is None or not (use.dereferences or use.escapes)):
                    continue  # not dereferenced here (an unused map is KL706)
                yield self._pointer(construct, item, mapped, use.touched if use is not None else None, ctx)

    def _pointer(
        self, construct: OmpConstruct, item: OmpMapItem, mapped: OmpMapped, touched: OmpRange | None, ctx: RuleContext
    ) -> Diagnostic:
        written = " ".join(item.clause.text.split())
        name = mapped.name
        section = _section(name, touched, mapped)
        where = (
            "the region dereferences it on the device, where it holds a host address"
            if construct.region is not None
            else "a later region that dereferences it on the device reads through a host address"
        )
        allocated = ""
        if mapped.pointee_elements is not None:
            allocated = f" ({mapped.pointee_elements:,} elements)"
        return ctx.diagnostic(
            construct.locate(item.item.text),
            f"`{written}` maps the pointer `{name}` itself (8 bytes), not the data it points to{allocated}: "
            f"{where}; map an array section, {section}",
            evidence={
                "variable": name,
                "item": item.item.text,
                "map_type": item.map_type,
                "storage": mapped.storage,
                "pointee_elements": mapped.pointee_elements,
                "construct": construct.kind,
            },
            cost=failure_cost(f"the device dereferences the host address held by `{name}`"),
        )

    def _assumed_size(
        self, construct: OmpConstruct, item: OmpMapItem, mapped: OmpMapped, ctx: RuleContext
    ) -> Diagnostic:
        written = " ".join(item.clause.text.split())
        name = mapped.name
        use = construct.variable(name)
        touched = use.touched if use is not None else None
        hint = f"`{name}({touched.first}:{touched.last})`" if touched is not None else f"`{name}(1:n)` with its extent"
        return ctx.diagnostic(
            construct.locate(item.item.text),
            f"`{written}` maps the assumed-size array `{item.item.text}`, which has no upper bound to copy up "
            f"to: compilers reject it or copy the wrong memory; map a section with an explicit upper bound, "
            f"e.g. {hint}",
            evidence={"variable": name, "item": item.item.text, "map_type": item.map_type, "storage": mapped.storage},
            cost=failure_cost(f"the assumed-size array `{name}` cannot be mapped as written"),
        )


def _section(name: str, touched: OmpRange | None, mapped: OmpMapped) -> str:
    """The section to map: the range the region reaches when its accesses show it, else the count a
    `malloc`/`new` gave the pointer, else a placeholder."""
    if touched is not None and touched.first.divisor == 1 and touched.first.numerator.is_constant:
        start = touched.first.numerator.constant
        return f"`{name}[{start}:{touched.last.shifted(1 - start)}]` (the range the region uses)"
    if mapped.pointee_elements is not None:
        return f"`{name}[0:{mapped.pointee_elements}]`"
    return f"e.g. `{name}[0:n]` with its element count"
