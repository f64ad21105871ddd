"""`--format text`: what a person reads in a terminal — location, message, code frame, occupancy
figures, notes and fixes, then a summary. Lines are built as styled parts and printed through
`kernlint.report._console`: `rich` in a terminal, plain text (the same characters) elsewhere."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TextIO

from kernlint.cost import most_expensive, total_text, totals
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, RunResult, Severity
from kernlint.report._console import Out, Styled, cell_width, out_for, strip_controls
from kernlint.report._source import SourceLines
from kernlint.rule_docs import rule_url

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


def _out(stream: TextIO, color: bool | None) -> Out:
    """A writer that colours exactly when asked, or by default when writing to a terminal, as wide as
    `COLUMNS` says, else the terminal, else (not a terminal: nothing to fit) `MIN_WIDTH`."""
    width = _columns() or (None if _is_tty(stream) else MIN_WIDTH)
    return out_for(stream, color, width)


def _headline_limit(out: Out, stream: TextIO, diagnostic: Diagnostic) -> int:
    """How much of a message fits on its finding's line: what the width leaves after the location,
    when the width is known (`COLUMNS`, a terminal); else `HEADLINE_MAX`, for a file or a pipe."""
    if _columns() is None and not _is_tty(stream):
        return HEADLINE_MAX
    used = len(strip_controls(_plain(location_line(diagnostic, ""))))
    return max(out.width - used, _HEADLINE_MIN)


def _plain(parts: Styled) -> str:
    return "".join(piece for piece, _style in parts)


HEADLINE_MAX = 120  # characters of a message on its finding's line; the rest follows below it
_HEADLINE_MIN = 40  # a clause break earlier than this would leave too little to recognise the finding
_NARROWEST = 20


_BRACKETS = re.compile(r"[()\[\]]")
_CLAUSE_BREAKS = re.compile(r"[:;] ")
_SPACES = re.compile(" ")


def _outside_brackets(text: str, positions: list[int]) -> list[int]:
    """Those of `positions` (ascending, none of them a bracket) that lie outside every (…) and […]:
    a message is only ever cut there, so no reader sees half a parenthesis. A closing bracket with
    nothing open closes nothing."""
    kept: list[int] = []
    depth = 0
    brackets = [(match.start(), match.group()) for match in _BRACKETS.finditer(text)]
    seen = 0
    for position in positions:
        while seen < len(brackets) and brackets[seen][0] < position:
            depth = max(depth - 1, 0) if brackets[seen][1] in ")]" else depth + 1
            seen += 1
        if depth == 0:
            kept.append(position)
    return kept


def headline(message: str, limit: int = HEADLINE_MAX) -> tuple[str, str]:
    """(the message's first line, at most about `limit` characters; the rest). A long first line is
    cut at its last clause break (`: ` or `; `) within the limit, else at a word, marked `…`; never
    inside parentheses or brackets (with no break outside them before the limit, at the first one
    after it). Only the terminal report shortens: JSON, SARIF and the editor keep the whole message."""
    first, _, rest = message.partition("\n")
    if len(first) <= limit:
        return first, rest
    clauses = _outside_brackets(first, [match.start() for match in _CLAUSE_BREAKS.finditer(first)])
    words = _outside_brackets(first, [match.start() for match in _SPACES.finditer(first)])
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


def location_line(diagnostic: Diagnostic, message: str | None = None) -> Styled:
    """`path:line:col: CODE [severity] message (device)`, with `message` in place of the whole
    message when given (the headline)."""
    message = diagnostic.message if message is None else message
    parts: Styled = [
        (f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}:", "bold"),
        (" ", None),
        (diagnostic.code, _SEVERITY_STYLE[diagnostic.severity]),
        (f" [{diagnostic.severity.value}] {message}", None),
    ]
    if diagnostic.device:
        parts.append((f" ({diagnostic.device})", "cyan"))
    return parts


def _expand_tabs(text: str) -> str:
    """`text` with each tab widened to the next multiple of TAB_SIZE terminal cells (wide characters
    take two cells, so `str.expandtabs`, which counts characters, would misplace the stops)."""
    if "\t" not in text:
        return text
    out: list[str] = []
    width = 0
    for character in text:
        if character == "\t":
            pad = TAB_SIZE - width % TAB_SIZE
            out.append(" " * pad)
            width += pad
        else:
            out.append(character)
            width += cell_width(character)
    return "".join(out)


def _cells(text: str) -> int:
    """How many terminal cells `text` takes once its tabs are expanded."""
    return cell_width(_expand_tabs(text))


def code_frame(diagnostic: Diagnostic, sources: SourceLines) -> Styled | None:
    """The flagged line between its neighbours, with a caret run under the flagged span."""
    lines = sources.lines(diagnostic.path)
    if lines is None or not 1 <= diagnostic.line <= len(lines):
        return None
    first = max(1, diagnostic.line - 1)
    last = min(len(lines), diagnostic.line + 1)
    gutter = len(str(last))
    frame: Styled = []
    for number in range(first, last + 1):
        source = lines[number - 1]
        frame.append((f" {number:>{gutter}} | ", "dim"))
        frame.append((_expand_tabs(source) + "\n", None))
        if number == diagnostic.line:
            # Measure in terminal cells, tabs expanded, so carets line up under tab-indented code
            # and after wide (CJK, emoji) characters.
            start = _cells(source[: diagnostic.column - 1])
            end_column = diagnostic.end_column if diagnostic.end_line == diagnostic.line else len(source) + 1
            end = _cells(source[: max(end_column, diagnostic.column) - 1])
            frame.append((f" {'':>{gutter}} | ", "dim"))
            frame.append((" " * start + "^" * max(1, end - start) + "\n", _SEVERITY_STYLE[diagnostic.severity]))
    return _rstrip(frame)


def _rstrip(parts: Styled) -> Styled:
    """`parts` without the whitespace that ends them (`rich.text.Text.rstrip`: on the text as rich
    holds it, control characters removed)."""
    parts = [(strip_controls(piece), style) for piece, style in parts]
    excess = len(_plain(parts)) - len(_plain(parts).rstrip())
    while excess and parts:
        piece, style = parts.pop()
        if len(piece) > excess:
            parts.append((piece[: len(piece) - excess], style))
            break
        excess -= len(piece)
    return parts


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


def _details(diagnostic: Diagnostic, sources: SourceLines) -> list[Styled]:
    """Everything printed under a diagnostic's location line when not quiet."""
    out: list[Styled] = []
    frame = code_frame(diagnostic, sources)
    if frame is not None:
        out.append(frame)
    occupancy = occupancy_line(diagnostic.evidence)
    if occupancy:
        out.append([("  " + occupancy, "magenta")])
    for r in diagnostic.related:
        out.append([(f"  note: {diagnostic.path}:{r.line}:{r.column}: {r.message}", "dim")])
    if diagnostic.fix is not None:
        unsafe = "" if diagnostic.fix.safe else " (unsafe)"
        out.append([(f"  fix: {diagnostic.fix.description}{unsafe}", "green")])
    out.append([(f"  docs: {rule_url(diagnostic.code, diagnostic.name)}", "dim")])
    return out


def _statistics(out: Out, result: RunResult, hidden: int = 0) -> None:
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
    out.console().print(table)
    if hidden:
        out.console().print(
            f"and {_plural(hidden, 'info')} not counted here ({_SHOW_INFOS} counts them)", soft_wrap=True
        )


MOST_EXPENSIVE_AFTER = 20  # more findings than this: the report ends by naming the three costliest


def _most_expensive(out: Out, result: RunResult) -> None:
    """The three findings that cost the most, by the ranking of `--sort cost`; a finding that costs
    nothing at run time (a spelling, a cost of 0) is never among them."""
    top = most_expensive(result.diagnostics, 3)
    if not top:
        return
    out.line(
        "Most expensive findings (estimated; --sort cost orders them all, kernlint explain PATH:LINE derives one):",
        style="bold",
    )
    for d in top:
        device = f" ({d.device})" if d.device else ""
        out.line(
            f"  {d.path}:{d.line}:{d.column}: {d.code} {d.cost.phrase()}{device}"  # type: ignore[union-attr]
        )


_NAMED_PARTIAL_FILES = 3  # partially parsed files the summary names; --show-partial-parses lists them all
_SEVERITY_COLOUR = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "blue"}


