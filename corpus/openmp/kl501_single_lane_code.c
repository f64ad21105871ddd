// Code that only one thread of a team runs cannot diverge: a branch inside the arm of a leader test
// is not reported, though the leader's serial loop is; the other threads' arm still diverges.
#include <omp.h>
#define TEAM 128

void compact_flags(const int *flags, const float *values, float *kept, int *counts, int teams) {
#pragma omp target teams num_teams(teams) thread_limit(TEAM) map(to: flags[0:teams * TEAM], values[0:teams * TEAM]) map(from: kept[0:teams * TEAM], counts[0:teams])
  {
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      const int base = omp_get_team_num() * TEAM;
      if (t == 0) {                                       // expect: KL501
        int n = 0;
        for (int k = 0; k < TEAM; ++k) {
          if (flags[base + t + k] != 0) {                 /* one thread: nothing to diverge */
            kept[base + n] = values[base + k];
            n += 1;
            kept[base + k] *= 0.5f;
            counts[omp_get_team_num()] = n;
            kept[base + TEAM - 1 - k] += 1.0f;
            kept[base] -= values[base + k];
          }
        }
      } else {
        if (flags[base + t] > 2) {                        // expect: KL501
          kept[base + t] = values[base + t] * 2.0f;
          kept[base + t] += 1.0f;
          kept[base + t] *= values[base];
          kept[base + t] -= 0.25f;
          kept[base + t] /= 3.0f;
          kept[base + t] += values[base + t];
        }
      }
    }
  }
}

// With collapse(2) the outer index is the slow one: `v == 0` picks a whole row of threads, not one,
// so a branch under it still diverges across the row.
void seed_boundary(float *field, const float *height, int vars, int cols) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: field[0:vars * cols]) map(to: height[0:cols])
  for (int v = 0; v < vars; ++v) {
    for (int c = 0; c < cols; ++c) {
      if (v == 0) {
        if (height[c] > 0.5f) {                           // expect: KL501
          field[c] = height[c] * 2.0f;
          field[c] += 1.0f;
          field[cols + c] = field[c] * 0.5f;
          field[c] -= height[c] * height[c];
          field[c] /= 3.0f;
          field[cols + c] += field[c];
        }
      }
    }
  }
}
