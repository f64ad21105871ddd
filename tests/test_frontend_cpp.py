"""Facts the tree-sitter C/C++ front-end extracts from tricky but real SYCL and OpenMP shapes."""

from __future__ import annotations

import textwrap

from kernlint.frontends.cpp.frontend import extract


def facts_of(code: str, **kwargs):
    return extract("t.cpp", textwrap.dedent(code).encode(), **kwargs)


def test_handler_launch_with_nd_range_variables_and_lambda_attribute() -> None:
    facts = facts_of("""
        constexpr int N = 4096;
        #define WG 128
        void f(sycl::queue &q) {
          sycl::range<1> global(N);
          sycl::range<1> local{WG};
          q.submit([&](sycl::handler &cgh) {
            cgh.parallel_for<class Saxpy>(sycl::nd_range<1>(global, local),
                [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] { it.barrier(); });
          });
        }
    """)
    (launch,) = facts.launches
    assert (launch.api, launch.via, launch.name, launch.range_kind) == ("parallel_for", "handler", "Saxpy", "nd_range")
    assert launch.global_range.dims == (4096,) and launch.local_range.dims == (128,)
    assert launch.attributes.reqd_sub_group_size == 16
    assert (launch.index_param, launch.index_type, launch.body_kind) == ("it", "nd_item", "lambda")
    assert launch.command_group is not None and launch.function == "f"
    (barrier,) = facts.barriers
    assert barrier.scope == "work-group"


def test_queue_shortcut_scalar_range_and_sycl_spelling_of_attributes() -> None:
    facts = facts_of("""
        void g(sycl::queue &q, float *x, size_t n) {
          q.parallel_for(1024, [=](sycl::id<1> i) [[sycl::reqd_work_group_size(64)]] { x[i] = 0; });
          q.parallel_for(sycl::range<2>(n, 8), [=](sycl::item<2> it) { });
          q.single_task([=]() [[intel::kernel_args_restrict]] { x[0] = 1; });
        }
    """)
    scalar, two_d, single = facts.launches
    assert scalar.via == "queue" and scalar.range_kind == "scalar" and scalar.global_range.dims == (1024,)
    assert scalar.attributes.reqd_work_group_size.dims == (64,)
    assert two_d.global_range.dims == (None, 8) and two_d.global_range.total is None
    assert single.api == "single_task" and single.attributes.kernel_args_restrict


def test_functor_kernel_with_attribute_on_operator() -> None:
    facts = facts_of("""
        struct Blur {
          sycl::accessor<float, 1, sycl::access::mode::read> in;
          [[intel::reqd_sub_group_size(32)]] void operator()(sycl::nd_item<1> it) const { }
        };
        void h(sycl::queue &q, Blur blur) {
          q.submit([&](sycl::handler &h) {
            h.parallel_for(sycl::nd_range<1>{sycl::range<1>{512}, sycl::range<1>{256}}, Blur{});
            Blur named{};
            h.parallel_for(sycl::nd_range<1>(512, 32), named);
          });
        }
    """)
    first, second = facts.launches
    assert first.body_kind == "functor" and first.name == "Blur"
    assert first.attributes.reqd_sub_group_size == 32
    assert first.global_range.dims == (512,) and first.local_range.dims == (256,)
    assert second.body_kind == "functor" and second.local_range.dims == (32,)


def test_lambda_kernel_stored_in_a_variable() -> None:
    facts = facts_of("""
        void k(sycl::queue &q, int *p) {
          auto body = [=](sycl::id<1> i) [[intel::reqd_sub_group_size(8)]] { p[i] = 1; };
          q.parallel_for(sycl::range<1>(64), body);
        }
    """)
    (launch,) = facts.launches
    assert launch.body_kind == "lambda" and launch.attributes.reqd_sub_group_size == 8


