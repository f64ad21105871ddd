// KL501 in OpenMP C++ where what diverges is loaded per lane through a member of an element: a
// loop whose bounds each lane reads from its own record (a graph's adjacency range), a test on data
// loaded through an index that loop produces, and a test on a member of the lane's element. Bit tests
// on the thread number are found as before. Silent: a loop whose bounds both move with the lane's
// start (the same trip count everywhere), and the compare of an atomic compare-and-swap.
#include <omp.h>

struct Vertex {
  int first_edge;
  int degree;
  float weight;
};

void relax_edges(const Vertex *verts, const int *edges, const int *settled, int *dist, int n) {
#pragma omp target teams distribute parallel for thread_limit(128)
  for (int v = 0; v < n; v++) {
    const int begin = verts[v].first_edge;
    const int end = begin + verts[v].degree;
    for (int e = begin; e < end; e++) { // expect: KL501
      const int u = edges[e];
      if (!settled[u]) { // expect: KL501
        dist[u] = dist[v] + 1;
      }
    }
  }
}

void heavy_vertices(const Vertex *verts, float *score, int n, float cut) {
#pragma omp target teams distribute parallel for
  for (int v = 0; v < n; v++) {
    if (verts[v].weight > cut) // expect: KL501
      score[v] = verts[v].weight * 2.0f;
  }
}

void warp_tails(float *partial, const float *in, int n) {
#pragma omp target teams num_teams(n / 256) thread_limit(256)
  {
#pragma omp parallel
    {
      const int lane = omp_get_thread_num();
      const int idx = omp_get_team_num() * 256 + lane;
      if ((lane & 31) == 31) // expect: KL501
        partial[idx / 32] = in[idx];
    }
  }
}

// Silent: every lane runs exactly four iterations, wherever its window starts.
void window_sums(const Vertex *verts, const float *w, float *out, int n) {
#pragma omp target teams distribute parallel for
  for (int v = 0; v < n; v++) {
    const int s = verts[v].first_edge;
    float acc = 0.0f;
    for (int k = s; k < s + 4; k++)
      acc += w[k];
    out[v] = acc;
  }
}

// Silent: the test inside an atomic compare is part of one compare-and-swap instruction.
void claim_slots(int *owner, const int *want, int n) {
#pragma omp target teams distribute parallel for
  for (int t = 0; t < n; t++) {
    const int slot = want[t];
#pragma omp atomic compare
    if (owner[slot] == -1) {
      owner[slot] = t;
    }
  }
}
