// Every loop shape and buffer spelling that re-creates a buffer per iteration.
#include <sycl/sycl.hpp>
#include <memory>
#include <vector>

using Batch = std::vector<double>;

void scale(sycl::queue &q, sycl::buffer<double> &b, double factor);

void process_batches(sycl::queue &q, std::vector<Batch> &batches, double factor) {
  // Range-based for with class template argument deduction.
  for (auto &batch : batches) {
    sycl::buffer data(batch); // expect: KL101
    scale(q, data, factor);
  }

  // while loop with `auto b = sycl::buffer<T>(...)`.
  size_t next = 0;
  while (next < batches.size()) {
    auto chunk = sycl::buffer<double>(batches[next].data(), sycl::range<1>(batches[next].size())); // expect: KL101
    scale(q, chunk, factor);
    ++next;
  }

  // do ... while, buffer nested two blocks deep inside the loop body.
  int retries = 3;
  do {
    if (retries > 1) {
      {
        sycl::buffer<double, 1> scratch{sycl::range<1>{1024}}; // expect: KL101
        scale(q, scratch, factor);
      }
    }
  } while (--retries > 0);

  // A temporary built straight into a call, and one allocated with new.
  for (size_t i = 0; i < batches.size(); i += 2) {
    scale(q, *std::make_unique<sycl::buffer<double>>(batches[i].data(), sycl::range<1>(8)), factor); // expect: KL101
    auto owned = new sycl::buffer<double>(batches[i].data(), sycl::range<1>(batches[i].size())); // expect: KL101
    scale(q, *owned, factor);
    delete owned;
  }
}
