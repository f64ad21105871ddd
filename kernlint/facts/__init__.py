"""The language-neutral model of a translation unit.

Front-ends produce these frozen dataclasses; rules consume them and never see a parse tree, so a rule
works the same whichever parser ran. Spans are byte ranges plus 1-based line numbers; the engine turns
them into character columns only when a diagnostic is reported.
"""

from kernlint.facts.accessor_uses import AccessorUses
from kernlint.facts.base import Extent, Span
from kernlint.facts.device import Branch, SubGroupBlockAccess
from kernlint.facts.host import HostFlow, HostLoop, HostStep, UsmAllocation
from kernlint.facts.memory import LaneStride, MemoryAccess
from kernlint.facts.model import (
    Accessor,
    Barrier,
    Buffer,
    FileFacts,
    FunctionCall,
    KernelAttributes,
    KernelLaunch,
    LimitReached,
    LocalAllocation,
    Loop,
    Pragma,
    Preprocessor,
    QueueConstruction,
)
from kernlint.facts.openmp import OmpConstruct

__all__ = [
    "Accessor",
    "AccessorUses",
    "Barrier",
    "Branch",
    "Buffer",
    "Extent",
    "FileFacts",
    "FunctionCall",
    "HostFlow",
    "HostLoop",
    "HostStep",
    "KernelAttributes",
    "KernelLaunch",
    "LaneStride",
    "LimitReached",
    "LocalAllocation",
    "Loop",
    "MemoryAccess",
    "OmpConstruct",
    "Pragma",
    "Preprocessor",
    "QueueConstruction",
    "Span",
    "SubGroupBlockAccess",
    "UsmAllocation",
]