def _unanalysed(out: Out, file: FileResult) -> None:
    """A file that was not analysed, said with its KL000's severity: a file kernlint does not read
    (a FIFO, a README named on the command line) is an info, not an error."""
    severity = next((d.severity for d in file.diagnostics if d.code == "KL000"), Severity.ERROR)
    out.line(
        f"{severity.value}: {file.path}: {file.error or 'could not be analysed'}",
        style=_SEVERITY_COLOUR[severity],
    )


_NAMED_UNRESOLVED = 3  # launches of unseen kernels the summary names; the JSON report lists them all


def _kernels_seen(out: Out, result: RunResult, coverage: dict[str, int]) -> None:
    """`Analysed N kernels in M files.`, and the launches whose kernel kernlint did not see (the
    first few with why), so that a quiet report over code it could not follow says so."""
    if not coverage["launches"] and not coverage["kernels"]:
        return
    out.line(
        f"Analysed {_plural(coverage['kernels_analysed'], 'kernel')} in "
        f"{_plural(coverage['files_with_kernels'], 'file')}.",
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
    out.line(
        f"{_plural(len(unresolved), 'launch').replace('launchs', 'launches')} in {_plural(files, 'file')} "
        f"{'runs a kernel' if one else 'run kernels'} kernlint did not see, so nothing in "
        f"{'it' if one else 'them'} was checked:",
        style="yellow",
    )
    for path, launch in unresolved[:_NAMED_UNRESOLVED]:
        out.line(f"  {path}:{launch.line}:{launch.column}: {launch.reason}", style="yellow")
    if len(unresolved) > _NAMED_UNRESOLVED:
        more = len(unresolved) - _NAMED_UNRESOLVED
        out.line(
            f"  and {more} more (`--format json` lists them under `coverage`)",
            style="yellow",
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
    out: Out, result: RunResult, show_partial: bool = False, every: tuple[Diagnostic, ...] | None = None
) -> None:
    """Unanalysable files, partially parsed files (named), then one closing count and the fixes.
    `every`: all the run's findings when the report lists only some (the infos it leaves out are
    counted here, and their fixes with the others)."""
    every = result.diagnostics if every is None else every
    hidden = len(every) - len(result.diagnostics)
    for file in result.files:
        if file.status is FileStatus.ERROR:
            _unanalysed(out, file)
    partial = [file for file in result.files if file.status is FileStatus.PARTIAL]
    if show_partial:
        for file in partial:
            out.line(f"partial: {file.path}: {file.error or 'syntax errors'}", style="yellow")
    if partial:
        line = f"{_plural(len(partial), 'file')} parsed with syntax errors; results there may be incomplete"
        if not show_partial:
            named = ", ".join(file.path for file in partial[:_NAMED_PARTIAL_FILES])
            more = len(partial) - _NAMED_PARTIAL_FILES
            line += f": {named}" + (f" and {more} more (--show-partial-parses lists them)" if more > 0 else "")
        out.line(line, style="yellow")
    checked = _plural(len(result.files), "file")
    infos = f"{_plural(hidden, 'info')} ({_SHOW_INFOS} lists {'it' if hidden == 1 else 'them'})"
    coverage = result.coverage()
    _kernels_seen(out, result, coverage)
    if not result.diagnostics:
        if not any(file.status is not FileStatus.ERROR for file in result.files):
            out.line("No files were checked.", style="bold yellow")
        elif not coverage["kernels_analysed"] and (coverage["launches"] or coverage["kernels"]):
            # Nothing was looked at: a clean bill of health would be the worst answer.
            out.line(
                f"No kernel was analysed in {checked}: no finding does not mean no problem.",
                style="bold yellow",
            )
        else:
            them = "it" if len(result.files) == 1 else "them"
            known = any(file.coverage is not None for file in result.files)
            none = known and not coverage["launches"] and not coverage["kernels"]
            found = f"; no kernel was found in {them}" if none else ""
            tail = f", with {infos}" if hidden else ""
            out.line(f"All checks passed ({checked}{found}){tail}.", style="bold green")
        fixable = _fixable(every)
        if fixable:
            out.line(fixable)
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
    out.line(
        f"Found {_plural(len(result.diagnostics), 'diagnostic')} ({counts}) in {with_findings} of {checked}{tail}.",
        style="bold",
    )
    fixable = _fixable(every)
    if fixable:
        out.line(fixable)


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
    out = _out(stream, color)
    every = result.diagnostics
    if show_infos is not None:
        listed = tuple(d for d in every if d.severity is not Severity.INFO or show_infos(d.path))
        result = replace(result, diagnostics=listed)
    hidden = len(every) - len(result.diagnostics)
    if statistics and (result.diagnostics or hidden):
        _statistics(out, result, hidden)
        out.close()
        return
    lines = SourceLines(sources)
    for diagnostic in result.diagnostics:
        head, rest = headline(diagnostic.message, _headline_limit(out, stream, diagnostic))
        out.styled(location_line(diagnostic, head))
        if concise:
            continue
        for line in rest.splitlines():
            out.line("  " + line)
        if not quiet:
            for part in _details(diagnostic, lines):
                out.styled(part)
    if not quiet:
        if result.diagnostics:
            out.line()
        if len(result.diagnostics) > MOST_EXPENSIVE_AFTER and not concise:
            _most_expensive(out, result)
        _summary(out, result, show_partial, every)
    out.close()
