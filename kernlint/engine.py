"""Running the pipeline over files: read, parse once, extract facts, run rules, suppress.

Each file is independent, so files are spread over a process pool; whatever goes wrong with one file
(unreadable, binary, a front-end or rule crash) becomes a KL000 diagnostic for that file only.
"""

from __future__ import annotations

import gc
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from kernlint import __version__, interrupts, stopping
from kernlint.cache import CacheIndex, Record, cacheable, digest, record_for
from kernlint.config import Config
from kernlint.cost import MODEL_VERSION as COST_MODEL_VERSION
from kernlint.coverage_notes import file_coverage, lost_lines_note
from kernlint.diagnostics import PARSE_ERROR_RULE, Diagnostic, FileResult, FileStatus, RuleInfo, RunResult, Severity
from kernlint.discovery import SourceEntry
from kernlint.frontends import extract_facts, warm_up
from kernlint.limits import DEFAULT_TIMEOUT_S, FileTimeout, exit_with_parent, time_limit, worker_count
from kernlint.reading import ReadProblem, read_stamped
from kernlint.records import record
from kernlint.rule import Rule, RuleContext
from kernlint.scheduling import file_sizes, plan_chunks
from kernlint.source import DecodeProblem, SourceFile
from kernlint.suppression import apply_suppressions, parse_suppressions
from kernlint.undecodable import decodable, inert_places

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

_SERIAL_THRESHOLD = 4  # below this many files a process pool costs more than it saves
# Up to this many files a run's query compiles cost more than its walks: they are bundled.
_FEW_FILES = 4
# Nor below this much source: starting workers costs a fork each and compiling every query, about as
# much as analysing 250 kB of HeCBench in one process (a pre-commit run on a few files stays serial).
POOL_MIN_BYTES = 256 * 1024
# Analysing a file allocates many small objects that die with it, beside long-lived memos (parsed
# headers, compiled queries) that every collection of the older generations walks again: collecting
# less often saves about 7 % of a run's CPU on HeCBench, and no memory to speak of.
_GC_THRESHOLDS = (20_000, 50, 100)


@record
class EngineSetup:
    """Everything a worker needs to analyse a file (picklable)."""

    config: Config
    rules: tuple[type[Rule], ...]
    devices: tuple[Any, ...]  # DeviceProfile objects
    use_cache: bool = True
    plugin_errors: tuple[str, ...] = field(default=())
    timeout_s: float | None = DEFAULT_TIMEOUT_S  # per file; None: no limit
    cache_dir: str | None = None  # `--cache-dir`; None: the user's cache directory
    known_codes: frozenset[str] = frozenset()  # every code the plugins provide, and KL000 (see RuleContext)

    def context_key(self) -> str:
        rules = ",".join(f"{r.code}:{r.__module__}" for r in self.rules)
        devices = ",".join(getattr(d, "id", str(d)) for d in self.devices)
        known = ",".join(sorted(self.known_codes))
        return f"{self.config.fingerprint()}|{rules}|{devices}|{known}|cost{COST_MODEL_VERSION}"


_kl000 = Diagnostic.parse_error


def _error_result(
    entry: SourceEntry, message: str, internal: bool = False, severity: Severity = Severity.ERROR
) -> FileResult:
    return FileResult(
        entry.path, None, FileStatus.ERROR, message, (_kl000(entry.path, message, severity, internal=internal),)
    )


def analyse_source(entry: SourceEntry, data: bytes, setup: EngineSetup) -> FileResult:
    """Analyse one file's bytes (already read) within the setup's time limit; never raises."""
    try:
        with time_limit(setup.timeout_s):
            return apply_kl000_selection(_analyse(entry, data, setup), setup.config)
    except FileTimeout:
        late = _error_result(
            entry, f"analysis took longer than the {setup.timeout_s:g} s limit per file (--timeout); not analysed"
        )
        return apply_kl000_selection(late, setup.config)


