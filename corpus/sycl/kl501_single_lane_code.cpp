// Code that only one lane runs cannot diverge: a branch inside the guarded arm of a leader test is
// not reported, while the leader's serial loop is. Branches in its `else` arm still diverge.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

// The last work-group to finish merges every group's partial histogram: one lane walks the bins,
// skipping the empty ones. The skip is data-dependent, but only lane 0 is running.
void merge_histograms(sycl::queue &q, const unsigned *partial, unsigned *total, int *done, int bins, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
    if (it.get_local_id(0) == 0) { // expect: KL501
      for (int b = 0; b < bins; ++b) {
        const unsigned count = partial[it.get_global_id(0) * bins + b];
        if (count != 0) {
          total[b] += count;
          done[b] = 1;
          total[bins + b] = sycl::max(total[bins + b], count);
          done[bins + b] += 1;
          total[2 * bins + b] ^= count;
          done[2 * bins + b] = b;
        }
      }
    } else {
      const size_t gid = it.get_global_id(0);
      if (partial[gid] > 4u) { // expect: KL501
        total[gid] += partial[gid] * 2u;
        done[gid] = 2;
        total[n + gid] = partial[gid] - 4u;
        done[n + gid] = 3;
        total[2 * n + gid] = partial[gid] / 2u;
        done[2 * n + gid] = 4;
      }
    }
  });
}

// In a 3-D work-group `get_local_id(2) == 0` picks one lane per row of 8: a sub-group holds several
// rows, so their leaders still diverge from one another.
void row_leaders(sycl::queue &q, const int *starts, const float *vals, float *out, size_t rows) {
  q.parallel_for(sycl::nd_range<3>({rows, 4, 8}, {8, 4, 8}), [=](sycl::nd_item<3> it) {
    const size_t r = it.get_global_id(0) * 4 + it.get_local_id(1);
    if (it.get_local_id(2) == 0) { // expect: KL501
      float s = 0.0f;
      for (int j = starts[r]; j < starts[r + 1]; ++j) // expect: KL501
        s += vals[j];
      out[r] = s;
    }
  });
}
