// kernlint-devices: xe-hpc
// Code ported from CUDA often keeps its barrier name as a macro around the SYCL call. The macro is
// read like the call it expands to: a tree sum behind it is a real tree with barriers, a flag a leader
// publishes before it is the same for every work-item after it, and a barrier that only some
// work-items reach through it is still a deadlock.
#include <sycl/sycl.hpp>
#define syncthreads() item.barrier(sycl::access::fence_space::local_space)
#define warp_sync() sycl::group_barrier(item.get_sub_group())

constexpr int BLOCK = 256;

void block_minima(sycl::queue &q, const int *in, int *minima, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> best(BLOCK, h);
    h.parallel_for(sycl::nd_range<1>(n, BLOCK), [=](sycl::nd_item<1> item) [[sycl::reqd_sub_group_size(32)]] {
      const int lid = item.get_local_id(0);
      best[lid] = in[item.get_global_id(0)];
      syncthreads();
      for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (lid < s) // expect: KL501 (warning, tree-reduction: the macro is a work-group barrier)
          best[lid] = sycl::min(best[lid], best[lid + s]);
        syncthreads();
      }
      if (lid == 0)
        minima[item.get_group(0)] = best[0];
    });
  });
}

// A leader decides for the work-group and publishes the decision in local memory; after the barrier
// every work-item reads the same flag, so the loop it steers is uniform.
void settle(sycl::queue &q, float *cells, const float *limits, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> again(1, h);
    h.parallel_for(sycl::nd_range<1>(n, BLOCK), [=](sycl::nd_item<1> item) {
      const size_t gid = item.get_global_id(0);
      do {
        cells[gid] *= 0.5f;
        if (item.get_local_id(0) == 0)
          again[0] = cells[gid] > limits[item.get_group(0)];
        syncthreads();
      } while (again[0]);
    });
  });
}

// Only the leader skips the second phase: the other work-items wait at a barrier it never reaches.
void two_phase(sycl::queue &q, float *data, const int *stop, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> stage(BLOCK, h);
    h.parallel_for(sycl::nd_range<1>(n, BLOCK), [=](sycl::nd_item<1> item) {
      const int lid = item.get_local_id(0);
      int done = 0;
      if (lid == 0 && stop[item.get_group(0)] != 0)
        done = 1;
      if (!done) {
        stage[lid] = data[item.get_global_id(0)];
        syncthreads(); // expect: KL502
        data[item.get_global_id(0)] = stage[(lid + 1) % BLOCK];
      }
      warp_sync(); // a sub-group barrier through a macro is not read (its group is not resolved)
    });
  });
}
