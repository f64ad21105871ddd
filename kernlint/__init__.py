"""kernlint: a static analyzer for GPU kernel source backed by an occupancy model."""

__version__ = "0.1.0"
