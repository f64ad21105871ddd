"""Inline suppression (docs/contract.md §3) and configuration (§2), including the errors users see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_kernlint
from kernlint.config import Config, ConfigError, load_config, validate_rule_options
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, Severity
from kernlint.engine import apply_kl000_selection
from kernlint.projects import find_config
from kernlint.suppression import apply_suppressions, parse_suppressions
from kernlint_rules.data.kl101_buffer_in_loop import BufferInLoop


def diag(line: int, code: str) -> Diagnostic:
    return Diagnostic("a.cpp", line, 1, line, 2, code, "x", Severity.WARNING, "m")


def test_same_line_next_line_and_file_suppressions() -> None:
    text = "\n".join(
        [
            "int a; // kernlint: ignore[KL101]",
            "// kernlint: ignore-next-line[KL501, KL502]",
            "int b;",
            "int c; /* kernlint: ignore */",
            "int d;",
            "  ! kernlint: ignore[KL401]",
        ]
    )
    s = parse_suppressions(text)
    kept = apply_suppressions(
        [
            diag(1, "KL101"),
            diag(1, "KL102"),
            diag(3, "KL502"),
            diag(3, "KL101"),
            diag(4, "KL201"),
            diag(5, "KL101"),
            diag(6, "KL401"),
        ],
        s,
    )
    assert [(d.line, d.code) for d in kept] == [(1, "KL102"), (3, "KL101"), (5, "KL101")]


def test_file_wide_prefix_and_kl000_like_any_code() -> None:
    s = parse_suppressions("// kernlint: ignore-file[KL2]\nint x;\n")
    kept = apply_suppressions([diag(2, "KL201"), diag(2, "KL202"), diag(2, "KL101"), diag(1, "KL000")], s)
    assert [d.code for d in kept] == ["KL101", "KL000"]
    s = parse_suppressions("// kernlint: ignore-file[KL000]\nint x;\n")
    assert [d.code for d in apply_suppressions([diag(2, "KL101"), diag(1, "KL000")], s)] == ["KL101"]


def test_similar_text_that_is_not_a_directive() -> None:
    s = parse_suppressions('const char *m = "kernlint: ignore";\nint y; // kernlint: ignored-by-nobody\n')
    assert not s.directives


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_pyproject_table_and_precedence(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "x"\n[tool.kernlint]\ndevice = ["xe-lp", "h100"]\n'
        'select = ["KL1"]\nignore = "KL103"\nfail-on = "error"\ndefines = ["WG=64", "USE_SLM"]\n'
        'include-dirs = ["include"]\n[tool.kernlint.per-file-ignores]\n"legacy/*" = ["KL101"]\n',
    )
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


@pytest.mark.parametrize(
    "text,message",
    [
        ('devices = "xe-lp"\n', "unknown key 'devices'"),
        ("select = [1, 2]\n", "key 'select' must be"),
        ('select = ["E501"]\n', "'E501' is not a rule code"),
        ('fail-on = "fatal"\n', "'fatal' is not one of error, warning, info"),
        ('defines = ["1BAD"]\n', "is not NAME or NAME=VALUE"),
        ('per-file-ignores = ["x"]\n', "must be a table"),
        ("device = [\n", "TOML syntax error"),
    ],
)
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


LATIN1_COMMENT = (
    b"// (c) Jos\xe9 2019\n#include <sycl/sycl.hpp>\nvoid f(sycl::queue &q, float *p) {\n"
    b"  for (int i = 0; i < 4; ++i) {\n    sycl::buffer<float> b(p, sycl::range<1>(16));\n  }\n}\n"
)


def kl000_of(tmp_path: Path, data: bytes, *args: str, name: str = "k.cpp") -> list[tuple[str, str]]:
    (tmp_path / name).write_bytes(data)
    proc = run_kernlint(name, "--format", "json", "--no-cache", *args, cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr.decode()
    return [(d["severity"], d["message"]) for d in json.loads(proc.stdout)["diagnostics"] if d["code"] == "KL000"]


def test_undecodable_bytes_in_comments_are_an_info_elsewhere_a_warning(tmp_path: Path) -> None:
    ((severity, message),) = kl000_of(tmp_path, LATIN1_COMMENT)
    assert severity == "info" and "in comments only" in message and "line 1, column 11" in message
    block = b"/* caf\xe9\n   r\xe9sum\xe9 */\nint x; // \xa9\n"
    assert [s for s, _ in kl000_of(tmp_path, block)] == ["info"]
    in_code = LATIN1_COMMENT + b"int caf\xe9 = 1;\n"
    assert [s for s, _ in kl000_of(tmp_path, in_code)] == ["warning"]
    fixed = b"C     (c) Jos\xe9\n      PROGRAM P\n      END\n"
    assert [s for s, _ in kl000_of(tmp_path, fixed, name="p.f")] == ["info"]


def test_undecodable_bytes_in_string_literals_are_an_info_unless_a_compiler_reads_them(tmp_path: Path) -> None:
    """A Latin-1 `é` in a message string changes nothing analysed, as in a comment (issue 19); a string
    that names a header or holds a directive, and a Fortran `!$omp` line, are read as code."""
    in_string = b'const char *s = "// caf\xe9";\n'  # a comment marker inside a string opens no comment
    ((severity, message),) = kl000_of(tmp_path, in_string)
    assert severity == "info" and "in string literals only" in message
    both = LATIN1_COMMENT + b"char c = '\xe9'; const char *t = \"\xe9t\xe9\";\n"
    ((severity, message),) = kl000_of(tmp_path, both)
    assert severity == "info" and "in comments and string literals only" in message
    fortran = b"! (c) Jos\xe9\nprogram p\n  print *, '!\xe9'\nend program\n"
    assert [s for s, _ in kl000_of(tmp_path, fortran, name="p.f90")] == ["info"]
    for read_as_code, name in (
        (b'#include "caf\xe9.h"\nint x;\n', "k.cpp"),
        (b'_Pragma("omp target map(tofrom: \xe9)")\nint x;\n', "k.cpp"),
        (b"program p\n!$omp parallel private(\xe9)\n!$omp end parallel\nend program\n", "p.f90"),
        (b"      PROGRAM P\nC$OMP PARALLEL PRIVATE('\xe9')\n      END\n", "p.f"),
    ):
        assert [s for s, _ in kl000_of(tmp_path, read_as_code, name=name)] == ["warning"], read_as_code


@pytest.mark.parametrize(
    "args, config, source_prefix, reported",
    [
        ((), "", b"", True),
        (("--select", "KL101"), "", b"", True),  # a selection that does not name KL000 leaves it on
        (("--select", "KL000"), "", b"", True),
        (("--ignore", "KL000"), "", b"", False),
        (("--ignore", "KL0"), "", b"", False),
        (("--select", "KL000", "--ignore", "KL0"), "", b"", True),  # the most specific prefix wins
        ((), 'ignore = ["KL000"]\n', b"", False),
        ((), '[per-file-ignores]\n"k.cpp" = ["KL000"]\n', b"", False),
        ((), '[per-file-ignores]\n"other/*" = ["KL000"]\n', b"", True),
        ((), "", b"// kernlint: ignore-file[KL000]\n", False),
        ((), "", b"// kernlint: ignore-next-line[KL000]\n", False),
    ],
)
def test_kl000_is_selectable_and_ignorable(
    tmp_path: Path, args: tuple[str, ...], config: str, source_prefix: bytes, reported: bool
) -> None:
    write(tmp_path / "kernlint.toml", config)
    codes = kl000_of(tmp_path, source_prefix + LATIN1_COMMENT, *args)
    assert bool(codes) is reported


def test_ignored_kl000_hides_unreadable_files_too_but_never_internal_errors(tmp_path: Path) -> None:
    (tmp_path / "bin.cpp").write_bytes(b"\0\1\2")
    proc = run_kernlint("bin.cpp", "missing.cpp", "--format", "json", "--no-cache", cwd=tmp_path)
    assert {d["path"] for d in json.loads(proc.stdout)["diagnostics"]} == {"bin.cpp", "missing.cpp"}
    proc = run_kernlint("bin.cpp", "missing.cpp", "--ignore", "KL000", "--format", "json", "--no-cache", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == [] and proc.returncode == 0
    assert {f["path"]: f["status"] for f in report["files"]} == {"bin.cpp": "error", "missing.cpp": "error"}
    internal = Diagnostic.parse_error("k.cpp", "internal error: boom", internal=True)
    result = FileResult("k.cpp", None, FileStatus.ERROR, "boom", (internal, Diagnostic.parse_error("k.cpp", "m")))
    assert apply_kl000_selection(result, Config(ignore=("KL000",))).diagnostics == (internal,)