def test_accessor_forms_modes_and_properties() -> None:
    facts = facts_of("""
        void a(sycl::queue &q, sycl::buffer<int> &b, sycl::buffer<int> &c) {
          q.submit([&](sycl::handler &h) {
            sycl::accessor r(b, h, sycl::read_only);
            sycl::accessor w{c, h, sycl::write_only, sycl::no_init};
            sycl::accessor<int, 1, sycl::access::mode::discard_write> d(c, h);
            auto old = b.get_access<sycl::access::mode::read_write>(h);
            auto tagged = c.get_access(h, sycl::write_only, sycl::property_list{sycl::no_init});
            auto dflt = b.template get_access<sycl::access_mode::read>(h);
            sycl::accessor plain(b, h);
          });
          sycl::host_accessor ha(b, sycl::read_only);
          auto legacy_host = b.get_access<sycl::access::mode::read>();
        }
    """)
    by_name = {a.name: a for a in facts.accessors}
    assert by_name["r"].mode == "read" and by_name["r"].buffer == "b" and by_name["r"].form == "constructor"
    assert by_name["w"].mode == "write" and by_name["w"].properties == ("no_init",)
    assert by_name["d"].mode == "discard_write"
    assert by_name["old"].mode == "read_write" and by_name["old"].form == "get_access"
    assert by_name["old"].mode_spelling == "sycl::access::mode::read_write"
    assert by_name["tagged"].mode == "write" and "no_init" in by_name["tagged"].properties
    assert by_name["dflt"].mode == "read"
    assert by_name["plain"].mode is None  # defaults to read_write
    assert by_name["ha"].target == "host" and by_name["legacy_host"].target == "host"
    assert all(by_name[n].command_group is not None for n in ("r", "w", "d", "old", "tagged", "dflt", "plain"))


def test_local_memory_sizes() -> None:
    facts = facts_of("""
        constexpr int TILE = 16;
        void l(sycl::handler &h) {
          sycl::local_accessor<float, 2> tile(sycl::range<2>(TILE, TILE + 1), h);
          sycl::accessor<double, 1, sycl::access::mode::read_write, sycl::access::target::local>
              scratch(sycl::range<1>(64), h);
          sycl::local_accessor<int, 1> unknown(sycl::range<1>(h_size), h);
        }
    """)
    sizes = {a.name: a.bytes for a in facts.local_allocations}
    assert sizes == {"tile": 16 * 17 * 4, "scratch": 64 * 8, "unknown": None}
    assert not facts.accessors


def test_local_memory_element_spellings() -> None:
    """Element types are sized however they are qualified (the same `type_size` as everywhere else)."""
    facts = facts_of("""
        void l(cl::sycl::handler &h) {
          cl::sycl::accessor<cl::sycl::half, 1, cl::sycl::access::mode::read_write, cl::sycl::access::target::local>
              halves(cl::sycl::range<1>(32), h);
          sycl::local_accessor<std::uint16_t, 1> shorts(sycl::range<1>(8), h);
          sycl::local_accessor<float4, 1> vectors(sycl::range<1>(8), h);
        }
    """)
    sizes = {a.name: a.bytes for a in facts.local_allocations}
    assert sizes == {"halves": 32 * 2, "shorts": 8 * 2, "vectors": None}


def test_loops_are_classified_host_or_device() -> None:
    facts = facts_of("""
        void m(sycl::queue &q) {
          for (int i = 0; i < 3; ++i) {
            q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> j) { for (int k = 0; k < 4; ++k) {} });
          }
          while (true) { break; }
        }
    """)
    sides = sorted((loop.kind, loop.side) for loop in facts.loops)
    assert sides == [("for", "device"), ("for", "host"), ("while", "host")]


def test_pragmas_with_continuations_and_language() -> None:
    facts = facts_of("""
        void saxpy(float *x, float *y, int n) {
        #pragma omp target teams distribute parallel for \\
            map(to: x[0:n]) map(tofrom: y[0:n]) thread_limit(256)
          for (int i = 0; i < n; ++i) y[i] += 2.0f * x[i];
        }
    """)
    (pragma,) = facts.pragmas
    assert facts.language == "openmp-c"
    assert pragma.text.startswith("omp target teams distribute parallel for") and "thread_limit(256)" in pragma.text
    assert pragma.span.line == 3


def test_syntax_errors_stay_local() -> None:
    facts = facts_of("""
        SYCL_EXTERNAL int helper(int * const __restrict p);
        void broken( {
        void ok(sycl::queue &q) {
          for (int i = 0; i < 2; ++i) { sycl::buffer<int> b(sycl::range<1>(4)); }
        }
    """)
    assert facts.syntax_errors
    assert [b.name for b in facts.buffers] == ["b"]