def _undecodable(entry: SourceEntry, source: SourceFile, problem: DecodeProblem) -> Diagnostic:
    """Invalid UTF-8 only in comments and string literals (a Latin-1 `©` in a header, an `é` in a
    message) changes nothing analysed: an info; anywhere else it may hide code: a warning."""
    places = inert_places(source.text, "\ufffd", entry.family, entry.fixed_form)
    harmless = places is not None
    where = f", in {' and '.join(places)} only" if places else ""
    message = (
        f"invalid UTF-8 (byte 0x{problem.byte:02x}) at line {problem.line}, column {problem.column}{where}; "
        f"{problem.count} character(s) decoded as U+FFFD and analysis continued"
    )
    severity = Severity.INFO if harmless else Severity.WARNING
    return _kl000(entry.path, message, severity, problem.line, problem.column)


def _front_end_note(path: str, note: str) -> Diagnostic:
    """A KL000 info on how the file was read; marked `retry` (not cached) since an overrun depends on
    the machine's load, and the next run may not overrun."""
    return replace(_kl000(path, note, Severity.INFO), evidence={"retry": True})


def apply_kl000_selection(result: FileResult, config: Config) -> FileResult:
    """`result` without its KL000 findings when the file's config turns KL000 off (never an internal
    error: that is kernlint's bug, not the file's)."""
    if config.reports_kl000(result.path):
        return result
    return replace(
        result,
        diagnostics=tuple(
            d for d in result.diagnostics if d.code != PARSE_ERROR_RULE.code or d.evidence.get("internal")
        ),
    )


def _analyse(entry: SourceEntry, data: bytes, setup: EngineSetup) -> FileResult:
    path = entry.path
    if b"\0" in data[:8192]:
        return _error_result(entry, f"binary file (NUL byte at offset {data.index(0)}); not analysed")
    source = SourceFile(path, data)
    diagnostics: list[Diagnostic] = []
    # KL000s about how the file was read (undecodable bytes, the front-end's notes), found before any rule.
    reading = [] if source.decode_problem is None else [_undecodable(entry, source, source.decode_problem)]
    notes: list[str] = []
    try:
        parsed = source if source.decode_problem is None else SourceFile(path, decodable(source.data))
        facts = extract_facts(entry, parsed, setup.config, setup.timeout_s, notes)
    except Exception as exc:  # a front-end bug must cost one file, not the run
        interrupts.check()  # unless it is what an interrupted call raised
        return _error_result(
            entry, f"internal error while parsing: {exc!r}\n{traceback.format_exc(limit=3)}", internal=True
        )
    stopping.checkpoint()  # (the language server's worker stops a superseded analysis here, or between kernels)
    ignored = setup.config.ignored_for_file(path)
    applicable = [
        r for r in setup.rules if facts.language in r.languages and not any(r.code.startswith(p) for p in ignored)
    ]
    rules_run = frozenset(r.code for r in applicable)
    suppressions = parse_suppressions(source.text)
    # How the front-end read the file (libclang overran its time, lines it could not parse): infos,
    # suppressible like any finding.
    reading += [_front_end_note(path, note) for note in notes]
    if source.decode_problem is None:  # (undecodable bytes in code are the likelier cause, said above)
        reading += [d for d in (lost_lines_note(source, facts),) if d is not None]
    # Where an analysis stopped at one of its bounds: findings may be missing there, and the report says so.
    reading += [
        _kl000(
            path,
            limit.message,
            Severity.INFO,
            limit.span.line,
            source.char_column(limit.span.line, limit.span.column_byte),
        )
        for limit in facts.limits
    ]
    for phase in (False, True):
        found: list[Diagnostic] = [] if phase else reading  # suppressible like any finding
        for rule_class in (r for r in applicable if r.after_suppression is phase):
            rule = rule_class()
            options = {**rule_class.options, **setup.config.options_for(rule_class.code)}
            for device in setup.devices if rule_class.needs_device else (None,):
                ctx = RuleContext(
                    rule_class,
                    source,
                    facts.language,
                    device,
                    options,
                    suppressions,
                    rules_run,
                    setup.devices,
                    setup.known_codes,
                )
                try:
                    found.extend(rule.check(facts, ctx))
                except Exception as exc:
                    interrupts.check()
                    found.append(
                        _kl000(
                            path, f"internal error: rule {rule_class.code} failed on this file: {exc!r}", internal=True
                        )
                    )
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
    return FileResult(
        path,
        facts.language,
        status,
        error,
        tuple(diagnostics),
        facts.dependencies,
        coverage=file_coverage(source, facts),
    )


