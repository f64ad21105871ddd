"""Configuration: `[tool.kernlint]` in pyproject.toml, or `kernlint.toml` / `.kernlint.toml`.

Every key is validated; an unknown key or a bad value is a `ConfigError` naming the file, the key and
what is accepted, which the CLI turns into exit code 2.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from kernlint.compat import tomllib
from kernlint.diagnostics import Severity
from kernlint.records import record

DEFAULT_DEVICE = "xe-hpc"
CONFIG_FILES = (".kernlint.toml", "kernlint.toml", "pyproject.toml")
DEFAULT_EXCLUDES = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "__pycache__",
    "node_modules",
    "build",
    "_build",
    "dist",
    "cmake-build-*",
    "CMakeFiles",
    ".kernlint_cache",
)


class ConfigError(Exception):
    """A configuration problem the user must fix (exit code 2)."""


@record
class Config:
    """The effective configuration of a run (file settings overridden by the command line)."""

    path: str | None = None
    root: str = "."
    devices: tuple[str, ...] = (DEFAULT_DEVICE,)
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    fail_on: Severity = Severity.WARNING
    show_infos: bool = False  # the text report lists infos too (they are always in JSON, SARIF and the editor)
    include_dirs: tuple[str, ...] = ()
    defines: tuple[tuple[str, str], ...] = ()
    # Macros the tree-sitter front-end expands in place (`cpp.dialect`): NAME or NAME(…) -> value.
    macros: tuple[tuple[str, str], ...] = ()
    rule_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    frontend: str = "tree-sitter"  # or "clang" (libclang, with compile_commands.json)
    compile_db: str | None = None  # `-p DIR`: where compile_commands.json is; None: the nearest above each file
    clang_args: tuple[str, ...] = ()  # extra libclang arguments (`clang-args`, or after `--`)

    def is_selected(self, code: str, enabled_by_default: bool = True) -> bool:
        """Whether a rule runs: the most specific matching prefix of select/ignore wins (ties: ignore)."""
        chosen = (self.select if self.select is not None else ()) + self.extend_select
        best_select = max((len(p) for p in chosen if code.startswith(p)), default=-1)
        if self.select is None and enabled_by_default:
            best_select = max(best_select, 0)
        best_ignore = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return best_select >= 0 and best_select > best_ignore

    def reports_kl000(self, path: str) -> bool:
        """Whether KL000 (a file that could not be read or fully analysed) is reported for `path`.
        It is an ordinary code for `ignore` and `per-file-ignores`, and `select` may name it; but a
        selection that does not name it leaves it on: picking a few rules must not make the files
        that could not be read go unreported."""
        code = "KL000"
        if any(code.startswith(prefix) for prefix in self.ignored_for_file(path)):
            return False
        chosen = (self.select or ()) + self.extend_select
        best_select = max((len(p) for p in chosen if code.startswith(p)), default=0)
        best_ignore = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return best_select > best_ignore

    def ignored_for_file(self, path: str) -> tuple[str, ...]:
        """Codes (prefixes) that `per-file-ignores` turns off for `path`."""
        relative = _relative(path, self.root)
        codes: list[str] = []
        for pattern, ignored in self.per_file_ignores:
            if _glob_match(relative, pattern):
                codes.extend(ignored)
        return tuple(codes)

    def is_excluded(self, path: str) -> bool:
        """Whether an exclude pattern matches `path` (relative to the root: the whole of it, a leading
        or trailing run of its folders, or any one of its parts), as `_glob_match` and `fnmatchcase`
        would, asked of every pattern in one compiled expression (discovery asks for every file)."""
        relative = _relative(path, self.root)
        whole, part = _exclusion(self.exclude + self.extend_exclude)
        return bool(whole.match(relative)) or any(part.match(name) for name in Path(relative).parts)

    def excluded_names(self, directory: str, absolute: str | None = None) -> Callable[[str], bool]:
        """`is_excluded` for the entries of `directory`, asked by name (no `/` in it): what depends on
        the directory alone (its path relative to the root, whether one of its parts is excluded) is
        worked out once, for discovery, which asks for every file of every directory it walks (and
        knows each one's `os.path.abspath` already: `absolute`)."""
        absolute = os.path.abspath(directory) if absolute is None else absolute
        base = _absolute_root(self.root) if os.path.isabs(self.root) else os.path.abspath(self.root)
        prefix = base if base.endswith("/") else base + "/"
        if os.sep != "/" or absolute == "/" or not (absolute == base or absolute.startswith(prefix)):
            return lambda name: self.is_excluded(os.path.join(directory, name))
        whole, part = _exclusion(self.exclude + self.extend_exclude)
        folders = "" if absolute == base else absolute[len(prefix) :]
        if folders and any(part.match(folder) for folder in folders.split("/")):
            return lambda _name: True
        lead = folders + "/" if folders else ""
        return lambda name: bool(whole.match(lead + name) or part.match(name))

    def options_for(self, code: str) -> dict[str, Any]:
        return dict(dict(self.rule_options).get(code, ()))

    def fingerprint(self) -> str:
        """A stable hash of everything that can change a file's diagnostics, for the cache key."""
        payload = {k: v for k, v in self.__dict__.items() if k not in ("path", "root", "show_infos")}
        payload["fail_on"] = self.fail_on.value
        return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _relative(path: str, root: str) -> str:
    """`path` relative to `root` in POSIX form (as given, when it is not under `root`). Asked for every
    file discovery meets: on POSIX by string, which is what `PurePath.relative_to` decides there."""
    absolute, base = os.path.abspath(path), os.path.abspath(root)
    if os.sep != "/":
        try:
            return Path(absolute).relative_to(base).as_posix()
        except ValueError:
            return Path(path).as_posix()
    if absolute == base:
        return "."
    prefix = base if base.endswith("/") else base + "/"
    return absolute[len(prefix) :] if absolute.startswith(prefix) else Path(path).as_posix()


@lru_cache(maxsize=64)
def _absolute_root(root: str) -> str:
    """`os.path.abspath` of an absolute root (which does not depend on the working directory)."""
    return os.path.abspath(root)


@lru_cache(maxsize=64)
def _exclusion(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The expressions `is_excluded` matches: the relative path against every pattern's four
    `_glob_match` forms, and one part of it against every pattern as written (`fnmatch.translate`
    is what `fnmatchcase` matches with; an empty alternation matches nothing)."""
    never = r"(?!)"
    part = "|".join(fnmatch.translate(pattern) for pattern in patterns) or never
    bodies = [body for body in (_translated_body(pattern.rstrip("/")) for pattern in patterns) if body is not None]
    if patterns and len(bodies) == len(patterns):
        # The four forms of every pattern, factored: `(*/)?(P1|P2|…)(/*)?` is their union (a `*` is
        # `.*`), and ten times quicker to match than the 4 × n alternatives one after the other.
        return re.compile(rf"(?s:(?:.*/)?(?:{'|'.join(bodies)})(?:/.*)?)\Z"), re.compile(part)
    forms = []
    for pattern in patterns:
        stripped = pattern.rstrip("/")
        forms += [stripped, f"{stripped}/*", f"*/{stripped}", f"*/{stripped}/*"]
    whole = "|".join(fnmatch.translate(form) for form in forms) or never
    return re.compile(whole), re.compile(part)


def _translated_body(pattern: str) -> str | None:
    """`fnmatch.translate(pattern)` without its `(?s:…)\\Z` wrapper (None: a form this does not know)."""
    translated = fnmatch.translate(pattern)
    for end in ("\\Z", "\\z"):
        if translated.startswith("(?s:") and translated.endswith(")" + end):
            return translated[len("(?s:") : -len(")" + end)]
    return None


def _glob_match(relative: str, pattern: str) -> bool:
    pattern = pattern.rstrip("/")
    return (
        fnmatch.fnmatchcase(relative, pattern)
        or fnmatch.fnmatchcase(relative, f"{pattern}/*")
        or fnmatch.fnmatchcase(relative, f"*/{pattern}")
        or fnmatch.fnmatchcase(relative, f"*/{pattern}/*")
    )


def load_config(path: Path | None) -> Config:
    """Read and validate a config file; `None` gives the defaults rooted at the working directory."""
    if path is None:
        return Config(root=os.getcwd())
    try:
        document = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: TOML syntax error: {exc}") from None
    table = document.get("tool", {}).get("kernlint", {}) if path.name == "pyproject.toml" else document
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.kernlint] must be a table")
    return _parse_table(table, path)


_KEYS = (
    "device",
    "select",
    "ignore",
    "extend-select",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "fail-on",
    "show-infos",
    "include-dirs",
    "defines",
    "macros",
    "rules",
    "frontend",
    "clang-args",
)


def _parse_table(table: dict[str, Any], path: Path) -> Config:
    where = f"{path}"
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; accepted keys: {', '.join(_KEYS)}")
    root = str(path.parent.resolve())
    config = Config(path=str(path), root=root)
    updates: dict[str, Any] = {}
    if "device" in table:
        updates["devices"] = unique(_str_list(table["device"], where, "device", allow_str=True))
        if not updates["devices"]:
            raise ConfigError(
                f"{where}: key 'device' is empty, which would turn off every device rule; "
                f'name at least one, e.g. device = ["{DEFAULT_DEVICE}"] (`kernlint devices` '
                "lists them)"
            )
    for key, attr in (("select", "select"), ("ignore", "ignore"), ("extend-select", "extend_select")):
        if key in table:
            updates[attr] = tuple(_codes(_str_list(table[key], where, key, allow_str=True), where, key))
    if "exclude" in table:
        updates["exclude"] = tuple(_str_list(table["exclude"], where, "exclude"))
    if "extend-exclude" in table:
        updates["extend_exclude"] = tuple(_str_list(table["extend-exclude"], where, "extend-exclude"))
    if "fail-on" in table:
        updates["fail_on"] = parse_severity(table["fail-on"], f"{where}: key 'fail-on'")
    if "show-infos" in table:
        if not isinstance(table["show-infos"], bool):
            raise ConfigError(f"{where}: key 'show-infos' must be true or false, got {table['show-infos']!r}")
        updates["show_infos"] = table["show-infos"]
    if "include-dirs" in table:
        updates["include_dirs"] = tuple(
            str((path.parent / d).resolve()) for d in _str_list(table["include-dirs"], where, "include-dirs")
        )
    if "frontend" in table:
        if table["frontend"] not in ("tree-sitter", "clang"):
            raise ConfigError(f'{where}: key \'frontend\' must be "tree-sitter" or "clang", got {table["frontend"]!r}')
        updates["frontend"] = table["frontend"]
    if "clang-args" in table:
        updates["clang_args"] = tuple(_str_list(table["clang-args"], where, "clang-args"))
    if "defines" in table:
        updates["defines"] = parse_defines(_str_list(table["defines"], where, "defines"), f"{where}: key 'defines'")
    if "macros" in table:
        updates["macros"] = parse_macros(table["macros"], f"{where}: key 'macros'")
    if "per-file-ignores" in table:
        value = table["per-file-ignores"]
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: key 'per-file-ignores' must be a table of glob = [codes]")
        updates["per_file_ignores"] = tuple(
            (
                glob,
                tuple(
                    _codes(
                        _str_list(codes, where, f"per-file-ignores.{glob}", allow_str=True),
                        where,
                        f"per-file-ignores.{glob}",
                    )
                ),
            )
            for glob, codes in value.items()
        )
    if "rules" in table:
        rules = table["rules"]
        if not isinstance(rules, dict) or not all(isinstance(v, dict) for v in rules.values()):
            raise ConfigError(
                f"{where}: [rules.<CODE>] tables must hold rule options, e.g. [tool.kernlint.rules.KL202]"
            )
        updates["rule_options"] = tuple((code, tuple(sorted(opts.items()))) for code, opts in sorted(rules.items()))
    return replace(config, **updates)


def unique(values: Iterable[str]) -> tuple[str, ...]:
    """`values` in order, each once (a device named twice is one target)."""
    return tuple(dict.fromkeys(values))


def _str_list(value: Any, where: str, key: str, allow_str: bool = False) -> list[str]:
    if allow_str and isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    accepted = "a string or a list of strings" if allow_str else "a list of strings"
    raise ConfigError(f"{where}: key {key!r} must be {accepted}, got {value!r}")


def _codes(values: list[str], where: str, key: str) -> list[str]:
    for value in values:
        if not ((value.startswith("KL") and value[2:].isdigit()) or value == "KL") and value != "ALL":
            raise ConfigError(f"{where}: key {key!r}: {value!r} is not a rule code or prefix such as KL101 or KL2")
    return ["KL" if v == "ALL" else v for v in values]


def parse_codes(text: str, option: str, known: Collection[str] | None = None) -> tuple[str, ...]:
    """A comma list of codes/prefixes from the command line (each naming a rule in `known`, if given)."""
    codes = tuple(_codes([p.strip() for p in text.split(",") if p.strip()], "command line", option))
    if known is not None:
        check_known_codes(codes, known, option)
    return codes


def check_known_codes(values: Iterable[str], known: Collection[str], where: str) -> None:
    """Every code or prefix in `values` must name at least one rule in `known` (the plugins' codes):
    `KL999` or `KL9` selects nothing, so it is a typo, and a did-you-mean saves a trip to the docs."""
    candidates = sorted({*known, *(code[:3] for code in known)})  # the codes and their families (KL1)
    for value in values:
        if any(code.startswith(value) for code in known):
            continue
        # A code with a character too many (KL1012) most likely means the code it starts with.
        extended = [code for code in known if value.startswith(code)]
        import difflib  # here: only a misspelt value needs it

        close = extended[:1] or difflib.get_close_matches(value, candidates, n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise ConfigError(f"{where}: {value!r} matches no rule code{hint} (`kernlint rule` lists them)")


def validate_codes(config: Config, known: Collection[str]) -> None:
    """Check the codes a configuration file names (select, ignore, per-file-ignores) against `known`."""
    where = config.path or "configuration"
    for key, values in (
        ("select", config.select or ()),
        ("extend-select", config.extend_select),
        ("ignore", config.ignore),
    ):
        check_known_codes(values, known, f"{where}: key {key!r}")
    for glob, values in config.per_file_ignores:
        check_known_codes(values, known, f"{where}: key 'per-file-ignores.{glob}'")


def parse_severity(value: Any, where: str) -> Severity:
    try:
        return Severity(value)
    except ValueError:
        raise ConfigError(f"{where}: {value!r} is not one of error, warning, info") from None


def parse_defines(values: list[str], where: str) -> tuple[tuple[str, str], ...]:
    defines = []
    for value in values:
        name, _, text = value.partition("=")
        if not name.strip().isidentifier():
            raise ConfigError(f"{where}: {value!r} is not NAME or NAME=VALUE")
        defines.append((name.strip(), text.strip() or "1"))
    return tuple(defines)


_MACRO_KEY = re.compile(
    r"^[A-Za-z_]\w*(\(\s*(?:[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*(?:\s*,\s*\.\.\.)?|\.\.\.)?\s*\))?$"
)


def parse_macros(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    """`macros = {"MYLIB_INLINE" = "inline", "ALIGN(n)" = ""}`: a table of macro names (a function-like
    one with its parameter list) to the text they expand to, which must be one line."""
    if not isinstance(value, dict):
        raise ConfigError(f'{where} must be a table of NAME = "value", e.g. {{"MYLIB_INLINE" = "inline"}}')
    found = []
    for name, text in value.items():
        if not _MACRO_KEY.match(name.strip()):
            raise ConfigError(f"{where}: {name!r} is not a macro name (NAME, or NAME(params) for a function-like one)")
        if not isinstance(text, str) or "\n" in text:
            raise ConfigError(f"{where}: the value of {name!r} must be a one-line string, got {text!r}")
        found.append((name.strip(), text.strip()))
    return tuple(found)


def validate_rule_options(config: Config, rules: dict[str, Any]) -> None:
    """Check `[rules.<CODE>]` tables against the rules that exist and the options they declare."""
    where = config.path or "configuration"
    for code, options in config.rule_options:
        rule = rules.get(code)
        if rule is None:
            raise ConfigError(f"{where}: [rules.{code}]: no rule has code {code}")
        for name, value in options:
            if name not in rule.options:
                accepted = ", ".join(sorted(rule.options)) or "none"
                raise ConfigError(f"{where}: [rules.{code}]: unknown option {name!r}; accepted: {accepted}")
            default = rule.options[name]
            if type(default) is not type(value) and not (isinstance(default, float) and isinstance(value, int)):
                raise ConfigError(
                    f"{where}: [rules.{code}] option {name!r} must be {type(default).__name__}, got {value!r}"
                )
