"""`--show-files` and `--show-settings`: what a run would check, and with which settings, without
analysing anything (ruff's options of the same names)."""

from __future__ import annotations

import json
import sys
from typing import Any

from kernlint.cli.exits import EXIT_OK
from kernlint.discovery import DiscoveryProblem, SourceEntry
from kernlint.engine import EngineSetup
from kernlint.session import ProjectSetups


def show_files(entries: list[SourceEntry], problems: list[DiscoveryProblem]) -> int:
    """Every file the run would analyse, one per line, in the order it would; paths it could not use
    on stderr."""
    for entry in entries:
        sys.stdout.write(entry.path + "\n")
    for problem in problems:
        print(f"kernlint: warning: {problem.path}: {problem.message}", file=sys.stderr)
    if not entries:
        print("kernlint: warning: no file would be checked", file=sys.stderr)
    return EXIT_OK


def show_settings(entries: list[SourceEntry], setups: ProjectSetups) -> int:
    """The effective settings of each configuration the files use (the command line's overrides
    applied), in the config file's own key names, and the rules and devices they select."""
    groups: dict[str | None, tuple[EngineSetup, list[str]]] = {}
    for entry in entries:
        setup = setups.for_file(entry.path)
        groups.setdefault(setup.config.path, (setup, []))[1].append(entry.path)
    if not groups:
        fallback = setups.for_config(setups.resolver.for_directory("."))
        groups[fallback.config.path] = (fallback, [])
    for number, (setup, paths) in enumerate(groups.values()):
        if number:
            sys.stdout.write("\n")
        sys.stdout.write(settings_text(setup, paths))
    return EXIT_OK


def settings_text(setup: EngineSetup, paths: list[str]) -> str:
    """One configuration as TOML-like lines under a header naming its file and the files it governs."""
    config = setup.config
    first = f", the first {paths[0]}" if paths else ""
    lines = [
        f"# Settings for {len(paths)} file(s){first}",
        f"# config file: {config.path or 'none (the defaults)'}; patterns are relative to {config.root}",
    ]
    values: dict[str, Any] = {
        "device": list(config.devices),
        "select": list(config.select) if config.select is not None else None,
        "extend-select": list(config.extend_select),
        "ignore": list(config.ignore),
        "per-file-ignores": {glob: list(codes) for glob, codes in config.per_file_ignores},
        "exclude": list(config.exclude),
        "extend-exclude": list(config.extend_exclude),
        "fail-on": config.fail_on.value,
        "show-infos": config.show_infos,
        "include-dirs": list(config.include_dirs),
        "defines": [f"{name}={value}" for name, value in config.defines],
        "frontend": config.frontend,
        "clang-args": list(config.clang_args),
        "rules": {code: dict(options) for code, options in config.rule_options},
    }
    for key, value in values.items():
        if value is None:
            lines.append(f"# {key}: not set (every rule enabled by default runs)")
        else:
            lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    lines.append(f"# rules that run: {', '.join(rule.code for rule in setup.rules) or 'none'}")
    lines.append(f"# devices: {', '.join(getattr(d, 'id', str(d)) for d in setup.devices)}")
    lines.append(f"# cache: {'off' if not setup.use_cache else setup.cache_dir or 'the user cache directory'}")
    return "\n".join(lines) + "\n"
