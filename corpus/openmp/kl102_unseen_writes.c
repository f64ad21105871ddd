/* KL102 for OpenMP maps in C: narrowed to `to` only when nothing in the region can write the array.
   Member stores, an included kernel, a pointer into the array taken before the region and an
   address passed on keep the tofrom map; C passes elements by value, so `damp(v[i])` is a read. */
#include <math.h>
#include <stddef.h>

typedef struct {
  float pos, vel;
} particle;

float damp(float v);
void bump(float *slot);

void drift(particle *p, size_t n, float dt) {
#pragma omp target teams distribute parallel for map(tofrom: p[0:n])
  for (size_t i = 0; i < n; ++i)
    p[i].pos = p[i].pos + dt * p[i].vel;
}

void smooth(float *v, int n, int passes) {
#pragma omp target data map(tofrom: v[0:n])
  {
    const float edge = v[0];
    for (int s = 0; s < passes && edge > 0.0f; ++s) {
#include "kl102_relax_sweep.inc"
    }
  }
}

void tail(float *v, int n) {
  float *last = &v[n - 1];
#pragma omp target teams distribute parallel for map(tofrom: v[0:n])
  for (int i = 0; i < 1; ++i)
    *last = v[0];
}

void poke(float *v, int n) {
#pragma omp target teams distribute parallel for map(tofrom: v[0:n])
  for (int i = 0; i < n; ++i)
    bump(&v[i]);
}

float peak(const float *v, float *w, int n) {
  float best = 0.0f;
#pragma omp target teams distribute parallel for reduction(max: best) map(tofrom: w[0:n]) // expect: KL102
  for (int i = 0; i < n; ++i)
    best = fmaxf(best, damp(w[i]));
  return best + v[0];
}
