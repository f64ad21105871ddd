"""The launch-configuration rules (KL201-KL208) on small sources: findings, thresholds, options from
configuration, and evidence that is exactly the occupancy model's answer."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import run_rule
from kernlint.config import ConfigError, load_config
from kernlint.diagnostics import Severity
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.frontends.cpp.frontend import extract
from kernlint.occupancy import compute, load_device
from kernlint.session import make_setup
from kernlint_rules.data.kl101_buffer_in_loop import BufferInLoop
from kernlint_rules.data.kl207_queue_in_loop import QueueInLoop
from kernlint_rules.launch.kl201_work_group_too_large import WorkGroupTooLarge
from kernlint_rules.launch.kl202_low_occupancy import LowOccupancy
from kernlint_rules.launch.kl203_partial_sub_group import PartialSubGroup
from kernlint_rules.launch.kl204_unsupported_sub_group_size import UnsupportedSubGroupSize
from kernlint_rules.launch.kl205_local_memory_too_large import LocalMemoryTooLarge
from kernlint_rules.launch.kl206_launch_too_small import LaunchTooSmall
from kernlint_rules.launch.kl208_nd_range_not_divisible import NdRangeNotDivisible
from kernlint_rules.launch.limits import work_group_too_large

ALL_RULES = (
    WorkGroupTooLarge,
    LowOccupancy,
    PartialSubGroup,
    UnsupportedSubGroupSize,
    LocalMemoryTooLarge,
    LaunchTooSmall,
    QueueInLoop,
    NdRangeNotDivisible,
)


run = run_rule


def barrier_kernel(local: str, sg: int | None = None, global_: str = "{64, 64, 128}") -> str:
    attribute = f" [[intel::reqd_sub_group_size({sg})]]" if sg else ""
    return f"""
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, float *d) {{
          q.submit([&](sycl::handler &h) {{
            h.parallel_for(sycl::nd_range<3>({global_}, {local}), [=](sycl::nd_item<3> it){attribute} {{
              it.barrier();
              d[it.get_global_linear_id()] = 0.0f;
            }});
          }});
        }}
    """


# -- KL201 ------------------------------------------------------------------------------------------


def test_shared_work_group_limit_check_is_exclusive_at_the_maximum():
    xe_lp = load_device("xe-lp")
    assert work_group_too_large(xe_lp, 512) is None
    finding = work_group_too_large(xe_lp, 513)
    assert finding is not None and finding.maximum == 512 and finding.device == "xe-lp"
    assert "thread_limit(513)" in finding.message("thread_limit(513)") and "fails" in finding.message("x")
    assert work_group_too_large(load_device("h100"), 1024) is None


def test_kl201_guide_r5_fails_on_xe_lp_and_gen9_only():
    code = barrier_kernel("{1, 5, 128}", global_="{64, 80, 128}")
    assert [d.code for d in run(WorkGroupTooLarge, code, "xe-lp")] == ["KL201"]
    assert [d.code for d in run(WorkGroupTooLarge, code, "gen9")] == ["KL201"]
    assert run(WorkGroupTooLarge, code, "xe-hpc") == []
    diagnostic = run(WorkGroupTooLarge, code, "xe-lp")[0]
    assert diagnostic.severity is Severity.ERROR and diagnostic.line == 5
    assert "640 work-items" in diagnostic.message and "512" in diagnostic.message
    assert diagnostic.evidence["occupancy"] == compute(load_device("xe-lp"), wg=(1, 5, 128)).to_json()


def test_kl201_reports_a_lower_bound_when_one_dimension_is_unknown():
    code = """
        void k(sycl::queue &q, float *x, size_t rows, size_t n) {
          q.parallel_for(sycl::nd_range<2>(sycl::range<2>(n, n), sycl::range<2>(rows, 1024)),
                         [=](sycl::nd_item<2> it) { x[0] = 0.0f; });
        }
    """
    (diagnostic,) = run(WorkGroupTooLarge, code, "xe-lp")
    assert "at least 1024" in diagnostic.message and diagnostic.evidence["exact"] is False
    assert run(WorkGroupTooLarge, code.replace("1024", "512"), "xe-lp") == []


def test_kl201_reads_reqd_work_group_size_of_a_functor():
    code = """
        struct K { [[sycl::reqd_work_group_size(8, 8, 8)]] void operator()(sycl::nd_item<3> it) const {} };
        void k(sycl::queue &q) { q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<3>(64, 64, 64), K{}); }); }
    """
    (diagnostic,) = run(WorkGroupTooLarge, code, "gen9")
    assert "reqd_work_group_size(8, 8, 8)" in diagnostic.message
    assert run(WorkGroupTooLarge, code, "xe-lp") == []


# -- KL202 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("device,local", [("xe-lp", "{1, 4, 128}"), ("gen9", "{1, 4, 64}")])
def test_kl202_reproduces_the_guides_57_percent(device, local):
    (diagnostic,) = run(LowOccupancy, barrier_kernel(local, sg=8), device)
    assert "57% occupancy" in diagnostic.message
    assert "3 of 7 per vector engine" in diagnostic.message  # the guide's three unused thread contexts
    assert "Xe-core" in diagnostic.message and "sub-group size 8, required by the kernel" in diagnostic.message
    dims = tuple(int(x) for x in local.strip("{}").split(","))
    assert diagnostic.evidence["occupancy"] == compute(load_device(device), wg=dims, sg=8, barrier=True).to_json()
    assert diagnostic.evidence["occupancy"]["work_groups_per_unit"] == 1


def test_kl202_threshold_is_an_option():
    r4, r2 = barrier_kernel("{1, 4, 128}", sg=8), barrier_kernel("{1, 2, 128}", sg=8)
    assert run(LowOccupancy, r4, "xe-lp", options={"min-occupancy-pct": 57.0}) == []
    assert len(run(LowOccupancy, r4, "xe-lp", options={"min-occupancy-pct": 58.0})) == 1
    assert run(LowOccupancy, r2, "xe-lp") == []  # 85.7 %: the guide's acceptable R = 2
    (diagnostic,) = run(LowOccupancy, r2, "xe-lp", options={"min-occupancy-pct": 90})
    assert diagnostic.evidence["threshold_pct"] == 90.0
    assert diagnostic.evidence["occupancy"]["occupancy_pct"] == pytest.approx(600 / 7)


def test_kl202_needs_a_barrier_or_local_memory():
    code = barrier_kernel("{1, 4, 128}", sg=8).replace("it.barrier();", "")
    assert run(LowOccupancy, code, "xe-lp") == []
    sub_group_only = barrier_kernel("{1, 4, 128}", sg=8).replace(
        "it.barrier();", "sycl::group_barrier(it.get_sub_group());"
    )
    assert run(LowOccupancy, sub_group_only, "xe-lp") == []


def test_kl202_local_memory_round_up_and_assumed_sub_group():
    code = """
        void k(sycl::queue &q, float *o) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 1> t(sycl::range<1>(5120), h);
            h.parallel_for(sycl::nd_range<1>(1 << 20, 256), [=](sycl::nd_item<1> it) { t[0] = o[0]; });
          });
        }
    """
    (diagnostic,) = run(LowOccupancy, code, "xe-hpc")
    report = compute(load_device("xe-hpc"), wg=(256,), slm_bytes=20480)
    assert diagnostic.evidence["occupancy"] == report.to_json()
    assert report.slm_bytes_used == 24 * 1024 and report.limiter == "slm"
    assert "20 KB of local memory is allocated as 24 KB" in diagnostic.message
    assert "sub-group size 32 assumed" in diagnostic.message and diagnostic.evidence["sub_group_assumed"] is True


def test_kl202_uses_sm_wording_on_nvidia():
    (diagnostic,) = run(LowOccupancy, barrier_kernel("{1, 1, 704}", global_="{64, 64, 704}"), "h100")
    assert "one SM" in diagnostic.message and "warp slots" in diagnostic.message and "Xe-core" not in diagnostic.message
    assert diagnostic.evidence["occupancy"]["unit"] == "sm"


def test_kl202_is_silent_when_the_required_sub_group_size_is_unknown():
    code = """
        template <int SG>
        void k(sycl::queue &q, float *d) {
          q.parallel_for(sycl::nd_range<3>({64, 64, 128}, {1, 4, 128}),
                         [=](sycl::nd_item<3> it) [[intel::reqd_sub_group_size(SG)]] { it.barrier(); });
        }
        template void k<8>(sycl::queue &, float *);
        template void k<16>(sycl::queue &, float *);
    """
    assert run(LowOccupancy, code, "xe-lp") == []
    assert len(run(LowOccupancy, code.replace("template void k<16>(sycl::queue &, float *);", ""), "xe-lp")) == 1


# -- KL203 / KL204 ----------------------------------------------------------------------------------


def launch_1d(wg: int, attribute: str = "") -> str:
    return f"""
        void k(sycl::queue &q, float *x, size_t n) {{
          q.parallel_for(sycl::nd_range<1>(n, {wg}), [=](sycl::nd_item<1> it) {attribute} {{ x[0] = 1.0f; }});
        }}
    """


def test_kl203_without_a_required_size_only_when_no_supported_size_divides():
    assert run(PartialSubGroup, launch_1d(48), "xe-hpc") == []  # SIMD16 divides 48
    (diagnostic,) = run(PartialSubGroup, launch_1d(48), "h100")
    assert diagnostic.evidence["idle_lanes"] == 16 and diagnostic.evidence["lanes"] == 64
    (diagnostic,) = run(PartialSubGroup, launch_1d(100), "xe-lp")
    assert diagnostic.evidence["idle_lanes"] == 4 * 32 - 100 and "assumed" in diagnostic.message
    assert diagnostic.evidence["occupancy"] == compute(load_device("xe-lp"), wg=(100,)).to_json()


def test_kl203_with_a_required_size():
    (diagnostic,) = run(PartialSubGroup, launch_1d(48, "[[intel::reqd_sub_group_size(32)]]"), "xe-hpc")
    assert "required by the kernel" in diagnostic.message and "(32 or 64)" in diagnostic.message
    assert run(PartialSubGroup, launch_1d(64, "[[intel::reqd_sub_group_size(32)]]"), "xe-hpc") == []


def test_kl204_per_device_support():
    code = launch_1d(256, "[[intel::reqd_sub_group_size(8)]]")
    assert run(UnsupportedSubGroupSize, code, "xe-lp") == []
    (diagnostic,) = run(UnsupportedSubGroupSize, code, "xe-hpc")
    assert diagnostic.severity is Severity.ERROR and diagnostic.evidence["supported_sub_group_sizes"] == [32, 16]
    assert diagnostic.evidence["occupancy"]["valid"] is False
    assert diagnostic.evidence["occupancy"]["limiter"] == "sub-group-size"
    assert [
        d.code for d in run(UnsupportedSubGroupSize, launch_1d(256, "[[intel::reqd_sub_group_size(16)]]"), "h100")
    ] == ["KL204"]


# -- KL205 ------------------------------------------------------------------------------------------


def local_kernel(count: int, element: str = "float") -> str:
    return f"""
        void k(sycl::queue &q, float *x, size_t n) {{
          q.submit([&](sycl::handler &h) {{
            sycl::local_accessor<{element}, 1> t(sycl::range<1>({count}), h);
            h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {{ t[0] = x[0]; }});
          }});
        }}
    """


def test_kl205_intel_limit_is_exclusive_and_counts_bytes():
    assert run(LocalMemoryTooLarge, local_kernel(16384), "xe-lp") == []  # exactly 64 KB
    (diagnostic,) = run(LocalMemoryTooLarge, local_kernel(16385), "xe-lp")
    assert diagnostic.severity is Severity.ERROR and diagnostic.line == 4
    assert diagnostic.evidence["local_memory_bytes"] == 65540 and diagnostic.evidence["limit_bytes"] == 65536
    assert run(LocalMemoryTooLarge, local_kernel(16385), "xe-hpc") == []
    assert run(LocalMemoryTooLarge, local_kernel(100000, "Opaque"), "xe-lp") == []  # size unknown


def test_kl205_nvidia_default_limit_is_a_warning_and_opt_in_limit_an_error():
    assert run(LocalMemoryTooLarge, local_kernel(12288), "h100") == []  # 48 KB
    (warning,) = run(LocalMemoryTooLarge, local_kernel(12289), "h100")
    assert warning.severity is Severity.WARNING and "SYCL_PI_CUDA_MAX_LOCAL_MEM_SIZE" in warning.message
    (error,) = run(LocalMemoryTooLarge, local_kernel(60 * 1024), "h100")  # 240 KB > 227 KB
    assert error.severity is Severity.ERROR and error.evidence["limit_bytes"] == 232448


# -- KL206 ------------------------------------------------------------------------------------------


VECTOR_ADD2 = """
    template <int groups>
    void add(sycl::queue &q, const int *a, int *s) {
      size_t num_groups = groups;
      size_t wg_size = 512;
      q.submit([&](auto &h) {
        h.parallel_for(sycl::nd_range<1>(num_groups * wg_size, wg_size),
                       [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] { s[0] = a[0]; });
      });
    }
    void run(sycl::queue &q, const int *a, int *s) { add<GROUPS>(q, a, s); }
