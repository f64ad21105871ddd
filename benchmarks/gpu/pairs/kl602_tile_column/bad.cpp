// kernlint-devices: h100
// KL602, bad: a transpose through a 32 x 32 tile of local memory. The tile is filled row by row (lanes
// on neighbouring words) and read by column: the 32 lanes of a warp read words 32 apart, all in one of
// the 32 banks, so each read takes 32 passes (wavefronts) where 1 would do. The column reads are the
// kernel's only local-memory loads.
#include <sycl/sycl.hpp>

constexpr int TILE = 32;
constexpr int ROWS = 8;

void transpose(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(TILE, TILE), h);
    h.parallel_for(sycl::nd_range<2>({n / (TILE / ROWS), n}, {ROWS, TILE}), [=](sycl::nd_item<2> it) {
      const int lx = it.get_local_id(1), ly = it.get_local_id(0);
      const size_t bx = it.get_group(1) * TILE, by = it.get_group(0) * TILE;
      for (int j = 0; j < TILE; j += ROWS)
        tile[ly + j][lx] = in[(by + ly + j) * n + bx + lx];
      sycl::group_barrier(it.get_group());
      for (int j = 0; j < TILE; j += ROWS)
        out[(bx + ly + j) * n + by + lx] = tile[lx][ly + j]; // expect: KL602
    });
  });
}
