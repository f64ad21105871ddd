// Directives the build completes with macros, and directives written with _Pragma.
#define TEAM_SHAPE num_teams(120) thread_limit(256)
#define OFFLOAD_LOOP _Pragma("omp target teams distribute parallel for map(tofrom: x[0:n])")

void scale(float *x, int n) {
  // THREADS and LAUNCH_BOUNDS come from the build (-DTHREADS=..., -DLAUNCH_BOUNDS=...): not mistakes.
#pragma omp target teams distribute parallel for THREADS map(tofrom: x[0:n])
  for (int i = 0; i < n; i++) x[i] *= 2.0f;
#pragma omp LAUNCH_BOUNDS
  for (int i = 0; i < n; i++) x[i] += 1.0f;

  // A macro of the file, expanded as the compiler does.
#pragma omp target teams distribute parallel for TEAM_SHAPE map(tofrom: x[0:n])
  for (int i = 0; i < n; i++) x[i] -= 1.0f;

  // The _Pragma operator, behind a macro and written out; the second one is misspelt.
  OFFLOAD_LOOP
  for (int i = 0; i < n; i++) x[i] *= 0.5f;
  _Pragma("omp target teams distribute parallel for num_team(8) map(tofrom: x[0:n])") // expect: KL406
  for (int i = 0; i < n; i++) x[i] += 0.5f;
}
