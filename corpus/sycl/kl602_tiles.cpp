// kernlint-devices: xe-hpc h100
// Tiles staged through local memory and read along their columns: padded and unpadded.
#include <sycl/sycl.hpp>

constexpr int kTile = 32;
constexpr int kRows = 8;

// Transpose through a 32 x 32 tile: the column read puts every lane of a sub-group in one bank.
void transpose_unpadded(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(kTile, kTile), h);
    h.parallel_for(sycl::nd_range<2>({n / 4, n}, {kRows, kTile}), [=](sycl::nd_item<2> it) {
      const int lx = it.get_local_id(1), ly = it.get_local_id(0);
      const size_t bx = it.get_group(1) * kTile, by = it.get_group(0) * kTile;
      for (int j = 0; j < kTile; j += kRows)
        tile[ly + j][lx] = in[(by + ly + j) * n + bx + lx];
      sycl::group_barrier(it.get_group());
      for (int j = 0; j < kTile; j += kRows)
        out[(bx + ly + j) * n + by + lx] = tile[lx][ly + j]; // expect: KL602
    });
  });
}

// The same with the tile's rows padded to 33 floats: a column spreads over every bank.
void transpose_padded(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(kTile, kTile + 1), h);
    h.parallel_for(sycl::nd_range<2>({n / 4, n}, {kRows, kTile}), [=](sycl::nd_item<2> it) {
      const int lx = it.get_local_id(1), ly = it.get_local_id(0);
      const size_t bx = it.get_group(1) * kTile, by = it.get_group(0) * kTile;
      for (int j = 0; j < kTile; j += kRows)
        tile[ly + j][lx] = in[(by + ly + j) * n + bx + lx];
      sycl::group_barrier(it.get_group());
      for (int j = 0; j < kTile; j += kRows)
        out[(bx + ly + j) * n + by + lx] = tile[lx][ly + j];
    });
  });
}

// Pairs summed in local memory: lanes two floats apart share banks; the broadcast of the
// group's first element is no conflict.
void pair_sums(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> buf(sycl::range<1>(512), h);
    h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
      const int lid = it.get_local_id(0);
      const size_t base = it.get_group(0) * 512;
      buf[lid] = in[base + lid];
      buf[lid + 256] = in[base + lid + 256];
      sycl::group_barrier(it.get_group());
      out[it.get_global_id(0)] = buf[2 * lid] + buf[2 * lid + 1] - buf[0]; // expect: KL602
    });
  });
}

// A 16 x 16 tile of doubles read along its columns, and the padded one.
void column_sums(sycl::queue &q, const double *in, double *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<double, 2> t(sycl::range<2>(16, 16), h);
    sycl::local_accessor<double, 2> p(sycl::range<2>(16, 17), h);
    h.parallel_for(sycl::nd_range<2>({n, n}, {16, 16}), [=](sycl::nd_item<2> it) {
      const int lx = it.get_local_id(1), ly = it.get_local_id(0);
      t[ly][lx] = in[it.get_global_id(0) * n + it.get_global_id(1)];
      p[ly][lx] = t[ly][lx];
      sycl::group_barrier(it.get_group());
      double a = 0.0, b = 0.0;
      for (int k = 0; k < 16; ++k) {
        a += t[lx][k]; // expect: KL602
        b += p[lx][k];
      }
      out[it.get_global_id(0) * n + it.get_global_id(1)] = a + b;
    });
  });
}
