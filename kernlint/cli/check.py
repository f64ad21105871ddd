"""`kernlint check` (and `explain`, which is a check of one file): options to settings, files to a
report, findings to an exit code."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from kernlint import __version__
from kernlint.cache_upkeep import cache_directory
from kernlint.cli.exits import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from kernlint.cli.parser import build_parser
from kernlint.config import (
    ConfigError,
)
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, RunResult, Severity
from kernlint.discovery import DiscoveryProblem, SourceEntry, discover, family_of
from kernlint.engine import EngineSetup, analyse_source, apply_kl000_selection
from kernlint.limits import DEFAULT_TIMEOUT_S, worker_count
from kernlint.output import check_writable, reader_may_leave, write_atomically
from kernlint.overrides import command_line_overrides
from kernlint.plugins import PluginSet, load_plugins
from kernlint.projects import ConfigResolver
from kernlint.session import ProjectSetups, check_devices, known_codes, run_projects


def project_setups(args: argparse.Namespace, known: frozenset[str], plugins: PluginSet | None = None) -> ProjectSetups:
    """Each file's config (`--config FILE` for all, else its nearest) with the command line's overrides."""
    resolver = ConfigResolver(Path(args.config) if args.config else None, command_line_overrides(args, known))
    return ProjectSetups(
        resolver,
        plugins=plugins,
        use_cache=not getattr(args, "no_cache", False),
        timeout_s=getattr(args, "timeout", DEFAULT_TIMEOUT_S) or None,
        cache_dir=cache_directory(getattr(args, "cache_dir", None)),
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
    if args.show_files or args.show_settings:
        from kernlint.cli.listing import show_files, show_settings

        entries, problems = _discover(args, setups) if stdin_name is None else ([_stdin_entry(stdin_name)], [])
        return show_files(entries, problems) if args.show_files else show_settings(entries, setups)
    jobs, note = worker_count(args.jobs)
    if note and stdin_name is None:
        print(f"kernlint: note: {note}", file=sys.stderr)
    fixes_failed = False
    fixed: list[Any] = []
    sources: dict[str, bytes] = {}  # the source read from stdin, for code frames and fingerprints
    if stdin_name is not None:
        data = sys.stdin.buffer.read()
        setup = setups.for_file(stdin_name)
        result = _check_stdin(stdin_name, data, setup)
        if args.diff or args.fix:
            from kernlint.cli.fixing import fix_stdin

            return fix_stdin(
                args,
                result,
                data,
                setup,
                lambda fixed: _check_stdin(stdin_name, fixed, setup),
                lambda remaining, given, stream: _report(args, remaining, given, stream, _infos_shown(setups)),
            )
        sources[stdin_name] = data
    else:
        entries, problems = _discover(args, setups)
        if args.frontend == "clang" and not args.quiet:
            from kernlint.frontends.clang.flags import flags_note

            print(f"kernlint: note: {flags_note([e.path for e in entries], args.compile_db)}", file=sys.stderr)
        config_of = setups.resolver.for_directory
        unreadable = [
            apply_kl000_selection(_problem_result(p), config_of(os.path.dirname(p.path) or ".")) for p in problems
        ]
        result = run_projects(entries, setups, jobs=jobs, progress=_progress(len(entries)), extra_files=unreadable)
        if args.diff or args.fix:
            from kernlint.cli.fixing import apply_fixes, show_diff
            from kernlint.fixes import FixScope

            scope = FixScope.of(args.paths or ["."])
            if args.diff:
                return show_diff(result, args.unsafe_fixes, scope)
            result, fixed, fixes_failed = apply_fixes(
                result,
                args.unsafe_fixes,
                scope,
                lambda: run_projects(entries, setups, jobs=jobs, extra_files=unreadable),
            )
    if stdin_name is None and not any(f.status is not FileStatus.ERROR for f in result.files):
        print(
            f"kernlint: warning: no file was checked under {', '.join(args.paths or ['.'])} (no C, C++ or "
            "Fortran source found there, or every one is excluded)",
            file=sys.stderr,
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
        _report(args, result, sources, show_infos=_infos_shown(setups))
        if args.show_fixes:
            from kernlint.cli.fixing import show_fixes

            text = args.format in ("text", "concise") and not args.output
            show_fixes(result, fixed, args.fix, sys.stdout if text else sys.stderr)
    return _exit_code(args, result, setups, fixes_failed)


def _discover(args: argparse.Namespace, setups: ProjectSetups) -> tuple[list[SourceEntry], list[DiscoveryProblem]]:
    return discover(args.paths or ["."], setups.resolver.for_directory, force_exclude=args.force_exclude)


def _stdin_entry(name: str) -> SourceEntry:
    return SourceEntry(name, *(family_of(name) or ("cpp", False)))


def cmd_explain(args: argparse.Namespace) -> int:
    """`explain PATH:LINE [check options]`: check PATH with those options and print the cost derivation of
    the findings on that line."""
    from kernlint.explain import parse_location

    try:
        path, _line = parse_location(args.location)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if not os.path.isfile(path):
        what = "a directory, not a file" if os.path.isdir(path) else "no such file"
        raise ConfigError(f"{path}: {what}")
    check_args = build_parser().parse_args(["check", path, "--explain", args.location, *args.options])
    check_args.clang_args = args.clang_args
    return cmd_check(check_args)


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


def _check_stdin(name: str, data: bytes, setup: EngineSetup) -> RunResult:
    from kernlint.engine import PARSE_ERROR_RULE

    file_result = analyse_source(_stdin_entry(name), data, setup)
    return RunResult(
        (file_result,),
        file_result.diagnostics,
        tuple(d.id for d in setup.devices),
        (PARSE_ERROR_RULE, *(r.info() for r in setup.rules)),
        0.0,
        __version__,
    )


def _progress(total: int) -> Callable[[int], None] | None:
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


def _infos_shown(setups: ProjectSetups) -> Callable[[str], bool]:
    """Whether the text report lists a file's infos: its config's `show-infos` (or `--show-infos`), or a
    `fail-on` of `info`, which makes them fail the run (a run must show what fails it). Asked per
    finding, answered once per file."""
    answers: dict[str, bool] = {}

    def shown(path: str) -> bool:
        if path not in answers:
            config = setups.resolver.for_file(path)
            answers[path] = config.show_infos or config.fail_on is Severity.INFO
        return answers[path]

    return shown


def _report(
    args: argparse.Namespace,
    result: RunResult,
    sources: dict[str, bytes],
    stream: TextIO | None = None,
    show_infos: Callable[[str], bool] | None = None,
) -> None:
    """Render the report to `-o FILE`, else to `stream` (default: stdout). `show_infos` tells, per file,
    whether the text formats list its infos (by default every one)."""
    import io

    from kernlint.report import render

    color = {"always": True, "never": False, "auto": None}[args.color]
    if os.environ.get("NO_COLOR") and args.color == "auto":
        color = False
    options: dict[str, Any] = {
        "statistics": args.statistics,
        "quiet": args.quiet,
        "show_partial": args.show_partial_parses,
        "sources": sources,
        "timings": not args.no_timings,
        "show_infos": show_infos,
    }
    if args.output:
        buffer = io.StringIO()
        render(args.format, result, buffer, color=False, **options)
        write_atomically(Path(args.output), buffer.getvalue())
    else:
        render(args.format, result, stream or sys.stdout, color=color, **options)
