// KL101 in an iterative solver: the residual of each iteration is reduced into a one-element buffer
// built in a nested block inside the iteration loop, so every iteration allocates it, tracks it
// afresh and copies it back when the block ends. The file is one a plain parse reads only in part:
// an `#if` chooses between two launches of the same kernel, and the kernel uses statement-like
// macros from a header kernlint does not see.
#include <sycl/sycl.hpp>
#include <vector>
#include "solver_config.h"

void jacobi(sycl::queue &q, std::vector<float> &u, std::vector<float> &f, int n, int max_iter, float tol) {
  sycl::buffer<float, 1> ub(u.data(), sycl::range<1>(n));
  sycl::buffer<float, 1> fb(f.data(), sycl::range<1>(n));
  for (int iter = 0; iter < max_iter; ++iter) {
    float residual = 0.0f;
    {
      sycl::buffer<float, 1> res_buf(&residual, 1); // expect: KL101
      q.submit([&](sycl::handler &h) {
        sycl::accessor uv(ub, h, sycl::read_write);
        sycl::accessor fv(fb, h, sycl::read_only);
        auto sum = sycl::reduction(res_buf, h, sycl::plus<float>());
#if SOLVER_ND_RANGE
        h.parallel_for(sycl::nd_range<1>(n, 128), sum, [=](sycl::nd_item<1> it, auto &acc) {
          const int i = it.get_global_id(0);
#else
        h.parallel_for(sycl::range<1>(n), sum, [=](sycl::id<1> idx, auto &acc) {
          const int i = idx[0];
#endif
          if (i == 0 || i >= n - 1) return;
          const float next = 0.5f * (uv[i - 1] + uv[i + 1] - fv[i]);
          // No semicolon after the macro: the statement that follows is lost to the parse (KL000).
          SOLVER_TRACE(i, next)
          acc += (next - uv[i]) * (next - uv[i]); // expect: KL000
          uv[i] = next;
        });
      });
    }
    if (residual < tol * tol)
      break;
  }
}

// The fix: one buffer for the residual, reset on the device each iteration; the host reads it through
// a host accessor, which waits for the kernel but keeps the buffer.
void jacobi_fixed(sycl::queue &q, std::vector<float> &u, std::vector<float> &f, int n, int max_iter, float tol) {
  sycl::buffer<float, 1> ub(u.data(), sycl::range<1>(n));
  sycl::buffer<float, 1> fb(f.data(), sycl::range<1>(n));
  sycl::buffer<float, 1> res_buf(sycl::range<1>(1));
  for (int iter = 0; iter < max_iter; ++iter) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor uv(ub, h, sycl::read_write);
      sycl::accessor fv(fb, h, sycl::read_only);
      auto sum = sycl::reduction(res_buf, h, sycl::plus<float>(), sycl::property::reduction::initialize_to_identity());
      h.parallel_for(sycl::range<1>(n), sum, [=](sycl::id<1> idx, auto &acc) {
        const int i = idx[0];
        if (i == 0 || i >= n - 1) return;
        const float next = 0.5f * (uv[i - 1] + uv[i + 1] - fv[i]);
        acc += (next - uv[i]) * (next - uv[i]);
        uv[i] = next;
      });
    });
    sycl::host_accessor residual(res_buf, sycl::read_only);
    if (residual[0] < tol * tol)
      break;
  }
}
