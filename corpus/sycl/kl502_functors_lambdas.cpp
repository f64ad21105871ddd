// Divergent barriers behind functors, stored lambdas, templates and conditional compilation.
#include <sycl/sycl.hpp>
#include "kl5_tiles.hpp"

#define KL5_LOCAL_FENCE sycl::access::fence_space::local_space

// A functor whose member function synchronises, called only by the lower half of the group.
struct Transpose {
  const float *in;
  float *out;
  sycl::local_accessor<float, 1> tile;
  size_t n;

  void stage(sycl::nd_item<1> it, size_t lid) const {
    tile[lid] = in[it.get_global_id(0)];
    it.barrier(sycl::access::fence_space::local_space);
  }
  void operator()(sycl::nd_item<1> it) const {
    const size_t lid = it.get_local_id(0);
    if (lid < it.get_local_range(0) / 2)
      stage(it, lid); // expect: KL502
    stage(it, lid);
    out[it.get_global_id(0)] = tile[kl5_group - 1 - lid];
  }
};

// A helper that returns early before its own barrier.
inline void load_tile(sycl::nd_item<1> it, const float *in, float *tile, size_t n) {
  const size_t gid = it.get_global_id(0);
  if (gid >= n)
    return;
  tile[it.get_local_id(0)] = in[gid];
  it.barrier(); // expect: KL502
}

// A helper whose early return is uniform: every work-item of the group leaves together.
inline void load_tile_uniform(sycl::nd_item<1> it, const float *in, float *tile, size_t groups) {
  if (it.get_group(0) >= groups)
    return;
  tile[it.get_local_id(0)] = in[it.get_global_id(0)];
  it.barrier();
}

void launch(sycl::queue &q, const float *in, float *out, float *scratch, size_t n, size_t groups) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(kl5_group), h);
    h.parallel_for(sycl::nd_range<1>(n, kl5_group), Transpose{in, out, tile, n});
  });
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    load_tile(it, in, scratch, n);
    load_tile_uniform(it, in, scratch, groups);
  });
}

// Stored lambdas: one synchronises and is called under a lane test, one is called on every path.
void lambdas(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    const size_t lid = it.get_local_id(0);
    auto sync = [&]() { sycl::group_barrier(it.get_group()); };
    auto sync_if_first = [&](size_t who) {
      if (who == 0)
        sycl::group_barrier(it.get_group()); // expect: KL502
    };
    x[lid] += 1.0f;
    sync();
    if (lid % 4 == 3) // expect: KL501
      sync(); // expect: KL502
    sync_if_first(lid);
  });
}

// A data-dependent do-while around a barrier, and a tail guard around one.
void macros_and_loops(sycl::queue &q, float *x, size_t n, size_t padded, float tol) {
  q.parallel_for(sycl::nd_range<1>(padded, kl5_group), [=](sycl::nd_item<1> it) {
    const size_t i = it.get_global_id(0);
    do {
      x[i] *= 0.5f;
      sycl::group_barrier(it.get_group()); // expect: KL502
    } while (x[i] > tol); // expect: KL501
    if (i < n) {
      x[i] += 1.0f;
      it.barrier(KL5_LOCAL_FENCE); // expect: KL502
    }
    it.barrier(KL5_LOCAL_FENCE);
  });
}

// A template kernel body: the guard depends on the id whatever the instantiation.
template <int Tile>
void templated(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, Tile), [=](sycl::nd_item<1> it) {
    if (it.get_local_id(0) < Tile / 2) {
      x[it.get_global_id(0)] = 0.0f;
      sycl::group_barrier(it.get_group()); // expect: KL502
    }
    if (Tile > 64)
      sycl::group_barrier(it.get_group());
  });
}
template void templated<kl5_group>(sycl::queue &, float *, size_t);

void conditional(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
#ifdef SYNC_PER_SUB_GROUP
    auto sg = it.get_sub_group();
    if (sg.get_local_linear_id() == 0)
      sycl::group_barrier(sg); // expect: KL502
#else
    sycl::group_barrier(it.get_group());
#endif
  });
}
