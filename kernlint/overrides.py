"""What the command line changes in the configuration of every file: `kernlint check` changes what
runs and how files are read; `kernlint debug facts`, only how files are read (it runs no rule, so it
checks no code against the rules)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kernlint.config import Config, parse_codes, parse_defines, parse_severity, validate_codes


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
    read = reading_overrides(args)

    def apply(config: Config) -> Config:
        validate_codes(config, known)
        extended = {
            "extend_select": updates.get("extend_select", config.extend_select) + extend_select,
            "ignore": updates.get("ignore", config.ignore) + ignore,
        }
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
