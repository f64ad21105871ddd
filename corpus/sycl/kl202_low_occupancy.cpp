// kernlint-devices: gen9 xe-lp xe-hpc h100
// Work-groups tied to one Xe-core/SM (barrier or local memory) that leave it badly occupied.
#include <sycl/sycl.hpp>
#include "kl2_launch_config.hpp"

#define ROWS 4

// The guide's Xe-LP case: local range (1, 4, 128) at sub-group size 8 with a barrier, 64 threads,
// one work-group per Xe-core, 57 %. Gen9 cannot launch 512 work-items; Xe-HPC and H100 have no SIMD8.
void rows_xe_lp(sycl::queue &q, float *data) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<3>({64, 64, 128}, {1, ROWS, 128}), // expect[xe-lp]: KL202 // expect[gen9]: KL201
                   [=](sycl::nd_item<3> it) [[intel::reqd_sub_group_size(8)]] { // expect[xe-hpc]: KL204 // expect[h100]: KL204
                     size_t i = it.get_global_linear_id();
                     data[i] *= 2.0f;
                     it.barrier(sycl::access::fence_space::global_space);
                     data[i] += data[i ^ 1];
                   });
  });
}

// The guide's Gen9 case: local range (1, 4, 64), 32 threads of a 56-thread subslice, 57 %.
void rows_gen9(sycl::queue &q, float *data) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<3>({64, 64, 64}, {1, 4, 64}), // expect[gen9]: KL202
                   [=](sycl::nd_item<3> it) [[intel::reqd_sub_group_size(kl2_simd_narrow)]] { // expect[xe-hpc]: KL204 // expect[h100]: KL204
                     size_t i = it.get_global_linear_id();
                     sycl::group_barrier(it.get_group());
                     data[i] = 0.0f;
                   });
  });
}

// Local memory instead of a barrier: 80 KB per work-group is rounded up to 96 KB on Xe-HPC, so only
// one of them fits an Xe-core (8 of 64 threads). It does not fit Gen9/Xe-LP at all (KL205), and on
// the H100 two blocks fit per SM, a quarter of its warps.
void tiled(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(kl2_tile_rows, kl2_tile_cols), h); // expect[gen9]: KL205 // expect[xe-lp]: KL205 // expect[h100]: KL205
    h.parallel_for(sycl::nd_range<2>({4096, 4096}, {16, 16}), [=](sycl::nd_item<2> it) { // expect[xe-hpc]: KL202 // expect[h100]: KL202
      tile[it.get_local_id(0)][it.get_local_id(1)] = out[it.get_global_linear_id()]; // expect[h100]: KL602
      out[it.get_global_linear_id()] = tile[it.get_local_id(1)][it.get_local_id(0)]; // expect: KL602
    });
  });
}

// 704 work-items (22 threads at SIMD32, 22 warps): two fit an Xe-HPC core or an H100 SM, 69 %.
template <int WG>
void reduce(sycl::queue &q, const float *in, float *out) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> partial(sycl::range<1>(WG), h);
    h.parallel_for(sycl::nd_range<1>(WG * 4096, WG), [=](sycl::nd_item<1> it) { // expect[xe-hpc]: KL202 // expect[h100]: KL202 // expect[gen9]: KL201 // expect[xe-lp]: KL201
      size_t l = it.get_local_id(0);
      partial[l] = in[it.get_global_id(0)];
      it.barrier(sycl::access::fence_space::local_space);
      if (l == 0) out[it.get_group(0)] = partial[0];
    });
  });
}
template void reduce<704>(sycl::queue &, const float *, float *);

// One-thread work-groups with a barrier: Gen9 and Xe-LP cap them by barrier registers (32 and 64),
// the H100 at 32 blocks per SM; Xe-HPC has a barrier register per thread slot.
struct Tiny {
  int *flags;
  void operator()(sycl::nd_item<1> it) const {
    it.barrier();
    flags[it.get_global_id(0)] = 1;
  }
};

