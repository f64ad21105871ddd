// kernlint-devices: h100
// KL209, bad: a target region shares its loop with `parallel for` but has no `teams`: the runtime starts
// one team, a single thread block on one SM, and the other SMs of the GPU stay idle for the whole loop.
void relax(const float *in, float *out, int n) {
#pragma omp target map(to: in[0:n]) map(from: out[0:n]) // expect: KL209
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    float x = in[i];
    for (int k = 0; k < 256; ++k)
      x = x * 0.999f + 0.001f;
    out[i] = x;
  }
}
