// kernlint-devices: h100, xe-hpc
// Lanes a constant stride apart, and whether each lane's other loads use the rest of its run of elements.
// When they do (both halves of a complex pair, the three coordinates of a point) every sector the
// sub-group fetches is used and the cache serves the later loads: true, but not worth a change beyond
// a vector load. When they do not (every other element, three of four coordinates), half or a quarter
// of each sector is fetched for nothing.
#include <sycl/sycl.hpp>

// Complex numbers as (re, im) pairs: each lane reads both halves of its pair.
void magnitudes(sycl::queue &q, const float *z, float *mag, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    const float re = z[2 * i];     // expect: KL601 (info)
    const float im = z[2 * i + 1];
    mag[i] = sycl::sqrt(re * re + im * im);
  });
}

// Only the real parts: the imaginary halves of every sector are fetched and dropped.
void real_parts(sycl::queue &q, const float *z, float *re, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    re[i] = z[2 * i]; // expect: KL601 (warning)
  });
}

// Points stored x, y, z one after the other: a lane reads its whole point, in a loop over time steps.
void drift(sycl::queue &q, const float *xyz, float *r2, size_t n, int steps) {
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
    const size_t p = it.get_global_id(0);
    float acc = 0.0f;
    for (int s = 0; s < steps; ++s) {
      const float x = xyz[3 * p];     // expect: KL601 (info)
      const float y = xyz[3 * p + 1];
      const float w = xyz[3 * p + 2];
      acc += (x * x + y * y + w * w) * s;
    }
    r2[p] = acc;
  });
}

// Four coordinates per point, of which the kernel reads three: the fourth of every run is never used.
void skip_weight(sycl::queue &q, const float *xyzw, float *out, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
    const size_t p = it.get_global_id(0);
    out[p] = xyzw[4 * p] + xyzw[4 * p + 1] + xyzw[4 * p + 2]; // expect: KL601
  });
}

// The fixed form of the pairs: one two-element vector per lane, neighbours side by side.
void magnitudes_vec(sycl::queue &q, const sycl::float2 *z, float *mag, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    const sycl::float2 v = z[i];
    mag[i] = sycl::sqrt(v.x() * v.x() + v.y() * v.y());
  });
}
