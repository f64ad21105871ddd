// KL703: data that goes to the host and comes back unchanged, and partial results finished on the host.
#include <sycl/sycl.hpp>
#include <vector>

// Each step brings the field back and sends it straight out again for the next step.
void stepper(sycl::queue &q, float *h_field, size_t n, int steps) {
  float *d_field = sycl::malloc_device<float>(n, q);
  float *d_next = sycl::malloc_device<float>(n, q);
  for (int s = 0; s < steps; ++s) {
    q.memcpy(d_field, h_field, n * sizeof(float)); // expect: KL703
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d_next[i] = d_field[i] * 0.5f; });
    q.memcpy(h_field, d_next, n * sizeof(float)).wait(); // expect: KL702
  }
  sycl::free(d_field, q);
  sycl::free(d_next, q);
}

// A snapshot copied back only to be sent to a second device array.
void duplicate(sycl::queue &q, size_t n) {
  float *d_a = sycl::malloc_device<float>(n, q);
  float *d_b = sycl::malloc_device<float>(n, q);
  std::vector<float> host(n);
  q.fill(d_a, 1.0f, n);
  q.memcpy(host.data(), d_a, n * sizeof(float)).wait();
  q.memcpy(d_b, host.data(), n * sizeof(float)).wait(); // expect: KL703
  sycl::free(d_a, q);
  sycl::free(d_b, q);
}

// Not reported: the host changes the data before sending it back.
void stepper_forced(sycl::queue &q, float *h_field, size_t n, int steps) {
  float *d_field = sycl::malloc_device<float>(n, q);
  float *d_next = sycl::malloc_device<float>(n, q);
  for (int s = 0; s < steps; ++s) {
    q.memcpy(d_field, h_field, n * sizeof(float));
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d_next[i] = d_field[i] * 0.5f; });
    q.memcpy(h_field, d_next, n * sizeof(float)).wait();
    h_field[0] += 1.0f;
  }
  sycl::free(d_field, q);
  sycl::free(d_next, q);
}

// One partial sum per work-group comes back and the host adds them up.
float dot(sycl::queue &q, const float *d_x, const float *d_y, size_t n) {
  constexpr size_t groups = 4096, local = 256;
  float *d_partial = sycl::malloc_device<float>(groups, q);
  float partial[groups];
  q.parallel_for(sycl::nd_range<1>(groups * local, local), [=](sycl::nd_item<1> it) {
    float sum = 0.0f;
    for (size_t i = it.get_global_id(0); i < n; i += groups * local) sum += d_x[i] * d_y[i];
    sum = sycl::reduce_over_group(it.get_group(), sum, sycl::plus<float>());
    if (it.get_local_id(0) == 0) d_partial[it.get_group(0)] = sum;
  });
  q.memcpy(partial, d_partial, groups * sizeof(float)).wait();
  float total = 0.0f;
  for (size_t g = 0; g < groups; ++g) total += partial[g]; // expect: KL703
  sycl::free(d_partial, q);
  return total;
}

// Not reported: the whole result comes back for a checksum, not partial results.
float checksum(sycl::queue &q, float *d_out, float *h_out, size_t n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d_out[i] = i * 0.5f; });
  q.memcpy(h_out, d_out, n * sizeof(float)).wait();
  float sum = 0.0f;
  for (size_t i = 0; i < n; ++i) sum += h_out[i];
  return sum;
}
