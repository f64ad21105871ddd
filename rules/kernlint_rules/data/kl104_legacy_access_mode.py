"""A device accessor's mode is written in a SYCL 1.2.1 spelling that SYCL 2020 deprecates.

What it does
    Flags device accessors whose mode is spelled with the SYCL 1.2.1 enumeration `access::mode`
    (`sycl::access::mode::read_write`, `cl::sycl::access::mode::read`, …), and any use of the mode
    values SYCL 2020 deprecates in every spelling: `discard_write`, `discard_read_write` and `atomic`.
    It points to the SYCL 2020 spelling:

    * `access::mode::read|write|read_write` → `access_mode::read|write|read_write`, or the tags
      `sycl::read_only`, `sycl::write_only`, `sycl::read_write`;
    * `discard_write` → `sycl::write_only, sycl::no_init`;
    * `discard_read_write` → `sycl::read_write, sycl::no_init`;
    * `atomic` → a `read_write` accessor with `sycl::atomic_ref` on the elements.

    Host accessors are not checked.

Why it matters
    Nothing runs slower: a discard mode already skips the copy of the old contents. But the guide
    writes every accessor in the SYCL 2020 form (`sycl::read_only`, `sycl::write_only, sycl::no_init`),
    where the "do not copy the old contents" intent is the separate `no_init` property rather than a
    mode of its own, and current compilers warn about the deprecated spellings, which a future SYCL
    version may remove. It is a separate code from KL102 (a warning about a measurable cost) so that
    either can be selected or ignored on its own; its severity is info.

Example
    auto out = out_buf.get_access<sycl::access::mode::discard_write>(h);   // KL104

Fix
    auto out = out_buf.get_access(h, sycl::write_only, sycl::no_init);

    kernlint offers the rename `access::mode::X` → `access_mode::X` and, for
    `get_access<access::mode::discard_write>(h)` and `discard_read_write`, the rewrite into tags shown
    above, as fixes.

Fix safety
    Both fixes are marked safe: the rename names the same enumeration under its SYCL 2020 name, and
    the tags say what the discard mode said (write access, `no_init` for "the old contents are not
    needed"), so the program computes the same. The rewrite into tags is offered only when the
    accessor's type is not spelled elsewhere and every use of it is seen, since changing only the
    creation would not compile; `atomic` gets no fix, since its replacement changes the kernel's code.
    Neither fix is unsafe; a compiler without the SYCL 2020 names would reject the result.

Severity
    Info: a deprecated spelling costs nothing at run time; it is listed with --show-infos and
    fixed by --fix.

Occupancy basis
    None. The finding does not depend on the device.

Cost
    None at run time: the deprecated spelling names the same mode (cost 0 s, score 0).
"""

from __future__ import annotations

from collections.abc import Iterator

from kernlint.cost import Cost
from kernlint.diagnostics import Diagnostic, Fix, FixAvailability, Severity
from kernlint.facts import Accessor, FileFacts
from kernlint.rule import Rule, RuleContext
from kernlint_rules.data.accessors import tags_instead_of_template

_SYCL2020 = {
    "read": "sycl::access_mode::read (or the tag sycl::read_only)",
    "write": "sycl::access_mode::write (or the tag sycl::write_only)",
    "read_write": "sycl::access_mode::read_write (or the tag sycl::read_write)",
    "discard_write": "sycl::write_only, sycl::no_init",
    "discard_read_write": "sycl::read_write, sycl::no_init",
    "atomic": "a sycl::read_write accessor with sycl::atomic_ref on its elements",
}
_DISCARD_TAGS = {
    "discard_write": "sycl::write_only, sycl::no_init",
    "discard_read_write": "sycl::read_write, sycl::no_init",
}


class LegacyAccessMode(Rule):
    code = "KL104"
    name = "legacy-access-mode"
    severity = Severity.INFO
    fix_availability = FixAvailability.SOMETIMES
    languages = frozenset({"sycl"})

    def check(self, facts: FileFacts, ctx: RuleContext) -> Iterator[Diagnostic]:
        for accessor in facts.accessors:
            spelling = accessor.mode_spelling
            if (
                accessor.target != "device"
                or accessor.form == "get_host_access"
                or spelling is None
                or accessor.mode not in _SYCL2020
            ):
                continue
            legacy = accessor.mode_enum_span is not None  # `access::mode`, renamed `access_mode`
            if not legacy and accessor.mode not in ("discard_write", "discard_read_write", "atomic"):
                continue
            written = "".join(spelling.split())  # for the message: `sycl :: access` reads as `sycl::access`
            yield ctx.diagnostic(
                accessor.span,
                f"`{written}` is a SYCL 1.2.1 access mode, deprecated in SYCL 2020: write {_SYCL2020[accessor.mode]}",
                evidence={"accessor": accessor.name, "mode": accessor.mode, "spelling": written},
                kernel=accessor.uses.kernel_name if accessor.uses else None,
                fix=self._fix(accessor, ctx),
                cost=no_cost("a deprecated spelling of the same mode"),
            )

    @staticmethod
    def _fix(accessor: Accessor, ctx: RuleContext) -> Fix | None:
        span = accessor.mode_span
        if span is None or accessor.mode_spelling is None:
            return None
        if accessor.mode in _DISCARD_TAGS:
            uses = accessor.uses
            if uses is None or uses.typed_sites or uses.escapes:
                return None
            edits = tags_instead_of_template(ctx, uses, _DISCARD_TAGS[accessor.mode])
            return Fix(f"use {_DISCARD_TAGS[accessor.mode]}", edits, safe=True) if edits else None
        enumeration = accessor.mode_enum_span
        if enumeration is None or accessor.mode == "atomic" or span.line != span.end_line:
            return None
        source = ctx.source.line_bytes(span.line)[span.column_byte : span.end_column_byte]
        if source.decode("utf-8", errors="replace") != accessor.mode_spelling:
            return None
        return Fix("use the SYCL 2020 name access_mode", (ctx.replace(enumeration, "access_mode"),), safe=True)


def no_cost(reason: str) -> Cost:
    """A finding about spelling or hygiene: nothing is lost at run time."""
    return Cost(0.0, "s", f"at run time ({reason})", "none", f"no run-time cost: {reason}", score=0.0, seconds=0.0)
