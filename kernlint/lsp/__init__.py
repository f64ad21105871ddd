"""`kernlint lsp`: the language server on stdio (`kernlint.lsp.server`), which analyses documents in a
worker process (`kernlint.lsp.worker`). Importing this package starts nothing: the analysis worker's
fork server imports `kernlint.lsp.preload` through it."""

from __future__ import annotations


def serve() -> int:
    """Run the language server on stdio until the client says exit; the exit code (LSP's)."""
    from kernlint.lsp.server import serve as run

    return run()
