// KL209 in C++: a class method and a template launch one team; the fixes spread the loop over teams.
#include <cmath>
#include <vector>

class Particles {
public:
  void drift(double dt) {
    double *px = x.data();
    const double *pv = v.data();
    const int n = static_cast<int>(x.size());
#pragma omp target parallel for map(tofrom: px[0:n]) map(to: pv[0:n]) // expect: KL209
    for (int i = 0; i < n; ++i)
      px[i] += dt * pv[i];
  }

  void drift_teams(double dt) {
    double *px = x.data();
    const double *pv = v.data();
    const int n = static_cast<int>(x.size());
#pragma omp target teams distribute parallel for map(tofrom: px[0:n]) map(to: pv[0:n])
    for (int i = 0; i < n; ++i)
      px[i] += dt * pv[i];
  }

private:
  std::vector<double> x, v;
};

template <typename T>
void normalise(T *data, T scale, int n) {
#pragma omp target map(tofrom: data[0:n]) // expect: KL209
  {
#pragma omp parallel for simd
    for (int i = 0; i < n; ++i)
      data[i] = data[i] / scale;
  }
}

template <typename T>
void normalise_teams(T *data, T scale, int n) {
#pragma omp target map(tofrom: data[0:n])
  {
#pragma omp teams distribute parallel for simd
    for (int i = 0; i < n; ++i)
      data[i] = data[i] / scale;
  }
}

void magnitudes(const float *re, const float *im, float *mag, int n) {
#pragma omp target teams map(to: re[0:n], im[0:n]) map(from: mag[0:n])
#pragma omp distribute parallel for
  for (int i = 0; i < n; ++i)
    mag[i] = std::sqrt(re[i] * re[i] + im[i] * im[i]);
}
