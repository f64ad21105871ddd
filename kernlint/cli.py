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
from typing import TYPE_CHECKING, Any, TextIO

from kernlint import __version__
from kernlint.config import Config, ConfigError, parse_codes, parse_defines, parse_severity, validate_codes
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, RunResult, Severity
from kernlint.discovery import DiscoveryProblem, SourceEntry, discover, family_of
from kernlint.engine import EngineSetup, analyse_source, apply_kl000_selection
from kernlint.limits import DEFAULT_TIMEOUT_S, worker_count
from kernlint.output import WriteError, check_writable, reader_may_leave, write_atomically
from kernlint.plugins import PluginSet, load_plugins
from kernlint.projects import ConfigResolver
from kernlint.session import ProjectSetups, check_devices, known_codes, run_projects

if TYPE_CHECKING:
    from kernlint.fixes import FixOutcome, FixScope

SUBCOMMANDS = ("check", "explain", "rule", "occupancy", "devices", "lsp")
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernlint", description="Static analysis of GPU kernel source (SYCL, OpenMP offload C/C++ and Fortran)."
    )
    parser.add_argument("--version", action="version", version=f"kernlint {__version__}")
    sub = parser.add_subparsers(dest="command")

    check = sub.add_parser("check", help="analyse files and directories (the default command)")
    check.add_argument("paths", nargs="*", default=None, metavar="PATH")
    check.add_argument(
        "--format",
        "--output-format",
        dest="format",
        default="text",
        choices=("text", "concise", "json", "sarif", "github"),
        help="text (default), concise (one line per finding), json, sarif or github",
    )
    check.add_argument("--device", action="append", metavar="ID", help="target device (repeatable)")
    check.add_argument("--select", metavar="CODES", help="comma list of codes or prefixes to enable")
    check.add_argument("--extend-select", metavar="CODES", help="codes to enable in addition")
    check.add_argument("--ignore", metavar="CODES", help="comma list of codes or prefixes to disable")
    check.add_argument("--config", metavar="FILE", help="configuration file to use instead of discovery")
    check.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply exclude patterns to files named on the command line too (for pre-commit)",
    )
    check.add_argument(
        "--frontend",
        choices=("tree-sitter", "clang"),
        default=None,
        help="tree-sitter (default, fast) or clang (libclang, precise; arguments after -- go to it)",
    )
    check.add_argument(
        "-p",
        dest="compile_db",
        metavar="DIR",
        help="directory of compile_commands.json (default: the nearest above each file)",
    )
    check.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        metavar="N",
        help="worker processes (default or 0: one per CPU; capped at the CPU count)",
    )
    check.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"time limit per file (default {DEFAULT_TIMEOUT_S:g}; 0: none); "
        "a file over it is a KL000 and the run goes on; --frontend clang gives libclang half of it",
    )
    check.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails")
    check.add_argument("--statistics", action="store_true", help="print a count per rule instead of the findings")
    check.add_argument(
        "--show-files",
        action="store_true",
        help="name every file that parsed with syntax errors (the summary names a few)",
    )
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
    check.add_argument(
        "--sort",
        choices=("location", "cost"),
        default="location",
        help="order the findings by location (default) or by estimated cost, most expensive first",
    )
    check.add_argument("--explain", metavar="PATH:LINE", help=argparse.SUPPRESS)  # set by `kernlint explain`
    check.set_defaults(func=cmd_check)

    explain = sub.add_parser("explain", help="print the full cost derivation of the findings at PATH:LINE")
    explain.add_argument("location", metavar="PATH:LINE")
    explain.add_argument("options", nargs=argparse.REMAINDER, help="check options, e.g. --device xe-lp")
    explain.set_defaults(func=cmd_explain)

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
    clang_args: list[str] = []
    if "--" in args_list:  # what follows `--` is for the compiler (libclang), as in clang-tidy
        at = args_list.index("--")
        args_list, clang_args = args_list[:at], args_list[at + 1 :]
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    args.clang_args = tuple(clang_args)
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
        print(
            f"kernlint: internal error: {exc!r} at {frame.filename}:{frame.lineno}; please report it", file=sys.stderr
        )
        return EXIT_ERROR


# -- check -------------------------------------------------------------------------------------


