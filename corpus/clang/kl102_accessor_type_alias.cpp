// kernlint-frontend: clang
// An accessor's mode can live in a type alias; the declaration then spells no mode at all.
#include <sycl/sycl.hpp>

using input_acc = sycl::accessor<float, 1, sycl::access_mode::read_write>;
using output_acc = sycl::accessor<float, 1, sycl::access_mode::write>;

void scale(sycl::queue &q, sycl::buffer<float, 1> &in, sycl::buffer<float, 1> &out, float factor) {
  q.submit([&](sycl::handler &h) {
    input_acc src(in, h); // expect: KL102
    output_acc dst(out, h, sycl::no_init);
    h.parallel_for(sycl::range<1>(in.size()), [=](sycl::id<1> i) { dst[i] = factor * src[i]; });
  });
}

// Read and written: read_write is right.
void accumulate(sycl::queue &q, sycl::buffer<float, 1> &in) {
  q.submit([&](sycl::handler &h) {
    input_acc acc(in, h);
    h.parallel_for(sycl::range<1>(in.size()), [=](sycl::id<1> i) { acc[i] += 1.0f; });
  });
}
