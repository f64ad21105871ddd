"""Reading what the device step recorded: ncu's CSV pages and nvdisasm's line table.

Three formats, all as the tools print them:

* `ncu --page raw --csv --print-units base`: a header row (`"ID","Process ID",…,"Kernel Name",…` then
  one column per counter), a row of units (its ID cell empty), then one row per profiled launch.
* `ncu --page source --print-source sass --csv`: a per-instruction table whose header holds `Address`
  and `Source` (the SASS text) and one column per source counter (`Instructions Executed`, `Thread
  Instructions Executed`, `Predicated-On Thread Instructions Executed`, …), possibly after a few lines
  naming the kernel. Addresses are absolute; `offsets` makes them relative to the function's start.
* `nvdisasm -gi -c`: SASS with `//## File "…", line N` markers before the instructions of each line (for
  inlined code `"…", line N inlined at "…", line M`, the outermost location in the twin is taken) and
  `/*0040*/` offsets, per function.

Numbers may carry thousands separators (`1,234,567`) and cells may read `n/a`: both are handled here.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")


def number(text: str) -> float | None:
    """A CSV cell as a number: None for an empty, `n/a` or non-numeric cell."""
    cell = text.strip().strip('"').strip()
    if _THOUSANDS.match(cell):
        cell = cell.replace(",", "")
    try:
        return float(cell)
    except ValueError:
        return None


def _rows(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row]


@dataclass
class Launch:
    """One profiled launch of the raw page: its kernel and its counters (value, unit)."""

    kernel: str
    metrics: dict[str, tuple[float | None, str]] = field(default_factory=dict)

    def value(self, name: str) -> float | None:
        entry = self.metrics.get(name)
        return entry[0] if entry is not None else None


def raw_page(text: str) -> list[Launch]:
    """Every launch of an `ncu --page raw --csv` export."""
    rows = _rows(text)
    start = next((i for i, row in enumerate(rows) if row[0] == "ID" and "Kernel Name" in row), None)
    if start is None:
        return []
    header = rows[start]
    body = rows[start + 1 :]
    units = [""] * len(header)
    if body and body[0][0] == "":
        units = body[0] + [""] * (len(header) - len(body[0]))
        body = body[1:]
    kernel_column = header.index("Kernel Name")
    first_metric = header.index("CC") + 1 if "CC" in header else kernel_column + 1
    launches = []
    for row in body:
        if len(row) != len(header):
            continue
        metrics = {header[i]: (number(row[i]), units[i]) for i in range(first_metric, len(header))}
        launches.append(Launch(row[kernel_column], metrics))
    return launches


@dataclass(frozen=True)
class Instruction:
    """One SASS instruction of the source page: its offset from the function's start and its counters."""

    offset: int
    sass: str
    counters: dict[str, float | None]

    @property
    def opcode(self) -> str:
        return opcode(self.sass)


def opcode(sass: str) -> str:
    """The mnemonic's first part: `@!P0 LDS.128 R4, [R0]` → `LDS`."""
    words = sass.replace(";", " ").split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else ""


# Names of the per-instruction counters in the source page, as ncu versions print them.
INSTRUCTIONS = ("Instructions Executed", "inst_executed")
THREAD_INSTRUCTIONS = ("Thread Instructions Executed", "thread_inst_executed")
PREDICATED_ON = (
    "Predicated-On Thread Instructions Executed",
    "Thread Instructions Executed (Predicated-On)",
    "thread_inst_executed_true",
)


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    lowered = [h.strip().lower() for h in header]
    for name in names:
        if name.lower() in lowered:
            return lowered.index(name.lower())
    return None


def source_page(text: str) -> list[Instruction]:
    """The instructions of an `ncu --page source --print-source sass --csv` export, in address order,
    with offsets relative to the first one (the function's entry)."""
    rows = _rows(text)
    start = None
    for i, row in enumerate(rows):
        lowered = [cell.strip().lower().lstrip("# ") for cell in row]
        if "address" in lowered and "source" in lowered:
            start = i
            break
    if start is None:
        return []
    header = rows[start]
    lowered = [cell.strip().lower().lstrip("# ") for cell in header]
    address_column, source_column = lowered.index("address"), lowered.index("source")
    counters = {
        "inst": _column(header, INSTRUCTIONS),
        "thread": _column(header, THREAD_INSTRUCTIONS),
        "pred_on": _column(header, PREDICATED_ON),
    }
    found: list[tuple[int, str, dict[str, float | None]]] = []
    for row in rows[start + 1 :]:
        if len(row) != len(header):
            continue
        try:
            address = int(row[address_column].strip(), 16)
        except ValueError:
            continue
        values = {name: (number(row[col]) if col is not None else None) for name, col in counters.items()}
        found.append((address, row[source_column].strip(), values))
    if not found:
        return []
    base = min(address for address, _, _ in found)
    return [Instruction(address - base, sass, values) for address, sass, values in sorted(found)]


_FUNCTION = re.compile(r"^\s*\.text\.(?P<name>[\w$.]+):")
_LINE_MARK = re.compile(r'"(?P<file>[^"]+)",\s*line\s+(?P<line>\d+)')
_INSTRUCTION = re.compile(r"^\s*/\*(?P<offset>[0-9a-fA-F]+)\*/\s+(?P<sass>[^;]*;)")


@dataclass(frozen=True)
class SassLine:
    offset: int
    line: int | None
    sass: str


def nvdisasm_lines(text: str, source_name: str) -> dict[str, list[SassLine]]:
    """Per function (mangled name), its instructions with the line of `source_name` they come from.

    A marker names the line an instruction was compiled from; for code inlined from elsewhere it names
    the call chain, and the outermost location in `source_name` is taken. An instruction with no
    location in `source_name` gets None."""
    functions: dict[str, list[SassLine]] = {}
    current: list[SassLine] | None = None
    line: int | None = None
    for raw in text.splitlines():
        function = _FUNCTION.match(raw)
        if function:
            current = functions.setdefault(function.group("name"), [])
            line = None
            continue
        if raw.lstrip().startswith("//##"):
            marks = [int(m.group("line")) for m in _LINE_MARK.finditer(raw) if m.group("file").endswith(source_name)]
            line = marks[-1] if marks else None
            continue
        instruction = _INSTRUCTION.match(raw)
        if instruction and current is not None:
            current.append(SassLine(int(instruction.group("offset"), 16), line, instruction.group("sass").strip()))
    return functions


def kernel_lines(text: str, source_name: str, kernel: str) -> list[SassLine]:
    """The instructions of the kernel `kernel` (its mangled name contains it) in an nvdisasm listing."""
    for name, lines in nvdisasm_lines(text, source_name).items():
        if re.search(rf"(^|\d){re.escape(kernel)}(\w|$)", name) and lines:
            return lines
    return []
