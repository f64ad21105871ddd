// kernlint-devices: gen9 xe-lp xe-hpc h100
// Work-group sizes above a device's maximum (Gen9 256, Xe-LP 512, Xe-HPC and H100 1024).
#include <sycl/sycl.hpp>
#include "kl2_launch_config.hpp"

#define TILE_EDGE 32
#define SMALL_EDGE 16

// The guide's barrier kernel with R = 5: 640 work-items per work-group.
void rows_r5(sycl::queue &q, float *data) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<3>({64, 80, 128}, {1, KL2_ROWS_PER_GROUP, 128}), // expect[gen9]: KL201 // expect[xe-lp]: KL201
                   [=](sycl::nd_item<3> it) {
                     size_t i = it.get_global_linear_id();
                     data[i] *= 2.0f;
                     it.barrier(sycl::access::fence_space::local_space);
                     data[i] += 1.0f;
                   });
  });
}

// A constexpr from the quoted header: exactly the Xe-HPC / H100 maximum.
void scale_large(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl2_large_group), // expect[gen9]: KL201 // expect[xe-lp]: KL201
                 [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] *= 0.5f; });
}

// A 2-D tile from macros: 32 x 32 = 1024.
void transpose(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<2>(sycl::range<2>(n, n), sycl::range<2>(TILE_EDGE, TILE_EDGE)), // expect[gen9]: KL201 // expect[xe-lp]: KL201
                   [=](sycl::nd_item<2> it) {
                     size_t r = it.get_global_id(0), c = it.get_global_id(1);
                     out[c * n + r] = in[r * n + c]; // expect: KL601
                   });
  });
}

// 16 x 16 = 256: exactly Gen9's maximum, fine everywhere.
void transpose_small(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<2>(sycl::range<2>(n, n), sycl::range<2>(SMALL_EDGE, SMALL_EDGE)),
                   [=](sycl::nd_item<2> it) {
                     size_t r = it.get_global_id(0), c = it.get_global_id(1);
                     out[c * n + r] = in[r * n + c]; // expect: KL601
                   });
  });
}

// A template argument instantiated in this file: 2048 is too large everywhere.
template <int WG>
void saxpy(sycl::queue &q, float a, const float *x, float *y, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), // expect: KL201
                 [=](sycl::nd_item<1> it) {
                   size_t i = it.get_global_id(0);
                   y[i] = a * x[i] + y[i];
                 });
}
template void saxpy<2048>(sycl::queue &, float, const float *, float *, size_t);

// A functor that requires 512 work-items: too many for Gen9, exactly Xe-LP's maximum.
struct Stencil {
  float *grid;
  [[sycl::reqd_work_group_size(1, 16, 32)]] void operator()(sycl::nd_item<3> it) const {
    grid[it.get_global_linear_id()] += 1.0f;
  }
};

void run_stencil(sycl::queue &q, float *grid, size_t nx, size_t ny, size_t nz) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<3>({nx, ny, nz}, {1, 16, 32}), Stencil{grid}); // expect[gen9]: KL201
  });
}

// The nd_range built in a variable first; buffers instead of USM.
void blur(sycl::queue &q, sycl::buffer<float, 2> &img, size_t w, size_t h_) {
  sycl::nd_range<2> launch{{w, h_}, {32, 16}};
  q.submit([&](sycl::handler &h) {
    sycl::accessor px(img, h, sycl::read_write);
    h.parallel_for(launch, [=](sycl::nd_item<2> it) { px[it.get_global_id()] *= 0.25f; }); // expect[gen9]: KL201
  });
}

// Hierarchical parallelism: 4096 groups of 512 work-items.
void hierarchical(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group(sycl::range<1>(4096), sycl::range<1>(512), [=](sycl::group<1> g) { // expect[gen9]: KL201
      g.parallel_for_work_item([&](sycl::h_item<1> it) { out[it.get_global_id(0)] = 1; });
    });
  });
}

// A queue shortcut with a brace-initialised nd_range: 768 work-items.
void fill(sycl::queue &q, int *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>{n, 768}, [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 7; }); // expect[gen9]: KL201 // expect[xe-lp]: KL201
}

// One dimension unknown, but 1024 work-items in the other are already too many for Gen9 and Xe-LP.
void rows(sycl::queue &q, float *m, size_t rows_per_group, size_t n) {
  q.parallel_for(sycl::nd_range<2>(sycl::range<2>(n, n), sycl::range<2>(rows_per_group, 1024)), // expect[gen9]: KL201 // expect[xe-lp]: KL201
                 [=](sycl::nd_item<2> it) { m[it.get_global_linear_id()] = 0.0f; });
}

#ifdef USE_WIDE_GROUPS
void wide(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 4096), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; }); // expect: KL201
}
#endif

// Near misses: sizes from the device, from a parameter, or left to the runtime.
void from_device(sycl::queue &q, float *x, size_t n) {
  size_t wg = q.get_device().get_info<sycl::info::device::max_work_group_size>();
  q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; });
}

void from_parameter(sycl::queue &q, float *x, size_t n, size_t wg) {
  q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; });
}

void plain_range(sycl::queue &q, float *x) {
  q.parallel_for(sycl::range<1>(kl2_problem), [=](sycl::id<1> i) { x[i] = 2.0f; });
}

void at_gen9_limit(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl2_medium_group), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 3.0f; });
}
