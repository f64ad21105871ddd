// kernlint-frontend: clang
// Sub-group sizes that are template parameters of kernel functors, instantiated with several sizes:
// tree-sitter cannot tell which size a launch runs with; clang reads each instantiation's arguments.
#include <sycl/sycl.hpp>

// Block loads do not work at sub-group size 32 on Intel GPUs: the 32-lane instantiations break,
// the 16-lane one is fine. Reported once, at the load, naming both failing instantiations.
template <typename T, int SG> struct BlockSum {
  const T *in;
  T *out;
  [[sycl::reqd_sub_group_size(SG)]] void operator()(sycl::nd_item<1> it) const {
    auto sg = it.get_sub_group();
    size_t base = it.get_group(0) * it.get_local_range(0) + sg.get_group_id()[0] * SG;
    T v = sg.load(in + base); // expect: KL301
    T total = sycl::reduce_over_group(sg, v, sycl::plus<>());
    if (sg.get_local_id()[0] == 0)
      out[base / SG] = total;
  }
};

// The same reduction with indexed loads works at every size the device supports.
template <int SG> struct IndexedSum {
  const float *in;
  float *out;
  [[sycl::reqd_sub_group_size(SG)]] void operator()(sycl::nd_item<1> it) const {
    auto sg = it.get_sub_group();
    float v = in[it.get_global_id(0)];
    float total = sycl::reduce_over_group(sg, v, sycl::plus<>());
    if (sg.get_local_id()[0] == 0)
      out[it.get_global_id(0) / SG] = total;
  }
};

// Xe-HPC runs sub-groups of 16 and 32 lanes only: the 8-lane instantiation cannot run there.
template <int LANES> struct Scale {
  float *x;
  float factor;
  [[intel::reqd_sub_group_size(LANES)]] void operator()(sycl::nd_item<1> it) const { // expect: KL204
    x[it.get_global_id(0)] *= factor;
  }
};

// Instantiated at 16 and 32 only: both supported, nothing to report.
template <int LANES> struct Shift {
  float *x;
  [[intel::reqd_sub_group_size(LANES)]] void operator()(sycl::nd_item<1> it) const {
    x[it.get_global_id(0)] += 1.0f;
  }
};

void reduce_all(sycl::queue &q, const float *fin, const int *iin, float *fout, int *iout, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), BlockSum<float, 16>{fin, fout});
  q.parallel_for(sycl::nd_range<1>(n, 256), BlockSum<float, 32>{fin, fout});
  q.parallel_for(sycl::nd_range<1>(n, 256), BlockSum<int, 32>{iin, iout});
  q.parallel_for(sycl::nd_range<1>(n, 256), IndexedSum<16>{fin, fout});
  q.parallel_for(sycl::nd_range<1>(n, 256), IndexedSum<32>{fin, fout});
}

void scale_all(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), Scale<16>{x, 2.0f});
  q.parallel_for(sycl::nd_range<1>(n, 128), Scale<8>{x, 0.5f});
  q.parallel_for(sycl::nd_range<1>(n, 128), Shift<16>{x});
  q.parallel_for(sycl::nd_range<1>(n, 128), Shift<32>{x});
}
