"""Reading device profiles from TOML, built-in or user-supplied, with errors a user can act on.

Every field is checked here, once, so the models can trust a profile completely. A file may name a
built-in ``base`` profile and override some fields, which keeps product variants (an Arc A750 is an
A770 with fewer Xe-cores) to a few lines and lets users describe their GPU the same way.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache, lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from kernlint.compat import tomllib
from kernlint.occupancy.host import parse_host
from kernlint.occupancy.profiles import KB, DeviceProfile, IntelProfile, NvidiaProfile
from kernlint.records import record

#: The device ids docs/contract.md names (section 6), listed first wherever devices are listed.
SPEC_DEVICE_IDS = ("gen9", "xe-lp", "xe-hpg", "xe-hpc", "xe2-hpg", "a100", "h100")

#: Fields of the file that describe it rather than the hardware, so a ``base`` does not pass them on.
#: ``host`` is one of them: a smaller variant of a GPU often has fewer PCIe lanes and slower memory.
_OWN_FIELDS = ("id", "name", "source", "notes", "base", "host")


class DeviceError(ValueError):
    """An unknown device id, or a device file that is missing, unreadable or has a bad field."""


@record
class _Field:
    accepted: str
    check: Callable[[Any], bool]
    convert: Callable[[Any], Any] = lambda v: v


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_list(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(_is_int(x) for x in v)


_TEXT = _Field("a non-empty string", lambda v: isinstance(v, str) and v.strip() != "")
_POS = _Field("a positive integer", lambda v: _is_int(v) and v > 0)
_NONNEG = _Field("an integer >= 0", lambda v: _is_int(v) and v >= 0)
_BOOL = _Field("true or false", lambda v: isinstance(v, bool))
_NOTES = _Field("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), tuple)
_SIZES = _Field(
    "a non-empty list of distinct positive integers, default first (e.g. [32, 16, 8])",
    lambda v: _int_list(v) and all(x > 0 for x in v) and len(set(v)) == len(v),
    tuple,
)
_ASCENDING_KB = _Field(
    "a strictly ascending list of integers starting at 0 (e.g. [0, 1, 2, 4, 8, 16, 32, 64])",
    lambda v: _int_list(v) and v[0] == 0 and all(a < b for a, b in pairwise(v)),
    tuple,
)
_CC = _Field(
    'a compute capability string such as "9.0"',
    lambda v: isinstance(v, str) and len(v.split(".")) == 2 and all(p.isdigit() for p in v.split(".")),
)

_COMMON: dict[str, _Field] = {
    "id": _TEXT,
    "name": _TEXT,
    "source": _TEXT,
    "notes": _NOTES,
    "max_work_group_size": _POS,
    "sub_group_sizes": _SIZES,
    "cache_line_bytes": _POS,
    "sector_bytes": _POS,
    "slm_bank_bytes": _POS,
}

_INTEL: dict[str, _Field] = {
    **_COMMON,
    "calculator_id": _TEXT,
    "xve_count": _POS,
    "xves_per_xe_core": _POS,
    "threads_per_xve": _POS,
    "threads_per_xe_core": _POS,
    "slm_kb_per_xe_core": _POS,
    "slm_kb_max_per_work_group": _POS,
    "slm_kb_allowed_sizes": _ASCENDING_KB,
    "max_work_groups_per_xe_core": _POS,
    "barrier_registers": _POS,
    "large_grf": _BOOL,
    "slm_banks": _POS,
}

_NVIDIA: dict[str, _Field] = {
    **_COMMON,
    "compute_capability": _CC,
    "sm_count": _POS,
    "warp_size": _POS,
    "max_threads_per_sm": _POS,
    "max_blocks_per_sm": _POS,
    "registers_per_sm": _POS,
    "registers_per_block": _POS,
    "register_allocation_unit": _POS,
    "register_sub_partitions": _POS,
    "max_registers_per_thread": _POS,
    "default_registers_per_thread": _POS,
    "shared_memory_per_sm": _POS,
    "shared_memory_per_block": _POS,
    "shared_memory_per_block_optin": _POS,
    "shared_memory_allocation_unit": _POS,
    "reserved_shared_memory_per_block": _NONNEG,
    "shared_memory_carveouts_kb": _ASCENDING_KB,
    "shared_memory_banks": _POS,
}

_SCHEMAS: dict[str, tuple[dict[str, _Field], type[DeviceProfile]]] = {
    "intel": (_INTEL, IntelProfile),
    "nvidia": (_NVIDIA, NvidiaProfile),
}


def _builtin_dir() -> Any:
    # Package data, installed as plain files next to the module (`importlib.resources` would cost
    # every run its import).
    return Path(__file__).resolve().parent / "devices"


@lru_cache(maxsize=1)
def device_ids() -> tuple[str, ...]:
    """Built-in device ids: the contract's seven first, then the other profiles alphabetically."""
    found = {p.name[: -len(".toml")] for p in _builtin_dir().iterdir() if p.name.endswith(".toml")}
    spec = [d for d in SPEC_DEVICE_IDS if d in found]
    return tuple(spec + sorted(found - set(spec)))


