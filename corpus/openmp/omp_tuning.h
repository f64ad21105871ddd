// Tuning constants shared by the OpenMP corpus files (a quoted include: its macros and constexpr
// values are seen by the files that include it).
#pragma once

#define OMP_HINT_L1 4
#define OMP_HINT_L2 2
#define OMP_LINE_FLOATS 16

constexpr int kTile = 64;
constexpr int kTeamSize = 256;
