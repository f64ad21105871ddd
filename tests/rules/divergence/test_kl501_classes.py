"""KL501 classes by cost and action: severity, estimate and rewrite per class."""

from __future__ import annotations

from conftest import run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.divergence.kl501_divergent_branch import DivergentBranch

KERNEL = """
    #include <sycl/sycl.hpp>
    void f(sycl::queue &q, float *x, const int *idx, int n) {{
      q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {{
        const int i = it.get_global_id(0);
        const int lid = it.get_local_id(0);
        float v = x[i], m = x[0];
        {body}
        x[i] = v + m;
      }});
    }}
"""


def found(body: str, options: dict | None = None) -> list:
    return run_rule(DivergentBranch, KERNEL.format(body=body), device=None, options=options)


def test_a_strict_running_maximum_is_cheap_with_a_safe_std_max_fix() -> None:
    (d,) = found("if (v > m) m = v;")
    assert d.severity is Severity.INFO and d.evidence["class"] == "cheap-arms"
    assert d.fix is not None and d.fix.safe and d.fix.edits[0].text == "m = std::max(m, v);"


def test_a_non_strict_comparison_or_two_arms_of_the_variables_type_gets_a_safe_select() -> None:
    """`m` and `v` are private floats: the select is the branch (it is not std::max: `>=` picks `v`
    for equal values)."""
    (d,) = found("if (v >= m) m = v;")
    assert d.fix is not None and d.fix.safe and d.fix.edits[0].text == "m = (v >= m) ? v : m;"
    (d,) = found("if (idx[i] > 0) v = 1.0f; else v = 2.0f;")
    assert d.fix is not None and d.fix.safe and d.fix.edits[0].text == "v = (idx[i] > 0) ? 1.0f : 2.0f;"
    (d,) = found("if (idx[i] > 0) v = 1.0; else v = 2;")  # through double, back to float: not the same
    assert d.fix is not None and not d.fix.safe and "check the conversion" in d.fix.description


def test_integer_literal_arms_make_a_safe_select() -> None:
    (d,) = found("int f = 0; if (idx[i] > 0) f = 1; else f = 2; v += f;")
    assert d.fix is not None and d.fix.safe and d.fix.edits[0].text == "f = (idx[i] > 0) ? 1 : 2;"


def test_a_comment_inside_the_branch_blocks_the_rewrite() -> None:
    (d,) = found("if (v > m) { /* keep */ m = v; }")
    assert d.fix is None


def test_a_ternary_that_assigns_is_never_told_to_become_a_ternary() -> None:
    (d,) = found("idx[i] > 0 ? (v = 1.0f) : (m = 2.0f);")
    assert d.evidence["class"] == "cheap-arms" and "already a `?:`" in d.message and d.fix is None


def test_a_loop_under_a_leader_test_is_serial_work_with_the_lane_count() -> None:
    (d,) = found("if (lid == 0) { for (int k = 0; k < it.get_local_range(0); ++k) m += x[k]; }")
    assert d.severity is Severity.WARNING and d.evidence["class"] == "serial-leader"
    assert "a loop over the work-group (2 statements with 1 loop) run by 1 of 32 lanes" in d.message.splitlines()[0]
    (d,) = found("constexpr int TILE = 64; if (lid == 0) { for (int k = 0; k < TILE; ++k) m += x[k]; }")
    assert d.severity is Severity.WARNING and "a loop of 64 iterations" in d.message


def test_a_leader_loop_of_unknown_or_short_length_is_trivial_leader_work() -> None:
    """An info: one lane over a count kernlint cannot show is the work-group's (`n`), or a handful of
    values (8 sub-group partial sums), idles the others too briefly to be worth a change."""
    for body in (
        "if (lid == 0) { for (int k = 0; k < n; ++k) m += x[k]; }",
        "if (lid == 0) { for (int k = 0; k < 8; ++k) m += x[k]; x[0] = m; x[1] = m; x[2] = m; x[3] = m; }",
    ):
        (d,) = found(body)
        assert d.severity is Severity.INFO and d.evidence["class"] == "serial-leader", body
        assert "the leader's work is short" in d.message


