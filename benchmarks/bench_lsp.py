"""How long an editor waits for diagnostics after an edit: a real `kernlint lsp` driven over stdio.

Run by hand: `python benchmarks/bench_lsp.py [FILE] [--edits N]`. The file (default: a generated SYCL
file of about 1,000 lines, as `bench_speed.py` makes) is opened, then edited N times, each edit one
line gaining a comment somewhere in the file, sent as the editor sends it (`textDocument/didChange`,
the whole text). A `--burst K` edit is K keystrokes 40 ms apart, the wait counted from the last one.
The time of each edit is from sending its last change to receiving the diagnostics published for
that version: the debounce, the analysis and the round trips, everything the user waits for.
`--statement-at LINE` makes each edit a statement typed in host code instead (`int kernlint_edit_N = N;`
inserted before line LINE, counted from 1, e.g. inside `main` above the launches): the edit that
re-analyses every kernel below it. `--typed-at LINE` types statements one character per edit instead,
on a new line before LINE (`--typed TEXT`, by default `TYPED`, `int kernlint_n0 = f(a, 0);`, then the
next one on a line of its own as long as edits last, `{i}` counting them): the edit a user makes most,
where almost every version has a syntax error until the `;`. Its edits default to one statement's
characters. The versions whose tree (of the text as sent) has a syntax error, those without one, and
those where a statement was just finished (`;` typed: where a user pauses) are also printed apart.
Printed: the median and the slowest, against the target of issue 24 (100 ms). `--trace` also prints
where the wait went, the median of each step of a timed edit, from the timestamps the server and its
worker write (`kernlint.lsp.trace`), with the analysis split where the worker analysed components at
once in forked children (`kernlint.fanout`: before forking, its own share, waiting for the children,
after collecting). Timings are printed, never asserted; standard library and kernlint only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from queue import Empty, Queue

from bench_speed import LSP_FILE_LINES
from bench_throughput import TEMPLATE

from kernlint.lsp.trace import TRACE

KEYSTROKE_GAP_S = 0.04
TYPED = "int kernlint_n{i} = f(a, {i});"  # typed by `--typed-at`, statement i of the edits
# The steps of one analysis, in order, as the server and worker mark them (`kernlint.lsp.trace`); the
# bench adds the client's own "edited" (last change sent) and "arrived" (diagnostics read).
STEPS = (
    ("edited", "changed", "client to server"),
    ("changed", "start", "debounce and queue"),
    ("start", "send", "request built"),
    ("send", "worker-received", "request to worker"),
    ("worker-received", "worker-analysed", "analysis"),
    ("worker-analysed", "received", "result to server"),
    ("received", "converted", "diagnostics converted"),
    ("converted", "published", "diagnostics written"),
    ("published", "arrived", "server to client"),
)
# Within the analysis, where the worker analysed the components an edit invalidated at once in forked
# children (`kernlint.fanout`): its first such map of each analysis.
FANOUT_STEPS = (
    ("worker-received", "fanout-forked", "before forking"),
    ("fanout-forked", "fanout-shared", "worker's own share"),
    ("fanout-shared", "fanout-collected", "waiting for children"),
    ("fanout-collected", "worker-analysed", "after collecting"),
)


class Server:
    """`kernlint lsp` on stdio: Content-Length framed JSON-RPC, what it publishes kept in a queue."""

    def __init__(self, cwd: Path, trace: Path | None = None) -> None:
        script = Path(sys.executable).with_name("kernlint")
        command = [str(script), "lsp"] if script.exists() else [sys.executable, "-m", "kernlint", "lsp"]
        env = {**os.environ, TRACE: str(trace)} if trace else None
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self.published: Queue[tuple[float, dict]] = Queue()
        self.replies: Queue[dict] = Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    return
                header += byte
            length = next(
                int(line.split(b":")[1]) for line in header.split(b"\r\n") if line.lower().startswith(b"content-length")
            )
            message = json.loads(stream.read(length))
            if message.get("method") == "textDocument/publishDiagnostics":
                self.published.put((time.monotonic(), message["params"]))
            elif "id" in message and "method" not in message:
                self.replies.put(message)

    def send(self, payload: dict) -> float:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return time.monotonic()

    def diagnostics_of(self, version: int, timeout: float = 60) -> tuple[float, list[dict]]:
        """When the diagnostics of `version` arrived, and what they were (older versions' are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                when, params = self.published.get(timeout=max(0.01, deadline - time.monotonic()))
            except Empty:
                raise SystemExit(f"no diagnostics for version {version} within {timeout} s") from None
            if params.get("version") == version:
                return when, params["diagnostics"]

    def close(self) -> None:
        self.send({"id": 99, "method": "shutdown", "params": None})
        self.send({"method": "exit", "params": None})
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def generated_file(folder: Path) -> Path:
    """A SYCL file of about `LSP_FILE_LINES` lines of kernels (bench_throughput's template)."""
    parts, lines, index = [], 0, 0
    while lines < LSP_FILE_LINES:
        part = TEMPLATE.format(i=index, wg=64 << (index % 3))
        parts.append(part)
        lines += part.count("\n")
        index += 1
    path = folder / "lsp_kernels.cpp"
    path.write_text("\n".join(parts))
    return path


def typed(edits: int, statement: str = TYPED) -> str:
    """What `--typed-at` has typed after `edits` keystrokes: `statement`s, one a line."""
    stream, index = "", 0
    while len(stream) < edits:
        stream += ("\n" if stream else "") + statement.replace("{i}", str(index))
        index += 1
    return stream[:edits]


def edited(
    lines: list[str], edit: int, key: int, burst: int, statement_at: int | None, typed_at: int | None, statement: str
) -> str:
    """The text of edit `edit`'s `key`-th keystroke of `burst` (see the module docstring)."""
    if typed_at is not None:
        at = typed_at - 1
        return "".join(lines[:at]) + typed(edit * burst + key + 1, statement) + "\n" + "".join(lines[at:])
    at = (edit * 37) % len(lines) if statement_at is None else statement_at - 1
    if statement_at is None:
        inserted = f"// edit {edit}{'x' * key}\n"
    else:
        inserted = f"int kernlint_edit_{edit}{'x' * key} = {edit};\n"
    return "".join(lines[:at]) + inserted + "".join(lines[at:])


def measure(
    path: Path,
    edits: int,
    burst: int,
    trace: Path | None = None,
    statement_at: int | None = None,
    typed_at: int | None = None,
    statement: str = TYPED,
) -> tuple[list[float], dict[int, dict], list[str]]:
    """Seconds from each edit's last change to its diagnostics, each timed version's client-side
    marks (monotonic ns: "edited", "arrived") and each timed version's text. With `statement_at`, each
    edit inserts a statement before that line (from 1) instead of a comment line; with `typed_at`, it
    types one more character of `statement`s on a new line before that line."""
    server = Server(path.parent, trace)
    uri = path.resolve().as_uri()
    lines = path.read_text().splitlines(keepends=True)
    server.send(
        {"id": 1, "method": "initialize", "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}}}
    )
    server.replies.get(timeout=60)
    server.send({"method": "initialized", "params": {}})
    server.send(
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": "".join(lines)}},
        }
    )
    server.diagnostics_of(1)
    waits, version, texts = [], 1, []
    marks: dict[int, dict] = {}
    try:
        for edit in range(edits):
            for key in range(burst):
                version += 1
                text = edited(lines, edit, key, burst, statement_at, typed_at, statement)
                sent = server.send(
                    {
                        "method": "textDocument/didChange",
                        "params": {
                            "textDocument": {"uri": uri, "version": version},
                            "contentChanges": [{"text": text}],
                        },
                    }
                )
                if key < burst - 1:
                    time.sleep(KEYSTROKE_GAP_S)
            arrived, _diagnostics = server.diagnostics_of(version)
            waits.append(arrived - sent)
            texts.append(text)
            marks[version] = {"edited": int(sent * 1e9), "arrived": int(arrived * 1e9)}
    finally:
        server.close()
    return waits, marks, texts


def with_syntax_error(text: str) -> bool:
    """Whether tree-sitter's C++ parse of `text` (as sent, before kernlint's own rewriting) has an
    error or a missing node."""
    from kernlint.frontends.common import treesitter

    return treesitter.parser("cpp").parse(text.encode()).root_node.has_error


def breakdown(trace: Path, name: str, marks: dict[int, dict]) -> list[str]:
    """The median milliseconds of each step of the timed edits, from the trace and the client's marks;
    then how many analyses were stopped at a checkpoint and how many workers were started (more than
    one: a superseded analysis reached no checkpoint in time, and its worker was ended)."""
    events: dict[str, int] = {}
    for line in trace.read_text().splitlines():
        when, event, label = line.split(" ", 2)
        events[event] = events.get(event, 0) + 1
        stem, _, version = label.rpartition("-")
        if stem == name and int(version) in marks:
            marks[int(version)].setdefault(event, int(when))
    rows = []
    for first, then, what in STEPS:
        rows += _step_rows(marks, first, then, what, "  ")
        if then == "worker-analysed":
            rows += [row for step in FANOUT_STEPS for row in _step_rows(marks, *step, "    ")]
    forked = [m for m in marks.values() if "fanout-forked" in m]
    if forked:
        children = sorted(int(event.rsplit("-", 1)[1]) for event in events if event.startswith("fanout-children-"))
        rows.append(
            f"  components at once in {len(forked)} of {len(marks)} timed analyses; children per map "
            f"{children[0]}-{children[-1]}"
        )
    rows.append(
        f"  analyses finished {events.get('worker-analysed', 0)}, stopped at a checkpoint "
        f"{events.get('worker-stopped', 0)}; workers started {events.get('worker-started', 0)}"
    )
    return rows


def _step_rows(marks: dict[int, dict], first: str, then: str, what: str, indent: str) -> list[str]:
    """The median and slowest of one step over the timed edits that passed both its ends."""
    spans = [(m[then] - m[first]) / 1e6 for m in marks.values() if first in m and then in m]
    if not spans:
        return []
    median, slowest = statistics.median(spans), max(spans)
    return [f"{indent}{what:<{26 - len(indent)}} median {median:6.1f} ms, slowest {slowest:6.1f} ms"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", help="the file to edit (default: a generated 1,000-line SYCL file)")
    parser.add_argument(
        "--edits", type=int, help="edits to time (default 21; with --typed-at, one statement's characters)"
    )
    parser.add_argument("--burst", type=int, default=1, help="keystrokes per edit, 40 ms apart (default 1)")
    parser.add_argument(
        "--statement-at", type=int, metavar="LINE", help="each edit a statement inserted before LINE (from 1)"
    )
    parser.add_argument(
        "--typed-at",
        type=int,
        metavar="LINE",
        help="each edit one more character of a statement typed on a new line before LINE (from 1)",
    )
    parser.add_argument("--typed", default=TYPED, metavar="TEXT", help=f"the statement --typed-at types ({TYPED})")
    parser.add_argument("--trace", action="store_true", help="also print where the wait went, step by step")
    args = parser.parse_args()
    if args.edits is None:
        args.edits = len(args.typed.replace("{i}", "0")) if args.typed_at is not None else 21
    with tempfile.TemporaryDirectory(prefix="kernlint-lsp-") as temp:
        folder = Path(temp)
        if args.file:
            path = folder / Path(args.file).name
            path.write_bytes(Path(args.file).read_bytes())
        else:
            path = generated_file(folder)
        lines = len(path.read_text().splitlines())
        trace = folder / "trace.txt" if args.trace else None
        waits, marks, texts = measure(path, args.edits, args.burst, trace, args.statement_at, args.typed_at, args.typed)
        steps = breakdown(trace, path.name, marks) if trace and trace.exists() else []
    median, slowest = statistics.median(waits) * 1000, max(waits) * 1000
    verdict = "met" if median <= 100 else "MISSED"
    where = "" if args.statement_at is None else f", a statement before line {args.statement_at}"
    if args.typed_at is not None:
        where = f", {args.typed!r} typed a character an edit before line {args.typed_at}"
    print(f"{path.name} ({lines} lines), {args.edits} edits of {args.burst} keystroke(s){where}")
    print(f"diagnostics after an edit: median {median:.0f} ms, slowest {slowest:.0f} ms (target <= 100 ms) {verdict}")
    if args.typed_at is not None:
        broken = [wait * 1000 for wait, text in zip(waits, texts, strict=True) if with_syntax_error(text)]
        whole = [wait * 1000 for wait, text in zip(waits, texts, strict=True) if not with_syntax_error(text)]
        finished = [
            wait * 1000 for k, wait in enumerate(waits) if typed((k + 1) * args.burst, args.typed).endswith(";")
        ]
        for what, group in (("with a syntax error", broken), ("without", whole), ("ending a statement", finished)):
            if group:
                print(
                    f"  {len(group)} versions {what}: median {statistics.median(group):.0f} ms, "
                    f"slowest {max(group):.0f} ms"
                )
    if steps:
        print("where the wait went (each step's median and slowest over the timed edits):")
        print("\n".join(steps))


if __name__ == "__main__":
    main()
