"""Inline suppression (SPEC §3) and configuration (SPEC §2), including the errors users see."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernlint.config import Config, ConfigError, find_config, load_config, validate_rule_options
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.suppression import apply_suppressions, parse_suppressions
from kernlint_rules.kl101_buffer_in_loop import BufferInLoop


def diag(line: int, code: str) -> Diagnostic:
    return Diagnostic("a.cpp", line, 1, line, 2, code, "x", Severity.WARNING, "m")


def test_same_line_next_line_and_file_suppressions() -> None:
    text = "\n".join([
        "int a; // kernlint: ignore[KL101]",
        "// kernlint: ignore-next-line[KL501, KL502]",
        "int b;",
        "int c; /* kernlint: ignore */",
        "int d;",
        "  ! kernlint: ignore[KL401]",
    ])
    s = parse_suppressions(text)
    kept = apply_suppressions([diag(1, "KL101"), diag(1, "KL102"), diag(3, "KL502"), diag(3, "KL101"),
                               diag(4, "KL201"), diag(5, "KL101"), diag(6, "KL401")], s)
    assert [(d.line, d.code) for d in kept] == [(1, "KL102"), (3, "KL101"), (5, "KL101")]


def test_file_wide_prefix_and_kl000_never_hidden() -> None:
    s = parse_suppressions("// kernlint: ignore-file[KL2]\nint x;\n")
    kept = apply_suppressions([diag(2, "KL201"), diag(2, "KL202"), diag(2, "KL101"), diag(1, "KL000")], s)
    assert [d.code for d in kept] == ["KL101", "KL000"]


def test_similar_text_that_is_not_a_directive() -> None:
    s = parse_suppressions('const char *m = "kernlint: ignore";\nint y; // kernlint: ignored-by-nobody\n')
    assert not s.directives


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_pyproject_table_and_precedence(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n[tool.kernlint]\ndevice = ["xe-lp", "h100"]\n'
          'select = ["KL1"]\nignore = "KL103"\nfail-on = "error"\ndefines = ["WG=64", "USE_SLM"]\n'
          'include-dirs = ["include"]\n[tool.kernlint.per-file-ignores]\n"legacy/*" = ["KL101"]\n')
    sub = tmp_path / "src" / "deep"
    sub.mkdir(parents=True)
    found = find_config(sub)
    assert found == tmp_path / "pyproject.toml"
    config = load_config(found)
    assert config.devices == ("xe-lp", "h100") and config.fail_on is Severity.ERROR
    assert config.defines == (("WG", "64"), ("USE_SLM", "1"))
    assert config.include_dirs == (str((tmp_path / "include").resolve()),)
    assert config.is_selected("KL101") and not config.is_selected("KL103") and not config.is_selected("KL201")
    assert config.ignored_for_file(str(tmp_path / "legacy" / "old.cpp")) == ("KL101",)
    assert config.ignored_for_file(str(tmp_path / "src" / "new.cpp")) == ()
    write(tmp_path / "kernlint.toml", 'device = "gen9"\n')
    assert find_config(sub) == tmp_path / "kernlint.toml"


def test_pyproject_without_table_is_skipped(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    assert find_config(tmp_path) != tmp_path / "pyproject.toml"


def test_selection_most_specific_prefix_wins() -> None:
    config = Config(select=("KL",), ignore=("KL1",), extend_select=("KL101",))
    assert config.is_selected("KL101") and not config.is_selected("KL102") and config.is_selected("KL201")
    default = Config(ignore=("KL2",))
    assert default.is_selected("KL101") and not default.is_selected("KL202")
    assert not default.is_selected("KL999", enabled_by_default=False)
    assert Config(extend_select=("KL999",)).is_selected("KL999", enabled_by_default=False)


@pytest.mark.parametrize("text,message", [
    ('devices = "xe-lp"\n', "unknown key 'devices'"),
    ('select = [1, 2]\n', "key 'select' must be"),
    ('select = ["E501"]\n', "'E501' is not a rule code"),
    ('fail-on = "fatal"\n', "'fatal' is not one of error, warning, info"),
    ('defines = ["1BAD"]\n', "is not NAME or NAME=VALUE"),
    ('per-file-ignores = ["x"]\n', "must be a table"),
    ('device = [\n', "TOML syntax error"),
])
def test_config_errors_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "kernlint.toml", text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert message in str(info.value) and str(path) in str(info.value)


def test_rule_option_validation(tmp_path: Path) -> None:
    rules = {"KL101": BufferInLoop}
    config = load_config(write(tmp_path / "kernlint.toml", "[rules.KL101]\nthreshold = 3\n"))
    with pytest.raises(ConfigError, match="unknown option 'threshold'"):
        validate_rule_options(config, rules)
    config = load_config(write(tmp_path / "kernlint.toml", "[rules.KL999]\nx = 1\n"))
    with pytest.raises(ConfigError, match="no rule has code KL999"):
        validate_rule_options(config, rules)
