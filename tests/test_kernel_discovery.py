"""Kernels found wherever they are written (issue 20): launches linked to kernels passed by name,
built by factories, handed to wrappers, constructed as functors, defined in quoted headers; SYCL's
free-function launches; kernels found by what they are, with no launch in the file."""

from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import CORPUS
from kernlint.config import Config
from kernlint.discovery import discover
from kernlint.engine import analyse_file
from kernlint.frontends.cpp.frontend import extract
from kernlint.session import make_setup


def facts_of(code: str, path: str = "t.cpp"):
    return extract(path, textwrap.dedent(code).encode())


def launched(facts):
    return [launch for launch in facts.launches if launch.launched]


def unlaunched(facts):
    return [launch for launch in facts.launches if not launch.launched]


def test_a_lambda_returned_by_a_factory_is_the_kernel_of_the_launch_that_names_its_result() -> None:
    facts = facts_of("""
        template <typename T>
        auto make_kernel(sycl::handler &cgh, T *a, int n) {
          return [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] { a[it.get_global_id(0)] = n; };
        }
        auto make_stored(float *a) {
          auto kernel = [=](sycl::item<1> it) { a[it] = 0; };
          return kernel;
        }
        void run(sycl::queue &q, float *a) {
          q.submit([&](sycl::handler &cgh) {
            auto k = make_kernel(cgh, a, 3);
            cgh.parallel_for(sycl::nd_range<1>(1024, 64), k);
          });
          q.parallel_for(sycl::range<1>(8), make_stored(a));
        }
    """)
    first, second = launched(facts)
    assert (first.link, first.body_kind, first.index_type) == ("factory", "lambda", "nd_item")
    assert first.attributes.reqd_sub_group_size == 16  # the kernel's attribute, with the launch's sizes
    assert first.local_range.dims == (64,)
    assert (second.link, second.index_type) == ("factory", "item")
    assert facts.coverage.launches == 2 and facts.coverage.kernels == 2 and not facts.coverage.unseen


def test_a_wrapper_parameter_is_linked_to_the_kernel_each_caller_passes_and_the_sizes_go_once() -> None:
    facts = facts_of("""
        template <class K>
        void submit(sycl::queue &q, const K &kernel) {
          q.parallel_for(sycl::nd_range<1>(4096, 128), kernel);
        }
        void run(sycl::queue &q, int *out) {
          submit(q, [=](sycl::nd_item<1> it) { out[0] = 1; });
          auto stored = [=](sycl::nd_item<1> it) { out[1] = 2; };
          submit(q, stored);
        }
    """)
    first, second = launched(facts)
    assert first.span == second.span  # one launch, two kernels
    assert (first.link, second.link) == ("wrapper", "wrapper")
    assert first.body != second.body
    assert first.local_range.dims == (128,) and second.local_range is None  # what the launch gets wrong: once
    assert facts.coverage.launches == 1 and facts.coverage.kernels == 2


def test_a_wrapper_nobody_calls_leaves_its_launch_unresolved_with_the_reason() -> None:
    facts = facts_of("""
        template <class K>
        void submit(sycl::queue &q, K kernel) { q.parallel_for(sycl::range<1>(64), kernel); }
    """)
    (launch,) = launched(facts)
    assert launch.body is None and launch.link is None
    (unseen,) = facts.coverage.unseen
    assert "`kernel` is a parameter of `submit`" in unseen.reason and unseen.span.line == 3


def test_functors_constructed_in_variables_and_temporaries() -> None:
    facts = facts_of("""
        struct Scale {
          float *p;
          void operator()(sycl::nd_item<1> it) const { p[it.get_global_id(0)] *= 2; }
        };
        void run(sycl::queue &q, float *p) {
          Scale s{p};
          q.parallel_for(sycl::nd_range<1>(64, 64), s);
          auto t = Scale{p};
          q.parallel_for(sycl::nd_range<1>(64, 64), t);
          q.parallel_for(sycl::nd_range<1>(64, 64), Scale{p});
        }
    """)
    assert [(launch.link, launch.name, launch.body_kind) for launch in launched(facts)] == [
        ("functor", "Scale", "functor"),
        ("functor", "Scale", "functor"),
        ("functor", "Scale", "functor"),
    ]
    assert facts.coverage.kernels == 1  # one operator(), launched three times


def test_a_functor_or_factory_of_a_quoted_header_resolves_the_launch_there(tmp_path: Path) -> None:
    (tmp_path / "kernels.hpp").write_text(
        "struct Fill { float *p; void operator()(sycl::nd_item<1> it) const { p[0] = 0; } };\n"
        "inline auto make_fill(float *p) { return [=](sycl::nd_item<1> it) { p[0] = 1; }; }\n"
    )
    (tmp_path / "k.hpp").write_text('#include "kernels.hpp"\n')
    main = tmp_path / "main.cpp"
    main.write_text(
        '#include "k.hpp"\n'
        "void run(sycl::queue &q, float *p) {\n"
        "  Fill f{p};\n"
        "  q.parallel_for(sycl::nd_range<1>(64, 64), f);\n"
        "  q.parallel_for(sycl::nd_range<1>(64, 64), make_fill(p));\n"
        "  q.parallel_for(sycl::nd_range<1>(64, 64), Missing{p});\n"
        "}\n"
    )
    facts = extract(str(main), main.read_bytes())
    fill, make, missing = launched(facts)
    assert (fill.link, fill.link_note, make.link, make.link_note) == ("header", "k.hpp", "header", "k.hpp")
    assert missing.link is None and "`Missing(…)` is not defined in this file or its quoted headers" in (
        missing.link_note or ""
    )
    assert facts.coverage.launches == 3 and len(facts.coverage.unseen) == 1 and facts.coverage.kernels == 0


