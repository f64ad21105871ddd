// KL705 in C++: a pointer parameter and a `new[]` buffer mapped bare, next to the fixes.
#include <cstddef>

void brighten(float *pixels, int count, float gain) {
#pragma omp target teams distribute parallel for map(tofrom: pixels) // expect: KL705
  for (int i = 0; i < count; ++i)
    pixels[i] *= gain;
}

void brighten_section(float *pixels, int count, float gain) {
#pragma omp target teams distribute parallel for map(tofrom: pixels[0:count])
  for (int i = 0; i < count; ++i)
    pixels[i] *= gain;
}

double sum_squares(std::size_t n) {
  double *v = new double[1024];
  double total = 0.0;
  for (std::size_t i = 0; i < 1024; ++i)
    v[i] = static_cast<double>(i);
#pragma omp target teams distribute parallel for reduction(+: total) \
    map(to: v) map(tofrom: total) // expect: KL705
  for (std::size_t i = 0; i < 1024; ++i)
    total += v[i] * v[i];
  delete[] v;
  return total;
}

double sum_squares_fixed(std::size_t n) {
  double *v = new double[1024];
  double total = 0.0;
  for (std::size_t i = 0; i < 1024; ++i)
    v[i] = static_cast<double>(i);
#pragma omp target teams distribute parallel for reduction(+: total) \
    map(to: v[0:1024]) map(tofrom: total)
  for (std::size_t i = 0; i < 1024; ++i)
    total += v[i] * v[i];
  delete[] v;
  return total;
}
