"""A read_write accessor (or OpenMP `map(tofrom:)`) that the kernel only reads, or only overwrites.

What it does
    Looks at every device accessor whose mode is `read_write`, written out (`sycl::read_write`,
    `access::mode::read_write`, `access_mode::read_write`) or by default (`sycl::accessor a(buf, h)`,
    `buf.get_access(h)`), and at every use of it in the kernel launched in the same command group:
    by name in a lambda kernel, through the functor member it initialises (a template functor's
    too, its member types filled with `decltype(acc)`), and through helper
    functions defined in the same file (given the accessor, or its data pointer: `get_pointer()`,
    `get_multi_ptr<…>()`, either with `.get()`), and through a local pointer to its data declared
    in the kernel (`float *p = a.get_pointer();`, followed to the end of its block). It reports two
    cases:

    * the kernel only reads the accessor: suggest `sycl::read_only`;
    * the kernel never reads it and one unconditional write at the work-item's own index
      (`a[i] = …`, `a[it.get_global_id()] = …`), over a global range equal to the buffer's extent,
      overwrites every element: suggest `sycl::write_only, sycl::no_init`. For a buffer built from a
      range alone (no host memory) this is info, as in KL103: its first kernel has nothing to copy in,
      and the copy only happens once the host has accessed the buffer. The read-only message for such
      a buffer promises no copy back either (there is no host memory to copy to), only the ordering.

    Anything the analysis cannot follow (a function not defined in the file, a pointer taken with
    `get_pointer()` or `get_multi_ptr()` and moved, assigned or used other than by indexing it,
    `&a[i]`, a copy of the accessor, a use outside the kernel, an
    atomic, kernel code pulled in with `#include`) keeps it silent; a store to a member of an element
    (`a[i].x = …`, `a[i].v[k] += …`) is a write that keeps the other members, so it is neither a read
    nor an overwrite. Partial writes (`a[i + 1]`, `a[0]`, half the range, a write under a condition),
    which need the old contents, keep it silent too. It is also silent when another accessor in the same command group
    reaches the same buffer with a mode other than read-only (the buffer is written or read anyway).
    A write-only accessor that lacks `no_init` is KL103; a deprecated spelling of the mode is KL104.

    OpenMP offload (C, C++, Fortran): the same two cases for `map(tofrom: x)` and `map(x)` on `target`
    and `target data` constructs: a region that only reads `x` needs `map(to: x)`, one that overwrites
    the whole mapped section without reading it needs `map(from: x)`, and so does one whose first use
    of `x` is a device loop over exactly the section storing every element unconditionally, run
    whenever the region runs (no loop or condition of the region around it, no `nowait`), with every
    other use after it, or inside it at the iteration's own element in a later statement (`s[r] = 0;
    … s[r] += …`): it reads only what it wrote. A `continue`, `break`, `return` or `goto` (Fortran
    `cycle`, `exit`, …) before the store in the loop makes it conditional. That half is decided in
    `kernlint_rules/data/openmp_maps.py` and is just as silent when a use is not fully known: a store
    to a member (`a[i].x += …`, Fortran `a(i)%x = …`), code `#include`d into the region, a pointer into
    the array (`T *p = a;`, `&a[k]`, Fortran `p => a`) used in the region, an element passed where C++
    may take it by reference, or a call that may reach a variable that is not local to the function.

Why it matters
    The mode tells the runtime which copies it must make. A read_write accessor marks the buffer as
    modified on the device, so the data is copied back over the host link when the buffer is
    destroyed or read on the host, and kernels submitted later that use the same buffer must wait
    for this one, even when they only read it (an out-of-order queue could otherwise run readers
    concurrently). A kernel that overwrites the whole buffer makes the copy of the old contents to the
    device pointless. The guide's advice is to minimise host-device transfers, which are an order of
    magnitude slower than device memory, and to declare the access mode the kernel needs; its own
    kernels declare inputs `read_only` and outputs `write_only, no_init`.

Example
    q.submit([&](sycl::handler &h) {
        sycl::accessor in(in_buf, h, sycl::read_write);     // KL102: only read
        sycl::accessor out(out_buf, h);                     // KL102: read_write by default, only written
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = 2 * in[i]; });
    });

Fix
    sycl::accessor in(in_buf, h, sycl::read_only);
    sycl::accessor out(out_buf, h, sycl::write_only, sycl::no_init);

    For OpenMP, `map(to: x)` or `map(from: x)` instead of `map(tofrom: x)`. kernlint offers the new
    mode or map type as a fix.

Fix safety
    Switching an accessor to `read_only` is marked safe: it is only offered when the analysis saw
    every use, and a write it missed would be a compile error, never a wrong result. Switching to
    `write_only, no_init` is marked unsafe: `no_init` discards the old contents, so a write path the
    analysis misjudged would silently lose data. Narrowing an OpenMP map is marked unsafe too, though
    it is only offered on the proof above: were the proof wrong, `to` would leave the region's writes
    on the device and `from` would leave the host's values off it. No fix is offered when the
    accessor's type is spelled with its mode elsewhere (a functor member, a helper's parameter),
    because changing only the creation would not compile, nor for a `map` clause of several items.

Severity
    Warning when the buffer holds host memory: the message names the access mode to use and
    prices the needless copy of the whole buffer on the host link per submission. Info when the
    buffer is built from a range alone: no host copy is at stake, only the runtime's hint. Never
    an error: the results are the same.

Occupancy basis
    None: the cost is data movement and dependency ordering, not occupancy. The finding does not
    depend on the device.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Fix, FixAvailability, Severity
from kernlint.facts import Accessor, FileFacts
from kernlint.facts.accessor_uses import AccessorUses
from kernlint.rule import Rule, RuleContext
from kernlint_rules.data.accessors import (
    READ_ONLY,
    WRITE_ONLY_NO_INIT,
    buffer_evidence,
    cost_phrase,
    describe,
    mode_edits,
)
from kernlint_rules.data.costs import accessor_copy_cost
from kernlint_rules.data.openmp_maps import map_findings


class AccessorMode(Rule):
    code = "KL102"
    name = "accessor-mode"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    languages = frozenset({"sycl", "openmp-c", "openmp-fortran"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for accessor in facts.accessors:
            uses = accessor.uses
            if uses is None or uses.syntax is None or accessor.target != "device":
                continue
            defaulted = accessor.mode is None and uses.syntax.defaulted
            if accessor.mode != "read_write" and not defaulted:
                continue
            if "no_init" in accessor.properties:
                continue
            if uses.only_read and all(mode == "read" for mode in uses.same_buffer_modes):
                yield self._read_only(accessor, uses, defaulted, ctx)
            elif uses.overwrites_whole_buffer:
                yield self._write_only(accessor, uses, defaulted, ctx)
        yield from map_findings(facts, ctx)  # OpenMP `map` clauses (openmp_maps.py)

    @staticmethod
    def _evidence(accessor: Accessor, uses: AccessorUses, suggested: str) -> dict:
        return {
            **buffer_evidence(accessor, uses),
            "mode": accessor.mode or "read_write (default)",
            "suggested": suggested,
            "reads": uses.reads,
            "read_modify_writes": uses.read_modify_writes,
            "escapes": uses.escapes,
            "atomic": uses.atomic,
            "typed_sites": [s.line for s in uses.typed_sites],
        }

    def _read_only(self, accessor: Accessor, uses: AccessorUses, defaulted: bool, ctx: RuleContext) -> Diagnostic:
        mode = "read_write by default" if defaulted else "read_write"
        first = uses.first("read")
        related = [(first.span, "read here")] if first else []
        related += [(s, "the accessor's type names its mode here") for s in uses.typed_sites]
        if uses.buffer_has_host_data is False:
            cost = (
                "so later kernels using the buffer wait for this one (it has no host memory, so no copy back "
                "is saved when it is destroyed)"
            )
        else:
            cost = (
                f"which costs {cost_phrase(uses, 'device-to-host')} when its data goes back to the host and "
                f"makes later kernels using the buffer wait for this one"
            )
        return ctx.diagnostic(
            accessor.span,
            f"{describe(accessor)} is {mode} but the kernel only reads it: the buffer counts as modified, "
            f"{cost}; use sycl::read_only",
            evidence=self._evidence(accessor, uses, "read_only"),
            kernel=uses.kernel_name,
            fix=self._read_only_fix(accessor, uses, ctx),
            related=related,
            cost=accessor_copy_cost(uses, "device-to-host", ctx.devices),
        )

    @staticmethod
    def _read_only_fix(accessor: Accessor, uses: AccessorUses, ctx: RuleContext) -> Fix | None:
        edits = mode_edits(ctx, accessor, uses, READ_ONLY)
        return Fix("declare the accessor read-only", edits, safe=True) if edits else None

    def _write_only(self, accessor: Accessor, uses: AccessorUses, defaulted: bool, ctx: RuleContext) -> Diagnostic:
        mode = "read_write by default" if defaulted else "read_write"
        related = [(uses.covering_write, "overwrites every element here")] if uses.covering_write else []
        related += [(s, "the accessor's type names its mode here") for s in uses.typed_sites]
        if uses.buffer_has_host_data is False:  # built from a range: nothing to copy until the host touches it
            when = "whenever the host has accessed the buffer, its old contents are copied to the device for nothing"
        else:
            when = "the old contents are copied to the device for nothing"
        return ctx.diagnostic(
            accessor.span,
            f"{describe(accessor)} is {mode} but the kernel overwrites every element without reading it: "
            f"{when} ({cost_phrase(uses, 'host-to-device')}); use sycl::write_only, sycl::no_init",
            evidence=self._evidence(accessor, uses, "write_only, no_init"),
            kernel=uses.kernel_name,
            severity=Severity.INFO if uses.buffer_has_host_data is False else None,
            fix=self._write_only_fix(accessor, uses, ctx),
            related=related,
            cost=accessor_copy_cost(uses, "host-to-device", ctx.devices),
        )

    @staticmethod
    def _write_only_fix(accessor: Accessor, uses: AccessorUses, ctx: RuleContext) -> Fix | None:
        edits = mode_edits(ctx, accessor, uses, WRITE_ONLY_NO_INIT)
        if not edits:
            return None
        return Fix("declare the accessor write-only with no_init (discards the old contents)", edits, safe=False)
