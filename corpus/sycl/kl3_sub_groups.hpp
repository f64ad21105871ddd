// Sub-group sizes shared by the KL3xx corpus files (quoted include: constants only, no kernels).
#pragma once

constexpr int kl3_wide_sub_group = 32;
constexpr int kl3_narrow_sub_group = 16;
#define KL3_BLOCK_WIDTH 4
