// kernlint-frontend: clang
// Work-group sizes passed as template arguments, different in each instantiation: tree-sitter leaves
// the size unknown; clang reads every instantiation the file calls and reports once, at the template.
#include <sycl/sycl.hpp>

// Xe-HPC accepts at most 1024 work-items per work-group: 2048 and 4096 fail, 256 is fine.
template <int WG> void saxpy(sycl::queue &q, float a, const float *x, float *y, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) { // expect: KL201
    size_t i = it.get_global_id(0);
    y[i] = a * x[i] + y[i];
  });
}

// A square tile of TILE x TILE work-items: 16 x 16 fits, 64 x 64 (4096) does not.
template <int TILE> void transpose(sycl::queue &q, const float *in, float *out, size_t n) {
  constexpr int side = TILE;
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<2>({n, n}, {side, side}), [=](sycl::nd_item<2> it) { // expect: KL201
      size_t r = it.get_global_id(0), c = it.get_global_id(1);
      out[c * n + r] = in[r * n + c]; // expect: KL601
    });
  });
}

// Every instantiation within the limit: silent.
template <int WG> void fill(sycl::queue &q, float *x, float value, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = value; });
}

void run(sycl::queue &q, float *x, float *y, float *t, size_t n) {
  saxpy<256>(q, 2.0f, x, y, n);
  saxpy<2048>(q, 2.0f, x, y, n);
  saxpy<4096>(q, 2.0f, x, y, n);
  transpose<16>(q, x, t, n);
  transpose<64>(q, x, t, n);
  fill<128>(q, x, 0.0f, n);
  fill<1024>(q, y, 1.0f, n);
}
