// kernlint: an older spelling of the SYCL header name; the declarations are those of <sycl/sycl.hpp>.
#include <sycl/sycl.hpp>
