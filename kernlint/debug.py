"""The `kernlint debug` subcommands: views of what kernlint extracted, for finding out why a rule did or
did not fire and for attaching to a bug report (as `clang -ast-dump` or ruff's debug views do).

`kernlint debug facts FILE` prints the facts of one file, read as `kernlint check` reads it: the same
front-end, configuration (`-D`, `-I`, `-p`, `--config`, the nearest config file) and stdin handling.
It runs no rule, and imports none: building the parser costs the command line nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_ERROR = 0, 2


def register(subparsers: Any) -> None:
    """Add the `debug` subcommand (and its views) to the top-level command's `subparsers`."""
    debug = subparsers.add_parser("debug", help="show what kernlint extracted from a file (for bug reports)")
    views = debug.add_subparsers(dest="view", metavar="VIEW", required=True)
    facts = views.add_parser(
        "facts",
        help="the facts of one file, as the rules see them",
        description="Print the facts kernlint extracted from FILE (launches, buffers, accessors, branches, "
        "OpenMP constructs, ...) as the rules see them, read with the same front-end and configuration "
        "as `kernlint check`. Arguments after -- go to libclang (with --frontend clang).",
    )
    facts.add_argument("path", metavar="FILE", help="the source file ('-': read stdin)")
    facts.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    facts.add_argument("--frontend", choices=("tree-sitter", "clang"), default=None, help="as for check")
    facts.add_argument("--config", metavar="FILE", help="configuration file to use instead of discovery")
    facts.add_argument("-p", dest="compile_db", metavar="DIR", help="directory of compile_commands.json")
    facts.add_argument("--define", "-D", action="append", metavar="NAME[=VALUE]", help="a macro, as for the compiler")
    facts.add_argument("--include-dir", "-I", action="append", metavar="DIR", help="a directory for quoted includes")
    facts.add_argument("--stdin-filename", metavar="NAME", help="read the source from stdin, named NAME")
    facts.set_defaults(func=cmd_facts)


def cmd_facts(args: argparse.Namespace) -> int:
    # Imported here: `kernlint --version` and every other command build this parser, not this command.
    from kernlint import __version__
    from kernlint.discovery import SourceEntry
    from kernlint.facts.dump import as_json, as_text
    from kernlint.frontends import clang_unavailable, extract_facts
    from kernlint.overrides import reading_overrides
    from kernlint.projects import ConfigResolver
    from kernlint.source import SourceFile
    from kernlint.undecodable import decodable

    name, family, data = _read(args)
    notes: list[str] = []
    if args.frontend == "clang":
        unavailable = clang_unavailable()
        if unavailable is not None:
            notes.append(unavailable)
            args.frontend = "tree-sitter"
    config = ConfigResolver(Path(args.config) if args.config else None, reading_overrides(args)).for_file(name)
    source = SourceFile(name, data)
    if source.decode_problem is not None:
        notes.append(f"invalid UTF-8 at line {source.decode_problem.line}: read as `?`, as `check` does")
        source = SourceFile(name, decodable(source.data))
    facts = extract_facts(SourceEntry(name, *family), source, config, notes=notes)
    frontend = config.frontend if family[0] != "fortran" else "tree-sitter"
    if args.format == "json":
        header = {"kernlint": __version__, "path": name, "frontend": frontend, "notes": notes}
        sys.stdout.write(as_json(facts, header))
    else:
        described = [f"note: {note}" for note in notes]
        described.append(f"kernlint {__version__}, {frontend} front-end, config {config.path or 'defaults'}")
        sys.stdout.write(as_text(facts, described))
    return EXIT_OK


def _read(args: argparse.Namespace) -> tuple[str, tuple[str, bool], bytes]:
    """(the name the file goes by, its front-end family, its bytes): from stdin with `-` or
    `--stdin-filename` (C++ unless the name says otherwise, as for `check`), else from FILE."""
    from kernlint.config import ConfigError
    from kernlint.discovery import family_of
    from kernlint.reading import ReadProblem, read_regular

    stdin = args.path == "-" or args.stdin_filename is not None
    name = (args.stdin_filename or "-") if stdin else args.path
    family = family_of(name)
    if family is None and not stdin:
        raise ConfigError(f"{name}: not a file kernlint reads (a C, C++ or Fortran source, by its extension)")
    if stdin:
        data = sys.stdin.buffer.read()
    else:
        try:
            data = read_regular(name)
        except ReadProblem as problem:
            raise ConfigError(f"{name}: {problem}") from None
    if b"\0" in data[:8192]:
        raise ConfigError(f"{name}: binary file (NUL byte at offset {data.index(0)}); not analysed")
    return name, family or ("cpp", False), data
