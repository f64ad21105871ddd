// KL102 for OpenMP maps in C++: std::vector data, constexpr sizes, a member function and a
// target data region around two kernels.
#include <vector>
#include "omp_tuning.h"

constexpr int kN = 1 << 14;

struct Heat {
  std::vector<double> t, next;

  void step(int steps) {
    double *cur = t.data();
    double *nxt = next.data();
#pragma omp target data map(tofrom: cur[0:kN]) map(tofrom: nxt[0:kN])
    {
      for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
        for (int i = 1; i < kN - 1; ++i)
          nxt[i] = 0.25 * (cur[i - 1] + 2.0 * cur[i] + cur[i + 1]);
#pragma omp target teams distribute parallel for
        for (int i = 1; i < kN - 1; ++i)
          cur[i] = nxt[i];
      }
    }
  }
};

double dot(const std::vector<double> &a, const std::vector<double> &b) {
  const double *pa = a.data();
  const double *pb = b.data();
  const int n = static_cast<int>(a.size());
  double sum = 0.0;
#pragma omp target teams distribute parallel for reduction(+: sum) map(tofrom: sum) \
    map(tofrom: pa[0:n]) map(to: pb[0:n]) // expect: KL102
  for (int i = 0; i < n; ++i)
    sum += pa[i] * pb[i];
  return sum;
}

void init(std::vector<float> &v) {
  float *p = v.data();
  const int n = static_cast<int>(v.size());
#pragma omp target teams distribute parallel for map(tofrom: p[0:n]) // expect: KL102
  for (int i = 0; i < n; ++i)
    p[i] = static_cast<float>(i);
}

void init_part(std::vector<float> &v, int first) {
  float *p = v.data();
  const int n = static_cast<int>(v.size());
#pragma omp target teams distribute parallel for map(tofrom: p[0:n])
  for (int i = first; i < n; ++i)   /* starts at `first`: elements before it keep their values */
    p[i] = 0.0f;
}
