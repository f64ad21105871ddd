"""How SYCL kernels use their accessors: reads, writes and escapes, through functors and helper functions,
whether writes cover the whole buffer, and how a mode is spelled for a fix that rewrites it."""
