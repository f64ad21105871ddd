// kernlint: declaration-only SYCL 2020 interface, written for kernlint's libclang front-end.
//
// It exists so that libclang can type-check kernel code without a SYCL toolkit: every class and
// function a kernel commonly names is declared with a plausible signature, nothing is defined that a
// parse does not need, and nothing here can run. It is put on the include path only when no real
// SYCL installation is found. Template parameters that carry facts (an accessor's access mode and
// target, a range's dimensions) are spelled as in the SYCL 2020 specification so that the front-end
// can read them from resolved types.
#ifndef KERNLINT_SYCL_HPP
#define KERNLINT_SYCL_HPP

#include <stddef.h>
#include <stdint.h>
// What SYCL implementations' headers bring in and ported code relies on without including it.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#ifndef SYCL_LANGUAGE_VERSION
#define SYCL_LANGUAGE_VERSION 202012L
#endif
#define SYCL_EXTERNAL
#define __SYCL_INLINE_NAMESPACE(x) inline namespace x
#define SYCL_EXT_ONEAPI_SUB_GROUP 1

namespace sycl {
inline namespace _V1 {

using std_size_t = decltype(sizeof(0));
class handler;
class queue;
class event;
class device;
class context;
class platform;
template <int Dims> class range;
template <int Dims> class id;
template <int Dims, bool WithOffset = false> class item;
template <int Dims> class nd_item;
template <int Dims> class group;
class sub_group;
class half;
template <typename T, int N> class vec;

namespace detail {
// `acc[i][j]` on a multi-dimensional accessor: each subscript but the last gives a proxy.
template <typename T, int Dims> struct subscript { subscript<T, Dims - 1> operator[](decltype(sizeof(0)) index) const; };
template <typename T> struct subscript<T, 1> { T &operator[](decltype(sizeof(0)) index) const; };
template <typename T, int Dims> struct subscript_result { using type = subscript<T, Dims - 1>; };
template <typename T> struct subscript_result<T, 1> { using type = T &; };
template <typename T> struct subscript_result<T, 0> { using type = T &; };
template <bool Condition, typename T = void> struct enable_if {};
template <typename T> struct enable_if<true, T> { using type = T; };
struct property_tag {};  // what every property derives from, so a property_list takes only properties
}  // namespace detail

// -- enumerations --------------------------------------------------------------------------------
enum class access_mode { read = 1024, write, read_write, discard_write, discard_read_write, atomic };
enum class target { device = 2014, global_buffer = device, constant_buffer, local, image, host_buffer,
                    host_image, image_array, host_task };
enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };
enum class memory_scope { work_item, sub_group, work_group, device, system };
inline constexpr memory_order memory_order_relaxed = memory_order::relaxed;
inline constexpr memory_scope memory_scope_device = memory_scope::device;

namespace access {
using mode = sycl::access_mode;
using target = sycl::target;
enum class placeholder { false_t, true_t };
enum class fence_space { local_space, global_space, global_and_local };
enum class address_space { private_space, global_space, constant_space, local_space, ext_intel_global_device_space,
                           generic_space };
enum class decorated { no, yes, legacy };
}  // namespace access
using access::address_space;
template <typename T, access::address_space Space, access::decorated Decorated> class multi_ptr;

// -- properties ----------------------------------------------------------------------------------
class property_list {
 public:
  template <typename... Props,
            typename = typename detail::enable_if<(__is_base_of(detail::property_tag, Props) && ...)>::type>
  property_list(Props... props);
  template <typename Prop> bool has_property() const;
};
namespace property {
struct no_init : detail::property_tag {};
namespace queue { struct in_order : detail::property_tag {}; struct enable_profiling : detail::property_tag {}; }
namespace buffer {
struct use_host_ptr : detail::property_tag {};
struct use_mutex : detail::property_tag {};
struct context_bound : detail::property_tag {};
}  // namespace buffer
namespace reduction { struct initialize_to_identity : detail::property_tag {}; }
}  // namespace property
inline constexpr property::no_init no_init{};

// -- access tags -----------------------------------------------------------------------------------
template <access_mode Mode, target Target = target::device> struct mode_target_tag_t {
  static constexpr access_mode mode = Mode;
  static constexpr sycl::target target_value = Target;
};
inline constexpr mode_target_tag_t<access_mode::read> read_only{};
inline constexpr mode_target_tag_t<access_mode::write> write_only{};
inline constexpr mode_target_tag_t<access_mode::read_write> read_write{};
inline constexpr mode_target_tag_t<access_mode::read, target::constant_buffer> read_constant{};
inline constexpr mode_target_tag_t<access_mode::read, target::host_task> read_only_host_task{};
inline constexpr mode_target_tag_t<access_mode::write, target::host_task> write_only_host_task{};
inline constexpr mode_target_tag_t<access_mode::read_write, target::host_task> read_write_host_task{};

// -- index space -----------------------------------------------------------------------------------
template <int Dims = 1> class range {
 public:
  range();
  range(std_size_t d0);
  range(std_size_t d0, std_size_t d1);
  range(std_size_t d0, std_size_t d1, std_size_t d2);
  std_size_t get(int dimension) const;
  std_size_t &operator[](int dimension);
  std_size_t operator[](int dimension) const;
  std_size_t size() const;
  friend range operator+(const range &, const range &);
  friend range operator-(const range &, const range &);
  friend range operator*(const range &, const range &);
  friend range operator/(const range &, const range &);
  friend range operator%(const range &, const range &);
  template <typename T> friend range operator*(const range &, const T &);
  template <typename T> friend range operator/(const range &, const T &);
  template <typename T> friend range operator+(const range &, const T &);
  template <typename T> friend range operator-(const range &, const T &);
  template <typename T> friend range operator*(const T &, const range &);
  friend bool operator==(const range &, const range &);
  friend bool operator!=(const range &, const range &);
};
range(std_size_t) -> range<1>;
range(std_size_t, std_size_t) -> range<2>;
range(std_size_t, std_size_t, std_size_t) -> range<3>;

template <int Dims = 1> class id {
 public:
  id();
  id(std_size_t d0);
  id(std_size_t d0, std_size_t d1);
  id(std_size_t d0, std_size_t d1, std_size_t d2);
  id(const range<Dims> &r);
  id(const item<Dims> &i);
  std_size_t get(int dimension) const;
  std_size_t &operator[](int dimension);
  std_size_t operator[](int dimension) const;
  operator std_size_t() const;
  friend id operator+(const id &, const id &);
  friend id operator-(const id &, const id &);
  template <typename T> friend id operator*(const id &, const T &);
  template <typename T> friend id operator+(const id &, const T &);
  template <typename T> friend id operator-(const id &, const T &);
  template <typename T> friend id operator/(const id &, const T &);
  template <typename T> friend id operator%(const id &, const T &);
  template <typename T> friend id operator*(const T &, const id &);
  template <typename T> friend id operator+(const T &, const id &);
  friend bool operator==(const id &, const id &);
  friend bool operator!=(const id &, const id &);
};
id(std_size_t) -> id<1>;
id(std_size_t, std_size_t) -> id<2>;
id(std_size_t, std_size_t, std_size_t) -> id<3>;

template <int Dims = 1> class nd_range {
 public:
  nd_range(range<Dims> global_size, range<Dims> local_size, id<Dims> offset = id<Dims>());
  range<Dims> get_global_range() const;
  range<Dims> get_local_range() const;
  range<Dims> get_group_range() const;
  id<Dims> get_offset() const;
};
template <int Dims> nd_range(range<Dims>, range<Dims>) -> nd_range<Dims>;
template <int Dims> nd_range(range<Dims>, range<Dims>, id<Dims>) -> nd_range<Dims>;

template <int Dims, bool WithOffset> class item {
 public:
  id<Dims> get_id() const;
  std_size_t get_id(int dimension) const;
  std_size_t operator[](int dimension) const;
  range<Dims> get_range() const;
  std_size_t get_range(int dimension) const;
  id<Dims> get_offset() const;
  std_size_t get_linear_id() const;
  operator std_size_t() const;
  operator item<Dims, true>() const;
};

class sub_group {
 public:
  using id_type = id<1>;
  using range_type = range<1>;
  using linear_id_type = uint32_t;
  static constexpr int dimensions = 1;
  static constexpr memory_scope fence_scope = memory_scope::sub_group;
  id<1> get_group_id() const;
  id<1> get_local_id() const;
  range<1> get_local_range() const;
  range<1> get_group_range() const;
  range<1> get_max_local_range() const;
  uint32_t get_group_linear_id() const;
  uint32_t get_local_linear_id() const;
  uint32_t get_group_linear_range() const;
  uint32_t get_local_linear_range() const;
  bool leader() const;
  void barrier() const;
  void barrier(access::fence_space space) const;
  template <typename T> T load(const T *src) const;
  template <typename T, access::address_space Space, access::decorated D> T load(multi_ptr<T, Space, D> src) const;
  template <int N, typename T> vec<T, N> load(const T *src) const;
  template <int N, typename T, access::address_space Space, access::decorated D>
  vec<T, N> load(multi_ptr<T, Space, D> src) const;
  template <typename T> void store(T *dst, const T &value) const;
  template <typename T, access::address_space Space, access::decorated D>
  void store(multi_ptr<T, Space, D> dst, const T &value) const;
  template <int N, typename T> void store(T *dst, const vec<T, N> &value) const;
  template <int N, typename T, access::address_space Space, access::decorated D>
  void store(multi_ptr<T, Space, D> dst, const vec<T, N> &value) const;
  template <typename T> T shuffle(T value, id<1> local_id) const;
  template <typename T> T shuffle_down(T value, uint32_t delta) const;
  template <typename T> T shuffle_up(T value, uint32_t delta) const;
  template <typename T> T shuffle_xor(T value, id<1> mask) const;
  template <typename T> T broadcast(T value, id<1> local_id) const;
  template <typename T, typename Op> T reduce(T value, Op op) const;
};

template <int Dims = 1> class group {
 public:
  using id_type = id<Dims>;
  using range_type = range<Dims>;
  using linear_id_type = std_size_t;
  static constexpr int dimensions = Dims;
  static constexpr memory_scope fence_scope = memory_scope::work_group;
  id<Dims> get_group_id() const;
  std_size_t get_group_id(int dimension) const;
  id<Dims> get_local_id() const;
  std_size_t get_local_id(int dimension) const;
  range<Dims> get_local_range() const;
  std_size_t get_local_range(int dimension) const;
  range<Dims> get_group_range() const;
  std_size_t get_group_range(int dimension) const;
  range<Dims> get_max_local_range() const;
  std_size_t operator[](int dimension) const;
  std_size_t get_group_linear_id() const;
  std_size_t get_local_linear_id() const;
  std_size_t get_group_linear_range() const;
  std_size_t get_local_linear_range() const;
  bool leader() const;
  template <typename F> void parallel_for_work_item(F func) const;
  template <typename F> void parallel_for_work_item(range<Dims> flexible_range, F func) const;
  void mem_fence(access::fence_space space = access::fence_space::global_and_local) const;
};

template <int Dims = 1> class h_item {
 public:
  item<Dims, false> get_global() const;
  item<Dims, false> get_local() const;
  id<Dims> get_global_id() const;
  std_size_t get_global_id(int dimension) const;
  id<Dims> get_local_id() const;
  std_size_t get_local_id(int dimension) const;
  range<Dims> get_global_range() const;
  range<Dims> get_local_range() const;
};

template <int Dims> class nd_item {
 public:
  static constexpr int dimensions = Dims;
  id<Dims> get_global_id() const;
  std_size_t get_global_id(int dimension) const;
  std_size_t get_global_linear_id() const;
  id<Dims> get_local_id() const;
  std_size_t get_local_id(int dimension) const;
  std_size_t get_local_linear_id() const;
  group<Dims> get_group() const;
  std_size_t get_group(int dimension) const;
  std_size_t get_group_linear_id() const;
  sub_group get_sub_group() const;
  range<Dims> get_group_range() const;
  std_size_t get_group_range(int dimension) const;
  range<Dims> get_global_range() const;
  std_size_t get_global_range(int dimension) const;
  range<Dims> get_local_range() const;
  std_size_t get_local_range(int dimension) const;
  id<Dims> get_offset() const;
  nd_range<Dims> get_nd_range() const;
  void barrier(access::fence_space space = access::fence_space::global_and_local) const;
  void mem_fence(access::fence_space space = access::fence_space::global_and_local) const;
};

// -- pointers ---------------------------------------------------------------------------------------
template <typename T, access::address_space Space = access::address_space::global_space,
          access::decorated Decorated = access::decorated::legacy>
class multi_ptr {
 public:
  using element_type = T;
  multi_ptr();
  multi_ptr(T *pointer);
  T *get() const;
  T *get_raw() const;
  T *get_decorated() const;
  operator T *() const;
  T &operator*() const;
  T *operator->() const;
  T &operator[](std_size_t index) const;
  multi_ptr operator+(std_size_t offset) const;
};
template <typename T, access::decorated D = access::decorated::legacy>
using global_ptr = multi_ptr<T, access::address_space::global_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using local_ptr = multi_ptr<T, access::address_space::local_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using private_ptr = multi_ptr<T, access::address_space::private_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using decorated_global_ptr = multi_ptr<T, access::address_space::global_space, access::decorated::yes>;
template <typename T, access::decorated D = access::decorated::legacy>
using decorated_local_ptr = multi_ptr<T, access::address_space::local_space, access::decorated::yes>;
template <access::address_space Space, access::decorated D = access::decorated::no, typename T>
multi_ptr<T, Space, D> address_space_cast(T *pointer);

// -- memory objects ---------------------------------------------------------------------------------
template <typename T> class buffer_allocator {};
template <typename T, int Dims = 1, typename AllocatorT = buffer_allocator<T>> class buffer;
template <typename DataT, int Dims = 1, access_mode AccessMode = access_mode::read_write,
          target AccessTarget = target::device, access::placeholder IsPlaceholder = access::placeholder::false_t>
class accessor;
template <typename DataT, int Dims = 1, access_mode AccessMode = access_mode::read_write> class host_accessor;

template <typename T, int Dims, typename AllocatorT> class buffer {
 public:
  using value_type = T;
  using reference = T &;
  using const_reference = const T &;
  buffer(const range<Dims> &buffer_range, const property_list &props = {});
  buffer(T *host_data, const range<Dims> &buffer_range, const property_list &props = {});
  buffer(const T *host_data, const range<Dims> &buffer_range, const property_list &props = {});
  template <typename Container> buffer(Container &container, const property_list &props = {});
  template <typename Iterator> buffer(Iterator first, Iterator last, const property_list &props = {});
  buffer(buffer &parent, const id<Dims> &offset, const range<Dims> &sub_range);
  buffer(const buffer &);
  buffer(buffer &&);
  buffer &operator=(const buffer &);
  buffer &operator=(buffer &&);
  ~buffer();
  range<Dims> get_range() const;
  std_size_t size() const;
  std_size_t get_count() const;
  std_size_t byte_size() const;
  std_size_t get_size() const;
  template <access_mode Mode = access_mode::read_write, target Target = target::device>
  accessor<T, Dims, Mode, Target> get_access(handler &cgh);
  template <access_mode Mode = access_mode::read_write, target Target = target::device>
  accessor<T, Dims, Mode, Target> get_access(handler &cgh, range<Dims> access_range, id<Dims> offset = {});
  template <typename Tag> auto get_access(handler &cgh, Tag tag) -> accessor<T, Dims, Tag::mode, Tag::target_value>;
  template <typename Tag>
  auto get_access(handler &cgh, Tag tag, const property_list &props) -> accessor<T, Dims, Tag::mode, Tag::target_value>;
  template <access_mode Mode> host_accessor<T, Dims, Mode> get_access();
  template <access_mode Mode> host_accessor<T, Dims, Mode> get_access(range<Dims> access_range, id<Dims> offset = {});
  host_accessor<T, Dims, access_mode::read_write> get_host_access();
  template <typename Tag> auto get_host_access(Tag tag) -> host_accessor<T, Dims, Tag::mode>;
  template <typename Tag> auto get_host_access(handler &cgh, Tag tag) -> host_accessor<T, Dims, Tag::mode>;
  template <typename Destination> void set_final_data(Destination final_data);
  void set_final_data(decltype(nullptr));
  void set_write_back(bool flag = true);
  template <typename U, int D2 = Dims> buffer<U, D2> reinterpret(range<D2> reinterpret_range) const;
  template <typename U> buffer<U, Dims> reinterpret() const;
};
template <typename T, int Dims> buffer(T *, const range<Dims> &, const property_list & = {}) -> buffer<T, Dims>;
template <typename T, int Dims> buffer(const T *, const range<Dims> &, const property_list & = {}) -> buffer<T, Dims>;
template <typename Container> buffer(Container &, const property_list & = {})
    -> buffer<typename Container::value_type, 1>;

template <typename DataT, int Dims, access_mode AccessMode, target AccessTarget, access::placeholder IsPlaceholder>
class accessor {
 public:
  using value_type = DataT;
  using reference = DataT &;
  using const_reference = const DataT &;
  accessor();
  template <typename A> accessor(buffer<DataT, Dims, A> &buf, const property_list &props = {});
  template <typename A> accessor(buffer<DataT, Dims, A> &buf, handler &cgh, const property_list &props = {});
  template <typename A, typename Tag> accessor(buffer<DataT, Dims, A> &buf, Tag tag, const property_list &props = {});
  template <typename A, typename Tag>
  accessor(buffer<DataT, Dims, A> &buf, handler &cgh, Tag tag, const property_list &props = {});
  template <typename A>
  accessor(buffer<DataT, Dims, A> &buf, handler &cgh, range<Dims> access_range, const property_list &props = {});
  template <typename A, typename Tag>
  accessor(buffer<DataT, Dims, A> &buf, handler &cgh, range<Dims> access_range, Tag tag,
           const property_list &props = {});
  template <typename A>
  accessor(buffer<DataT, Dims, A> &buf, handler &cgh, range<Dims> access_range, id<Dims> offset,
           const property_list &props = {});
  template <typename A, typename Tag>
  accessor(buffer<DataT, Dims, A> &buf, handler &cgh, range<Dims> access_range, id<Dims> offset, Tag tag,
           const property_list &props = {});
  accessor(range<Dims> allocation_size, handler &cgh, const property_list &props = {});  // target::local
  DataT &operator[](id<Dims> index) const;
  template <bool WithOffset> DataT &operator[](item<Dims, WithOffset> index) const;
  typename detail::subscript_result<DataT, Dims>::type operator[](std_size_t index) const;
  DataT &operator()(std_size_t i, std_size_t j = 0, std_size_t k = 0) const;
  const accessor &operator=(const DataT &value) const;
  const accessor &operator+=(const DataT &value) const;
  operator DataT &() const;
  range<Dims> get_range() const;
  id<Dims> get_offset() const;
  std_size_t size() const;
  std_size_t get_size() const;
  std_size_t byte_size() const;
  std_size_t get_count() const;
  bool is_placeholder() const;
  DataT *get_pointer() const;
  template <access::decorated D = access::decorated::no>
  multi_ptr<DataT, access::address_space::global_space, D> get_multi_ptr() const;
  DataT *begin() const;
  DataT *end() const;
};
template <typename T, int Dims, typename A> accessor(buffer<T, Dims, A> &) -> accessor<T, Dims>;
template <typename T, int Dims, typename A> accessor(buffer<T, Dims, A> &, handler &) -> accessor<T, Dims>;
template <typename T, int Dims, typename A>
accessor(buffer<T, Dims, A> &, handler &, const property_list &) -> accessor<T, Dims>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, handler &, mode_target_tag_t<M, G>) -> accessor<T, Dims, M, G>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, handler &, mode_target_tag_t<M, G>, const property_list &) -> accessor<T, Dims, M, G>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, mode_target_tag_t<M, G>) -> accessor<T, Dims, M, G>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, mode_target_tag_t<M, G>, const property_list &) -> accessor<T, Dims, M, G>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, handler &, range<Dims>, mode_target_tag_t<M, G>) -> accessor<T, Dims, M, G>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, handler &, range<Dims>, mode_target_tag_t<M, G>, const property_list &)
    -> accessor<T, Dims, M, G>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, handler &, range<Dims>, id<Dims>, mode_target_tag_t<M, G>) -> accessor<T, Dims, M, G>;
