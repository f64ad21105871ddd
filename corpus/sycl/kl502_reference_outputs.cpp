// Warp-cooperative slot allocation (the shape of GPU B-trees and hash maps): lane 0 of a sub-group
// takes a slot with an atomic, broadcasts it, and the sub-group fills the node through a helper that
// takes the slot by reference. After the call the slot is what reached the call (the broadcast) joined
// with what the helper leaves in it: the same in every lane unless the helper writes a lane's own value.
#include <sycl/sycl.hpp>

inline unsigned take_slot(unsigned *counter) {
  sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device,
                   sycl::access::address_space::global_space>
      next(*counter);
  return next.fetch_add(1u);
}

// reads the slot, writes no lane's own value back into it
inline void fill_node(unsigned key, unsigned &slot, unsigned *nodes, sycl::sub_group sg) {
  nodes[slot * 32 + sg.get_local_linear_id()] = key;
  slot = sycl::select_from_group(sg, slot, 0);
}

// leaves each lane's own position in the slot
inline void lane_position(unsigned &slot, sycl::sub_group sg) { slot = slot * 32 + sg.get_local_linear_id(); }

void insert(sycl::queue &q, unsigned *counter, unsigned *nodes, unsigned *flags, const unsigned *keys, int n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    unsigned slot = 0;
    if (sg.get_local_linear_id() == 0)
      slot = take_slot(counter);
    slot = sycl::select_from_group(sg, slot, 0);
    fill_node(keys[sg.get_group_linear_id()], slot, nodes, sg);
    if (slot & 1u) {
      // every lane holds the broadcast slot: the whole sub-group votes
      flags[slot] = sycl::reduce_over_group(sg, nodes[slot * 32], sycl::plus<unsigned>());
    }
  });
}

void insert_per_lane(sycl::queue &q, unsigned *counter, unsigned *nodes, unsigned *flags, int n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    unsigned slot = 0;
    if (sg.get_local_linear_id() == 0)
      slot = take_slot(counter);
    slot = sycl::select_from_group(sg, slot, 0);
    lane_position(slot, sg);
    if (slot & 1u) // expect: KL501
      flags[slot] = sycl::reduce_over_group(sg, nodes[slot], sycl::plus<unsigned>()); // expect: KL502 (error)
  });
}

// reads the slot, leaves it as it was
inline void count_node(unsigned &slot, unsigned *nodes) { nodes[slot * 32] += 1u; }

void insert_unbroadcast(sycl::queue &q, unsigned *counter, unsigned *nodes, unsigned *flags, int n) {
  q.parallel_for(sycl::nd_range<1>(n, 128), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    unsigned slot = 0;
    if (sg.get_local_linear_id() == 0)
      slot = take_slot(counter); // only lane 0 holds the slot: it is never broadcast
    count_node(slot, nodes);
    if (slot & 1u) // expect: KL501
      flags[slot] = sycl::reduce_over_group(sg, nodes[slot], sycl::plus<unsigned>()); // expect: KL502 (error)
  });
}
