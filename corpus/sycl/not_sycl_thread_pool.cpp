// Plain C++ on the CPU: a thread pool and TBB both call their loop `parallel_for`. Not SYCL code.
#include <tbb/parallel_for.h>
#include <functional>
#include <vector>

struct ThreadPool {
  void parallel_for(int n, const std::function<void(int)> &body);
};

void scale(ThreadPool &pool, std::vector<float> &v) {
  pool.parallel_for(16, [&](int i) {
    if (i % 2 == 0) v[i] *= 2.0f;
    else v[i] = 0.0f;
  });
  tbb::parallel_for(0, 16, [&](int i) { if (i < 8) v[i] += 1.0f; });
}
