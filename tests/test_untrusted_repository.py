"""Running on a repository that is not the user's loads, runs and writes nothing it names (issue 26).

A compile database, `clang-args` and the arguments after `--` reach libclang, which writes the
dependency files some flags name and reads more flags from a `--config` file; another libclang or a
driver call could load plugins or start programs. These tests point every such flag at a shared
object, a program or a path that would leave a mark if it were used, and check that none appears,
while the file is still read by libclang with the build's flags."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import run_kernlint
from kernlint.frontends import clang_unavailable
from kernlint.frontends.clang.flags import without_side_effects

KERNEL = """#include <sycl/sycl.hpp>
void f(sycl::queue &q, float *x, int n) {
#ifdef FROM_BUILD
  for (int s = 0; s < 4; ++s) {
#else
  {
#endif
    sycl::buffer<float, 1> b(x, sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1.0f; });
    });
  }
}
"""
# A shared object that leaves a mark when it is loaded (built with the system's C compiler).
PLUGIN_SOURCE = r"""
#include <stdio.h>
__attribute__((constructor)) static void loaded(void) {
  FILE *mark = fopen(MARK, "w");
  if (mark) { fputs("loaded\n", mark); fclose(mark); }
}
"""


@pytest.mark.parametrize(
    "flags",
    [
        ["-Xclang", "-load", "-Xclang", "p.so"],
        ["-fplugin=p.so", "-fplugin-arg-p-x", "-fpass-plugin=p.so", "-Xclang", "-fpass-plugin=p.so"],
        ["-Xclang", "-plugin", "-Xclang", "p", "-Xclang", "-add-plugin", "-Xclang", "p", "-plugin-arg-p", "x"],
        ["-mllvm", "-load=p.so", "-Xclang", "-mllvm", "-Xclang", "-load=p.so"],
        ["-MD", "-MF", "deps.d", "-MT", "echo pwned", "-MMD", "-MQ", "x", "-MP", "-M", "-MM", "-MG", "-MJ", "db.json"],
        ["-Wp,-MD,deps.d", "-Wl,-plugin,p.so", "-Wa,-o,x", "-Xpreprocessor", "-dependency-file"],
        ["-Xclang", "-dependency-file", "-Xclang", "deps.d", "-H", "-Xclang", "-header-include-file", "-Xclang", "h"],
        ["--config=evil.cfg", "--config", "evil.cfg", "@args.rsp", "-B", "tools", "--ld-path=tools/ld"],
        [
            "-o",
            "out.o",
            "--serialize-diagnostics",
            "d.dia",
            "-save-temps",
            "-ftime-trace=t.json",
            "-module-dependency-dir",
            "m",
        ],
        ["-fmodules-cache-path=m", "-fmodule-output=m.pcm", "-include-pch", "x.pch", "-ivfsoverlay", "v.yaml"],
        ["-fprofile-instr-generate=p", "-fcrash-diagnostics-dir=c", "-fsave-optimization-record", "-ftest-coverage"],
        ["-g", "-c", "-v", "-###", "stray.o", "other.cpp"],
    ],
)
def test_flags_that_load_run_or_write_do_not_reach_libclang(flags: list[str]) -> None:
    assert without_side_effects(flags) == ()


def test_flags_that_change_how_the_source_reads_reach_libclang() -> None:
    reading = [
        *("-DN=4", "-D", "MODE=fast", "-UOLD", "-Iinc", "-I", "/abs/inc", "-isystem", "/sys", "-isystem/sys2"),
        *("-iquote", "q", "-idirafter", "late", "-include", "pre.h", "-imacros", "m.h", "--sysroot=/r"),
        *("-std=c++20", "-stdlib=libc++", "-x", "c++", "-xc", "-O3", "-Wall", "-Wno-everything", "-w"),
        *("-fopenmp", "-fno-exceptions", "-ffast-math", "-fmodules", "-ferror-limit=0", "-m64", "-mavx2"),
        *("--target=x86_64-linux-gnu", "-target", "x86_64-linux-gnu", "-pthread", "-nostdinc++", "-ansi"),
    ]
    assert without_side_effects(reading) == tuple(reading)


def _hostile_groups(root: Path, marks: Path, plugin: Path | None) -> dict[str, list[str]]:
    """Every way we know to make libclang (or a driver) write, run or load something, aimed at `marks`."""
    tools = root / "tools"
    tools.mkdir(exist_ok=True)
    for name in ("ld", "clang", "clang++", "cc1", "as"):  # a driver that ran a program from -B would run these
        script = tools / name
        script.write_text(f"#!/bin/sh\necho ran > '{marks}/ran-{name}'\n")
        script.chmod(0o755)
    (root / "evil.cfg").write_text(f"-MD -MF {marks}/from-config.d\n")
    (root / "args.rsp").write_text(f"-MD -MF {marks}/from-response-file.d\n")
    return {
        "dependency file": ["-MD", "-MF", f"{marks}/md.d", "-MT", "echo pwned; x"],
        "through -Wp": [f"-Wp,-MD,{marks}/wp.d,-MT,echo pwned"],
        "through -Xclang": [
            *("-Xclang", "-dependency-file", "-Xclang", f"{marks}/xclang.d", "-Xclang", "-MT", "-Xclang", "x"),
            *("-Xclang", "-header-include-file", "-Xclang", f"{marks}/headers.txt", "-H"),
        ],
        "configuration file": [f"--config={root}/evil.cfg"],
        "database fragment": ["-MJ", f"{marks}/mj.json"],
        "other outputs and programs": [
            *("-B", str(tools), f"--ld-path={tools}/ld", f"@{root}/args.rsp", "-save-temps", "-o", f"{marks}/out.o"),
            *("-module-dependency-dir", f"{marks}/modules", f"-ftime-trace={marks}/trace.json"),
            *("--serialize-diagnostics", f"{marks}/d.dia", f"-fmodules-cache-path={marks}/module-cache"),
        ],
        "plugins": []
        if plugin is None
        else ["-Xclang", "-load", "-Xclang", str(plugin), f"-fplugin={plugin}", f"-fpass-plugin={plugin}"],
    }


@pytest.fixture()
def plugin(tmp_path: Path) -> Path | None:
    """A shared object that writes `marks/loaded` when loaded; None without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    marks = tmp_path / "marks"
    marks.mkdir(exist_ok=True)
    source = tmp_path / "plugin.c"
    source.write_text(PLUGIN_SOURCE)
    built = tmp_path / "plugin.so"
    define = f'-DMARK="{marks}/loaded"'
    result = subprocess.run([compiler, "-shared", "-fPIC", define, "-o", str(built), str(source)], capture_output=True)
    return built if result.returncode == 0 else None


