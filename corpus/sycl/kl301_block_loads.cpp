// kernlint-devices: xe-hpc h100
// Sub-group block loads and stores in kernels that require sub-group size 32: they do not work at
// that size on Intel GPUs (16 or smaller is required). NVIDIA targets are not concerned.
#include <sycl/sycl.hpp>
#include "kl3_sub_groups.hpp"

#define SG_WIDE 32

// Member spellings on a sub-group obtained from the nd_item.
void copy_blocks(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
    auto sg = it.get_sub_group();
    const size_t base = it.get_group(0) * 256 + sg.get_group_id()[0] * 32;
    const float v = sg.load(in + base); // expect[xe-hpc]: KL301
    sg.store(out + base, v * 2.0f); // expect[xe-hpc]: KL301
  });
}

// Vector forms, with the size from a macro and through a sub-group handle passed around.
void copy_vectors(sycl::queue &q, const sycl::float4 *in, sycl::float4 *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<class VecCopy>(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(SG_WIDE)]] {
      sycl::sub_group sg = it.get_sub_group();
      const size_t base = it.get_group(0) * 128 * KL3_BLOCK_WIDTH;
      auto v = sg.load<KL3_BLOCK_WIDTH>(in + base); // expect[xe-hpc]: KL301
      sg.store<KL3_BLOCK_WIDTH>(out + base, v); // expect[xe-hpc]: KL301
    });
  });
}

// In a device function the kernel calls, with the size from a constexpr in the header.
template <typename SubGroup>
inline float gather_row(SubGroup sg, const float *row) {
  return sg.load(row); // expect[xe-hpc]: KL301
}

void rows(sycl::queue &q, const float *m, float *sums, size_t rows_n, size_t cols) {
  q.parallel_for(sycl::nd_range<1>(rows_n * 32, 32), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(kl3_wide_sub_group)]] {
    const float v = gather_row(it.get_sub_group(), m + it.get_group(0) * cols);
    sums[it.get_group(0)] = sycl::reduce_over_group(it.get_sub_group(), v, sycl::plus<float>());
  });
}

// The oneAPI extension spelling on a sub-group, and the Intel builtins.
void extension_spellings(sycl::queue &q, const int *in, int *out, const unsigned *raw, unsigned *raw_out, size_t n) {
  namespace syclex = sycl::ext::oneapi::experimental;
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
    auto sg = syclex::this_sub_group();
    int values[2];
    syclex::group_load(sg, in + it.get_group(0) * 64, sycl::span<int, 2>{values}); // expect[xe-hpc]: KL301
    syclex::group_store(sg, sycl::span<int, 2>{values}, out + it.get_group(0) * 64); // expect[xe-hpc]: KL301
    const unsigned word = intel_sub_group_block_read(raw + it.get_group(0) * 64); // expect[xe-hpc]: KL301
    intel_sub_group_block_write(raw_out + it.get_group(0) * 64, word); // expect[xe-hpc]: KL301
  });
}

// A template whose only instantiation in the file requires 32.
template <int SubGroupSize>
void templated(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(SubGroupSize)]] {
    auto sg = it.get_sub_group();
    out[it.get_global_id(0)] = sg.load(in + it.get_group(0) * 256) + 1.0f; // expect[xe-hpc]: KL301
  });
}
template void templated<32>(sycl::queue &, const float *, float *, size_t);

// --- not flagged ---------------------------------------------------------------------------

// Size 32 without block accesses: indexed loads, an atomic's load, a work-group group_load.
void wide_without_blocks(sycl::queue &q, const float *in, float *out, int *counter, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
    sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> seen(counter[0]);
    const int before = seen.load();
    float values[1];
    sycl::ext::oneapi::experimental::group_load(it.get_group(), in + it.get_group(0) * 256, sycl::span<float, 1>{values});
    out[it.get_global_id(0)] = in[it.get_global_id(0)] + before + values[0];
  });
}

// No required size: the compiler picks one, kernlint does not guess.
void unspecified(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    out[it.get_global_id(0)] = sg.load(in + it.get_group(0) * 256);
  });
}
