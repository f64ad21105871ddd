// A header of kernels, as migration tools write them: free functions taking the nd_item, a functor
// and a factory. The files that include it launch them; the header is checked on its own, with the
// launch sizes unknown.
#pragma once
#include <sycl/sycl.hpp>

// dpct style: the work-item is the last parameter.
inline void block_sum(const float *in, float *out, float *scratch, const sycl::nd_item<3> &item_ct1) {
  const int tid = item_ct1.get_local_id(2);
  scratch[tid] = in[item_ct1.get_global_id(2)];
  for (int stride = item_ct1.get_local_range(2) / 2; stride > 0; stride >>= 1) {
    if (tid < stride) { // expect: KL501
      scratch[tid] += scratch[tid + stride];
      item_ct1.barrier(sycl::access::fence_space::local_space); // expect: KL502
    }
  }
  if (tid == 0)
    out[item_ct1.get_group(2)] = scratch[0];
}

// The fixed reduction: the barrier closes every step for the whole group.
inline void block_sum_fixed(const float *in, float *out, float *scratch, const sycl::nd_item<3> &item_ct1) {
  const int tid = item_ct1.get_local_id(2);
  scratch[tid] = in[item_ct1.get_global_id(2)];
  item_ct1.barrier(sycl::access::fence_space::local_space);
  for (int stride = item_ct1.get_local_range(2) / 2; stride > 0; stride >>= 1) {
    if (tid < stride) // expect: KL501
      scratch[tid] += scratch[tid + stride];
    item_ct1.barrier(sycl::access::fence_space::local_space);
  }
  if (tid == 0)
    out[item_ct1.get_group(2)] = scratch[0];
}

// A functor the including file constructs and launches.
struct Clamp {
  float *data;
  float lo, hi;
  void operator()(sycl::nd_item<1> it) const {
    float &v = data[it.get_global_id(0)];
    v = sycl::clamp(v, lo, hi);
  }
};

// A factory whose kernel synchronises only the first sub-group's work-items.
inline auto make_prefix(int *data) {
  return [=](sycl::nd_item<1> it) {
    if (it.get_local_id(0) < 16)
      sycl::group_barrier(it.get_group()); // expect: KL502
    data[it.get_global_id(0)] += 1;
  };
}
