// Kernels built by factory functions and launched by name: a function (template) returns the lambda
// (or a functor), the command group stores it in a variable and hands the name to parallel_for.
#include <sycl/sycl.hpp>

constexpr int kTile = 64;

// Returns the lambda directly. The bad variant synchronises only the odd work-items.
template <typename T>
auto make_pairwise_sum(sycl::local_accessor<T, 1> tile, const T *in, T *out) {
  return [=](sycl::nd_item<1> it) {
    const size_t lid = it.get_local_id(0);
    tile[lid] = in[it.get_global_id(0)];
    if (lid % 2) { // expect: KL501
      it.barrier(sycl::access::fence_space::local_space); // expect: KL502
      out[it.get_global_id(0)] = tile[lid] + tile[lid - 1];
    }
  };
}

// The fixed form: every work-item reaches the barrier, then the first half sums the pairs.
template <typename T>
auto make_pairwise_sum_fixed(sycl::local_accessor<T, 1> tile, const T *in, T *out) {
  return [=](sycl::nd_item<1> it) {
    const size_t lid = it.get_local_id(0);
    tile[lid] = in[it.get_global_id(0)];
    it.barrier(sycl::access::fence_space::local_space);
    if (lid < kTile / 2)
      out[it.get_group(0) * (kTile / 2) + lid] = tile[2 * lid] + tile[2 * lid + 1];
  };
}

// Builds the lambda in a variable, then returns it; it asks for a sub-group size xe-hpc lacks.
inline auto make_scale(float *data, float factor) {
  auto kernel = [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(8)]] { // expect: KL204
    data[it.get_global_id(0)] *= factor;
  };
  return kernel;
}

// A functor returned by a factory: its call operator leaves early before the barrier.
struct Smooth {
  sycl::local_accessor<float, 1> tile;
  const float *in;
  float *out;
  size_t n;
  void operator()(sycl::nd_item<1> it) const {
    const size_t gid = it.get_global_id(0);
    if (gid >= n)
      return;
    tile[it.get_local_id(0)] = in[gid];
    it.barrier(); // expect: KL502
    out[gid] = tile[it.get_local_id(0)];
  }
};

inline Smooth make_smooth(sycl::local_accessor<float, 1> tile, const float *in, float *out, size_t n) {
  return Smooth{tile, in, out, n};
}

void run(sycl::queue &q, const float *in, float *out, float *data, size_t n) {
  q.submit([&](sycl::handler &cgh) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kTile), cgh);
    auto kernel = make_pairwise_sum<float>(tile, in, out);
    cgh.parallel_for(sycl::nd_range<1>(n, kTile), kernel);
  });
  q.submit([&](sycl::handler &cgh) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kTile), cgh);
    cgh.parallel_for(sycl::nd_range<1>(n, kTile), make_pairwise_sum_fixed<float>(tile, in, out));
  });
  q.parallel_for(sycl::nd_range<1>(n, kTile), make_scale(data, 2.0f));
  q.submit([&](sycl::handler &cgh) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kTile), cgh);
    auto smooth = make_smooth(tile, in, out, n);
    cgh.parallel_for(sycl::nd_range<1>(n, kTile), smooth);
  });
}
