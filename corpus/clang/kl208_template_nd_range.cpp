// kernlint-frontend: clang
// nd_range shapes whose work-group size is a template argument: each instantiation is checked with
// its own size, and a finding is reported once, at the template, naming the instantiations it holds for.
#include <sycl/sycl.hpp>

constexpr size_t pixels = 1 << 20;

// 2^20 work-items split into groups of 256 works; 384 and 768 do not divide 2^20: those launches throw.
template <int WG> void brighten(sycl::queue &q, float *image, float gain) {
  q.parallel_for(sycl::nd_range<1>(pixels, WG), [=](sycl::nd_item<1> it) { // expect: KL208
    image[it.get_global_id(0)] *= gain;
  });
}

// The global range is built from the work-group size, so it always divides; but 100 work-items are
// not a whole number of 16- or 32-lane sub-groups: the last sub-group of each work-group runs partly idle.
template <int WG> void clamp(sycl::queue &q, float *x, size_t groups) {
  q.parallel_for(sycl::nd_range<1>(groups * WG, WG), [=](sycl::nd_item<1> it) { // expect: KL203
    float v = x[it.get_global_id(0)];
    x[it.get_global_id(0)] = v < 0.0f ? 0.0f : v;
  });
}

void process(sycl::queue &q, float *image, float *x, size_t groups) {
  brighten<256>(q, image, 1.5f);
  brighten<384>(q, image, 1.5f);
  brighten<768>(q, image, 0.5f);
  clamp<128>(q, x, groups);
  clamp<100>(q, x, groups);
}
