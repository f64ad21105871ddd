"""KL207 queue-in-loop: new contexts only, loops that run once, arrays of queues, `#ifdef` arms, and a
cost the device model cannot put a number on."""

from __future__ import annotations

from conftest import CORPUS, run_rule
from kernlint.diagnostics import Severity
from kernlint_rules.data.kl207_queue_in_loop import QueueInLoop
from rule_helpers import cost_at


def test_kl207_flags_new_contexts_only():
    loop = "void f(sycl::context &ctx, sycl::device d, float *x) {{ for (int i = 0; i < 9; ++i) {{ {body} }} }}"
    (diagnostic,) = run_rule(QueueInLoop, loop.format(body="sycl::queue q;"), None)
    assert diagnostic.device is None and diagnostic.related and "every iteration creates a queue" in diagnostic.message
    assert "default context" in diagnostic.message and "new context" not in diagnostic.message
    assert len(run_rule(QueueInLoop, loop.format(body="sycl::queue q{sycl::gpu_selector_v};"), None)) == 1
    assert run_rule(QueueInLoop, loop.format(body="sycl::queue q(ctx, d);"), None) == []
    assert run_rule(QueueInLoop, loop.format(body="sycl::queue q(d);"), None) == []  # a parameter: not classified
    assert run_rule(QueueInLoop, "void f() { sycl::queue q; for (;;) { q.wait(); } }", None) == []


def test_kl207_skips_loops_that_run_once_but_not_the_loops_around_them():
    once = "void f(float *x) {{ {head} {{ sycl::queue q; q.wait(); }} {tail} }}"
    assert run_rule(QueueInLoop, once.format(head="for (int i = 0; i < 1; ++i)", tail=""), None) == []
    assert run_rule(QueueInLoop, once.format(head="do", tail="while (0);"), None) == []
    assert run_rule(QueueInLoop, once.format(head="for (int i = 0; i <= 0; i++)", tail=""), None) == []
    assert len(run_rule(QueueInLoop, once.format(head="for (int i = 0; i < 2; ++i)", tail=""), None)) == 1
    # the index written in the body: the trip count is not the bounds'
    assert len(run_rule(QueueInLoop, "void f() { for (int i = 0; i < 1; ++i) { sycl::queue q; i -= 1; } }", None)) == 1
    nested = "void f(int n) { for (int r = 0; r < n; ++r) { for (int i = 0; i < 1; ++i) { sycl::queue q; } } }"
    (diagnostic,) = run_rule(QueueInLoop, nested, None)
    assert diagnostic.evidence["loop_line"] == 1 and "`for` loop" in diagnostic.message


def test_kl207_arrays_of_queues_are_information_with_a_shared_context():
    code = """
        void f(sycl::queue *qs, std::vector<sycl::queue> &v, int n) {
          for (int i = 0; i < n; ++i) qs[i] = sycl::queue(sycl::gpu_selector_v);
          for (int i = 0; i < n; ++i) v.emplace_back(sycl::queue(sycl::gpu_selector_v));
          for (int i = 0; i < n; ++i) { sycl::queue *p = new sycl::queue[4]; delete[] p; }
        }
    """
    found = run_rule(QueueInLoop, code, None)
    assert [d.severity for d in found] == [Severity.INFO] * 3
    assert [d.evidence["element_of"] for d in found] == ["qs[i]", "v", "p"]
    assert all("one `sycl::context`" in d.message for d in found)


def test_kl207_reports_a_queue_once_across_ifdef_arms():
    code = """
        void f(int n) {
          for (int i = 0; i < n; ++i) {
        #ifdef USE_GPU
            sycl::queue q{sycl::gpu_selector_v};
        #else
            sycl::queue q{sycl::cpu_selector_v};
        #endif
            q.wait();
          }
        }
    """
    (diagnostic,) = run_rule(QueueInLoop, code, None)
    assert diagnostic.line == 5


def test_kl207_names_what_the_model_lacks() -> None:
    cost = cost_at(CORPUS / "sycl" / "kl207_queue_in_loop.cpp", 11, "KL207")
    assert cost.value is None and "queue creation time" in cost.missing[0]