template <typename T, int Dims, typename A, access_mode M, target G>
accessor(buffer<T, Dims, A> &, handler &, range<Dims>, id<Dims>, mode_target_tag_t<M, G>, const property_list &)
    -> accessor<T, Dims, M, G>;

template <typename DataT, int Dims, access_mode AccessMode> class host_accessor {
 public:
  template <bool WithOffset> DataT &operator[](item<Dims, WithOffset> index) const;
  template <typename A> host_accessor(buffer<DataT, Dims, A> &buf, const property_list &props = {});
  template <typename A, typename Tag>
  host_accessor(buffer<DataT, Dims, A> &buf, Tag tag, const property_list &props = {});
  template <typename A, typename Tag>
  host_accessor(buffer<DataT, Dims, A> &buf, range<Dims> access_range, Tag tag, const property_list &props = {});
  DataT &operator[](id<Dims> index) const;
  DataT &operator[](std_size_t index) const;
  range<Dims> get_range() const;
  std_size_t size() const;
  DataT *get_pointer() const;
  DataT *begin() const;
  DataT *end() const;
};
template <typename T, int Dims, typename A> host_accessor(buffer<T, Dims, A> &) -> host_accessor<T, Dims>;
template <typename T, int Dims, typename A, access_mode M, target G>
host_accessor(buffer<T, Dims, A> &, mode_target_tag_t<M, G>) -> host_accessor<T, Dims, M>;
template <typename T, int Dims, typename A, access_mode M, target G>
host_accessor(buffer<T, Dims, A> &, mode_target_tag_t<M, G>, const property_list &) -> host_accessor<T, Dims, M>;

