// Which work-item id is the lane: the last dimension of an nd_item, unless the launch gives it an
// extent of 1. Indices through device functions, helpers and macros.
#include <sycl/sycl.hpp>

#define AT(r, c, pitch) ((r) * (pitch) + (c))

inline size_t flat(size_t x, size_t y, size_t z, size_t ny, size_t nz) { return (x * ny + y) * nz + z; }

// A naive transpose: the read is coalesced, the write strides by the matrix width.
void transpose(sycl::queue &q, const float *in, float *out, size_t h, size_t w) {
  q.parallel_for(sycl::nd_range<2>({h, w}, {8, 32}), [=](sycl::nd_item<2> it) {
    const size_t y = it.get_global_id(0), x = it.get_global_id(1);
    out[x * h + y] = in[y * w + x]; // expect: KL601
  });
}

// dpct-style 3-D ids with a work-group of (1, 1, 256): dimension 2 is the lane.
void saxpy3(sycl::queue &q, const float *x, float *y, float a, int n) {
  q.parallel_for(sycl::nd_range<3>(sycl::range<3>(1, 1, n), sycl::range<3>(1, 1, 256)),
                 [=](sycl::nd_item<3> item) {
                   const int i = item.get_group(2) * item.get_local_range(2) + item.get_local_id(2);
                   if (i < n) y[i] = a * x[i] + y[i];
                 });
}

// A range whose last dimension has extent 1: dimension 0 is the one the lanes walk.
void column_of_pairs(sycl::queue &q, const sycl::float2 *pts, float *xs, size_t n) {
  q.parallel_for(sycl::range<2>(n, 1), [=](sycl::item<2> it) {
    const size_t i = it.get_id(0);
    xs[i] = pts[4 * i].x(); // expect: KL601
  });
}

// A 3-D stencil through a helper that flattens (x, y, z): z is the lane, y and x are rows.
void smooth(sycl::queue &q, const float *u, float *v, size_t nx, size_t ny, size_t nz) {
  q.parallel_for(sycl::nd_range<3>({nx, ny, nz}, {1, 4, 64}), [=](sycl::nd_item<3> it) {
    const size_t x = it.get_global_id(0), y = it.get_global_id(1), z = it.get_global_id(2);
    if (z > 0 && z + 1 < nz)
      v[flat(x, y, z, ny, nz)] = u[flat(x, y, z - 1, ny, nz)] + u[flat(x, y, z + 1, ny, nz)];
  });
}

// The same stencil with the lane on the slowest index of the helper: every lane a plane apart.
void smooth_swapped(sycl::queue &q, const float *u, float *v, size_t nx, size_t ny, size_t nz) {
  q.parallel_for(sycl::nd_range<3>({nx, ny, nz}, {1, 4, 64}), [=](sycl::nd_item<3> it) {
    const size_t x = it.get_global_id(0), y = it.get_global_id(1), z = it.get_global_id(2);
    v[flat(z, y, x, ny, nx)] = 2.0f * u[flat(z, y, x, ny, nx)]; // expect: KL601, KL601
  });
}

// A macro index and a device function whose index parameters come from the caller's ids.
float dot_row(const float *m, const float *x, size_t row, size_t cols) {
  float acc = 0.0f;
  for (size_t k = 0; k < cols; ++k)
    acc += m[AT(row, k, cols)] * x[k]; // expect: KL601
  return acc;
}

void gemv(sycl::queue &q, const float *m, const float *x, float *y, size_t rows, size_t cols) {
  q.parallel_for(sycl::nd_range<1>(rows, 64), [=](sycl::nd_item<1> it) {
    const size_t r = it.get_global_id(0);
    y[r] = dot_row(m, x, r, cols);
  });
}

void gemv_by_columns(sycl::queue &q, const float *mt, const float *x, float *y, size_t rows, size_t cols) {
  q.parallel_for(sycl::nd_range<1>(rows, 64), [=](sycl::nd_item<1> it) {
    const size_t r = it.get_global_id(0);
    float acc = 0.0f;
    for (size_t k = 0; k < cols; ++k)
      acc += mt[AT(k, r, rows)] * x[k];
    y[r] = acc;
  });
}
