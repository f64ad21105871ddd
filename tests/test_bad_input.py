"""Bad input never crashes kernlint, never loses other files' results, never changes a file."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from conftest import run_json, run_kernlint
from kernlint.config import Config
from kernlint.discovery import SourceEntry, discover
from kernlint.engine import analyse_files
from kernlint.session import make_setup

BAD_LOOP = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
}
"""


def make_tree(root: Path) -> dict[str, bytes]:
    files = {
        "good.cpp": BAD_LOOP,
        "binary.cpp": b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 4,
        "latin1.cpp": b"// caf\xe9 au lait\n" + BAD_LOOP,
        "if0.cpp": b"#if 0\nthis is not C++ at all {{{\n#endif\n",
        "unbalanced.cpp": b"void g() {\n  for (;;) { sycl::buffer<int> x(sycl::range<1>(1)); }\n}\n"
        b"}}\nvoid h() {\n  if (1) {\n    int y = 0;\n",
        "empty.cpp": b"",
        "half.cpp": BAD_LOOP[: len(BAD_LOOP) // 2],
    }
    for name, data in files.items():
        (root / name).write_bytes(data)
    return files


def digests(root: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in root.iterdir() if p.is_file()}


def test_each_bad_file_is_reported_and_the_rest_is_analysed(tmp_path: Path) -> None:
    make_tree(tmp_path)
    before = digests(tmp_path)
    code, report = run_json(str(tmp_path))
    files = {Path(f["path"]).name: f for f in report["files"]}
    assert files["binary.cpp"]["status"] == "error" and "binary" in files["binary.cpp"]["error"]
    assert files["good.cpp"]["status"] == "ok"
    assert files["if0.cpp"]["status"] == "ok" and files["empty.cpp"]["status"] == "ok"
    assert files["unbalanced.cpp"]["status"] == "partial" and "syntax errors" in files["unbalanced.cpp"]["error"]
    assert files["half.cpp"]["status"] == "partial"
    by_file: dict[str, list[tuple[str, int, str]]] = {}
    for d in report["diagnostics"]:
        by_file.setdefault(Path(d["path"]).name, []).append((d["code"], d["line"], d["severity"]))
    assert by_file["good.cpp"] == [("KL101", 4, "warning")]
    assert ("KL000", 1, "error") in by_file["binary.cpp"]
    # Invalid UTF-8 is decoded with replacement, reported where it is, and the file still analysed;
    # in a comment it changes nothing analysed, so it is an info.
    assert sorted(by_file["latin1.cpp"]) == [("KL000", 1, "info"), ("KL101", 5, "warning")]
    latin = next(d for d in report["diagnostics"] if d["path"].endswith("latin1.cpp") and d["code"] == "KL000")
    assert "line 1, column 7" in latin["message"] and "0xe9" in latin["message"]
    assert ("KL101", 2, "warning") in by_file["unbalanced.cpp"]
    assert code == 1
    assert digests(tmp_path) == before  # nothing was modified


def test_huge_generated_file_is_analysed(tmp_path: Path) -> None:
    chunk = "static const float table_%d[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
    lines = [chunk % i for i in range(90_000)]
    data = ("".join(lines) + BAD_LOOP.decode()).encode()
    assert len(data) > 5 * 2**20
    (tmp_path / "generated.cpp").write_bytes(data)
    _code, report = run_json(str(tmp_path / "generated.cpp"))
    assert [d["code"] for d in report["diagnostics"]] == ["KL101"]
    assert report["diagnostics"][0]["line"] == 90_000 + 4


def test_file_deleted_between_discovery_and_reading(tmp_path: Path) -> None:
    make_tree(tmp_path)
    setup = make_setup(Config(root=str(tmp_path)), use_cache=False)
    entries, _ = discover([str(tmp_path)], setup.config)
    (tmp_path / "good.cpp").unlink()
    results = {Path(r.path).name: r for r in analyse_files(entries, setup, jobs=1)}
    gone = results["good.cpp"]
    assert gone.status.value == "error" and "cannot read file" in (gone.error or "")
    assert gone.diagnostics[0].code == "KL000"
    assert [d.code for d in results["latin1.cpp"].diagnostics] == ["KL000", "KL101"]


def test_unreadable_directory_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "inside.cpp").write_bytes(BAD_LOOP)
    if os.geteuid() != 0:
        locked.chmod(0)
    else:  # root reads everything: make the directory listing fail the way it does for users
        real_scandir = os.scandir

        def scandir(path="."):
            if Path(path).resolve() == locked.resolve():
                raise PermissionError(13, "Permission denied", str(path))
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)
    try:
        entries, problems = discover([str(tmp_path)], Config(root=str(tmp_path)))
    finally:
        locked.chmod(0o755)
    assert any("locked" in p.path and "Permission denied" in p.message for p in problems)
    assert {Path(e.path).name for e in entries} >= {"good.cpp", "latin1.cpp"}


