// kernlint-devices: gen9 xe-lp xe-hpc h100
// Work-group sizes that are not a whole number of sub-groups (Intel: 8/16/32 lanes, NVIDIA: 32).
#include <sycl/sycl.hpp>
#include "kl2_launch_config.hpp"

#define DECIMAL_GROUP 100
#define SQUARE 10

// 100 work-items: no sub-group size divides it, on any device.
void decimal(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, DECIMAL_GROUP), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] += 1.0f; }); // expect: KL203
}

// 10 x 10 in two dimensions: still 100 work-items per work-group.
void grid(sycl::queue &q, float *x, size_t n) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<2>({n, n}, {SQUARE, SQUARE}), [=](sycl::nd_item<2> it) { // expect: KL203
      x[it.get_global_linear_id()] = 0.0f;
    });
  });
}

// 48 work-items: Intel can compile it at SIMD16 (or 8); an NVIDIA warp is always 32 wide.
void forty_eight(sycl::queue &q, int *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 48), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 4; }); // expect[h100]: KL203
}

// 48 work-items at a required SIMD32: one full and one half-empty sub-group everywhere.
void forty_eight_wide(sycl::queue &q, int *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 48), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(kl2_simd_wide)]] { // expect: KL203
    x[it.get_global_id(0)] = 5;
  });
}

// 24 work-items at a required SIMD16 (NVIDIA cannot run SIMD16 at all: KL204 instead).
void twenty_four(sycl::queue &q, sycl::buffer<int, 1> &buf) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(buf, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::nd_range<1>(buf.size(), 24), // expect[gen9]: KL203 // expect[xe-lp]: KL203 // expect[xe-hpc]: KL203
                   [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] { acc[it.get_global_id(0)] = 6; }); // expect[h100]: KL204
  });
}

// A functor whose required work-group size is 50.
struct Halo {
  float *cells;
  [[sycl::reqd_work_group_size(1, 1, 50)]] void operator()(sycl::nd_item<3> it) const {
    cells[it.get_global_linear_id()] *= 0.5f;
  }
};

void halo(sycl::queue &q, float *cells, size_t nx, size_t ny, size_t nz) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<3>({nx, ny, nz}, {1, 1, 50}), Halo{cells}); // expect: KL203
  });
}

// A template argument: 200 is a multiple of 8 (Gen9 and Xe-LP can pick SIMD8), not of 16 or 32.
template <size_t WG>
void rows(sycl::queue &q, double *m, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) { m[it.get_global_id(0)] = 1.0; }); // expect[xe-hpc]: KL203 // expect[h100]: KL203
}
template void rows<200>(sycl::queue &, double *, size_t);

// 1000 work-items: too large for Gen9 and Xe-LP (KL201); a multiple of 8, but Xe-HPC only offers
// 16 and 32.
void thousand(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 1000), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 2.0f; }); // expect[gen9]: KL201 // expect[xe-lp]: KL201 // expect[xe-hpc]: KL203 // expect[h100]: KL203
}

// Hierarchical launch with 60 work-items per group.
void hier(sycl::queue &q, int *out, size_t groups) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(60), [=](sycl::group<1> g) { // expect: KL203
      g.parallel_for_work_item([&](sycl::h_item<1> it) { out[it.get_global_id(0)] = 0; });
    });
  });
}

// A range launch of a functor that requires 12 work-items per group: 12 is not a multiple of 8.
struct Dozen {
  int *x;
  [[sycl::reqd_work_group_size(12)]] void operator()(sycl::id<1> i) const { x[i] += 12; }
};
void dozen(sycl::queue &q, int *x) {
  q.parallel_for(sycl::range<1>(12 * 4096), Dozen{x}); // expect: KL203
}

// A 3-D stencil block of 3 x 3 x 3 = 27 work-items over a buffer.
void stencil27(sycl::queue &q, sycl::buffer<float, 3> &grid, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor g(grid, h, sycl::read_write);
    h.parallel_for(sycl::nd_range<3>({n, n, n}, {3, 3, 3}), [=](sycl::nd_item<3> it) { g[it.get_global_id()] *= 0.9f; }); // expect: KL203
  });
}

// Near misses ------------------------------------------------------------------------------------

void multiple_of_32(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 96), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(32)]] {
    x[it.get_global_id(0)] = 1.0f;
  });
}

void square_16(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<2>({n, n}, {16, 16}), [=](sycl::nd_item<2> it) { x[it.get_global_linear_id()] = 1.0f; });
}

void runtime_group(sycl::queue &q, float *x, size_t n, size_t wg) {
  q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; });
}

void runtime_range(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = 1.0f; });
}

template <int SG>
void unknown_width(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 48), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(SG)]] {
    x[it.get_global_id(0)] = 1.0f;
  });
}
template void unknown_width<16>(sycl::queue &, float *, size_t);
template void unknown_width<32>(sycl::queue &, float *, size_t);