def analyse_file(entry: SourceEntry, setup: EngineSetup) -> FileResult:
    """Read and analyse one file (never from the cache: `analyse_files` consults it); never raises."""
    return _read_and_analyse(entry, setup)[0]


def _read_and_analyse(entry: SourceEntry, setup: EngineSetup) -> tuple[FileResult, Record | None]:
    """The file's result, and what the cache needs to recognise it later (None: not to be cached)."""
    try:
        data, status = read_stamped(entry.path)
    except ReadProblem as problem:
        # Not a source file at all (a FIFO, a device) is a note; a file that cannot be read, an error.
        unread = _error_result(entry, str(problem), severity=Severity.INFO if problem.skipped else Severity.ERROR)
        return apply_kl000_selection(unread, setup.config), None
    result = replace(analyse_source(entry, data, setup), content_digest=digest(data))
    kept = setup.use_cache and cacheable(result) and not any(d.evidence.get("retry") for d in result.diagnostics)
    return result, record_for(status, result) if kept else None


_WORKER_SETUP: EngineSetup | None = None


def _init_worker(setup: EngineSetup, parent: int) -> None:
    global _WORKER_SETUP
    exit_with_parent(parent)
    interrupts.ignore()  # Ctrl-C reaches the whole process group: the parent stops the workers
    gc.set_threshold(*_GC_THRESHOLDS)  # for the worker's whole life, which is this run
    _WORKER_SETUP = setup


def _analyse_chunk_in_worker(entries: list[SourceEntry]) -> list[tuple[FileResult, Record | None]]:
    assert _WORKER_SETUP is not None
    return [_read_and_analyse(entry, _WORKER_SETUP) for entry in entries]


def analyse_files(
    entries: list[SourceEntry], setup: EngineSetup, jobs: int | None = None, progress: Any = None
) -> list[FileResult]:
    """Analyse every entry, in order, in parallel when it pays; `progress(n)` is called per file.
    `jobs` None or 0 means one worker per CPU; more workers than CPUs are never started.

    With the cache, files unchanged since they were analysed (by their stamps, see `kernlint.cache`)
    keep their results without being read; only the others are analysed, and the index is written once.
    """
    tick = progress or (lambda _n: None)
    index, known = _read_cache(entries, setup)
    try:
        tick(sum(result is not None for result in known))
        fresh = iter(_analyse_all([e for e, r in zip(entries, known) if r is None], setup, jobs, tick))
        results: list[FileResult] = []
        for entry, result in zip(entries, known):
            if result is None:
                result, record = next(fresh)
                if index is not None and record is not None:
                    index.store(entry, result, record)
            results.append(result)
        if index is not None:
            index.save()
    finally:
        gc.unfreeze()  # what `_read_cache` froze, into the oldest generation, as anything long-lived
    return results