def _check_hostile(tmp_path: Path, flags: list[str], source: str) -> None:
    """kernlint with `flags` from `source` writes nothing in `tmp_path/marks` nor beside the file, and
    libclang still reads the file, with the build's `-DFROM_BUILD`."""
    root, marks = tmp_path / "repo", tmp_path / "marks"
    (root / "k.cpp").write_text(KERNEL)
    flags = ["-DFROM_BUILD", *flags]
    config = '[tool.kernlint]\nfrontend = "clang"\n'
    extra: list[str] = []
    if source == "clang-args":
        config += f"clang-args = {json.dumps(flags)}\n"
    elif source == "compile_commands.json":
        entry = {"directory": str(root), "file": "k.cpp", "arguments": ["icpx", "-c", "k.cpp", *flags]}
        (root / "compile_commands.json").write_text(json.dumps([entry]))
    else:
        extra = ["--", *flags]
    (root / "pyproject.toml").write_text(config)
    before = sorted(os.listdir(root))
    proc = run_kernlint("k.cpp", "--no-cache", "--output-format", "concise", *extra, cwd=root)
    assert sorted(os.listdir(marks)) == []  # nothing written, run or loaded
    assert sorted(os.listdir(root)) == before  # not even `k.d` beside the source
    assert proc.returncode == 1 and "KL000" not in proc.stdout.decode(), proc.stderr.decode()
    assert "KL101" in proc.stdout.decode()


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    (tmp_path / "repo").mkdir()
    (tmp_path / "marks").mkdir(exist_ok=True)
    return tmp_path / "repo"


