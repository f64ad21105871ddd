// KL406 in C++: a continued directive with an unbalanced bracket, and a misspelt prefetch.
#include "omp_tuning.h"

void g(float *a, int n) {
#pragma omp target teams distribute parallel for \
    map(tofrom: a[0:n)                                       // expect: KL406
  for (int i = 0; i < n; ++i) a[i] *= 2.0f;
#pragma omp declare simd uniform(n) linear(i: 1)
#pragma ompx prefetc data(OMP_HINT_L1: a[0])                 // expect: KL406
}