def test_free_function_launches_of_the_enqueue_extension_count_but_other_libraries_do_not() -> None:
    facts = facts_of("""
        namespace syclex = sycl::ext::oneapi::experimental;
        void run(sycl::queue &q, float *p, size_t n) {
          syclex::parallel_for(q, sycl::nd_range<1>(n, 2048), [=](sycl::nd_item<1> it) { p[0] = 0; });
          sycl::ext::oneapi::experimental::nd_launch(q, syclex::launch_config(sycl::nd_range<1>(n, 64)),
                                                     [=](sycl::nd_item<1> it) { p[1] = 0; });
          syclex::single_task(q, [=]() { p[2] = 0; });
          Kokkos::parallel_for("k", n, [=](int i) { p[i] = 0; });
          tbb::parallel_for(0, 8, [&](int i) { p[i] = 1; });
        }
    """)
    apis = [
        (launch.api, launch.via, launch.local_range.dims if launch.local_range else None) for launch in launched(facts)
    ]
    assert apis == [
        ("parallel_for", "queue", (2048,)),
        ("parallel_for", "queue", (64,)),
        ("single_task", "queue", None),
    ]


def test_a_free_call_to_a_wrapper_the_file_defines_is_not_a_launch_of_its_own() -> None:
    facts = facts_of("""
        template <class K> void parallel_for(sycl::queue &q, size_t n, K k) { q.parallel_for(n, k); }
        void run(sycl::queue &q, float *p) { parallel_for(q, 64, [=](sycl::id<1> i) { p[i] = 0; }); }
    """)
    (launch,) = launched(facts)
    assert launch.span.line == 2 and launch.link == "wrapper"


def test_kernels_by_what_they_are_without_a_launch_in_the_file() -> None:
    facts = facts_of("""
        #include <sycl/sycl.hpp>
        inline float reduce(float v, const sycl::nd_item<1> &item) {
          if (item.get_local_id(0) & 1) item.barrier();
          return v;
        }
        void kernel(float *out, const sycl::nd_item<1> &item) { out[0] = reduce(out[0], item); }
        struct Step { void operator()(sycl::nd_item<2> it) const {} };
        auto stored = [](sycl::id<1> i) {};
        void host_helper(sycl::id<1> origin) {}
        void not_sycl(item it, group g) {}
    """)
    found = [(launch.name, launch.body_kind, launch.index_type, launch.api) for launch in unlaunched(facts)]
    # `reduce` is `kernel`'s code (written before it), not a kernel; a host function may take an `id`;
    # an `item` spelled neither as SYCL's nor with its dimensions may be anyone's class.
    assert found == [
        ("kernel", "function", "nd_item", "parallel_for"),
        ("Step", "functor", "nd_item", "parallel_for"),
        (None, "lambda", "id", "parallel_for"),
    ]
    kernel = unlaunched(facts)[0]
    assert len(kernel.regions) == 2  # its body and the helper it calls
    (branch,) = facts.branches
    assert branch.function == "reduce"  # named as the helper it is
    assert facts.barriers and facts.coverage.launches == 0 and facts.coverage.kernels == 3


def test_code_inside_a_launched_kernel_is_not_a_kernel_of_its_own() -> None:
    facts = facts_of("""
        void run(sycl::queue &q, float *p) {
          q.submit([&](sycl::handler &h) {
            h.parallel_for_work_group(sycl::range<1>(8), sycl::range<1>(64), [=](sycl::group<1> g) {
              g.parallel_for_work_item([&](sycl::h_item<1> i) { p[i.get_global_id(0)] = 0; });
            });
          });
        }
    """)
    assert len(facts.launches) == 1 and facts.coverage.kernels == 1


def test_sizes_flow_from_the_launch_to_a_factory_kernel() -> None:
    """The corpus's factory-made functor returns early before its barrier: KL502 names the launch's
    work-group size (64), which only the launch site says."""
    path = CORPUS / "sycl" / "cov_kernel_factories.cpp"
    setup = make_setup(Config(root=str(CORPUS)), use_cache=False)
    entries, _ = discover([str(path)], setup.config)
    result = analyse_file(entries[0], setup)
    (early,) = [d for d in result.diagnostics if d.code == "KL502" and d.line == 51]
    assert "64 here" in early.message
    assert result.coverage is not None and (result.coverage.launches, result.coverage.kernels) == (4, 4)


def test_accessors_passed_to_a_factory_are_not_judged_against_the_kernel_it_returns() -> None:
    """The factory's lambda names the accessor by its parameter's name: what the command group's name
    is used for there is not known, so KL102/KL103 have nothing to say about it."""
    facts = facts_of("""
        auto make(sycl::accessor<float, 1, sycl::access::mode::read_write> a) {
          return [=](sycl::id<1> i) { a[i] = 0; };
        }
        void run(sycl::queue &q, sycl::buffer<float> &b) {
          q.submit([&](sycl::handler &cgh) {
            sycl::accessor acc(b, cgh, sycl::read_write);
            auto k = make(acc);
            cgh.parallel_for(sycl::range<1>(64), k);
          });
        }
    """)
    (accessor,) = [a for a in facts.accessors if a.name == "acc"]
    assert accessor.uses is None
