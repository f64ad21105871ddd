// kernlint-frontend: clang
// The build (compile_commands.json beside this file) passes -DTARGET_PVC -DWG=2048: omp_config.h
// then sets OFFLOAD_LEVEL to 2, so the loop macros below are the target ones. Each macro is defined
// once per arm, and which arm is compiled depends on a header's macro: only a compiler knows which
// directive a line such as `TEAMS_LOOP` is.
#include "omp_config.h"

#if OFFLOAD_LEVEL > 1
#define TEAMS_LOOP _Pragma("omp target teams distribute parallel for thread_limit(WG) map(tofrom: a[0:n])")
#define HALF_LOOP _Pragma("omp target teams distribute parallel for thread_limit(WG / 2) map(tofrom: a[0:n])")
#else
#define TEAMS_LOOP _Pragma("omp parallel for")
#define HALF_LOOP _Pragma("omp parallel for")
#endif

void damp(double *a, int n, double k) {
  TEAMS_LOOP // expect: KL201
  for (int i = 0; i < n; ++i)
    a[i] *= k;
}

void damp_half(double *a, int n, double k) {
  HALF_LOOP
  for (int i = 0; i < n; ++i)
    a[i] *= k;
}
