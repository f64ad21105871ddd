// KL102: read_write accessors (written out or by default) that the kernel only reads.
// Every near miss below reads AND writes, or hands the accessor to code kernlint cannot see.
#include <sycl/sycl.hpp>
#include <vector>

constexpr size_t kN = 1 << 20;

// Reads only, through its parameter (a template: the accessor's mode is not spelled here).
template <typename Acc>
float smoothed(const Acc &a, size_t i) {
  return 0.5f * (a[i] + a[(i + 1) % kN]);
}

// Writes through its parameter.
template <typename Acc>
void bump(Acc a, size_t i) { a[i] += 1.0f; }

// Defined in another translation unit: kernlint cannot tell what it does with the accessor.
void external_filter(sycl::accessor<float, 1, sycl::access_mode::read_write> a, size_t i);
float external_weight(float &value);

void saxpy(sycl::queue &q, std::vector<float> &x, std::vector<float> &y, float alpha) {
  sycl::buffer<float, 1> xb(x.data(), sycl::range<1>(kN));
  sycl::buffer<float, 1> yb(y.data(), sycl::range<1>(kN));
  q.submit([&](sycl::handler &h) {
    sycl::accessor xs(xb, h, sycl::read_write); // expect: KL102
    sycl::accessor ys(yb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { ys[i] += alpha * xs[i]; });
  });
}

void default_modes(sycl::queue &q, sycl::buffer<float, 1> &in, sycl::buffer<float, 1> &out) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor src(in, h); // expect: KL102
    sycl::accessor dst(out, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { dst[i] = smoothed(src, i[0]); });
  });
  q.submit([&](sycl::handler &h) {
    auto src = in.get_access(h); // expect: KL102
    auto dst = out.get_access<sycl::access_mode::write>(h);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::item<1> it) {
      const float &v = src[it.get_id()];
      // `out` is a parameter: its extent is unknown, so KL103 cannot prove the write covers it.
      dst[it.get_id()] = sycl::sqrt(v) + std::max(src[it], 0.0f);
    });
  });
}

void legacy_spelling(sycl::queue &q, sycl::buffer<int, 1> &counts, sycl::buffer<int, 1> &total) {
  q.submit([&](sycl::handler &cgh) {
    auto c = counts.get_access<sycl::access::mode::read_write>(cgh); // expect: KL102, KL104
    auto t = total.get_access<sycl::access_mode::read_write>(cgh);
    cgh.single_task([=]() {
      int sum = 0;
      for (size_t k = 0; k < kN; ++k) sum += c[k];
      t[0] = sum;
      t[1] = t[0] / 2;
    });
  });
}

// Near misses: each accessor is also written, or escapes the analysis.
void near_misses(sycl::queue &q, sycl::buffer<float, 1> &b0, sycl::buffer<float, 1> &b1,
                 sycl::buffer<float, 1> &b2, sycl::buffer<float, 1> &b3, sycl::buffer<int, 1> &b4,
                 sycl::buffer<float, 1> &b5, sycl::buffer<float, 1> &b6, sycl::buffer<float, 1> &b7) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor rmw(b0, h, sycl::read_write);    // a[i] = a[i] * 2
    sycl::accessor helper(b1, h, sycl::read_write); // written by bump()
    sycl::accessor unknown(b2, h, sycl::read_write); // passed to an undefined function
    sycl::accessor pointer(b3, h, sycl::read_write); // raw pointer taken
    sycl::accessor hist(b4, h, sycl::read_write);    // atomic_ref over an element
    sycl::accessor by_ref(b5, h, sycl::read_write);  // element bound to a non-const reference
    sycl::accessor elem(b6, h, sycl::read_write);    // element passed to an unknown function
    sycl::accessor ro(b7, h, sycl::read_only);       // already read-only
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      rmw[i] = rmw[i] * 2.0f;
      bump(helper, i[0]);
      external_filter(unknown, i[0]);
      float *p = pointer.get_pointer();
      p[i] = ro[i];
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> bin(hist[i[0] % 64]);
      bin.fetch_add(1);
      float &r = by_ref[i];
      r = ro[i];
      (void)external_weight(elem[i]);
    });
  });
}

// USM: no accessors, nothing to report.
void usm_copy(sycl::queue &q, const float *in, float *out) {
  q.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { out[i] = in[i]; }).wait();
}

// Host accessors are not kernel accessors.
float host_sum(sycl::buffer<float, 1> &b) {
  sycl::host_accessor h(b, sycl::read_write);
  float s = 0.0f;
  for (size_t k = 0; k < kN; ++k) s += h[k];
  return s;
}
