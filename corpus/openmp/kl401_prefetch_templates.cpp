// KL401 in C++: constexpr tile sizes from a quoted header, member functions, a template whose
// tile size is instantiated once, and indices kept in locals.
#include <vector>
#include "omp_tuning.h"

template <int Ahead>
void lookahead(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i) {
    const int next = i + Ahead;
#pragma ompx prefetch data(OMP_HINT_L1: in[next])   // expect: KL401
    out[i] = in[i];
  }
}

template void lookahead<32>(float *, const float *, int);

class Smoother {
public:
  void run(std::vector<float> &data) {
    float *d = data.data();
    const int n = static_cast<int>(data.size());
#pragma omp target teams distribute parallel for map(tofrom: d[0:n])
    for (int b = 0; b < n; b += kTile) {
      for (int k = 0; k < kTile; ++k) {
        const int cur = b + k;
#pragma ompx prefetch data(OMP_HINT_L1: d[cur])     /* the current tile: fine */
#pragma ompx prefetch data(OMP_HINT_L2: d[b + kTile + k])   // expect: KL401
#pragma ompx prefetch data(OMP_HINT_L2: d[b + kTile + k]) if (b + kTile + k < n)
        d[cur] = 0.5f * d[cur];
      }
    }
  }
};

void host_only(float *a, int n) {
  // A prefetch outside any loop has no range to leave that kernlint can see: not reported.
#pragma ompx prefetch data(OMP_HINT_L1: a[n])
  a[0] = 1.0f;
}
