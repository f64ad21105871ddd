// kernlint-devices: h100
// KL209, good: `teams distribute` spreads the loop over as many teams as the runtime starts, one per block.
void relax(const float *in, float *out, int n) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i) {
    float x = in[i];
    for (int k = 0; k < 256; ++k)
      x = x * 0.999f + 0.001f;
    out[i] = x;
  }
}
