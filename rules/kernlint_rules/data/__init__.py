"""Host-side handling of data and runtime objects (KL101–KL104, KL207): buffers and queues built inside
host loops, accessor modes and OpenMP `map` types wider than the kernel's use of the data, and
deprecated spellings of the accessor modes.

KL207 (queue-in-loop) keeps its KL2xx code but lives here: like KL101 it finds a runtime object
constructed in a repeating host loop (the same loop facts and words, `host_loops`), and it shares
nothing with the launch family, whose rules read a kernel launch against a device.
"""
