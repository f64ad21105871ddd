"""The clang front-end reads sizes that are template arguments per instantiation (issue 12, item 3)."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

import pytest

from conftest import CORPUS, REPO
from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.facts import FileFacts
from kernlint.frontends.clang import frontend as clang_frontend
from kernlint.frontends.cpp import frontend as cpp_frontend
from kernlint.session import make_setup

_FUNCTOR = """
#include <sycl/sycl.hpp>
template <int SG> struct Reduce {
  const float *in;
  float *out;
  [[sycl::reqd_sub_group_size(SG)]] void operator()(sycl::nd_item<1> it) const {
    auto sg = it.get_sub_group();
    out[it.get_global_id(0)] = sg.load(in + it.get_group(0) * 256);
  }
};
void run(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), Reduce<16>{in, out});
  q.parallel_for(sycl::nd_range<1>(n, 256), Reduce<32>{in, out});
}
"""

_FUNCTION = """
#include <sycl/sycl.hpp>
template <int WG> void launch(sycl::queue &q, float *x, size_t n) {
  constexpr int half = WG / 2;
  q.parallel_for(sycl::nd_range<1>(n, half), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] += 1.0f; });
}
template <int WG> void untouched(sycl::queue &q, float *x, size_t n, int runtime) {
  int WG2 = runtime;
  q.parallel_for(sycl::nd_range<1>(n, WG2), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = WG; });
}
template <int... Sizes> void packed(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, (Sizes + ...)), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0; });
}
template <int N> void outer(sycl::queue &q, float *x, size_t n) { launch<N * 2>(q, x, n); }
void drive(sycl::queue &q, float *x, size_t n) {
  launch<512>(q, x, n);
  launch<4096>(q, x, n);
  untouched<64>(q, x, n, 7);
  untouched<128>(q, x, n, 7);
  packed<64, 64>(q, x, n);
  packed<1, 2>(q, x, n);
}
"""


def _facts(tmp_path: Path, code: str, frontend: str) -> FileFacts:
    path = tmp_path / "k.cpp"
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    data = path.read_bytes()
    if frontend == "clang":
        return clang_frontend.extract(str(path), data)
    return cpp_frontend.extract(str(path), data)


def test_functor_launches_get_their_instantiation_sub_group_size(tmp_path: Path) -> None:
    assert [launch.attributes.reqd_sub_group_size for launch in _facts(tmp_path, _FUNCTOR, "tree-sitter").launches] == [
        None,
        None,
    ]
    launches = _facts(tmp_path, _FUNCTOR, "clang").launches
    assert [(launch.instantiation, launch.attributes.reqd_sub_group_size) for launch in launches] == [
        ("Reduce<16>", 16),
        ("Reduce<32>", 32),
    ]
    assert all(launch.instances == () for launch in launches)


def test_function_template_launch_is_read_once_per_instantiation(tmp_path: Path) -> None:
    by_line = {launch.span.line: launch for launch in _facts(tmp_path, _FUNCTION, "clang").launches}
    templated = by_line[5]
    assert templated.local_range is not None and templated.local_range.dims == (None,)  # the template's own fact
    # `launch<N * 2>` inside `outer`, never instantiated, is dependent: libclang resolves no arguments for it.
    assert [
        (each.instantiation, each.local_range.dims if each.local_range else None) for each in templated.instances
    ] == [
        ("launch<512>", (256,)),
        ("launch<4096>", (2048,)),
    ]


def test_runtime_values_and_parameter_packs_stay_unknown(tmp_path: Path) -> None:
    by_line = {launch.span.line: launch for launch in _facts(tmp_path, _FUNCTION, "clang").launches}
    assert by_line[9].instances == ()  # a local that shadows nothing but holds a run-time value
    assert by_line[12].instances == ()  # a parameter pack is not bound


def test_tree_sitter_facts_have_no_instantiations(tmp_path: Path) -> None:
    for launch in _facts(tmp_path, _FUNCTION, "tree-sitter").launches:
        assert launch.instantiation is None and launch.instances == ()


def _diagnostics(path: Path, frontend: str) -> list:
    setup = make_setup(Config(root=str(REPO), devices=("xe-hpc",), frontend=frontend), use_cache=False)
    entries, _problems = discover([str(path)], setup.config)
    return list(analyse_file(entries[0], setup).diagnostics)


def test_one_finding_at_the_template_names_every_failing_instantiation() -> None:
    found = _diagnostics(CORPUS / "clang" / "kl201_template_work_group.cpp", "clang")
    saxpy = [d for d in found if d.line == 8]
    assert [d.code for d in saxpy] == ["KL201"]
    assert "`saxpy<2048>` (also `saxpy<4096>`)" in saxpy[0].message
    assert saxpy[0].evidence["instantiations"] == {"saxpy<2048>": 2048, "saxpy<4096>": 4096}
    blocks = _diagnostics(CORPUS / "clang" / "kl301_template_sub_group.cpp", "clang")
    kl301 = [d for d in blocks if d.code == "KL301"]
    assert len(kl301) == 1 and "`BlockSum<float, 32>` (also `BlockSum<int, 32>`)" in kl301[0].message
    assert "BlockSum<float, 16>" not in kl301[0].message


def test_kl203_and_kl208_name_the_instantiations_they_hold_for() -> None:
    found = {d.code: d for d in _diagnostics(CORPUS / "clang" / "kl208_template_nd_range.cpp", "clang")}
    assert sorted(found) == ["KL203", "KL208"]
    assert "in `brighten<384>` (also `brighten<768>`)" in found["KL208"].message
    assert "in `clamp<100>` is not a multiple" in found["KL203"].message


@pytest.mark.parametrize(
    "name", ["kl201_template_work_group.cpp", "kl208_template_nd_range.cpp", "kl301_template_sub_group.cpp"]
)
def test_the_default_front_end_is_silent_on_the_template_cases(name: str) -> None:
    """Only clang knows these sizes: tree-sitter leaves them unknown and reports nothing that needs them
    (the launch and sub-group rules; the memory-access rules read the indices, not the sizes)."""
    found = _diagnostics(CORPUS / "clang" / name, "tree-sitter")
    assert Counter(d.code for d in found if d.code.startswith(("KL2", "KL3"))) == Counter()
