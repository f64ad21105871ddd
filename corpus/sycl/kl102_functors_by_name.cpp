// KL102 and KL103 through functors built in the command group and launched by name: the kernel is
// the functor's call operator, and each accessor is judged by what it does through the member it
// initialises, whether the member's type is spelled out or a template parameter the command group
// fills with `decltype(acc)`.
#include <sycl/sycl.hpp>
#include <vector>

constexpr size_t kPixels = 1 << 16;

// Converts RGB triples to luminance: `rgb` is only read, `luma` written at every work-item's index.
template <typename In, typename Out>
struct Luminance {
  In rgb;
  Out luma;
  void operator()(sycl::id<1> p) const {
    const size_t k = 3 * p[0];
    luma[p] = 0.299f * rgb[k] + 0.587f * rgb[k + 1] + 0.114f * rgb[k + 2];
  }
};

// The same conversion with the accessor types written out and a constructor.
class Threshold {
 public:
  Threshold(sycl::accessor<float, 1, sycl::access_mode::read_write> luma,
            sycl::accessor<int, 1, sycl::access_mode::write> mask, float cut)
      : luma_(luma), mask_(mask), cut_(cut) {}
  void operator()(sycl::item<1> it) const { mask_[it] = luma_[it] > cut_ ? 1 : 0; }

 private:
  sycl::accessor<float, 1, sycl::access_mode::read_write> luma_;
  sycl::accessor<int, 1, sycl::access_mode::write> mask_;
  float cut_;
};

// Brightens in place: the image is read and written, so read_write is right.
template <typename Acc>
struct Brighten {
  Acc pixels;
  float gain;
  void operator()(sycl::id<1> p) const { pixels[p] = sycl::fmin(pixels[p] * gain, 1.0f); }
};

// Writes only the left half of each row: the other half keeps its old contents.
template <typename Acc>
struct ClearLeft {
  Acc mask;
  size_t width;
  void operator()(sycl::id<1> p) const {
    if (p[0] % width < width / 2) // expect: KL501
      mask[p] = 0;
  }
};

void process(sycl::queue &q, std::vector<float> &rgb, std::vector<float> &luma, std::vector<int> &mask,
             size_t width) {
  sycl::buffer<float, 1> rgb_buf(rgb.data(), sycl::range<1>(3 * kPixels));
  sycl::buffer<float, 1> luma_buf(luma.data(), sycl::range<1>(kPixels));
  sycl::buffer<int, 1> mask_buf(mask.data(), sycl::range<1>(kPixels));
  q.submit([&](sycl::handler &h) {
    sycl::accessor in(rgb_buf, h, sycl::read_write); // expect: KL102
    sycl::accessor out(luma_buf, h, sycl::write_only); // expect: KL103
    Luminance<decltype(in), decltype(out)> kernel{in, out};
    h.parallel_for(sycl::range<1>(kPixels), kernel);
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor<float, 1, sycl::access_mode::read_write> luma_acc(luma_buf, h); // expect: KL102
    sycl::accessor<int, 1, sycl::access_mode::write> mask_acc(mask_buf, h); // expect: KL103
    Threshold kernel(luma_acc, mask_acc, 0.5f);
    h.parallel_for(sycl::range<1>(kPixels), kernel);
  });
  // Silent: updated in place.
  q.submit([&](sycl::handler &h) {
    sycl::accessor px(luma_buf, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kPixels), Brighten<decltype(px)>{px, 1.2f});
  });
  // Silent: half of every row is left as it was, so the old contents must reach the device.
  q.submit([&](sycl::handler &h) {
    sycl::accessor m(mask_buf, h, sycl::write_only);
    ClearLeft<decltype(m)> kernel{m, width};
    h.parallel_for(sycl::range<1>(kPixels), kernel);
  });
  // Silent: the accessor is also copied into a variable the analysis does not follow.
  q.submit([&](sycl::handler &h) {
    sycl::accessor in(rgb_buf, h, sycl::read_write);
    sycl::accessor out(luma_buf, h, sycl::write_only, sycl::no_init);
    decltype(in) alias = in;
    Luminance<decltype(alias), decltype(out)> kernel{alias, out};
    h.parallel_for(sycl::range<1>(kPixels), kernel);
  });
}
