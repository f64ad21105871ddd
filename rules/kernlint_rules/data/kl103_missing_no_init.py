"""A write-only accessor that overwrites the whole buffer but lacks `no_init`.

What it does
    Flags a device accessor declared write-only (`sycl::write_only`, `access::mode::write`,
    `access_mode::write`) without the `no_init` property when the kernel launched in its command
    group never reads it and overwrites every element: one unconditional write at the work-item's own
    index (`out[i] = …`, `out[it.get_global_id()] = …`, or through a local copied from it) over a
    global range equal to the buffer's extent (a launch over `out.get_range()`, or a one-dimensional
    range of `out.size()` or the buffer's `size()`, is), or inside a counting loop over the whole
    extent. A bounds check `if (i < n)` is understood when `n` is the buffer's extent and the launch covers it.
    A buffer built from a host container alone (`sycl::buffer<int> b{bins}` over `int bins[256]`,
    `sycl::buffer b{arr}` over a `std::array`, `sycl::buffer b(vec)` over a `std::vector` sized
    where it is declared and never resized) spans the container. Writes made by a helper defined in
    the file count, whether it is given the accessor or its data pointer (`get_pointer()`,
    `get_multi_ptr<…>()`), and so do writes through a local pointer to the data (`float *p =
    a.get_pointer(); p[i] = …`).

    It stays silent whenever the old contents may survive: a partial write (`out[i + 1]`, `out[0]`,
    half the range, a sub-range accessor), a write under any other condition, after an early `return`
    or in a loop that may not run, an extent it cannot compare, or a use it cannot follow (a function
    not defined in the file, a macro, a data pointer moved or assigned rather than indexed, `&a[i]`, an
    atomic, kernel code pulled in with `#include`), a store to a member of an element (`a[i].x = …`
    keeps the other members, so it is not an overwrite), or another accessor in the same command group
    over the same buffer, which may read what `no_init` would discard. A `read_write` accessor that is only
    written is KL102's finding, not this one.

Why it matters
    Without `no_init` a write-only accessor still promises to keep the elements the kernel does not
    write, so the runtime first copies the buffer's current contents to the device. When the kernel
    overwrites every element that transfer carries nothing the program can observe. The guide stresses
    that host-device transfers are an order of magnitude slower than device memory and should be
    avoided wherever possible; its own kernels create their output accessors with
    `sycl::write_only, sycl::no_init` for exactly this reason.

    Severity: warning, because the copy is a real transfer of the whole buffer whenever its newest
    contents are on the host, which is always the case for a buffer built over host memory on its
    first device use. For a buffer built from a range alone (no host memory behind it) the finding is
    reported as info: the first kernel has nothing to copy, and the transfer only happens after the
    host has accessed the buffer.

Example
    sycl::buffer<float> out_buf(result.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {
        sycl::accessor out(out_buf, h, sycl::write_only);       // KL103
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = 0.0f; });
    });

Fix
    sycl::accessor out(out_buf, h, sycl::write_only, sycl::no_init);

    kernlint offers adding `no_init` (or, for `get_access<access::mode::write>(h)`, rewriting it as
    `get_access(h, sycl::write_only, sycl::no_init)`) as a fix.

Fix safety
    The fix is always marked unsafe: `no_init` discards the old contents, so if a write path the
    analysis judged complete is not, the elements it misses are lost silently. No fix is offered when
    the accessor's type is spelled with its mode elsewhere (a functor member, a helper's parameter:
    changing only the creation would not compile) or when properties already follow the mode.

Severity
    Warning when the buffer holds host memory: the message names `no_init` and prices the
    needless host-to-device copy of the whole buffer per submission on the host link. Info when
    the buffer is built from a range alone (nothing is copied in). Never an error.

Occupancy basis
    None: the cost is a host-to-device transfer, not occupancy. The finding does not depend on the
    device.
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.diagnostics import Diagnostic, Fix, FixAvailability, Severity
from kernlint.facts import Accessor, FileFacts
from kernlint.facts.accessor_uses import AccessorUses
from kernlint.rule import Rule, RuleContext
from kernlint_rules.data.accessors import NO_INIT, buffer_evidence, cost_phrase, describe, mode_edits
from kernlint_rules.data.costs import accessor_copy_cost


class MissingNoInit(Rule):
    code = "KL103"
    name = "missing-no-init"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for accessor in facts.accessors:
            uses = accessor.uses
            if (
                uses is None
                or accessor.target != "device"
                or accessor.mode != "write"
                or "no_init" in accessor.properties
                or not uses.overwrites_whole_buffer
            ):
                continue
            related = [(uses.covering_write, "overwrites every element here")] if uses.covering_write else []
            related += [(s, "the accessor's type names its mode here") for s in uses.typed_sites]
            if uses.buffer_has_host_data is False:
                when = "whenever the host has accessed the buffer, its old contents are copied to the device first"
            else:
                when = "the old contents are copied to the device first"
            yield ctx.diagnostic(
                accessor.span,
                f"{describe(accessor)} is write-only and the kernel overwrites every element, but without "
                f"no_init {when} ({cost_phrase(uses, 'host-to-device')}); add sycl::no_init",
                evidence=buffer_evidence(accessor, uses),
                kernel=uses.kernel_name,
                severity=Severity.INFO if uses.buffer_has_host_data is False else None,
                fix=self._fix(accessor, uses, ctx),
                related=related,
                cost=accessor_copy_cost(uses, "host-to-device", ctx.devices),
            )

    @staticmethod
    def _fix(accessor: Accessor, uses: AccessorUses, ctx: RuleContext) -> Fix | None:
        edits = mode_edits(ctx, accessor, uses, NO_INIT)
        if not edits:
            return None
        return Fix("add no_init (discards the old contents)", edits, safe=False)
