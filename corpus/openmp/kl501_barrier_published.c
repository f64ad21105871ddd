// A value a team shares and a barrier publishes is the same in every thread: after
// `#pragma omp barrier` every thread reads the same memory, whichever thread wrote it. A thread's
// own copy, a read before the barrier, or a barrier only some paths reach publish nothing.
#include <omp.h>
#define TEAM 128

void last_team_sums(const float *in, float *partial, float *total, int *done, int teams) {
#pragma omp target teams num_teams(teams) thread_limit(TEAM) map(to: in[0:teams * TEAM]) map(tofrom: partial[0:teams], total[0:1], done[0:1]) /* `in` is never read: expect: KL706 */
  {
    int last; /* shared by the team's threads */
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      const int team = omp_get_team_num();
      if (t == 0) {
        int ticket;
#pragma omp atomic capture
        ticket = done[0]++;
        last = ticket == teams - 1;
      }
#pragma omp barrier
      if (last) {                                         /* published: the same in every thread */
        float s = 0.0f;
        for (int k = t; k < teams; k += TEAM)
          s += partial[k];
        partial[team] = s;
        total[0] += s;
        partial[t % teams] = s * 0.5f;
      }
    }
  }
}

void own_copies(const float *in, float *out, int teams) {
#pragma omp target teams num_teams(teams) thread_limit(TEAM) map(to: in[0:teams * TEAM]) map(from: out[0:teams * TEAM])
  {
    int early; /* shared, but read before the barrier that publishes it */
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      const int base = omp_get_team_num() * TEAM;
      int mine = 0; /* each thread's own */
      if (in[base + t] > 0.0f) {                          // expect: KL501
        mine = 1;
        early = 1;
      }
      if (early) {                                        // expect: KL501
        out[base + t] = in[base + t] * 2.0f;
        out[base + t] += 1.0f;
        out[base + t] *= in[base];
        out[base + t] -= 0.25f;
        out[base + t] /= 3.0f;
        out[base + t] += in[base + t];
      }
#pragma omp barrier
      if (mine) {                                         // expect: KL501
        out[base + t] = in[base + t] * 4.0f;
        out[base + t] += 2.0f;
        out[base + t] *= in[base + 1];
        out[base + t] -= 0.5f;
        out[base + t] /= 5.0f;
        out[base + t] += in[base + t];
      }
    }
  }
}

void barrier_on_one_path(const float *in, float *out, int teams) {
#pragma omp target teams num_teams(teams) thread_limit(TEAM) map(to: in[0:teams * TEAM]) map(from: out[0:teams * TEAM])
  {
    int flag; /* shared, but the barrier below is not on every path */
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      const int base = omp_get_team_num() * TEAM;
      if (t == 0)
        flag = in[base] > 0.0f;
      if (teams > 1) {
#pragma omp barrier
      }
      if (flag) {                                         // expect: KL501
        for (int k = 0; k < TEAM; ++k)
          out[base + k] = in[base + k] * 2.0f;
        out[base] += 1.0f;
      }
    }
  }
}
