"""What the command line changes in the configuration of every file: `kernlint check` changes what
runs and how files are read; `kernlint debug facts`, only how files are read (it runs no rule, so it
checks no code against the rules)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from kernlint.config import Config, parse_codes, parse_defines, parse_severity, unique, validate_codes


def command_line_overrides(args: argparse.Namespace, known: frozenset[str]) -> Callable[[Config], Config]:
    """What the command line changes in every config file's settings. The command line's own codes are
    checked now; each file's codes are checked as it loads, before the command line can replace them,
    since a typo in a file is still one."""
    updates: dict[str, Any] = {}
    if args.device:
        updates["devices"] = unique(args.device)
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
    if getattr(args, "show_infos", None) is not None:
        updates["show_infos"] = args.show_infos
    read = reading_overrides(args)
    exclude = _patterns(getattr(args, "exclude", None))
    extend_exclude = _patterns(getattr(args, "extend_exclude", None))

    def apply(config: Config) -> Config:
        validate_codes(config, known)
        extended: dict[str, Any] = {
            "extend_select": updates.get("extend_select", config.extend_select) + extend_select,
            "ignore": updates.get("ignore", config.ignore) + ignore,
            "extend_exclude": config.extend_exclude + _rebased(extend_exclude, config.root),
        }
        if exclude is not None:
            extended["exclude"] = _rebased(exclude, config.root)
        return replace(read(config), **{**updates, **extended})

    return apply


def reading_overrides(args: argparse.Namespace) -> Callable[[Config], Config]:
    """What the command line changes in how every file is read: macros (`-D`), include directories
    (`-I`), the front-end, the compile database (`-p`) and libclang's arguments (after `--`)."""
    updates: dict[str, Any] = {}
    defines = parse_defines(args.define, "--define") if args.define else ()
    include_dirs = tuple(os.path.abspath(d) for d in args.include_dir or ())
    if getattr(args, "frontend", None):
        updates["frontend"] = args.frontend
    if getattr(args, "compile_db", None):
        from kernlint.frontends.clang.flags import compile_database

        updates["compile_db"] = compile_database(args.compile_db)
    clang_args = tuple(getattr(args, "clang_args", ()))

    def apply(config: Config) -> Config:
        return replace(
            config,
            **updates,
            defines=config.defines + defines,
            include_dirs=config.include_dirs + include_dirs,
            clang_args=config.clang_args + clang_args,
        )

    return apply


def _patterns(values: list[str] | None) -> tuple[str, ...] | None:
    """`--exclude a,b --exclude c` as (a, b, c); None when the option was not given."""
    if values is None:
        return None
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _rebased(patterns: tuple[str, ...] | None, root: str) -> tuple[str, ...]:
    """Command-line patterns are relative to the working directory, a config file's to its directory:
    a pattern with a `/` is rewritten relative to the config's `root` (one outside it cannot match
    there and is dropped); a bare name matches a path component anywhere and stays as it is."""
    rebased: list[str] = []
    for pattern in patterns or ():
        if "/" not in pattern.rstrip("/"):
            rebased.append(pattern)
            continue
        relative = os.path.relpath(os.path.abspath(pattern), os.path.abspath(root))
        if relative != os.pardir and not relative.startswith(os.pardir + os.sep):
            rebased.append(Path(relative).as_posix())
    return tuple(rebased)