template <typename DataT, int Dims = 1> class local_accessor {
 public:
  using value_type = DataT;
  local_accessor();
  local_accessor(range<Dims> allocation_size, handler &cgh, const property_list &props = {});
  local_accessor(handler &cgh, const property_list &props = {});  // zero dimensions: one element
  DataT &operator[](id<Dims> index) const;
  template <bool WithOffset> DataT &operator[](item<Dims, WithOffset> index) const;
  typename detail::subscript_result<DataT, Dims>::type operator[](std_size_t index) const;
  const local_accessor &operator=(const DataT &value) const;
  operator DataT &() const;
  range<Dims> get_range() const;
  std_size_t size() const;
  std_size_t byte_size() const;
  DataT *get_pointer() const;
  template <access::decorated D = access::decorated::no>
  multi_ptr<DataT, access::address_space::local_space, D> get_multi_ptr() const;
};

template <typename T, int Dims = 1> class private_memory {
 public:
  private_memory(const group<Dims> &g);
  T &operator()(const h_item<Dims> &id);
};

// -- devices, queues and events --------------------------------------------------------------------
class exception {
 public:
  const char *what() const noexcept;
  int code() const noexcept;
};
using exception_list_item = std::exception_ptr;
class exception_list {
 public:
  std_size_t size() const;
  const exception_list_item *begin() const;
  const exception_list_item *end() const;
};
using async_handler = void (*)(exception_list);

