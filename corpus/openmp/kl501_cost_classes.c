// KL501 in OpenMP C ranks divergence by cost: a thread that does the team's work alone, a loop whose
// trip count differs per thread and heavy arms warn; a clamp (info, rewritten as a select), a
// search and a leader that only publishes are not warnings.
#include <omp.h>
#define TEAM 256

void team_totals(const float *in, float *totals, int teams) {
#pragma omp target teams num_teams(teams) thread_limit(TEAM) map(to: in[0:teams * TEAM]) map(from: totals[0:teams])
  {
    float part[TEAM];
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      part[t] = in[omp_get_team_num() * TEAM + t];
#pragma omp barrier
      if (t == 0) {                                       // expect: KL501
        float sum = 0.0f;
        for (int k = 0; k < TEAM; ++k)
          sum += part[k];
        totals[omp_get_team_num()] = sum;
      }
      if (t == 0)
        totals[omp_get_team_num()] += 1.0f;               /* a leader publishing one value: boundary */
    }
  }
}

void per_item(const int *len, const float *w, float *out, const float *edges, int n, int m) {
#pragma omp target teams distribute parallel for map(to: len[0:n], w[0:n], edges[0:m]) map(from: out[0:n])
  for (int i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int k = 0; k < len[i]; ++k)                      // expect: KL501
      acc += 0.5f * k;
    float x = w[i];
    if (x < 0.0f) x = 0.0f;                               // expect: KL501
    if (len[i] > 8) {                                     // expect: KL501
      acc = acc * acc + 1.0f;
      acc = acc / (1.0f + x);
      acc = acc * 0.5f + x;
      acc = acc - x * x;
      acc = acc * 2.0f;
      acc = acc + 3.0f;
    }
    int lo = 0, hi = m;
    while (lo < hi) {                                     // expect: KL501
      int mid = (lo + hi) / 2;
      if (edges[mid] < acc) lo = mid + 1;                 // expect: KL501
      else hi = mid;
    }
    out[i] = acc + x + lo;
  }
}
