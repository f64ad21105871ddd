// kernlint-devices: xe-hpc xe-lp a100
// KL201 for OpenMP in C++: thread_limit on `target teams` with a nested parallel loop, constexpr
// team sizes from a quoted header and a template argument.
#include "omp_tuning.h"

template <int Threads>
void run(float *a, int n) {
#pragma omp target teams thread_limit(Threads) map(tofrom: a[0:n]) // expect: KL201
  {
#pragma omp distribute parallel for
    for (int i = 0; i < n; ++i) a[i] *= 2.0f;
  }
}

template void run<4 * kTeamSize * 2>(float *, int);

void fine(float *a, int n) {
#pragma omp target teams distribute parallel for thread_limit(kTeamSize) map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i) a[i] *= 2.0f;
}
