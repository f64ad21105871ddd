"""Running the pipeline over files: read, parse once, extract facts, run rules, suppress.

Each file is independent, so files are spread over a process pool; whatever goes wrong with one file
(unreadable, binary, a front-end or rule crash) becomes a KL000 diagnostic for that file only.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from multiprocessing.context import BaseContext
from typing import Any

from kernlint import __version__
from kernlint.cache import ResultCache, digest
from kernlint.config import Config
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, RuleInfo, RunResult, Severity
from kernlint.discovery import SourceEntry
from kernlint.frontends import extract_facts, warm_up
from kernlint.limits import DEFAULT_TIMEOUT_S, FileTimeout, exit_with_parent, time_limit, worker_count
from kernlint.reading import ReadProblem, read_regular
from kernlint.rule import Rule, RuleContext
from kernlint.source import SourceFile
from kernlint.suppression import apply_suppressions, parse_suppressions

_SERIAL_THRESHOLD = 4  # below this many files a process pool costs more than it saves
PARSE_ERROR_RULE = RuleInfo(
    "KL000", "parse-error", Severity.ERROR, "A file could not be read or analysed (reported, never fatal).",
    "A file could not be read or analysed (reported, never fatal).\n\nkernlint reports unreadable, binary, "
    "oversized and undecodable files, and internal errors, as KL000 for that file and goes on with the rest.")


@dataclass(frozen=True)
class EngineSetup:
    """Everything a worker needs to analyse a file (picklable)."""

    config: Config
    rules: tuple[type[Rule], ...]
    devices: tuple[Any, ...]  # DeviceProfile objects
    use_cache: bool = True
    plugin_errors: tuple[str, ...] = field(default=())
    timeout_s: float | None = DEFAULT_TIMEOUT_S  # per file; None: no limit

    def context_key(self) -> str:
        rules = ",".join(f"{r.code}:{r.__module__}" for r in self.rules)
        devices = ",".join(getattr(d, "id", str(d)) for d in self.devices)
        return f"{self.config.fingerprint()}|{rules}|{devices}"


_kl000 = Diagnostic.parse_error


def _error_result(entry: SourceEntry, message: str, internal: bool = False,
                  severity: Severity = Severity.ERROR) -> FileResult:
    return FileResult(entry.path, None, FileStatus.ERROR, message,
                      (_kl000(entry.path, message, severity, internal=internal),))


def analyse_source(entry: SourceEntry, data: bytes, setup: EngineSetup) -> FileResult:
    """Analyse one file's bytes (already read) within the setup's time limit; never raises."""
    try:
        with time_limit(setup.timeout_s):
            return _analyse(entry, data, setup)
    except FileTimeout:
        return _error_result(entry, f"analysis took longer than the {setup.timeout_s:g} s limit per file "
                                    "(--timeout); not analysed")


def _analyse(entry: SourceEntry, data: bytes, setup: EngineSetup) -> FileResult:
    path = entry.path
    if b"\0" in data[:8192]:
        return _error_result(entry, f"binary file (NUL byte at offset {data.index(0)}); not analysed")
    source = SourceFile(path, data)
    diagnostics: list[Diagnostic] = []
    if source.decode_problem is not None:
        problem = source.decode_problem
        diagnostics.append(_kl000(
            path, f"invalid UTF-8 (byte 0x{problem.byte:02x}) at line {problem.line}, column {problem.column}; "
                  f"{problem.count} character(s) decoded as U+FFFD and analysis continued",
            Severity.WARNING, problem.line, problem.column))
    try:
        facts = extract_facts(entry, source, setup.config)
    except Exception as exc:  # a front-end bug must cost one file, not the run
        return _error_result(entry, f"internal error while parsing: {exc!r}\n{traceback.format_exc(limit=3)}",
                             internal=True)
    ignored = setup.config.ignored_for_file(path)
    applicable = [r for r in setup.rules
                  if facts.language in r.languages and not any(r.code.startswith(p) for p in ignored)]
    rules_run = frozenset(r.code for r in applicable)
    suppressions = parse_suppressions(source.text)
    for phase in (False, True):
        found: list[Diagnostic] = []
        for rule_class in (r for r in applicable if r.after_suppression is phase):
            rule = rule_class()
            options = {**rule_class.options, **setup.config.options_for(rule_class.code)}
            for device in (setup.devices if rule_class.needs_device else (None,)):
                ctx = RuleContext(rule_class, source, facts.language, device, options, suppressions, rules_run)
                try:
                    found.extend(rule.check(facts, ctx))
                except Exception as exc:
                    found.append(_kl000(path, f"internal error: rule {rule_class.code} failed on this file: "
                                              f"{exc!r}", internal=True))
        # Only the first phase marks directives as used: a directive that hides nothing but an
        # unused-suppression finding is still unused.
        diagnostics.extend(apply_suppressions(found, suppressions, record=not phase))
    diagnostics.sort(key=Diagnostic.sort_key)
    status = FileStatus.PARTIAL if facts.syntax_errors else FileStatus.OK
    error = None
    if facts.syntax_errors:
        lines = sorted({s.line for s in facts.syntax_errors})
        shown = ", ".join(map(str, lines[:5])) + (", …" if len(lines) > 5 else "")
        error = f"syntax errors near line(s) {shown}; analysed the rest of the file"
    return FileResult(path, facts.language, status, error, tuple(diagnostics), facts.dependencies)


def analyse_file(entry: SourceEntry, setup: EngineSetup) -> FileResult:
    """Read and analyse one file (with the cache); never raises."""
    try:
        data = read_regular(entry.path)
    except ReadProblem as problem:
        # Not a source file at all (a FIFO, a device) is a note; a file that cannot be read, an error.
        return _error_result(entry, str(problem), severity=Severity.INFO if problem.skipped else Severity.ERROR)
    content_digest = digest(data)
    cache = ResultCache(setup.config.root, setup.context_key()) if setup.use_cache else None
    key = cache.key(entry.path, entry.family, content_digest) if cache else ""
    if cache is not None:
        cached = cache.get(key)
        if cached is not None:
            return replace(cached, content_digest=content_digest)
    result = replace(analyse_source(entry, data, setup), content_digest=content_digest)
    if cache is not None and result.status is not FileStatus.ERROR and not any(
            d.evidence.get("internal") for d in result.diagnostics):
        cache.put(key, result)
    return result


_WORKER_SETUP: EngineSetup | None = None


def _init_worker(setup: EngineSetup, parent: int) -> None:
    global _WORKER_SETUP
    exit_with_parent(parent)
    _WORKER_SETUP = setup


def _analyse_in_worker(entry: SourceEntry) -> FileResult:
    assert _WORKER_SETUP is not None
    return analyse_file(entry, _WORKER_SETUP)


def analyse_files(entries: list[SourceEntry], setup: EngineSetup, jobs: int | None = None,
                  progress: Any = None) -> list[FileResult]:
    """Analyse every entry, in order, in parallel when it pays; `progress(n)` is called per file.
    `jobs` None or 0 means one worker per CPU; more workers than CPUs are never started."""
    jobs, _note = worker_count(jobs)
    results: list[FileResult] = []
    tick = progress or (lambda _n: None)
    if jobs == 1 or len(entries) < _SERIAL_THRESHOLD:
        for entry in entries:
            results.append(analyse_file(entry, setup))
            tick(1)
        return results
    warm_up({entry.family for entry in entries})  # compile queries once here; forked workers inherit them
    # Files take from under a millisecond to a second, and a result costs little to send back: small
    # chunks keep both workers busy to the end of the run.
    chunk = max(1, min(8, len(entries) // (jobs * 4)))
    # What the workers inherit (imports, compiled queries, the setup) lives for the whole run: frozen,
    # it is skipped by their garbage collections, which would otherwise walk all of it each time.
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=_pool_context(), initializer=_init_worker,
                                 initargs=(setup, os.getpid())) as pool:
            for result in pool.map(_analyse_in_worker, entries, chunksize=chunk):
                results.append(result)
                tick(1)
    except BrokenProcessPool:
        # A worker died (e.g. killed for memory): finish the rest here, one file at a time.
        for entry in entries[len(results):]:
            results.append(analyse_file(entry, setup))
            tick(1)
    finally:
        gc.unfreeze()
    return results


def _pool_context() -> BaseContext:
    """Fork workers where that is safe (Linux; Python 3.14 would otherwise start them from a fork
    server): a forked worker starts at once with the parent's imports and compiled queries, where
    any other start method makes each worker import and compile them all again."""
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)


def run(entries: list[SourceEntry], setup: EngineSetup, jobs: int | None = None, progress: Any = None,
        extra_files: Iterable[FileResult] = ()) -> RunResult:
    """Analyse files and assemble the run's result (diagnostics sorted, rules described)."""
    started = time.perf_counter()
    files = list(extra_files) + analyse_files(entries, setup, jobs, progress)
    diagnostics = sorted((d for f in files for d in f.diagnostics), key=Diagnostic.sort_key)
    rules = (PARSE_ERROR_RULE, *(r.info() for r in setup.rules))
    return RunResult(
        files=tuple(files), diagnostics=tuple(diagnostics),
        devices=tuple(getattr(d, "id", str(d)) for d in setup.devices), rules=rules,
        elapsed_s=round(time.perf_counter() - started, 4), tool_version=__version__)
