"""Accessor-usage facts on tricky shapes: kinds of use, escapes, helpers and functors, whole-buffer
writes, extents, mode spellings. The accessor rules built on them are tested in tests/rules/data/."""

from __future__ import annotations

import textwrap

import pytest

from accessor_kernels import PRELUDE, counts, facts_of, in_kernel, syntax_of, uses_by_name, uses_of
from kernlint.frontends.cpp.frontend import extract

# -- kinds of use ----------------------------------------------------------------------------------


def test_reads_writes_and_read_modify_writes_are_told_apart() -> None:
    uses = uses_by_name(
        in_kernel(
            "a[i] = a[i] + 1.0f; b[i] += 2.0f; ++c[i]; d[i] = 3.0f; e[i] = a[i] * 2.0f; float x = f[i]; (void)x;",
            "".join(f"    sycl::accessor {n}(b{k}, h, sycl::read_write);\n" for k, n in enumerate("abcdef")),
        )
    )
    assert counts(uses["a"]) == (1, 0, 1, False, False)  # the `a[i]` on the right of `a[i] = a[i] + 1` is folded in
    assert counts(uses["b"]) == (0, 0, 1, False, False)
    assert counts(uses["c"]) == (0, 0, 1, False, False)
    assert counts(uses["d"]) == (0, 1, 0, False, False)
    assert counts(uses["e"]) == (0, 1, 0, False, False) and uses["e"].only_written
    assert counts(uses["f"]) == (1, 0, 0, False, False) and uses["f"].only_read


def test_atomics_in_every_spelling() -> None:
    uses = uses_by_name(
        in_kernel(
            "sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> r(a[0]);\n"
            "r += 1.0f;\n"
            "sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device>(b[i]).fetch_add(1.0f);\n"
            "c[i].fetch_add(1);\n"
            "float y = d[i];\n"
            "e[i].store(e[0].load());",  # SYCL 1.2.1 atomic accessors: `load` and `store` are atomic accesses too
            "".join(f"    sycl::accessor {n}(b{k}, h, sycl::read_write);\n" for k, n in enumerate("abcde")),
        )
    )
    assert uses["a"].atomic and uses["b"].atomic and uses["c"].atomic
    assert not uses["d"].atomic and uses["d"].only_read
    assert uses["e"].atomic and not uses["e"].escapes


@pytest.mark.parametrize(
    "body, reason",
    [
        ("float *p = a.get_pointer(); p += 1; p[i] = 0.0f;", "raw pointer moved"),
        ("float *p; p = a.get_pointer(); p[i] = 0.0f;", "raw pointer assigned"),
        ("float *p = &a[i]; *p = 0.0f;", "address"),
        ("external(a, i);", "undefined function"),
        ("opaque(a[i]);", "element to unknown function"),
        ("auto copy = a; copy[i] = 1.0f;", "copy"),
        ("float &r = a[i]; r = 1.0f;", "non-const reference"),
        ("for (float x : a) (void)x;", "range-for"),
        ("int a = 3; (void)a;", "shadowing declaration"),
        ("auto g = [b = a](size_t k) { return b[k]; }; (void)g;", "init-capture"),
    ],
)
def test_what_the_analysis_cannot_follow_escapes(body: str, reason: str) -> None:
    uses = uses_by_name(
        in_kernel(
            body,
            "    sycl::accessor a(b0, h, sycl::read_write);",
            before="void external(sycl::accessor<float, 1> acc, sycl::id<1> at);",
        )
    )
    assert uses["a"].escapes, reason
    assert not uses["a"].only_read and not uses["a"].only_written


def test_size_queries_and_const_references_are_not_escapes() -> None:
    uses = uses_by_name(
        in_kernel(
            "const float &x = a[i]; float y = sycl::sqrt(a[i]) + std::max(a[i], 0.0f);"
            " (void)a.size(); (void)x; (void)y;",
            "    sycl::accessor a(b0, h, sycl::read_write);",
        )
    )
    assert uses["a"].only_read and uses["a"].reads == 3


def test_use_in_the_command_group_outside_the_kernel_escapes_but_get_range_does_not() -> None:
    code = in_kernel(
        "a[i] = 0.0f;",
        "    sycl::accessor a(b0, h, sycl::read_write);\n    auto p = a.get_pointer();",
        launch="a.get_range()",
    )
    assert uses_by_name(code)["a"].escapes
    code = in_kernel("a[i] = 0.0f;", "    sycl::accessor a(b0, h, sycl::read_write);", launch="a.get_range()")
    assert uses_by_name(code)["a"].covering_write is not None


# -- helpers and functors --------------------------------------------------------------------------