def test_template_argument_sizes_from_instantiation() -> None:
    facts = facts_of("""
        template <int WG>
        void launch(sycl::queue &q) {
          q.parallel_for(sycl::nd_range<1>(WG * 32, WG), [=](sycl::nd_item<1> it) {});
        }
        void run(sycl::queue &q) { launch<256>(q); }
    """)
    (launch,) = facts.launches
    assert launch.global_range.dims == (8192,) and launch.local_range.dims == (256,)


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


def test_if0_blocks_are_dead_code_but_else_branches_live() -> None:
    facts = facts_of("""
        void f(float *p) {
        #if 0
          for (;;) { sycl::buffer<float> dead(p, sycl::range<1>(1)); {{{
        #if FOO
        #endif
        #else
          for (;;) { sycl::buffer<float> live(p, sycl::range<1>(1)); }
        #endif
        }
    """)
    assert [b.name for b in facts.buffers] == ["live"] and not facts.syntax_errors
    assert facts.buffers[0].span.line == 8


def test_parallel_for_of_other_libraries_is_not_sycl() -> None:
    pool = """
        #include <tbb/parallel_for.h>
        struct Pool { template <class F> void parallel_for(int n, F f); };
        void f(Pool &p, float *x) {
          p.parallel_for(64, [&](int i) { x[i] = 0; });
          tbb::parallel_for(0, 64, [&](int i) { x[i] = 1; });
        }
    """
    assert facts_of(pool).language == "cpp"
    assert facts_of(pool.replace("[&](int i) { x[i] = 0; }", "[&](id<1> i) { x[i] = 0; }")).language == "sycl"
    assert facts_of("void k(nd_item<1> it);").language == "sycl"  # a kernel header without `sycl::`


def test_a_lone_carriage_return_ends_a_line() -> None:
    from kernlint.source import SourceFile

    data = b"// old editor\r  for (int i = 0; i < n; ++i) {\n    sycl::queue q;\n  }\n"
    source = SourceFile("t.cpp", data)
    facts = extract("t.cpp", source.data)
    (loop,) = facts.loops
    (queue,) = facts.queues
    assert (loop.span.line, queue.span.line) == (2, 3) and len(source.data) == len(data)
    assert source.line_text(2).startswith("  for") and source.position(data.index(b"sycl")) == (3, 5)


def test_calls_of_buffer_building_helpers_inside_loops() -> None:
    facts = facts_of("""
        void upload(sycl::queue &q, float *h, size_t n) { sycl::buffer<float> b(h, sycl::range<1>(n)); }
        void scratch(size_t n) { sycl::buffer<float> t{sycl::range<1>(n)}; }
        void run(sycl::queue &q, float *h, size_t n, int steps) {
          for (int s = 0; s < steps; ++s) { upload(q, h, n); scratch(n); }
          upload(q, h, n);
        }
    """)
    assert [(c.callee, c.span.line) for c in facts.calls] == [("upload", 5)]
    assert [b.function for b in facts.buffers] == ["upload", "scratch"]


def test_pragma_operator_and_macro_directives() -> None:
    facts = facts_of("""
        #define OFFLOAD_LOOP _Pragma("omp target teams distribute parallel for thread_limit(64)")
        #define CLAUSES simd simdlen(8)
        void f(float *x, int n) {
          OFFLOAD_LOOP
          for (int i = 0; i < n; ++i) x[i] = 0;
          _Pragma("omp target teams distribute parallel for")
          for (int i = 0; i < n; ++i) x[i] = 1;
        #pragma omp target teams distribute parallel for CLAUSES
          for (int i = 0; i < n; ++i) x[i] = 2;
        #pragma omp BUILD_DEFINED_DIRECTIVE
          for (int i = 0; i < n; ++i) x[i] = 3;
        }
    """)
    assert not facts.syntax_errors
    kinds = [(c.span.line, c.kind, c.region is not None, bool(c.loops)) for c in facts.omp]
    assert kinds == [
        (5, "target teams distribute parallel for", True, True),
        (7, "target teams distribute parallel for", True, True),
        (9, "target teams distribute parallel for simd", True, True),
    ]
    assert facts.omp[0].directive.clause("thread_limit") is not None