needs_libclang = pytest.mark.skipif(clang_unavailable() is not None, reason="libclang is not available")


@needs_libclang
@pytest.mark.parametrize(
    "group",
    [
        "dependency file",
        "through -Wp",
        "through -Xclang",
        "configuration file",
        "database fragment",
        "other outputs and programs",
        "plugins",
    ],
)
def test_clang_args_from_a_repository_make_libclang_write_and_load_nothing(
    tmp_path: Path, repo: Path, plugin: Path | None, group: str
) -> None:
    flags = _hostile_groups(repo, tmp_path / "marks", plugin)[group]
    if not flags:
        pytest.skip("no C compiler to build the plugin with")
    _check_hostile(tmp_path, flags, "clang-args")


@needs_libclang
@pytest.mark.parametrize("source", ["clang-args", "compile_commands.json", "after --"])
def test_every_source_of_flags_is_filtered(tmp_path: Path, repo: Path, plugin: Path | None, source: str) -> None:
    groups = _hostile_groups(repo, tmp_path / "marks", plugin)
    _check_hostile(tmp_path, [flag for flags in groups.values() for flag in flags], source)


AUDIT = """
import json, os, sys
project, log = sys.argv[1], sys.argv[2]
events = []
STARTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.startfile", "os.fork")

def inside(path):
    try:
        return os.path.realpath(os.fsdecode(path)).startswith(project + os.sep)
    except (TypeError, ValueError):
        return False

def hook(event, args):
    if event in STARTS:
        events.append([event, repr(args)[:200]])
    elif event == "ctypes.dlopen" and args[0] is not None and inside(args[0]):
        events.append([event, str(args[0])])
    elif event == "open" and isinstance(args[0], (str, bytes)) and inside(args[0]):
        mode, flags = args[1], args[2]
        if (mode and set(mode) & set("wax+")) or (flags or 0) & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            events.append(["write", str(args[0])])

sys.addaudithook(hook)
from kernlint.cli import main
code = main(sys.argv[3:])
imported = [m.__file__ for m in list(sys.modules.values()) if inside(getattr(m, "__file__", None) or "")]
with open(log, "w") as handle:
    json.dump({"code": code, "events": events, "imported": imported}, handle)
"""


def test_kernlint_starts_no_program_and_imports_nothing_from_the_repository(tmp_path: Path) -> None:
    """With Python's audit hooks: no process is started, no library or module is loaded from the
    project, and nothing in it is opened for writing, whatever Python files and entry points it holds."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "k.cpp").write_text(KERNEL)
    bait = "open(__file__ + '.imported', 'w').close()\n"
    for name in ("kernlint_plugin.py", "conftest.py", "setup.py", "kernlint_rules.py", "sitecustomize.py"):
        (root / name).write_text(bait)
    (root / "pyproject.toml").write_text(
        textwrap.dedent("""\
            [project]
            name = "hostile"
            [project.entry-points.kernlint]
            hostile = "kernlint_plugin"
            [tool.kernlint]
            frontend = "clang"
            clang-args = ["-DFROM_BUILD", "-fplugin=./plugin.so", "-Xclang", "-load", "-Xclang", "./plugin.so"]
            """)
    )
    log = tmp_path / "audit.json"
    command = [sys.executable, "-c", AUDIT, str(root.resolve()), str(log), str(root), "--format", "json", "-j", "1"]
    subprocess.run(command, cwd=tmp_path, check=True, timeout=300)
    audit = json.loads(log.read_text())
    assert audit["code"] == 1 and audit["events"] == [] and audit["imported"] == []
    assert not list(root.glob("*.imported"))
