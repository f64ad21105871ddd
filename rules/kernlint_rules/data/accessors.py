"""What the accessor rules (KL102, KL103, KL104) share: how to describe an accessor and its cost, and
how to rewrite its mode in the spelling the source already uses (`mode_edits`, one ladder for every
new mode: KL102's `read_only` and `write_only, no_init`, KL103's `no_init`)."""

from __future__ import annotations

from kernlint.diagnostics import Edit
from kernlint.facts import Accessor, Span
from kernlint.facts.accessor_uses import AccessorUses
from kernlint.records import record
from kernlint.rule import RuleContext


def cost_phrase(uses: AccessorUses, direction: str) -> str:
    """`a needless device-to-host copy of 4,096 bytes`, or without the size when it is unknown."""
    size = uses.buffer_bytes
    if size is not None:
        return f"a needless {direction} copy of {size:,} bytes"
    return "a needless copy back to the host" if direction == "device-to-host" else "a needless copy to the device"


def tag_prefix(accessor: Accessor) -> str:
    """The namespace to write a new tag with: the one the accessor's mode tag was written with
    (`sycl::`, `cl::sycl::`, nothing), `sycl::` when its mode is not a tag."""
    return accessor.mode_namespace if accessor.mode_namespace is not None else "sycl::"


def replace_last_word(ctx: RuleContext, span: Span, word: str, text: str) -> Edit | None:
    """Replace `word` where `span` (one line) ends with it, after checking the source says so."""
    if span.line != span.end_line:
        return None
    start = span.end_column_byte - len(word.encode())
    if ctx.source.line_bytes(span.line)[start : span.end_column_byte] != word.encode():
        return None
    return ctx.edit_bytes(span.line, start, span.end_column_byte, text)


def tags_instead_of_template(ctx: RuleContext, uses: AccessorUses, tags: str) -> tuple[Edit, ...] | None:
    """`get_access<mode>(h)` → `get_access(h, <tags>)`, when that is exactly how it is written."""
    syntax = uses.syntax
    if syntax is None or syntax.get_access_template is None or syntax.handler is None:
        return None
    return ctx.replace(syntax.get_access_template, ""), ctx.insert_after(syntax.handler, f", {tags}")


def buffer_evidence(accessor: Accessor, uses: AccessorUses) -> dict:
    """The evidence every accessor finding carries: which buffer, how big, how it was written."""
    return {
        "accessor": accessor.name,
        "buffer": accessor.buffer,
        "writes": uses.writes,
        "bytes": uses.buffer_bytes,
        "extent": list(uses.buffer_extent.dims) if uses.buffer_extent else None,
        "element_size": uses.element_size,
        "buffer_has_host_data": uses.buffer_has_host_data,
    }


def describe(accessor: Accessor) -> str:
    return f"accessor `{accessor.name}`" if accessor.name else "this accessor"


# -- rewriting the mode --------------------------------------------------------------------------------


@record
class NewMode:
    """A new mode, as each way of writing the old one must be rewritten to say it; a spelling left None
    gets no fix. `{ns}` stands for the namespace the mode tag was written with (`tag_prefix`)."""

    tag: str | None = None
    """Replaces the tag's last word `read_write` (`sycl::read_write` → `sycl::read_only`)."""
    tag_suffix: str | None = None
    """Appended after the tag instead (`sycl::write_only` → `sycl::write_only, sycl::no_init`)."""
    tag_anywhere: bool = False
    """The tag may have arguments after it: only a rename that adds no property may say so."""
    enum: str | None = None
    """Replaces the `access::mode` / `access_mode` value's last word `read_write`."""
    enum_as_tags: str | None = None
    """`get_access<mode>(h)` becomes `get_access(h, <these tags>)`."""
    default: str | None = None
    """Tags written after the handler of an accessor whose mode is left to the default."""


WRITE_ONLY_TAGS = "sycl::write_only, sycl::no_init"
READ_ONLY = NewMode(tag="read_only", tag_anywhere=True, enum="read", default="sycl::read_only")
WRITE_ONLY_NO_INIT = NewMode(tag="write_only, {ns}no_init", enum_as_tags=WRITE_ONLY_TAGS, default=WRITE_ONLY_TAGS)
NO_INIT = NewMode(tag_suffix=", {ns}no_init", enum_as_tags=WRITE_ONLY_TAGS)


def mode_edits(ctx: RuleContext, accessor: Accessor, uses: AccessorUses, new: NewMode) -> tuple[Edit, ...] | None:
    """The edits that give `accessor` the mode `new` in the spelling its creation uses, or None where
    that spelling has no place for it. None too when the accessor's type names the mode elsewhere (a
    functor member, a helper's parameter): changing the creation alone would not compile."""
    syntax = uses.syntax
    if syntax is None or uses.typed_sites:
        return None
    span = accessor.mode_span
    if syntax.form == "tag":
        if span is None or not (new.tag_anywhere or syntax.mode_is_last_argument):
            return None
        if new.tag is not None:
            edit = replace_last_word(ctx, span, "read_write", new.tag.format(ns=tag_prefix(accessor)))
            return (edit,) if edit else None
        if new.tag_suffix is not None:
            return (ctx.insert_after(span, new.tag_suffix.format(ns=tag_prefix(accessor))),)
        return None
    if syntax.form == "enum":
        if new.enum is not None:
            edit = replace_last_word(ctx, span, "read_write", new.enum) if span is not None else None
            return (edit,) if edit else None
        return tags_instead_of_template(ctx, uses, new.enum_as_tags) if new.enum_as_tags is not None else None
    if syntax.form in ("default-ctad", "default-get-access") and syntax.handler is not None and new.default:
        return (ctx.insert_after(syntax.handler, f", {new.default}"),)
    return None