def test_config_with_syntax_error_is_a_clear_usage_error(tmp_path: Path) -> None:
    make_tree(tmp_path)
    (tmp_path / "kernlint.toml").write_text("select = [KL1\n")
    proc = run_kernlint(".", cwd=tmp_path)
    assert proc.returncode == 2
    assert b"kernlint.toml: TOML syntax error" in proc.stderr
    assert proc.stdout == b""


def test_missing_path_on_command_line_does_not_stop_the_run(tmp_path: Path) -> None:
    (tmp_path / "good.cpp").write_bytes(BAD_LOOP)
    code, report = run_json(str(tmp_path / "good.cpp"), str(tmp_path / "nope.cpp"))
    statuses = {Path(f["path"]).name: f["status"] for f in report["files"]}
    assert statuses == {"good.cpp": "ok", "nope.cpp": "error"}
    found = sorted((Path(d["path"]).name, d["code"], d["severity"]) for d in report["diagnostics"])
    assert found == [("good.cpp", "KL101", "warning"), ("nope.cpp", "KL000", "error")] and code == 1
    alone = run_json(str(tmp_path / "nope.cpp"))
    assert alone[0] == 1 and "no such file or directory" in alone[1]["diagnostics"][0]["message"]


def test_many_files_in_a_process_pool_keep_order_and_results(tmp_path: Path) -> None:
    padding = b"// " + b"-" * 32_000 + b"\n"  # enough source for a pool (kernlint.engine.POOL_MIN_BYTES)
    for i in range(12):
        (tmp_path / f"f{i:02}.cpp").write_bytes(padding + (BAD_LOOP if i % 3 == 0 else b"int x;\n"))
    (tmp_path / "f05.cpp").write_bytes(b"\0\0\0binary")
    proc = run_kernlint(str(tmp_path), "--format", "json", "--no-cache", "--jobs", "2")
    import json

    report = json.loads(proc.stdout)
    assert [Path(f["path"]).name for f in report["files"]] == [f"f{i:02}.cpp" for i in range(12)]
    assert [Path(d["path"]).name for d in report["diagnostics"] if d["code"] == "KL101"] == [
        "f00.cpp",
        "f03.cpp",
        "f06.cpp",
        "f09.cpp",
    ]
    assert report["files"][5]["status"] == "error"


def test_entry_for_unknown_family_file_named_explicitly(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    entries, problems = discover([str(tmp_path / "notes.txt")], Config(root=str(tmp_path)))
    assert entries == [] and "not a C, C++ or Fortran source" in problems[0].message and problems[0].skipped
    code, report = run_json(str(tmp_path / "notes.txt"))
    assert code == 0 and [(d["code"], d["severity"]) for d in report["diagnostics"]] == [("KL000", "info")]
    assert SourceEntry("x.cpp", "cpp").family == "cpp"
