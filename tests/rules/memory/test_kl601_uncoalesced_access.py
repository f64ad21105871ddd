"""KL601: global accesses whose sub-group spreads over more sectors than its bytes need."""

from __future__ import annotations

from conftest import CORPUS
from kernlint.diagnostics import Severity
from rule_helpers import cost_at, run_engine

WALKS = CORPUS / "sycl" / "kl601_row_walks.cpp"


def test_a_row_walk_is_priced_as_a_range_of_lines() -> None:
    # xe-hpc, 32 lanes (the default), floats, 64-byte lines: 2 needed; cols ≥ 2 spans 252 bytes → 4;
    # from cols ≥ 16 (64 bytes) one line a lane → 32.
    cost = cost_at(WALKS, 12, "KL601")
    assert cost.value is None and cost.figures["sectors_needed"] == 2
    assert (cost.figures["at_least"], cost.figures["spread"], cost.figures["spread_from"]) == (4, 32, 16)
    h100 = cost_at(WALKS, 12, "KL601", "h100")
    assert (h100.figures["at_least"], h100.figures["spread"], h100.figures["spread_from"]) == (8, 32, 8)


def test_a_chunk_and_a_pair_are_priced_in_lines() -> None:
    # chunks of 8 floats: lanes 32 bytes apart, 32 × 32 = 1024 bytes → 16 lines of 64 for 2
    assert cost_at(WALKS, 32, "KL601").value == 16
    # pairs: lanes 8 bytes apart → 256 bytes → 4 lines for 2; on the H100 8 sectors for 4
    assert cost_at(WALKS, 47, "KL601").value == 4
    assert cost_at(WALKS, 47, "KL601", "h100").value == 8


def _one(code: str, device: str = "h100") -> list:
    return run_engine(code, "k.cpp", device, "KL601")


def test_the_message_names_the_stride_the_sectors_and_the_fix() -> None:
    [found] = _one(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, const float *a, float *s, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int r = it.get_global_id(0);
            float acc = 0.0f;
            for (int k = 0; k < n; ++k) acc += a[r * n + k];
            s[r] = acc;
          });
        }
        """
    )
    assert found.severity is Severity.WARNING
    assert "a row of `n` elements apart (each walks its own row along `k`)" in found.message
    assert "swap the index order" in found.message
    assert "at least 8 for 4 useful (with n ≥ 2), 32 once n ≥ 8" in found.message


def test_once_per_work_item_next_to_a_loop_and_past_a_bound_are_information() -> None:
    found = _one(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, const float *a, float *out, int n, int m) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            float acc = 0.0f;
            for (int k = 0; k < m; ++k) acc += a[k * n + i];
            out[4 * i] = acc;
            if (i + 8 <= n) {
              for (int k = 0; k < 8; ++k) out[k * n + i] += acc;
            } else {
              for (int k = 0; k < 8; ++k) out[i * 8 + k] += acc;
            }
          });
        }
        """
    )
    assert [(d.line, d.severity) for d in found] == [(8, Severity.INFO), (12, Severity.INFO)]
    assert "once per work-item" in found[0].message and "only lanes past a bound run it" in found[1].message


def test_one_lane_block_loads_gathers_and_broadcasts_say_nothing() -> None:
    assert not _one(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, const int *idx, const float *a, float *out, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            auto sg = it.get_sub_group();
            const int i = it.get_global_id(0);
            float v = sg.load(a + it.get_group(0) * 64);
            for (int k = 0; k < 16; ++k) v += a[idx[i] * 16 + k] + a[k * 5];
            if (it.get_local_id(0) == 0)
              for (int k = 0; k < 16; ++k) out[n + it.get_group(0) * 16 * k] = a[it.get_group(0) * 7];
            out[i] = v;
          });
        }
        """
    )


def test_an_address_handed_on_is_no_access_and_a_vector_tail_is_information() -> None:
    found = _one(
        """
        #include <sycl/sycl.hpp>
        void use(float *row);
        void k(sycl::queue &q, float *a, float *c, size_t n) {
          q.parallel_for(sycl::nd_range<1>(n / 16, 64), [=](sycl::nd_item<1> it) {
            const size_t base = it.get_global_id(0) * 16;
            use(&a[base]);
            if (n - base < 16) {
              for (size_t i = base; i < n; ++i) c[i] = a[i];
            } else {
              for (int k = 0; k < 16; ++k) c[base + k] = 2.0f * a[base + k];
            }
          });
        }
        """
    )
    tail = [d for d in found if "only lanes past a bound run it" in d.message]
    assert {d.line for d in tail} == {9} and all(d.severity is Severity.INFO for d in tail)
    assert all(d.line != 7 for d in found)  # `&a[base]`
    assert {d.line for d in found if d.severity is Severity.WARNING} == {11}


def test_an_array_of_row_pointers_has_no_pitch() -> None:
    """`float *rows[4]`: each row is its own allocation, so `rows[r][i]` is not row-major in one array."""
    assert not run_engine(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, float *rows[4], int n) {
          q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
            for (int c = 0; c < 16; ++c) rows[i][c] = 0.0f;
          });
        }
        """,
        "k.cpp",
        "h100",
        "KL601",
    )


