"""KL301 block-load-sg32: block accesses at sub-group size 32 on Intel only, its unsafe fix to 16, and
the occupancy at 16 it quotes as its cost."""

from __future__ import annotations

import textwrap

import pytest

from conftest import CORPUS, run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.launch.kl301_block_load_sg32 import BlockLoadSubGroup32
from rule_helpers import cost_at

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
    found = run_rule(BlockLoadSubGroup32, SG32, "xe-hpc")
    assert [(d.line, d.severity, d.device) for d in found] == [(5, Severity.ERROR, "xe-hpc")] * 2
    assert {d.evidence["direction"] for d in found} == {"load", "store"}
    assert found[0].evidence["occupancy"]["sg16"]["threads_per_work_group"] == 16
    assert run_rule(BlockLoadSubGroup32, SG32, "h100") == []


def test_kl301_offers_an_unsafe_fix_to_sub_group_size_16() -> None:
    diagnostic = run_rule(BlockLoadSubGroup32, SG32, "xe-lp")[0]
    fix = diagnostic.fix
    assert fix is not None and not fix.safe
    (edit,) = fix.edits
    line = textwrap.dedent(SG32).splitlines()[edit.line - 1]
    assert line[edit.column - 1 : edit.end_column - 1] == "32" and edit.text == "16"


def test_kl301_is_silent_when_the_sub_group_size_is_not_a_known_constant() -> None:
    found = run_rule(
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


def test_kl301_occupancy_at_sub_group_16() -> None:
    # work-group 256 on xe-hpc: at sub-group 16, 256/16 = 16 threads; 64 threads per Xe-core hold 4
    # work-groups: 64/64 = 100 %. (At 32: 8 threads, 8 work-groups, also 100 %.)
    cost = cost_at(CORPUS / "sycl" / "kl301_block_loads.cpp", 14, "KL301")
    assert cost.value == pytest.approx(100.0) and cost.score == 1.0
    assert cost.figures["sg16"]["threads_per_work_group"] == 256 // 16
