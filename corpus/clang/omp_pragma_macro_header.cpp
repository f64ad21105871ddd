// kernlint-frontend: clang
// Directives written through macros from a header (omp_include/omp_offload.h): only a compiler
// expands them, so only the clang front-end sees the target regions and their thread_limit clauses.
#include "omp_include/omp_offload.h"

#define SCALE_LOOP OFFLOAD_WIDE

constexpr int kTeams = LaunchTraits<float>::teams;

void scale_wide(float *v, int n, float s) {
  OFFLOAD_WIDE // expect: KL201
  for (int i = 0; i < n; ++i)
    v[i] *= s;
}

void scale_fit(float *v, int n, float s) {
  OFFLOAD_FIT
  for (int i = 0; i < n; ++i)
    v[i] *= s;
}

void scale_alias(float *v, int n, float s) {
  SCALE_LOOP // expect: KL201
  for (int i = 0; i < n; ++i)
    v[i] *= s;
}

// 8192 / sizeof(float) = 2048 work-items per team: clamped; half of it fits.
constexpr int kThreads = LaunchTraits<float>::threads;

void shift(float *v, int n, float d) {
  OFFLOAD_TRAITS // expect: KL201
  for (int i = 0; i < n; ++i)
    v[i] += d;
}

void shift_half(float *v, int n, float d) {
  OFFLOAD_TRAITS_HALF
  for (int i = 0; i < n; ++i)
    v[i] += d;
}
