"""Never crash, never hang, never run unbounded: error paths, special files, time and worker limits,
unknown codes. Every error is exit code 2 and one line on stderr, never a traceback."""

from __future__ import annotations

import ast
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import REPO, run_kernlint
from kernlint import cli
from kernlint.cli import check as check_command
from kernlint.config import Config, ConfigError, check_known_codes
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_files
from kernlint.hookspecs import hookimpl
from kernlint.limits import worker_count
from kernlint.plugins import load_plugins
from kernlint.reading import MAX_FILE_BYTES, ReadProblem, read_regular
from kernlint.rule import Rule
from kernlint.session import make_setup

LOOP = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
}
"""
STALE = "#include <sycl/sycl.hpp>\nvoid f(sycl::queue &q) {\n  q.wait(); // kernlint: ignore[KL101]\n}\n"


def one_error_line(proc: subprocess.CompletedProcess, *needles: str) -> str:
    """The run failed as a usage or configuration error should: exit 2, one line, no traceback."""
    stderr = proc.stderr.decode()
    assert proc.returncode == 2, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    for needle in needles:
        assert needle in stderr, stderr
    return stderr


@pytest.fixture
def no_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any analysis fail the test: what it guards must be decided before a file is read."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("analysis started")

    monkeypatch.setattr(check_command, "run_projects", refuse)
    monkeypatch.setattr(check_command, "_check_stdin", refuse)


# --- issue 9 item 4: the language server does not depend on the command line ---------------------


def test_lsp_never_imports_cli() -> None:
    imported: set[str | None] = set()
    for module in (REPO / "kernlint" / "lsp").glob("*.py"):
        tree = ast.parse(module.read_text("utf-8"))
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not any(name and name.startswith("kernlint.cli") for name in imported)
    assert "kernlint.session" in imported
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, kernlint.lsp; print('kernlint.cli' in sys.modules)"],
        capture_output=True,
        cwd=REPO,
        timeout=120,
    )
    assert loaded.stdout.decode().strip() == "False", loaded.stderr.decode()


# --- error paths ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, expected_code",
    [
        (("check", "--no-cache"), 1),
        (("check", "--no-cache", "--format", "json"), 1),
        (("check", "--no-cache", "--diff"), 1),
        (("rule",), 0),
        (("--help",), 0),
    ],
)
def test_reader_that_goes_away_ends_the_run_quietly(tmp_path: Path, args: tuple[str, ...], expected_code: int) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    (tmp_path / "s.cpp").write_text(STALE)  # something for --diff to show
    process = subprocess.Popen(
        [sys.executable, "-m", "kernlint", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert process.stdout is not None
    process.stdout.close()  # as `| head` does, before kernlint has written anything
    _, stderr = process.communicate(timeout=120)
    assert b"Traceback" not in stderr and b"BrokenPipe" not in stderr and b"Exception ignored" not in stderr
    assert process.returncode == expected_code, stderr  # a report cut short still tells the findings


def test_head_on_a_long_report(tmp_path: Path) -> None:
    # 400 findings with code frames: far more than a pipe holds, so kernlint is still writing when head exits.
    (tmp_path / "k.cpp").write_bytes(b"".join(LOOP.replace(b"void f(", b"void f%d(" % i) for i in range(400)))
    command = f"'{sys.executable}' -m kernlint . --no-cache | head -n 2"
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=300,
    )
    assert len(proc.stdout.splitlines()) == 2 and proc.stderr == b"" and proc.returncode == 1


def test_report_into_a_missing_directory_or_onto_a_directory(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    one_error_line(
        run_kernlint("k.cpp", "-o", "nowhere/report.json", cwd=tmp_path),
        "cannot write the report to nowhere/report.json",
        "does not exist",
    )
    (tmp_path / "out").mkdir()
    one_error_line(run_kernlint("k.cpp", "-o", "out", cwd=tmp_path), "out: it is a directory")
    assert not list(tmp_path.rglob("*.tmp"))


def test_output_checks_come_before_analysis(
    no_analysis: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cpp").write_bytes(LOOP)
    for args in (
        ["-o", "missing/r.txt"],
        ["--baseline", "missing/b.json", "--update-baseline"],
        ["--baseline", "absent.json"],
    ):
        assert cli.main(["k.cpp", "--no-cache", *args]) == 2
        assert capsys.readouterr().err.startswith("kernlint: error: ")


def test_update_baseline_into_a_missing_directory(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    one_error_line(
        run_kernlint("k.cpp", "--baseline", "gone/b.json", "--update-baseline", cwd=tmp_path),
        "cannot write the baseline to gone/b.json",
    )


@pytest.mark.parametrize(
    "content, reason",
    [
        ("[]", "expected a JSON object, found list"),
        ('"findings"', "expected a JSON object, found str"),
        ("{}", "unsupported baseline version None"),
        ('{"version": 1}', "'findings' must be a list"),
        ('{"version": 1, "findings": {}}', "'findings' must be a list"),
        ('{"version": 1, "findings": [1]}', "string 'fingerprint'"),
        ('{"version": 1, "findings": [{"fingerprint": 3}]}', "string 'fingerprint'"),
        ("{not json", "invalid JSON"),
        (None, "it is a directory"),
    ],
)
def test_baseline_of_the_wrong_shape(tmp_path: Path, content: str | None, reason: str) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    if content is None:
        (tmp_path / "b.json").mkdir()
    else:
        (tmp_path / "b.json").write_text(content)
    one_error_line(run_kernlint("k.cpp", "--baseline", "b.json", cwd=tmp_path), "not a kernlint baseline", reason)


def test_missing_baseline_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    one_error_line(run_kernlint(".", "--baseline", "absent.json", cwd=tmp_path), "baseline not found")


@pytest.mark.skipif(sys.platform == "win32", reason="needs RLIMIT_FSIZE")
def test_fix_goes_on_past_a_file_it_cannot_write(tmp_path: Path) -> None:
    """A real write failure that root cannot override either: the file-size limit of the process.
    The fixed `large.cpp` is over it, so its temporary file cannot be written; `small.cpp` is under."""
    import resource

    small, large = tmp_path / "small.cpp", tmp_path / "large.cpp"
    small.write_text(STALE)
    large.write_text(STALE + "// padding\n" * 400)
    before = large.read_bytes()

    def limit_file_size() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    proc = subprocess.run(
        [sys.executable, "-m", "kernlint", ".", "--fix", "--no-cache", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        preexec_fn=limit_file_size,
        timeout=300,
        env={**os.environ, "NO_COLOR": "1"},
    )
    stderr = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in stderr
    assert "kernlint: error: large.cpp: not fixed: File too large" in stderr
    assert "fixed 1 finding(s) in small.cpp (KL001)" in stderr
    assert small.read_text() == STALE.replace(" // kernlint: ignore[KL101]", "")
    assert large.read_bytes() == before and not list(tmp_path.glob(".*.tmp"))
    remaining = [(d["path"], d["code"]) for d in json.loads(proc.stdout)["diagnostics"]]
    assert remaining == [("large.cpp", "KL001")]  # the report is printed, and the unfixed file is in it


# --- bounds -----------------------------------------------------------------------------------------


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    (tmp_path / "ok.cpp").write_bytes(LOOP)
    os.mkfifo(tmp_path / "pipe.cpp")
    (tmp_path / "to_pipe.cpp").symlink_to("pipe.cpp")
    (tmp_path / "zero.cpp").symlink_to(os.devnull if not Path("/dev/zero").exists() else "/dev/zero")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock.cpp"))
    try:
        text = run_kernlint(".", "--no-cache", cwd=tmp_path)  # text: code frames read sources too
        proc = run_kernlint(".", "--no-cache", "--format", "json", "--jobs", "2", cwd=tmp_path)
    finally:
        server.close()
    assert text.returncode == 1 and "ok.cpp:4:5: KL101" in text.stdout.decode()
    report = json.loads(proc.stdout)
    notes = {d["path"]: (d["code"], d["severity"], d["message"]) for d in report["diagnostics"] if d["code"] == "KL000"}
    assert notes == {
        "pipe.cpp": ("KL000", "info", "a FIFO (named pipe), not a regular file; skipped"),
        "to_pipe.cpp": ("KL000", "info", "a FIFO (named pipe), not a regular file; skipped"),
        "zero.cpp": ("KL000", "info", "a character device, not a regular file; skipped"),
        "sock.cpp": ("KL000", "info", "a socket, not a regular file; skipped"),
    }
    assert proc.returncode == 1 and [d["path"] for d in report["diagnostics"] if d["code"] == "KL101"] == ["ok.cpp"]


def test_size_limit_applies_to_the_link_target(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: costs no disk
    (tmp_path / "k.cpp").symlink_to(big)
    with pytest.raises(ReadProblem, match="over kernlint's 16 MiB limit"):
        read_regular(str(tmp_path / "k.cpp"))
    assert read_regular(str(big), limit=2 * MAX_FILE_BYTES)[:4] == b"\0\0\0\0"


class Endless(Rule):
    """A rule stuck in pure Python (as a super-linear analysis is) on C++; gives up by itself after 60 s."""

    code = "KL999"
    name = "endless"
    languages = frozenset({"sycl", "openmp-c", "cpp"})

    def check(self, facts, ctx):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            pass
        return []


@pytest.mark.parametrize("jobs", [1, 2])
def test_per_file_time_limit(tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kernlint.engine.POOL_MIN_BYTES", 0)  # jobs 2: a pool even for these few small files
    entries = []
    for name, data in (("a.cpp", LOOP), ("b.f90", b"program p\nend program p\n"), ("c.cpp", LOOP), ("d.cpp", LOOP)):
        (tmp_path / name).write_bytes(data)
        entries.append(SourceEntry(str(tmp_path / name), "fortran" if name.endswith(".f90") else "cpp"))
    limited = replace(make_setup(Config(root=str(tmp_path)), use_cache=False), rules=(Endless,), timeout_s=0.5)
    started = time.monotonic()
    results = {Path(r.path).name: r for r in analyse_files(entries, limited, jobs=jobs)}
    assert time.monotonic() - started < 30
    for name in ("a.cpp", "c.cpp", "d.cpp"):
        (diagnostic,) = results[name].diagnostics
        assert diagnostic.code == "KL000" and diagnostic.severity.value == "error"
        assert "longer than the 0.5 s limit per file (--timeout)" in diagnostic.message
    assert results["b.f90"].status.value == "ok"


def test_timeout_and_jobs_options(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    for bad in (["--timeout", "-1"], ["--timeout", "soon"], ["--jobs", "-1"], ["--jobs", "two"]):
        proc = run_kernlint("k.cpp", *bad, cwd=tmp_path)
        assert proc.returncode == 2 and b"Traceback" not in proc.stderr
        assert f"argument {bad[0]}".encode() in proc.stderr
    assert b"is negative" in run_kernlint("k.cpp", "--jobs", "-1", cwd=tmp_path).stderr
    for fine in (["--timeout", "0"], ["--timeout", "2.5"], ["--jobs", "0"]):
        proc = run_kernlint("k.cpp", "--no-cache", *fine, cwd=tmp_path)
        assert proc.returncode == 1 and proc.stderr == b"", proc.stderr
    capped = run_kernlint("k.cpp", "--no-cache", "--jobs", "100000", cwd=tmp_path)
    assert capped.returncode == 1 and capped.stderr.decode().startswith("kernlint: note: --jobs 100000 is more than")


def test_worker_count() -> None:
    cpus, note = worker_count(None)
    assert cpus >= 1 and note is None and worker_count(0) == (cpus, None) and worker_count(1) == (1, None)
    assert worker_count(cpus + 5) == (cpus, f"--jobs {cpus + 5} is more than the {cpus} CPU(s) available; using {cpus}")


PARENT = """
import sys, time
from dataclasses import replace
from pathlib import Path
from kernlint.config import Config
from kernlint.discovery import SourceEntry
import kernlint.engine
from kernlint.engine import analyse_files
from kernlint.rule import Rule
from kernlint.session import make_setup

