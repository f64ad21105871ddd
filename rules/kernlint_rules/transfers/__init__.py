"""Host↔device data movement and synchronisation (KL7xx): what OpenMP `map` clauses copy against what
the offloaded code uses, and copies, mappings and blocking waits that repeat in host loops, or go back
and forth, when the host does not need them.

KL705–KL708 read the map facts (`OmpConstruct.maps`: each list item's storage, element size and extent)
and the region's uses of each mapped variable (`OmpVariableUse`): a pointer mapped without the data it
points to, a variable copied but never used, a section larger than the code reaches, and data behind
pointers that a map does not follow. `map_items` holds what these rules share about the maps of a whole
file.

KL701–KL704 read the host flows (`kernlint.facts.host`): per function, its host loops and its steps in
the order they run, each with the data it reads and writes. What is needless follows from that order:
data mapped to and from the device on every iteration while the host never touches it (KL701), a wait
before which the host reads nothing the device wrote (KL702), a copy back to the host undone by a copy
out again (KL703), shared USM only kernels touch in a loop (KL704). `flows` holds what these rules share
(a loop's steps in the order an iteration runs them, what the host touches, how a loop is named).

Costs come from the host side of the device profiles (`kernlint.transfer_cost`): bytes over the link,
the launch/sync latency of a wait.
"""
