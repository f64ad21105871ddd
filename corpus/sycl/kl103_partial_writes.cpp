// KL103 near misses: write-only accessors without `no_init` whose old contents may still matter, or
// whose coverage kernlint cannot prove. None of these may be reported.
#include <sycl/sycl.hpp>
#include <vector>
#include "kl103_sizes.hpp"

void store_elsewhere(sycl::accessor<float, 1, sycl::access_mode::write> out, size_t i);

void partial(sycl::queue &q, std::vector<float> &v, bool enabled, int reps, size_t n) {
  sycl::buffer<float, 1> vb(v.data(), sycl::range<1>(kSamples));
  // Shifted by one: element 0 keeps its old value.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples - 1), [=](sycl::id<1> i) { out[i + 1] = 0.0f; });
  });
  // One element of many.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.single_task([=]() { out[0] = 1.0f; });
  });
  // Half the range.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples / 2), [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
  // A sub-range accessor.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::range<1>(kSamples / 2), sycl::id<1>(0), sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples / 2), [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
  // Written only when a kernel argument says so, or after an early return.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
      if (enabled) out[i] = 1.0f;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
      if (!enabled) return;
      out[i] = 2.0f;
    });
  });
  // The else branch of a bounds check, and a loop that may run zero times.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
      if (i[0] < kSamples / 2) {
      } else {
        out[i] = 3.0f;
      }
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
      for (int r = 0; r < reps; ++r) out[i] = static_cast<float>(r);
    });
  });
  // Written in a nested lambda, which the kernel might not call.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
      auto zero = [&]() { out[i] = 0.0f; };
      (void)zero;
    });
  });
  // Written under conditional compilation.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) {
#ifdef RESET_OUTPUT
      out[i] = 0.0f;
#endif
      (void)i;
    });
  });
  // A grid-stride loop: the index is not the work-item's own.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples / 8), [=](sycl::id<1> i) {
      for (size_t k = i[0]; k < kSamples; k += kSamples / 8) out[k] = 0.0f;
    });
  });
  // Handed to a function defined elsewhere.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { store_elsewhere(out, i[0]); });
  });
  // A second accessor over the same buffer reads what no_init would discard.
  q.submit([&](sycl::handler &h) {
    sycl::accessor in(vb, h, sycl::read_only);
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { out[i] = in[i] * 2.0f; });
  });
  // Already has no_init, in either spelling.
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
  q.submit([&](sycl::handler &h) {
    auto out = vb.get_access(h, sycl::write_only, sycl::property_list{sycl::no_init});
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
}

// Extents kernlint cannot compare: a buffer it did not see constructed, a size that changes between
// the buffer and the launch, and sizes computed at run time.
void unknown_extents(sycl::queue &q, sycl::buffer<float, 1> &param, std::vector<float> &v, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(param, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
  sycl::buffer<float, 1> vb(v.data(), sycl::range<1>(n));
  n = n / 2;
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(vb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
  sycl::buffer<float, 1> other(v.data(), sycl::range<1>(v.size()));
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(other, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(q.get_device().get_info<sycl::info::device::max_compute_units>()),
                   [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
}

// USM needs no accessors at all.
void usm_fill(sycl::queue &q, float *dst) {
  q.parallel_for(sycl::range<1>(kSamples), [=](sycl::id<1> i) { dst[i] = 0.0f; }).wait();
}

// Host accessors are not checked.
void host_side(sycl::buffer<float, 1> &b) {
  sycl::host_accessor out(b, sycl::write_only);
  for (size_t k = 0; k < kSamples; ++k) out[k] = 0.0f;
}
