// KL708 in C++: an array of structs whose members point to per-cell data, and a fixed-size array of
// row pointers; the fixes map the pointees in the same function.
struct Cell {
  int count;
  float *samples;
};

float total_samples(Cell *cells, int ncells) {
  float total = 0.0f;
#pragma omp target teams distribute parallel for reduction(+: total) map(to: cells[0:ncells]) map(tofrom: total) // expect: KL708
  for (int c = 0; c < ncells; ++c)
    for (int k = 0; k < cells[c].count; ++k) // expect: KL501
      total += cells[c].samples[k];
  return total;
}

float total_samples_deep(Cell *cells, int ncells) {
  float total = 0.0f;
#pragma omp target enter data map(to: cells[0:ncells])
  for (int c = 0; c < ncells; ++c) {
#pragma omp target enter data map(to: cells[c].samples[0:cells[c].count])
  }
#pragma omp target teams distribute parallel for reduction(+: total) map(tofrom: total)
  for (int c = 0; c < ncells; ++c)
    for (int k = 0; k < cells[c].count; ++k) // expect: KL501
      total += cells[c].samples[k];
  return total;
}

void clear_planes(int nx) {
  double *planes[4];
  for (int p = 0; p < 4; ++p)
    planes[p] = new double[nx];
#pragma omp target teams distribute parallel for map(tofrom: planes) // expect: KL708
  for (int p = 0; p < 4; ++p)
    for (int x = 0; x < nx; ++x)
      planes[p][x] = 0.0;
  for (int p = 0; p < 4; ++p)
    delete[] planes[p];
}
