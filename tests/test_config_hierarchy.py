"""Hierarchical configuration (issue 11 item 2): each file is analysed with its nearest config file,
wherever kernlint is started from, the same way by the command line, stdin and the language server;
`--config` governs every file; baselines are relative to the baseline file."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from conftest import run_kernlint
from lsp_client import Client

LOOP = """#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def tree(tmp_path: Path) -> Path:
    """A repository with its own settings and, inside it, a project with different ones."""
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    write(top / "kernlint.toml", 'device = ["xe-lp"]\n')
    write(top / "top.cpp", LOOP)
    proj = top / "proj"
    write(
        proj / "pyproject.toml",
        '[project]\nname = "p"\n[tool.kernlint]\ndevice = ["h100", "xe-lp"]\n'
        'extend-exclude = ["generated"]\n[tool.kernlint.per-file-ignores]\n"legacy/*" = ["KL101"]\n',
    )
    write(proj / "src" / "k.cpp", LOOP)
    write(proj / "legacy" / "old.cpp", LOOP)
    write(proj / "generated" / "gen.cpp", LOOP)
    return top


def findings(proc) -> list[tuple[str, str, str | None]]:
    report = json.loads(proc.stdout)
    return sorted((Path(d["path"]).as_posix(), d["code"], d["device"]) for d in report["diagnostics"])


def test_each_file_uses_its_nearest_config_from_any_directory(tmp_path: Path) -> None:
    top = tree(tmp_path)
    expected_proj = [("src/k.cpp", "KL101", None)]
    for cwd, target, prefix in ((tmp_path, "repo/proj", "repo/proj/"), (top, "proj", "proj/"), (top / "proj", ".", "")):
        proc = run_kernlint(target, "--format", "json", "--no-cache", cwd=cwd)
        assert proc.returncode == 1, proc.stderr.decode()
        # legacy/ is ignored by the project's per-file-ignores, generated/ excluded by its extend-exclude
        assert findings(proc) == [(prefix + p, c, d) for p, c, d in expected_proj], cwd
        assert json.loads(proc.stdout)["devices"] == ["h100", "xe-lp"]


def test_several_projects_in_one_run_report_the_union_of_devices(tmp_path: Path) -> None:
    top = tree(tmp_path)
    proc = run_kernlint(".", "--format", "json", "--no-cache", cwd=top)
    assert [f["path"] for f in json.loads(proc.stdout)["files"]] == ["top.cpp", "proj/legacy/old.cpp", "proj/src/k.cpp"]
    # the top's file comes first, so its devices come first; xe-lp (also proj's) is not repeated
    assert json.loads(proc.stdout)["devices"] == ["xe-lp", "h100"]
    proc = run_kernlint("proj", "top.cpp", "--format", "json", "--no-cache", cwd=top)
    assert json.loads(proc.stdout)["devices"] == ["h100", "xe-lp"]


def test_explicit_config_governs_every_file(tmp_path: Path) -> None:
    top = tree(tmp_path)
    write(tmp_path / "strict.toml", 'device = ["gen9"]\nselect = ["KL1"]\n')
    proc = run_kernlint("repo", "--config", "strict.toml", "--format", "json", "--no-cache", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert report["devices"] == ["gen9"]
    # the project's exclude and per-file-ignores no longer apply; the default excludes still do
    assert {Path(d["path"]).as_posix() for d in report["diagnostics"]} == {
        "repo/top.cpp",
        "repo/proj/src/k.cpp",
        "repo/proj/legacy/old.cpp",
        "repo/proj/generated/gen.cpp",
    }
    assert top.is_dir()


def test_lookup_stops_at_the_repository_root(tmp_path: Path) -> None:
    write(tmp_path / "kernlint.toml", 'ignore = ["KL101"]\n')
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo / "k.cpp", LOOP)
    assert findings(run_kernlint("k.cpp", "--format", "json", "--no-cache", cwd=repo)) == [("k.cpp", "KL101", None)]
    shutil.rmtree(repo / ".git")  # no repository: the file system root is the limit
    assert findings(run_kernlint("k.cpp", "--format", "json", "--no-cache", cwd=repo)) == []


