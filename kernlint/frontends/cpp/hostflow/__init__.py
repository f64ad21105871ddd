"""The host side of offload in C/C++: what each function that holds device work does around it.

`steps` reads the device steps (SYCL submissions, copies and waits; OpenMP target regions, data motion
and `taskwait`), `flows` orders them with the host's own uses of the data they touch, its clock reads
and its calls of functions that submit work, loop by loop (`kernlint.facts.host`). `access` says what
one use of a variable does to its data, `declarations` what a name is declared as, `usm` reads SYCL
USM allocations.
"""

from kernlint.frontends.cpp.hostflow.flows import host_flows

__all__ = ["host_flows"]
