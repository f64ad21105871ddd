// Divergence spread over device functions, functors, templates, macros, nested lambdas and #ifdef.
#include <sycl/sycl.hpp>
#include "kl5_tiles.hpp"

#define IS_ODD(v) ((v) & 1)
#define HALF(v) ((v) / 2)

// A device function whose parameter receives the id: the branch inside it diverges.
template <typename T>
inline void accumulate_odd(T *acc, const T *src, size_t idx) {
  if (idx % 2 == 1) // expect: KL501
    acc[idx] += src[idx];
}

// Called only with uniform values (a kernel argument, the group id): never divergent.
inline float apply_mode(float v, int mode) {
  if (mode == 2)
    return v * v;
  return v;
}

inline float group_scale(size_t group) { return group == 0 ? 1.0f : 0.5f; }

// A helper that returns a value derived from the id, tested by the caller.
inline size_t lane_of(sycl::nd_item<1> it) { return it.get_sub_group().get_local_linear_id(); }

// One work-item in every tile of 16 lanes writes: a quarter, an eighth… here one lane in 16.
inline void tile_leader(float *out, size_t lid, float v) {
  if (lid % kl5_lanes_per_tile == 0) // expect: KL501
    out[lid / kl5_lanes_per_tile] = v;
}

// A functor whose operator() hands the id to a member function.
struct Smooth {
  float *data;
  int mode;
  void relax(size_t i) const {
    if (data[i] < 0.0f) // expect: KL501
      data[i] = 0.0f;
  }
  void operator()(sycl::nd_item<1> it) const {
    const size_t i = it.get_global_id(0);
    relax(i);
    data[i] = apply_mode(data[i], mode);
    data[i] *= group_scale(it.get_group(0));
    if (IS_ODD(it.get_local_id(0))) // expect: KL501
      data[i] += 1.0f;
    if (HALF(mode) > 1)
      data[i] -= 1.0f;
  }
};

void launch_helpers(sycl::queue &q, float *x, float *acc, float *leaders, size_t n, int mode) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(n, kl5_group), Smooth{x, mode});
  });

  // A lambda stored on the host and called from the kernel with the id.
  auto keep_even = [](float v, size_t idx) {
    if (idx % 2 == 0) // expect: KL501
      return v;
    return 0.0f;
  };
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    const size_t gid = it.get_global_id(0);
    accumulate_odd(acc, x, gid);
    x[gid] = keep_even(x[gid], gid);
    x[gid] = apply_mode(x[gid], mode);
    tile_leader(leaders, it.get_local_id(0), x[gid]);
    if (lane_of(it) > 7) // expect: KL501
      x[gid] *= 2.0f;

    // A lambda stored inside the kernel: its parameter takes the id from the call.
    auto bump = [&](size_t k) {
      if (IS_ODD(k)) // expect: KL501
        acc[k] += 1.0f;
    };
    bump(gid);
    auto scale_all = [&](float s) {
      if (s > 1.0f)
        x[gid] *= s;
    };
    scale_all(2.0f);
  });
}

// Conditional compilation: both sides are analysed.
void conditional_paths(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    const size_t lid = it.get_local_id(0);
#ifdef SPLIT_BY_PARITY
    if (lid % 2) // expect: KL501
      x[it.get_global_id(0)] = 0.0f;
#else
    x[it.get_global_id(0)] = sycl::select(x[it.get_global_id(0)], 0.0f, static_cast<int>(lid % 2));
#endif
  });
}

// Hierarchical parallelism: the work-group scope is uniform, the work-item lambda is not.
void hierarchical(sycl::queue &q, float *x, size_t groups) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(64), [=](sycl::group<1> g) {
      if (g.get_group_id(0) == 0)
        x[0] = 0.0f;
      g.parallel_for_work_item([&](sycl::h_item<1> hi) {
        if (hi.get_local_id(0) % 4 == 0) // expect: KL501
          x[hi.get_global_id(0)] = 1.0f;
      });
    });
  });
}

// A helper with the same name as a method on a sycl object is not mistaken for it.
float load(float *p) { return p[0] > 0.0f ? p[0] : 0.0f; }

void not_helpers(sycl::queue &q, float *x, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, kl5_group), [=](sycl::nd_item<1> it) {
    sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> total(x[0]);
    const float seen = total.load();
    if (seen > 100.0f)
      x[it.get_global_id(0)] = 0.0f;
  });
}
