// KL502 is an error where the code proves that some work-items of a group reach a barrier (or a group
// collective) the others skip, a warning where that depends on sizes the code does not show, and
// silent where the sizes it shows keep every group on one side.
#include <sycl/sycl.hpp>

constexpr int ROWS = 64;
constexpr int VALID = 50;

// A role split on the local id: the 32 loaders stage two tiles behind two barriers, the others wait
// at one. Certain whatever the data: the work-group deadlocks.
void producer_consumer(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> stage(128, h);
    h.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      if (lid < 32) { // whole sub-groups agree: no KL501, but the work-group splits
        stage[lid] = in[it.get_global_id(0)];
        sycl::group_barrier(it.get_group()); // expect: KL502 (error)
        stage[lid + 32] = in[it.get_global_id(0) + 32];
        sycl::group_barrier(it.get_group()); // expect: KL502 (error)
      } else {
        sycl::group_barrier(it.get_group()); // expect: KL502 (error)
        out[it.get_global_id(0)] = stage[lid % 64];
      }
    });
  });
}

// A data-dependent early return: items with a zero weight leave before the barrier. The tail guard
// before it would be harmless at a multiple of the work-group size; the data test never is.
void weighted_tiles(sycl::queue &q, const float *w, float *out, size_t n, size_t valid) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(64, h);
    h.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
      const size_t gid = it.get_global_id(0);
      if (gid >= valid)
        return;
      if (w[gid] == 0.0f) // expect: KL501 (info)
        return;
      tile[it.get_local_id(0)] = w[gid];
      sycl::group_barrier(it.get_group()); // expect: KL502 (error)
      out[gid] = tile[(it.get_local_id(0) + 1) % 64];
    });
  });
}

// Sizes the file gives: 64 rows per work-group of which 50 are valid, and 126 items of 128.
void padded_rows(sycl::queue &q, float *m) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> row(ROWS, h);
    h.parallel_for(sycl::nd_range<1>(ROWS * 16, ROWS), [=](sycl::nd_item<1> it) { // expect: KL206 (info)
      const int lid = it.get_local_id(0);
      if (lid >= VALID)
        return;
      row[lid] = m[it.get_global_id(0)];
      it.barrier(sycl::access::fence_space::local_space); // expect: KL502 (error)
      m[it.get_global_id(0)] = row[VALID - 1 - lid];
    });
  });
  q.parallel_for(sycl::nd_range<1>(128, 64), [=](sycl::nd_item<1> it) { // expect: KL206 (info)
    const int gid = it.get_global_id(0);
    if (gid >= 126)
      return;
    m[gid] *= 2.0f;
    sycl::group_barrier(it.get_group()); // expect: KL502 (error)
    m[gid + 1] += 1.0f;
  });
}

// The bound is a kernel argument: harmless while it is a multiple of 256, which the code does not say.
void unknown_bound(sycl::queue &q, float *v, size_t n, size_t count) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t gid = it.get_global_id(0);
    if (gid >= count)
      return;
    v[gid] += 1.0f;
    sycl::group_barrier(it.get_group()); // expect: KL502 (warning)
    v[gid] *= 0.5f;
  });
}

// 1024 of 4096 items in work-groups of 256: every work-group is wholly on one side.
void whole_groups(sycl::queue &q, float *v) {
  q.parallel_for(sycl::nd_range<1>(4096, 256), [=](sycl::nd_item<1> it) { // expect: KL206 (info)
    const int gid = it.get_global_id(0);
    if (gid >= 1024)
      return;
    v[gid] += 1.0f;
    sycl::group_barrier(it.get_group());
    v[gid] *= 0.5f;
  });
}

// Group collectives are barriers too: every member must reach them.
void collectives(sycl::queue &q, const float *x, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const size_t gid = it.get_global_id(0);
    auto warp = it.get_sub_group();
    float v = x[gid];
    if (v > 0.0f) // expect: KL501
      v = sycl::reduce_over_group(it.get_group(), v, sycl::plus<float>()); // expect: KL502 (error)
    if (gid % 2 == 0) // expect: KL501
      v = sycl::reduce_over_group(warp, v, sycl::plus<float>()); // expect: KL502 (error)
    const bool any = sycl::any_of_group(it.get_group(), v > 1.0f);
    if (it.get_local_id(0) < 64) { // a condition whole sub-groups share
      v = sycl::reduce_over_group(warp, v, sycl::plus<float>());
      sycl::group_barrier(warp);
    }
    if (warp.get_local_id()[0] < 16) // expect: KL501
      sycl::group_barrier(warp); // expect: KL502 (error)
    out[gid] = any ? v : 0.0f;
  });
}
