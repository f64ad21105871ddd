"""Device code reach, sub-group block accesses, and the rules built on them: KL501 divergent-branch,
KL502 divergent-barrier and KL301 block-load-sg32."""

from __future__ import annotations

import textwrap

import pytest

from conftest import run_rule
from kernlint.config import load_config
from kernlint.diagnostics import Severity
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.frontends.cpp.frontend import extract
from kernlint.session import make_setup
from kernlint_rules.divergence.kl501_divergent_branch import DivergentBranch
from kernlint_rules.divergence.kl502_divergent_barrier import DivergentBarrier
from kernlint_rules.launch.kl301_block_load_sg32 import BlockLoadSubGroup32


def facts_of(code: str):
    return extract("t.cpp", textwrap.dedent(code).encode())


run = run_rule


def lines(diagnostics) -> list[int]:
    return sorted(d.line for d in diagnostics)


# -- device code reach ----------------------------------------------------------------------------


def test_device_code_follows_calls_and_leaves_host_code_out() -> None:
    facts = facts_of("""
        SYCL_EXTERNAL void sync(sycl::nd_item<1> it) { it.barrier(); }
        inline float twice(float v) { for (int k = 0; k < 2; ++k) v += v; return v; }
        inline float outer(float v) { return twice(v); }
        void host_helper(sycl::queue &q, float *d) { for (int r = 0; r < 3; ++r) q.parallel_for(8, [=](size_t i) { d[i] = 0; }); }
        void f(sycl::queue &q, float *d, int n) {
          auto scale = [](float v) { return v * 2.0f; };
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            d[0] = outer(scale(d[0]));
            sync(it);
          });
        }
    """)  # noqa: E501 (one-line host helper)
    kernel = next(launch for launch in facts.launches if launch.span.line == 8)
    covered = sorted(region.line for region in kernel.regions)
    assert covered == [2, 3, 4, 7, 8]  # sync, twice, outer, the stored lambda, the body
    assert [b.span.line for b in facts.barriers] == [2]
    sides = {loop.span.line: loop.side for loop in facts.loops}
    assert sides == {3: "device", 5: "host"}


def test_block_access_forms() -> None:
    facts = facts_of("""
        void f(sycl::queue &q, float *p, int *c, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            auto sg = it.get_sub_group();
            float a = sg.load(p);
            auto b = sg.load<4>(p);
            sg.store<4>(p, b);
            sycl::ext::oneapi::experimental::group_load(sg, p, sycl::span<float, 1>{&a, 1});
            sycl::ext::oneapi::experimental::group_load(it.get_group(), p, sycl::span<float, 1>{&a, 1});
            unsigned w = intel_sub_group_block_read_us(reinterpret_cast<const unsigned short *>(p));
            sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> r(c[0]);
            int seen = r.load();
          });
        }
    """)
    found = [(a.span.line, a.form, a.direction) for a in facts.block_accesses]
    assert sorted(found) == [
        (5, "sg.load", "load"),
        (6, "sg.load<4>", "load"),
        (7, "sg.store<4>", "store"),
        (8, "group_load", "load"),
        (10, "intel_sub_group_block_read_us", "load"),
    ]


# -- KL501 ------------------------------------------------------------------------------------------

BRANCHY = """
    void f(sycl::queue &q, float *d, int n) {
      q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] {
        size_t i = it.get_global_id(0);
        if (i % 2 == 0) d[i] = 1;
        if (i < n) d[i] += 1;
        d[i] = i % 2 ? d[i] : 0;
        if (it.get_group(0) == 0) d[0] = 0;
      });
    }
"""


def test_kl501_grades_a_cheap_parity_arm_info_with_a_lane_estimate() -> None:
    (diagnostic,) = run(DivergentBranch, BRANCHY)
    assert diagnostic.line == 5 and diagnostic.severity is Severity.INFO
    assert "8 of 16 lanes" in diagnostic.message and diagnostic.evidence["class"] == "cheap-arms"
    assert diagnostic.evidence["reason"] == "parity" and diagnostic.evidence["sub_group_size"] == 16


def test_kl501_reports_boundary_conditions_as_info_only_when_asked() -> None:
    found = run(DivergentBranch, BRANCHY, options={"report-boundary": True})
    assert [(d.line, d.severity) for d in found] == [(5, Severity.INFO), (6, Severity.INFO)]


def test_kl501_boundary_option_comes_from_configuration(tmp_path) -> None:
    (tmp_path / "kernlint.toml").write_text('select = ["KL501"]\n[rules.KL501]\n"report-boundary" = true\n')
    source = tmp_path / "k.cpp"
    source.write_text(textwrap.dedent(BRANCHY))
    setup = make_setup(load_config(tmp_path / "kernlint.toml"), use_cache=False)
    entries, _ = discover([str(source)], setup.config)
    found = analyse_file(entries[0], setup).diagnostics
    assert [(d.line, d.severity) for d in found] == [(5, Severity.INFO), (6, Severity.INFO)]


def test_kl501_reports_an_else_if_chain_once_unless_its_head_is_uniform() -> None:
    found = run(
        DivergentBranch,
        """
        void f(sycl::queue &q, float *d, int n, int mode) {
          q.parallel_for(n, [=](size_t i) {
            if (d[i] < 0) d[i] = 0;
            else if (d[i] > 1) d[i] = 1;
            else if (i % 3 == 0) d[i] = 2;
            if (mode == 1) d[i] = 3;
            else if (i % 2) d[i] = 4;
          });
        }
    """,
    )
    assert lines(found) == [4, 8]


