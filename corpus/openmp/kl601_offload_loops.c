// Memory access patterns of OpenMP offload loops in C: the lane is the innermost iteration the
// worksharing construct shares out (after collapse).
#define NB 64

typedef struct {
  float x, y, z;
  float charge;
} Atom;

// One row per iteration: the inner loop walks it, so neighbouring iterations are a row apart.
void row_means(const float *m, float *mean, int rows, int cols) {
  #pragma omp target teams distribute parallel for map(to: m[0:rows * cols]) map(from: mean[0:rows])
  for (int r = 0; r < rows; r++) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
      s += m[r * cols + c]; // expect: KL601
    mean[r] = s / cols;
  }
}

// The same means over the transposed matrix: unit stride.
void row_means_t(const float *mt, float *mean, int rows, int cols) {
  #pragma omp target teams distribute parallel for map(to: mt[0:rows * cols]) map(from: mean[0:rows])
  for (int r = 0; r < rows; r++) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
      s += mt[c * rows + r];
    mean[r] = s / cols;
  }
}

// collapse(2): j is the lane. The read walks j, the write is transposed.
void transpose(const float *in, float *out, int n) {
  #pragma omp target teams distribute parallel for collapse(2) map(to: in[0:n * n]) map(from: out[0:n * n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      out[j * n + i] = in[i * n + j]; // expect: KL601
}

// A static 2-D array: `tab[j][k]` in the loop over k is a row of NB floats per lane.
void tables(float tab[][NB], float *out, int n) {
  #pragma omp target teams distribute parallel for map(to: tab[0:n][0:NB]) map(from: out[0:n])
  for (int j = 0; j < n; j++) {
    float s = 0.0f;
    for (int k = 0; k < NB; k++)
      s += tab[j][k] * tab[k][j]; // expect: KL601
    out[j] = s;
  }
}

// An array of structs read one member at a time, and the charges kept apart (a struct of arrays).
void potentials(const Atom *atoms, const float *charges, float *phi, int n, int steps) {
  #pragma omp target teams distribute parallel for map(to: atoms[0:n], charges[0:n]) map(from: phi[0:n])
  for (int i = 0; i < n; i++) {
    float p = 0.0f;
    for (int s = 0; s < steps; s++)
      p += atoms[i].charge / (s + 1) + charges[i]; // expect: KL603
    phi[i] = p;
  }
}

// Gathers, broadcasts and one thread's work say nothing.
void gathers(const int *idx, const float *v, float *out, int n) {
  #pragma omp target teams distribute parallel for map(to: idx[0:n], v[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = v[idx[i]] + v[0];
}

// collapse(2) over a short inner loop (3 components per point, fewer than a sub-group's lanes): a
// sub-group's lanes cover about ten points of three components each, so the component index is no
// lane's own and the point index no sub-group's. The per-component table is read at three addresses
// per step whatever the bit, not 32 lanes 31 elements apart: nothing to report without a model of
// that wrap. The same loop with a long inner extent keeps the lane as the inner index.
#define DIMS 3
#define BITS 31
void quasi_random(const unsigned *table, float *out, int points) {
  #pragma omp target teams distribute parallel for collapse(2) map(to: table[0:DIMS * BITS]) map(from: out[0:DIMS * points])
  for (int p = 0; p < points; p++)
    for (int d = 0; d < DIMS; d++) {
      unsigned r = 0;
      for (int b = 0; b < BITS; b++)
        if ((p >> b) & 1) r ^= table[b + d * BITS];
      out[d * points + p] = (float) r;
    }
}

void quasi_random_wide(const unsigned *table, float *out, int points) {
  #pragma omp target teams distribute parallel for collapse(2) map(to: table[0:NB * BITS]) map(from: out[0:NB * points])
  for (int p = 0; p < points; p++)
    for (int d = 0; d < NB; d++) {
      unsigned r = 0;
      for (int b = 0; b < BITS; b++)
        if ((p >> b) & 1) r ^= table[b + d * BITS]; // expect: KL601
      out[d * points + p] = (float) r; // expect: KL601
    }
}