void tiny_groups(sycl::queue &q, int *flags) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(kl2_problem, 32), Tiny{flags}); // expect[gen9]: KL202 // expect[xe-lp]: KL202 // expect[h100]: KL202
  });
}

// A functor with reqd_work_group_size and a legacy target::local accessor over a buffer.
struct Smooth {
  sycl::accessor<float, 1, sycl::access_mode::read_write, sycl::target::local> scratch;
  sycl::accessor<float, 1, sycl::access_mode::read_write> data;
  [[sycl::reqd_work_group_size(704)]] void operator()(sycl::nd_item<1> it) const {
    scratch[it.get_local_id(0)] = data[it.get_global_id(0)];
    it.barrier(sycl::access::fence_space::local_space);
    data[it.get_global_id(0)] = scratch[(it.get_local_id(0) + 1) % 704];
  }
};

void smooth(sycl::queue &q, sycl::buffer<float, 1> &buf) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor<float, 1, sycl::access_mode::read_write, sycl::target::local> scratch(sycl::range<1>(704), h);
    sycl::accessor data(buf, h, sycl::read_write);
    h.parallel_for(sycl::nd_range<1>(704 * 1024, 704), Smooth{scratch, data}); // expect[xe-hpc]: KL202 // expect[h100]: KL202 // expect[gen9]: KL201 // expect[xe-lp]: KL201
  });
}

// Near misses ------------------------------------------------------------------------------------

// The same (1, 4, 128) shape without a barrier or local memory: threads spread over Xe-cores.
void no_sync(sycl::queue &q, float *data) {
  q.parallel_for(sycl::nd_range<3>({64, 64, 128}, {1, 2, 128}),
                 [=](sycl::nd_item<3> it) [[intel::reqd_sub_group_size(16)]] { data[it.get_global_linear_id()] = 1.0f; }); // expect[h100]: KL204
}

// Only a sub-group barrier: it does not tie the work-group to one Xe-core.
void sub_group_sync(sycl::queue &q, float *data) {
  q.parallel_for(sycl::nd_range<1>(704 * 4096, 704), [=](sycl::nd_item<1> it) { // expect[gen9]: KL201 // expect[xe-lp]: KL201
    sycl::group_barrier(it.get_sub_group());
    data[it.get_global_id(0)] = 0.0f;
  });
}

// 768 work-items with a barrier: 75 % on Xe-HPC and H100, exactly the default threshold.
void at_threshold(sycl::queue &q, float *data) {
  q.parallel_for(sycl::nd_range<1>(768 * 4096, 768), [=](sycl::nd_item<1> it) { // expect[gen9]: KL201 // expect[xe-lp]: KL201
    it.barrier();
    data[it.get_global_id(0)] += 1.0f;
  });
}

// 128 work-items with a barrier: enough of them fit every Xe-core / SM completely.
void full(sycl::queue &q, float *data) {
  q.parallel_for(sycl::nd_range<1>(kl2_problem, 128), [=](sycl::nd_item<1> it) {
    it.barrier();
    data[it.get_global_id(0)] *= 3.0f;
  });
}

// Local range unknown (a parameter): nothing to compute.
void unknown_size(sycl::queue &q, float *data, size_t wg) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tmp(sycl::range<1>(wg), h);
    h.parallel_for(sycl::nd_range<1>(kl2_problem, wg), [=](sycl::nd_item<1> it) {
      tmp[it.get_local_id(0)] = data[it.get_global_id(0)];
      it.barrier();
    });
  });
}

// A required sub-group size that cannot be evaluated (two instantiations disagree): no guess.
template <int SG>
void two_widths(sycl::queue &q, float *data) {
  q.parallel_for(sycl::nd_range<1>(kl2_problem, 256), [=](sycl::nd_item<1> it) [[intel::reqd_sub_group_size(SG)]] {
    it.barrier();
    data[it.get_global_id(0)] = 1.0f;
  });
}
template void two_widths<16>(sycl::queue &, float *);
template void two_widths<32>(sycl::queue &, float *);
