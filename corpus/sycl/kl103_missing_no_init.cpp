// KL103: write-only accessors that overwrite the whole buffer but lack `no_init`, so the runtime
// copies contents to the device that the kernel never looks at.
#include <sycl/sycl.hpp>
#include <vector>
#include "kl103_sizes.hpp"

constexpr size_t kWG = 128;

// A helper defined in this file that stores at the index it is given.
template <typename Acc>
void put(Acc out, size_t i, float v) { out[i] = v; }

struct Fill {
  sycl::accessor<float, 1, sycl::access_mode::write> out;
  float value;
  void operator()(sycl::id<1> i) const { out[i] = value; }
};

void outputs(sycl::queue &q, std::vector<float> &a, std::vector<float> &b, std::vector<float> &c,
             std::vector<float> &g) {
  sycl::buffer<float, 1> ab(a.data(), sycl::range<1>(kSamples));
  sycl::buffer<float, 1> bb(b.data(), sycl::range<1>(kSamples));
  sycl::buffer<float, 1> cb(c.data(), sycl::range<1>(kSamples));
  sycl::buffer<float, 2> grid(g.data(), sycl::range<2>(GRID_Y, GRID_X));
  q.submit([&](sycl::handler &h) {
    sycl::accessor in(ab, h, sycl::read_only);
    sycl::accessor out(bb, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { out[i] = in[i] * in[i]; });
  });
  q.submit([&](sycl::handler &h) {
    auto out = cb.get_access<sycl::access_mode::write>(h); // expect: KL103
    h.parallel_for(sycl::nd_range<1>(kSamples, kWG), [=](sycl::nd_item<1> it) {
      out[it.get_global_id()] = 0.0f;
    });
  });
  q.submit([&](sycl::handler &h) {
    auto out = ab.get_access<sycl::access::mode::write>(h); // expect: KL103, KL104
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { put(out, i[0], 1.0f); });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor cells(grid, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<2>(GRID_Y, GRID_X), [=](sycl::id<2> idx) { cells[idx] = 0.0f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor cells(grid, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<2>(GRID_Y, GRID_X), [=](sycl::item<2> it) {
      const size_t r = it.get_id(0);
      const size_t c = it.get_id(1);
      cells[r][c] = static_cast<float>(r * GRID_X + c);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor<float, 1, sycl::access_mode::write> out(bb, h); // expect: KL103
    h.parallel_for(sycl::range<1>(kSamples), Fill{out, 3.0f});
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(cb, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
      for (int pass = 0; pass < 4; ++pass) out[i] = static_cast<float>(pass);
    });
  });
}

// Extents known by name rather than value: the same unmodified `n`, or the vector the buffer wraps.
void by_name(sycl::queue &q, std::vector<int> &labels, size_t n, int *dst) {
  sycl::buffer<int, 1> lb(dst, sycl::range<1>(n));
  sycl::buffer wrapped(labels);
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(lb, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = -1; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(wrapped, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(labels.size()), [=](sycl::id<1> i) { out[i] = 0; });
  });
}

// A buffer with no host memory behind it: reported as info (the copy only happens after host access).
void scratch(sycl::queue &q) {
  sycl::buffer<float, 2> tmp(sycl::range<2>(GRID_Y, GRID_X));
  q.submit([&](sycl::handler &h) {
    sycl::accessor t(tmp, h, sycl::write_only); // expect: KL103
    h.parallel_for(tmp.get_range(), [=](sycl::item<2> it) { t[it] = 0.0f; });
  });
  // Every element is written here too, but through index arithmetic kernlint does not prove: silent.
  q.submit([&](sycl::handler &h) {
    sycl::accessor t(tmp, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(GRID_Y * GRID_X), [=](sycl::item<1> it) {
      t[it.get_id(0) / GRID_X][it.get_id(0) % GRID_X] = 0.0f;
    });
  });
  sycl::buffer<float, 1> flat(sycl::range<1>(GRID_Y * GRID_X));
  q.submit([&](sycl::handler &h) {
    sycl::accessor f(flat, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<2>(GRID_Y, GRID_X), [=](sycl::item<2> it) { f[it.get_linear_id()] = 1.0f; });
  });
}

// One element, written by a single task.
void total(sycl::queue &q, float *result) {
  sycl::buffer<float, 1> rb(result, sycl::range<1>(1));
  q.submit([&](sycl::handler &h) {
    sycl::accessor r(rb, h, sycl::write_only); // expect: KL103
    h.single_task([=]() { r[0] = 0.0f; });
  });
}
