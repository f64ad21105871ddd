// KL102 for OpenMP maps in C++ only when the region provably never writes the array: a member store,
// code included into the region, a pointer made outside it, an element passed by reference or a call
// that can reach a global are all writes the analysis cannot rule out, so those maps stay tofrom.
#include <cmath>

struct Body {
  float x, y, z;
  float f[3];
};

constexpr int kBodies = 4096;
float g_energy[kBodies];

void accumulate(float &slot, float value);
double smooth(double value);

void reset_energy(int n) {
  for (int i = 0; i < n; ++i)
    g_energy[i] = 0.0f;
}

void push(Body *bodies, const float *dt, int n) {
#pragma omp target teams distribute parallel for map(tofrom: bodies[0:n]) map(to: dt[0:n])
  for (int i = 0; i < n; ++i)
    bodies[i].x += dt[i] * bodies[i].f[0];   // a member store: the other members must come back too // expect: KL603
}

void clear_forces(Body *bodies, int n) {
#pragma omp target teams distribute parallel for map(tofrom: bodies[0:n])
  for (int i = 0; i < n; ++i)
    bodies[i].f[1] = 0.0f; // expect: KL603
}

void relax(float *field, int n, int sweeps) {
#pragma omp target data map(tofrom: field[0:n])
  {
    const float first = field[0];
    for (int s = 0; s < sweeps; ++s) {
#include "kl102_relax_sweep.inc"
    }
    (void)first;
  }
}

void shift(float *field, int n) {
  float *ahead = field + 1;
#pragma omp target teams distribute parallel for map(tofrom: field[0:n])
  for (int i = 0; i < n - 1; ++i)
    ahead[i] = 0.5f * field[i];
}

void deposit(float *cells, const float *mass, int n) {
#pragma omp target teams distribute parallel for map(tofrom: cells[0:n]) map(to: mass[0:n])
  for (int i = 0; i < n; ++i)
    accumulate(cells[i], mass[i]);
}

float total_energy(int n) {
  float sum = 0.0f;
#pragma omp target data map(tofrom: g_energy[0:kBodies])
  {
    reset_energy(n);
    sum = g_energy[0];
  }
  return sum;
}

void filter(double *signal, double *out, int n) {
#pragma omp target teams distribute parallel for map(tofrom: signal[0:n]) map(from: out[0:n]) // expect: KL102
  for (int i = 0; i < n; ++i)
    out[i] = smooth(signal[i]) + std::sqrt(signal[i]);
}
