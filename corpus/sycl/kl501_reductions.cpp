// Work-group reductions and scans: local-memory trees whose active lanes shrink step by step, the
// modulo-strided variant, and the group algorithms that replace them.
#include <sycl/sycl.hpp>

constexpr int kGroup = 256;
constexpr int kWidestSubGroup = 32;

// The textbook tree: `lid < stride` splits sub-groups once the stride drops below their width.
// The barrier sits after the `if`, where every work-item reaches it: no divergent barrier.
void tree_sum(sycl::queue &q, const float *in, float *partial, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> scratch(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
      const size_t gid = it.get_global_id(0);
      const size_t lid = it.get_local_id(0);
      scratch[lid] = gid < n ? in[gid] : 0.0f;
      sycl::group_barrier(it.get_group());
      for (int stride = kGroup / 2; stride > 0; stride >>= 1) {
        if (lid < stride) // expect: KL501
          scratch[lid] += scratch[lid + stride];
        sycl::group_barrier(it.get_group());
      }
      if (lid == 0)
        partial[it.get_group(0)] = scratch[0];
    });
  });
}

// Interleaved addressing: `lid % (2 * s)` keeps one lane in 2s busy from the first step.
void interleaved_sum(sycl::queue &q, const int *in, int *partial, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> scratch(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
      const unsigned lid = it.get_local_linear_id();
      scratch[lid] = in[it.get_global_linear_id()];
      it.barrier(sycl::access::fence_space::local_space);
      for (unsigned s = 1; s < it.get_local_range(0); s *= 2) {
        if (lid % (2 * s) == 0) // expect: KL501
          scratch[lid] += scratch[lid + s];
        it.barrier(sycl::access::fence_space::local_space);
      }
      if (lid == 0)
        partial[it.get_group_linear_id()] = scratch[0];
    });
  });
}

// Stopping the tree at the widest sub-group keeps whole sub-groups together (not flagged), and the
// last steps run as a sub-group reduction.
void tree_then_sub_group(sycl::queue &q, const float *in, float *partial, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> scratch(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
      const size_t lid = it.get_local_id(0);
      scratch[lid] = in[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      for (int stride = kGroup / 2; stride >= kWidestSubGroup; stride /= 2) {
        if (lid < stride)
          scratch[lid] += scratch[lid + stride];
        sycl::group_barrier(it.get_group());
      }
      auto sg = it.get_sub_group();
      if (sg.get_group_id()[0] == 0) {
        float v = sycl::reduce_over_group(sg, scratch[lid], sycl::plus<float>());
        if (sg.get_local_id()[0] == 0)
          partial[it.get_group(0)] = v;
      }
    });
  });
}

// Hillis-Steele scan: lanes below the offset sit out each step, a prefix of the work-group growing
// with the doubling offset, so only the sub-group that holds the offset splits (a boundary: shown with
// report-boundary, not by default).
void inclusive_scan(sycl::queue &q, float *data, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      tile[lid] = data[it.get_global_id(0)];
      auto g = it.get_group();
      for (int offset = 1; offset < kGroup; offset <<= 1) {
        float add = 0.0f;
        if (lid >= offset)
          add = tile[lid - offset];
        sycl::group_barrier(g);
        tile[lid] += add;
        sycl::group_barrier(g);
      }
      data[it.get_global_id(0)] = tile[lid];
    });
  });
}

// The group algorithms do the same without any branch on the id. The leader test and the test on
// the reduced value are not divergent: one lane per work-group, and a value every lane shares.
void group_algorithms(sycl::queue &q, const float *in, float *partial, int *flags, size_t n, float limit) {
  q.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
    const size_t gid = it.get_global_id(0);
    const float total = sycl::reduce_over_group(it.get_group(), gid < n ? in[gid] : 0.0f, sycl::plus<float>());
    const float prefix = sycl::exclusive_scan_over_group(it.get_group(), in[gid], sycl::plus<float>());
    if (total > limit)
      flags[it.get_group_linear_id()] = 1;
    if (it.get_local_linear_id() == 0)
      partial[it.get_group_linear_id()] = total + prefix * 0.0f;
  });
}

// Shuffle reduction inside each sub-group: the offsets are uniform, no lane takes a different path.
void shuffle_sum(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
    auto sg = it.get_sub_group();
    float v = in[it.get_global_id(0)];
    for (int offset = sg.get_local_range()[0] / 2; offset > 0; offset /= 2)
      v += sycl::shift_group_left(sg, v, offset);
    if (sg.get_local_linear_id() == 0)
      sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device>(out[0]) += v;
  });
}

// Loop-varying bound in a second dimension: the row loop is uniform, the column test is a tail guard.
void row_sums(sycl::queue &q, const float *m, float *sums, int rows, int cols) {
  q.parallel_for(sycl::nd_range<2>(sycl::range<2>(rows, cols), sycl::range<2>(1, kGroup)),
                 [=](sycl::nd_item<2> it) {
    const int col = it.get_global_id(1);
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) {
      if (col < cols)
        acc += m[r * cols + col];
    }
    sums[col] = acc;
  });
}

// The tree spread over device functions: the step receives the loop's stride as a parameter, so its
// comparison still moves every iteration; the barrier helper is called on every path.
template <typename T>
inline void tree_step(T *slm, int lid, int stride) {
  if (lid < stride) // expect: KL501
    slm[lid] += slm[lid + stride];
}

inline void wait_group(sycl::nd_item<1> it) { sycl::group_barrier(it.get_group()); }

inline void leader_store(const float *slm, float *out, sycl::nd_item<1> it) {
  if (it.get_local_linear_id() == 0)
    out[it.get_group_linear_id()] = slm[0];
}

void tree_with_helpers(sycl::queue &q, const float *in, float *partial, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> scratch(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      float *slm = &scratch[0];
      slm[lid] = in[it.get_global_id(0)];
      wait_group(it);
      for (int stride = kGroup / 2; stride > 0; stride >>= 1) {
        tree_step(slm, lid, stride);
        wait_group(it);
      }
      leader_store(slm, partial, it);
    });
  });
}
