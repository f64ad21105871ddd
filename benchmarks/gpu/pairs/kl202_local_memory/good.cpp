// kernlint-devices: h100
// KL202, good: 20 KB of local memory per work-group; 8 work-groups fill an SM's 64 warp slots. The same
// elements in twice as many work-groups.
// Each work-group copies a tile of the input to local memory and writes each element averaged with
// its pair partner (index ^ 1); the result does not depend on the tile size. n is a multiple of 10,240.
#include <sycl/sycl.hpp>

constexpr int WG = 256;
constexpr int PER_ITEM = 20;
constexpr int TILE = WG * PER_ITEM;

void pair_average(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(TILE, h);
    h.parallel_for(sycl::nd_range<1>(n / PER_ITEM, WG), [=](sycl::nd_item<1> it) {
      const size_t lid = it.get_local_id(0);
      const size_t base = it.get_group(0) * TILE;
      for (int k = 0; k < PER_ITEM; ++k)
        tile[k * WG + lid] = in[base + k * WG + lid];
      sycl::group_barrier(it.get_group());
      for (int k = 0; k < PER_ITEM; ++k)
        out[base + k * WG + lid] = 0.5f * (tile[k * WG + lid] + tile[(k * WG + lid) ^ 1]);
    });
  });
}
