// kernlint-frontend: clang
// The build (compile_commands.json beside this file) defines USE_USM and TILE=2048: the buffer
// branch below is not compiled, and the tile is 2048 work-items, not the fallback 64. Both front-ends
// read those flags; only clang knows the language version the build selects (-std=c++17).
#include <sycl/sycl.hpp>

#ifndef TILE
#define TILE 64
#endif

void relax(sycl::queue &q, float *grid, size_t n, int steps) {
  for (int s = 0; s < steps; ++s) {
#ifdef USE_USM
    q.parallel_for(sycl::nd_range<1>(n, TILE), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(16)]] { // expect: KL201
      grid[it.get_global_id(0)] *= 0.5f;
    }).wait();
#else
    sycl::buffer<float, 1> b(grid, sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {
      sycl::accessor acc(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { acc[i] *= 0.5f; });
    });
#endif
  }
}

void smooth(sycl::queue &q, float *grid, size_t n, int steps) {
  for (int s = 0; s < steps; ++s) {
#if __cplusplus >= 201703L
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { grid[i] *= 0.5f; }).wait();
#else
    sycl::buffer<float, 1> b(grid, sycl::range<1>(n)); // expect[tree-sitter]: KL101
    q.submit([&](sycl::handler &h) {
      sycl::accessor acc(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { acc[i] *= 0.5f; });
    });
#endif
  }
}
