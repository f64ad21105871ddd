// Suppression comments: a deliberate per-iteration buffer (e.g. a streaming benchmark that
// measures the transfer itself) can be silenced line by line.
#include <sycl/sycl.hpp>
#include <vector>

void measure_transfers(sycl::queue &q, std::vector<char> &payload, int repeats) {
  for (int r = 0; r < repeats; ++r) {
    sycl::buffer<char> staged(payload.data(), sycl::range<1>(payload.size())); // kernlint: ignore[KL101]
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(staged, h, sycl::read_only);
      h.single_task([=]() { (void)a[0]; });
    });
  }
  for (int r = 0; r < repeats; ++r) {
    // kernlint: ignore-next-line[KL1]
    sycl::buffer<char> staged(payload.data(), sycl::range<1>(payload.size()));
    /* kernlint: ignore */ sycl::buffer<char> other(payload.data(), sycl::range<1>(1));
  }
  for (int r = 0; r < repeats; ++r) {
    // A suppression for another rule does not hide this one.
    sycl::buffer<char> staged(payload.data(), sycl::range<1>(payload.size())); // kernlint: ignore[KL102] expect: KL101, KL001
  }
  // A stale suppression: the buffer moved out of the loop, the comment stayed.
  sycl::buffer<char> hoisted(payload.data(), sycl::range<1>(payload.size())); // kernlint: ignore[KL101] expect: KL001
  for (int r = 0; r < repeats; ++r) {
    q.wait(); /* kernlint: ignore */ // expect: KL001
  }
}