def load_device(spec: str | os.PathLike[str]) -> DeviceProfile:
    """A profile from a built-in id (``"xe-lp"``) or a path to a TOML file (``"./mygpu.toml"``)."""
    text = os.fspath(spec)
    if isinstance(spec, os.PathLike) or text.endswith(".toml") or "/" in text or os.sep in text:
        path = Path(text)
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise DeviceError(f"{text}: cannot read device file ({exc.strerror or exc})") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise DeviceError(f"{text}: not a valid TOML file ({exc})") from None
        raw.setdefault("id", path.stem)
        return _build(_with_base(raw, text), text)
    return _load_builtin(text)


@cache
def _load_builtin(device_id: str) -> DeviceProfile:
    label = f"built-in device {device_id}.toml"
    return _build(_with_base(dict(_raw_builtin(device_id)), label), label)


@cache
def _raw_builtin(device_id: str) -> dict[str, Any]:
    if device_id not in device_ids():
        raise DeviceError(
            f"unknown device {device_id!r}; known devices: {', '.join(device_ids())} "
            "(or give a path to a .toml device file)"
        )
    raw = tomllib.loads((_builtin_dir() / f"{device_id}.toml").read_text(encoding="utf-8"))
    if raw.get("id") != device_id:
        raise DeviceError(f"built-in device {device_id}.toml: field 'id' must be {device_id!r}")
    return raw


