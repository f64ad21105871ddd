"""`--format text`: what a person reads in a terminal — location, message, code frame, occupancy
figures, notes and fixes, then a summary. `rich` is imported on use so other formats start fast."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from kernlint.cost import most_expensive, total_text, totals
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, RunResult, Severity
from kernlint.report._source import SourceLines
from kernlint.rule_docs import rule_url

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

MIN_WIDTH = 100
TAB_SIZE = 4
_SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold blue"}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _is_tty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _columns() -> int | None:
    """`COLUMNS` when it holds a usable width (a narrower terminal would fit nothing), else None."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        return None
    return columns if columns >= _NARROWEST else None


def _console(stream: TextIO, color: bool | None) -> Console:
    """A console that colours exactly when asked, or by default when writing to a terminal, as wide as
    `COLUMNS` says, else the terminal, else (not a terminal: nothing to fit) `MIN_WIDTH`."""
    from rich.console import Console

    if color is None:  # rich decides from the stream and NO_COLOR / FORCE_COLOR
        modes: dict[str, Any] = {"force_terminal": None, "no_color": None, "color_system": "auto"}
    elif color:  # an explicit request colours even a pipe or TERM=dumb
        modes = {"force_terminal": True, "no_color": False, "color_system": "standard"}
    else:
        modes = {"force_terminal": False, "no_color": True, "color_system": None}
    width = _columns() or (None if _is_tty(stream) else MIN_WIDTH)
    return Console(file=stream, width=width, markup=False, highlight=False, emoji=False, **modes)


def _headline_limit(console: Console, stream: TextIO, diagnostic: Diagnostic) -> int:
    """How much of a message fits on its finding's line: what the width leaves after the location,
    when the width is known (`COLUMNS`, a terminal); else `HEADLINE_MAX`, for a file or a pipe."""
    if _columns() is None and not _is_tty(stream):
        return HEADLINE_MAX
    used = len(location_line(diagnostic, "").plain)
    return max(console.width - used, _HEADLINE_MIN)


HEADLINE_MAX = 120  # characters of a message on its finding's line; the rest follows below it
_HEADLINE_MIN = 40  # a clause break earlier than this would leave too little to recognise the finding
_NARROWEST = 20


def _depth_zero(text: str) -> list[bool]:
    """For each position of `text`, whether it lies outside every (…) and […]: a message is only
    ever cut there, so no reader sees half a parenthesis."""
    outside: list[bool] = []
    depth = 0
    for character in text:
        if character in ")]":
            depth = max(depth - 1, 0)
        outside.append(depth == 0)
        if character in "([":
            depth += 1
    return outside


def headline(message: str, limit: int = HEADLINE_MAX) -> tuple[str, str]:
    """(the message's first line, at most about `limit` characters; the rest). A long first line is
    cut at its last clause break (`: ` or `; `) within the limit, else at a word, marked `…`; never
    inside parentheses or brackets (with no break outside them before the limit, at the first one
    after it). Only the terminal report shortens: JSON, SARIF and the editor keep the whole message."""
    first, _, rest = message.partition("\n")
    if len(first) <= limit:
        return first, rest
    outside = _depth_zero(first)
    clauses = [i for i in range(len(first) - 1) if first[i : i + 2] in (": ", "; ") and outside[i]]
    words = [i for i in range(len(first)) if first[i] == " " and outside[i]]
    clause = max((i for i in clauses if _HEADLINE_MIN <= i < limit - 1), default=-1)
    word = max((i for i in words if _HEADLINE_MIN <= i < limit - 1), default=-1)
    if clause < 0 and word < 0:  # no break outside brackets before the limit: the first one after it
        later = [i for i in clauses + words if i >= limit - 1]
        if not later:
            return first, rest
        first_later = min(later)
        clause, word = (first_later, -1) if first_later in clauses else (-1, first_later)
    if clause >= 0:
        head, tail = first[:clause], first[clause + 2 :]
    else:
        head, tail = first[:word].rstrip() + " …", "… " + first[word:].lstrip()
    return head, tail + ("\n" + rest if rest else "")


def location_line(diagnostic: Diagnostic, message: str | None = None) -> Text:
    """`path:line:col: CODE [severity] message (device)`, with `message` in place of the whole
    message when given (the headline)."""
    from rich.text import Text

    message = diagnostic.message if message is None else message
    text = Text()
    text.append(f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}:", style="bold")
    text.append(" ")
    text.append(diagnostic.code, style=_SEVERITY_STYLE[diagnostic.severity])
    text.append(f" [{diagnostic.severity.value}] {message}")
    if diagnostic.device:
        text.append(f" ({diagnostic.device})", style="cyan")
    return text


