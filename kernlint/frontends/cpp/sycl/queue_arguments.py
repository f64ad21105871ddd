"""What each argument of a `sycl::queue` constructor supplies, read from how it is written.

A queue constructed without an existing context creates one (KL207). The constructor overloads take a
context, or a queue to copy (which shares its context), or only selectors, devices, property lists and
exception handlers; an argument is classified by its text and, when it names a variable of the file, by
that variable's declared type. Anything else (a function parameter, an `auto` variable) is `unknown`:
the rules then stay silent rather than guess.
"""

from __future__ import annotations

import re

from kernlint.facts.kinds import QueueArgument

_CONTEXT = re.compile(r"context|\bctx\b")
_QUEUE_TYPE = re.compile(r"\bqueue\b")
#: What a queue constructor takes besides a context, in the order they are tested.
_SETTINGS: tuple[tuple[QueueArgument, re.Pattern[str]], ...] = (
    ("selector", re.compile(r"selector")),
    ("device", re.compile(r"\bdevice\b|get_device\s*\(")),
    ("property", re.compile(r"propert|in_order|enable_profiling")),
    ("handler", re.compile(r"exception|async_handler|^\[")),  # `[` opens a lambda: an async handler
)


def argument_kind(text: str, declared_type: str | None) -> QueueArgument:
    """What the argument written `text` supplies; `declared_type` is its variable's declared type, if known."""
    if _CONTEXT.search(text) or (declared_type is not None and _CONTEXT.search(declared_type)):
        return "context"
    if declared_type is not None and _QUEUE_TYPE.search(declared_type):
        return "queue"
    for kind, pattern in _SETTINGS:
        if pattern.search(text) or (declared_type and pattern.search(declared_type)):
            return kind
    return "unknown"
