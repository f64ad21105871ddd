"""kernlint's built-in rules, registered through the `kernlint` entry point like any plugin."""

from __future__ import annotations

from kernlint.hookspecs import hookimpl
from kernlint_rules.kl101_buffer_in_loop import BufferInLoop


@hookimpl
def kernlint_rules() -> list[type]:
    return [BufferInLoop]