HELPERS = """
template <typename A> float reader(const A &acc, size_t k) { return acc[k] + acc[k + 1]; }
template <typename A> void writer(A acc, size_t k, float value) { acc[k] = value; }
template <typename A> float forwarder(A acc, size_t k) { return reader(acc, k); }
void typed(sycl::accessor<float, 1, sycl::access_mode::read_write> acc, size_t k) { acc[k] *= 2.0f; }
"""


def test_helpers_defined_in_the_file_are_followed() -> None:
    uses = uses_by_name(
        in_kernel(
            "float s = forwarder(a, i[0]); writer(b, i[0], s); typed(c, i[0]); writer(d, i[0] + 1, s);",
            "".join(f"    sycl::accessor {n}(b{k}, h, sycl::read_write);\n" for k, n in enumerate("abcd")),
            before=HELPERS,
        )
    )
    assert uses["a"].only_read and uses["a"].reads == 2
    assert uses["b"].only_written and uses["b"].covering_write is not None  # own index passed to the helper
    assert counts(uses["c"])[2] == 1 and len(uses["c"].typed_sites) == 1
    assert uses["d"].only_written and uses["d"].covering_write is None  # `i + 1` is not the own index


def test_the_kernel_item_passed_to_a_helper_still_gives_the_own_index() -> None:
    helper = "template <typename A> void zero(A acc, sycl::nd_item<1> item) { acc[item.get_global_id(0)] = 0.0f; }"
    uses = uses_by_name(
        in_kernel(
            "zero(b, it);",
            "    sycl::accessor b(b1, h, sycl::write_only);",
            "sycl::nd_range<1>(N, 128)",
            "sycl::nd_item<1> it",
            before=helper,
        )
    )
    assert uses["b"].covering_write is not None


def test_helper_called_conditionally_does_not_cover() -> None:
    uses = uses_by_name(
        in_kernel("if (flag) writer(b, i[0], 1.0f);", "    sycl::accessor b(b1, h, sycl::read_write);", before=HELPERS)
    )
    assert uses["b"].only_written and uses["b"].covering_write is None


FUNCTORS = """
struct Aggregate {
  sycl::accessor<float, 1, sycl::access_mode::read_write> in;
  sycl::accessor<float, 1, sycl::access_mode::write> out;
  void operator()(sycl::id<1> i) const { out[i] = in[i]; }
};
class WithCtor {
 public:
  WithCtor(float s, sycl::accessor<float, 1, sycl::access_mode::read_write> a) : scale_(s), data_(a) {}
  void operator()(sycl::id<1> i) const { data_[i] *= scale_; }
 private:
  float scale_;
  sycl::accessor<float, 1, sycl::access_mode::read_write> data_;
};
"""


def test_functor_members_initialised_in_the_command_group() -> None:
    code = (
        PRELUDE
        + FUNCTORS
        + textwrap.dedent("""
        void f(sycl::queue &q, std::vector<float> &v) {
          sycl::buffer<float, 1> x(v.data(), sycl::range<1>(N));
          sycl::buffer<float, 1> y(v.data(), sycl::range<1>(N));
          q.submit([&](sycl::handler &h) {
            sycl::accessor<float, 1, sycl::access_mode::read_write> in(x, h);
            sycl::accessor<float, 1, sycl::access_mode::write> out(y, h);
            h.parallel_for(sycl::range<1>(N), Aggregate{in, out});
          });
          q.submit([&](sycl::handler &h) {
            sycl::accessor<float, 1, sycl::access_mode::read_write> a(x, h);
            WithCtor k(0.5f, a);
            h.parallel_for(sycl::range<1>(N), k);
          });
          q.submit([&](sycl::handler &h) {
            Aggregate k{x.get_access<sycl::access_mode::read_write>(h), y.get_access<sycl::access_mode::write>(h)};
            h.parallel_for(sycl::range<1>(N), k);
          });
        }
    """)
    )
    accessors = extract("t.cpp", code.encode()).accessors
    named = {a.name: uses_of(a) for a in accessors if a.name}
    assert named["in"].only_read and named["in"].typed_sites
    assert named["out"].only_written and named["out"].covering_write is not None
    assert named["a"].read_modify_writes == 1
    unnamed = [uses_of(a) for a in accessors if a.name is None]
    assert [u.only_read for u in unnamed] == [True, False] and unnamed[1].only_written


