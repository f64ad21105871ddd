// Reduction kernels kept in a header, as ported code often has them: a dpct-style function template
// taking the work-item, a functor, and a lambda factory. Each halves the active work-items per step
// (`if (lid < s)`), so the last steps run inside one sub-group on fewer and fewer lanes. The file
// that includes this header launches them; the header is checked on its own.
#pragma once
#include <sycl/sycl.hpp>

template <int kBlock>
void block_max(const float *in, float *out, float *scratch, const sycl::nd_item<1> &item) {
  const int lid = item.get_local_id(0);
  scratch[lid] = in[item.get_global_id(0)];
  item.barrier(sycl::access::fence_space::local_space);
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (lid < s) // expect: KL501 (warning)
      scratch[lid] = sycl::fmax(scratch[lid], scratch[lid + s]);
    item.barrier(sycl::access::fence_space::local_space);
  }
  if (lid == 0)
    out[item.get_group(0)] = scratch[0];
}

struct BlockSquares {
  const float *in;
  float *out;
  sycl::local_accessor<float, 1> scratch;
  void operator()(sycl::nd_item<1> item) const {
    const size_t lid = item.get_local_id(0);
    const float v = in[item.get_global_id(0)];
    scratch[lid] = v * v;
    sycl::group_barrier(item.get_group());
    for (size_t s = item.get_local_range(0) / 2; s > 0; s /= 2) {
      if (lid < s) // expect: KL501 (warning)
        scratch[lid] += scratch[lid + s];
      sycl::group_barrier(item.get_group());
    }
    if (lid == 0)
      out[item.get_group_linear_id()] = scratch[0];
  }
};

inline auto make_block_count(const int *flags, int *out, sycl::local_accessor<int, 1> scratch) {
  return [=](sycl::nd_item<1> item) {
    const int lid = item.get_local_id(0);
    scratch[lid] = flags[item.get_global_id(0)] != 0;
    item.barrier(sycl::access::fence_space::local_space);
    for (int s = item.get_local_range(0) / 2; s > 0; s >>= 1) {
      if (lid < s) // expect: KL501 (warning)
        scratch[lid] += scratch[lid + s];
      item.barrier(sycl::access::fence_space::local_space);
    }
    if (lid == 0)
      out[item.get_group(0)] = scratch[0];
  };
}

// Silent: the group algorithm keeps every work-item busy.
inline void block_min(const float *in, float *out, const sycl::nd_item<1> &item) {
  const float m = sycl::reduce_over_group(item.get_group(), in[item.get_global_id(0)], sycl::minimum<float>());
  if (item.get_local_id(0) == 0)
    out[item.get_group(0)] = m;
}