def test_a_leader_publishing_one_value_is_a_boundary() -> None:
    assert found("if (lid == 0) x[0] = m;") == []
    (d,) = found("if (lid == 0) x[0] = m;", options={"report-boundary": True})
    assert d.severity is Severity.INFO and d.evidence["class"] == "boundary"


def test_heavy_arms_state_both_statement_counts() -> None:
    body = (
        "if (i % 2 == 0) { v += 1; v *= 2; v -= 3; v /= 4; v += 5; v *= 6; } "
        "else { v -= 1; v *= 3; v += 2; v /= 5; v -= 4; }"
    )
    (d,) = found(body)
    assert d.severity is Severity.WARNING and d.evidence["class"] == "heavy-arms"
    assert "both arms, 6 statements and 5 statements, run one after the other" in d.message


def test_a_short_constant_loop_counts_as_its_statements() -> None:
    (d,) = found("if (idx[i] > 0) { for (int k = 0; k < 2; ++k) v += x[k]; }")
    assert d.evidence["class"] == "cheap-arms" and d.evidence["arms"][0] == {"statements": 2, "loops": 0, "calls": 0}


def test_a_data_dependent_trip_count_and_a_bisection_are_inherent() -> None:
    (d,) = found("for (int k = 0; k < idx[i]; ++k) v += x[k];")
    assert d.severity is Severity.INFO and d.evidence["class"] == "inherent"
    found_search = found(
        "int lo = 0, hi = n; while (lo < hi) { int mid = (lo + hi) / 2; "
        "if (x[mid] < v) lo = mid + 1; else hi = mid; } m = lo;"
    )
    assert [(d.evidence["class"], d.severity) for d in found_search] == [
        ("inherent", Severity.INFO),
        ("inherent", Severity.INFO),
    ]


def test_the_first_line_stays_short() -> None:
    body = "if (idx[i] > 0 && idx[i] < n && x[idx[i]] > 0.5f && x[idx[i] + 1] < 0.25f) v = 1.0f;"
    (d,) = found(body)
    assert len(d.message.splitlines()[0]) <= 120


TILE_KERNEL = """
    #include <sycl/sycl.hpp>
    void g(sycl::queue &q, float *out, const float *in, int n, int bands) {{
      q.parallel_for(sycl::nd_range<2>({{64, 64}}, {{16, 16}}), [=](sycl::nd_item<2> item) {{
        const int row = item.get_local_id(0);
        const int col = item.get_local_id(1);
        const int band = (item.get_local_linear_id() % 64) / bands;
        if ({test}) {{
          for (int k = 0; k < n; ++k) out[k] += in[k];
        }}
      }});
    }}
"""


def leader_classes(test: str) -> list[str]:
    found = run_rule(DivergentBranch, TILE_KERNEL.format(test=test), device=None, options={"report-boundary": True})
    return [d.evidence.get("class", "") for d in found]


def test_one_lane_is_a_test_on_the_fastest_dimension_only() -> None:
    # Consecutive work-items, and so a sub-group's lanes, run along the last dimension of a range.
    assert leader_classes("col == 0") == ["serial-leader"]
    assert "serial-leader" not in leader_classes("row == 0")  # a whole row of lanes


def test_a_quotient_of_an_id_selects_a_band_of_lanes() -> None:
    assert "serial-leader" not in leader_classes("band == 2")


def test_a_tree_step_written_as_a_call_on_an_element_is_a_reduction() -> None:
    """`accumulate(&s[lid], s[lid + d])` combines elements of one array as `s[lid] += s[lid + d]` does:
    behind a barrier each step, a tree reduction worth a sub-group reduction."""
    source = """
        #include <sycl/sycl.hpp>
        inline void accumulate(float *into, float v) { *into = sycl::log(sycl::exp(*into) + sycl::exp(v)); }
        void f(sycl::queue &q, float *x, int n) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 1> s(128, h);
            h.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
              const int lid = it.get_local_id(0);
              s[lid] = x[it.get_global_id(0)];
              for (int d = 64; d > 0; d /= 2) {
                it.barrier();
                if (lid < d)
                  accumulate(&s[lid], s[lid + d]);
              }
            });
          });
        }
    """
    (d,) = run_rule(DivergentBranch, source, device=None)
    assert d.severity is Severity.WARNING and d.evidence["class"] == "tree-reduction"
