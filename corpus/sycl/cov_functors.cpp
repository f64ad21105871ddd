// Functor kernels: constructed in a variable before the command group, constructed by a helper, or
// never launched in this file at all (a library of kernels) — each is device code by what it is:
// its call operator takes a SYCL index.
#include <sycl/sycl.hpp>

// Constructed in a variable, launched by name. The early exit skips the barrier for the tail.
struct Stencil {
  const float *in;
  float *out;
  sycl::local_accessor<float, 1> halo;
  int width;
  void operator()(sycl::nd_item<1> it) const {
    const int x = static_cast<int>(it.get_global_id(0));
    if (x >= width - 1)
      return;
    halo[it.get_local_id(0)] = in[x];
    sycl::group_barrier(it.get_group()); // expect: KL502
    out[x] = halo[it.get_local_id(0)] * 0.5f;
  }
};

// Launched nowhere in this file: another translation unit does it. Its own code is still checked.
struct RowNormalise {
  float *rows;
  int cols;
  void operator()(sycl::nd_item<2> it) const {
    const size_t col = it.get_local_id(1);
    if (col & 1) // expect: KL501
      it.barrier(); // expect: KL502
    rows[it.get_global_id(0) * cols + col] /= cols;
  }
};

// Its fixed form: the barrier is reached by every work-item of the group.
struct RowNormaliseFixed {
  float *rows;
  int cols;
  void operator()(sycl::nd_item<2> it) const {
    it.barrier();
    rows[it.get_global_id(0) * cols + it.get_local_id(1)] /= cols;
  }
};

// A basic kernel (`item<2>`), not launched here either: no barrier, nothing to report.
struct Fill {
  float *grid;
  float value;
  void operator()(sycl::item<2> item) const { grid[item.get_linear_id()] = value; }
};

void smooth(sycl::queue &q, const float *in, float *out, int width) {
  q.submit([&](sycl::handler &cgh) {
    sycl::local_accessor<float, 1> halo(sycl::range<1>(128), cgh);
    Stencil stencil{in, out, halo, width};
    cgh.parallel_for(sycl::nd_range<1>(1 << 20, 128), stencil);
  });
}

// A functor a library's kernel calls with the chunk first and the index last (the multi-tensor
// helpers' shape): `chunk` is the same for every work-item, the index is `item`.
struct ScaleChunk {
  void operator()(int chunk, float *data, float factor, sycl::nd_item<1> item) const {
    if (chunk % 4 == 0) { // uniform: every work-item sees the same chunk size
      sycl::group_barrier(item.get_group());
      data[item.get_global_id(0)] *= factor;
    }
    if (item.get_local_id(0) < 8)
      sycl::group_barrier(item.get_group()); // expect: KL502
  }
};
