// KL102 and KL103 through the accessor's data pointer: a kernel that hands `get_pointer()` or
// `get_multi_ptr<…>().get()` to a helper defined in this file is judged by what the helper does
// through that pointer (one call level, as for accessors passed whole), and a local pointer to the
// data is judged by how the block that declares it indexes it.
#include <sycl/sycl.hpp>
#include <vector>

constexpr size_t kParticles = 8192;

// Reads only through its pointers.
float kinetic(const float *vel, const float *mass, size_t i) {
  return 0.5f * mass[i] * vel[i] * vel[i];
}

// Writes its element, reads nothing through the pointer.
void store_energy(float *energy, size_t i, float e) { energy[i] = e; }

// Updates its element in place: a read-modify-write.
void damp(float *vel, size_t i, float factor) { vel[i] *= factor; }

// Walks the pointer itself: the analysis does not follow pointer arithmetic.
float first_of_block(const float *data, size_t block) {
  const float *p = data + block * 4;
  return *p;
}

void energies(sycl::queue &q, std::vector<float> &v, std::vector<float> &m, std::vector<float> &e) {
  sycl::buffer<float, 1> vb(v.data(), sycl::range<1>(kParticles));
  sycl::buffer<float, 1> mb(m.data(), sycl::range<1>(kParticles));
  sycl::buffer<float, 1> eb(e.data(), sycl::range<1>(kParticles));
  q.submit([&](sycl::handler &h) {
    sycl::accessor vel(vb, h, sycl::read_write);  // expect: KL102
    sycl::accessor mass(mb, h);                   // expect: KL102
    sycl::accessor energy(eb, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(kParticles), [=](sycl::id<1> i) {
      const float k = kinetic(vel.get_multi_ptr<sycl::access::decorated::no>().get(),
                              mass.get_pointer(), i[0]);
      store_energy(energy.get_multi_ptr<sycl::access::decorated::no>().get(), i[0], k);
    });
  });
  // A read_write output written through the pointer at every work-item's own index.
  q.submit([&](sycl::handler &h) {
    sycl::accessor energy(eb, h); // expect: KL102
    sycl::accessor mass(mb, h, sycl::read_only);
    h.parallel_for(sycl::range<1>(kParticles), [=](sycl::id<1> i) {
      store_energy(energy.get_pointer(), i[0], mass[i] * 2.0f);
    });
  });
  // Local pointers to the data, indexed in the block that declares them.
  q.submit([&](sycl::handler &h) {
    sycl::accessor vel(vb, h, sycl::read_write);    // expect: KL102
    sycl::accessor energy(eb, h, sycl::write_only); // expect: KL103
    h.parallel_for(sycl::range<1>(kParticles), [=](sycl::id<1> i) {
      const float *v = vel.get_multi_ptr<sycl::access::decorated::no>().get();
      float *out = energy.get_pointer();
      out[i] = 0.5f * v[i] * v[i];
    });
  });
}

// Silent: the helper updates in place, walks the pointer, or is not defined here.
float norm_of(const float *values, size_t i);  // defined in another file

void silent(sycl::queue &q, sycl::buffer<float, 1> &vb, sycl::buffer<float, 1> &eb) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor vel(vb, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(kParticles), [=](sycl::id<1> i) {
      damp(vel.get_multi_ptr<sycl::access::decorated::no>().get(), i[0], 0.99f);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor vel(vb, h, sycl::read_write);
    sycl::accessor energy(eb, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(kParticles / 4), [=](sycl::id<1> i) {
      energy[i] = first_of_block(vel.get_pointer(), i[0]);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor vel(vb, h, sycl::read_write);
    sycl::accessor energy(eb, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(kParticles), [=](sycl::id<1> i) {
      energy[i] = norm_of(vel.get_pointer(), i[0]);
    });
  });
  // A local pointer that is moved: where it points is not followed.
  q.submit([&](sycl::handler &h) {
    sycl::accessor energy(eb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kParticles / 2), [=](sycl::id<1> i) {
      float *out = energy.get_pointer();
      out += kParticles / 2;
      out[i] = 0.0f;
    });
  });
  // Only half the elements written through the pointer: the old contents of the rest survive.
  q.submit([&](sycl::handler &h) {
    sycl::accessor energy(eb, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(kParticles / 2), [=](sycl::id<1> i) {
      store_energy(energy.get_pointer(), i[0], 0.0f);
    });
  });
}
