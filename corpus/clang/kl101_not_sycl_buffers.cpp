// kernlint-frontend: clang
// KL101 needs a buffer's type, not its name: only a compiler front-end sees that `host::buffer` is a
// staging class of the project and that `STAGE_BUFFER` declares a real sycl::buffer.
#include <sycl/sycl.hpp>
#include <vector>

namespace host {
// A pinned host staging area: constructing it in a loop is cheap and intended.
template <typename T> class buffer {
 public:
  buffer(T *data, size_t count) : data_(data), count_(count) {}
  T *data() const { return data_; }

 private:
  T *data_;
  size_t count_;
};
}  // namespace host

// The project's shorthand for a device buffer over a host array.
#define STAGE_BUFFER(name, ptr, n) sycl::buffer<float, 1> name(ptr, sycl::range<1>(n))

void stream_batches(sycl::queue &q, std::vector<float> &data, int batches, size_t n) {
  for (int b = 0; b < batches; ++b) {
    host::buffer<float> staging(data.data() + b * n, n);
    STAGE_BUFFER(device_copy, staging.data(), n); // expect: KL101
    q.submit([&](sycl::handler &h) {
      sycl::accessor acc(device_copy, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { acc[i] *= 2.0f; });
    });
  }
}

using namespace host;

// Unqualified, the project's class still is not SYCL's.
void rescale(std::vector<float> &data, int rounds, size_t n) {
  for (int r = 0; r < rounds; ++r) {
    buffer<float> view(data.data(), n);
    view.data()[0] = static_cast<float>(r);
  }
}
