"""Data behind a second level of pointers mapped shallowly: the device dereferences host addresses.

What it does
    C/C++: reports a `map` list item of a `target` construct or `target data` region that maps
    pointers without what they point to, when the region dereferences through them:

    * a pointer to pointers (`int **A`) or an array of pointers (`float *rows[8]`), mapped whole
      (`map(A)`), as its row pointers (`map(A[0:n])`) or as a two-level section (`map(A[0:n][0:m])`,
      whose rows are separate allocations, not one block), when the region indexes two levels deep
      (`A[i][j]`);
    * a struct with pointer members (`struct grid { float *v; int n; }`), mapped as a variable or as
      an array section of structs, when the region subscripts or dereferences one of those members
      (`g.v[i]`, `g->v[i]`, `gs[k].v[i]`).

    It is silent when the file maps what the pointers point to anywhere: a row (`map(to: A[i][0:m])`,
    the deep-copy pattern of a `target enter data` per row), a member section (`map(to: g.v[0:n])`,
    `g->v[0:n]`); when a clause names the variable as a device address (`is_device_ptr` …), a map
    clause uses a `mapper`, or the file declares one (`declare mapper`); and for `target enter data`,
    whose rows may be mapped just after.

Why it matters
    OpenMP maps contiguous storage. Mapping `A` of an `int **` copies the pointer, `A[0:n]` copies n
    row pointers that still hold host addresses, and a struct copies its pointer members' host
    values: the region then reads or writes through host addresses on the device, a fault or garbage.
    Deep copy is not automatic; each block must be mapped, and OpenMP attaches a pointer to its
    pointee when both are mapped.

Example
    void scale(float **A, int n, int m) {
    #pragma omp target teams distribute parallel for map(tofrom: A[0:n][0:m])   // KL708
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) A[i][j] *= 2.0f;
    }

Fix
    Map each block, parents first, and let the runtime attach them:

        #pragma omp target enter data map(to: A[0:n])
        for (int i = 0; i < n; ++i) {
        #pragma omp target enter data map(to: A[i][0:m])
        }
        #pragma omp target teams distribute parallel for
        for (…) …                              // A and its rows are present
        (target exit data in the reverse order)

    or store the matrix contiguously (`float *A` of n × m elements) and map one section; for a struct,
    map the member's data too: `map(to: g, g.v[0:g.n])`, or write a `declare mapper`.

Severity
    Error: the region dereferences host addresses on the device, a fault or garbage; the code does
    not work as written. Nothing when the file maps what the pointers point to, or a mapper may.

Occupancy basis
    None: the code does not work as written, whatever the device.

Cost
    A failure: the kernel dereferences host addresses, all its work is lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kernlint.cost import failure_cost
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.facts import FileFacts, Span
from kernlint.facts.openmp import OmpConstruct, OmpMapped
from kernlint.facts.openmp_directive import OmpMapItem
from kernlint.rule import Rule, RuleContext
from kernlint_rules.transfers.map_items import fold, map_items, mapped_sections, mapping_constructs, sections_of

_DEVICE_ADDRESSES = ("is_device_ptr", "has_device_addr", "use_device_ptr", "use_device_addr")


class ShallowMap(Rule):
    code = "KL708"
    name = "shallow-map"
    severity = Severity.ERROR
    languages = frozenset({"openmp-c"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        if any(c.directive is not None and c.directive.kind.startswith("declare mapper") for c in facts.omp):
            return  # a user-defined mapper may copy deeply
        sections = mapped_sections(facts)
        device = {
            fold(i.name, c)
            for c in facts.omp
            if c.directive is not None
            for k in _DEVICE_ADDRESSES
            for i in c.directive.items(k)
        }
        for construct in mapping_constructs(facts):
            for item, mapped in map_items(construct):
                name = fold(item.item.name, construct)
                if (
                    name in device
                    or mapped.device_pointer
                    or any(m.lower().startswith("mapper") for m in item.modifiers)
                ):
                    continue
                use = construct.variable(name)
                if use is None:
                    continue
                if mapped.storage in ("pointer-to-pointer", "pointer-array"):
                    rows = sections_of(sections, name, construct, mapped.local)
                    if use.dereferences >= 2 and not _rows_mapped(rows):
                        yield self._rows(construct, item, mapped, ctx)
                elif mapped.pointer_members and mapped.storage != "pointer":  # a bare pointer is KL705
                    for member in use.members:
                        if member in mapped.pointer_members and not _member_mapped(sections, construct, mapped, member):
                            yield self._member(construct, item, mapped, member, ctx)

    def _rows(self, construct: OmpConstruct, item: OmpMapItem, mapped: OmpMapped, ctx: RuleContext) -> Diagnostic:
        written = " ".join(item.clause.text.split())
        name = mapped.name
        kind = "a pointer to pointers" if mapped.storage == "pointer-to-pointer" else "an array of pointers"
        if not item.item.dims:
            what = f"copies `{name}` itself"
        elif len(item.item.dims) == 1:
            what = f"copies the row pointers `{item.item.text}`"
        else:
            what = f"asks for `{item.item.text}` as one block, but its rows are separate allocations"
        return ctx.diagnostic(
            construct.locate(item.item.text),
            f"`{written}` maps `{name}`, {kind}, shallowly: it {what}, and no directive maps the rows they "
            f"point to, so the region reads `{name}[i][j]` through host addresses; map each row "
            f"(`target enter data map(to: {name}[0:n])`, then `map(to: {name}[i][0:m])` for each row) or "
            f"store the data contiguously",
            evidence={"variable": name, "item": item.item.text, "storage": mapped.storage, "construct": construct.kind},
            cost=failure_cost(f"the device dereferences the host addresses stored in `{name}`"),
        )

    def _member(
        self, construct: OmpConstruct, item: OmpMapItem, mapped: OmpMapped, member: str, ctx: RuleContext
    ) -> Diagnostic:
        written = " ".join(item.clause.text.split())
        name = mapped.name
        return ctx.diagnostic(
            construct.locate(item.item.text),
            f"`{written}` copies `{name}` with the host address in its pointer member `{member}`, and no "
            f"directive maps what `{member}` points to, so the region dereferences a host address; map the "
            f"member's data too (e.g. `map(to: {name}.{member}[0:n])`) or declare a mapper",
            evidence={"variable": name, "item": item.item.text, "member": member, "construct": construct.kind},
            cost=failure_cost(f"the device dereferences the host address in `{name}.{member}`"),
        )


def _rows_mapped(items: list[OmpMapItem]) -> bool:
    """Whether the file maps a row of the data: an item `A[i][…]` whose first subscript is one row."""
    return any(len(m.item.dims) >= 2 and not m.item.dims[0].is_range for m in items)


def _member_mapped(
    sections: dict[str, list[tuple[OmpMapItem, Span | None]]], construct: OmpConstruct, mapped: OmpMapped, member: str
) -> bool:
    """Whether the file maps data behind the variable's member: `s.member[…]`, `s->member[…]`,
    `s[k].member[…]`."""
    pattern = re.compile(rf"{re.escape(mapped.name)}(\[[^\]]*\])?(\.|->){re.escape(member)}")
    return any(pattern.fullmatch(key) and sections_of(sections, key, construct, mapped.local) for key in sections)
