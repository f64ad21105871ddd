// Device code behind function calls: a `declare target` function called from a target region, and a
// function the region calls without the directive (visible here, so implicitly declare target since
// OpenMP 5.0). Each is followed one level from the region: its parameters take the region's values, so
// a branch on the loop index inside it diverges like one written in the loop.
#include <math.h>

#pragma omp declare target
static float weight(int i, float x) {
  float w = x;
  if (i % 4 == 0)                                        // expect: KL501
    w = sqrtf(fabsf(x)) * 0.25f;
  return w;
}

// Uniform for every thread of the loop: the bound is the same for all, nothing diverges.
static float smooth(const float *a, int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += a[k];
  return s / n;
}
#pragma omp end declare target

// Called without the directive: a loop whose trip count each thread reads from its own row.
static float row_sum(const float *a, const int *len, int i, int width) {
  float s = 0.0f;
  for (int k = 0; k < len[i]; ++k)                       // expect: KL501
    s += a[i * width + k];
  return s;
}

void run(const float *a, const int *len, float *out, int n, int width) {
#pragma omp target teams distribute parallel for map(to: a[0:n * width], len[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = weight(i, a[i]) + smooth(a, 16) + row_sum(a, len, i, width);
}
