// KL706 in C++: a solver class maps a field it no longer uses; a lambda that names the variable
// counts as a use.
#include <vector>

class Jacobi {
public:
  explicit Jacobi(int n) : n_(n), u_(n), f_(n), res_(n) {}

  void sweep(int iters) {
    double *u = u_.data();
    const double *f = f_.data();
    double *res = res_.data();
    const int n = n_;
    for (int it = 0; it < iters; ++it) {
#pragma omp target teams distribute parallel for map(tofrom: u[0:n]) map(to: f[0:n]) map(from: res[0:n]) // expect: KL706, KL701
      for (int i = 1; i < n - 1; ++i)
        u[i] = 0.5 * (u[i - 1] + u[i + 1]) + f[i];
    }
  }

  void sweep_with_residual(int iters) {
    double *u = u_.data();
    const double *f = f_.data();
    double *res = res_.data();
    const int n = n_;
    for (int it = 0; it < iters; ++it) {
#pragma omp target teams distribute parallel for map(tofrom: u[0:n]) map(to: f[0:n]) map(from: res[0:n]) // expect: KL701
      for (int i = 1; i < n - 1; ++i) {
        const double next = 0.5 * (u[i - 1] + u[i + 1]) + f[i];
        res[i] = next - u[i];
        u[i] = next;
      }
    }
  }

private:
  int n_;
  std::vector<double> u_, f_, res_;
};

void through_lambda(float *out, const float *in, int n) {
  auto at = [&](int i) { return in[i]; };
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = at(i);
}
