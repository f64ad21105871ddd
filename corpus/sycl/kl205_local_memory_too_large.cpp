// kernlint-devices: gen9 xe-lp xe-hpc h100
// Local memory per work-group above a device's limit: 64 KB on Gen9/Xe-LP, 128 KB on Xe-HPC,
// 227 KB on the H100 (48 KB there unless the CUDA backend's limit is raised).
#include <sycl/sycl.hpp>
#include "kl2_launch_config.hpp"

#define TILE 64
#define STAGES 2

// 80 KB from the header's constants, charged as 96 KB on Xe-HPC: one 1024-item work-group per Xe-core.
void tile_80k(sycl::queue &q, const float *in, float *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(kl2_tile_rows, kl2_tile_cols), h); // expect[gen9]: KL205 // expect[xe-lp]: KL205 // expect[h100]: KL205
    h.parallel_for(sycl::nd_range<2>({n, n}, {32, 32}), [=](sycl::nd_item<2> it) { // expect[gen9]: KL201 // expect[xe-lp]: KL201 // expect[xe-hpc]: KL202
      tile[it.get_local_id(0)][it.get_local_id(1)] = in[it.get_global_linear_id()];
      it.barrier(sycl::access::fence_space::local_space);
      out[it.get_global_linear_id()] = tile[it.get_local_id(1)][it.get_local_id(0)]; // expect: KL602
    });
  });
}

// Two allocations that only together exceed 64 KB: 2 x 40 KB (reported at the first of the largest).
void double_buffer(sycl::queue &q, const double *in, double *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<double, 1> front(sycl::range<1>(5120), h); // expect[gen9]: KL205 // expect[xe-lp]: KL205 // expect[h100]: KL205
    sycl::local_accessor<double, 1> back(sycl::range<1>(5120), h);
    h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) { // expect[xe-hpc]: KL202 // expect[h100]: KL202
      size_t l = it.get_local_id(0);
      front[l] = in[it.get_global_id(0)];
      back[l] = front[l] * 2.0;
      it.barrier();
      out[it.get_global_id(0)] = back[255 - l];
    });
  });
}

// 160 KB: more than Xe-HPC's 128 KB; the H100 can hold it once the limit is raised.
void big_stage(sycl::queue &q, float *x, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> stage(sycl::range<1>(STAGES * 20 * 1024), h); // expect: KL205
    h.parallel_for(sycl::nd_range<1>(n, 1024), [=](sycl::nd_item<1> it) { // expect[gen9]: KL201 // expect[xe-lp]: KL201 // expect[h100]: KL202
      stage[it.get_local_id(0)] = x[it.get_global_id(0)];
      it.barrier();
      x[it.get_global_id(0)] = stage[1023 - it.get_local_id(0)];
    });
  });
}

// 240 KB: too much for any device, the H100 included.
void huge(sycl::queue &q, float *x, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> scratch(sycl::range<1>(240 * 256), h); // expect: KL205
    h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) { scratch[it.get_local_id(0)] = x[it.get_global_id(0)]; });
  });
}

// Exactly 64 KB: the most Gen9 / Xe-LP allow, above the H100's 48 KB default.
void exactly_64k(sycl::queue &q, int *x, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 2> histo(sycl::range<2>(TILE, 256), h); // expect[h100]: KL205
    h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) { // expect[gen9]: KL202 // expect[xe-lp]: KL202 // expect[xe-hpc]: KL202 // expect[h100]: KL202
      histo[it.get_local_id(0) % TILE][x[it.get_global_id(0)] & 255] += 1;
    });
  });
}

