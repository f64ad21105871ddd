// nd_ranges whose global range is not a whole number of work-groups (the launch throws on any device).
#include <sycl/sycl.hpp>
#include "kl2_launch_config.hpp"

#define N_POINTS 1000
#define GROUP 64

// The guide's R = 3 case: 64 rows do not split into groups of 3.
void rows_r3(sycl::queue &q, float *data) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<3>({64, 64, 128}, {1, 3, 128}), [=](sycl::nd_item<3> it) { // expect: KL208
      data[it.get_global_linear_id()] = 0.0f;
      it.barrier();
    });
  });
}

// A problem size that is not a multiple of the work-group size, from macros.
void points(sycl::queue &q, float *x) {
  q.parallel_for(sycl::nd_range<1>(N_POINTS, GROUP), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; }); // expect: KL208
}

// Two dimensions, brace-initialised, in a variable.
void image(sycl::queue &q, float *img) {
  sycl::nd_range<2> r{{1000 * 64, 1000}, {16, 16}};
  q.parallel_for(r, [=](sycl::nd_item<2> it) { img[it.get_global_linear_id()] = 0.5f; }); // expect: KL208
}

// Template arguments instantiated in the file: 3,000,000 work-items in groups of 256.
template <size_t Items, size_t WG>
void scaled(sycl::queue &q, double *v) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(Items * 1000, WG), [=](sycl::nd_item<1> it) { v[it.get_global_id(0)] *= 2.0; }); // expect: KL208
  });
}
template void scaled<3000, 256>(sycl::queue &, double *);

// A header constant for the global size, a local size that does not divide it.
void from_header(sycl::queue &q, int *x) {
  q.parallel_for(sycl::nd_range<1>(kl2_problem, 384), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0; }); // expect: KL208
}

// A plain range launch of a functor that requires 96 work-items per group.
struct Triple {
  float *x;
  [[sycl::reqd_work_group_size(96)]] void operator()(sycl::item<1> i) const { x[i.get_linear_id()] *= 3.0f; }
};
void triple(sycl::queue &q, float *x) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(1 << 20), Triple{x}); }); // expect: KL208
}

// Three dimensions with a macro in the innermost one.
#define DEPTH 100
void volume(sycl::queue &q, float *v) {
  q.parallel_for(sycl::nd_range<3>({256, 256, DEPTH}, {1, 4, 32}), [=](sycl::nd_item<3> it) { // expect: KL208
    v[it.get_global_linear_id()] = 0.0f;
  });
}

// Ranges declared as variables in the "most vexing parse" spelling, over buffers.
void vexing(sycl::queue &q, sycl::buffer<float, 1> &buf) {
  sycl::range<1> global(100000);
  sycl::range<1> local(128);
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(buf, h, sycl::read_write);
    h.parallel_for(sycl::nd_range<1>(global, local), [=](sycl::nd_item<1> it) { acc[it.get_global_id(0)] += 1.0f; }); // expect: KL208
  });
}

// const locals through a queue shortcut with a brace-initialised nd_range.
void consts(sycl::queue &q, int *x) {
  const size_t total = 1 << 20;
  const size_t wg = 96;
  q.parallel_for(sycl::nd_range<1>{total, wg}, [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1; }); // expect: KL208
}

#ifdef LEGACY_SIZES
void legacy(sycl::queue &q, float *x) {
  q.parallel_for(sycl::nd_range<1>(10000, 256), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 0.0f; }); // expect: KL208
}
#endif

// Near misses ------------------------------------------------------------------------------------

// Rounded up to a multiple of the work-group size.
void rounded(sycl::queue &q, float *x) {
  constexpr size_t n = 1000000;
  q.parallel_for(sycl::nd_range<1>((n + GROUP - 1) / GROUP * GROUP, GROUP), [=](sycl::nd_item<1> it) {
    if (it.get_global_id(0) < n) x[it.get_global_id(0)] = 1.0f;
  });
}

// Runtime sizes are not checked.
void runtime(sycl::queue &q, float *x, size_t n, size_t wg) {
  q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] = 1.0f; });
}

// Divisible in every dimension.
void divisible(sycl::queue &q, float *x) {
  q.parallel_for(sycl::nd_range<2>({4096, 4096}, {8, 32}), [=](sycl::nd_item<2> it) { x[it.get_global_linear_id()] = 1.0f; });
}

// A plain range without a work-group size: the runtime chooses a divisor.
void plain(sycl::queue &q, float *x) {
  q.parallel_for(sycl::range<1>(1000003), [=](sycl::id<1> i) { x[i] = 1.0f; });
}

// Hierarchical launches count work-groups, so they always divide.
void hier(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group(sycl::range<1>(1000), sycl::range<1>(96), [=](sycl::group<1> g) {
      g.parallel_for_work_item([&](sycl::h_item<1> it) { out[it.get_global_id(0)] = 1; });
    });
  });
}
