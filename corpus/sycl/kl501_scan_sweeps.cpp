// kernlint-devices: xe-hpc h100
// A work-efficient (Blelloch) scan in local memory: a halving up-sweep builds partial sums the doubling
// down-sweep then reads. A sub-group reduction cannot replace the up-sweep (it would drop those partial
// sums); a group scan replaces the pair. A plain tree sum, whose partial sums nobody reads, keeps the
// reduction advice, and a doubling bound that moves data without combining it is only an info.
#include <sycl/sycl.hpp>

constexpr int WG = 256;

void block_offsets(sycl::queue &q, const unsigned *counts, unsigned *offsets, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<unsigned, 1> tree(2 * WG, h);
    h.parallel_for(sycl::nd_range<1>(n / 2, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int t = it.get_local_id(0);
      const size_t base = 2 * WG * it.get_group(0);
      tree[2 * t] = counts[base + 2 * t]; // expect: KL602, KL601 (infos)
      tree[2 * t + 1] = counts[base + 2 * t + 1];
      int span = 1;
      for (int d = WG; d > 0; d >>= 1) {
        sycl::group_barrier(it.get_group());
        if (t < d) { // expect: KL501 (warning, tree-scan)
          const int left = span * (2 * t + 1) - 1;
          const int right = span * (2 * t + 2) - 1;
          tree[right] += tree[left];
        }
        span *= 2;
      }
      if (t == 0)
        tree[2 * WG - 1] = 0;
      for (int d = 1; d <= WG; d *= 2) {
        span >>= 1;
        sycl::group_barrier(it.get_group());
        if (t < d) { // expect: KL501 (warning, tree-scan)
          const int left = span * (2 * t + 1) - 1;
          const int right = span * (2 * t + 2) - 1;
          const unsigned carried = tree[left];
          tree[left] = tree[right];
          tree[right] += carried;
        }
      }
      sycl::group_barrier(it.get_group());
      offsets[base + 2 * t] = tree[2 * t]; // expect: KL601 (info)
      offsets[base + 2 * t + 1] = tree[2 * t + 1];
    });
  });
}

// Only the total is kept: the halving loop is a reduction, and the sub-group reduction advice holds.
void block_totals(sycl::queue &q, const float *in, float *totals, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> part(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int t = it.get_local_id(0);
      part[t] = in[it.get_global_id(0)];
      for (int s = WG / 2; s > 0; s >>= 1) {
        sycl::group_barrier(it.get_group());
        if (t < s) // expect: KL501 (warning, tree-reduction)
          part[t] += part[t + s];
      }
      if (t == 0)
        totals[it.get_group(0)] = part[0];
    });
  });
}

// A broadcast that doubles the lanes holding a value each step: data moves, nothing combines.
void spread_seed(sycl::queue &q, const float *seeds, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> copies(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int t = it.get_local_id(0);
      if (t == 0)
        copies[0] = seeds[it.get_group(0)];
      for (int d = 1; d < WG; d *= 2) {
        sycl::group_barrier(it.get_group());
        if (t < d) // expect: KL501 (info, cheap-arms)
          copies[t + d] = copies[t];
      }
      sycl::group_barrier(it.get_group());
      out[it.get_global_id(0)] = copies[t];
    });
  });
}
