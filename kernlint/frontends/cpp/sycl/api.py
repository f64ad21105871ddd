"""Names of the SYCL API the C++ analyses recognise, each table written once.

The tables hold unqualified names: SYCL code spells the same member as `sycl::`, `cl::sycl::` or through
a `using`, so the analyses compare the last component of what is written.
"""

from __future__ import annotations

import re

from kernlint.facts.kinds import AccessMode, AccessTarget, LaunchApi

#: Handler and queue members that launch a kernel (each name is the launch's `api`).
LAUNCH_METHODS: dict[str, LaunchApi] = {
    "parallel_for": "parallel_for",
    "single_task": "single_task",
    "parallel_for_work_group": "parallel_for_work_group",
}

#: Classes whose constructions become facts (buffers, accessors, local memory, queues).
SYCL_CLASSES = frozenset({"buffer", "accessor", "host_accessor", "local_accessor", "queue"})

#: Access-mode words (`access::mode::…`, `access_mode::…` and the 2020 tags) -> the mode they mean.
MODE_WORDS: dict[str, AccessMode] = {
    "read": "read",
    "write": "write",
    "read_write": "read_write",
    "discard_write": "discard_write",
    "discard_read_write": "discard_read_write",
    "atomic": "atomic",
    "read_only": "read",
    "write_only": "write",
}

#: A mode word anywhere in a text (a type spelled with its mode, such as `accessor<T, 1, read>`).
MODE_WORD = re.compile(r"\b(" + "|".join(MODE_WORDS) + r")\b")

#: Access-target words (`access::target::…` and 2020 spellings) -> the target they mean.
TARGET_WORDS: dict[str, AccessTarget] = {
    "local": "local",
    "constant_buffer": "constant",
    "host_buffer": "host",
    "global_buffer": "device",
    "device": "device",
    "host_task": "host",
}

#: Accessor members that do not touch the data.
NEUTRAL_METHODS = frozenset(
    {"size", "get_size", "byte_size", "get_count", "get_range", "get_offset", "max_size", "empty", "is_placeholder"}
)

#: Members of `atomic_ref` (and of the SYCL 1.2.1 `atomic` an atomic accessor's element is) that
#: read-modify-write: each work-item gets back a different old value. Work-item dependence uses this set:
#: these results vary by work-item, while work-items that `load` together read one value.
ATOMIC_RMW_METHODS = frozenset(
    {
        "fetch_add",
        "fetch_sub",
        "fetch_and",
        "fetch_or",
        "fetch_xor",
        "fetch_min",
        "fetch_max",
        "exchange",
        "compare_exchange_strong",
        "compare_exchange_weak",
    }
)

#: Every member of an atomic element. The accessor analysis uses this set: calling any of them, `load`
#: and `store` included, is an atomic access to the element.
ATOMIC_METHODS = ATOMIC_RMW_METHODS | {"load", "store"}
