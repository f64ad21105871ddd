// Launch sizes shared by the KL2xx corpus files (quoted include: constants only, no kernels).
#pragma once
#include <cstddef>

constexpr std::size_t kl2_large_group = 1024;  // the maximum on Xe-HPC and NVIDIA, too large for Gen9/Xe-LP
constexpr std::size_t kl2_medium_group = 256;  // the maximum on Gen9
constexpr std::size_t kl2_tile_rows = 128;
constexpr std::size_t kl2_tile_cols = 160;     // 128 x 160 floats = 80 KB of local memory
constexpr int kl2_simd_narrow = 8;
constexpr int kl2_simd_wide = 32;
constexpr std::size_t kl2_problem = 1 << 24;

#define KL2_ROWS_PER_GROUP 5
