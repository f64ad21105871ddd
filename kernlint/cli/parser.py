"""The command line's grammar: every subcommand and option, and nothing that runs them.

Each subcommand's parser names its handler (`run`) by a word that `kernlint.cli` maps to a function,
so the grammar imports no command and `kernlint --help` loads no engine.
"""

from __future__ import annotations

import argparse

from kernlint import __version__
from kernlint.limits import DEFAULT_TIMEOUT_S

SUBCOMMANDS = ("check", "explain", "rule", "occupancy", "devices", "debug", "lsp", "clean")
REPORT_FORMATS = ("text", "concise", "json", "json-lines", "junit", "sarif", "github")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernlint", description="Static analysis of GPU kernel source (SYCL, OpenMP offload C/C++ and Fortran)."
    )
    parser.add_argument("--version", action="version", version=f"kernlint {__version__}")
    sub = parser.add_subparsers(dest="command")

    check = sub.add_parser("check", help="analyse files and directories (the default command)")
    _check_options(check)
    check.set_defaults(run="check")

    explain = sub.add_parser("explain", help="print the full cost derivation of the findings at PATH:LINE")
    explain.add_argument("location", metavar="PATH:LINE")
    explain.add_argument("options", nargs=argparse.REMAINDER, help="check options, e.g. --device xe-lp")
    explain.set_defaults(run="explain")

    rule = sub.add_parser("rule", help="explain a rule (no argument: list all rules)")
    rule.add_argument("rule", nargs="?", metavar="CODE|NAME")
    rule.add_argument(
        "--output-format", "--format", dest="format", choices=("text", "json"), default="text", help="text or json"
    )
    rule.set_defaults(run="rule")

    from kernlint.occupancy.cli import register as register_occupancy

    register_occupancy(sub)

    from kernlint.debug import register as register_debug

    register_debug(sub)

    lsp = sub.add_parser("lsp", help="run the language server on stdio")
    lsp.set_defaults(run="lsp")

    clean = sub.add_parser("clean", help="delete the result caches under the working directory (and --cache-dir)")
    clean.add_argument(
        "--cache-dir", metavar="DIR", help="a cache directory to delete too (default: $KERNLINT_CACHE_DIR)"
    )
    clean.set_defaults(run="clean")
    return parser


def _check_options(check: argparse.ArgumentParser) -> None:
    check.add_argument("paths", nargs="*", default=None, metavar="PATH")
    check.add_argument(
        "--format",
        "--output-format",
        dest="format",
        default="text",
        choices=REPORT_FORMATS,
        help="text (default), concise (one line per finding), json, json-lines (one finding per line), "
        "junit, sarif or github",
    )
    check.add_argument("--device", action="append", metavar="ID", help="target device (repeatable)")
    check.add_argument("--select", metavar="CODES", help="comma list of codes or prefixes to enable")
    check.add_argument("--extend-select", metavar="CODES", help="codes to enable in addition")
    check.add_argument("--ignore", metavar="CODES", help="comma list of codes or prefixes to disable")
    check.add_argument("--config", metavar="FILE", help="configuration file to use instead of discovery")
    check.add_argument(
        "--exclude",
        action="append",
        metavar="PATTERNS",
        help="comma list of globs to skip, replacing every config file's `exclude` (repeatable)",
    )
    check.add_argument(
        "--extend-exclude",
        action="append",
        metavar="PATTERNS",
        help="comma list of globs to skip in addition to the configured ones (repeatable)",
    )
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
    check.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where to keep the result cache (default: $KERNLINT_CACHE_DIR, else the user's cache directory)",
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails")
    check.add_argument(
        "--show-infos",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="list the infos in the text report too (default: counted in the summary; config key show-infos; "
        "JSON, SARIF and the editor always hold them)",
    )
    check.add_argument("--statistics", action="store_true", help="print a count per rule instead of the findings")
    check.add_argument("--show-files", action="store_true", help="list the files that would be checked, and exit")
    check.add_argument(
        "--show-settings", action="store_true", help="print the settings each checked file gets, and exit"
    )
    check.add_argument(
        "--show-fixes", action="store_true", help="list the fixes applied (with --fix) or available, per file"
    )
    check.add_argument(
        "--show-partial-parses",
        action="store_true",
        help="name every file that parsed with syntax errors (the summary names a few)",
    )
    check.add_argument("--no-timings", action="store_true", help="leave the run's duration out of the JSON report")
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
