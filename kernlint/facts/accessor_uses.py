"""How a kernel uses an accessor (reads, writes, read-modify-writes, atomics, escapes), whether its
writes overwrite the whole buffer, and where its mode is spelled (so a rule can offer a fix that only
changes the mode tag).

Owned by the accessor-usage analysis of the C++ front-end (`kernlint.frontends.cpp`)."""

from __future__ import annotations

from kernlint.facts.base import Extent, Span
from kernlint.facts.kinds import AccessorUseKind, ModeSyntaxForm
from kernlint.records import record


@record(slots=True)
class AccessorUse:
    """One reference to the accessor's data in device code."""

    kind: AccessorUseKind
    span: Span
    detail: str = ""  # e.g. "passed to unknown function `f`", "address taken"


@record(slots=True)
class ModeSyntax:
    """How the accessor's creation is written, as far as a mode-only fix needs to know.

    `form` is one of: `tag` (CTAD with a SYCL 2020 tag such as `sycl::read_write`), `enum` (an
    `access::mode` / `access_mode` value in template arguments), `default-ctad` (`sycl::accessor a(b, h)`:
    no mode, no template arguments), `default-get-access` (`b.get_access(h)`), `default-typed`
    (`sycl::accessor<T, 1> a(b, h)`), `default-other` (no mode written, but arguments the analysis does
    not read, so no fix can place one), or `other` (a mode the analysis could not read, e.g. a template
    parameter: the accessor's mode is then unknown, not defaulted)."""

    form: ModeSyntaxForm
    handler: Span | None = None  # the handler argument (a defaulted mode's tag is inserted after it)
    mode_is_last_argument: bool = False  # a tag with nothing after it (properties can be appended)
    get_access_template: Span | None = None  # `<…>` of `get_access<mode>(h)` when that is the whole spelling
    ranged: bool = False  # created over a sub-range (a range/offset argument)

    @property
    def defaulted(self) -> bool:
        """No mode is written, so the accessor is read_write."""
        return self.form.startswith("default-")


@record(slots=True)
class AccessorUses:
    """Counts of each kind of use inside the kernel(s) of the accessor's command group.

    `escapes` means some use could not be followed (unknown function, pointer taken, alias, use outside
    the kernel): the accessor may then be read and written in ways not counted here."""

    reads: int = 0
    writes: int = 0
    read_modify_writes: int = 0
    atomic: bool = False
    escapes: bool = False  # passed somewhere the analysis cannot see (treated as read-write)
    uses: tuple[AccessorUse, ...] = ()
    # A pure write that by itself overwrites every element of the buffer: unconditional, at the
    # work-item's own index over a global range equal to the buffer's extent (or a counting loop over
    # the whole extent). None when no write is shown to do so.
    covering_write: Span | None = None
    # Every pure write is at the kernel's own index (`a[i] = …`, `a[it.get_global_id()] = …`).
    writes_at_own_index: bool = False
    # Whether the kernel's global range equals the buffer's extent: None when either is unknown.
    range_matches_buffer: bool | None = None
    kernel: Span | None = None  # the launch the accessor is used in
    kernel_name: str | None = None
    buffer_span: Span | None = None  # the buffer's construction, when found in the same function
    buffer_extent: Extent | None = None
    buffer_has_host_data: bool | None = None
    element_size: int | None = None  # bytes per element, when the element type is arithmetic
    # Modes of the other accessors over the same buffer in the same command group ("read_write" for a
    # defaulted one, "unknown" when not read): another accessor may read what this one would discard.
    same_buffer_modes: tuple[str, ...] = ()
    # Where the accessor's type is spelled out with its mode (a functor member, a helper parameter):
    # changing the mode at creation alone would not compile there.
    typed_sites: tuple[Span, ...] = ()
    syntax: ModeSyntax | None = None

    @property
    def complete(self) -> bool:
        """The analysis saw every use (no escape)."""
        return not self.escapes

    @property
    def only_read(self) -> bool:
        return self.complete and self.reads > 0 and not (self.writes or self.read_modify_writes or self.atomic)

    @property
    def only_written(self) -> bool:
        return self.complete and self.writes > 0 and not (self.reads or self.read_modify_writes or self.atomic)

    @property
    def overwrites_whole_buffer(self) -> bool:
        """Only written, and some write alone overwrites every element, and no other accessor in the
        command group reaches the same buffer: the old contents are dead."""
        return (
            self.only_written
            and self.covering_write is not None
            and not (self.syntax and self.syntax.ranged)
            and not self.same_buffer_modes
        )

    @property
    def buffer_bytes(self) -> int | None:
        total = self.buffer_extent.total if self.buffer_extent is not None else None
        return total * self.element_size if total is not None and self.element_size is not None else None

    def first(self, *kinds: AccessorUseKind) -> AccessorUse | None:
        return next((u for u in self.uses if u.kind in kinds), None)