def command_line_overrides(args: argparse.Namespace, known: frozenset[str]) -> Callable[[Config], Config]:
    """What the command line changes in every config file's settings. The command line's own codes are
    checked now; each file's codes are checked as it loads, before the command line can replace them,
    since a typo in a file is still one."""
    updates: dict[str, Any] = {}
    if args.device:
        updates["devices"] = tuple(args.device)
    if args.select:
        # A command-line selection replaces the file's whole selection (its ignores included),
        # as in ruff: what the user just typed is what runs.
        updates["select"] = parse_codes(args.select, "--select", known)
        updates["ignore"] = ()
        updates["extend_select"] = ()
    extend_select = parse_codes(args.extend_select, "--extend-select", known) if args.extend_select else ()
    ignore = parse_codes(args.ignore, "--ignore", known) if args.ignore else ()
    if args.fail_on:
        updates["fail_on"] = parse_severity(args.fail_on, "--fail-on")
    defines = parse_defines(args.define, "--define") if args.define else ()
    include_dirs = tuple(os.path.abspath(d) for d in args.include_dir or ())
    if getattr(args, "frontend", None):
        updates["frontend"] = args.frontend
    if getattr(args, "compile_db", None):
        from kernlint.frontends.clang.flags import compile_database

        updates["compile_db"] = compile_database(args.compile_db)
    clang_args = tuple(getattr(args, "clang_args", ()))

    def apply(config: Config) -> Config:
        validate_codes(config, known)
        extended = {
            "extend_select": updates.get("extend_select", config.extend_select) + extend_select,
            "ignore": updates.get("ignore", config.ignore) + ignore,
            "defines": config.defines + defines,
            "include_dirs": config.include_dirs + include_dirs,
            "clang_args": config.clang_args + clang_args,
        }
        return replace(config, **{**updates, **extended})

    return apply


def project_setups(args: argparse.Namespace, known: frozenset[str], plugins: PluginSet | None = None) -> ProjectSetups:
    """Each file's config (`--config FILE` for all, else its nearest) with the command line's overrides."""
    resolver = ConfigResolver(Path(args.config) if args.config else None, command_line_overrides(args, known))
    return ProjectSetups(
        resolver,
        plugins=plugins,
        use_cache=not getattr(args, "no_cache", False),
        timeout_s=getattr(args, "timeout", DEFAULT_TIMEOUT_S) or None,
    )


def cmd_check(args: argparse.Namespace) -> int:
    # Everything that can be found wrong without analysing is checked first: a mistake costs no run.
    if args.update_baseline and not args.baseline:
        raise ConfigError("--update-baseline needs --baseline FILE")
    if args.frontend == "clang":
        from kernlint.frontends import clang_unavailable

        problem = clang_unavailable()
        if problem is not None:  # said here once; every config then reads with tree-sitter
            print(f"kernlint: warning: {problem}", file=sys.stderr)
            args.frontend = "tree-sitter"
    plugins = load_plugins()
    if args.device:
        check_devices(args.device, plugins, "--device")
    setups = project_setups(args, known_codes(plugins), plugins)
    if args.output:
        check_writable(Path(args.output), "the report")
    baseline = _prepare_baseline(args)
    stdin_name = _stdin_name(args)
    jobs, note = worker_count(args.jobs)
    if note and stdin_name is None:
        print(f"kernlint: note: {note}", file=sys.stderr)
    fixes_failed = False
    sources: dict[str, bytes] = {}  # the source read from stdin, for code frames and fingerprints
    if stdin_name is not None:
        data = sys.stdin.buffer.read()
        setup = setups.for_file(stdin_name)
        result = _check_stdin(stdin_name, data, setup)
        if args.diff or args.fix:
            return _fix_stdin(args, result, data, setup)
        sources[stdin_name] = data
    else:
        config_of = setups.resolver.for_directory
        entries, problems = discover(args.paths or ["."], config_of, force_exclude=args.force_exclude)
        if args.frontend == "clang" and not args.quiet:
            from kernlint.frontends.clang.flags import flags_note

            print(f"kernlint: note: {flags_note([e.path for e in entries], args.compile_db)}", file=sys.stderr)
        unreadable = [
            apply_kl000_selection(_problem_result(p), config_of(os.path.dirname(p.path) or ".")) for p in problems
        ]
        result = run_projects(entries, setups, jobs=jobs, progress=_progress(len(entries)), extra_files=unreadable)
        if args.diff or args.fix:
            from kernlint.fixes import FixScope

            scope = FixScope.of(args.paths or ["."])
        if args.diff:
            return _show_diff(result, args.unsafe_fixes, scope)
        if args.fix:
            result, fixes_failed = _apply_fixes(
                result,
                args.unsafe_fixes,
                scope,
                lambda: run_projects(entries, setups, jobs=jobs, extra_files=unreadable),
            )
    if args.baseline:
        from kernlint.baseline import new_findings, write_baseline

        if args.update_baseline:
            count = write_baseline(Path(args.baseline), list(result.diagnostics), sources)
            print(f"kernlint: recorded {count} finding(s) in {args.baseline}", file=sys.stderr)
            return EXIT_OK
        kept = new_findings(list(result.diagnostics), baseline, Path(args.baseline), sources)
        result = replace(result, diagnostics=tuple(kept))
    if args.explain:
        return _explain(args.explain, result)
    if args.sort == "cost":
        from kernlint.cost import by_cost

        result = replace(result, diagnostics=tuple(by_cost(result.diagnostics)))
    with reader_may_leave():  # a reader that has what it wanted still gets the exit code of the findings
        _report(args, result, sources)
    return _exit_code(args, result, setups, fixes_failed)