def test_a_template_functor_typed_by_decltype_of_its_accessors() -> None:
    code = PRELUDE + textwrap.dedent("""
        template <typename In, typename Out>
        struct Copy {
          In in;
          Out out;
          void operator()(sycl::id<1> i) const { out[i] = in[i]; }
        };
        void f(sycl::queue &q, std::vector<float> &v) {
          sycl::buffer<float, 1> x(v.data(), sycl::range<1>(N));
          sycl::buffer<float, 1> y(v.data(), sycl::range<1>(N));
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(x, h, sycl::read_write);
            sycl::accessor b(y, h, sycl::write_only);
            Copy<decltype(a), decltype(b)> k{a, b};
            h.parallel_for(sycl::range<1>(N), k);
          });
          q.submit([&](sycl::handler &h) {
            sycl::accessor c(x, h, sycl::read_write);
            sycl::accessor d(y, h, sycl::write_only);
            decltype(c) e = c;
            h.parallel_for(sycl::range<1>(N), Copy<decltype(e), decltype(d)>{e, d});
          });
        }
    """)
    uses = uses_by_name(code)
    assert uses["a"].only_read and not uses["a"].escapes  # `decltype(a)` names its type, not its value
    assert uses["b"].only_written and uses["b"].covering_write is not None
    assert uses["c"].escapes  # copied into `e`, which the analysis does not follow


# -- coverage --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "launch, param, body",
    [
        ("sycl::range<1>(N)", "sycl::id<1> i", "a[i] = 0.0f;"),
        ("sycl::range<1>(N)", "sycl::item<1> it", "a[it.get_id()] = 0.0f;"),
        ("N", "size_t i", "a[i] = 0.0f;"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "a[it.get_global_id(0)] = 0.0f;"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "const size_t g = it.get_global_id(0); a[g] = 1.0f;"),
        (
            "sycl::nd_range<1>(N + 256, 256)",
            "sycl::nd_item<1> it",
            "size_t g = it.get_global_id(0); if (g < N) a[g] = 0.0f;",
        ),
        ("sycl::range<1>(N)", "sycl::id<1> i", "for (int k = 0; k < 3; ++k) a[i] = k;"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "do { a[i] = 1.0f; } while (flag);"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "auto m = it.get_global_id()[0]; a[m] = 1.0f;"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "auto g = it.get_global_id(); a[g[0]] = 1.0f;"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "a[it.get_global_id()[0]] = 1.0f;"),
        ("sycl::range<1>(a.size())", "sycl::id<1> i", "a[i] = 0.0f;"),  # the accessor's own count
        ("sycl::range{b0.size()}", "sycl::item<1> it", "a[it] = 0.0f;"),  # the buffer's
        ("a.get_count()", "sycl::id<1> i", "a[i] = 0.0f;"),
    ],
)
def test_writes_that_cover_the_whole_buffer(launch: str, param: str, body: str) -> None:
    uses = uses_by_name(in_kernel(body, "    sycl::accessor a(b0, h, sycl::write_only);", launch, param))["a"]
    assert uses.overwrites_whole_buffer and uses.writes_at_own_index


@pytest.mark.parametrize(
    "launch, param, body",
    [
        ("sycl::range<1>(N - 1)", "sycl::id<1> i", "a[i + 1] = 0.0f;"),
        ("sycl::range<1>(N / 2)", "sycl::id<1> i", "a[i] = 0.0f;"),
        ("sycl::range<1>(a.size() - 1)", "sycl::id<1> i", "a[i] = 0.0f;"),
        ("sycl::range<1>(v.size())", "sycl::id<1> i", "a[i] = 0.0f;"),  # another container's count
        ("sycl::range<1>(N)", "sycl::id<1> i", "if (flag) a[i] = 0.0f;"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "if (flag) return; a[i] = 0.0f;"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "for (int r = 0; r < reps; ++r) a[i] = r;"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "while (flag) { a[i] = 0.0f; }"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "auto z = [&]() { a[i] = 0.0f; }; z();"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "flag && (a[i] = 0.0f);"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "switch (reps) { case 0: a[i] = 0.0f; }"),
        ("sycl::range<1>(N)", "sycl::id<1> i", "size_t j = i[0]; j += 1; a[j] = 0.0f;"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "a[it.get_local_id(0)] = 0.0f;"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "a[it.get_local_id()[0]] = 0.0f;"),
        ("sycl::nd_range<1>(N, 256)", "sycl::nd_item<1> it", "auto m = it.get_global_id()[1 - 1 + 1]; a[m] = 0.0f;"),
        (
            "sycl::nd_range<1>(N + 256, 256)",
            "sycl::nd_item<1> it",
            "if (it.get_global_id(0) < N + 256) a[it.get_global_id(0)] = 0.0f;",
        ),
    ],
)
def test_partial_or_conditional_writes_do_not_cover(launch: str, param: str, body: str) -> None:
    uses = uses_by_name(in_kernel(body, "    sycl::accessor a(b0, h, sycl::write_only);", launch, param))["a"]
    assert uses.writes >= 1 and uses.covering_write is None and not uses.overwrites_whole_buffer


