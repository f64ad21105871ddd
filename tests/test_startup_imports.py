"""What each quick path of the command line leaves unimported, checked on `sys.modules` of a real
process: `--version` loads no plugin, engine or report; a warm run (every file from the cache) at any
job count parses nothing, starts no worker pool and prints its text report without rich; `rule` and a
one-file check find the plugins without `importlib.metadata`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CORPUS
from kernlint.cli import main
from kernlint.cli.parser import build_parser

PARSING = ("tree_sitter", "kernlint.frontends.", "kernlint.analysis")
POOL = ("concurrent.futures", "multiprocessing")


def _modules_after(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> list[str]:
    """The modules loaded once `kernlint ARGV` has run (its output to a pipe, not a terminal)."""
    script = (
        "import sys\nfrom kernlint.cli import main\n"
        f"code = main({list(argv)!r})\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\nsys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=cwd, env=env, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stderr.splitlines()


def _loaded(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules if m.startswith(prefixes)]


def test_version_loads_no_plugin_engine_or_report() -> None:
    loaded = _modules_after("--version")
    heavy = ("kernlint_rules", "kernlint.engine", "kernlint.facts", "kernlint.report", "rich", "pluggy")
    assert _loaded(loaded, heavy + PARSING + ("importlib.metadata",)) == []


def test_a_warm_run_parses_nothing_starts_no_pool_and_uses_no_rich(tmp_path: Path) -> None:
    shutil.copytree(CORPUS, tmp_path / "corpus")
    an_hour_ago = time.time() - 3600  # older than the index, so that the warm run trusts the stamps
    for directory, _dirs, files in os.walk(tmp_path / "corpus"):
        for name in files:
            os.utime(Path(directory) / name, (an_hour_ago, an_hour_ago))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache-home")}
    env.pop("FORCE_COLOR", None)
    env.pop("TTY_COMPATIBLE", None)
    cold = _modules_after("check", "corpus", "--exit-zero", "--jobs", "1", cwd=tmp_path, env=env)
    assert _loaded(cold, ("tree_sitter",))  # the cold run parsed (so the cache was filled)
    for jobs in ("1", "16"):
        warm = _modules_after("check", "corpus", "--exit-zero", "--jobs", jobs, cwd=tmp_path, env=env)
        assert _loaded(warm, PARSING + POOL + ("rich", "importlib.metadata")) == [], jobs


def test_rule_and_a_one_file_check_find_plugins_without_importlib_metadata(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_text(
        "void f(float *a, int n) {\n#pragma omp parallel for\n  for (int i = 0; i < n; ++i) a[i] = 0;\n}\n"
    )
    for argv in (["rule"], ["check", "k.cpp", "--no-cache"]):
        loaded = _modules_after(*argv, cwd=tmp_path)
        assert "kernlint_rules" in loaded  # the plugins were loaded ...
        assert _loaded(loaded, ("importlib.metadata", "email", "rich")) == []  # ... this way, and no rich


def test_version_prints_what_the_grammar_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """`--version` alone is answered before the grammar is built: the same line as argparse's action."""
    assert main(["--version"]) == 0
    shortcut = capsys.readouterr()
    with pytest.raises(SystemExit) as ended:
        build_parser().parse_args(["--version"])
    assert ended.value.code == 0
    assert shortcut == capsys.readouterr() and shortcut.out.startswith("kernlint ")


OPENMP_FILE = (
    "void f(float *a, int n) {\n#pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n"
    "  for (int i = 0; i < n; ++i) a[i] = 0;\n}\n"
)
SYCL_FILE = (
    "#include <sycl/sycl.hpp>\nvoid f(sycl::queue &q, float *a) {\n"
    "  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { a[i] = 0; });\n}\n"
)


