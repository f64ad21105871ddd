/* KL501 in OpenMP offload code follows definitions, not names: a scalar reused after a divergent
   assignment is uniform again once reassigned, and a region limited to one thread per team has no
   lanes to diverge. */
#include <omp.h>

void smooth(float *a, const float *w, int n) {
  int k, c;
#pragma omp target teams distribute parallel for private(k, c) map(tofrom: a[0:n]) map(to: w[0:n])
  for (int i = 0; i < n; ++i) {
    c = 0;
    if (w[i] > 0.5f) {                        // expect: KL501
      c = i % 4;
      a[i] += c;
    }
    for (k = 0; k < 8; ++k) {                 /* every work-item runs 8 iterations */
      if (k == 2)
        a[i] *= 0.5f;
    }
    c = 3;
    if (c > 2)                                /* reassigned to a constant: uniform */
      a[i] += 1.0f;
  }
}

void serial_per_team(float *a, int n) {
#pragma omp target teams distribute parallel for thread_limit(1) map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0)                           /* one thread per team: nothing to diverge */
      a[i] = 0.0f;
  }
}
