// Block loads and stores where they work: kernels that require sub-group size 16 (or whose size is
// not one known constant, which kernlint does not guess). None of these is flagged.
#include <sycl/sycl.hpp>
#include "kl3_sub_groups.hpp"

// Sub-group size 16: the supported way to use block accesses.
void narrow(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(kl3_narrow_sub_group)]] {
    auto sg = it.get_sub_group();
    const size_t base = it.get_group(0) * 256 + sg.get_group_id()[0] * 16;
    sg.store(out + base, sg.load(in + base));
    auto v = sg.load<4>(in + base * 4);
    sg.store<4>(out + base * 4, v);
  });
}

// A template instantiated with two sizes: the size is not one constant, so nothing is claimed.
template <int SubGroupSize>
void either(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(SubGroupSize)]] {
    out[it.get_global_id(0)] = it.get_sub_group().load(in + it.get_group(0) * 256);
  });
}
template void either<16>(sycl::queue &, const float *, float *, size_t);
template void either<32>(sycl::queue &, const float *, float *, size_t);

// A helper with block loads called only from a size-16 kernel; the size-32 kernel next to it
// calls a different helper that uses indexed loads.
inline void stage(sycl::sub_group sg, const float *src, float *dst) { sg.store(dst, sg.load(src)); }
inline void stage_indexed(sycl::sub_group sg, const float *src, float *dst) {
  const size_t lane = sg.get_local_linear_id();
  dst[lane] = src[lane];
}

void staged(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] {
    stage(it.get_sub_group(), in + it.get_group(0) * 128, out + it.get_group(0) * 128);
  });
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
    stage_indexed(it.get_sub_group(), in + it.get_group(0) * 128, out + it.get_group(0) * 128);
  });
}

// Intel builtins in a size-16 kernel.
void builtins_narrow(sycl::queue &q, const unsigned *raw, unsigned *raw_out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] {
    const unsigned word = intel_sub_group_block_read(raw + it.get_group(0) * 64);
    intel_sub_group_block_write(raw_out + it.get_group(0) * 64, word);
  });
}

#ifdef USE_WIDE_SUB_GROUPS
// Code that is compiled only on request is still analysed; this variant uses indexed loads.
void wide_variant(sycl::queue &q, const float *in, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
    out[it.get_global_id(0)] = in[it.get_global_id(0)];
  });
}
#endif
