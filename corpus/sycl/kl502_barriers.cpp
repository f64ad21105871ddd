// Barriers that only some work-items reach: inside id-dependent branches and loops, behind early
// returns, in helpers called under a condition. Barriers on uniform paths are fine.
#include <sycl/sycl.hpp>
#include "kl5_tiles.hpp"

// The barrier moved into the `if`: lanes at or above the stride never arrive.
void tree_barrier_inside(sycl::queue &q, float *data, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> slm(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      slm[lid] = data[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      for (int s = kl5_group / 2; s > 0; s >>= 1) {
        if (lid < s) { // expect: KL501
          slm[lid] += slm[lid + s];
          sycl::group_barrier(it.get_group()); // expect: KL502
        }
      }
      if (lid == 0)
        data[it.get_group(0)] = slm[0];
    });
  });
}

// A tail guard around the whole body, barrier included: the last work-group hangs whenever n is not
// a multiple of the work-group size. Fixed version below: guard the loads, not the barrier.
void guarded_tile(sycl::queue &q, const float *in, float *out, size_t n, size_t padded) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(padded, kl5_group), [=](sycl::nd_item<1> it) {
      const size_t gid = it.get_global_id(0);
      const size_t lid = it.get_local_id(0);
      if (gid < n) {
        tile[lid] = in[gid];
        it.barrier(sycl::access::fence_space::local_space); // expect: KL502
        out[gid] = tile[(lid + 1) % kl5_group];
      }
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(padded, kl5_group), [=](sycl::nd_item<1> it) {
      const size_t gid = it.get_global_id(0);
      const size_t lid = it.get_local_id(0);
      tile[lid] = gid < n ? in[gid] : 0.0f;
      it.barrier(sycl::access::fence_space::local_space);
      if (gid < n)
        out[gid] = tile[(lid + 1) % kl5_group];
    });
  });
}

// Early exit before a barrier: the work-items that returned never reach it.
void early_return(sycl::queue &q, const float *in, float *out, size_t n, size_t padded) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(padded, kl5_group), [=](sycl::nd_item<1> it) {
      const size_t gid = it.get_global_id(0);
      if (gid >= n)
        return;
      tile[it.get_local_id(0)] = in[gid];
      sycl::group_barrier(it.get_group()); // expect: KL502
      out[gid] = tile[0];
    });
  });
}

// Early exit on a uniform condition (the whole work-group leaves together) is fine.
void uniform_exit(sycl::queue &q, float *data, size_t n, int groups_to_skip) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    if (it.get_group(0) < groups_to_skip)
      return;
    sycl::group_barrier(it.get_group());
    data[it.get_global_id(0)] *= 2.0f;
  });
}

// Helpers: a barrier inside a device function is divergent when the call is.
void sync_tile(sycl::nd_item<1> it) { it.barrier(sycl::access::fence_space::local_space); }

template <typename Group>
inline float exchange(Group g, float *slm, size_t lid, float v) {
  slm[lid] = v;
  sycl::group_barrier(g);
  return slm[(lid + 1) % kl5_group];
}

void helpers(sycl::queue &q, float *data, float *slm_ptr, size_t n, bool sync_every_step) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    const size_t lid = it.get_local_id(0);
    if (data[it.get_global_id(0)] > 0.0f) // expect: KL501
      sync_tile(it); // expect: KL502
    if (lid % 2 == 0) // expect: KL501
      data[lid] = exchange(it.get_group(), slm_ptr, lid, data[lid]); // expect: KL502
    data[lid] = exchange(it.get_group(), slm_ptr, lid, data[lid]);
    if (sync_every_step)
      sync_tile(it);
  });
}

// A barrier in a loop whose trip count depends on the id: work-items disagree on how many barriers
// there are. A loop with a uniform trip count and a guarded body is fine.
void strided_loops(sycl::queue &q, const float *in, float *out, size_t n, size_t padded) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(padded, kl5_group), [=](sycl::nd_item<1> it) {
      const size_t lid = it.get_local_id(0);
      for (size_t i = it.get_global_id(0); i < n; i += it.get_global_range(0)) {
        tile[lid] = in[i];
        sycl::group_barrier(it.get_group()); // expect: KL502
        out[i] = tile[kl5_group - 1 - lid];
      }
      for (size_t base = 0; base < n; base += it.get_global_range(0)) {
        const size_t i = base + it.get_global_id(0);
        tile[lid] = i < n ? in[i] : 0.0f;
        sycl::group_barrier(it.get_group());
        if (i < n)
          out[i] = tile[kl5_group - 1 - lid];
        sycl::group_barrier(it.get_group());
      }
    });
  });
}

// `break` and `continue` under a data test inside a loop that synchronises.
void converge(sycl::queue &q, float *x, size_t n, int steps, float tol) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    for (int step = 0; step < steps; ++step) {
      if (sycl::fabs(x[i]) < tol) // expect: KL501
        break;
      x[i] *= 0.5f;
      sycl::group_barrier(it.get_group()); // expect: KL502
    }
    for (int step = 0; step < steps; ++step) {
      const bool done = sycl::all_of_group(it.get_group(), sycl::fabs(x[i]) < tol);
      if (done)
        break;
      x[i] *= 0.5f;
      sycl::group_barrier(it.get_group());
    }
  });
}

// Sub-group barriers: a lane test splits the sub-group; a sub-group id test does not.
void sub_group_sync(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
    auto sg = it.get_sub_group();
    const size_t i = it.get_global_id(0);
    if (sg.get_local_id()[0] < 8) { // expect: KL501
      x[i] += 1.0f;
      sycl::group_barrier(sg); // expect: KL502
    }
    if (sg.get_group_id()[0] == 0) {
      x[i] -= 1.0f;
      sycl::group_barrier(sg);
    }
  });
}

// A switch on the lane with a barrier in one case.
void switch_barrier(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    switch (it.get_local_id(0) % 3) { // expect: KL501
    case 0:
      x[it.get_global_id(0)] = 0.0f;
      it.barrier(); // expect: KL502
      break;
    default:
      break;
    }
  });
}
