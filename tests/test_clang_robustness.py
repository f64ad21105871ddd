"""The clang front-end when libclang is slow, missing, or would only guess the build.

A parse that overruns its share of the file's time limit leaves the file with its tree-sitter facts
and a KL000 info saying so; a run asked for clang where libclang does not load says so once and
reads every file as a default run does; with kernlint's default flags, a constant that hangs on an
`#if` arm tree-sitter could not choose is not taken from clang.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from conftest import CORPUS, REPO, run_kernlint
from kernlint.config import Config
from kernlint.discovery import SourceEntry
from kernlint.engine import analyse_files
from kernlint.frontends import clang_parse_bound
from kernlint.frontends.clang import frontend as clang_frontend
from kernlint.frontends.clang import unit as clang_unit
from kernlint.frontends.clang.choices import ConditionalChoices
from kernlint.frontends.cpp.unit import CppUnit
from kernlint.session import make_setup

# A buffer built in a host loop: tree-sitter alone finds the KL101.
LOOPED_BUFFER = b"""#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *x, int n) {
  for (int i = 0; i < n; ++i) {
    sycl::buffer<float, 1> b(x, sycl::range<1>(16));
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(16), [=](sycl::id<1> j) { a[j] = 0.0f; });
    });
  }
}
"""
# What a child process imports kernlint from: this tree, then whatever the caller's path adds.
_PYTHONPATH = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
QUIET = b"#include <sycl/sycl.hpp>\nvoid g(sycl::queue &q, float *x) {\n  q.fill(x, 0.0f, 16).wait();\n}\n"


# -- a parse over its time bound -------------------------------------------------------------------

_RELEASE = threading.Event()


class _StallingIndex:
    """libclang's index, except that files named `slow*` never finish parsing (until released)."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def parse(self, path: str, **kwargs: Any) -> Any:
        if os.path.basename(path).startswith("slow"):
            _RELEASE.wait(120)
            raise RuntimeError("an abandoned parse")
        return self._real.parse(path, **kwargs)


@pytest.fixture
def stalling(monkeypatch: pytest.MonkeyPatch):
    real = clang_unit._index
    monkeypatch.setattr(clang_unit, "_index", lambda: _StallingIndex(real()))
    _RELEASE.clear()
    yield
    _RELEASE.set()  # the abandoned threads of this process end


