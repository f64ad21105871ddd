"""The C++ front-end imports and runs its SYCL device, accessor-use and OpenMP passes only for a file
that has what they read (`frontend._device_code`, `_accessor_uses`, `_openmp_facts`): with every
gate open, every C/C++ corpus file has the same facts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import CORPUS
from kernlint.facts import Accessor, KernelLaunch, LocalAllocation, Pragma
from kernlint.frontends.cpp import frontend
from kernlint.frontends.cpp.unit import CppUnit

CPP_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp", ".h", ".hpp", ".inc"))


def _every_device_code(
    unit: CppUnit,
    launches: list[KernelLaunch],
    unlaunched: list[KernelLaunch],
    locals_: tuple[LocalAllocation, ...],
    meanwhile: Callable[[tuple[KernelLaunch, ...]], object] | None = None,
) -> object:
    from kernlint.frontends.cpp.device.code import analyse_device_code

    return analyse_device_code(unit, launches, unlaunched, locals_, meanwhile)


def _every_accessor_use(unit: CppUnit, launches: tuple[KernelLaunch, ...], accessors: list[Accessor]) -> object:
    from kernlint.frontends.cpp.accessors.uses import analyse_accessor_uses

    return analyse_accessor_uses(unit, launches, accessors)


def _every_openmp_fact(unit: CppUnit, pragmas: tuple[Pragma, ...]) -> object:
    from kernlint.frontends.cpp.openmp.macros import openmp_facts

    constructs, branches, functions, memory = openmp_facts(unit, pragmas)
    return constructs, (branches.branches, branches.limits), functions, memory


@pytest.mark.parametrize("path", CPP_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_a_file_has_the_same_facts_with_every_pass_run(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    gated = frontend.extract(str(path), data)
    monkeypatch.setattr(frontend, "_device_code", _every_device_code)
    monkeypatch.setattr(frontend, "_accessor_uses", _every_accessor_use)
    monkeypatch.setattr(frontend, "_openmp_facts", _every_openmp_fact)
    assert frontend.extract(str(path), data) == gated


def test_the_empty_device_code_is_what_the_analysis_finds_in_a_file_without_kernels() -> None:
    from kernlint.frontends.cpp.device.code import DeviceCode, analyse_device_code

    unit = CppUnit("plain.cpp", b"int main() { int s = 0; for (int i = 0; i < 4; i++) s += i; return s; }\n")
    found = analyse_device_code(unit, [], [], ())
    assert found == DeviceCode(())
    assert frontend._device_code(unit, [], [], ()) == found


@pytest.mark.parametrize(
    ("text", "expected"),
    [("omp parallel for", True), ("ompx bare", True), ("omp", True), ("once", False), ("GCC unroll 4", False)],
)
def test_the_openmp_gate_opens_for_every_directive_openmp_facts_reads(text: str, expected: bool) -> None:
    from kernlint.facts import Span

    assert frontend.openmp_directives((Pragma(Span(0, 1, 1, 0, 1, 1), text),)) is expected
