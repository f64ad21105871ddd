// Buffers in loops inside templates, behind macros and in conditional compilation.
#include <sycl/sycl.hpp>
#include <array>
#include <vector>

#define NUM_LAYERS 12
#define LAYER_WIDTH (256 * 4)

template <typename T, int Width>
void forward(sycl::queue &q, std::array<std::vector<T>, NUM_LAYERS> &layers) {
  for (int layer = 0; layer < NUM_LAYERS; ++layer) {
    sycl::buffer<T, 1> activations(layers[layer].data(), sycl::range<1>(Width)); // expect: KL101
    q.submit([&](sycl::handler &h) {
      sycl::accessor act(activations, h, sycl::read_write);
      h.parallel_for<class relu>(sycl::range<1>(Width), [=](sycl::id<1> i) {
        act[i] = act[i] > T(0) ? act[i] : T(0);
      });
    });
  }
}

template void forward<float, LAYER_WIDTH>(sycl::queue &, std::array<std::vector<float>, NUM_LAYERS> &);

void reduce_rows(sycl::queue &q, std::vector<std::vector<int>> &rows) {
#ifdef USE_SYCL_BUFFERS
  for (auto &row : rows) {
    sycl::buffer<int> r(row.data(), sycl::range<1>(row.size())); // expect: KL101
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(r, h);
      h.single_task([=]() { for (size_t k = 1; k < a.size(); ++k) a[0] += a[k]; });
    });
  }
#else
  for (auto &row : rows) {
    int *usm = sycl::malloc_shared<int>(row.size(), q);
    sycl::free(usm, q);
  }
#endif
}