def _with_base(raw: dict[str, Any], label: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """Fill the fields a file leaves out from its ``base`` profile (a built-in id)."""
    base = raw.get("base")
    if base is None:
        return raw
    if not isinstance(base, str) or base not in device_ids():
        raise DeviceError(f"{label}: field 'base' must be a built-in device id; accepted: {', '.join(device_ids())}")
    if base in seen:
        raise DeviceError(f"{label}: field 'base' forms a cycle ({' -> '.join(seen + (base,))})")
    inherited = _with_base(dict(_raw_builtin(base)), f"built-in device {base}.toml", seen + (base,))
    merged = {k: v for k, v in inherited.items() if k not in _OWN_FIELDS}
    merged.update({k: v for k, v in raw.items() if k != "base"})
    return merged


def _build(raw: dict[str, Any], label: str) -> DeviceProfile:
    vendor = raw.get("vendor")
    if vendor not in _SCHEMAS:
        raise DeviceError(f"{label}: field 'vendor' must be one of: intel, nvidia (got {vendor!r})")
    schema, cls = _SCHEMAS[vendor]
    unknown = sorted(set(raw) - set(schema) - {"vendor", "host"})
    if unknown:
        raise DeviceError(
            f"{label}: unknown field {unknown[0]!r} for a {vendor} device; "
            f"accepted fields: {', '.join(sorted([*schema, 'host']))}"
        )
    values: dict[str, Any] = {}
    for name, spec in schema.items():
        if name not in raw:
            if name == "notes":
                values[name] = ()
                continue
            raise DeviceError(f"{label}: missing field {name!r} ({spec.accepted})")
        if not spec.check(raw[name]):
            raise DeviceError(f"{label}: field {name!r} must be {spec.accepted} (got {raw[name]!r})")
        values[name] = spec.convert(raw[name])
    if "host" in raw:
        try:
            values["host"] = parse_host(raw["host"])
        except ValueError as exc:
            raise DeviceError(f"{label}: table 'host' {exc}") from None
    profile = cls(**values)
    _check_consistency(profile, label)
    return profile


def _check_consistency(p: DeviceProfile, label: str) -> None:
    """Relations between fields that single-field checks cannot see."""

    def bad(field: str, why: str) -> DeviceError:
        return DeviceError(f"{label}: field {field!r} {why}")

    for name in ("cache_line_bytes", "sector_bytes", "slm_bank_bytes"):
        value = getattr(p, name)
        if value & (value - 1):
            raise bad(name, f"is {value} but must be a power of two")
    if p.cache_line_bytes % p.sector_bytes:
        raise bad("sector_bytes", f"is {p.sector_bytes} but must divide cache_line_bytes = {p.cache_line_bytes}")

    if isinstance(p, IntelProfile):
        product = p.xves_per_xe_core * p.threads_per_xve
        if p.threads_per_xe_core != product:
            raise bad(
                "threads_per_xe_core",
                f"is {p.threads_per_xe_core} but must equal xves_per_xe_core x threads_per_xve = {product}",
            )
        if p.slm_kb_max_per_work_group > p.slm_kb_per_xe_core:
            raise bad(
                "slm_kb_max_per_work_group",
                f"is {p.slm_kb_max_per_work_group} but must be at most slm_kb_per_xe_core = {p.slm_kb_per_xe_core}",
            )
        if p.slm_kb_allowed_sizes[-1] < p.slm_kb_max_per_work_group:
            raise bad(
                "slm_kb_allowed_sizes",
                f"must reach slm_kb_max_per_work_group = {p.slm_kb_max_per_work_group} "
                f"(last entry is {p.slm_kb_allowed_sizes[-1]})",
            )
    elif isinstance(p, NvidiaProfile):
        if p.sub_group_sizes != (p.warp_size,):
            raise bad("sub_group_sizes", f"must be [{p.warp_size}] (the warp size)")
        if p.max_threads_per_sm % p.warp_size:
            raise bad("max_threads_per_sm", f"must be a multiple of warp_size = {p.warp_size}")
        if p.registers_per_sm % p.register_sub_partitions:
            raise bad(
                "registers_per_sm",
                f"must divide evenly into register_sub_partitions = {p.register_sub_partitions}",
            )
        if p.default_registers_per_thread > p.max_registers_per_thread:
            raise bad(
                "default_registers_per_thread",
                f"must be at most max_registers_per_thread = {p.max_registers_per_thread}",
            )
        if p.shared_memory_per_block > p.shared_memory_per_block_optin:
            raise bad(
                "shared_memory_per_block",
                f"must be at most shared_memory_per_block_optin = {p.shared_memory_per_block_optin}",
            )
        if p.shared_memory_per_block_optin + p.reserved_shared_memory_per_block > p.shared_memory_per_sm:
            raise bad(
                "shared_memory_per_block_optin",
                "plus reserved_shared_memory_per_block must fit in shared_memory_per_sm",
            )
        if p.shared_memory_carveouts_kb[-1] * KB != p.shared_memory_per_sm:
            raise bad(
                "shared_memory_carveouts_kb",
                f"must end at shared_memory_per_sm = {p.shared_memory_per_sm} bytes "
                f"({p.shared_memory_per_sm / KB:g} KB)",
            )
