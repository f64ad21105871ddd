// What a blocking wait per iteration adds to a loop of kernel launches: the `sync_latency_us` figure of
// a device profile's [host] table (kernlint/occupancy/devices/h100.toml), which KL702 (sync-in-loop)
// multiplies by a loop's iterations.
//
// Each row times N launches of a kernel of 132 blocks that spins for 0, ~10 or ~50 µs: back to back
// (one wait at the end), then with a wait after every launch (stream, event and device
// synchronisation). The difference per iteration is the latency the wait adds: the host learns the
// kernel finished, then submits the next one, while the GPU idles.
//
//   nvcc -O2 -arch=sm_90 -o sync_latency sync_latency.cu && ./sync_latency
//
// Measured on an H100 80GB HBM3 (CUDA 13.0, driver 580.159.04): 5.6–5.9 µs with an empty kernel,
// 7.2–8.0 µs with a 10 µs or 50 µs one (median 7.5 µs, the profile's figure).
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

using Clock = std::chrono::steady_clock;

static double microseconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int khz;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  for (int i = 0; i < 2000; i++) spin<<<1, 32, 0, stream>>>(0);  // warm up
  cudaStreamSynchronize(stream);
  const long long work[3] = {0, (long long)khz * 10 / 1000, (long long)khz * 50 / 1000};
  cudaEvent_t done;
  cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  for (int w = 0; w < 3; w++) {
    for (int rep = 0; rep < 3; rep++) {
      const int n = w == 2 ? 4000 : 20000;
      auto t0 = Clock::now();
      for (int i = 0; i < n; i++) spin<<<132, 32, 0, stream>>>(work[w]);
      cudaStreamSynchronize(stream);
      auto t1 = Clock::now();
      for (int i = 0; i < n; i++) {
        spin<<<132, 32, 0, stream>>>(work[w]);
        cudaStreamSynchronize(stream);
      }
      auto t2 = Clock::now();
      for (int i = 0; i < n; i++) {
        spin<<<132, 32, 0, stream>>>(work[w]);
        cudaEventRecord(done, stream);
        cudaEventSynchronize(done);
      }
      auto t3 = Clock::now();
      for (int i = 0; i < n; i++) {
        spin<<<132, 32, 0, stream>>>(work[w]);
        cudaDeviceSynchronize();
      }
      auto t4 = Clock::now();
      const double async = microseconds(t0, t1) / n, streamsync = microseconds(t1, t2) / n;
      printf("work=%lld cycles: back to back %.2f us/iteration, stream wait %.2f, event wait %.2f, device wait %.2f;"
             " added by the stream wait %.2f\n",
             work[w], async, streamsync, microseconds(t2, t3) / n, microseconds(t3, t4) / n, streamsync - async);
    }
  }
  return 0;
}
