// KL701 in C++: a time loop that maps its vectors on every step, and its fixed forms.
#include <vector>

struct Particles {
  std::vector<float> x, v;
};

void integrate(Particles &p, int steps, float dt) {
  const int n = static_cast<int>(p.x.size());
  float *x = p.x.data();
  float *v = p.v.data();
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n], v[0:n]) // expect: KL701
    for (int i = 0; i < n; ++i) {
      v[i] -= dt * x[i];
      x[i] += dt * v[i];
    }
  }
}

void integrate_resident(Particles &p, int steps, float dt) {
  const int n = static_cast<int>(p.x.size());
  float *x = p.x.data();
  float *v = p.v.data();
#pragma omp target data map(tofrom: x[0:n], v[0:n])
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      v[i] -= dt * x[i];
      x[i] += dt * v[i];
    }
  }
}

// Not reported: the host records the first particle of every step.
void integrate_traced(Particles &p, std::vector<float> &trace, int steps, float dt) {
  const int n = static_cast<int>(p.x.size());
  float *x = p.x.data();
  for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
    for (int i = 0; i < n; ++i) x[i] *= 1.0f - dt;
    trace.push_back(x[0]);
    x[0] = 0.0f;
  }
}
