"""Preprocessing both tree-sitter front-ends apply before parsing, keeping every byte offset."""

from __future__ import annotations

import re

_IF0 = re.compile(rb"^[ \t]*#[ \t]*if[ \t]+0\b", re.M)
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.M)


def blank_disabled_blocks(data: bytes) -> bytes:
    """Replace the body of every `#if 0` block with spaces (newlines kept, so every byte offset and
    line number stays the same). Dead code is neither a fact nor a syntax error."""
    if not _IF0.search(data):
        return data
    out = bytearray(data)
    position = 0
    while (start := _IF0.search(data, position)) is not None:
        depth = 0
        end = len(data)
        for directive in _CONDITIONAL.finditer(data, start.end()):
            word = directive.group(1)
            if word in (b"if", b"ifdef", b"ifndef"):
                depth += 1
            elif word == b"endif" and depth > 0:
                depth -= 1
            elif depth == 0:  # #else / #elif / #endif of the `#if 0` itself
                end = directive.start()
                break
        body_start = data.find(b"\n", start.end())
        if body_start != -1 and body_start < end:
            out[body_start:end] = re.sub(rb"[^\n]", b" ", data[body_start:end])
        position = max(end, start.end())
    return bytes(out)