// A legacy target::local accessor inside a template instantiated here: 96 KB.
template <size_t N>
void legacy(sycl::queue &q, sycl::buffer<float, 1> &buf) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor<float, 1, sycl::access_mode::read_write, sycl::target::local> lmem(sycl::range<1>(N), h); // expect[gen9]: KL205 // expect[xe-lp]: KL205 // expect[h100]: KL205
    sycl::accessor acc(buf, h, sycl::read_write);
    h.parallel_for(sycl::nd_range<1>(buf.size(), 512), [=](sycl::nd_item<1> it) { // expect[gen9]: KL201 // expect[xe-hpc]: KL202 // expect[h100]: KL202
      lmem[it.get_local_id(0)] = acc[it.get_global_id(0)];
      acc[it.get_global_id(0)] = lmem[511 - it.get_local_id(0)];
    });
  });
}
template void legacy<24576>(sycl::queue &, sycl::buffer<float, 1> &);

// 70 KB known plus an allocation sized at run time: at least 70 KB.
void partly_known(sycl::queue &q, float *x, size_t n, size_t extra) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> fixed(sycl::range<1>(70 * 256), h); // expect[gen9]: KL205 // expect[xe-lp]: KL205 // expect[h100]: KL205
    sycl::local_accessor<float, 1> dynamic(sycl::range<1>(extra), h);
    h.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) { // expect[xe-hpc]: KL202 // expect[h100]: KL202
      fixed[it.get_local_id(0)] = dynamic[0] + x[it.get_global_id(0)];
    });
  });
}

// A macro-sized 2-D int histogram: 300 x 60 ints = 70.3 KB, charged as 96 KB on Xe-HPC.
#define BINS 300
void histogram(sycl::queue &q, const int *keys, int *out, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 2> bins(sycl::range<2>(BINS, 60), h); // expect[gen9]: KL205 // expect[xe-lp]: KL205 // expect[h100]: KL205
    h.parallel_for(sycl::nd_range<1>(n, 960), [=](sycl::nd_item<1> it) { // expect[gen9]: KL201 // expect[xe-lp]: KL201 // expect[xe-hpc]: KL202
      bins[keys[it.get_global_id(0)] % BINS][it.get_local_id(0) % 60] += 1;
      it.barrier();
      out[it.get_global_id(0)] = bins[0][0];
    });
  });
}

// A 3-D local block of doubles: 16 x 16 x 40 x 8 bytes = 80 KB.
void block3d(sycl::queue &q, double *v, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<double, 3> blk(sycl::range<3>(16, 16, 40), h); // expect[gen9]: KL205 // expect[xe-lp]: KL205 // expect[h100]: KL205
    h.parallel_for(sycl::nd_range<3>({n, n, n}, {4, 4, 16}), [=](sycl::nd_item<3> it) { // expect[xe-hpc]: KL202 // expect[h100]: KL202
      blk[it.get_local_id(0)][it.get_local_id(1)][it.get_local_id(2)] = v[it.get_global_linear_id()];
    });
  });
}

// Near misses ------------------------------------------------------------------------------------

// 48 KB: within every limit, the H100 default included.
void within(sycl::queue &q, float *x, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> buf(sycl::range<1>(12 * 1024), h);
    h.parallel_for(sycl::nd_range<1>(n, 1024), [=](sycl::nd_item<1> it) { buf[it.get_local_id(0)] = x[it.get_global_id(0)]; }); // expect[gen9]: KL201 // expect[xe-lp]: KL201
  });
}

// A struct element type: its size is not known, so nothing is claimed.
struct Cell { double v[64]; };
void opaque(sycl::queue &q, Cell *cells, size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<Cell, 1> tmp(sycl::range<1>(4096), h);
    h.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) { tmp[it.get_local_id(0)] = cells[it.get_global_id(0)]; });
  });
}

// Sized from the device at run time.
void from_device(sycl::queue &q, float *x, size_t n) {
  size_t bytes = q.get_device().get_info<sycl::info::device::local_mem_size>();
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> all(sycl::range<1>(bytes / sizeof(float)), h);
    h.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) { all[it.get_local_id(0)] = x[it.get_global_id(0)]; });
  });
}

// A large global buffer is not local memory.
void global_only(sycl::queue &q, size_t n) {
  sycl::buffer<float, 1> big(sycl::range<1>(1 << 24));
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(big, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) { acc[it.get_global_id(0)] = 0.0f; });
  });
}
