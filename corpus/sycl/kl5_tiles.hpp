// Sizes shared by the KL5xx corpus files (quoted include: constants only, no kernels).
#pragma once

constexpr int kl5_lanes_per_tile = 16;
constexpr int kl5_group = 128;
#define KL5_STRIDE_FLOOR 32