def test_kl501_flags_a_ternary_that_calls_device_code() -> None:
    found = run(
        DivergentBranch,
        """
        float heavy(float v) { return sycl::exp(v) * sycl::log(v); }
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(n, [=](size_t i) {
            d[i] = d[i] > 0 ? heavy(d[i]) : d[i];
            d[i] = d[i] > 0 ? d[i] : -d[i];
          });
        }
    """,
    )
    assert lines(found) == [5]


# -- KL502 ------------------------------------------------------------------------------------------


def test_kl502_barrier_after_the_branch_is_fine_inside_it_is_not() -> None:
    found = run(
        DivergentBarrier,
        """
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            int lid = it.get_local_id(0);
            for (int s = 32; s > 0; s >>= 1) {
              if (lid < s) d[lid] += d[lid + s];
              it.barrier();
            }
            if (lid < 8) {
              d[lid] = 0;
              sycl::group_barrier(it.get_group());
            }
          });
        }
    """,
    )
    (diagnostic,) = found
    assert diagnostic.line == 11 and diagnostic.severity is Severity.ERROR
    assert diagnostic.evidence["condition_line"] == 9 and diagnostic.evidence["via"] == "under"


def test_kl502_reports_calls_that_reach_a_barrier_and_early_exits() -> None:
    found = run(
        DivergentBarrier,
        """
        void wait_all(sycl::nd_item<1> it) { it.barrier(); }
        void step(sycl::nd_item<1> it) { wait_all(it); }
        void f(sycl::queue &q, float *d, int n, int skip) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            size_t i = it.get_global_id(0);
            if (d[i] > 0) step(it);
            if (it.get_group(0) == skip) return;
            step(it);
            if (i >= n) return;
            sycl::group_barrier(it.get_group());
          });
        }
    """,
    )
    by_line = {d.line: d for d in found}
    assert sorted(by_line) == [7, 11]
    assert by_line[7].evidence["call_lines"] == [7, 3] and by_line[7].evidence["function"] == "wait_all"
    assert by_line[11].evidence["via"] == "early-return"


def test_kl502_reports_every_divergent_call_of_a_synchronising_helper() -> None:
    found = run(
        DivergentBarrier,
        """
        inline void exchange(sycl::nd_item<1> it, float *slm) { slm[0] = 1; it.barrier(); slm[1] = 2; it.barrier(); }
        void f(sycl::queue &q, float *d, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            size_t lid = it.get_local_id(0);
            if (lid < 8) exchange(it, d);
            exchange(it, d);
            if (d[lid] > 0) {
              if (lid % 2) exchange(it, d);
            }
          });
        }
    """,
    )
    assert lines(found) == [6, 9]
    assert found[1].evidence["condition_line"] == 9  # the innermost condition


def test_kl502_loops_with_id_dependent_trip_counts_and_breaks() -> None:
    found = run(
        DivergentBarrier,
        """
        void f(sycl::queue &q, float *d, int n, int steps) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            for (size_t i = it.get_global_id(0); i < n; i += it.get_global_range(0)) {
              it.barrier();
            }
            for (int s = 0; s < steps; ++s) {
              if (d[it.get_global_id(0)] > 0) continue;
              it.barrier();
            }
            for (int s = 0; s < steps; ++s) {
              if (s == 3) break;
              it.barrier();
            }
          });
        }
    """,
    )
    assert lines(found) == [5, 9]


# -- KL301 ------------------------------------------------------------------------------------------

SG32 = """
    void f(sycl::queue &q, float *p, int n) {
      q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
        auto sg = it.get_sub_group();
        sg.store(p, sg.load(p));
      });
      q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] {
        auto sg = it.get_sub_group();
        sg.store(p, sg.load(p));
      });
    }
"""


def test_kl301_flags_block_accesses_at_sub_group_size_32_on_intel_only() -> None:
    found = run(BlockLoadSubGroup32, SG32, "xe-hpc")
    assert [(d.line, d.severity, d.device) for d in found] == [(5, Severity.ERROR, "xe-hpc")] * 2
    assert {d.evidence["direction"] for d in found} == {"load", "store"}
    assert found[0].evidence["occupancy"]["sg16"]["threads_per_work_group"] == 16
    assert run(BlockLoadSubGroup32, SG32, "h100") == []


def test_kl301_offers_an_unsafe_fix_to_sub_group_size_16() -> None:
    diagnostic = run(BlockLoadSubGroup32, SG32, "xe-lp")[0]
    fix = diagnostic.fix
    assert fix is not None and not fix.safe
    (edit,) = fix.edits
    line = textwrap.dedent(SG32).splitlines()[edit.line - 1]
    assert line[edit.column - 1 : edit.end_column - 1] == "32" and edit.text == "16"


def test_kl301_is_silent_when_the_sub_group_size_is_not_a_known_constant() -> None:
    found = run(
        BlockLoadSubGroup32,
        """
        template <int S> void f(sycl::queue &q, float *p, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(S)]] {
            p[0] = it.get_sub_group().load(p);
          });
        }
        void g(sycl::queue &q, float *p, int n, int s) { f<16>(q, p, n); f<32>(q, p, n); }
    """,
    )
    assert found == []


@pytest.mark.parametrize("rule", [DivergentBranch, DivergentBarrier, BlockLoadSubGroup32])
def test_rule_documentation_has_every_section(rule) -> None:
    doc = rule.documentation()
    for section in ("What it does", "Why it matters", "Example", "Fix", "Occupancy basis"):
        assert f"\n{section}\n" in f"\n{doc}"