def _read_cache(entries: list[SourceEntry], setup: EngineSetup) -> tuple[CacheIndex | None, list[FileResult | None]]:
    """The setup's cache index and each entry's cached result (None: to analyse), read with garbage
    collection paused, then frozen (`gc.freeze`): reading makes a result's worth of objects per file,
    all kept for the run and none of them garbage, which collections would only walk again and again
    (a third of a warm run over HeCBench). The caller unfreezes them when the run is done."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        index = (
            CacheIndex(setup.config.root, setup.context_key(), cache_dir=setup.cache_dir) if setup.use_cache else None
        )
        return index, index.lookup_all(entries) if index is not None else [None] * len(entries)
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _analyse_all(
    entries: list[SourceEntry], setup: EngineSetup, jobs: int | None, tick: Callable[[int], None]
) -> list[tuple[FileResult, Record | None]]:
    """Read and analyse every entry, in order: in this process, or in a pool when there is enough to do."""
    jobs, _note = worker_count(jobs)
    results: list[tuple[FileResult, Record | None]] = []
    if jobs == 1 or len(entries) < _SERIAL_THRESHOLD or not _enough_source(entries):
        if len(entries) <= _FEW_FILES:
            from kernlint.frontends import reading_few_files

            reading_few_files()
        with _fewer_collections():
            for entry in entries:
                results.append(_read_and_analyse(entry, setup))
                tick(1)
        return results
    from concurrent.futures import ProcessPoolExecutor  # imported when a pool is started: start-up pays nothing
    from concurrent.futures.process import BrokenProcessPool

    warm_up({entry.family for entry in entries})  # compile queries once here; forked workers inherit them
    # Biggest files first, small ones in chunks (kernlint.scheduling); results go back in the files' order.
    chunks = plan_chunks(file_sizes([entry.path for entry in entries]), jobs)
    done: dict[int, tuple[FileResult, Record | None]] = {}
    # What the workers inherit (imports, compiled queries, the setup) lives for the whole run: frozen,
    # it is skipped by their garbage collections, which would otherwise walk all of it each time.
    gc.freeze()
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=_pool_context(), initializer=_init_worker, initargs=(setup, os.getpid())
    )
    try:
        work = [[entries[index] for index in chunk] for chunk in chunks]
        for chunk, analysed in zip(chunks, pool.map(_analyse_chunk_in_worker, work)):
            done.update(zip(chunk, analysed))
            tick(len(chunk))
        pool.shutdown()
    except BrokenProcessPool:
        interrupts.check()  # the workers were stopped by a signal, not by a failure
        # A worker died (e.g. killed for memory): finish the rest here, one file at a time.
        for index, entry in enumerate(entries):
            if index not in done:
                done[index] = _read_and_analyse(entry, setup)
                tick(1)
    except BaseException:  # interrupted: stop the workers now rather than let them finish the run
        _stop_workers(pool)
        raise
    finally:
        gc.unfreeze()
    return [done[index] for index in range(len(entries))]


def _stop_workers(pool: Any) -> None:
    """Drop the queued files and end the workers at once (they ignore the interrupting signal)."""
    pool.shutdown(wait=False, cancel_futures=True)
    kill = getattr(pool, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """`_GC_THRESHOLDS` in this process for the block, then the caller's own again."""
    previous = gc.get_threshold()
    gc.set_threshold(*_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def _enough_source(entries: list[SourceEntry]) -> bool:
    """Whether the files hold at least `POOL_MIN_BYTES` (counted only until they do)."""
    total = 0
    for entry in entries:
        try:
            total += os.stat(entry.path).st_size
        except OSError:
            continue
        if total >= POOL_MIN_BYTES:
            return True
    return False


def _pool_context() -> BaseContext:
    """Fork workers where that is safe (Linux; Python 3.14 would otherwise start them from a fork
    server): a forked worker starts at once with the parent's imports and compiled queries, where
    any other start method makes each worker import and compile them all again."""
    import multiprocessing

    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)


def run(
    entries: list[SourceEntry],
    setup: EngineSetup,
    jobs: int | None = None,
    progress: Any = None,
    extra_files: Iterable[FileResult] = (),
) -> RunResult:
    """Analyse files and assemble the run's result (diagnostics sorted, rules described)."""
    started = time.perf_counter()
    files = list(extra_files) + analyse_files(entries, setup, jobs, progress)
    diagnostics = sorted((d for f in files for d in f.diagnostics), key=Diagnostic.sort_key)
    devices, rules = described(setup)
    return RunResult(
        files=tuple(files),
        diagnostics=tuple(diagnostics),
        devices=devices,
        rules=rules,
        elapsed_s=round(time.perf_counter() - started, 4),
        tool_version=__version__,
    )


def described(setup: EngineSetup) -> tuple[tuple[str, ...], tuple[RuleInfo, ...]]:
    """What a run with `setup` reports it used: its devices' ids, and KL000 and its rules."""
    return tuple(getattr(d, "id", str(d)) for d in setup.devices), (PARSE_ERROR_RULE, *(r.info() for r in setup.rules))
