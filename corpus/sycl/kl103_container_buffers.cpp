// KL103: buffers built straight from a host array or container (no range argument) take the
// container's extent, so a write-only accessor whose kernel writes every element of that extent
// still copies contents nobody reads unless it says `no_init`.
#include <sycl/sycl.hpp>
#include <array>
#include <vector>

constexpr int kBins = 256;
constexpr size_t kCells = 4096;

void refill(std::vector<float> &values);  // defined elsewhere

// A fixed-size C array: the buffer spans all 256 bins.
void clear_histogram(sycl::queue &q) {
  int bins[kBins];
  sycl::buffer<int> bin_buf{bins};
  q.submit([&](sycl::handler &h) {
    sycl::accessor b(bin_buf, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(kBins), [=](sycl::id<1> i) { b[i] = 0; });
  });
  q.wait();
}

// std::array, deduced: the extent is the array's template argument.
void seed_weights(sycl::queue &q, float scale) {
  std::array<float, kCells> weights;
  sycl::buffer wbuf{weights};
  q.submit([&](sycl::handler &h) {
    sycl::accessor w{wbuf, h, sycl::write_only}; // expect: KL103
    h.parallel_for(sycl::range<1>{kCells}, [=](sycl::item<1> it) {
      w[it] = scale * static_cast<float>(it.get_id(0) % 7);
    });
  });
  // Half the array: the other half keeps what the host put there, so the copy is needed.
  q.submit([&](sycl::handler &h) {
    sycl::accessor w{wbuf, h, sycl::write_only};
    h.parallel_for(sycl::range<1>{kCells / 2}, [=](sycl::item<1> it) { w[it] = 0.0f; });
  });
}

// A vector sized at its declaration and never resized: the buffer's extent is that size, whether
// it is a constant or a size the function was given.
void label_cells(sycl::queue &q, size_t n) {
  std::vector<int> labels(kCells, -1);
  sycl::buffer lbuf(labels);
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(lbuf, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(kCells), [=](sycl::id<1> i) { out[i] = static_cast<int>(i[0] % 3); });
  });
  std::vector<float> dist(n);
  sycl::buffer dbuf(dist);
  q.submit([&](sycl::handler &h) {
    sycl::accessor d(dbuf, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] = 1.0e30f; });
  });
}

// Through the file's own names for the containers.
using Histogram = std::array<int, kBins>;
typedef std::vector<float> Field;

void reset_aliases(sycl::queue &q, size_t n) {
  Histogram h;
  sycl::buffer hbuf{h};
  q.submit([&](sycl::handler &cgh) {
    sycl::accessor out{hbuf, cgh, sycl::write_only}; // expect: KL103
    cgh.parallel_for(sycl::range<1>{kBins}, [=](sycl::id<1> i) { out[i] = 0; });
  });
  Field f(n);
  sycl::buffer fbuf(f);
  q.submit([&](sycl::handler &cgh) {
    sycl::accessor out{fbuf, cgh, sycl::write_only}; // expect: KL103
    cgh.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { out[i] = 0.0f; });
  });
}

// Silent: the size the buffer sees is not the declared one, or not known.
void resized_or_unknown(sycl::queue &q, std::vector<float> &given, size_t n) {
  std::vector<float> grown(kCells);
  grown.resize(2 * kCells);  // the buffer below spans 8192 elements, the kernel writes 4096
  sycl::buffer gbuf(grown);
  q.submit([&](sycl::handler &h) {
    sycl::accessor g(gbuf, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kCells), [=](sycl::id<1> i) { g[i] = 0.0f; });
  });
  // A vector the caller passed in: its size is not n as far as anyone here can tell.
  sycl::buffer given_buf(given);
  q.submit([&](sycl::handler &h) {
    sycl::accessor g(given_buf, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { g[i] = 0.0f; });
  });
  // Sized by braces: `{n}` is a vector of one element, not of n.
  std::vector<size_t> one{n};
  sycl::buffer obuf(one);
  q.submit([&](sycl::handler &h) {
    sycl::accessor o(obuf, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { o[i] = i[0]; });
  });
  // A vector filled by a function that may resize it before the buffer is made.
  std::vector<float> filled(kCells);
  refill(filled);
  sycl::buffer fbuf(filled);
  q.submit([&](sycl::handler &h) {
    sycl::accessor f(fbuf, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kCells), [=](sycl::id<1> i) { f[i] = 0.0f; });
  });
}

// Launched over the count the buffer or the accessor reports, whatever the container was: the range is
// the buffer's extent by construction.
void launch_by_count(sycl::queue &q, std::vector<float> &given) {
  sycl::buffer gbuf(given);
  q.submit([&](sycl::handler &h) {
    sycl::accessor g(gbuf, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(g.size()), [=](sycl::id<1> i) { g[i] = 1.0f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor g(gbuf, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range{gbuf.size()}, [=](sycl::item<1> it) { g[it] = 2.0f; });
  });
  // Silent: one element short of the count.
  q.submit([&](sycl::handler &h) {
    sycl::accessor g(gbuf, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(g.size() - 1), [=](sycl::id<1> i) { g[i] = 3.0f; });
  });
}

// Already right: no_init, or the kernel reads what is there.
void already_right(sycl::queue &q) {
  std::array<int, kBins> counts;
  sycl::buffer cbuf{counts};
  q.submit([&](sycl::handler &h) {
    sycl::accessor c{cbuf, h, sycl::write_only, sycl::no_init};
    h.parallel_for(sycl::range<1>(kBins), [=](sycl::id<1> i) { c[i] = 0; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor c{cbuf, h, sycl::read_write};
    h.parallel_for(sycl::range<1>(kBins), [=](sycl::id<1> i) { c[i] += 1; });
  });
}
