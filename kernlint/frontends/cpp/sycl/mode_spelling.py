"""How an accessor's mode is spelled, beyond the mode it means: what a fix that rewrites it must keep.

SYCL 1.2.1 names the mode enumeration `access::mode` (SYCL 2020: `access_mode`), and SYCL 2020 tags are
written with whatever namespace the file uses (`sycl::read_only`, `cl::sycl::read_only`, `read_only`).
The accessor facts record both, so the rules can rename the enumeration or add a tag in the same
spelling without reading the source themselves.
"""

from __future__ import annotations

import re

import tree_sitter

from kernlint.facts import Span
from kernlint.frontends.common.nodes import span_of, text_of

_ENUMERATION = re.compile(r"\baccess\s*::\s*mode\b")
_TAG = re.compile(r"\s*(?:(?:::)?(?:cl\s*::\s*)?sycl\s*::\s*)?\w+\s*")
_ENUMERATION_WORD = re.compile(r"\baccess(_mode)?\b")
_WORD = re.compile(r"\w+")


def enumeration_span(mode: tree_sitter.Node | None) -> Span | None:
    """Where the mode spelled by `mode` names the SYCL 1.2.1 enumeration `access::mode`, else None."""
    text = text_of(mode)
    found = _ENUMERATION.search(text)
    if mode is None or found is None:
        return None
    whole = span_of(mode)
    before, inside = text[: found.start()], found.group()
    line = whole.line + before.count("\n")
    column = (whole.column_byte if "\n" not in before else 0) + len(before.rsplit("\n", 1)[-1].encode())
    end_line = line + inside.count("\n")
    end_column = (column if "\n" not in inside else 0) + len(inside.rsplit("\n", 1)[-1].encode())
    start = whole.start_byte + len(before.encode())
    return Span(start, start + len(inside.encode()), line, column, end_line, end_column)


def tag_namespace(mode: tree_sitter.Node | None) -> str | None:
    """The namespace a SYCL 2020 tag is qualified with as written, blanks removed (`sycl::`, `::sycl::`,
    `cl::sycl::`, or "" for a bare tag); None when `mode` is not a plain tag."""
    text = text_of(mode)
    if not _TAG.fullmatch(text) or _ENUMERATION_WORD.search(text):
        return None
    written = text.strip()
    return "".join(written[: written.rfind(_WORD.findall(text)[-1])].split())
