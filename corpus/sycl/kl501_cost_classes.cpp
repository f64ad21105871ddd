// KL501 ranks divergence by what it costs and whether it can be changed: a divergent loop, serial
// work by one lane and heavy arms warn; cheap arms and data-driven searches are info; boundaries
// (a leader publishing one value, a tail guard) stay silent by default.
#include <sycl/sycl.hpp>

constexpr int WG = 128;

// One lane sums the whole tile while the other 127 wait: serial work by one lane.
void tile_sums(sycl::queue &q, const float *in, float *sums, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(WG, h);
    h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
      const size_t lid = it.get_local_id(0);
      tile[lid] = in[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      if (lid == 0) { // expect: KL501
        float total = 0.0f;
        for (int k = 0; k < WG; ++k)
          total += tile[k];
        sums[it.get_group(0)] = total;
      }
    });
  });
}

// The leader only publishes a value the group already computed: a boundary, not reported.
void tile_sums_published(sycl::queue &q, const float *in, float *sums, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
    const float total = sycl::reduce_over_group(it.get_group(), in[it.get_global_id(0)], sycl::plus<>());
    if (it.get_local_id(0) == 0)
      sums[it.get_group(0)] = total;
  });
}

// Each row has its own length: a sub-group runs until its longest row is done.
void csr_rows(sycl::queue &q, const int *row_start, const int *cols, const float *vals, const float *x,
              float *y, size_t rows) {
  q.parallel_for(sycl::range<1>(rows), [=](sycl::id<1> r) {
    float dot = 0.0f;
    for (int j = row_start[r]; j < row_start[r + 1]; ++j) // expect: KL501
      dot += vals[j] * x[cols[j]];
    y[r] = dot;
  });
}

// Odd and even lanes run different multi-step updates one after the other: heavy arms.
void alternate_updates(sycl::queue &q, float *p, float *v, size_t n, float dt) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> idx) {
    const size_t i = idx[0];
    if (i % 2 == 0) { // expect: KL501
      float a = -p[i] * 0.5f;
      v[i] += a * dt;
      p[i] += v[i] * dt;
      v[i] *= 0.99f;
      p[i] = sycl::fmax(p[i], 0.0f);
      v[i] = sycl::fmin(v[i], 10.0f);
    } else {
      float a = p[i] * p[i];
      v[i] -= a * dt;
      p[i] -= v[i] * dt;
      v[i] *= 0.98f;
      p[i] = sycl::fmin(p[i], 1.0f);
      v[i] = sycl::fmax(v[i], -10.0f);
    }
  });
}

// A running maximum kept with a branch: cheap, rewritten to std::max (info with a fix).
void clamp_peaks(sycl::queue &q, const float *samples, float *peaks, size_t n, int window) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> idx) {
    float peak = samples[idx[0]];
    for (int k = 1; k < window; ++k) {
      const float s = samples[idx[0] + k];
      if (s > peak) peak = s; // expect: KL501
    }
    peaks[idx[0]] = peak;
  });
}

// Already a select: nothing to say.
void clamp_peaks_select(sycl::queue &q, const float *samples, float *peaks, size_t n, int window) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> idx) {
    float peak = samples[idx[0]];
    for (int k = 1; k < window; ++k) {
      const float s = samples[idx[0] + k];
      peak = s > peak ? s : peak;
    }
    peaks[idx[0]] = peak;
  });
}

// Each lane bisects for its own key: the divergence is the search itself (info).
void find_buckets(sycl::queue &q, const float *edges, const float *keys, int *bucket, size_t n, int m) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> idx) {
    const float key = keys[idx[0]];
    int lo = 0, hi = m;
    while (lo < hi) { // expect: KL501
      const int mid = (lo + hi) / 2;
      if (edges[mid] <= key) // expect: KL501
        lo = mid + 1;
      else
        hi = mid;
    }
    bucket[idx[0]] = lo;
  });
}

// A tail guard: one sub-group at most runs partly filled (boundary, off by default).
void scale_tail(sycl::queue &q, float *x, size_t n, size_t padded) {
  q.parallel_for(sycl::range<1>(padded), [=](sycl::id<1> idx) {
    if (idx[0] < n)
      x[idx[0]] *= 2.0f;
  });
}
