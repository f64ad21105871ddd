// Problem sizes shared by the accessor-mode corpus files (found through a quoted include).
#pragma once
#include <cstddef>

#define GRID_X 1024
#define GRID_Y 512
constexpr std::size_t kSamples = std::size_t(1) << 20;
