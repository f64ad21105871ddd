"""The `kernlint` command line (docs/contract.md §1): parse the arguments, run one subcommand, and
turn every way it can end into an exit code.

Exit codes: 0 nothing at or above the failing severity, 1 findings, 2 usage, configuration or
internal error, 128 + the signal's number when interrupted (130 for Ctrl-C, 143 for SIGTERM).
Imports are deferred to the subcommand that needs them, so an interruption is handled from the
first moment (`interrupts.handled` comes before anything slow is loaded).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from kernlint.cli.exits import EXIT_ERROR, EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # the process's own command line
        _fewer_collections()
    from kernlint import interrupts
    from kernlint.output import reader_may_leave

    code = EXIT_OK  # also what a command whose reader left before it finished returns
    with interrupts.handled():
        try:
            with reader_may_leave():
                code = _run(argv)
        except KeyboardInterrupt:  # arrived while the report was flushed
            print("kernlint: interrupted", file=sys.stderr)
            return interrupts.exit_code()
    if argv is None:  # the process's own command line: it ends now
        _skip_final_collection()
    return code


def _fewer_collections() -> None:
    """Collect garbage as rarely as the analysis does (`engine.GC_THRESHOLDS`) from the start: what
    loading kernlint makes (modules, classes, the fact model) lives as long as the process, and the
    interpreter's default thresholds would walk it again and again (about 20 ms of a one-file run)."""
    import gc

    gc.set_threshold(20_000, 50, 100)


def _skip_final_collection() -> None:
    """Leave what the run made out of the interpreter's last garbage collection at exit (`gc.freeze`),
    which would walk every object still alive (a warm run's cached results: about 15 ms on HeCBench).
    Whatever holds a file or a pool is closed explicitly before this point, not by that collection."""
    import gc

    gc.freeze()


def _run(argv: Sequence[str] | None) -> int:
    from kernlint import interrupts

    try:
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt as exc:
        detail = f": {exc.detail}" if isinstance(exc, interrupts.Interrupted) else ""
        print(f"kernlint: interrupted{detail}", file=sys.stderr)
        return interrupts.exit_code()
    except BrokenPipeError:
        raise  # the reader went away: main() ends quietly
    except Exception as exc:
        from kernlint.config import ConfigError
        from kernlint.output import WriteError

        if interrupts.received() is not None:  # C code interrupted half-way raises its own error
            print("kernlint: interrupted", file=sys.stderr)
            return interrupts.exit_code()
        if isinstance(exc, (ConfigError, WriteError)):
            print(f"kernlint: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
        return _internal_error(exc)


def _internal_error(exc: Exception) -> int:
    """A bug in kernlint: say where in one line, and never exit 1, which means findings."""
    import traceback

    frame = traceback.extract_tb(exc.__traceback__)[-1]
    print(f"kernlint: internal error: {exc!r} at {frame.filename}:{frame.lineno}; please report it", file=sys.stderr)
    return EXIT_ERROR


def _dispatch(args_list: list[str]) -> int:
    if args_list == ["--version"]:  # what argparse's version action prints, without building the grammar
        from kernlint import __version__

        print(f"kernlint {__version__}")
        return EXIT_OK
    from kernlint.cli.parser import SUBCOMMANDS, build_parser

    if not args_list or (args_list[0] not in SUBCOMMANDS and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "check")
    clang_args: list[str] = []
    if "--" in args_list:  # what follows `--` is for the compiler (libclang), as in clang-tidy
        at = args_list.index("--")
        args_list, clang_args = args_list[:at], args_list[at + 1 :]
    try:
        args = build_parser().parse_args(args_list)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    args.clang_args = tuple(clang_args)
    handler = getattr(args, "func", None) or _command(args.run)  # `occupancy` and `devices` bring their own
    return int(handler(args))


def _command(name: str) -> Callable[[argparse.Namespace], int]:
    """The function that runs subcommand `name` (imported on use)."""
    if name == "check":
        from kernlint.cli.check import cmd_check

        return cmd_check
    if name == "explain":
        from kernlint.cli.check import cmd_explain

        return cmd_explain
    from kernlint.cli import commands

    return {
        "rule": commands.cmd_rule,
        "lsp": commands.cmd_lsp,
        "clean": commands.cmd_clean,
    }[name]
