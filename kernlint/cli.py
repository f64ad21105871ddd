"""The `kernlint` command line (SPEC.md §1): argument parsing and wiring of the stages.

Exit codes: 0 nothing at or above the failing severity, 1 findings, 2 usage, configuration or
internal error.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kernlint import __version__
from kernlint.config import (
    Config,
    ConfigError,
    find_config,
    load_config,
    parse_codes,
    parse_defines,
    parse_severity,
    validate_codes,
)
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, RunResult, Severity
from kernlint.discovery import DiscoveryProblem, SourceEntry, discover, family_of
from kernlint.engine import EngineSetup, analyse_source, run
from kernlint.limits import DEFAULT_TIMEOUT_S, worker_count
from kernlint.output import WriteError, check_writable, reader_may_leave, write_atomically
from kernlint.plugins import load_plugins
from kernlint.session import known_codes, make_setup

SUBCOMMANDS = ("check", "rule", "occupancy", "devices", "lsp")
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernlint", description="Static analysis of GPU kernel source (SYCL, OpenMP offload C/C++ and Fortran).")
    parser.add_argument("--version", action="version", version=f"kernlint {__version__}")
    sub = parser.add_subparsers(dest="command")

    check = sub.add_parser("check", help="analyse files and directories (the default command)")
    check.add_argument("paths", nargs="*", default=None, metavar="PATH")
    check.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    check.add_argument("--device", action="append", metavar="ID", help="target device (repeatable)")
    check.add_argument("--select", metavar="CODES", help="comma list of codes or prefixes to enable")
    check.add_argument("--extend-select", metavar="CODES", help="codes to enable in addition")
    check.add_argument("--ignore", metavar="CODES", help="comma list of codes or prefixes to disable")
    check.add_argument("--config", metavar="FILE", help="configuration file to use instead of discovery")
    check.add_argument("--force-exclude", action="store_true",
                       help="apply exclude patterns to files named on the command line too (for pre-commit)")
    check.add_argument("--frontend", choices=("tree-sitter", "clang"), default="tree-sitter")
    check.add_argument("-p", dest="compile_db", metavar="DIR", help="directory of compile_commands.json (clang)")
    check.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                       help="worker processes (default or 0: one per CPU; capped at the CPU count)")
    check.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                       help=f"time limit per file (default {DEFAULT_TIMEOUT_S:g}; 0: none); "
                            "a file over it is a KL000 and the run goes on")
    check.add_argument("--no-cache", action="store_true", help="do not read or write .kernlint_cache/")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails")
    check.add_argument("--statistics", action="store_true", help="print a count per rule")
    check.add_argument("--quiet", "-q", action="store_true", help="print diagnostics only")
    check.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE (atomically)")
    check.add_argument("--stdin-filename", metavar="NAME", help="read the source from stdin, reported as NAME")
    check.add_argument("--define", "-D", action="append", metavar="NAME[=VALUE]", help="a macro, as for the compiler")
    check.add_argument("--include-dir", "-I", action="append", metavar="DIR", help="a directory for quoted includes")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    check.add_argument("--fix", action="store_true", help="apply the safe fixes rules offer")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix/--diff, include unsafe fixes")
    check.add_argument("--diff", action="store_true", help="show the fixes as a unified diff; change nothing")
    check.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in FILE")
    check.add_argument("--update-baseline", action="store_true", help="record the current findings in --baseline FILE")
    check.set_defaults(func=cmd_check)

    rule = sub.add_parser("rule", help="explain a rule (no argument: list all rules)")
    rule.add_argument("rule", nargs="?", metavar="CODE|NAME")
    rule.set_defaults(func=cmd_rule)

    from kernlint.occupancy.cli import register as register_occupancy

    register_occupancy(sub)

    lsp = sub.add_parser("lsp", help="run the language server on stdio")
    lsp.set_defaults(func=cmd_lsp)
    return parser


def _jobs(text: str) -> int:
    """`--jobs`: a count of workers, 0 for one per CPU."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; give a number of workers, or 0 for one per CPU")
    return value