def _expand_tabs(text: str) -> str:
    """`text` with each tab widened to the next multiple of TAB_SIZE terminal cells (wide characters
    take two cells, so `str.expandtabs`, which counts characters, would misplace the stops)."""
    if "\t" not in text:
        return text
    from rich.cells import cell_len

    out: list[str] = []
    width = 0
    for character in text:
        if character == "\t":
            pad = TAB_SIZE - width % TAB_SIZE
            out.append(" " * pad)
            width += pad
        else:
            out.append(character)
            width += cell_len(character)
    return "".join(out)


def _cells(text: str) -> int:
    """How many terminal cells `text` takes once its tabs are expanded."""
    from rich.cells import cell_len

    return cell_len(_expand_tabs(text))


def code_frame(diagnostic: Diagnostic, sources: SourceLines) -> Text | None:
    """The flagged line between its neighbours, with a caret run under the flagged span."""
    from rich.text import Text

    lines = sources.lines(diagnostic.path)
    if lines is None or not 1 <= diagnostic.line <= len(lines):
        return None
    first = max(1, diagnostic.line - 1)
    last = min(len(lines), diagnostic.line + 1)
    gutter = len(str(last))
    frame = Text()
    for number in range(first, last + 1):
        source = lines[number - 1]
        frame.append(f" {number:>{gutter}} | ", style="dim")
        frame.append(_expand_tabs(source) + "\n")
        if number == diagnostic.line:
            # Measure in terminal cells, tabs expanded, so carets line up under tab-indented code
            # and after wide (CJK, emoji) characters.
            start = _cells(source[: diagnostic.column - 1])
            end_column = diagnostic.end_column if diagnostic.end_line == diagnostic.line else len(source) + 1
            end = _cells(source[: max(end_column, diagnostic.column) - 1])
            frame.append(f" {'':>{gutter}} | ", style="dim")
            frame.append(" " * start + "^" * max(1, end - start) + "\n", style=_SEVERITY_STYLE[diagnostic.severity])
    frame.rstrip()
    return frame


_UNIT_NAMES = {"xe-core": "Xe-core", "sm": "SM"}


def _occupancy_figures(evidence: dict[str, Any]) -> dict[str, Any] | None:
    """The occupancy model's figures, whether a rule put them at the top level or under `occupancy`."""
    keys = ("occupancy_pct", "limiter", "work_groups_per_unit")
    for candidate in (evidence, evidence.get("occupancy")):
        if isinstance(candidate, dict) and any(candidate.get(k) is not None for k in keys):
            return candidate
    return None


def occupancy_line(evidence: dict[str, Any]) -> str | None:
    """`occupancy: 57.1% (limit: threads, 2 work-groups per xe-core)`, or None without figures."""
    figures = _occupancy_figures(evidence)
    if figures is None:
        return None
    if figures.get("valid") is False:
        error = figures.get("error")
        return f"occupancy: the launch cannot run ({error})" if error else "occupancy: the launch cannot run"
    pct = figures.get("occupancy_pct")
    head = f"occupancy: {pct:.1f}%" if isinstance(pct, (int, float)) else "occupancy:"
    details = []
    if figures.get("limiter") is not None:
        details.append(f"limit: {figures['limiter']}")
    groups = figures.get("work_groups_per_unit")
    if groups is not None:
        unit_id = str(figures.get("unit") or "unit")
        unit = _UNIT_NAMES.get(unit_id, unit_id)
        details.append(f"{groups} work-group{'' if groups == 1 else 's'} per {unit}")
    return f"{head} ({', '.join(details)})" if details else head


def _details(diagnostic: Diagnostic, sources: SourceLines) -> list[Text]:
    """Everything printed under a diagnostic's location line when not quiet."""
    from rich.text import Text

    out: list[Text] = []
    frame = code_frame(diagnostic, sources)
    if frame is not None:
        out.append(frame)
    occupancy = occupancy_line(diagnostic.evidence)
    if occupancy:
        out.append(Text("  " + occupancy, style="magenta"))
    for r in diagnostic.related:
        out.append(Text(f"  note: {diagnostic.path}:{r.line}:{r.column}: {r.message}", style="dim"))
    if diagnostic.fix is not None:
        unsafe = "" if diagnostic.fix.safe else " (unsafe)"
        out.append(Text(f"  fix: {diagnostic.fix.description}{unsafe}", style="green"))
    out.append(Text(f"  docs: {rule_url(diagnostic.code, diagnostic.name)}", style="dim"))
    return out