def test_a_broken_nested_config_stops_the_run_before_analysis(tmp_path: Path) -> None:
    top = tree(tmp_path)
    write(top / "proj" / "pyproject.toml", "[tool.kernlint]\nselect = ['KL999']\n")
    proc = run_kernlint(".", "--no-cache", cwd=top)
    assert proc.returncode == 2 and b"'KL999' matches no rule code" in proc.stderr
    assert b"pyproject.toml" in proc.stderr and not proc.stdout


def test_fail_on_is_each_files_own(tmp_path: Path) -> None:
    top = tree(tmp_path)
    write(top / "kernlint.toml", 'device = ["xe-lp"]\nfail-on = "error"\n')  # KL101 is a warning
    assert run_kernlint("top.cpp", "--no-cache", cwd=top).returncode == 0
    assert run_kernlint("top.cpp", "proj/src", "--no-cache", cwd=top).returncode == 1


def test_command_line_stdin_and_language_server_agree(tmp_path: Path) -> None:
    """One file, three front doors, one working directory above the file's project: same findings."""
    top = tree(tmp_path)
    source = top / "proj" / "legacy" / "old.cpp"
    write(source, LOOP + "void h(sycl::queue &q) { q.wait(); } // kernlint: ignore[KL201]\n")
    cli = findings(run_kernlint("repo/proj/legacy/old.cpp", "--format", "json", "--no-cache", cwd=tmp_path))
    stdin = findings(
        run_kernlint(
            "--stdin-filename", "repo/proj/legacy/old.cpp", "--format", "json", cwd=tmp_path, stdin=source.read_bytes()
        )
    )
    client = Client(tmp_path)
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        uri = source.as_uri()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": source.read_text()}},
        )
        lsp = sorted(d["code"] for d in client.diagnostics(uri))
    finally:
        client.close()
    # KL101 is ignored for legacy/* by the project's config; the stale suppression is KL001 in all three
    assert cli == stdin == [("repo/proj/legacy/old.cpp", "KL001", None)]
    assert lsp == ["KL001"]


def test_baseline_paths_are_relative_to_the_baseline_file(tmp_path: Path) -> None:
    write(tmp_path / "src" / "k.cpp", LOOP)
    (tmp_path / "ci").mkdir()
    recorded = run_kernlint("src", "--baseline", "ci/base.json", "--update-baseline", "--no-cache", cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr.decode()
    entries = json.loads((tmp_path / "ci" / "base.json").read_text())["findings"]
    assert [e["path"] for e in entries] == ["../src/k.cpp"]
    # the same findings from another directory, named another way, are still baselined
    for cwd, args in (
        (tmp_path / "src", ("k.cpp", "--baseline", "../ci/base.json")),
        (tmp_path / "ci", (str(tmp_path / "src"), "--baseline", "base.json")),
    ):
        proc = run_kernlint(*args, "--no-cache", "--format", "json", cwd=cwd)
        assert proc.returncode == 0 and json.loads(proc.stdout)["diagnostics"] == [], (cwd, proc.stderr.decode())


def test_baselines_recorded_relative_to_the_working_directory_keep_working(tmp_path: Path) -> None:
    """Older versions recorded paths relative to the working directory: moved away from it, such a
    baseline still matches when kernlint runs from that directory, as it had to before."""
    write(tmp_path / "k.cpp", LOOP)
    run_kernlint("k.cpp", "--baseline", "base.json", "--update-baseline", "--no-cache", cwd=tmp_path)
    (tmp_path / "old").mkdir()
    os.replace(tmp_path / "base.json", tmp_path / "old" / "base.json")  # its paths: relative to tmp_path
    proc = run_kernlint("k.cpp", "--baseline", "old/base.json", "--no-cache", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["diagnostics"] == []
    write(tmp_path / "k.cpp", LOOP + LOOP.replace("void f", "void g"))  # a second copy is still new
    proc = run_kernlint("k.cpp", "--baseline", "old/base.json", "--no-cache", "--format", "json", cwd=tmp_path)
    assert [d["line"] for d in json.loads(proc.stdout)["diagnostics"]] == [10]
