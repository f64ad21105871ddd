"""The extent of a buffer built from one host container or count (issue 25): a C array's bound, a
`std::array`'s argument, a `std::vector`'s constructed size while nothing resizes it, a lone count
as a range; and the accessor's data pointer handed to a helper defined in the file."""

from __future__ import annotations

import textwrap

import pytest

from accessor_kernels import PRELUDE, counts, in_kernel, uses_by_name
from kernlint.frontends.cpp.frontend import extract


def buffer_named(declarations: str, construction: str, params: str = "size_t n, std::vector<int> &given"):
    code = PRELUDE + textwrap.dedent(f"""
        void refill(std::vector<int> &v);
        void f({params}) {{
        {textwrap.indent(textwrap.dedent(declarations), "  ")}
          {construction}
        }}
    """)
    (buffer,) = extract("t.cpp", code.encode()).buffers
    return buffer


@pytest.mark.parametrize(
    "declarations, construction, dims, text, host",
    [
        ("int bins[256];", "sycl::buffer<int> b{bins};", (256,), "256", True),
        ("constexpr int K = 64; float w[K];", "sycl::buffer<float, 1> b(w);", (64,), "K", True),
        ("std::array<float, 2 * N> w;", "sycl::buffer b{w};", (2 << 20,), "2 * N", True),
        ("std::vector<int> v(N, -1);", "sycl::buffer b(v);", (1 << 20,), "N", True),
        ("std::vector<int> v(n);", "sycl::buffer b(v);", (None,), "n", True),
        ("std::vector<int> v(n); v[0] = 1;std::fill(v.begin(), v.end(), 2);", "sycl::buffer b(v);", (None,), "n", True),
        ("", "sycl::buffer b(given);", (None,), "given.size()", True),
        ("", "sycl::buffer<int, 1> b(n);", (None,), "n", False),
        ("", "sycl::buffer<int, 1> b(N);", (1 << 20,), "N", False),
        ("", "sycl::buffer<int, 1> b(4096);", (4096,), "4096", False),
    ],
)
def test_the_extent_of_a_buffer_over_a_container(declarations, construction, dims, text, host) -> None:
    buffer = buffer_named(declarations, construction)
    assert buffer.extent is not None and (buffer.extent.dims, buffer.extent.text) == (dims, text)
    assert buffer.has_host_data is host


@pytest.mark.parametrize(
    "declarations, construction",
    [
        ("std::vector<int> v(N); v.resize(2 * N);", "sycl::buffer b(v);"),  # resized before the buffer
        ("std::vector<int> v(N); refill(v);", "sycl::buffer b(v);"),  # a callee may resize it
        ("std::vector<int> v{n};", "sycl::buffer b(v);"),  # one element
        ("std::vector<int> v;", "sycl::buffer b(v);"),  # empty, grown elsewhere
        ("std::vector<int> v(given.begin(), given.end());", "sycl::buffer b(v);"),  # an iterator range
        ("int grid[8][8];", "sycl::buffer<int> b{grid};"),  # two dimensions
        ("int *p = given.data();", "sycl::buffer<int> b{p};"),  # a pointer has no size
    ],
)
def test_sizes_the_buffer_may_not_have_stay_unknown(declarations, construction) -> None:
    assert buffer_named(declarations, construction).extent is None


def test_containers_named_through_aliases_or_using_namespace_std() -> None:
    aliases = "typedef std::vector<int> Ints;\nusing Row = array<float, 64>;\nusing namespace std;\n"
    code = (
        PRELUDE
        + aliases
        + textwrap.dedent("""
        void f(const Ints &given) {
          Row r;
          sycl::buffer a{r};
          sycl::buffer b(given);
        }
    """)
    )
    first, second = extract("t.cpp", code.encode()).buffers
    assert first.extent is not None and first.extent.dims == (64,)
    assert second.extent is not None and second.extent.text == "given.size()"
    plain = PRELUDE + "void f() { array<float, 8> r; sycl::buffer a{r}; }\n"
    (buffer,) = extract("t.cpp", plain.encode()).buffers
    assert buffer.extent is None  # an unqualified `array` without `using namespace std` is some other class