def _statistics(console: Console, result: RunResult, hidden: int = 0) -> None:
    """Counts per code, most frequent first, like ruff's --statistics."""
    from rich import box
    from rich.table import Table

    counts = Counter(d.code for d in result.diagnostics)
    names = {rule.code: rule.name for rule in result.rules}
    for d in result.diagnostics:
        names.setdefault(d.code, d.name)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("code")
    table.add_column("name")
    costs = totals(result.diagnostics)
    if costs:
        table.add_column("estimated cost (sum)")
    table.add_column("count", justify="right")
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        cost = [total_text(costs[code]) if code in costs else ""] if costs else []
        table.add_row(code, names[code], *cost, str(count))
    console.print(table)
    if hidden:
        console.print(f"and {_plural(hidden, 'info')} not counted here ({_SHOW_INFOS} counts them)", soft_wrap=True)


MOST_EXPENSIVE_AFTER = 20  # more findings than this: the report ends by naming the three costliest


def _most_expensive(console: Console, result: RunResult) -> None:
    """The three findings that cost the most, by the ranking of `--sort cost`; a finding that costs
    nothing at run time (a spelling, a cost of 0) is never among them."""
    top = most_expensive(result.diagnostics, 3)
    if not top:
        return
    console.print(
        "Most expensive findings (estimated; --sort cost orders them all, kernlint explain PATH:LINE derives one):",
        style="bold",
        soft_wrap=True,
    )
    for d in top:
        device = f" ({d.device})" if d.device else ""
        console.print(
            f"  {d.path}:{d.line}:{d.column}: {d.code} {d.cost.phrase()}{device}",  # type: ignore[union-attr]
            soft_wrap=True,
        )


_NAMED_PARTIAL_FILES = 3  # partially parsed files the summary names; --show-partial-parses lists them all
_SEVERITY_COLOUR = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "blue"}


def _unanalysed(console: Console, file: FileResult) -> None:
    """A file that was not analysed, said with its KL000's severity: a file kernlint does not read
    (a FIFO, a README named on the command line) is an info, not an error."""
    severity = next((d.severity for d in file.diagnostics if d.code == "KL000"), Severity.ERROR)
    console.print(
        f"{severity.value}: {file.path}: {file.error or 'could not be analysed'}",
        style=_SEVERITY_COLOUR[severity],
        soft_wrap=True,
    )


_NAMED_UNRESOLVED = 3  # launches of unseen kernels the summary names; the JSON report lists them all


def _kernels_seen(console: Console, result: RunResult, coverage: dict[str, int]) -> None:
    """`Analysed N kernels in M files.`, and the launches whose kernel kernlint did not see (the
    first few with why), so that a quiet report over code it could not follow says so."""
    if not coverage["launches"] and not coverage["kernels"]:
        return
    console.print(
        f"Analysed {_plural(coverage['kernels_analysed'], 'kernel')} in "
        f"{_plural(coverage['files_with_kernels'], 'file')}.",
        soft_wrap=True,
    )
    unresolved = [
        (file.path, launch)
        for file in result.files
        if file.coverage is not None
        for launch in file.coverage.unresolved_launches
    ]
    if not unresolved:
        return
    files = coverage["files_with_unresolved_launches"]
    one = len(unresolved) == 1
    console.print(
        f"{_plural(len(unresolved), 'launch').replace('launchs', 'launches')} in {_plural(files, 'file')} "
        f"{'runs a kernel' if one else 'run kernels'} kernlint did not see, so nothing in "
        f"{'it' if one else 'them'} was checked:",
        style="yellow",
        soft_wrap=True,
    )
    for path, launch in unresolved[:_NAMED_UNRESOLVED]:
        console.print(f"  {path}:{launch.line}:{launch.column}: {launch.reason}", style="yellow", soft_wrap=True)
    if len(unresolved) > _NAMED_UNRESOLVED:
        more = len(unresolved) - _NAMED_UNRESOLVED
        console.print(
            f"  and {more} more (`--format json` lists them under `coverage`)", style="yellow", soft_wrap=True
        )


def _fixable(diagnostics: tuple[Diagnostic, ...]) -> str | None:
    """`[*] 3 fixable with `--fix` (1 more with `--unsafe-fixes`)`, as ruff says it; None without fixes.
    Counted over every finding, listed or not: `--fix` applies the fixes of unlisted infos too."""
    safe = sum(1 for d in diagnostics if d.fix is not None and d.fix.safe)
    unsafe = sum(1 for d in diagnostics if d.fix is not None and not d.fix.safe)
    if safe:
        more = f" ({unsafe} more with `--fix --unsafe-fixes`)" if unsafe else ""
        return f"[*] {safe} fixable with `--fix`{more}"
    if unsafe:
        return f"{unsafe} fixable with `--fix --unsafe-fixes`"
    return None


_SHOW_INFOS = "--show-infos"


