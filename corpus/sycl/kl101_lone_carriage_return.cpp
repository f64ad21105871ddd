// A file saved by an old editor: one line below ends with a lone carriage return (CR, no LF).
// Compilers and editors count it as a line break, so the finding must be on the line they show.
#include <sycl/sycl.hpp>
#include <vector>

void frames(sycl::queue &q, std::vector<float> &host, int count) {
  // the next comment line ends with a lone CR  for (int f = 0; f < count; ++f) {
    sycl::buffer<float> frame(host.data(), sycl::range<1>(host.size())); // expect: KL101
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(frame, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(host.size()), [=](sycl::id<1> i) { a[i] += 1.0f; });
    });
  }
}
