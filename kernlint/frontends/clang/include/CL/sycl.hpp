// kernlint: the SYCL 1.2.1 header name, for code written before SYCL 2020. The declarations are
// those of <sycl/sycl.hpp>; `cl::sycl` names the same namespace, as in SYCL 2020 implementations.
#ifndef KERNLINT_CL_SYCL_HPP
#define KERNLINT_CL_SYCL_HPP
#include <sycl/sycl.hpp>
namespace cl {
namespace sycl = ::sycl;
}  // namespace cl
#endif
