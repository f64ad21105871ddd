"""KL602: local-memory accesses whose lanes queue on one bank, on each device's bank model."""

from __future__ import annotations

from conftest import CORPUS
from kernlint.diagnostics import Severity
from rule_helpers import cost_at, run_engine

TILES = CORPUS / "sycl" / "kl602_tiles.cpp"


def test_an_unpadded_column_costs_every_lane_a_pass() -> None:
    # H100: 32 lanes 32 words apart, all in one of 32 banks: 32 passes for 1.
    h100 = cost_at(TILES, 19, "KL602", "h100")
    assert (h100.value, h100.figures["ideal"]) == (32, 1)
    # Xe-HPC: 16 banks; 32 lanes' 128 bytes take 2 passes at best, here 32: a 16-way conflict.
    xe = cost_at(TILES, 19, "KL602", "xe-hpc")
    assert (xe.value, xe.figures["ideal"]) == (32, 2)


def test_a_column_of_doubles_over_two_rows_of_lanes() -> None:
    # 16 lanes a row, 16 doubles (32 words) apart: each row of lanes fills banks 0 and 1 with 16 words,
    # the second row banks 2 and 3: 16 passes for the 2 that 256 bytes need on the H100.
    cost = cost_at(TILES, 68, "KL602", "h100")
    assert (cost.value, cost.figures["ideal"]) == (16, 2)


def _findings(code: str, device: str = "h100") -> list:
    return run_engine(code, "k.cpp", device, "KL602")


def test_the_message_offers_only_a_padding_that_removes_the_conflict() -> None:
    [found] = _findings(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, float *out, int n) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 2> t(sycl::range<2>(32, 64), h);
            h.parallel_for(sycl::nd_range<2>({n, n}, {8, 32}), [=](sycl::nd_item<2> it) {
              const int x = it.get_local_id(1), y = it.get_local_id(0);
              for (int j = 0; j < 64; j += 8) t[y][j + x % 8] = 1.0f;
              sycl::group_barrier(it.get_group());
              for (int k = 0; k < 32; ++k) out[k * n + x] = t[x][k];
            });
          });
        }
        """
    )
    # 64 words apart: 64 mod 32 = 0, one bank; padding to 65 spreads the column over all 32
    assert found.severity is Severity.WARNING and "32-way" in found.message
    assert "pad the tile to [32][65]" in found.message


def test_conflicts_only_between_rows_of_a_narrow_work_group_are_information() -> None:
    found, _after = _findings(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, const float *in, float *out, int n) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 2> t(sycl::range<2>(16, 32), h);
            h.parallel_for(sycl::nd_range<2>({n, n}, {16, 16}), [=](sycl::nd_item<2> it) {
              const int x = it.get_local_id(1), y = it.get_local_id(0);
              for (int k = 0; k < 4; ++k) t[y][x] += in[k * n + it.get_global_id(1)];
              out[it.get_global_id(0) * n + it.get_global_id(1)] = t[y][x];
            });
          });
        }
        """
    )
    # rows of 16 lanes 32 words apart: both rows of a sub-group start in bank 0, a 2-way conflict
    assert found.severity is Severity.INFO and "spans rows of 16 lanes" in found.message
    assert _after.severity is Severity.INFO  # the same read once per work-item


def test_padded_tiles_broadcasts_and_private_arrays_say_nothing() -> None:
    assert not _findings(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, float *out, int n) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 2> t(sycl::range<2>(32, 33), h);
            h.parallel_for(sycl::nd_range<2>({n, n}, {32, 32}), [=](sycl::nd_item<2> it) {
              const int x = it.get_local_id(1), y = it.get_local_id(0);
              float own[32];
              t[y][x] = x;
              sycl::group_barrier(it.get_group());
              for (int k = 0; k < 32; ++k) own[k] = t[x][k] + t[0][k] + t[k][0];
              out[it.get_global_id(0) * n + x] = own[x % 32];
            });
          });
        }
        """
    )


def test_a_conflict_that_is_not_a_multiple_of_the_ideal_counts_passes() -> None:
    [found] = _findings(
        """
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, float *out, int n) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 1> s(sycl::range<1>(192), h);
            h.parallel_for(sycl::nd_range<1>(n, 32), [=](sycl::nd_item<1> it) {
              const int l = it.get_local_id(0);
              s[6 * l] = 1.0f;
              out[it.get_global_id(0)] = s[l];
            });
          });
        }
        """,
        "xe-hpc",
    )
    # 32 lanes 6 words apart over 16 banks: gcd(6, 16) = 2, so 8 banks hold 4 words each: 4 passes for 2
    assert found.message.startswith("2-way local-memory bank conflict")
    assert found.cost is not None and (found.cost.value, found.cost.figures["ideal"]) == (4, 2)
    # a 2-way conflict costs one more pass on this one access: information, not a change to make
    assert found.severity is Severity.INFO


_REDUCTION = """
    #include <sycl/sycl.hpp>
    void k(sycl::queue &q, const float *in, float *out, int n) {
      q.submit([&](sycl::handler &h) {
        sycl::local_accessor<float, 1> cov(sycl::range<1>(96), h);
        h.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
          const int idx = it.get_local_id(0);
          if (idx < 16) {
            for (int c = 0; c < 6; ++c) cov[6 * idx + c] = in[it.get_global_id(0) * 6 + c];
          }
          it.barrier(sycl::access::fence_space::local_space);
          for (int d = 8; d > 0; d >>= 1) {
            if (idx < d) {
              cov[6 * idx + 0] += cov[6 * (idx + d) + 0];
            }
            it.barrier(sycl::access::fence_space::local_space);
          }
          if (idx == 0) out[it.get_group(0)] = cov[0];
        });
      });
    }
    """


def test_only_the_lanes_a_test_lets_through_share_the_banks() -> None:
    # xe-hpc, 16 banks: 16 lanes 6 words apart fall on 8 banks twice (2 passes for 1); under
    # `idx < d` with d falling from 8, at most 8 lanes run, on 8 different banks: no conflict
    found = run_engine(_REDUCTION, "k.cpp", "xe-hpc", "KL602")
    assert [(f.line, f.cost.value if f.cost else None) for f in found] == [(9, 2)]
    assert "16 of its lanes pass the test around it" in found[0].message
    # a counter that grows gives no bound: the 32 lanes of the sub-group are counted
    rising = run_engine(
        _REDUCTION.replace("d = 8; d > 0; d >>= 1", "d = 1; d < 16; d <<= 1"), "k.cpp", "xe-hpc", "KL602"
    )
    assert 14 in [f.line for f in rising]
