"""The clang front-end: shipped headers, constant evaluation, refinements, and flags reaching rules."""

from __future__ import annotations

import json
import os
import textwrap
import threading
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from conftest import CORPUS, REPO, run_json, run_kernlint
from corpus_annotations import corpus_files, expected, pinned_devices
from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.frontends.clang import frontend as clang_frontend
from kernlint.frontends.clang import unit as clang_unit
from kernlint.frontends.clang.flags import flags_for
from kernlint.frontends.clang.unit import ClangUnit, ParseTimeout
from kernlint.frontends.cpp import frontend as cpp_frontend
from kernlint.session import make_setup


def _unit(path: Path, code: str, probes: Sequence[tuple[tuple[str, ...], str]] = ()) -> ClangUnit:
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    data = path.read_bytes()
    args, empty = clang_frontend.parse_inputs(str(path), data, flags_for(str(path)), (), {}, ())
    return ClangUnit(str(path), data, args, list(probes), empty)


def test_shipped_sycl_headers_type_check_kernel_code(tmp_path: Path) -> None:
    unit = _unit(
        tmp_path / "k.cpp",
        """
        #include <CL/sycl.hpp>
        #include <vector>
        int main() {
          cl::sycl::queue q{cl::sycl::gpu_selector_v};
          std::vector<float> v(1024);
          sycl::buffer<float, 2> b(v.data(), sycl::range<2>(32, 32));
          float *usm = sycl::malloc_shared<float>(64, q);
          q.submit([&](sycl::handler &h) {
            sycl::accessor in(b, h, sycl::read_only);
            auto out = b.get_access<sycl::access::mode::discard_write>(h);
            sycl::local_accessor<float, 1> tile(sycl::range<1>(64), h);
            h.parallel_for<class k>(sycl::nd_range<2>({32, 32}, {8, 8}), [=](sycl::nd_item<2> it) {
              auto sg = it.get_sub_group();
              float x = sycl::reduce_over_group(it.get_group(), in[it.get_global_id(0)][1], sycl::plus<>());
              x += sycl::select_from_group(sg, x, 0) + sg.load(&usm[0]) + tile[0];
              sycl::group_barrier(it.get_group());
              sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> r(usm[1]);
              r.fetch_add(sycl::fmax(x, 0.0f));
              if (sycl::any_of_group(sg, x > 0)) out[it.get_global_id()] = x;
            });
          });
          q.wait();
          sycl::free(usm, q);
        }
    """,
    )
    assert unit.errors == []
    types = {d.name: d.type for d in unit.declarations}
    assert types["in"] == "sycl::accessor<float, 2, sycl::access_mode::read, sycl::target::device>"
    assert "discard_write" in types["out"]


def test_constants_clang_evaluates_and_tree_sitter_cannot(tmp_path: Path) -> None:
    unit = _unit(
        tmp_path / "c.cpp",
        """
        template <typename T> constexpr int lanes() { return 64 / sizeof(T); }
        struct Config { static constexpr int group = lanes<double>() * 16; };
        namespace app { constexpr int tile = 8; }
        int runtime();
    """,
        [((), "lanes<float>()"), ((), "Config::group"), (("app",), "tile * 2"), ((), "runtime()")],
    )
    assert unit.probe_values() == {0: 16, 1: 128, 2: 16}


def test_functor_members_are_not_accessor_constructions(tmp_path: Path) -> None:
    # A member declared with an accessor type holds an accessor made at the launch; clang must not
    # add an accessor fact at the member (tree-sitter has none there), while an accessor whose mode
    # only its alias spells is still added.
    path = tmp_path / "f.cpp"
    data = textwrap.dedent(
        """
        #include <sycl/sycl.hpp>
        using out_t = sycl::accessor<float, 1, sycl::access_mode::write>;
        struct Scale {
          sycl::accessor<float, 1, sycl::access_mode::read> in;
          out_t out;
          void operator()(sycl::id<1> i) const { out[i] = 2.0f * in[i]; }
        };
        void run(sycl::queue &q, sycl::buffer<float> &a, sycl::buffer<float> &b) {
          q.submit([&](sycl::handler &h) {
            out_t out(b, h);
            h.parallel_for(sycl::range<1>(64), Scale{a.get_access<sycl::access_mode::read>(h), out});
          });
        }
        """
    ).encode()
    path.write_bytes(data)
    accessors = clang_frontend.extract(str(path), data).accessors
    assert [(a.span.line, a.mode) for a in accessors if a.span.line in (5, 6)] == []
    assert (11, "write") in [(a.span.line, a.mode) for a in accessors]


def test_missing_project_header_does_not_stop_the_parse(tmp_path: Path) -> None:
    unit = _unit(
        tmp_path / "m.cpp",
        """
        #include "not_in_this_copy.h"
        #include <sycl/ext/oneapi/not_shipped.hpp>
        void f(sycl::queue &q, float *x) {
          q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { x[i] = 0; });
        }
    """,
    )
    assert unit.errors == []


