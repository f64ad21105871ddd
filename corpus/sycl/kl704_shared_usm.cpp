// KL704: shared USM that only kernels touch inside the hot loop.
#include <sycl/sycl.hpp>
#include <cstdio>

// The host fills the lattice before the sweeps and reads it after: in between only kernels use it.
float anneal(sycl::queue &q, size_t n, int sweeps) {
  float *lattice = sycl::malloc_shared<float>(n, q); // expect: KL704
  for (size_t i = 0; i < n; ++i) lattice[i] = (i % 2) ? 1.0f : -1.0f;
  for (int s = 0; s < sweeps; ++s) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { lattice[i] = -0.5f * lattice[i]; });
  }
  q.wait();
  float first = lattice[0];
  sycl::free(lattice, q);
  return first;
}

// Not reported: the host reads the energy on every sweep; shared memory is what it uses.
float anneal_monitored(sycl::queue &q, size_t n, int sweeps) {
  float *energy = sycl::malloc_shared<float>(n, q);
  float seen = 0.0f;
  for (int s = 0; s < sweeps; ++s) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { energy[i] = s * 0.5f + i; }).wait();
    seen += energy[n - 1];
  }
  sycl::free(energy, q);
  return seen;
}

// Not reported: device memory, copied in and out once.
float anneal_device(sycl::queue &q, float *host, size_t n, int sweeps) {
  float *lattice = sycl::malloc_device<float>(n, q);
  q.memcpy(lattice, host, n * sizeof(float));
  for (int s = 0; s < sweeps; ++s) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { lattice[i] = -0.5f * lattice[i]; });
  }
  q.memcpy(host, lattice, n * sizeof(float)).wait();
  sycl::free(lattice, q);
  return host[0];
}
