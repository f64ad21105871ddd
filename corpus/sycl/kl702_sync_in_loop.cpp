// KL702: waits in host loops of SYCL submissions, needed and needless.
#include <sycl/sycl.hpp>
#include <chrono>
#include <cstdio>
#include <utility>

// A relaxation sweep timed as a whole: the per-step wait only paces the loop.
double relax(sycl::queue &q, float *cur, float *next, size_t n, int steps) {
  auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    q.parallel_for(sycl::range<1>(n - 2), [=](sycl::id<1> i) {
      next[i + 1] = 0.5f * (cur[i] + cur[i + 2]);
    });
    q.wait(); // expect: KL702
    std::swap(cur, next);
  }
  q.wait();
  auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(stop - start).count();
}

// A histogram cleared before each pass: waiting for the clear only delays the kernel behind it.
void histograms(sycl::queue &q, const int *keys, int *bins, size_t n, int passes) {
  for (int p = 0; p < passes; ++p) {
    q.memset(bins, 0, 256 * sizeof(int)).wait(); // expect: KL702
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> bin(bins[keys[i] & 255]);
      bin.fetch_add(1);
    });
  }
  q.wait();
}

// Needed: the host reads the residual the kernel wrote to decide whether to stop.
int converge(sycl::queue &q, float *field, float *residual, float *h_residual, size_t n) {
  int iterations = 0;
  do {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
      field[i] *= 0.9f;
      if (i == 0) residual[0] = field[0];
    });
    q.memcpy(h_residual, residual, sizeof(float)).wait();
    ++iterations;
  } while (h_residual[0] > 1e-3f && iterations < 1000);
  return iterations;
}

// Needed: each iteration's kernel is timed on its own, with clock reads around the wait.
double per_kernel(sycl::queue &q, float *data, size_t n, int repeat) {
  double total = 0;
  for (int r = 0; r < repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = data[i] * 2.0f + 1.0f; });
    q.wait();
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return total / repeat;
}

// Needed: the host prints a value of every frame it computes.
void frames(sycl::queue &q, float *d_frame, float *h_frame, size_t n, int count) {
  for (int f = 0; f < count; ++f) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d_frame[i] = f * 0.5f + i; });
    q.memcpy(h_frame, d_frame, n * sizeof(float));
    q.wait();
    printf("frame %d: %f\n", f, h_frame[n / 2]);
  }
}

// Needed: the host refills the staging array the next copy reads.
void stream_batches(sycl::queue &q, float *d_in, float *d_out, float *staging, size_t n, int batches) {
  for (int b = 0; b < batches; ++b) {
    for (size_t i = 0; i < n; ++i) staging[i] = static_cast<float>(b + i);
    q.memcpy(d_in, staging, n * sizeof(float));
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d_out[i] += d_in[i]; });
    q.wait();
  }
}

// Needed: how many results came back sizes the next copy.
void compact(sycl::queue &q, const int *d_flags, int *d_count, int *d_out, int *h_out, size_t n, int rounds) {
  int count = 0;
  for (int r = 0; r < rounds; ++r) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
      d_out[i] = d_flags[i] + r;
      d_count[0] = r;
    });
    q.memcpy(&count, d_count, sizeof(int)).wait();
    q.memcpy(h_out, d_out, count * sizeof(int)).wait();
  }
}

// Not reported: a wait on some iterations only, to report progress.
void checkpoints(sycl::queue &q, float *state, float *h_state, size_t n, int steps) {
  for (int s = 0; s < steps; ++s) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { state[i] += 1.0f; });
    if (s % 100 == 0) {
      q.memcpy(h_state, state, n * sizeof(float)).wait();
      printf("step %d: %f\n", s, h_state[0]);
    }
  }
  q.wait();
}

// A smoothing pass per frame, each waited through its event: nothing on the host needs the frame.
void smooth_frames(sycl::queue &q, float *img, size_t n, int frames) {
  for (int f = 0; f < frames; ++f) {
    sycl::event done = q.parallel_for(sycl::range<1>(n - 1), [=](sycl::id<1> i) { img[i] = 0.5f * (img[i] + img[i + 1]); });
    done.wait(); // expect: KL702
  }
}

// Errors checked after every decay step, though nothing is read: one check after the loop finds them too.
void decay(sycl::queue &q, float *mass, size_t n, int steps) {
  for (int s = 0; s < steps; ++s) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { mass[i] *= 0.99f; });
    q.wait_and_throw(); // expect: KL702
  }
}

// A host accessor built per iteration and never read: it only blocks until the kernel is done.
void heat(sycl::queue &q, sycl::buffer<float, 1> &grid, size_t n, int steps) {
  for (int s = 0; s < steps; ++s) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor g(grid, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { g[i] += 1.0f; });
    });
    sycl::host_accessor view(grid, sycl::read_only); // expect: KL702
  }
}

// Needed: the host accessor's value decides whether to go on.
int heat_until(sycl::queue &q, sycl::buffer<float, 1> &grid, size_t n) {
  int steps = 0;
  for (;;) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor g(grid, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { g[i] += 1.0f; });
    });
    ++steps;
    sycl::host_accessor view(grid, sycl::read_only);
    if (view[0] > 100.0f) break;
  }
  return steps;
}
