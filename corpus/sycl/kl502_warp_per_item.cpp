// One sub-group per row (the warp-per-item shape of graph and sparse kernels): the row is the global
// id divided by the sub-group's size, so every lane of a sub-group holds the same row, its length and
// everything loaded through it. Collectives under those values are reached by the whole sub-group.
#include <sycl/sycl.hpp>

void row_sums(sycl::queue &q, const int *row_start, const float *vals, float *sums, int rows) {
  q.parallel_for(sycl::nd_range<1>(rows * 32, 256), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    const int width = sg.get_max_local_range()[0];
    const int lane = sg.get_local_linear_id();
    const int row = it.get_global_id(0) / width;
    const int stride = it.get_group_range(0) * 256 / width;
    for (int r = row; r < rows; r += stride) {
      const int beg = row_start[r];
      const int len = row_start[r + 1] - beg;
      if (len <= width) {
        // a short row: one element per lane, the lanes past its end hold zero
        float x = 0.0f;
        if (lane < len)
          x = vals[beg + lane] * vals[beg + lane] + 1.0f;
        const float total = sycl::reduce_over_group(sg, x, sycl::plus<float>());
        if (lane == 0)
          sums[r] = total;
      } else {
        float x = 0.0f;
        for (int j = lane; j < len; j += width)
          x += vals[beg + j];
        sums[r] = sycl::reduce_over_group(sg, x, sycl::plus<float>());
      }
    }
  });
}

// The bad form: each lane tests its own element, so the lanes of a sub-group disagree and only some
// of them reach the collective.
void positive_sums(sycl::queue &q, const float *vals, float *sums, int n) {
  q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    const int gid = it.get_global_id(0);
    if (vals[gid] > 0.0f) // expect: KL501
      sums[gid] = sycl::reduce_over_group(sg, vals[gid], sycl::plus<float>()); // expect: KL502
  });
}
