// Values the lanes of a sub-group (or of a work-group) share, however they are derived from the id:
// none of the branches and loops on them diverges. The last kernel of each pair divides or masks by
// something smaller, and its lanes do disagree.
#include <sycl/sycl.hpp>

constexpr int BLOCK = 48;  // the work-group size, not a multiple of 32
constexpr int LANE_MASK = 31;

// `gid / BLOCK` in work-groups of BLOCK is the work-group's number; `lid / BLOCK` is 0.
void per_group_rows(sycl::queue &q, const int *row_start, float *acc, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, BLOCK), [=](sycl::nd_item<1> it) {
    const int gid = it.get_global_id(0);
    const int lid = it.get_local_id(0);
    const int row = gid / BLOCK;
    float sum = 0.0f;
    for (int j = row_start[row]; j < row_start[row + 1]; ++j)
      sum += acc[j];
    if (lid / BLOCK == 0)
      sycl::group_barrier(it.get_group());
    acc[gid] = sum;
  });
}

// Blocks of 32 ids, by shift, by a mask that clears the lane bits, and by a named mask.
void warp_rows(sycl::queue &q, const int *row_start, float *acc, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const int lid = it.get_local_id(0);
    const int gid = it.get_global_id(0);
    const int by_shift = gid >> 5;
    const int by_mask = gid & ~31;
    const int by_name = lid & ~LANE_MASK;
    float sum = 0.0f;
    for (int j = row_start[by_shift]; j < row_start[by_shift + 1]; ++j)
      sum += acc[j];
    for (int j = row_start[by_mask]; j < row_start[by_mask + 32]; ++j)
      sum += acc[j];
    if (acc[by_name] > 0.0f)
      sum *= 2.0f;
    acc[gid] = sum;
  });
}

// Written as constructor calls, the way migrated CUDA code declares them.
void ctor_style(sycl::queue &q, float *partial, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    unsigned int tid(it.get_local_id(0));
    unsigned int warp(tid >> 5);
    if (warp == 0) {
      float v = partial[tid];
      v += partial[tid + 32];
      v += partial[tid + 64];
      v += partial[tid + 96];
      v *= 0.25f;
      partial[tid] = v;
    }
  });
}

// The blocks are 16 ids here: two per sub-group of 32, which then splits.
void half_warp_rows(sycl::queue &q, const int *row_start, float *acc, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    const int gid = it.get_global_id(0);
    const int half = gid >> 4;
    float sum = 0.0f;
    for (int j = row_start[half]; j < row_start[half + 1]; ++j) // expect: KL501 (info, inherent)
      sum += acc[j];
    acc[gid] = sum;
  });
}

// A device function and a host function of the same name: the host one, with its own `if` on its
// loop index, is never device code.
inline void relax(sycl::nd_item<1> it, float *v) { v[it.get_global_id(0)] *= 0.5f; }

void relax(float *v, const int *mask, int n) {
  for (int i = 0; i < n; ++i)
    if (mask[i] > 0 && v[i] * v[i] > 1.0f) {
      v[i] = v[i] * 0.5f + 1.0f;
      v[i] = v[i] * v[i];
      v[i] -= 2.0f;
      v[i] /= 3.0f;
      v[i] += 4.0f;
      v[i] *= 5.0f;
    }
}

void relax_all(sycl::queue &q, float *v, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) { relax(it, v); });
}