class _StalledIndex:
    """An index whose parse waits until released: libclang over its bound, without depending on load."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def parse(self, *args: object, **kwargs: object) -> None:
        self.release.wait(30)


def test_a_parse_over_its_time_bound_keeps_tree_sitter_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.cpp"
    path.write_text(
        "#include <sycl/sycl.hpp>\nnamespace host { template <class T> struct buffer { buffer(int); }; }\n"
        "void f() { for (;;) { host::buffer<float> b(1); } }\n",
        encoding="utf-8",
    )
    data = path.read_bytes()
    stalled = _StalledIndex()
    with monkeypatch.context() as patch:
        patch.setattr(clang_unit, "_index", lambda: stalled)
        try:
            with pytest.raises(ParseTimeout):
                ClangUnit(str(path), data, ["-x", "c++"], timeout_s=0.05)
            slow = clang_frontend.extract(str(path), data, timeout_s=0.05)
        finally:
            stalled.release.set()
    assert [b.name for b in slow.buffers] == [b.name for b in cpp_frontend.extract(str(path), data).buffers] == ["b"]
    assert clang_frontend.extract(str(path), data).buffers == ()  # in time: host::buffer is not SYCL's


def _project(tmp_path: Path) -> Path:
    """A project whose work-group size comes from a -I header and a -D macro of its build."""
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "tuning.h").write_text("#define GROUP (WG_SCALE * 512)\n", encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "solver.cpp").write_text(
        textwrap.dedent("""\
        #include <sycl/sycl.hpp>
        #include "tuning.h"
        void solve(sycl::queue &q, float *x, size_t n) {
          q.parallel_for(sycl::nd_range<1>(n, GROUP), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0; });
        }
        """),
        encoding="utf-8",
    )
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(tmp_path / "build"),
                    "file": "../src/solver.cpp",
                    "command": "icpx -fsycl -DWG_SCALE=4 -I../include -O2 -c ../src/solver.cpp -o solver.o"
                    " -MD -MF solver.d",
                }
            ]
        ),
        encoding="utf-8",
    )
    return tmp_path / "src" / "solver.cpp"


@pytest.mark.parametrize("frontend", ["tree-sitter", "clang"])
def test_compile_database_flags_reach_a_rule(tmp_path: Path, frontend: str) -> None:
    """-I (a quoted header outside the file's directory) and -D (a macro it uses) from a real
    compile_commands.json make the work-group size 2048, which KL201 reports on xe-hpc."""
    source = _project(tmp_path)
    code, report = run_json(str(source), "--frontend", frontend, "--select", "KL201", cwd=tmp_path)
    assert [(d["line"], d["code"]) for d in report["diagnostics"]] == [(4, "KL201")], report
    assert "2048" in report["diagnostics"][0]["message"]
    assert code == 1


def test_without_the_database_the_size_is_unknown(tmp_path: Path) -> None:
    source = _project(tmp_path)
    (tmp_path / "build" / "compile_commands.json").unlink()
    _code, report = run_json(str(source), "--frontend", "clang", "--select", "KL201", cwd=tmp_path)
    assert report["diagnostics"] == []


def test_arguments_after_double_dash_go_to_clang(tmp_path: Path) -> None:
    source = _project(tmp_path)
    (tmp_path / "build" / "compile_commands.json").unlink()
    proc = run_kernlint(
        str(source),
        "--frontend",
        "clang",
        "--select",
        "KL201",
        "--format",
        "json",
        "--no-cache",
        "--",
        f"-I{tmp_path / 'include'}",
        "-DWG_SCALE=4",
        cwd=tmp_path,
    )
    report = json.loads(proc.stdout)
    assert [(d["line"], d["code"]) for d in report["diagnostics"]] == [(4, "KL201")]


@pytest.mark.skipif(
    not os.environ.get("KERNLINT_CLANG_CORPUS"),
    reason="about 25 s: set KERNLINT_CLANG_CORPUS=1 to run the whole corpus through libclang",
)
def test_whole_corpus_agrees_through_the_clang_frontend() -> None:
    """Every C/C++ corpus file, on each device it pins, gives its annotations through the clang
    front-end too (`expect[tree-sitter]:` lines mark what only the fast front-end reports)."""
    failures = []
    for path in corpus_files(CORPUS):
        if path.suffix.lower() not in (".c", ".cpp", ".cc", ".cxx", ".hpp", ".h"):
            continue
        text = path.read_text("utf-8", errors="replace")
        for device in pinned_devices(text):
            setup = make_setup(Config(root=str(REPO), devices=(device,), frontend="clang"), use_cache=False)
            entries, _problems = discover([str(path)], setup.config)
            actual = Counter((d.line, d.code) for d in analyse_file(entries[0], setup).diagnostics)
            wanted = expected(text, device, "clang")
            if actual != wanted:
                failures.append(
                    f"{path.relative_to(REPO)}@{device}: missing {sorted((wanted - actual).elements())}, "
                    f"unexpected {sorted((actual - wanted).elements())}"
                )
    assert not failures, "\n".join(failures)
