"""The kernels the launch rules' tests share: a barrier kernel of a given local range, and a 1-D launch."""

from __future__ import annotations


def barrier_kernel(local: str, sg: int | None = None, global_: str = "{64, 64, 128}") -> str:
    attribute = f" [[intel::reqd_sub_group_size({sg})]]" if sg else ""
    return f"""
        #include <sycl/sycl.hpp>
        void k(sycl::queue &q, float *d) {{
          q.submit([&](sycl::handler &h) {{
            h.parallel_for(sycl::nd_range<3>({global_}, {local}), [=](sycl::nd_item<3> it){attribute} {{
              it.barrier();
              d[it.get_global_linear_id()] = 0.0f;
            }});
          }});
        }}
    """


def launch_1d(wg: int, attribute: str = "") -> str:
    return f"""
        void k(sycl::queue &q, float *x, size_t n) {{
          q.parallel_for(sycl::nd_range<1>(n, {wg}), [=](sycl::nd_item<1> it) {attribute} {{ x[0] = 1.0f; }});
        }}
    """
