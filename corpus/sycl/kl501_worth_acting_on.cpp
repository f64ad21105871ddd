// kernlint-devices: xe-hpc h100
// KL501 warns only where the message names a change with a material gain; the same shapes made small
// or cheap are infos. Each kernel below comes in a form worth changing and one that is not.
#include <sycl/sycl.hpp>

constexpr int WG = 256;
constexpr int PAIR = 2;

// One work-item sums the tile the work-group just staged: 256 serial steps while the other lanes
// idle. reduce_over_group shares them.
void tile_totals(sycl::queue &q, const float *in, float *totals, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      if (lid == 0) { // expect: KL501 (warning, serial-leader)
        float total = 0.0f;
        for (int k = 0; k < it.get_local_range(0); ++k)
          total += tile[k];
        totals[it.get_group(0)] = total;
      }
    });
  });
}

// The leader only resets two counters and combines eight sub-group partials: too little to share.
void publish_partials(sycl::queue &q, const float *partials, float *out, int *counters, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const int lid = it.get_local_id(0);
    const int g = it.get_group(0);
    if (lid == 0) { // expect: KL501 (info, serial-leader)
      float sum = 0.0f;
      for (int k = 0; k < 8; ++k)
        sum += partials[g * 8 + k];
      out[g] = sum;
      counters[2 * g] = 0;
      counters[2 * g + 1] = 0;
    }
  });
}

// A 2-D work-group's corner item walks the whole 16 x 16 tile alone.
void tile_max(sycl::queue &q, const float *img, float *peaks, int width, int height) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(16, 16), h);
    h.parallel_for(sycl::nd_range<2>({static_cast<size_t>(height), static_cast<size_t>(width)}, {16, 16}),
                   [=](sycl::nd_item<2> it) {
                     const int ly = it.get_local_id(0), lx = it.get_local_id(1);
                     tile[ly][lx] = img[it.get_global_id(0) * width + it.get_global_id(1)];
                     sycl::group_barrier(it.get_group());
                     if (lx == 0 && ly == 0) { // expect: KL501 (warning, serial-leader)
                       float best = tile[0][0];
                       for (int y = 0; y < 16; ++y)
                         for (int x = 0; x < 16; ++x)
                           best = sycl::fmax(best, tile[y][x]);
                       peaks[it.get_group_linear_id()] = best;
                     }
                   });
  });
}

// A tree sum with a work-group barrier between its steps: the last five run inside one sub-group
// (16, 8, 4, 2, 1 lanes busy), each behind a barrier a sub-group reduction does without.
void tree_sums(sycl::queue &q, const float *in, float *sums, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      for (int stride = WG / 2; stride > 0; stride >>= 1) {
        sycl::group_barrier(it.get_group());
        if (lid < stride) // expect: KL501 (warning, tree-reduction)
          tile[lid] += tile[lid + stride];
      }
      if (lid == 0)
        sums[it.get_group(0)] = tile[0];
    });
  });
}

// A halving loop whose steps solve for new unknowns from other arrays (cyclic reduction's back
// substitution) is no reduction a group algorithm replaces.
void back_substitute(sycl::queue &q, const float *a, const float *b, const float *c, const float *d, float *x,
                     size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const int lid = it.get_local_id(0);
    for (int active = WG / 2; active > 0; active /= 2) {
      sycl::group_barrier(it.get_group());
      if (lid < active) { // expect: KL501 (info, tree-reduction)
        const int i = 2 * lid + 1;
        x[i] = (d[i] - a[i] * x[i - 1] - c[i] * x[i + 1]) / b[i]; // expect: KL601, KL601, KL601, KL601, KL601
      }
    }
  });
}

// A running prefix: work-item lid adds elements 0..lid itself; inclusive_scan_over_group computes
// every prefix in about 2 log2 W steps.
void running_prefix(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      float sum = 0.0f;
      for (int k = 0; k <= lid; ++k) // expect: KL501 (warning, divergent-loop)
        sum += tile[k];
      out[it.get_global_id(0)] = sum;
    });
  });
}

// The same triangle over the global id: lanes of a sub-group differ by fewer than 32 iterations of a
// long count, so nearly all are busy (the cost is imbalance between sub-groups).
void triangle_weights(sycl::queue &q, const float *w, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const int gid = it.get_global_id(0);
    float acc = 1.0f;
    for (int k = 0; k < gid; ++k) { // expect: KL501 (info, divergent-loop)
      acc = acc * 0.5f + w[k];
      acc = sycl::fmin(acc, 8.0f);
    }
    out[gid] = acc;
  });
}

// Parity splits every sub-group in two and both heavy arms run one after the other: map even and odd
// work to different halves of the range instead.
void even_odd(sycl::queue &q, float *v, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const int i = it.get_global_id(0);
    float x = v[i];
    if (i % 2 == 0) { // expect: KL501 (warning, heavy-arms)
      x = x * x + 1.0f;
      x = sycl::sqrt(x);
      x *= 0.5f;
      x += v[i + 1];
      x -= 0.25f;
      x *= 3.0f;
    } else {
      x = x * 2.0f - 1.0f;
      x = sycl::exp(x);
      x += v[i - 1];
      x /= 4.0f;
      x -= 1.0f;
      x *= 0.5f;
    }
    v[i] = x;
  });
}

// A two-trip loop under a data test is two statements, and an else-if chain that stores one value
// per arm compiles to compares and selects: both cheap.
void classify(sycl::queue &q, const float *v, int *bins, float *pairs, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
    const int i = it.get_global_id(0);
    const float x = v[i];
    if (x > 0.0f) { // expect: KL501 (info, cheap-arms)
      for (int k = 0; k < PAIR; ++k)
        pairs[PAIR * i + k] = x; // expect: KL601
    }
    int bin;
    if (x < 0.1f) // expect: KL501 (info, cheap-arms)
      bin = 0;
    else if (x < 0.2f)
      bin = 1;
    else if (x < 0.4f)
      bin = 2;
    else if (x < 0.8f)
      bin = 3;
    else if (x < 1.6f)
      bin = 4;
    else if (x < 3.2f)
      bin = 5;
    else
      bin = 6;
    bins[i] = bin;
  });
}
