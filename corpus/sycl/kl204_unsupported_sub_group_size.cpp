// kernlint-devices: gen9 xe-lp xe-hpc h100
// Required sub-group sizes a device cannot run: Xe-HPC offers 16 and 32, NVIDIA only 32.
#include <sycl/sycl.hpp>
#include "kl2_launch_config.hpp"

#define SIMD_WIDTH 8

// SIMD8 tuned for Gen9 / Xe-LP, spelled with a macro.
void narrow(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256),
                 [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(SIMD_WIDTH)]] { // expect[xe-hpc]: KL204 // expect[h100]: KL204
                   x[it.get_global_id(0)] *= 2.0f;
                 });
}

// The same through a constexpr of the quoted header, in the SYCL 2020 attribute spelling.
void narrow_header(sycl::queue &q, float *x, size_t n) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(n, 128),
                   [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(kl2_simd_narrow)]] { // expect[xe-hpc]: KL204 // expect[h100]: KL204
                     x[it.get_global_id(0)] += 1.0f;
                   });
  });
}

// SIMD16 runs on every Intel GPU, not on NVIDIA.
void medium(sycl::queue &q, sycl::buffer<float, 1> &buf) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(buf, h, sycl::read_write);
    h.parallel_for(sycl::nd_range<1>(buf.size(), 64),
                   [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] { acc[it.get_global_id(0)] = 0.0f; }); // expect[h100]: KL204
  });
}

// 64 lanes exist on no target.
void too_wide(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(64)]] { // expect: KL204
    x[it.get_global_id(0)] = 0.0f;
  });
}

// A template argument instantiated once in this file.
template <int SG>
void tuned(sycl::queue &q, int *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(SG)]] { // expect[xe-hpc]: KL204 // expect[h100]: KL204
    x[it.get_global_id(0)] = SG;
  });
}
template void tuned<8>(sycl::queue &, int *, size_t);

// A functor launched twice: its attribute is reported once per device.
struct Gather {
  const int *idx;
  float *out;
  [[intel::reqd_sub_group_size(8)]] void operator()(sycl::nd_item<1> it) const { // expect[xe-hpc]: KL204 // expect[h100]: KL204
    out[it.get_global_id(0)] = static_cast<float>(idx[it.get_global_id(0)]);
  }
};

void gather_twice(sycl::queue &q, const int *idx, float *out, size_t n) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(n, 64), Gather{idx, out}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(n, 128), Gather{idx, out}); });
}

// A plain range launch (no work-group size given) still cannot run SIMD16 on NVIDIA.
void plain(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::item<1> i) [[intel::reqd_sub_group_size(16)]] { x[i] = 1.0f; }); // expect[h100]: KL204
}

#ifdef TUNE_FOR_GEN9
void gen9_only(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 224), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(8)]] { // expect[xe-hpc]: KL204 // expect[h100]: KL204
    x[it.get_global_id(0)] = 1.0f;
  });
}
#endif

// Near misses ------------------------------------------------------------------------------------

// SIMD32 is supported everywhere.
void wide(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(kl2_simd_wide)]] {
    x[it.get_global_id(0)] = 1.0f;
  });
}

// The width depends on the instantiation (two disagree): not evaluated, not reported.
template <int SG>
void either(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(SG)]] {
    x[it.get_global_id(0)] = 1.0f;
  });
}
template void either<8>(sycl::queue &, float *, size_t);
template void either<32>(sycl::queue &, float *, size_t);

// No attribute: the compiler picks a supported size.
void free_choice(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; });
}

// A `sub_group_size` mentioned only in a comment: [[intel::reqd_sub_group_size(8)]]
void comment_only(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; });
}