def test_a_pointer_cast_to_wider_elements_keeps_its_byte_offset_unnamed() -> None:
    # `start` moves `bpt` bytes a lane; read as words the lanes are bpt / 4 words apart: no count of
    # `bpt` elements may be printed. The same cast without a lane offset keeps its unit-stride reading.
    kernel = """
        #include <sycl/sycl.hpp>
        #include <cstdint>
        inline uint32_t words(const unsigned char *input) {
          uint32_t s = 0;
          for (unsigned i = 0; i < 8; ++i) s += ((const uint32_t *)input)[i];
          return s;
        }
        void k(sycl::queue &q, const unsigned char *d, uint32_t *out, size_t n, size_t bpt) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            size_t t = it.get_global_id(0);
            out[t] = words(d + bpt * t);
          });
        }
        """
    assert _one(kernel) == []
    [same_size] = _one(
        kernel.replace("const unsigned char *input", "const int *input").replace(
            "const unsigned char *d", "const int *d"
        )
    )
    assert "a row of `bpt` elements apart" in same_size.message


def test_loads_that_cover_their_run_are_information_and_a_partial_run_is_not() -> None:
    # z[2i] and z[2i + 1] in one kernel: both halves of every pair are read, so no sector is wasted.
    pairs = _one(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, const float *z, float *out, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            out[i] = z[2 * i] - z[2 * i + 1];
          });
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            out[i] = z[2 * i];
          });
        }
        """
    )
    assert [(d.line, d.severity) for d in pairs] == [
        (6, Severity.INFO),  # z[2i] with z[2i + 1] folded into it: one change for the pair
        (10, Severity.WARNING),  # the other kernel's lone z[2i] is not completed by the first kernel's loads
    ]
    assert pairs[0].evidence["siblings_cover"] and not pairs[1].evidence["siblings_cover"]
    assert "one vector load of 2 elements" in pairs[0].message
    assert "(and 1 more access of `z` like it: line 6)" in pairs[0].message and pairs[0].evidence["repeats"] == 1


def test_three_of_four_elements_leave_the_run_uncovered() -> None:
    found = _one(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, const float *p, float *out, int n) {
          q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
            const int i = it.get_global_id(0);
            out[i] = p[4 * i] + p[4 * i + 1] + p[4 * i + 2];
          });
        }
        """
    )
    assert [d.severity for d in found] == [Severity.WARNING]  # the three loads of one point: one finding
    assert found[0].evidence["repeats"] == 2 and len(found[0].related) == 2


def test_a_chunk_that_fits_in_one_sector_is_information() -> None:
    kernel = """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, const float *m, float *s, size_t rows) {
          q.parallel_for(sycl::nd_range<1>(rows, 256), [=](sycl::nd_item<1> it) {
            const size_t r = it.get_global_id(0);
            float acc = 0.0f;
            for (int c = 0; c < COLS; ++c)
              acc += m[r * COLS + c];
            s[r] = acc;
          });
        }
        """
    # 8 floats = 32 bytes a lane: one H100 sector holds the whole run (measured: no slower than interleaved)
    [short] = _one("constexpr int COLS = 8;\n" + kernel)
    assert short.severity is Severity.INFO and "fits in one sector" in short.message
    # 16 floats = 64 bytes: two sectors a lane, a warning on the H100 (and one 64-byte line on xe-hpc: info)
    [longer] = _one("constexpr int COLS = 16;\n" + kernel)
    assert longer.severity is Severity.WARNING
    [xe] = _one("constexpr int COLS = 16;\n" + kernel, "xe-hpc")
    assert xe.severity is Severity.INFO
