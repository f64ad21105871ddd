// kernlint-devices: xe-lp xe-hpc h100 gen9
// Constant launches with too few work-groups to fill the GPU (Xe-LP: 672 threads in 6 Xe-cores;
// Xe-HPC: 8192 in 128; H100: 8448 warp slots in 132 SMs; Gen9: 168 threads in 3 subslices).
#include <sycl/sycl.hpp>
#include "kl2_launch_config.hpp"

#define ITEMS_PER_GROUP_SMALL 64

// The guide's VectorAdd2<1>: one work-group of 512 at SIMD32, 16/672 = 2.4 % of Xe-LP.
template <int groups>
void vector_add2(sycl::queue &q, const int *a, const int *b, int *sum) {
  size_t num_groups = groups;
  size_t wg_size = 512;
  q.submit([&](auto &h) {
    h.parallel_for(sycl::nd_range<1>(num_groups * wg_size, wg_size), // expect[xe-lp]: KL206 // expect[xe-hpc]: KL206 // expect[h100]: KL206 // expect[gen9]: KL201
                   [=](sycl::nd_item<1> index) [[intel::reqd_sub_group_size(32)]] {
                     size_t i = index.get_global_id(0);
                     sum[i] = a[i] + b[i];
                   });
  });
}

// 42 groups fill Xe-LP exactly (100 %), but not the larger GPUs.
template <int groups>
void vector_add42(sycl::queue &q, const int *a, int *sum) {
  q.parallel_for(sycl::nd_range<1>(groups * 512, 512), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] { // expect[xe-hpc]: KL206 // expect[h100]: KL206 // expect[gen9]: KL201
    sum[it.get_global_id(0)] += a[it.get_global_id(0)];
  });
}

void run_adds(sycl::queue &q, const int *a, const int *b, int *sum) {
  vector_add2<1>(q, a, b, sum);
  vector_add42<42>(q, a, sum);
}

// A constant 2-D launch: 64 x 64 work-items in 16 x 16 groups is 16 work-groups (76 % of small Gen9).
void small_image(sycl::queue &q, float *img) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<2>({64, 64}, {16, 16}), [=](sycl::nd_item<2> it) { // expect[xe-lp]: KL206 // expect[xe-hpc]: KL206 // expect[h100]: KL206
      img[it.get_global_linear_id()] *= 0.5f;
    });
  });
}

// A range launch of a kernel that requires its work-group size (a functor), over buffers.
struct Normalize {
  sycl::accessor<float, 1, sycl::access_mode::read_write> v;
  [[sycl::reqd_work_group_size(ITEMS_PER_GROUP_SMALL)]] void operator()(sycl::item<1> i) const { v[i] /= 2.0f; }
};

void normalize(sycl::queue &q, sycl::buffer<float, 1> &buf) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor v(buf, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(4096), Normalize{v}); // expect[xe-lp]: KL206 // expect[xe-hpc]: KL206 // expect[h100]: KL206
  });
}

// Hierarchical: 8 groups of 128.
void hier(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group(sycl::range<1>(8), sycl::range<1>(128), [=](sycl::group<1> g) { // expect: KL206
      g.parallel_for_work_item([&](sycl::h_item<1> it) { out[it.get_global_id(0)] = 1; });
    });
  });
}

// The size in a local variable assigned once, launched through the queue: 24 x 8 threads is 29 % of
// Xe-LP (above the threshold), 2.3 % of Xe-HPC.
void block_scan(sycl::queue &q, int *data) {
  size_t blocks = 24;
  size_t global = blocks * 256;
  q.parallel_for(sycl::nd_range<1>(global, 256), [=](sycl::nd_item<1> it) { data[it.get_global_id(0)] += 1; }); // expect[xe-hpc]: KL206 // expect[h100]: KL206
}

// A small 3-D launch: 512 work-groups of (4, 4, 4) = 64 work-items, 2 threads each at SIMD32, 1024
// threads: 12 % of Xe-HPC and of the H100, more than a full wave on Xe-LP and Gen9.
void cube(sycl::queue &q, float *v) {
  q.parallel_for(sycl::nd_range<3>({32, 32, 32}, {4, 4, 4}), [=](sycl::nd_item<3> it) { // expect[xe-hpc]: KL206 // expect[h100]: KL206
    v[it.get_global_linear_id()] = 1.0f;
  });
}

// const locals and a USM allocation: 4 work-groups of 256.
void usm_small(sycl::queue &q) {
  const size_t items = 1024;
  const size_t wg = 256;
  float *d = sycl::malloc_device<float>(items, q);
  q.parallel_for(sycl::nd_range<1>(items, wg), [=](sycl::nd_item<1> it) { d[it.get_global_id(0)] = 0.0f; }).wait(); // expect: KL206
  sycl::free(d, q);
}

// Inside conditional compilation: one work-group of 128.
#ifdef DEBUG_KERNELS
void debug_dump(sycl::queue &q, int *x) {
  q.parallel_for(sycl::nd_range<1>(128, 128), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = -1; }); // expect: KL206
}
#endif

// Near misses ------------------------------------------------------------------------------------

// Many waves: the size of the launch is not the problem.
void big(sycl::queue &q, float *x) {
  q.parallel_for(sycl::nd_range<1>(kl2_problem, 256), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0.0f; });
}

// The instantiations disagree: groups is not a constant.
template <int groups>
void sweep(sycl::queue &q, int *x) {
  q.parallel_for(sycl::nd_range<1>(groups * 512, 512), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] { // expect[gen9]: KL201
    x[it.get_global_id(0)] = groups;
  });
}
template void sweep<1>(sycl::queue &, int *);
template void sweep<42>(sycl::queue &, int *);

// Sized from the problem at run time.
void runtime(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>((n + 255) / 256 * 256, 256), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0.0f; });
}

// A plain range without a work-group size: the runtime picks it.
void plain(sycl::queue &q, float *x) {
  q.parallel_for(sycl::range<1>(512), [=](sycl::id<1> i) { x[i] = 1.0f; });
}

// A single task is one work-item by design.
void single(sycl::queue &q, int *x) {
  q.single_task([=]() { x[0] = 42; });
}
