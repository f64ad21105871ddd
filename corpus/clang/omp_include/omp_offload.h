// kernlint-frontend: clang
// A project's offload macros and per-type launch traits, used by ../omp_pragma_macro_header.cpp: each
// macro stands for a whole directive, so the file that uses it never spells the directive out.
#pragma once

#define OFFLOAD_WIDE _Pragma("omp target teams distribute parallel for thread_limit(2048) map(tofrom: v[0:n])")
#define OFFLOAD_FIT _Pragma("omp target teams distribute parallel for thread_limit(256) map(tofrom: v[0:n])")
#define OFFLOAD_TRAITS                                                                                        \
  _Pragma("omp target teams distribute parallel for num_teams(kTeams) thread_limit(kThreads) map(tofrom: v[0:n])")
#define OFFLOAD_TRAITS_HALF                                                                                   \
  _Pragma("omp target teams distribute parallel for num_teams(kTeams) thread_limit(kThreads / 2) map(tofrom: v[0:n])")

template <typename T> struct LaunchTraits {
  static constexpr int teams = 224;
  static constexpr int threads = 8192 / sizeof(T);
};