def test_two_dimensional_and_linear_coverage() -> None:
    buffers = (
        "  sycl::buffer<float, 2> g(v.data(), sycl::range<2>(64, 128));\n"
        "  sycl::buffer<float, 1> flat(v.data(), sycl::range<1>(64 * 128));\n"
    )
    accessors = (
        "    sycl::accessor a(g, h, sycl::write_only);\n    sycl::accessor b(flat, h, sycl::write_only);\n"
        "    sycl::accessor c(g, h, sycl::write_only);"
    )
    body = "a[it.get_id(0)][it.get_id(1)] = 0.0f; b[it.get_linear_id()] = 1.0f; c[it.get_id(1)][it.get_id(0)] = 2.0f;"
    uses = uses_by_name(in_kernel(body, accessors, "sycl::range<2>(64, 128)", "sycl::item<2> it", buffers=buffers))
    assert uses["a"].covering_write is not None and uses["b"].covering_write is not None
    assert uses["c"].covering_write is None  # transposed: dimension 1 indexes the first subscript


def test_counting_loop_in_a_single_task_and_a_single_element() -> None:
    code = PRELUDE + textwrap.dedent("""
        void f(sycl::queue &q, float *p) {
          sycl::buffer<float, 1> t(p, sycl::range<1>(4096));
          sycl::buffer<float, 1> one(p, sycl::range<1>(1));
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(t, h, sycl::write_only);
            sycl::accessor b(one, h, sycl::write_only);
            sycl::accessor c(t, h, sycl::write_only);
            h.single_task([=]() {
              for (int k = 0; k < 4096; ++k) a[k] = 0.0f;
              b[0] = 1.0f;
              for (int k = 0; k < 4095; ++k) c[k] = 0.0f;
            });
          });
        }
    """)
    uses = {a.name: uses_of(a) for a in extract("t.cpp", code.encode()).accessors}
    assert uses["a"].covering_write is not None and uses["b"].covering_write is not None
    assert uses["c"].covering_write is None


def test_extents_compared_by_name_only_when_the_name_is_never_reassigned() -> None:
    def covering(extra: str) -> bool:
        code = PRELUDE + textwrap.dedent(f"""
            void f(sycl::queue &q, float *p, size_t n) {{
              sycl::buffer<float, 1> b(p, sycl::range<1>(n));
              {extra}
              q.submit([&](sycl::handler &h) {{
                sycl::accessor a(b, h, sycl::write_only);
                h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ a[i] = 0.0f; }});
              }});
            }}
        """)
        (accessor,) = extract("t.cpp", code.encode()).accessors
        return uses_of(accessor).covering_write is not None

    assert covering("")
    assert not covering("n = n / 2;")


def test_element_size_and_bytes() -> None:
    uses = uses_by_name(in_kernel("a[i] = 0.0f;", "    sycl::accessor a(b0, h, sycl::write_only);"))["a"]
    assert (uses.element_size, uses.buffer_extent.dims, uses.buffer_bytes) == (4, (1 << 20,), 4 << 20)


# -- how the mode is spelled -----------------------------------------------------------------------


def test_mode_syntax_forms() -> None:
    code = PRELUDE + textwrap.dedent("""
        template <sycl::access_mode M>
        void f(sycl::queue &q, sycl::buffer<float, 1> &b) {
          q.submit([&](sycl::handler &h) {
            sycl::accessor tag(b, h, sycl::read_write);
            sycl::accessor tag_props(b, h, sycl::read_write, sycl::property_list{});
            sycl::accessor ctad(b, h);
            sycl::accessor<float, 1> typed(b, h);
            sycl::accessor<float, 1, M> templated(b, h);
            auto legacy = b.get_access<sycl::access::mode::read_write>(h);
            auto deflt = b.get_access(h);
            auto dependent = b.template get_access<sycl::access_mode::read_write>(h);
            sycl::accessor ranged(b, h, sycl::range<1>(16), sycl::read_write);
            h.single_task([=]() {});
          });
        }
    """)
    syntax = {a.name: syntax_of(a) for a in extract("t.cpp", code.encode()).accessors}
    assert syntax["tag"].form == "tag" and syntax["tag"].mode_is_last_argument
    assert syntax["tag_props"].form == "tag" and not syntax["tag_props"].mode_is_last_argument
    assert syntax["ctad"].form == "default-ctad" and syntax["ctad"].defaulted
    assert syntax["typed"].form == "default-typed"
    assert syntax["templated"].form == "other" and not syntax["templated"].defaulted
    assert syntax["legacy"].form == "enum" and syntax["legacy"].get_access_template is not None
    assert syntax["deflt"].form == "default-get-access"
    assert syntax["dependent"].form == "enum" and syntax["dependent"].get_access_template is None
    assert syntax["ranged"].ranged


