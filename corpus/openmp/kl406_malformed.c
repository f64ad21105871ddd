// KL406: OpenMP directives that do not parse, and unusual but well-formed ones that do.
void f(float *a, const float *b, int n) {
#pragma omp target teams distribute paralel for map(to: b[0:n]) map(from: a[0:n]) // expect: KL406
  for (int i = 0; i < n; ++i) a[i] = b[i];
#pragma omp target teams distribute parallel for map(to: b[0:n) // expect: KL406
  for (int i = 0; i < n; ++i) a[i] = b[i];
#pragma omp target teams distribute parallel for thread_limit // expect: KL406
  for (int i = 0; i < n; ++i) a[i] = b[i];
#pragma omp target teams ompx_bare num_teams(4) thread_limit(64) map(tofrom: a[0:n]) map(to: b[0:n])
  { a[0] = b[0]; }
#pragma omp metadirective when(device = {arch("gen")}: teams loop) default(parallel loop)
  for (int i = 0; i < n; ++i) a[i] += 1.0f;
#pragma unroll 4
  for (int i = 0; i < n; ++i) a[i] += 1.0f;
}
