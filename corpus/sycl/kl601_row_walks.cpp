// Global-memory accesses of 1-D kernels: which way the lanes walk a matrix or a run of elements.
#include <sycl/sycl.hpp>

constexpr int kChunk = 8;

// Each work-item sums one row of a row-major matrix: the lanes are a row apart at every step.
void row_sums(sycl::queue &q, const float *m, float *sums, int rows, int cols) {
  q.parallel_for(sycl::nd_range<1>(rows, 128), [=](sycl::nd_item<1> it) {
    const int r = it.get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < cols; ++k)
      acc += m[r * cols + k]; // expect: KL601
    sums[r] = acc;
  });
}

// The same sums over a column-major copy: neighbouring lanes read neighbouring elements.
void row_sums_transposed(sycl::queue &q, const float *mt, float *sums, int rows, int cols) {
  q.parallel_for(sycl::nd_range<1>(rows, 128), [=](sycl::nd_item<1> it) {
    const int r = it.get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < cols; ++k)
      acc += mt[k * rows + r];
    sums[r] = acc;
  });
}

// Each work-item scales its own chunk of kChunk consecutive elements.
void scale_chunks(sycl::queue &q, float *data, float factor, size_t items) {
  q.parallel_for(sycl::range<1>(items), [=](sycl::id<1> i) {
    for (int k = 0; k < kChunk; ++k)
      data[i * kChunk + k] *= factor; // expect: KL601
  });
}

// The chunks interleaved: at step k the lanes touch one contiguous block.
void scale_interleaved(sycl::queue &q, float *data, float factor, size_t items) {
  q.parallel_for(sycl::range<1>(items), [=](sycl::id<1> i) {
    for (int k = 0; k < kChunk; ++k)
      data[k * items + i] *= factor;
  });
}

// Complex numbers stored as (re, im) pairs: each lane reads its own pair.
void magnitudes(sycl::queue &q, const float *pairs, float *mag, size_t n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
    const float re = pairs[2 * i];     // expect: KL601
    const float im = pairs[2 * i + 1];
    mag[i] = sycl::sqrt(re * re + im * im);
  });
}

// A grid-stride loop writing every other element.
void spread(sycl::queue &q, const float *in, float *out, size_t n, size_t groups) {
  q.parallel_for(sycl::nd_range<1>(groups * 256, 256), [=](sycl::nd_item<1> it) {
    for (size_t i = it.get_global_id(0); i < n; i += it.get_global_range(0))
      out[2 * i] = in[i]; // expect: KL601
  });
}

// Not reported: gathers (the index comes from memory), broadcasts, one lane's work, a stride that
// may be 1, and the result written once per work-item after the loop (a row pitch with no walk).
void not_reported(sycl::queue &q, const int *index, const float *table, const float *x, float *y, float *row_out,
                  int n, int incx, int cols) {
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
    const int i = it.get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < cols; ++k)
      acc += table[index[i * cols + k]] * x[k]; // expect: KL601
    y[i] = acc + x[i * incx];
    row_out[i * cols] = acc;
    if (it.get_local_id(0) == 0)
      y[n + it.get_group(0)] = table[it.get_group(0) * 3];
    if (i < 32)
      y[n + 2 * i] = x[3 * i];  // expect: KL601, KL601
  });
}