namespace info {
enum class device_type { cpu, gpu, accelerator, custom, automatic, host, all };
namespace device {
struct name { using return_type = const char *; };
struct vendor { using return_type = const char *; };
struct driver_version { using return_type = const char *; };
struct version { using return_type = const char *; };
struct max_compute_units { using return_type = uint32_t; };
struct max_work_group_size { using return_type = std_size_t; };
struct max_work_item_sizes_1d { using return_type = range<1>; };
struct max_work_item_sizes_3d { using return_type = range<3>; };
struct sub_group_sizes {
  struct sizes { const std_size_t *begin() const; const std_size_t *end() const; std_size_t size() const; };
  using return_type = sizes;
};
struct local_mem_size { using return_type = uint64_t; };
struct global_mem_size { using return_type = uint64_t; };
struct max_mem_alloc_size { using return_type = uint64_t; };
struct max_clock_frequency { using return_type = uint32_t; };
struct max_num_sub_groups { using return_type = uint32_t; };
struct device_type { using return_type = info::device_type; };
}  // namespace device
namespace platform { struct name { using return_type = const char *; }; struct vendor { using return_type = const char *; }; }
namespace event {
enum class command_status { submitted, running, complete };
struct command_execution_status { using return_type = command_status; };
}  // namespace event
namespace event_profiling {
struct command_submit { using return_type = uint64_t; };
struct command_start { using return_type = uint64_t; };
struct command_end { using return_type = uint64_t; };
}  // namespace event_profiling
}  // namespace info

enum class aspect { cpu, gpu, accelerator, custom, emulated, host_debuggable, fp16, fp64, atomic64, image,
                    online_compiler, online_linker, queue_profiling, usm_device_allocations,
                    usm_host_allocations, usm_atomic_host_allocations, usm_shared_allocations,
                    usm_atomic_shared_allocations, usm_system_allocations };

class platform {
 public:
  platform();
  template <typename Selector> explicit platform(const Selector &selector);
  template <typename Param> typename Param::return_type get_info() const;
  struct device_list { const device *begin() const; const device *end() const; std_size_t size() const; };
  device_list get_devices(info::device_type type = info::device_type::all) const;
  struct platform_list { const platform *begin() const; const platform *end() const; std_size_t size() const; };
  static platform_list get_platforms();
};

class device {
 public:
  device();
  template <typename Selector> explicit device(const Selector &selector);
  template <typename Param> typename Param::return_type get_info() const;
  bool is_cpu() const;
  bool is_gpu() const;
  bool is_accelerator() const;
  bool has(aspect a) const;
  platform get_platform() const;
  static platform::device_list get_devices(info::device_type type = info::device_type::all);
};

class context {
 public:
  context();
  explicit context(const device &dev);
  platform get_platform() const;
  platform::device_list get_devices() const;
};

int default_selector_v(const device &dev);
int gpu_selector_v(const device &dev);
int cpu_selector_v(const device &dev);
int accelerator_selector_v(const device &dev);
class device_selector { public: virtual ~device_selector(); virtual int operator()(const device &dev) const; };
class default_selector : public device_selector {};
class gpu_selector : public device_selector {};
class cpu_selector : public device_selector {};
class accelerator_selector : public device_selector {};
class host_selector : public device_selector {};

class event {
 public:
  event();
  void wait();
  static void wait(const struct event_list &events);
  void wait_and_throw();
  template <typename Param> typename Param::return_type get_info() const;
  template <typename Param> typename Param::return_type get_profiling_info() const;
};

template <typename T, typename BinaryOperation> class reducer;
template <typename T, typename BinaryOperation, int Dims = 0> struct reduction_descriptor {};
template <typename T, typename BinaryOperation>
reduction_descriptor<T, BinaryOperation> reduction(T *variable, BinaryOperation combiner,
                                                   const property_list &props = {});
template <typename T, typename BinaryOperation>
reduction_descriptor<T, BinaryOperation> reduction(T *variable, const T &identity, BinaryOperation combiner,
                                                   const property_list &props = {});
template <typename T, int Dims, typename A, typename BinaryOperation>
reduction_descriptor<T, BinaryOperation> reduction(buffer<T, Dims, A> variable, handler &cgh,
                                                   BinaryOperation combiner, const property_list &props = {});
template <typename T, int Dims, typename A, typename BinaryOperation>
reduction_descriptor<T, BinaryOperation> reduction(buffer<T, Dims, A> variable, handler &cgh, const T &identity,
                                                   BinaryOperation combiner, const property_list &props = {});

