// kernlint-frontend: clang
// Launch shape of the target device, as a project keeps it: static constexpr members computed from
// the lane width, used by ../omp_constexpr_clauses.cpp.
#pragma once

template <int Lanes> struct XeShape {
  static constexpr int lanes = Lanes;
  static constexpr int work_items = 32 * Lanes;
};

using Xe16 = XeShape<16>;