def _entries(root: Path, files: dict[str, bytes]) -> list[SourceEntry]:
    for name, data in files.items():
        (root / name).write_bytes(data)
    return [SourceEntry(str(root / name), "cpp") for name in files]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_parse_over_its_bound_keeps_tree_sitter_facts_and_says_so(
    tmp_path: Path, jobs: int, stalling: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("kernlint.engine.POOL_MIN_BYTES", 0)  # jobs 2: a pool even for these few small files
    files = {"a.cpp": LOOPED_BUFFER, "slow.cpp": LOOPED_BUFFER, "c.cpp": LOOPED_BUFFER, "d.cpp": QUIET}
    setup = make_setup(Config(root=str(tmp_path), frontend="clang"), use_cache=False, timeout_s=4.0)
    results = {Path(r.path).name: r for r in analyse_files(_entries(tmp_path, files), setup, jobs=jobs)}
    codes = {name: [(d.code, d.severity.value) for d in r.diagnostics] for name, r in results.items()}
    # The slow file keeps its tree-sitter finding and is told why clang's part is missing ...
    assert codes["slow.cpp"] == [("KL000", "info"), ("KL101", "warning")]
    note = results["slow.cpp"].diagnostics[0]
    assert note.message == (
        "libclang did not finish parsing this file in 2 s (half of --timeout); used the tree-sitter facts"
    )
    assert results["slow.cpp"].status.value == "ok"
    # ... and the other files, parsed by libclang in the same workers, lose nothing.
    assert codes["a.cpp"] == codes["c.cpp"] == [("KL101", "warning")]
    assert codes["d.cpp"] == []


def test_a_parse_over_its_bound_is_not_cached(tmp_path: Path, stalling: None) -> None:
    entries = _entries(tmp_path, {"slow.cpp": QUIET})
    # a bound far above a real parse (the second run must finish in time even on a slow machine)
    setup = make_setup(Config(root=str(tmp_path), frontend="clang"), use_cache=True, timeout_s=4.0)
    (late,) = analyse_files(entries, setup, jobs=1)
    assert [d.code for d in late.diagnostics] == ["KL000"]
    with pytest.MonkeyPatch.context() as undo:
        undo.setattr(_StallingIndex, "parse", lambda self, path, **kwargs: self._real.parse(path, **kwargs))
        (again,) = analyse_files(entries, setup, jobs=1)
    assert again.diagnostics == ()  # parsed again, in time: the next run does not keep the note


_STALLED_RUN = """
import sys, threading
import kernlint.frontends.clang.unit as unit
real = unit._index
class Stalled:
    def __init__(self, index):
        self.index = index
    def parse(self, path, **kwargs):
        threading.Event().wait(120)
unit._index = lambda: Stalled(real())
from kernlint.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("options", "code"), [((), 0), (("--fail-on", "info"), 1), (("--ignore", "KL000"), 0)])
def test_the_note_is_an_info_for_exit_codes_and_selection(tmp_path: Path, options: tuple[str, ...], code: int) -> None:
    (tmp_path / "k.cpp").write_bytes(QUIET)
    proc = subprocess.run(
        [sys.executable, "-c", _STALLED_RUN, "k.cpp", "--frontend", "clang", "--timeout", "4", "--format", "json"]
        + ["--no-cache", *options],
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": _PYTHONPATH},
        timeout=300,
    )
    assert proc.returncode == code, proc.stderr.decode()
    found = [(d["code"], d["severity"], d["message"]) for d in json.loads(proc.stdout)["diagnostics"]]
    note = "libclang did not finish parsing this file in 2 s (half of --timeout); used the tree-sitter facts"
    assert found == ([] if "KL000" in options else [("KL000", "info", note)])


def test_the_bound_is_half_the_file_time_limit() -> None:
    assert clang_parse_bound(10.0) == 5.0
    assert clang_parse_bound(None) is None  # --timeout 0: no limit, and no bound on libclang either


def test_a_parse_stopped_by_a_missing_header_shares_one_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bounds: list[float | None] = []
    real = clang_unit.ClangUnit

    def recording(*args: Any) -> Any:
        bounds.append(args[5])
        return real(*args)

    monkeypatch.setattr(clang_frontend, "ClangUnit", recording)
    path = tmp_path / "m.cpp"
    path.write_bytes(b"#include <kernlint_absent_library.h>\nint x = 1;\n")
    clang_frontend.extract(str(path), path.read_bytes(), timeout_s=30.0)
    assert len(bounds) == 2 and bounds[0] == 30.0
    assert bounds[1] is not None and 0 <= bounds[1] < 30.0  # what the first parse left


# -- libclang that does not load -------------------------------------------------------------------

# A `clang` package whose shared library fails to load, as on a machine without libclang.so.
_BROKEN_CINDEX = """
class LibclangError(Exception):
    pass

class _Conf:
    @property
    def lib(self):
        raise LibclangError("libclang.so: cannot open shared object file: No such file or directory")

conf = _Conf()
"""
_PATCHED_AVAILABLE = (
    "import sys; import kernlint.frontends.clang as c; c.available = lambda: False; "
    "from kernlint.cli import main; raise SystemExit(main(sys.argv[1:]))"
)


def _project(root: Path, frontend: str | None) -> Path:
    """A copy of a few corpus files, in one project or (frontend set) in two with their own configs."""
    for sub in ("one", "two"):
        (root / sub).mkdir(parents=True)
        if frontend:
            (root / sub / "pyproject.toml").write_text(f'[tool.kernlint]\nfrontend = "{frontend}"\n')
    for index, source in enumerate(sorted((CORPUS / "sycl").glob("kl1*.cpp"))[:6]):
        (root / ("one", "two")[index % 2] / source.name).write_bytes(source.read_bytes())
    return root


def _broken_env(tmp_path: Path) -> dict[str, str]:
    shadow = tmp_path / "shadow" / "clang"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    (shadow / "cindex.py").write_text(_BROKEN_CINDEX)
    return {"PYTHONPATH": os.pathsep.join([str(tmp_path / "shadow"), _PYTHONPATH])}


def _normalised(stdout: bytes) -> dict:
    report = json.loads(stdout)
    report["summary"].pop("elapsed_s")
    return report


@pytest.mark.parametrize("how", ["config", "command line", "patched"])
def test_libclang_that_does_not_load_is_said_once_and_tree_sitter_reads_every_file(tmp_path: Path, how: str) -> None:
    default = _project(tmp_path / "default", None)
    wanted = run_kernlint(".", "--format", "json", "--no-cache", cwd=default)
    asked = _project(tmp_path / "asked", "clang" if how == "config" else None)
    args = (".", "--format", "json", "--no-cache") + (("--frontend", "clang") if how != "config" else ())
    if how == "patched":  # `kernlint.frontends.clang.available()` made false in the child
        proc = subprocess.run(
            [sys.executable, "-c", _PATCHED_AVAILABLE, *args],
            cwd=asked,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": _PYTHONPATH},
            timeout=300,
        )
    else:
        proc = run_kernlint(*args, cwd=asked, env=_broken_env(tmp_path))
    stderr = proc.stderr.decode()
    assert stderr.count("kernlint: warning:") == 1, stderr
    assert "the clang front-end needs libclang, which could not be loaded" in stderr
    assert "every file is read by the tree-sitter front-end instead" in stderr
    if how != "patched":
        assert "(libclang.so: cannot open shared object file: No such file or directory)" in stderr
    assert proc.returncode == wanted.returncode == 1
    assert _normalised(proc.stdout) == _normalised(wanted.stdout)
    assert "KL000" not in proc.stdout.decode()


# -- default flags: clang's `#if` choices are a guess ----------------------------------------------

_GUESSED = textwrap.dedent("""\
    #include <sycl/sycl.hpp>
    #ifdef SMALL_GROUPS
    #define GROUP 256
    #else
    #define GROUP 2048
    #endif
    void f(sycl::queue &q, float *x, size_t n) {
      q.parallel_for(sycl::nd_range<1>(n, GROUP), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0; });
    }
    """).encode()


def _local_sizes(path: Path, **kwargs: Any) -> list[int | None]:
    facts = clang_frontend.extract(str(path), path.read_bytes(), **kwargs)
    return [launch.local_range.dims[0] if launch.local_range else None for launch in facts.launches]


def test_default_flags_do_not_choose_an_arm_for_a_constant(tmp_path: Path) -> None:
    path = tmp_path / "k.cpp"
    path.write_bytes(_GUESSED)
    assert _local_sizes(path) == [None]  # no database, no -D: clang would only guess 2048
    # A -D after `--` (or in clang-args) says the build's macros are given: clang's choice stands.
    assert _local_sizes(path, clang_args=("-DNDEBUG",)) == [2048]
    assert _local_sizes(path, clang_args=("-DSMALL_GROUPS",)) == [256]  # tree-sitter knows it then


def test_a_compile_database_makes_the_choice_the_builds(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cpp").write_bytes(_GUESSED)
    (tmp_path / "src" / "other.cpp").write_bytes(_GUESSED)  # no entry: read with its neighbour's flags
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(tmp_path / "build"),
                    "file": "../src/k.cpp",
                    "command": "icpx -fsycl -O2 -std=c++17 -c ../src/k.cpp -o k.o",
                }
            ]
        )
    )
    assert _local_sizes(tmp_path / "src" / "k.cpp") == [2048]
    assert _local_sizes(tmp_path / "src" / "other.cpp") == [2048]
    proc = run_kernlint("src", "--frontend", "clang", "--format", "json", "--no-cache", cwd=tmp_path)
    found = [(Path(d["path"]).name, d["code"]) for d in json.loads(proc.stdout)["diagnostics"]]
    assert found == [("k.cpp", "KL201"), ("other.cpp", "KL201")] and proc.returncode == 1


def _choices(code: str, headers: dict[str, str] | None = None, tmp: Path | None = None) -> ConditionalChoices:
    data = textwrap.dedent(code).encode()
    paths = []
    for name, text in (headers or {}).items():
        assert tmp is not None
        (tmp / name).write_text(textwrap.dedent(text))
        paths.append(str(tmp / name))
    unit = CppUnit("t.cpp", data)
    return ConditionalChoices(data, unit.root, unit.arms, paths, {})


def test_what_hangs_on_an_unknown_arm(tmp_path: Path) -> None:
    choices = _choices("""\
        #ifndef APP_CONFIG_H
        #define APP_CONFIG_H
        #ifdef WAVE64
        #define SG 64
        #else
        #define SG 32
        #endif
        constexpr int lanes = SG * 2;
        constexpr int fixed = 16;
        constexpr int width() {
        #if defined(WIDE)
          return 8;
        #else
          return 4;
        #endif
        }
        struct Tile { static constexpr int rows = fixed * 4; };
        #endif
        """)
    assert choices.decides("SG")
    assert choices.decides("lanes / 4")  # through the definitions it reads
    assert choices.decides("width() * 2")  # a function whose body holds the #if
    assert not choices.decides("fixed + Tile::rows")  # the include guard is no choice
    assert not choices.decides("sizeof(float)")


def test_a_choice_in_a_quoted_include(tmp_path: Path) -> None:
    choices = _choices(
        '#include "tuning.h"\n',
        {"tuning.h": "#if BIG\n#define TILE 4096\n#else\n#define TILE 512\n#endif\n#define ROWS 8\n"},
        tmp_path,
    )
    assert choices.decides("TILE / ROWS")
    assert not choices.decides("ROWS")


def test_default_flags_do_not_choose_an_arm_in_a_quoted_include(tmp_path: Path) -> None:
    """The headers whose `#if` choices clang would guess are the file's quoted includes: the front-end
    must have read them before it asks (they are read lazily, on the first question about them)."""
    (tmp_path / "groups.h").write_text("#ifdef SMALL_GROUPS\n#define GROUP 256\n#else\n#define GROUP 2048\n#endif\n")
    kernel = _GUESSED.decode().split("#endif\n", 1)[1]
    path = tmp_path / "k.cpp"
    path.write_text('#include <sycl/sycl.hpp>\n#include "groups.h"\n' + kernel)
    assert _local_sizes(path) == [None]  # no database, no -D: clang would only guess 2048
    assert _local_sizes(path, clang_args=("-DNDEBUG",)) == [2048]
