/* kernlint: a minimal <stddef.h> for libclang when no compiler resource directory is found.
   Declarations only; written for kernlint. Every definition is idempotent, so the glibc
   `__need_size_t`-style partial inclusions simply get all of them. */
#if defined(__need_wint_t) && !defined(_KERNLINT_WINT_T)
#define _KERNLINT_WINT_T
typedef __WINT_TYPE__ wint_t;
#endif
#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_NULL
#undef __need_wint_t
#undef __need_max_align_t
#undef __need_offsetof
#ifndef _KERNLINT_STDDEF_H
#define _KERNLINT_STDDEF_H
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifndef __cplusplus
typedef __WCHAR_TYPE__ wchar_t;
#endif
typedef struct {
  long long __kernlint_ll __attribute__((__aligned__(__alignof__(long long))));
  long double __kernlint_ld __attribute__((__aligned__(__alignof__(long double))));
} max_align_t;
#if defined(__cplusplus) && __cplusplus >= 201103L
namespace std { typedef decltype(nullptr) nullptr_t; }
using ::std::nullptr_t;
#endif
#endif
#undef NULL
#ifdef __cplusplus
#define NULL __null
#else
#define NULL ((void *)0)
#endif
#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