"""


def test_kl206_vector_add2_of_one_group_is_2_4_percent_of_xe_lp():
    (diagnostic,) = run(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "1"), "xe-lp")
    report = compute(load_device("xe-lp"), wg=(512,), sg=32, global_size=(512,))
    assert diagnostic.evidence["occupancy"] == report.to_json()
    assert report.peak_occupancy_pct == pytest.approx(100 * 16 / 672)
    assert "2.4%" in diagnostic.message and diagnostic.evidence["work_groups_per_full_wave"] == 42


def test_kl206_threshold_and_full_waves():
    assert (
        run(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "1"), "xe-lp", options={"min-gpu-occupancy-pct": 2.0}) == []
    )
    assert run(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "12"), "xe-lp") == []  # 28.6 %
    assert len(run(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "8"), "xe-lp")) == 1  # 19 %
    assert run(LaunchTooSmall, VECTOR_ADD2.replace("GROUPS", "44"), "xe-lp") == []  # more than a wave
    two = VECTOR_ADD2.replace("GROUPS", "1") + "void again(sycl::queue &q, const int *a, int *s) { add<2>(q, a, s); }"
    assert run(LaunchTooSmall, two, "xe-lp") == []  # groups no longer a constant


# -- KL207 / KL208 ----------------------------------------------------------------------------------


def test_kl207_flags_new_contexts_only():
    loop = "void f(sycl::context &ctx, sycl::device d, float *x) {{ for (int i = 0; i < 9; ++i) {{ {body} }} }}"
    (diagnostic,) = run(QueueInLoop, loop.format(body="sycl::queue q;"), None)
    assert diagnostic.device is None and diagnostic.related and "every iteration creates a queue" in diagnostic.message
    assert "default context" in diagnostic.message and "new context" not in diagnostic.message
    assert len(run(QueueInLoop, loop.format(body="sycl::queue q{sycl::gpu_selector_v};"), None)) == 1
    assert run(QueueInLoop, loop.format(body="sycl::queue q(ctx, d);"), None) == []
    assert run(QueueInLoop, loop.format(body="sycl::queue q(d);"), None) == []  # a parameter: not classified
    assert run(QueueInLoop, "void f() { sycl::queue q; for (;;) { q.wait(); } }", None) == []


def test_kl207_skips_loops_that_run_once_but_not_the_loops_around_them():
    once = "void f(float *x) {{ {head} {{ sycl::queue q; q.wait(); }} {tail} }}"
    assert run(QueueInLoop, once.format(head="for (int i = 0; i < 1; ++i)", tail=""), None) == []
    assert run(QueueInLoop, once.format(head="do", tail="while (0);"), None) == []
    assert run(QueueInLoop, once.format(head="for (int i = 0; i <= 0; i++)", tail=""), None) == []
    assert len(run(QueueInLoop, once.format(head="for (int i = 0; i < 2; ++i)", tail=""), None)) == 1
    # the index written in the body: the trip count is not the bounds'
    assert len(run(QueueInLoop, "void f() { for (int i = 0; i < 1; ++i) { sycl::queue q; i -= 1; } }", None)) == 1
    nested = "void f(int n) { for (int r = 0; r < n; ++r) { for (int i = 0; i < 1; ++i) { sycl::queue q; } } }"
    (diagnostic,) = run(QueueInLoop, nested, None)
    assert diagnostic.evidence["loop_line"] == 1 and "`for` loop" in diagnostic.message


def test_kl207_arrays_of_queues_are_information_with_a_shared_context():
    code = """
        void f(sycl::queue *qs, std::vector<sycl::queue> &v, int n) {
          for (int i = 0; i < n; ++i) qs[i] = sycl::queue(sycl::gpu_selector_v);
          for (int i = 0; i < n; ++i) v.emplace_back(sycl::queue(sycl::gpu_selector_v));
          for (int i = 0; i < n; ++i) { sycl::queue *p = new sycl::queue[4]; delete[] p; }
        }
    """
    found = run(QueueInLoop, code, None)
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
    (diagnostic,) = run(QueueInLoop, code, None)
    assert diagnostic.line == 5


def test_kl101_follows_one_call_level_into_the_file_s_own_helpers():
    code = """
        void upload(float *h, size_t n) {
          sycl::buffer<float> in(h, sycl::range<1>(n));
          sycl::buffer<float> out(h + n, sycl::range<1>(n));
        }
        void scratch(size_t n) { sycl::buffer<float> t{sycl::range<1>(n)}; }
        void looped(float *h, size_t n) { for (int i = 0; i < 4; ++i) { sycl::buffer<float> b(h, sycl::range<1>(n)); } }
        void run(float *h, size_t n, int steps) {
          for (int s = 0; s < steps; ++s) { upload(h, n); scratch(n); looped(h, n); }
          for (int once = 0; once < 1; ++once) upload(h, n);
          upload(h, n);
        }
    """
    found = sorted(run(BufferInLoop, code, None), key=lambda d: d.line)
    assert [(d.line, d.evidence.get("callee")) for d in found] == [(7, None), (9, "upload")]
    through = found[1]
    assert through.evidence["buffers"] == 2 and "`upload` is called inside the `for` loop at line 9" in through.message
    assert [r.line for r in through.related] == [9, 3, 4]


def test_kl208_names_the_dimension():
    code = """
        void k(sycl::queue &q, float *x) {
          q.parallel_for(sycl::nd_range<2>({1024, 1000}, {16, 16}), [=](sycl::nd_item<2> it) { x[0] = 0; });
        }
    """
    (diagnostic,) = run(NdRangeNotDivisible, code, None)
    assert diagnostic.evidence["dimension"] == 1 and "1008" in diagnostic.message
    assert run(NdRangeNotDivisible, code.replace("1000", "1008"), None) == []


# -- all rules --------------------------------------------------------------------------------------


def test_options_come_from_configuration(tmp_path: Path):
    (tmp_path / "kernlint.toml").write_text(
        'device = ["xe-lp"]\n[rules.KL202]\n"min-occupancy-pct" = 90\n[rules.KL206]\n"min-gpu-occupancy-pct" = 1.0\n'
    )
    source = tmp_path / "k.cpp"
    source.write_text(textwrap.dedent(barrier_kernel("{1, 2, 128}", sg=8)))
    config = load_config(tmp_path / "kernlint.toml")
    setup = make_setup(config, use_cache=False)
    entries, _ = discover([str(source)], setup.config)
    codes = [d.code for d in analyse_file(entries[0], setup).diagnostics]
    assert codes == ["KL202"]  # 85.7 % is below the configured 90 %
    (tmp_path / "kernlint.toml").write_text('[rules.KL202]\n"min-occupancy-pct" = "high"\n')
    with pytest.raises(ConfigError, match="min-occupancy-pct"):
        make_setup(load_config(tmp_path / "kernlint.toml"), use_cache=False)


@pytest.mark.parametrize("rule_class", ALL_RULES, ids=lambda r: r.code)
def test_rules_survive_broken_source(rule_class):
    broken = """
        void k(sycl::queue &q, float *x) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 1> t(sycl::range<1>(, h);
            h.parallel_for(sycl::nd_range<3>({64, 64, }, {1, 0, 128}), [=](sycl::nd_item<3> it) {
              it.barrier(
          for (int i = 0; i < ; ++i) { sycl::queue q(; }
    """
    for device in ("gen9", "xe-hpc", "h100"):
        run(rule_class, broken, device)


@pytest.mark.parametrize("rule_class", ALL_RULES, ids=lambda r: r.code)
def test_documentation_has_every_section(rule_class):
    doc = rule_class.documentation()
    for section in ("What it does", "Why it matters", "Example", "Fix", "Occupancy basis"):
        assert f"\n{section}\n" in f"\n{doc}", (rule_class.code, section)
    for option in rule_class.options:
        assert option in doc


def test_launch_sizes_from_macros_and_templates_are_stable():
    """Sizes behind a valueless `#define` and a once-instantiated template evaluate the same every time
    (capture lists are not in document order, so names and values must not be paired by position)."""
    code = textwrap.dedent("""
        #define USE_SLM
        #define WG 128
        template <int G>
        void k(sycl::queue &q, float *x) {
          q.parallel_for(sycl::nd_range<2>({G * 64, 64}, {WG / 64, 64}), [=](sycl::nd_item<2> it) { x[0] = 0; });
        }
        template void k<3>(sycl::queue &, float *);
        auto r = sycl::range<1>(7); auto s = sycl::nd_range<1>(8, 8); sycl::buffer<int, 2> b{sycl::range<2>(2, 3)};
    """).encode()
    for _ in range(5):
        (launch,) = extract("t.cpp", code).launches
        assert launch.global_range is not None and launch.global_range.dims == (192, 64)
        assert launch.local_range is not None and launch.local_range.dims == (2, 64)