def test_a_one_file_check_loads_only_the_passes_its_file_needs(tmp_path: Path) -> None:
    """An OpenMP file loads no SYCL device analysis or accessor-use pass; a SYCL file no OpenMP front-end."""
    (tmp_path / "omp.cpp").write_text(OPENMP_FILE)
    (tmp_path / "sycl.cpp").write_text(SYCL_FILE)
    sycl_passes = ("kernlint.frontends.cpp.device.code", "kernlint.frontends.cpp.accessors.uses")
    openmp = ("kernlint.frontends.cpp.openmp.macros",)
    loaded = _modules_after("check", "omp.cpp", "--no-cache", cwd=tmp_path)
    assert "kernlint.frontends.cpp.openmp.macros" in loaded and _loaded(loaded, sycl_passes) == []
    loaded = _modules_after("check", "sycl.cpp", "--no-cache", cwd=tmp_path)
    assert "kernlint.frontends.cpp.device.code" in loaded and _loaded(loaded, openmp) == []


def test_a_one_file_check_loads_no_module_only_a_misspelling_or_a_package_reader_needs(tmp_path: Path) -> None:
    """difflib (suggestions for a misspelt setting, suppression or clause) and importlib.resources (the
    device profiles are read as plain files; only tree-sitter-cpp's own package still loads it)."""
    shutil.copy(CORPUS / "openmp" / "kl501_divergence.f90", tmp_path / "k.f90")
    for argv in (["check", "k.f90", "--no-cache"], ["devices"]):
        loaded = _modules_after(*argv, cwd=tmp_path)
        assert _loaded(loaded, ("difflib", "importlib.resources")) == [], argv
    (tmp_path / "omp.cpp").write_text(OPENMP_FILE)
    assert "difflib" not in _modules_after("check", "omp.cpp", "--no-cache", cwd=tmp_path)


def test_only_a_few_file_run_reads_query_patterns(tmp_path: Path) -> None:
    """The query gates (which patterns a file's text can match) and the loose query texts serve
    bundles only: a many-file run compiles each query file whole and never loads them."""
    (tmp_path / "omp.cpp").write_text(OPENMP_FILE)
    few = set(_modules_after("check", "omp.cpp", "--no-cache", cwd=tmp_path))
    assert {"kernlint.frontends.common.query_gates", "kernlint.frontends.cpp.loose"} <= few
    many = tmp_path / "many"
    many.mkdir()
    for n in range(5):
        (many / f"omp{n}.cpp").write_text(OPENMP_FILE)
    loaded = _modules_after("check", ".", "--no-cache", "--jobs", "1", cwd=many)
    assert "kernlint.frontends.common.query_gates" not in loaded
    assert "kernlint.frontends.cpp.loose" not in loaded


def _queries_compiled(*argv: str, cwd: Path) -> int:
    """How many tree-sitter queries `kernlint ARGV` compiled (a bundle counts once)."""
    script = (
        "import sys\nfrom kernlint.cli import main\nfrom kernlint.frontends.common import treesitter as t\n"
        f"code = main({list(argv)!r})\n"
        "bundles = {id(b.query) for b in t._BUNDLED.values()}\n"
        "alone = t.query.cache_info().currsize + t.combined_query.cache_info().currsize\n"
        "print(len(bundles) + alone, file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, check=False)
    assert done.returncode in (0, 1), done.stderr
    return int(done.stderr.split()[-1])


def test_a_one_file_check_compiles_its_queries_in_bundles(tmp_path: Path) -> None:
    """The OpenMP file runs the file query and 7 OpenMP query files: 8 compiles alone (as a run of
    many such files makes them), one bundle (what runs over the whole file and over a region).
    The Fortran file's 9 query files are one bundle."""
    (tmp_path / "omp.cpp").write_text(OPENMP_FILE)
    shutil.copy(CORPUS / "openmp" / "kl501_divergence.f90", tmp_path / "k.f90")
    assert _queries_compiled("check", "omp.cpp", "--no-cache", cwd=tmp_path) == 1
    assert _queries_compiled("check", "k.f90", "--no-cache", cwd=tmp_path) == 1
    many = tmp_path / "many"
    many.mkdir()
    for n in range(5):
        (many / f"omp{n}.cpp").write_text(OPENMP_FILE)
    assert _queries_compiled("check", ".", "--no-cache", "--jobs", "1", cwd=many) == 8