def test_a_vector_resized_in_the_loop_around_the_buffer_is_unknown() -> None:
    buffer = buffer_named(
        "std::vector<int> v(N);",
        "for (int k = 0; k < 4; ++k) { sycl::buffer b(v); v.push_back(k); }",
    )
    assert buffer.extent is None
    buffer = buffer_named("std::vector<int> v(N);", "for (int k = 0; k < 4; ++k) { sycl::buffer b(v); v[k] = k; }")
    assert buffer.extent is not None and buffer.extent.dims == (1 << 20,)


def test_an_array_parameter_is_a_pointer() -> None:
    buffer = buffer_named("", "sycl::buffer<int> b{bins};", params="int bins[256]")
    assert buffer.extent is None


def test_a_write_only_accessor_over_a_whole_container_covers_it() -> None:
    code = PRELUDE + textwrap.dedent("""
        void f(sycl::queue &q) {
          std::array<float, 512> out;
          sycl::buffer ob{out};
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(ob, h, sycl::write_only);
            h.parallel_for(sycl::range<1>(512), [=](sycl::id<1> i) { a[i] = 0.0f; });
          });
        }
    """)
    (accessor,) = extract("t.cpp", code.encode()).accessors
    uses = accessor.uses
    assert uses is not None and uses.overwrites_whole_buffer
    assert (uses.element_size, uses.buffer_bytes) == (4, 2048)  # the element type is the container's


POINTER_HELPERS = """
float reader(const float *p, size_t k) { return p[k] + p[k + 1]; }
void writer(float *p, size_t k, float value) { p[k] = value; }
float walker(const float *p, size_t k) { return *(p + k); }
"""


def test_a_data_pointer_passed_to_a_helper_is_followed() -> None:
    multi = ".get_multi_ptr<sycl::access::decorated::no>().get()"
    uses = uses_by_name(
        in_kernel(
            f"float s = reader(a.get_pointer(), i[0]); writer(b{multi}, i[0], s);"
            f" writer(c.get_pointer(), i[0] + 1, s); s += walker(d.get_pointer(), i[0]);",
            "".join(f"    sycl::accessor {n}(b{k}, h, sycl::read_write);\n" for k, n in enumerate("abcd")),
            before=POINTER_HELPERS,
        )
    )
    assert uses["a"].only_read and uses["a"].reads == 2
    assert uses["b"].only_written and uses["b"].covering_write is not None
    assert uses["c"].only_written and uses["c"].covering_write is None  # `i + 1` is not the own index
    assert counts(uses["d"])[4]  # pointer arithmetic escapes


def test_a_local_pointer_to_the_data_is_the_accessor_in_its_block() -> None:
    uses = uses_by_name(
        in_kernel(
            "const float *src = a.get_multi_ptr<sycl::access::decorated::no>().get(); float *dst = b.get_pointer();"
            " dst[i] = src[i]; if (flag) { float *p = c.get_pointer(); p[i] = 1.0f; } float *p = d.get_pointer();"
            " p[i] = 2.0f;",
            "".join(f"    sycl::accessor {n}(b{k}, h, sycl::read_write);\n" for k, n in enumerate("abcd")),
        )
    )
    assert uses["a"].only_read and uses["b"].only_written and uses["b"].covering_write is not None
    assert uses["c"].only_written and uses["c"].covering_write is None  # under `if (flag)`
    assert uses["d"].only_written and uses["d"].writes == 1  # the block's `p` is c's, not d's


def test_a_data_pointer_kept_or_given_to_an_unknown_function_escapes() -> None:
    uses = uses_by_name(
        in_kernel(
            "auto p = a.get_pointer(); p[i] = 0.0f; p++; external(b.get_pointer(), i[0]);",
            "    sycl::accessor a(b0, h, sycl::read_write);\n    sycl::accessor b(b1, h, sycl::read_write);",
            before="void external(float *p, size_t k);",
        )
    )
    assert uses["a"].escapes and uses["b"].escapes
