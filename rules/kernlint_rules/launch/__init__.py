"""Launch configuration against a target device (KL201–KL206, KL208, KL209, KL301): work-group and sub-group
sizes, local memory and occupancy, read with the occupancy model (`kernlint.occupancy`).

`shape` says what a launch asks for, `residency` why a work-group is bound to one Xe-core / SM, `model`
asks the occupancy model once per shape, `limits` holds KL201's device-limit check (shared with its
OpenMP half, `openmp_thread_limit`), `costs` what occupancy costs.
"""