def cmd_explain(args: argparse.Namespace) -> int:
    """`explain PATH:LINE [check options]`: check PATH with those options and print the cost derivation of
    the findings on that line."""
    from kernlint.explain import parse_location

    try:
        path, _line = parse_location(args.location)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    check_args = build_parser().parse_args(["check", path, "--explain", args.location, *args.options])
    check_args.clang_args = args.clang_args
    return int(check_args.func(check_args))


def _explain(location: str, result: RunResult) -> int:
    from kernlint.explain import findings_at, parse_location, render

    path, line = parse_location(location)
    found = findings_at(result.diagnostics, path, line)
    if not found:
        print(f"kernlint: no finding at {location}", file=sys.stderr)
        return EXIT_ERROR
    render(found, sys.stdout)
    return EXIT_OK


def _exit_code(args: argparse.Namespace, result: RunResult, setups: ProjectSetups, fixes_failed: bool) -> int:
    if fixes_failed or any(d.evidence.get("internal") for d in result.diagnostics):
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_OK
    # Each finding fails the run by its own file's `fail-on`.
    failing = any(d.severity.rank >= setups.resolver.for_file(d.path).fail_on.rank for d in result.diagnostics)
    return EXIT_FINDINGS if failing else EXIT_OK


def _stdin_name(args: argparse.Namespace) -> str | None:
    """The name source read from stdin is reported as, or None when the paths are files: stdin is read
    for `--stdin-filename NAME` or the path `-` (named `-` unless `--stdin-filename` names it)."""
    if "-" in (args.paths or ()):
        if len(args.paths) > 1:
            raise ConfigError("the path '-' (stdin) cannot be combined with other paths")
        return args.stdin_filename or "-"
    return args.stdin_filename


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
    return FileResult(
        problem.path,
        None,
        FileStatus.ERROR,
        problem.message,
        (Diagnostic.parse_error(problem.path, f"{problem.message}", severity),),
    )


def _analysed_digests(result: RunResult) -> dict[str, str]:
    return {f.path: f.content_digest for f in result.files if f.content_digest}


def _show_diff(result: RunResult, unsafe: bool, scope: FixScope) -> int:
    """`--diff`: print what `--fix` would change; exit 1 when there is something to change, 2 when a
    file with fixes could not be read."""
    from kernlint.fixes import fix_files

    outcome = fix_files(list(result.diagnostics), _analysed_digests(result), scope, unsafe=unsafe, write=False)
    with reader_may_leave():
        for file_fix in outcome.files:
            sys.stdout.write(file_fix.diff())
    _say_why_not_fixed(outcome)
    count = sum(len(f.applied) for f in outcome.files)
    print(f"kernlint: {count} fix(es) would be applied in {len(outcome.files)} file(s)", file=sys.stderr)
    if outcome.problems:
        return EXIT_ERROR
    return EXIT_FINDINGS if outcome.files else EXIT_OK


def _apply_fixes(
    result: RunResult, unsafe: bool, scope: FixScope, rerun: Callable[[], RunResult]
) -> tuple[RunResult, bool]:
    """`--fix`: apply the fixes atomically, say what changed, and re-analyse so the report shows the
    remaining findings at their new positions. A file that cannot be fixed (unreadable, changed, not
    writable) is named and skipped; the others are fixed, and the second value says it happened."""
    from kernlint.fixes import fix_files

    outcome = fix_files(list(result.diagnostics), _analysed_digests(result), scope, unsafe=unsafe, write=True)
    _say_why_not_fixed(outcome)
    for file_fix in outcome.files:
        codes = ", ".join(sorted({d.code for d in file_fix.applied}))
        print(f"kernlint: fixed {len(file_fix.applied)} finding(s) in {file_fix.path} ({codes})", file=sys.stderr)
    if not outcome.files:
        unsafe_left = sum(1 for d in result.diagnostics if d.fix is not None and not d.fix.safe)
        if unsafe_left and not unsafe:
            print(f"kernlint: {unsafe_left} unsafe fix(es) available with --unsafe-fixes", file=sys.stderr)
        return result, bool(outcome.problems)
    return rerun(), bool(outcome.problems)


