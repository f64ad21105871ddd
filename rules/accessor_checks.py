"""What the accessor rules (KL102, KL103, KL104) share: how to describe an accessor and its cost, and
how to rewrite its mode in the spelling the source already uses."""

from __future__ import annotations

from kernlint.diagnostics import Edit
from kernlint.facts import Accessor, Span
from kernlint.facts.accessor_uses import AccessorUses
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