def test_no_uses_when_the_kernel_is_not_in_the_file_or_absent() -> None:
    code = PRELUDE + textwrap.dedent("""
        struct External;
        void f(sycl::queue &q, sycl::buffer<float, 1> &b, External k) {
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(b, h, sycl::read_write);
            h.parallel_for(sycl::range<1>(N), k);
          });
          q.submit([&](sycl::handler &h) {
            sycl::accessor c(b, h, sycl::read_write);
            h.copy(c, nullptr);
          });
          sycl::host_accessor ha(b, sycl::read_write);
        }
    """)
    uses = {a.name: a.uses for a in extract("t.cpp", code.encode()).accessors}
    assert uses == {"a": None, "c": None, "ha": None}


def test_broken_code_does_not_crash() -> None:
    code = in_kernel(
        "a[i] = ; b[i + ] += (;\n SYCL_EXTERNAL int x",
        "    sycl::accessor a(b0, h, sycl::read_write);\n    sycl::accessor b(b1 h sycl::read_write);",
    )
    facts = facts_of(code)
    assert facts.syntax_errors
    by_name = {a.name: a.uses for a in facts.accessors}
    assert by_name["a"].escapes  # `a[i] = ;` is no evidence of a write
    assert by_name["b"] is None  # a creation the parser could not read is not judged


def test_sub_buffers_and_iterator_ranges_have_no_known_extent() -> None:
    buffers = (
        "  sycl::buffer<float, 1> whole(v.data(), sycl::range<1>(2 * N));\n"
        "  sycl::buffer<float, 1> b0(whole, N, sycl::range<1>(N / 2));\n"
        "  sycl::buffer<float, 1> b1(v.begin(), v.end());\n"
    )
    uses = uses_by_name(
        in_kernel(
            "a[i] = 0.0f; c[i] = 0.0f;",
            "    sycl::accessor a(b0, h, sycl::write_only);\n    sycl::accessor c(b1, h, sycl::write_only);",
            buffers=buffers,
        )
    )
    assert uses["a"].only_written and uses["a"].buffer_extent is None and uses["a"].covering_write is None
    assert uses["c"].only_written and uses["c"].covering_write is None


# -- spellings of creation and of the buffer (issue 10, recall) -------------------------------------


def test_brace_declared_accessors_are_named_and_followed() -> None:
    uses = uses_by_name(
        in_kernel(
            "float x = a[i] + c[i]; (void)x;",
            "    auto a{b0.get_access<sycl::access_mode::read_write>(h)};\n"
            "    sycl::accessor c{b1, h, sycl::read_write};",
        )
    )
    assert counts(uses["a"]) == (1, 0, 0, False, False) and counts(uses["c"]) == (1, 0, 0, False, False)


def test_buffers_reached_through_pointers_and_members() -> None:
    code = """
        struct Grid {
          sycl::buffer<float, 1> cells{sycl::range<1>(N)};
          void clear(sycl::queue &q, sycl::buffer<float, 1> &other) {
            auto p = &other;
            sycl::buffer<float, 1> *table[2] = {&cells, &other};
            q.submit([&](sycl::handler &h) {
              auto a = this->cells.get_access<sycl::access_mode::write>(h);
              auto b = p->get_access<sycl::access_mode::read_write>(h);
              auto c = table[1]->get_access<sycl::access_mode::read_write>(h);
              h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = b[i] + c[i]; });
            });
          }
        };
    """
    accessors = {a.name: a for a in facts_of(code).accessors}
    assert accessors["a"].uses.overwrites_whole_buffer  # the member's extent is read from its initialiser
    assert accessors["a"].uses.buffer_has_host_data is False
    assert accessors["b"].uses.only_read and accessors["c"].uses.only_read


def test_pointer_to_a_local_buffer_gives_its_extent() -> None:
    code = in_kernel(
        "a[i] = 1.0f;",
        "    auto a = p->get_access<sycl::access_mode::read_write>(h);",
        buffers="  sycl::buffer<float, 1> b0(v.data(), sycl::range<1>(N));\n  auto p = &b0;\n",
    )
    uses = uses_by_name(code)["a"]
    assert uses.overwrites_whole_buffer and uses.buffer_has_host_data is True
