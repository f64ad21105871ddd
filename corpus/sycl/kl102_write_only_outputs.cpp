// KL102: read_write accessors that the kernel never reads and overwrites completely, so
// `sycl::write_only, sycl::no_init` saves copying the old contents to the device. Partial or
// conditional writes need the old contents and are left alone.
#include <sycl/sycl.hpp>
#include <vector>

constexpr size_t kN = 1 << 22;
constexpr size_t kWG = 256;
constexpr size_t kRounded = ((kN + 1000 + kWG - 1) / kWG) * kWG;

void fill_outputs(sycl::queue &q, std::vector<float> &a, std::vector<float> &b, std::vector<float> &c,
                  std::vector<float> &d) {
  sycl::buffer<float, 1> ab(a.data(), sycl::range<1>(kN));
  sycl::buffer<float, 1> bb(b.data(), sycl::range<1>(kN));
  sycl::buffer<float, 1> cb(c.data(), sycl::range<1>(kN + 1000));
  sycl::buffer<float, 1> db(d.data(), sycl::range<1>(kN));
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(ab, h, sycl::read_write); // expect: KL102
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { out[i] = 1.0f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(bb, h); // expect: KL102
    sycl::accessor in(ab, h, sycl::read_only);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::item<1> it) { out[it.get_id()] = 2.0f * in[it]; });
  });
  q.submit([&](sycl::handler &h) {
    auto out = db.get_access<sycl::access_mode::read_write>(h); // expect: KL102
    h.parallel_for(sycl::nd_range<1>(sycl::range<1>(kN), sycl::range<1>(kWG)), [=](sycl::nd_item<1> it) {
      const size_t gid = it.get_global_id(0);
      out[gid] = static_cast<float>(gid);
    });
  });
  // A rounded-up nd_range with a tail guard against the buffer's extent still covers every element.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(cb, h, sycl::read_write); // expect: KL102
    h.parallel_for(sycl::nd_range<1>(kRounded, kWG), [=](sycl::nd_item<1> it) {
      size_t gid = it.get_global_id(0);
      if (gid < kN + 1000) out[gid] = 0.0f;
    });
  });
}

// The launch is the accessor's own range, whatever the buffer's size.
void clear(sycl::queue &q, sycl::buffer<int, 1> &flags) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor f(flags, h, sycl::read_write); // expect: KL102
    h.parallel_for(f.get_range(), [=](sycl::id<1> i) { f[i] = 0; });
  });
}

// A counting loop over the whole extent in a single task.
void init_table(sycl::queue &q, std::vector<double> &t) {
  sycl::buffer<double, 1> tb(t.data(), sycl::range<1>(4096));
  q.submit([&](sycl::handler &h) {
    sycl::accessor table(tb, h, sycl::read_write); // expect: KL102
    h.single_task([=]() {
      for (int k = 0; k < 4096; ++k) table[k] = 1.0 / (k + 1);
    });
  });
}

// Near misses: none of these overwrites the whole buffer, or it also reads it.
void partial(sycl::queue &q, std::vector<float> &v, bool enabled, int reps) {
  sycl::buffer<float, 1> vb(v.data(), sycl::range<1>(kN));
  q.submit([&](sycl::handler &h) {
    sycl::accessor shifted(vb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN - 1), [=](sycl::id<1> i) { shifted[i + 1] = 0.0f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor first(vb, h, sycl::read_write);
    h.single_task([=]() { first[0] = 42.0f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor half(vb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN / 2), [=](sycl::id<1> i) { half[i] = 0.0f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor maybe(vb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      if (enabled) maybe[i] = 0.0f;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor repeated(vb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      for (int r = 0; r < reps; ++r) repeated[i] = static_cast<float>(r);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor also_read(vb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { also_read[i] = also_read[(i[0] + 1) % kN] * 0.5f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor window(vb, h, sycl::range<1>(kN / 2), sycl::id<1>(kN / 4), sycl::read_write);
    h.parallel_for(sycl::range<1>(kN / 2), [=](sycl::id<1> i) { window[i] = 0.0f; });
  });
}