class kernel_handler { public: template <auto &SpecName> auto get_specialization_constant() const; };
template <typename T> class specialization_id { public: template <typename... Args> constexpr explicit specialization_id(Args &&...args); };

class interop_handle {};

class handler {
 public:
  template <typename KernelName = void, typename... Rest> void parallel_for(Rest &&...rest);
  template <typename KernelName = void, typename F> void single_task(F &&kernel);
  template <typename KernelName = void, int Dims, typename F>
  void parallel_for_work_group(range<Dims> num_groups, F &&kernel);
  template <typename KernelName = void, int Dims, typename F>
  void parallel_for_work_group(range<Dims> num_groups, range<Dims> group_size, F &&kernel);
  template <typename F> void host_task(F &&task);
  template <typename T> void set_arg(int index, T &&arg);
  template <typename... Ts> void set_args(Ts &&...args);
  template <typename Src, typename Dst> void copy(Src src, Dst dest);
  template <typename T> void fill(void *ptr, const T &pattern, std_size_t count);
  template <typename Acc, typename T> void fill(Acc dest, const T &pattern);
  template <typename Acc> void update_host(Acc acc);
  void memcpy(void *dest, const void *src, std_size_t num_bytes);
  void memset(void *ptr, int value, std_size_t num_bytes);
  void depends_on(event e);
  template <typename Events> void depends_on(const Events &events);
  template <typename Acc> void require(Acc acc);
  template <auto &SpecName, typename T> void set_specialization_constant(T value);
  void ext_oneapi_barrier();
};

class queue {
 public:
  explicit queue(const property_list &props = {});
  explicit queue(const async_handler &handler, const property_list &props = {});
  template <typename Selector> explicit queue(const Selector &selector, const property_list &props = {});
  template <typename Selector>
  explicit queue(const Selector &selector, const async_handler &handler, const property_list &props = {});
  explicit queue(const device &dev, const property_list &props = {});
  explicit queue(const device &dev, const async_handler &handler, const property_list &props = {});
  explicit queue(const context &ctx, const device &dev, const property_list &props = {});
  explicit queue(const context &ctx, const device &dev, const async_handler &handler,
                 const property_list &props = {});
  device get_device() const;
  context get_context() const;
  bool is_in_order() const;
  template <typename Param> typename Param::return_type get_info() const;
  template <typename Prop> bool has_property() const;
  template <typename F> event submit(F &&command_group);
  template <typename F> event submit(F &&command_group, queue &secondary);
  void wait();
  void wait_and_throw();
  void throw_asynchronous();
  template <typename KernelName = void, typename... Rest> event parallel_for(Rest &&...rest);
  template <typename KernelName = void, typename... Rest> event single_task(Rest &&...rest);
  event memcpy(void *dest, const void *src, std_size_t num_bytes);
  event memcpy(void *dest, const void *src, std_size_t num_bytes, event dep);
  template <typename Events> event memcpy(void *dest, const void *src, std_size_t num_bytes, const Events &deps);
  template <typename T> event copy(const T *src, T *dest, std_size_t count);
  template <typename T> event copy(const T *src, T *dest, std_size_t count, event dep);
  template <typename Src, typename Dst> event copy(Src src, Dst dest);
  event memset(void *ptr, int value, std_size_t num_bytes);
  event memset(void *ptr, int value, std_size_t num_bytes, event dep);
  template <typename T> event fill(void *ptr, const T &pattern, std_size_t count);
  template <typename T> event fill(void *ptr, const T &pattern, std_size_t count, event dep);
  event prefetch(const void *ptr, std_size_t num_bytes);
  event mem_advise(const void *ptr, std_size_t num_bytes, int advice);
  event ext_oneapi_submit_barrier();
};

// -- unified shared memory --------------------------------------------------------------------------
namespace usm { enum class alloc { host, device, shared, unknown }; }
void *malloc_device(std_size_t num_bytes, const queue &q, const property_list &props = {});
void *malloc_device(std_size_t num_bytes, const device &dev, const context &ctx, const property_list &props = {});
template <typename T> T *malloc_device(std_size_t count, const queue &q, const property_list &props = {});
template <typename T>
T *malloc_device(std_size_t count, const device &dev, const context &ctx, const property_list &props = {});
void *malloc_shared(std_size_t num_bytes, const queue &q, const property_list &props = {});
void *malloc_shared(std_size_t num_bytes, const device &dev, const context &ctx, const property_list &props = {});
template <typename T> T *malloc_shared(std_size_t count, const queue &q, const property_list &props = {});
template <typename T>
T *malloc_shared(std_size_t count, const device &dev, const context &ctx, const property_list &props = {});
void *malloc_host(std_size_t num_bytes, const queue &q, const property_list &props = {});
void *malloc_host(std_size_t num_bytes, const context &ctx, const property_list &props = {});
template <typename T> T *malloc_host(std_size_t count, const queue &q, const property_list &props = {});
template <typename T> T *malloc_host(std_size_t count, const context &ctx, const property_list &props = {});
void *malloc(std_size_t num_bytes, const queue &q, usm::alloc kind, const property_list &props = {});
template <typename T> T *malloc(std_size_t count, const queue &q, usm::alloc kind, const property_list &props = {});
void *aligned_alloc_device(std_size_t alignment, std_size_t num_bytes, const queue &q);
template <typename T> T *aligned_alloc_device(std_size_t alignment, std_size_t count, const queue &q);
void *aligned_alloc_shared(std_size_t alignment, std_size_t num_bytes, const queue &q);
template <typename T> T *aligned_alloc_shared(std_size_t alignment, std_size_t count, const queue &q);
void *aligned_alloc_host(std_size_t alignment, std_size_t num_bytes, const queue &q);
template <typename T> T *aligned_alloc_host(std_size_t alignment, std_size_t count, const queue &q);
void free(void *ptr, const queue &q);
void free(void *ptr, const context &ctx);
usm::alloc get_pointer_type(const void *ptr, const context &ctx);
template <typename T, usm::alloc Kind, std_size_t Alignment = 0> class usm_allocator {
 public:
  using value_type = T;
  usm_allocator(const queue &q);
  T *allocate(std_size_t count);
  void deallocate(T *ptr, std_size_t count);
};

