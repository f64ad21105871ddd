"""The GPU harness of benchmarks/gpu: kernlint's device-side cost claims checked against ncu counters.

Every module but `predict` uses the standard library alone, so the device step (`measure.py
--measure-only`) runs on a machine with a GPU but without kernlint's dependencies.
"""
