// Dependence follows definitions, not names, and helpers are analysed per call: a variable reused
// after a divergent assignment, a fixed-trip loop over a reused counter, a helper called with the
// id at one site and with a kernel argument at another.
#include <sycl/sycl.hpp>
#include "kl5_tiles.hpp"

// Mixes its argument non-monotonically: divergent when given the id, uniform when given a constant.
inline int bucket_of(int v) { return (v * 7) % 5; }

void histogram_pass(sycl::queue &q, const float *in, float *out, int *hist, size_t n, int mode) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    const int lid = it.get_local_id(0);
    const size_t gid = it.get_global_id(0);
    float acc = 0.0f;
    int k = 0;
    if (in[gid] > 1.0f) { // expect: KL501
      k = lid % 3; // a per-lane value, but only until k is reassigned below
      acc = in[gid] * k;
    }
    for (k = 0; k < 16; ++k) { // fixed trip count: every lane runs 16 iterations
      if (k == mode)
        acc += 1.0f;
    }
    int misses = 0;
    for (int j = 0; j < 8; ++j)
      if (in[(gid + j) % n] < 0.0f) // expect: KL501
        misses++;
    if (misses > 2) // expect: KL501
      acc = 0.0f;

    const int mine = bucket_of(lid);
    if (mine == 0) // expect: KL501
      hist[gid] += 1;
    const int shared_bucket = bucket_of(mode); // same helper, kernel argument: uniform
    if (shared_bucket == 0)
      acc *= 2.0f;
    out[gid] = acc;
  });
}