def _summary(
    console: Console, result: RunResult, show_partial: bool = False, every: tuple[Diagnostic, ...] | None = None
) -> None:
    """Unanalysable files, partially parsed files (named), then one closing count and the fixes.
    `every`: all the run's findings when the report lists only some (the infos it leaves out are
    counted here, and their fixes with the others)."""
    every = result.diagnostics if every is None else every
    hidden = len(every) - len(result.diagnostics)
    for file in result.files:
        if file.status is FileStatus.ERROR:
            _unanalysed(console, file)
    partial = [file for file in result.files if file.status is FileStatus.PARTIAL]
    if show_partial:
        for file in partial:
            console.print(f"partial: {file.path}: {file.error or 'syntax errors'}", style="yellow", soft_wrap=True)
    if partial:
        line = f"{_plural(len(partial), 'file')} parsed with syntax errors; results there may be incomplete"
        if not show_partial:
            named = ", ".join(file.path for file in partial[:_NAMED_PARTIAL_FILES])
            more = len(partial) - _NAMED_PARTIAL_FILES
            line += f": {named}" + (f" and {more} more (--show-partial-parses lists them)" if more > 0 else "")
        console.print(line, style="yellow", soft_wrap=True)
    checked = _plural(len(result.files), "file")
    infos = f"{_plural(hidden, 'info')} ({_SHOW_INFOS} lists {'it' if hidden == 1 else 'them'})"
    coverage = result.coverage()
    _kernels_seen(console, result, coverage)
    if not result.diagnostics:
        if not any(file.status is not FileStatus.ERROR for file in result.files):
            console.print("No files were checked.", style="bold yellow", soft_wrap=True)
        elif not coverage["kernels_analysed"] and (coverage["launches"] or coverage["kernels"]):
            # Nothing was looked at: a clean bill of health would be the worst answer.
            console.print(
                f"No kernel was analysed in {checked}: no finding does not mean no problem.",
                style="bold yellow",
                soft_wrap=True,
            )
        else:
            them = "it" if len(result.files) == 1 else "them"
            known = any(file.coverage is not None for file in result.files)
            none = known and not coverage["launches"] and not coverage["kernels"]
            found = f"; no kernel was found in {them}" if none else ""
            tail = f", with {infos}" if hidden else ""
            console.print(f"All checks passed ({checked}{found}){tail}.", style="bold green", soft_wrap=True)
        fixable = _fixable(every)
        if fixable:
            console.print(fixable, soft_wrap=True)
        return
    by_severity = Counter(d.severity for d in result.diagnostics)
    counts = ", ".join(
        _plural(by_severity[severity], word)
        for severity, word in ((Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "info"))
    )
    if hidden:
        counts = counts.replace(", 0 infos", "")
    with_findings = len({d.path for d in result.diagnostics})
    tail = f", and {infos}" if hidden else ""
    console.print(
        f"Found {_plural(len(result.diagnostics), 'diagnostic')} ({counts}) in {with_findings} of {checked}{tail}.",
        style="bold",
        soft_wrap=True,
    )
    fixable = _fixable(every)
    if fixable:
        console.print(fixable, soft_wrap=True)


def render(
    result: RunResult,
    stream: TextIO,
    *,
    color: bool | None = None,
    statistics: bool = False,
    quiet: bool = False,
    concise: bool = False,
    show_partial: bool = False,
    sources: Mapping[str, bytes] | None = None,
    show_infos: Callable[[str], bool] | None = None,
) -> None:
    """Write the report. `statistics` writes the count per code instead of the findings; `concise`
    one line per finding; `quiet` keeps only the finding lines (or the statistics table).
    `show_infos` says, per file, whether its infos are listed; those it leaves out are counted in the
    summary (None: every finding is listed)."""
    from rich.text import Text

    console = _console(stream, color)
    every = result.diagnostics
    if show_infos is not None:
        listed = tuple(d for d in every if d.severity is not Severity.INFO or show_infos(d.path))
        result = replace(result, diagnostics=listed)
    hidden = len(every) - len(result.diagnostics)
    if statistics and (result.diagnostics or hidden):
        _statistics(console, result, hidden)
        return
    lines = SourceLines(sources)
    for diagnostic in result.diagnostics:
        head, rest = headline(diagnostic.message, _headline_limit(console, stream, diagnostic))
        console.print(location_line(diagnostic, head), soft_wrap=True)
        if concise:
            continue
        for line in rest.splitlines():
            console.print(Text("  " + line), soft_wrap=True)
        if not quiet:
            for part in _details(diagnostic, lines):
                console.print(part, soft_wrap=True)
    if not quiet:
        if result.diagnostics:
            console.print()
        if len(result.diagnostics) > MOST_EXPENSIVE_AFTER and not concise:
            _most_expensive(console, result)
        _summary(console, result, show_partial, every)
