"""Stopping an analysis early, at a point where nothing shared is half-built.

The language server's worker analyses one version of a document at a time; when a newer version
comes, the server asks it to stop (a signal, whose handler only calls `request`). Raising out of
whatever code the signal lands in could leave a memo that outlives the file (a header's constant
table, filled lazily) half-filled, so the analysis stops only where it calls `checkpoint`: between
the components of its device code, between the stages of its OpenMP facts, and before its rules.
The worker keeps what it keeps between versions (finished components), and nothing it keeps is
half-done. Outside the worker nothing requests a stop, and `checkpoint` costs one test of a flag.
"""

from __future__ import annotations

_requested = False


class Stopped(BaseException):
    """Raised at a checkpoint after a stop was requested. A BaseException, so that the engine's
    `except Exception` (a front-end's or rule's crash becomes a KL000) cannot swallow it."""


def request() -> None:
    """Ask the running analysis to stop at its next checkpoint (safe to call from a signal handler)."""
    global _requested
    _requested = True


def clear() -> None:
    """Forget a request (a new analysis begins)."""
    global _requested
    _requested = False


def checkpoint() -> None:
    """Raise `Stopped` if a stop was requested since the last `clear`."""
    if _requested:
        raise Stopped