kernlint.engine.POOL_MIN_BYTES = 0  # a pool even for these few small files

class Endless(Rule):
    code, name = "KL999", "endless"
    def check(self, facts, ctx):
        time.sleep(600)
        return []

root = Path(sys.argv[1])
setup = replace(make_setup(Config(root=str(root)), use_cache=False, timeout_s=None), rules=(Endless,))
entries = [SourceEntry(str(p), "cpp") for p in sorted(root.glob("*.cpp"))]
analyse_files(entries, setup, jobs=2)
"""


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"k{i}.cpp").write_bytes(LOOP)
    (tmp_path / "parent.py").write_text(PARENT)
    parent = subprocess.Popen([sys.executable, str(tmp_path / "parent.py"), str(tmp_path)], cwd=REPO)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.1)
            workers = _children(parent.pid)
        assert len(workers) >= 2, "the pool did not start"
        time.sleep(0.5)  # the workers are busy with files
        os.kill(parent.pid, signal.SIGKILL)  # as an out-of-memory killer would
        parent.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers)
    finally:  # whatever happened, leave no process behind
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()


# --- unknown codes and empty device lists -----------------------------------------------------------


def test_unknown_codes_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    one_error_line(run_kernlint("k.cpp", "--select", "KL999", cwd=tmp_path), "--select: 'KL999' matches no rule code")
    one_error_line(run_kernlint("k.cpp", "--ignore", "KL1011", cwd=tmp_path), "did you mean KL101?")
    one_error_line(run_kernlint("k.cpp", "--extend-select", "KL9", cwd=tmp_path), "--extend-select: 'KL9'")
    for valid in ("KL", "ALL", "KL1", "KL10", "KL101", "KL000"):
        assert run_kernlint("k.cpp", "--no-cache", "--select", valid, cwd=tmp_path).returncode in (0, 1)


@pytest.mark.parametrize(
    "table, needle",
    [
        ('select = ["KL999"]', "key 'select': 'KL999' matches no rule code"),
        ('ignore = "KL1,KL77"', "key 'ignore': 'KL77' matches no rule code; did you mean KL"),
        ('extend-select = ["KL2011"]', "key 'extend-select': 'KL2011' matches no rule code; did you mean KL201?"),
        (
            '[per-file-ignores]\n"gen/*" = ["KL1012"]',
            "key 'per-file-ignores.gen/*': 'KL1012' matches no rule code; did you mean KL101?",
        ),
        ("device = []", "key 'device' is empty"),
        ('device = ""', "key 'device' is empty"),
    ],
)
def test_unknown_codes_and_no_devices_in_the_config(tmp_path: Path, table: str, needle: str) -> None:
    (tmp_path / "k.cpp").write_bytes(LOOP)
    (tmp_path / "kernlint.toml").write_text(table + "\n")
    one_error_line(run_kernlint("k.cpp", cwd=tmp_path), "kernlint.toml", needle)
    # A typo in the file is one even when the command line replaces the file's selection.
    if "select" in table:
        one_error_line(run_kernlint("k.cpp", "--select", "KL1", cwd=tmp_path), needle)


def test_codes_from_plugins_count() -> None:
    class Extra(Rule):
        code, name = "KL950", "extra"

    class Plugin:
        @hookimpl
        def kernlint_rules(self):
            return [Extra]

    config = Config(select=("KL95",), ignore=("KL950",))
    with pytest.raises(ConfigError, match="'KL95' matches no rule code"):
        make_setup(config, use_cache=False)
    assert make_setup(config, use_cache=False, plugins=load_plugins(extra=(Plugin(),))).rules == ()
    check_known_codes(["KL9", "KL950", "KL"], {"KL950", "KL101"}, "test")
    with pytest.raises(ConfigError, match="did you mean KL950"):
        check_known_codes(["KL951"], {"KL950", "KL101"}, "test")


def test_an_internal_error_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(check_command, "discover", broken)
    assert cli.main(["."]) == 2  # not 1, which CI would take for findings
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("kernlint: internal error: RuntimeError('a bug') at ") and "test_robustness.py" in line