def _seconds(text: str) -> float:
    """`--timeout`: seconds, 0 for no limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds; 0 turns the limit off")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    code = EXIT_OK  # also what a command whose reader left before it finished returns
    with reader_may_leave():
        code = _run(argv)
    return code


def _run(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0] not in SUBCOMMANDS and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "check")
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    try:
        return int(args.func(args))
    except (ConfigError, WriteError) as exc:
        print(f"kernlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("kernlint: interrupted", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        raise  # the reader went away: main() ends quietly
    except Exception as exc:  # a bug in kernlint: say where in one line, and never exit 1, which means findings
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        print(f"kernlint: internal error: {exc!r} at {frame.filename}:{frame.lineno}; please report it",
              file=sys.stderr)
        return EXIT_ERROR


# -- check -------------------------------------------------------------------------------------

def effective_config(args: argparse.Namespace, known: frozenset[str]) -> Config:
    """The configuration file's settings with the command line's overrides applied; every code either
    names must be one of `known`."""
    path = Path(args.config) if args.config else find_config(Path.cwd())
    config = load_config(path)
    validate_codes(config, known)  # before the command line can replace them: a typo in the file is still one
    updates: dict[str, Any] = {}
    if args.device:
        updates["devices"] = tuple(args.device)
    if args.select:
        # A command-line selection replaces the file's whole selection (its ignores included),
        # as in ruff: what the user just typed is what runs.
        updates["select"] = parse_codes(args.select, "--select", known)
        updates["ignore"] = ()
        updates["extend_select"] = ()
    if args.extend_select:
        updates["extend_select"] = updates.get("extend_select", config.extend_select) + \
            parse_codes(args.extend_select, "--extend-select", known)
    if args.ignore:
        updates["ignore"] = updates.get("ignore", config.ignore) + parse_codes(args.ignore, "--ignore", known)
    if args.fail_on:
        updates["fail_on"] = parse_severity(args.fail_on, "--fail-on")
    if args.define:
        updates["defines"] = config.defines + parse_defines(args.define, "--define")
    if args.include_dir:
        updates["include_dirs"] = config.include_dirs + tuple(os.path.abspath(d) for d in args.include_dir)
    return replace(config, **updates)


def cmd_check(args: argparse.Namespace) -> int:
    # Everything that can be found wrong without analysing is checked first: a mistake costs no run.
    if args.update_baseline and not args.baseline:
        raise ConfigError("--update-baseline needs --baseline FILE")
    if args.frontend == "clang":
        print("kernlint: warning: the clang front-end is not available yet; using tree-sitter", file=sys.stderr)
    plugins = load_plugins()
    config = effective_config(args, known_codes(plugins))
    setup = make_setup(config, use_cache=not args.no_cache, plugins=plugins, timeout_s=args.timeout or None)
    if args.output:
        check_writable(Path(args.output), "the report")
    baseline = _prepare_baseline(args)
    jobs, note = worker_count(args.jobs)
    if note and not args.stdin_filename:
        print(f"kernlint: note: {note}", file=sys.stderr)
    fixes_failed = False
    if args.stdin_filename:
        result = _check_stdin(args.stdin_filename, setup)
    else:
        entries, problems = discover(args.paths or ["."], config, force_exclude=args.force_exclude)
        unreadable = [_problem_result(p) for p in problems]
        result = run(entries, setup, jobs=jobs, progress=_progress(len(entries)), extra_files=unreadable)
        if args.diff:
            return _show_diff(result, args.unsafe_fixes)
        if args.fix:
            result, fixes_failed = _apply_fixes(result, args.unsafe_fixes, lambda: run(
                entries, setup, jobs=jobs, extra_files=unreadable))
    if args.baseline:
        from kernlint.baseline import new_findings, write_baseline

        if args.update_baseline:
            count = write_baseline(Path(args.baseline), list(result.diagnostics), os.getcwd())
            print(f"kernlint: recorded {count} finding(s) in {args.baseline}", file=sys.stderr)
            return EXIT_OK
        kept = new_findings(list(result.diagnostics), baseline, os.getcwd())
        result = replace(result, diagnostics=tuple(kept))
    with reader_may_leave():  # a reader that has what it wanted still gets the exit code of the findings
        _report(args, result)
    if fixes_failed or any(d.evidence.get("internal") for d in result.diagnostics):
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_OK
    failing = config.fail_on.rank
    return EXIT_FINDINGS if any(d.severity.rank >= failing for d in result.diagnostics) else EXIT_OK


def _prepare_baseline(args: argparse.Namespace) -> Counter[str]:
    """The recorded findings `--baseline` names (read now, so a missing or broken baseline stops the
    run before any analysis), or, with `--update-baseline`, a check that the file can be written."""
    if not args.baseline:
        return Counter()
    if args.update_baseline:
        check_writable(Path(args.baseline), "the baseline")
        return Counter()
    from kernlint.baseline import read_baseline

    return read_baseline(Path(args.baseline))


def _problem_result(problem: DiscoveryProblem) -> FileResult:
    """A path that could not be walked is a KL000 error; a named file kernlint does not read, a note."""
    severity = Severity.INFO if problem.skipped else Severity.ERROR
    return FileResult(problem.path, None, FileStatus.ERROR, problem.message,
                      (Diagnostic.parse_error(problem.path, f"{problem.message}", severity),))


def _analysed_digests(result: RunResult) -> dict[str, str]:
    return {f.path: f.content_digest for f in result.files if f.content_digest}


def _show_diff(result: RunResult, unsafe: bool) -> int:
    """`--diff`: print what `--fix` would change; exit 1 when there is something to change, 2 when a
    file with fixes could not be read."""
    from kernlint.fixes import fix_files

    fixed, problems = fix_files(list(result.diagnostics), _analysed_digests(result), unsafe=unsafe, write=False)
    with reader_may_leave():
        for file_fix in fixed:
            sys.stdout.write(file_fix.diff())
    for problem in problems:
        print(f"kernlint: error: {problem}", file=sys.stderr)
    count = sum(len(f.applied) for f in fixed)
    print(f"kernlint: {count} fix(es) would be applied in {len(fixed)} file(s)", file=sys.stderr)
    if problems:
        return EXIT_ERROR
    return EXIT_FINDINGS if fixed else EXIT_OK


def _apply_fixes(result: RunResult, unsafe: bool, rerun: Callable[[], RunResult]) -> tuple[RunResult, bool]:
    """`--fix`: apply the fixes atomically, say what changed, and re-analyse so the report shows the
    remaining findings at their new positions. A file that cannot be fixed (unreadable, changed, not
    writable) is named and skipped; the others are fixed, and the second value says it happened."""
    from kernlint.fixes import fix_files

    fixed, problems = fix_files(list(result.diagnostics), _analysed_digests(result), unsafe=unsafe, write=True)
    for problem in problems:
        print(f"kernlint: error: {problem}", file=sys.stderr)
    for file_fix in fixed:
        codes = ", ".join(sorted({d.code for d in file_fix.applied}))
        print(f"kernlint: fixed {len(file_fix.applied)} finding(s) in {file_fix.path} ({codes})", file=sys.stderr)
    if not fixed:
        unsafe_left = sum(1 for d in result.diagnostics if d.fix is not None and not d.fix.safe)
        if unsafe_left and not unsafe:
            print(f"kernlint: {unsafe_left} unsafe fix(es) available with --unsafe-fixes", file=sys.stderr)
        return result, bool(problems)
    return rerun(), bool(problems)


def _check_stdin(name: str, setup: EngineSetup) -> RunResult:
    from kernlint.engine import PARSE_ERROR_RULE

    family = family_of(name) or ("cpp", False)
    data = sys.stdin.buffer.read()
    file_result = analyse_source(SourceEntry(name, *family), data, setup)
    return RunResult((file_result,), file_result.diagnostics, tuple(d.id for d in setup.devices),
                     (PARSE_ERROR_RULE, *(r.info() for r in setup.rules)), 0.0, __version__)


def _progress(total: int):
    """A rich progress bar on stderr for long interactive runs; nothing otherwise."""
    if total < 200 or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import Progress

    progress = Progress(transient=True, console=Console(stderr=True))
    progress.start()
    task = progress.add_task("kernlint", total=total)

    def advance(n: int) -> None:
        progress.advance(task, n)
        if progress.finished:
            progress.stop()

    return advance


def _report(args: argparse.Namespace, result: RunResult) -> None:
    from kernlint.report import render

    color = {"always": True, "never": False, "auto": None}[args.color]
    if os.environ.get("NO_COLOR") and args.color == "auto":
        color = False
    if args.output:
        buffer = io.StringIO()
        render(args.format, result, buffer, color=False, statistics=args.statistics, quiet=args.quiet)
        write_atomically(Path(args.output), buffer.getvalue())
    else:
        render(args.format, result, sys.stdout, color=color, statistics=args.statistics, quiet=args.quiet)


# -- rule ----------------------------------------------------------------------------------------

def cmd_rule(args: argparse.Namespace) -> int:
    from kernlint.engine import PARSE_ERROR_RULE
    from kernlint.plugins import load_plugins

    plugins = load_plugins()
    infos = [PARSE_ERROR_RULE] + [rule.info() for _code, rule in sorted(plugins.rules.items())]
    if not args.rule:
        width = max(len(i.name) for i in infos)
        for info in infos:
            print(f"{info.code}  {info.name:<{width}}  {info.severity.value:<7}  {info.summary}")
        return EXIT_OK
    wanted = args.rule.strip()
    for info in infos:
        if wanted.upper() == info.code or wanted == info.name:
            print(f"{info.code} {info.name} ({info.severity.value})\n")
            print(info.doc or info.summary)
            return EXIT_OK
    print(f"kernlint: error: no rule {wanted!r}; `kernlint rule` lists them", file=sys.stderr)
    return EXIT_ERROR


def cmd_lsp(_args: argparse.Namespace) -> int:
    try:
        from kernlint.lsp import serve
    except ImportError as exc:
        print(f"kernlint: error: the language server is not available: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return serve()
