// Arrays of structs read one member at a time, against the struct of arrays and whole-struct copies.
#include <sycl/sycl.hpp>
#include "kl6_bodies.hpp"

struct Charge {
  float q;
  float pad[3];
};

// Total mass per work-item's neighbourhood: every lane reads `mass` a 32-byte Body apart.
void masses(sycl::queue &q, const Body *bodies, float *out, int n, int steps) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    const int i = it.get_global_id(0);
    float acc = 0.0f;
    for (int s = 0; s < steps; ++s)
      acc += bodies[i].mass * s; // expect: KL603
    out[i] = acc;
  });
}

// Positions advanced member by member (every member used, still a struct apart).
void drift(sycl::queue &q, Body *bodies, float dt, int n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
    bodies[i].x += bodies[i].vx * dt; // expect: KL603
    bodies[i].y += bodies[i].vy * dt;
    bodies[i].z += bodies[i].vz * dt;
  });
}

// The struct of arrays: unit stride.
void drift_soa(sycl::queue &q, float *x, const float *vx, float dt, int n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] += vx[i] * dt; });
}

// A whole-struct copy moves every byte; a member of the same element for every lane is a broadcast.
void copies(sycl::queue &q, const Body *bodies, Body *out, const Charge *charges, float *energy, int n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
    Body b = bodies[i];
    b.mass *= 2.0f;
    out[i] = b;
    energy[i] = b.mass * charges[0].q;
  });
}

// Interval bounds (a typedef'd struct of a header) and a padded record in a loop over samples.
void widths(sycl::queue &q, const Interval *iv, const Charge *charges, double *w, int n, int samples) {
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
    const int i = it.get_global_id(0);
    double total = 0.0;
    for (int k = 0; k < samples; ++k)
      total += (iv[i].hi - k) * charges[i].q; // expect: KL603, KL603
    w[i] = total - iv[i].lo; // expect: KL603
  });
}
