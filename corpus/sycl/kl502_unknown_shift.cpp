// Blocks of work-items keyed by a shifted id (bit-reversal permutations, tiled transposes): the block
// number is the id shifted right by the log of the block size. When the shift is a constant kernlint
// reads (a literal or a local constant), it knows whether a block holds whole sub-groups; when the shift
// is computed (`lg2(256 / sizeof(T))`), it cannot tell, and a barrier under the block number is only
// a warning: harmless if the blocks are at least as wide as the group the barrier waits for.
#include <sycl/sycl.hpp>

template <typename T> constexpr unsigned lg2(T n) {
  unsigned r = 0;
  while (n >>= 1)
    r++;
  return r;
}

void swap_blocks(sycl::queue &q, long *data, unsigned lg_n) {
  q.parallel_for(sycl::nd_range<1>(1u << lg_n, 128), [=](sycl::nd_item<1> it) {
    const unsigned per_block = 256 / sizeof(long);
    const unsigned lg_block = lg2(per_block);
    auto sg = it.get_sub_group();
    size_t tid = it.get_global_id(0);
    size_t block = tid >> lg_block;
    if (block & 1u)
      return;
    long v = data[tid];
    sycl::group_barrier(sg); // expect: KL502 (warning)
    data[tid + per_block] = sycl::select_from_group(sg, v, 0);
  });
}

void pair_blocks_named(sycl::queue &q, long *data, unsigned lg_n) {
  q.parallel_for(sycl::nd_range<1>(1u << lg_n, 128), [=](sycl::nd_item<1> it) {
    const unsigned lg_block = 5; // blocks of 32 ids: whole sub-groups
    auto sg = it.get_sub_group();
    size_t tid = it.get_global_id(0);
    size_t block = tid >> lg_block;
    if (block & 1u) {
      long v = sycl::reduce_over_group(sg, data[tid], sycl::plus<long>());
      data[tid] = v;
    }
  });
}

void pair_lanes_named(sycl::queue &q, long *data, unsigned lg_n) {
  q.parallel_for(sycl::nd_range<1>(1u << lg_n, 128), [=](sycl::nd_item<1> it) {
    const unsigned lg_pair = 1; // blocks of 2 ids: every sub-group splits
    auto sg = it.get_sub_group();
    size_t tid = it.get_global_id(0);
    size_t pair = tid >> lg_pair;
    if (pair & 1u) { // expect: KL501
      long v = sycl::reduce_over_group(sg, data[tid], sycl::plus<long>()); // expect: KL502 (error)
      data[tid] = v;
    }
  });
}