// -- function objects -------------------------------------------------------------------------------
template <typename T = void> struct plus { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct multiplies { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct bit_and { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct bit_or { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct bit_xor { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct logical_and { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct logical_or { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct minimum { T operator()(const T &x, const T &y) const; };
template <typename T = void> struct maximum { T operator()(const T &x, const T &y) const; };
template <> struct plus<void> { template <typename T, typename U> auto operator()(const T &x, const U &y) const -> decltype(x + y); };
template <> struct multiplies<void> { template <typename T, typename U> auto operator()(const T &x, const U &y) const -> decltype(x * y); };
template <> struct minimum<void> { template <typename T> T operator()(const T &x, const T &y) const; };
template <> struct maximum<void> { template <typename T> T operator()(const T &x, const T &y) const; };
template <> struct bit_and<void> { template <typename T> T operator()(const T &x, const T &y) const; };
template <> struct bit_or<void> { template <typename T> T operator()(const T &x, const T &y) const; };
template <> struct bit_xor<void> { template <typename T> T operator()(const T &x, const T &y) const; };

template <typename T, typename BinaryOperation> class reducer {
 public:
  void combine(const T &partial);
  reducer &operator+=(const T &partial);
  reducer &operator*=(const T &partial);
  reducer &operator|=(const T &partial);
  reducer &operator&=(const T &partial);
  reducer &operator^=(const T &partial);
  reducer &operator++();
};

// -- group functions and barriers ---------------------------------------------------------------------
template <typename Group> void group_barrier(Group g, memory_scope fence_scope = Group::fence_scope);
template <typename Group, typename T> T group_broadcast(Group g, T x);
template <typename Group, typename T, typename Index> T group_broadcast(Group g, T x, Index local_id);
template <typename Group, typename T, typename BinaryOperation> T reduce_over_group(Group g, T x, BinaryOperation op);
template <typename Group, typename V, typename T, typename BinaryOperation>
T reduce_over_group(Group g, V x, T init, BinaryOperation op);
template <typename Group, typename T, typename BinaryOperation>
T exclusive_scan_over_group(Group g, T x, BinaryOperation op);
template <typename Group, typename V, typename T, typename BinaryOperation>
T exclusive_scan_over_group(Group g, V x, T init, BinaryOperation op);
template <typename Group, typename T, typename BinaryOperation>
T inclusive_scan_over_group(Group g, T x, BinaryOperation op);
template <typename Group, typename V, typename T, typename BinaryOperation>
T inclusive_scan_over_group(Group g, V x, BinaryOperation op, T init);
template <typename Group, typename Ptr, typename BinaryOperation>
auto joint_reduce(Group g, Ptr first, Ptr last, BinaryOperation op) -> decltype(+*first);
template <typename Group, typename Ptr, typename T, typename BinaryOperation>
T joint_reduce(Group g, Ptr first, Ptr last, T init, BinaryOperation op);
template <typename Group> bool any_of_group(Group g, bool pred);
template <typename Group> bool all_of_group(Group g, bool pred);
template <typename Group> bool none_of_group(Group g, bool pred);
template <typename Group, typename T, typename Predicate> bool any_of_group(Group g, T x, Predicate pred);
template <typename Group, typename T, typename Predicate> bool all_of_group(Group g, T x, Predicate pred);
template <typename Group, typename T, typename Predicate> bool none_of_group(Group g, T x, Predicate pred);
template <typename Group, typename Ptr, typename Predicate> bool joint_any_of(Group g, Ptr first, Ptr last, Predicate pred);
template <typename Group, typename T, typename Index> T select_from_group(Group g, T x, Index remote_local_id);
template <typename Group, typename T, typename Mask> T permute_group_by_xor(Group g, T x, Mask mask);
template <typename Group, typename T> T shift_group_left(Group g, T x, uint32_t delta = 1);
template <typename Group, typename T> T shift_group_right(Group g, T x, uint32_t delta = 1);
void atomic_fence(memory_order order, memory_scope scope);

// -- atomics ------------------------------------------------------------------------------------------
template <typename T, memory_order DefaultOrder, memory_scope DefaultScope,
          access::address_space Space = access::address_space::generic_space>
class atomic_ref {
 public:
  using value_type = T;
  explicit atomic_ref(T &ref);
  void store(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T load(memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  operator T() const;
  T operator=(T desired) const;
  T exchange(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  bool compare_exchange_weak(T &expected, T desired, memory_order success = DefaultOrder,
                             memory_order failure = DefaultOrder, memory_scope scope = DefaultScope) const;
  bool compare_exchange_strong(T &expected, T desired, memory_order success = DefaultOrder,
                               memory_order failure = DefaultOrder, memory_scope scope = DefaultScope) const;
  T fetch_add(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T fetch_sub(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T fetch_and(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T fetch_or(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T fetch_xor(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T fetch_min(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T fetch_max(T operand, memory_order order = DefaultOrder, memory_scope scope = DefaultScope) const;
  T operator++(int) const;
  T operator++() const;
  T operator--(int) const;
  T operator--() const;
  T operator+=(T operand) const;
  T operator-=(T operand) const;
  T operator&=(T operand) const;
  T operator|=(T operand) const;
  T operator^=(T operand) const;
};
template <typename T, access::address_space Space = access::address_space::global_space> class atomic {
 public:
  atomic(multi_ptr<T, Space> ptr);
  void store(T operand, memory_order order = memory_order::relaxed);
  T load(memory_order order = memory_order::relaxed) const;
  T exchange(T operand, memory_order order = memory_order::relaxed);
  bool compare_exchange_strong(T &expected, T desired, memory_order success = memory_order::relaxed,
                               memory_order fail = memory_order::relaxed);
  T fetch_add(T operand, memory_order order = memory_order::relaxed);
  T fetch_sub(T operand, memory_order order = memory_order::relaxed);
  T fetch_min(T operand, memory_order order = memory_order::relaxed);
  T fetch_max(T operand, memory_order order = memory_order::relaxed);
  T fetch_and(T operand, memory_order order = memory_order::relaxed);
  T fetch_or(T operand, memory_order order = memory_order::relaxed);
};
template <typename T, access::address_space S> T atomic_fetch_add(atomic<T, S> object, T operand, memory_order order = memory_order::relaxed);
template <typename T, access::address_space S> T atomic_fetch_sub(atomic<T, S> object, T operand, memory_order order = memory_order::relaxed);
template <typename T, access::address_space S> T atomic_fetch_min(atomic<T, S> object, T operand, memory_order order = memory_order::relaxed);
template <typename T, access::address_space S> T atomic_fetch_max(atomic<T, S> object, T operand, memory_order order = memory_order::relaxed);

// -- vectors and scalar types ---------------------------------------------------------------------------
enum class rounding_mode { automatic, rte, rtz, rtp, rtn };
class half {
 public:
  half();
  half(float value);
  operator float() const;
  half &operator+=(const half &);
  half &operator-=(const half &);
  half &operator*=(const half &);
  half &operator/=(const half &);
};
using byte = unsigned char;

template <typename T, int N> class vec {
 public:
  using element_type = T;
  using value_type = T;
  vec();
  explicit vec(const T &value);
  template <typename... Args> vec(const Args &...args);
  static constexpr int size() noexcept;
  T &operator[](int index);
  const T &operator[](int index) const;
  T &x();
  T &y();
  T &z();
  T &w();
  T &r();
  T &g();
  T &b();
  T &a();
  T &s0();
  T &s1();
  T &s2();
  T &s3();
  T x() const;
  T y() const;
  T z() const;
  T w() const;
  vec<T, 2> xy() const;
  vec<T, 3> xyz() const;
  vec<T, 2> lo() const;
  vec<T, 2> hi() const;
  template <int... Indexes> vec<T, sizeof...(Indexes)> swizzle() const;
  template <typename U, rounding_mode R = rounding_mode::automatic> vec<U, N> convert() const;
  template <typename V> V as() const;
  template <access::address_space S, access::decorated D> void load(std_size_t offset, multi_ptr<const T, S, D> ptr);
  template <access::address_space S, access::decorated D> void store(std_size_t offset, multi_ptr<T, S, D> ptr) const;
  void load(std_size_t offset, const T *ptr);
  void store(std_size_t offset, T *ptr) const;
  friend vec operator+(const vec &, const vec &);
  friend vec operator-(const vec &, const vec &);
  friend vec operator*(const vec &, const vec &);
  friend vec operator/(const vec &, const vec &);
  friend vec operator+(const vec &, const T &);
  friend vec operator-(const vec &, const T &);
  friend vec operator*(const vec &, const T &);
  friend vec operator/(const vec &, const T &);
  friend vec operator*(const T &, const vec &);
  friend vec operator+(const T &, const vec &);
  vec &operator+=(const vec &);
  vec &operator-=(const vec &);
  vec &operator*=(const vec &);
  vec &operator/=(const vec &);
  vec &operator*=(const T &);
  vec &operator+=(const T &);
  vec operator-() const;
};
template <typename T, typename... U> vec(T, U...) -> vec<T, sizeof...(U) + 1>;
#define KERNLINT_SYCL_VEC_ALIASES(name, type) \
  using name##2 = vec<type, 2>;               \
  using name##3 = vec<type, 3>;               \
  using name##4 = vec<type, 4>;               \
  using name##8 = vec<type, 8>;               \
  using name##16 = vec<type, 16>;
KERNLINT_SYCL_VEC_ALIASES(char, int8_t)
KERNLINT_SYCL_VEC_ALIASES(uchar, uint8_t)
KERNLINT_SYCL_VEC_ALIASES(short, int16_t)
KERNLINT_SYCL_VEC_ALIASES(ushort, uint16_t)
KERNLINT_SYCL_VEC_ALIASES(int, int32_t)
KERNLINT_SYCL_VEC_ALIASES(uint, uint32_t)
KERNLINT_SYCL_VEC_ALIASES(long, int64_t)
KERNLINT_SYCL_VEC_ALIASES(ulong, uint64_t)
KERNLINT_SYCL_VEC_ALIASES(float, float)
KERNLINT_SYCL_VEC_ALIASES(double, double)
KERNLINT_SYCL_VEC_ALIASES(half, half)
#undef KERNLINT_SYCL_VEC_ALIASES
template <typename T> class marray {
 public:
  template <typename... Args> marray(const Args &...args);
  T &operator[](std_size_t index);
};

template <typename To, typename From> To bit_cast(const From &from) noexcept;

inline constexpr std_size_t dynamic_extent = static_cast<std_size_t>(-1);
template <typename T, std_size_t Extent = dynamic_extent> class span {
 public:
  span();
  span(T *data, std_size_t count);
  template <typename Container> span(Container &container);
  template <std_size_t N> span(T (&array)[N]);
  T *data() const;
  std_size_t size() const;
  T &operator[](std_size_t index) const;
  T *begin() const;
  T *end() const;
};

// -- math and integer built-ins (generic over scalars and vectors) ---------------------------------------
#define KERNLINT_SYCL_UNARY(name) template <typename T> T name(T x);
#define KERNLINT_SYCL_BINARY(name) template <typename T, typename U> T name(T x, U y);
#define KERNLINT_SYCL_TERNARY(name) template <typename T, typename U, typename V> T name(T x, U y, V z);
KERNLINT_SYCL_UNARY(acos) KERNLINT_SYCL_UNARY(acosh) KERNLINT_SYCL_UNARY(asin) KERNLINT_SYCL_UNARY(asinh)
KERNLINT_SYCL_UNARY(atan) KERNLINT_SYCL_UNARY(atanh) KERNLINT_SYCL_UNARY(cbrt) KERNLINT_SYCL_UNARY(ceil)
KERNLINT_SYCL_UNARY(cos) KERNLINT_SYCL_UNARY(cosh) KERNLINT_SYCL_UNARY(cospi) KERNLINT_SYCL_UNARY(erf)
KERNLINT_SYCL_UNARY(erfc) KERNLINT_SYCL_UNARY(exp) KERNLINT_SYCL_UNARY(exp2) KERNLINT_SYCL_UNARY(exp10)
KERNLINT_SYCL_UNARY(expm1) KERNLINT_SYCL_UNARY(fabs) KERNLINT_SYCL_UNARY(floor) KERNLINT_SYCL_UNARY(lgamma)
KERNLINT_SYCL_UNARY(log) KERNLINT_SYCL_UNARY(log2) KERNLINT_SYCL_UNARY(log10) KERNLINT_SYCL_UNARY(log1p)
KERNLINT_SYCL_UNARY(logb) KERNLINT_SYCL_UNARY(rint) KERNLINT_SYCL_UNARY(round) KERNLINT_SYCL_UNARY(rsqrt)
KERNLINT_SYCL_UNARY(sin) KERNLINT_SYCL_UNARY(sinh) KERNLINT_SYCL_UNARY(sinpi) KERNLINT_SYCL_UNARY(sqrt)
KERNLINT_SYCL_UNARY(tan) KERNLINT_SYCL_UNARY(tanh) KERNLINT_SYCL_UNARY(tgamma) KERNLINT_SYCL_UNARY(trunc)
KERNLINT_SYCL_UNARY(abs) KERNLINT_SYCL_UNARY(clz) KERNLINT_SYCL_UNARY(ctz) KERNLINT_SYCL_UNARY(popcount)
KERNLINT_SYCL_UNARY(degrees) KERNLINT_SYCL_UNARY(radians) KERNLINT_SYCL_UNARY(sign) KERNLINT_SYCL_UNARY(normalize)
KERNLINT_SYCL_UNARY(fast_normalize) KERNLINT_SYCL_UNARY(recip)
KERNLINT_SYCL_BINARY(atan2) KERNLINT_SYCL_BINARY(copysign) KERNLINT_SYCL_BINARY(fdim) KERNLINT_SYCL_BINARY(fmax)
KERNLINT_SYCL_BINARY(fmin) KERNLINT_SYCL_BINARY(fmod) KERNLINT_SYCL_BINARY(hypot) KERNLINT_SYCL_BINARY(nextafter)
KERNLINT_SYCL_BINARY(pow) KERNLINT_SYCL_BINARY(pown) KERNLINT_SYCL_BINARY(powr) KERNLINT_SYCL_BINARY(rootn)
KERNLINT_SYCL_BINARY(remainder) KERNLINT_SYCL_BINARY(ldexp) KERNLINT_SYCL_BINARY(min) KERNLINT_SYCL_BINARY(max)
KERNLINT_SYCL_BINARY(abs_diff) KERNLINT_SYCL_BINARY(add_sat) KERNLINT_SYCL_BINARY(sub_sat) KERNLINT_SYCL_BINARY(hadd)
KERNLINT_SYCL_BINARY(rhadd) KERNLINT_SYCL_BINARY(mul_hi) KERNLINT_SYCL_BINARY(mul24) KERNLINT_SYCL_BINARY(rotate)
KERNLINT_SYCL_BINARY(step) KERNLINT_SYCL_BINARY(cross) KERNLINT_SYCL_BINARY(upsample) KERNLINT_SYCL_BINARY(divide)
KERNLINT_SYCL_BINARY(frexp) KERNLINT_SYCL_BINARY(modf) KERNLINT_SYCL_BINARY(sincos) KERNLINT_SYCL_BINARY(fract)
KERNLINT_SYCL_TERNARY(fma) KERNLINT_SYCL_TERNARY(mad) KERNLINT_SYCL_TERNARY(clamp) KERNLINT_SYCL_TERNARY(mix)
KERNLINT_SYCL_TERNARY(smoothstep) KERNLINT_SYCL_TERNARY(mad24) KERNLINT_SYCL_TERNARY(mad_hi)
KERNLINT_SYCL_TERNARY(mad_sat) KERNLINT_SYCL_TERNARY(bitselect) KERNLINT_SYCL_TERNARY(select)
template <typename T> int ilogb(T x);
template <typename T> bool isnan(T x);
template <typename T> bool isinf(T x);
template <typename T> bool isfinite(T x);
template <typename T> bool isnormal(T x);
template <typename T> bool signbit(T x);
template <typename T> bool any(T x);
template <typename T> bool all(T x);
template <typename T> auto length(T x) -> decltype(x[0]);
template <typename T> auto fast_length(T x) -> decltype(x[0]);
template <typename T> auto distance(T x, T y) -> decltype(x[0]);
template <typename T> auto dot(T x, T y) -> decltype(x[0] * y[0]);
float dot(float x, float y);
double dot(double x, double y);
namespace native {
KERNLINT_SYCL_UNARY(cos) KERNLINT_SYCL_UNARY(exp) KERNLINT_SYCL_UNARY(exp2) KERNLINT_SYCL_UNARY(exp10)
KERNLINT_SYCL_UNARY(log) KERNLINT_SYCL_UNARY(log2) KERNLINT_SYCL_UNARY(log10) KERNLINT_SYCL_UNARY(recip)
KERNLINT_SYCL_UNARY(rsqrt) KERNLINT_SYCL_UNARY(sin) KERNLINT_SYCL_UNARY(sqrt) KERNLINT_SYCL_UNARY(tan)
KERNLINT_SYCL_BINARY(divide) KERNLINT_SYCL_BINARY(powr)
}  // namespace native
namespace half_precision {
KERNLINT_SYCL_UNARY(cos) KERNLINT_SYCL_UNARY(exp) KERNLINT_SYCL_UNARY(log) KERNLINT_SYCL_UNARY(recip)
KERNLINT_SYCL_UNARY(rsqrt) KERNLINT_SYCL_UNARY(sin) KERNLINT_SYCL_UNARY(sqrt) KERNLINT_SYCL_BINARY(divide)
}  // namespace half_precision
#undef KERNLINT_SYCL_UNARY
#undef KERNLINT_SYCL_BINARY
#undef KERNLINT_SYCL_TERNARY

// -- streams ------------------------------------------------------------------------------------------------
class stream {
 public:
  stream(std_size_t total_buffer_size, std_size_t work_item_buffer_size, handler &cgh,
         const property_list &props = {});
  template <typename T> const stream &operator<<(const T &value) const;
};
enum class stream_manipulator { flush, dec, hex, oct, noshowbase, showbase, noshowpos, showpos, endl, fixed,
                                scientific, hexfloat, defaultfloat };
inline constexpr stream_manipulator endl = stream_manipulator::endl;
inline constexpr stream_manipulator flush = stream_manipulator::flush;
inline constexpr stream_manipulator hex = stream_manipulator::hex;
inline constexpr stream_manipulator dec = stream_manipulator::dec;
struct __precision_manipulator__ { int precision; };
__precision_manipulator__ setprecision(int precision);
__precision_manipulator__ setw(int width);

// -- extensions that appear in ported code -------------------------------------------------------------------
namespace ext {
namespace oneapi {
using sycl::_V1::atomic_ref;
using sycl::_V1::sub_group;
using sycl::_V1::plus;
using sycl::_V1::maximum;
using sycl::_V1::minimum;
class bfloat16 {
 public:
  bfloat16();
  bfloat16(float value);
  operator float() const;
};
namespace experimental {
template <typename T, typename Group> T &group_local_memory_for_overwrite(Group g);
template <typename Group, typename In, typename Out, typename... Props> void group_load(Group g, In in, Out out, Props... props);
template <typename Group, typename In, typename Out, typename... Props> void group_store(Group g, In in, Out out, Props... props);
template <typename T, typename Group, typename... Args> T &group_local_memory(Group g, Args &&...args);
template <typename Group> void group_barrier(Group g);
template <int Dims> group<Dims> this_group();
sub_group this_sub_group();
template <int Dims> nd_item<Dims> this_nd_item();
template <typename T, typename... Props> class annotated_arg {};
namespace this_work_item { template <int Dims> nd_item<Dims> get_nd_item(); }
}  // namespace experimental
namespace this_work_item { sub_group get_sub_group(); template <int Dims> nd_item<Dims> get_nd_item(); }
template <typename Group, typename T, typename BinaryOperation> T reduce(Group g, T x, BinaryOperation op);
using experimental::group_local_memory_for_overwrite;
using experimental::group_local_memory;
class sub_group_mask {
 public:
  bool test(uint32_t index) const;
  bool any() const;
  bool all() const;
  bool none() const;
  uint32_t count() const;
  uint32_t size() const;
  template <typename T> void extract_bits(T &out, id<1> pos = 0) const;
};
template <typename Group> sub_group_mask group_ballot(Group g, bool predicate = true);
template <typename Group, typename T, typename Index> T broadcast(Group g, T x, Index local_id);
template <typename Group> bool any_of(Group g, bool pred);
template <typename Group> bool all_of(Group g, bool pred);
template <typename Group, typename T, typename BinaryOperation> T exclusive_scan(Group g, T x, BinaryOperation op);
template <typename Group, typename T, typename BinaryOperation> T inclusive_scan(Group g, T x, BinaryOperation op);
}  // namespace oneapi
namespace intel {
namespace experimental {
template <typename Group, typename T, typename Ptr> T group_load(Group g, Ptr ptr);
}  // namespace experimental
}  // namespace intel
}  // namespace ext
namespace ext::oneapi::experimental::cuda {
template <typename T> T ldg(const T *ptr);
}  // namespace ext::oneapi::experimental::cuda
namespace ext::intel {
class gpu_selector : public device_selector {};
class fpga_selector : public device_selector {};
class fpga_emulator_selector : public device_selector {};
int fpga_selector_v(const device &dev);
int fpga_emulator_selector_v(const device &dev);
}  // namespace ext::intel

namespace intel = ext::intel;
namespace ONEAPI = ext::oneapi;

}  // namespace _V1
}  // namespace sycl

namespace cl {
namespace sycl = ::sycl;  // SYCL 1.2.1 code spells the namespace `cl::sycl`
}  // namespace cl

#endif
