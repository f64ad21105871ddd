// KL104: SYCL 1.2.1 access-mode spellings on device accessors, each pointing to its SYCL 2020 form.
#include <sycl/sycl.hpp>
#include <vector>

constexpr size_t kN = 1 << 20;

void legacy(sycl::queue &q, sycl::buffer<float, 1> &in, sycl::buffer<float, 1> &out,
            sycl::buffer<int, 1> &hist, sycl::buffer<float, 1> &state) {
  q.submit([&](sycl::handler &h) {
    auto src = in.get_access<sycl::access::mode::read>(h); // expect: KL104
    auto dst = out.get_access<sycl::access::mode::discard_write>(h); // expect: KL104
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { dst[i] = src[i] + 1.0f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor<float, 1, sycl::access::mode::discard_read_write> s(state, h); // expect: KL104
    sycl::accessor<int, 1, sycl::access::mode::atomic> counts(hist, h); // expect: KL104
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      s[i] = 0.0f;
      counts[i[0] % 16].fetch_add(1);
    });
  });
  q.submit([&](sycl::handler &h) {
    cl::sycl::accessor<float, 1, cl::sycl::access::mode::write> w(out, h); // expect: KL104
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { w[i] = 0.0f; });
  });
}

// SYCL 2020 spellings, host accessors and local memory are not reported.
void modern(sycl::queue &q, sycl::buffer<float, 1> &in, sycl::buffer<float, 1> &out) {
  q.submit([&](sycl::handler &h) {
    auto src = in.get_access<sycl::access_mode::read>(h);
    sycl::accessor dst(out, h, sycl::write_only, sycl::no_init);
    sycl::local_accessor<float, 1> tile(sycl::range<1>(256), h);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { dst[i] = src[i]; });
  });
  auto host_view = in.get_access<sycl::access::mode::read>();
  (void)host_view;
}
