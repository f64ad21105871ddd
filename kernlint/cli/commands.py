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
    """`rule [CODE|NAME] [--output-format json]`: one rule's documentation, or every rule listed."""
    from kernlint.engine import PARSE_ERROR_RULE
    from kernlint.plugins import load_plugins
    from kernlint.rule_docs import rule_url

    plugins = load_plugins()
    infos = [PARSE_ERROR_RULE] + [rule.info() for _code, rule in sorted(plugins.rules.items())]
    if args.rule:
        wanted = args.rule.strip()
        infos = [info for info in infos if wanted.upper() == info.code or wanted == info.name]
        if not infos:
            print(f"kernlint: error: no rule {wanted!r}; `kernlint rule` lists them", file=sys.stderr)
            return EXIT_ERROR
    if args.format == "json":
        described = [_rule_json(info, plugins.rules.get(info.code)) for info in infos]
        json.dump(described[0] if args.rule else described, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
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


def _rule_json(info: Any, rule: Any) -> dict[str, Any]:
    """A rule as `rule --output-format json` prints it (the fields of ruff's, where they apply)."""
    from kernlint.rule_docs import rule_url

    return {
        "code": info.code,
        "name": info.name,
        "severity": info.severity.value,
        "per_device": info.needs_device,
        "fix": info.fix_availability.value,
        "languages": sorted(rule.languages) if rule is not None else [],
        "enabled_by_default": rule.enabled_by_default if rule is not None else True,
        "options": dict(sorted(rule.options.items())) if rule is not None else {},
        "summary": info.summary,
        "explanation": info.doc,
        "url": rule_url(info),
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
