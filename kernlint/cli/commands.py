"""The small subcommands: `rule`, `lsp` and `clean`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from kernlint.cli.exits import EXIT_ERROR, EXIT_OK


def cmd_rule(args: argparse.Namespace) -> int:
    """`rule [CODE|NAME] [--output-format json]`: one rule's documentation, or every rule listed. Read
    from the plugins' catalogs, so that no rule module is imported where a plugin declares one."""
    from kernlint.plugins import load_rule_catalog
    from kernlint.rule import info_of_entry
    from kernlint.rule_docs import rule_url

    catalog, _errors = load_rule_catalog()
    entries = [_parse_error_entry(), *catalog]
    if args.rule:
        wanted = args.rule.strip()
        entries = [entry for entry in entries if wanted.upper() == entry["code"] or wanted == entry["name"]]
        if not entries:
            print(f"kernlint: error: no rule {wanted!r}; `kernlint rule` lists them", file=sys.stderr)
            return EXIT_ERROR
    if args.format == "json":
        described = [{**entry, "url": rule_url(info_of_entry(entry))} for entry in entries]
        json.dump(described[0] if args.rule else described, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    infos = [info_of_entry(entry) for entry in entries]
    if not args.rule:
        width = max(len(i.name) for i in infos)
        for info in infos:
            fix = f"fix: {info.fix_availability.value}"
            print(f"{info.code}  {info.name:<{width}}  {info.severity.value:<7}  {fix:<14}  {info.summary}")
        return EXIT_OK
    (info,) = infos
    print(f"{info.code} {info.name} ({info.severity.value})\n")
    print(f"{info.fix_availability.sentence()}\n")
    print(info.doc or info.summary)
    print(f"\nDocs: {rule_url(info)}")
    return EXIT_OK


def _parse_error_entry() -> dict[str, Any]:
    """KL000 (kernlint's own, no rule class) as a catalog entry."""
    from kernlint.diagnostics import PARSE_ERROR_RULE

    info = PARSE_ERROR_RULE
    return {
        "code": info.code,
        "name": info.name,
        "severity": info.severity.value,
        "per_device": info.needs_device,
        "fix": info.fix_availability.value,
        "languages": [],
        "enabled_by_default": True,
        "options": {},
        "summary": info.summary,
        "explanation": info.doc,
    }


def cmd_lsp(_args: argparse.Namespace) -> int:
    try:
        from kernlint.lsp import serve
    except ImportError as exc:
        print(f"kernlint: error: the language server is not available: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return serve()


def cmd_clean(args: argparse.Namespace) -> int:
    """`clean`: delete the result caches of the projects under the working directory (in the user's
    cache directory, and in the one `--cache-dir` or `$KERNLINT_CACHE_DIR` names), as `ruff clean` does."""
    from kernlint.cache_upkeep import cache_directory, remove_caches

    removed = remove_caches(Path(os.getcwd()), cache_directory(args.cache_dir))
    for path in removed:
        print(f"kernlint: removed the cache {path}", file=sys.stderr)
    if not removed:
        print("kernlint: no cache to remove", file=sys.stderr)
    return EXIT_OK
