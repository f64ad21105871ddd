// Branches on the work-item id: parity, bit and data tests split every sub-group; uniform conditions,
// tail guards, leaders and select/min/max rewrites do not warn.
#include <sycl/sycl.hpp>
#include <cstdint>

float expensive_path(float v) { return sycl::exp(v) * sycl::log1p(v * v); }

// Even and odd elements take different paths: every sub-group runs both at half width.
void even_odd(sycl::queue &q, float *x, size_t n, float a, float b) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> idx) {
    const size_t i = idx[0];
    if (i % 2 == 0) // expect: KL501
      x[i] = sycl::sqrt(x[i]) * a;
    else
      x[i] = sycl::exp(x[i]) * b;
  });
}

// The same work with both values computed and one selected: no branch.
void even_odd_select(sycl::queue &q, float *x, size_t n, float a, float b) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> idx) {
    const size_t i = idx[0];
    const float even = sycl::sqrt(x[i]) * a;
    const float odd = sycl::exp(x[i]) * b;
    x[i] = (i % 2 == 0) ? even : odd;
    x[i] = sycl::select(odd, even, static_cast<int>(i % 2 == 0));
  });
}

// Bit test on the lane: odd lanes negate.
void flip_odd_lanes(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
    auto sg = it.get_sub_group();
    const uint32_t lane = sg.get_local_linear_id();
    float v = x[it.get_global_id(0)];
    if (lane & 1u) { // expect: KL501
      v = -v;
      v = v * v - 1.0f;
    }
    x[it.get_global_id(0)] = v;
  });
}

// Tests on loaded data: the outcome differs from lane to lane. Clamping with min/max does not branch.
void threshold(sycl::queue &q, const float *in, float *out, int *hits, size_t n, float limit, float lo, float hi) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    const float v = in[i];
    if (v > limit) // expect: KL501
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device>(hits[0]) += 1;
    out[i] = sycl::min(sycl::max(v, lo), hi);
    out[i] = (v > limit) ? expensive_path(v) : v; // expect: KL501
    out[i] = v > limit ? limit : v;
  });
}

// A switch on the lane modulo 4: each case runs with a quarter of the lanes.
void four_way(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    switch (it.get_local_id(0) % 4) { // expect: KL501
    case 0: x[i] += 1.0f; break;
    case 1: x[i] *= 2.0f; break;
    default: x[i] = 0.0f; break;
    }
  });
}

// Uniform conditions: kernel arguments, group ids, sub-group ids and ranges are the same in every lane.
void uniform_conditions(sycl::queue &q, float *x, size_t n, bool use_log, int mode) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    if (use_log)
      x[i] = sycl::log(x[i]);
    switch (mode) {
    case 1: x[i] += 1.0f; break;
    default: break;
    }
    if (it.get_group(0) % 2 == 0)
      x[i] *= 0.5f;
    if (it.get_sub_group().get_group_id()[0] == 0)
      x[i] += 2.0f;
    if (it.get_local_range(0) > 64 && it.get_group_linear_id() < it.get_group_range(0) / 2)
      x[i] -= 1.0f;
    for (int k = 0; k < mode; ++k)
      x[i] *= 1.01f;
  });
}

// Boundary conditions: a tail guard, a leader, a halo check. Each costs at most one sub-group and is
// not reported unless `report-boundary` is set.
void stencil(sycl::queue &q, const float *in, float *out, float *first, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    if (i >= n)
      return;
    if (i > 0 && i < n - 1)
      out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
    if (it.get_local_id(0) == 0)
      first[it.get_group(0)] = in[i];
  });
}

// A flag computed from the id keeps its grade: a boundary flag stays quiet, a data flag warns.
void flags(sycl::queue &q, const int *keys, int *out, size_t n) {
  q.parallel_for(n, [=](size_t i) {
    const bool inside = i < n;
    if (inside)
      out[i] = 0;
    bool negative = false;
    if (keys[i] < 0)  // expect: KL501
      negative = true;
    if (negative)     // expect: KL501
      out[i] = -keys[i];
  });
}

// Loops: a CSR row runs from row_ptr[row] to row_ptr[row + 1], a length read per lane; a grid-stride
// loop differs by at most one iteration; a triangular loop grows with the id; the escape-time loop of a
// fractal stops at a different step in every lane.
void loops(sycl::queue &q, const int *row_ptr, const int *cols, const float *vals, const float *x, float *y,
           float *lower, int rows, size_t n, int max_iter) {
  q.parallel_for(sycl::nd_range<1>(rows, 64), [=](sycl::nd_item<1> it) {
    const int row = it.get_global_id(0);
    float acc = 0.0f;
    for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j) // expect: KL501
      acc += vals[j] * x[cols[j]];
    y[row] = acc;
    for (size_t k = it.get_global_id(0); k < n; k += it.get_global_range(0))
      lower[k] = 0.0f;
    float tri = 0.0f;
    for (int k = 0; k <= row; ++k) // expect: KL501
      tri += lower[row * rows + k]; // expect: KL601
    y[row] += tri;
  });
  q.parallel_for(sycl::range<2>(rows, rows), [=](sycl::item<2> it) {
    const float cr = -2.0f + 3.0f * it.get_id(1) / rows;
    const float ci = -1.5f + 3.0f * it.get_id(0) / rows;
    float zr = 0.0f, zi = 0.0f;
    int iter = 0;
    while (zr * zr + zi * zi < 4.0f && iter < max_iter) { // expect: KL501
      const float t = zr * zr - zi * zi + cr;
      zi = 2.0f * zr * zi + ci;
      zr = t;
      ++iter;
    }
    y[it.get_linear_id()] = iter;
  });
}

// Host code is never device code: the same shapes outside kernels are not reported.
void host_side(float *x, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (i % 2 == 0 && x[i] > 0.0f)
      x[i] = 0.0f;
}