def _say_why_not_fixed(outcome: FixOutcome) -> None:
    for problem in outcome.problems:
        print(f"kernlint: error: {problem}", file=sys.stderr)
    for note in outcome.notes:
        print(f"kernlint: note: {note}", file=sys.stderr)


def _check_stdin(name: str, data: bytes, setup: EngineSetup) -> RunResult:
    from kernlint.engine import PARSE_ERROR_RULE

    family = family_of(name) or ("cpp", False)
    file_result = analyse_source(SourceEntry(name, *family), data, setup)
    return RunResult(
        (file_result,),
        file_result.diagnostics,
        tuple(d.id for d in setup.devices),
        (PARSE_ERROR_RULE, *(r.info() for r in setup.rules)),
        0.0,
        __version__,
    )


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


def _fix_stdin(args: argparse.Namespace, result: RunResult, data: bytes, setup: EngineSetup) -> int:
    """`--diff` / `--fix` on stdin: the diff, or the fixed source, goes to stdout (as ruff does); with
    `--fix` the findings that remain are reported on stderr (or `-o FILE`), and set the exit code."""
    from kernlint.fixes import FileFix, apply_edits, plan_fixes

    (analysed,) = result.files
    name = analysed.path
    try:
        original = data.decode("utf-8")
    except UnicodeDecodeError:
        print(f"kernlint: error: {name}: not fixed: not valid UTF-8", file=sys.stderr)
        if args.fix:
            sys.stdout.buffer.write(data)  # a filter must still pass its input on
        return EXIT_ERROR
    fixed, applied, _skipped = apply_edits(
        original, plan_fixes(list(result.diagnostics), args.unsafe_fixes).get(name, [])
    )
    if args.diff:
        with reader_may_leave():
            sys.stdout.write(FileFix(name, original, fixed, applied).diff())
        print(f"kernlint: {len(applied)} fix(es) would be applied in {int(fixed != original)} file(s)", file=sys.stderr)
        return EXIT_FINDINGS if fixed != original else EXIT_OK
    with reader_may_leave():
        sys.stdout.buffer.write(fixed.encode("utf-8"))
    remaining = _check_stdin(name, fixed.encode("utf-8"), setup)
    _report(args, remaining, {name: fixed.encode("utf-8")}, stream=sys.stderr)
    failing = setup.config.fail_on.rank
    if any(d.evidence.get("internal") for d in remaining.diagnostics):
        return EXIT_ERROR
    return (
        EXIT_FINDINGS
        if not args.exit_zero and any(d.severity.rank >= failing for d in remaining.diagnostics)
        else EXIT_OK
    )


def _report(
    args: argparse.Namespace, result: RunResult, sources: dict[str, bytes], stream: TextIO | None = None
) -> None:
    """Render the report to `-o FILE`, else to `stream` (default: stdout)."""
    from kernlint.report import render

    color = {"always": True, "never": False, "auto": None}[args.color]
    if os.environ.get("NO_COLOR") and args.color == "auto":
        color = False
    options: dict[str, Any] = {
        "statistics": args.statistics,
        "quiet": args.quiet,
        "show_files": args.show_files,
        "sources": sources,
    }
    if args.output:
        buffer = io.StringIO()
        render(args.format, result, buffer, color=False, **options)
        write_atomically(Path(args.output), buffer.getvalue())
    else:
        render(args.format, result, stream or sys.stdout, color=color, **options)


# -- rule ----------------------------------------------------------------------------------------


def cmd_rule(args: argparse.Namespace) -> int:
    from kernlint.engine import PARSE_ERROR_RULE
    from kernlint.plugins import load_plugins

    plugins = load_plugins()
    infos = [PARSE_ERROR_RULE] + [rule.info() for _code, rule in sorted(plugins.rules.items())]
    if not args.rule:
        width = max(len(i.name) for i in infos)
        for info in infos:
            fix = f"fix: {info.fix_availability.value}"
            print(f"{info.code}  {info.name:<{width}}  {info.severity.value:<7}  {fix:<14}  {info.summary}")
        return EXIT_OK
    wanted = args.rule.strip()
    for info in infos:
        if wanted.upper() == info.code or wanted == info.name:
            print(f"{info.code} {info.name} ({info.severity.value})\n")
            print(f"{info.fix_availability.sentence()}\n")
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
