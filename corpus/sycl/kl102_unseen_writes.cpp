// KL102 says "only read" only when the kernel provably never writes the accessor: a store to a member
// of an element, kernel code pulled in with #include, a pointer taken from the accessor and an
// element passed by reference are writes the analysis cannot rule out, so those accessors stay
// read_write. Reads through a by-value helper declared in the file are still reads.
#include <sycl/sycl.hpp>
#include <vector>

constexpr size_t kN = 1 << 16;

struct Particle {
  float pos[3];
  float mass;
  struct {
    float kinetic;
  } energy;
};

void nudge(float &slot, float by);
float weight(float mass);

void step(sycl::queue &q, std::vector<Particle> &ps, std::vector<float> &field, std::vector<float> &out) {
  sycl::buffer<Particle, 1> pb(ps.data(), sycl::range<1>(kN));
  sycl::buffer<float, 1> fb(field.data(), sycl::range<1>(kN));
  sycl::buffer<float, 1> ob(out.data(), sycl::range<1>(kN));
  q.submit([&](sycl::handler &h) {
    sycl::accessor p(pb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      const float m = p[i].mass;
      p[i].pos[0] = m * 0.5f;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor p(pb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      p[i].energy.kinetic = 0.5f * p[i].mass;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor f(fb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      const float centre = f[i];
#include "kl102_relax_step.inc"
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor f(fb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) {
      auto row = f.get_multi_ptr<sycl::access::decorated::no>();
      row[i] = f[i] * 2.0f;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor f(fb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { nudge(f[i], 1.0f); });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor p(pb, h, sycl::read_write); // expect: KL102
    sycl::accessor o(ob, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(kN), [=](sycl::id<1> i) { o[i] = weight(p[i].mass) + p[i].energy.kinetic; });
  });
}
