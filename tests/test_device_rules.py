"""Device code reach and sub-group block accesses: the facts KL501, KL502 and KL301 are built on (their
tests are in tests/rules/divergence/ and tests/rules/launch/)."""

from __future__ import annotations

import textwrap

from kernlint.frontends.cpp.frontend import extract


def facts_of(code: str):
    return extract("t.cpp", textwrap.dedent(code).encode())


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
