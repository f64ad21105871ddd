// kernlint-devices: xe-hpc h100
// Divergence that is the algorithm's own: each work-item follows its own data (a sparse row, a
// neighbour list, a search, a walk). True, and reported as infos of the `inherent` class: no local
// change removes it, so none of these is a warning.
#include <sycl/sycl.hpp>

// One CSR row per work-item: the trip count is the row's length.
void csr_spmv(sycl::queue &q, const int *row_start, const int *cols, const float *vals, const float *x,
              float *y, int rows) {
  q.parallel_for(sycl::nd_range<1>(rows, 128), [=](sycl::nd_item<1> it) {
    const int r = it.get_global_id(0);
    float acc = 0.0f;
    for (int j = row_start[r]; j < row_start[r + 1]; ++j) // expect: KL501 (info, inherent)
      acc += vals[j] * x[cols[j]];
    y[r] = acc;
  });
}

// Neighbour lists of a particle code: each particle has its own count, and the heavy pair force runs
// only for the neighbours inside the cut-off.
void pair_forces(sycl::queue &q, const int *count, const int *nbr, const sycl::float4 *pos, sycl::float4 *force,
                 int particles, int max_nbr, float cut2) {
  q.parallel_for(sycl::nd_range<1>(particles, 64), [=](sycl::nd_item<1> it) {
    const int p = it.get_global_id(0);
    const sycl::float4 me = pos[p];
    sycl::float4 f{0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k < count[p]; ++k) { // expect: KL501 (info, inherent)
      const sycl::float4 other = pos[nbr[p * max_nbr + k]]; // expect: KL601
      const float dx = me.x() - other.x(), dy = me.y() - other.y(), dz = me.z() - other.z();
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < cut2) { // expect: KL501 (info, inherent)
        const float inv = 1.0f / r2;
        const float inv3 = inv * inv * inv;
        const float scale = inv3 * (inv3 - 0.5f) * inv;
        f.x() += dx * scale;
        f.y() += dy * scale;
        f.z() += dz * scale;
      }
    }
    force[p] = f;
  });
}

// A per-row insertion sort of a short key list: how far each key moves depends on the keys.
void sort_rows(sycl::queue &q, float *keys, int rows, int width) {
  q.parallel_for(sycl::nd_range<1>(rows, 64), [=](sycl::nd_item<1> it) {
    float *row = keys + it.get_global_id(0) * width;
    for (int i = 1; i < width; ++i) {
      const float v = row[i];
      int j = i - 1;
      while (j >= 0 && row[j] > v) { // expect: KL501 (info, inherent)
        row[j + 1] = row[j];
        --j;
      }
      row[j + 1] = v;
    }
  });
}

// Merge-path: two pointers walk two sorted runs; which one advances is the data's choice.
void merge_runs(sycl::queue &q, const int *a, const int *b, int *out, const int *start_a, const int *start_b,
                int chunks, int chunk) {
  q.parallel_for(sycl::nd_range<1>(chunks, 32), [=](sycl::nd_item<1> it) {
    const int c = it.get_global_id(0);
    int i = start_a[c], j = start_b[c];
    for (int k = 0; k < chunk; ++k)
      out[c * chunk + k] = (a[i] <= b[j]) ? a[i++] : b[j++]; // expect: KL501 (info, cheap-arms) // expect: KL601
  });
}

// Adaptive smoothing: the radius grows until the window holds enough mass.
void adaptive_radius(sycl::queue &q, const float *img, float *out, int w, int h, float target, int max_r) {
  q.parallel_for(sycl::nd_range<2>({static_cast<size_t>(h), static_cast<size_t>(w)}, {8, 32}), [=](sycl::nd_item<2> it) {
    const int y = it.get_global_id(0), x = it.get_global_id(1);
    float mass = img[y * w + x];
    int r = 0;
    while (mass < target && r < max_r) { // expect: KL501 (info, inherent)
      ++r;
      mass += img[y * w + sycl::min(x + r, w - 1)] + img[y * w + sycl::max(x - r, 0)];
    }
    out[y * w + x] = mass / (2 * r + 1);
  });
}

// A binary heap's sift-down per work-item: the path depends on the keys.
void sift_down(sycl::queue &q, float *heaps, int count, int size) {
  q.parallel_for(sycl::nd_range<1>(count, 64), [=](sycl::nd_item<1> it) {
    float *heap = heaps + it.get_global_id(0) * size;
    int node = 0;
    while (2 * node + 1 < size) { // expect: KL501 (info, inherent)
      int child = 2 * node + 1;
      if (child + 1 < size && heap[child + 1] < heap[child]) // expect: KL501 (info, cheap-arms)
        ++child;
      if (heap[node] <= heap[child]) // expect: KL501 (info, inherent)
        break;
      const float t = heap[node];
      heap[node] = heap[child];
      heap[child] = t;
      node = child;
    }
  });
}

// A small state machine over a token stream, left with `break` when a token ends the record.
void scan_records(sycl::queue &q, const char *text, const int *begin, int *fields, int records, int limit) {
  q.parallel_for(sycl::nd_range<1>(records, 64), [=](sycl::nd_item<1> it) {
    const int r = it.get_global_id(0);
    int state = 0, count = 0;
    for (int k = 0; k < limit; ++k) {
      const char c = text[begin[r] + k];
      if (c == '\n') // expect: KL501 (info, inherent)
        break;
      if (state == 0 && c == '"') // expect: KL501 (info, cheap-arms)
        state = 1;
      else if (state == 1 && c == '"')
        state = 0;
      else if (state == 0 && c == ',')
        ++count;
    }
    fields[r] = count;
  });
}

// Following a linked list stored as indices: the walk ends where each list ends.
void list_lengths(sycl::queue &q, const int *next, const int *heads, int *length, int lists) {
  q.parallel_for(sycl::nd_range<1>(lists, 128), [=](sycl::nd_item<1> it) {
    int node = heads[it.get_global_id(0)];
    int n = 0;
    while (node >= 0) { // expect: KL501 (info, inherent)
      node = next[node];
      ++n;
    }
    length[it.get_global_id(0)] = n;
  });
}

// The cooperative CSR kernel: a sub-group shares one row (`row = gid / 32`), so its lanes agree on the
// trip count and nothing diverges.
void csr_spmv_sub_group(sycl::queue &q, const int *row_start, const int *cols, const float *vals, const float *x,
                        float *y, int rows) {
  q.parallel_for(sycl::nd_range<1>(rows * 32, 128), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
    const int row = it.get_global_id(0) / 32;
    const int lane = it.get_sub_group().get_local_id()[0];
    float acc = 0.0f;
    for (int j = row_start[row] + lane; j < row_start[row + 1]; j += 32)
      acc += vals[j] * x[cols[j]];
    acc = sycl::reduce_over_group(it.get_sub_group(), acc, sycl::plus<float>());
    if (lane == 0)
      y[row] = acc;
  });
}
