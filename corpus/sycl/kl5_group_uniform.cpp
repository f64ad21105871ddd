// Values that are the same across a sub-group or a whole work-group although they are computed from
// ids or loaded from memory: sub-group ids and collectives (no lane of a sub-group diverges, but the
// sub-groups of a work-group do), a value one work-item stores in shared memory before a barrier,
// strided loops over a padded bound, and a `continue` after the last barrier of a loop body.
#include <sycl/sycl.hpp>
#include "kl5_tiles.hpp"

// A work queue: the leader takes the next task, a barrier publishes it, and every work-item reads it.
void task_loop(sycl::queue &q, const int *tasks, float *data, int *counter, int num_tasks, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> slm(sycl::range<1>(1), h);
    h.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      int &task = slm[0];
      if (lid == 0)
        task = sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device>(*counter).fetch_add(1);
      sycl::group_barrier(it.get_group());
      while (task < num_tasks) {
        data[tasks[task] * kl5_group + lid] *= 2.0f;
        sycl::group_barrier(it.get_group());
        if (lid == 0)
          task = sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device>(*counter).fetch_add(1);
        sycl::group_barrier(it.get_group());
      }
    });
  });
}

// Sub-group level: warps of 32 work-items, sub-group broadcasts and votes.
void warp_level(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> slm(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      const size_t gid = it.get_global_id(0);
      auto sg = it.get_sub_group();
      const int warp = lid / 32;
      if (warp % 2 == 0) // whole sub-groups take the same side
        out[gid] = in[gid];
      if ((lid >> 5) == 1)
        out[gid] += 1.0f;
      const float first = sycl::select_from_group(sg, in[gid], 0);
      if (first > 0.0f) // the first lane's value, handed to every lane of the sub-group
        out[gid] *= first;
      if (sycl::any_of_group(sg, in[gid] < 0.0f))
        sycl::group_barrier(sg); // every lane of the sub-group agrees on the vote
      if (sycl::any_of_group(sg, in[gid] > 1.0f)) {
        slm[lid] = in[gid];
        sycl::group_barrier(it.get_group()); // expect: KL502
      }
    });
  });
}

// Strided loops: over a bound padded to a multiple of the grid, every work-item runs the same number
// of iterations; over the raw size, the last ones run one fewer.
void strided(sycl::queue &q, const float *in, float *out, size_t n, size_t groups) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(groups * kl5_group, kl5_group), [=](sycl::nd_item<1> it) {
      const size_t lid = it.get_local_id(0);
      const size_t stride = it.get_local_range(0) * it.get_group_range(0);
      const size_t padded = ((n + stride - 1) / stride) * stride;
      for (size_t i = it.get_global_id(0); i < padded; i += stride) {
        tile[lid] = i < n ? in[i] : 0.0f;
        sycl::group_barrier(it.get_group());
        if (i < n)
          out[i] = tile[(lid + 1) % kl5_group];
        sycl::group_barrier(it.get_group());
      }
      for (size_t i = it.get_global_id(0); i < n; i += stride) {
        tile[lid] = in[i];
        sycl::group_barrier(it.get_group()); // expect: KL502
        out[i] = tile[0];
      }
    });
  });
}

// The leader finishes each row after the barrier; the others skip to the next row, where they meet
// the barrier again together with the leader.
void rows(sycl::queue &q, const float *in, float *out, int rows_count, size_t groups) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> slm(sycl::range<1>(2 * kl5_group), h); // two buffers, one per parity
    h.parallel_for(sycl::nd_range<1>(groups * kl5_group, kl5_group), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      for (int r = 0; r < rows_count; ++r) {
        const int buffer = (r % 2) * kl5_group;
        slm[buffer + lid] = in[r * kl5_group + lid];
        sycl::group_barrier(it.get_group());
        if (lid != 0)
          continue;
        float sum = 0.0f;
        for (int j = 0; j < kl5_group; ++j)
          sum += slm[buffer + j];
        out[r] = sum;
      }
    });
  });
}
