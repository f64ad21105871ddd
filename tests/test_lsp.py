"""`kernlint lsp` end to end: a real server process, spoken to over stdio in JSON-RPC by the test."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kernlint.lsp.worker import TEST_GATE
from lsp_client import Client

LOOP = """#include <sycl/sycl.hpp>
void g(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
  q.wait(); // kernlint: ignore[KL101]
}
"""
FIXED = LOOP.replace(
    "  for (int i = 0; i < 4; ++i) {\n    sycl::buffer<float> b(p, sycl::range<1>(16));\n  }\n",
    "  sycl::buffer<float> b(p, sycl::range<1>(16));\n",
).replace(" // kernlint: ignore[KL101]", "")


@pytest.fixture
def client(tmp_path: Path):
    c = Client(tmp_path)
    init = c.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
    assert init["result"]["serverInfo"]["name"] == "kernlint"
    c.notify("initialized", {})
    yield c
    c.close()


def test_open_change_save_hover_and_code_actions(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "k.cpp"
    path.write_text(LOOP)
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": LOOP}}
    )
    found = client.diagnostics(uri)
    by_code = {d["code"]: d for d in found}
    assert set(by_code) == {"KL101", "KL001"}
    kl101 = by_code["KL101"]
    assert kl101["range"]["start"] == {"line": 3, "character": 4} and kl101["severity"] == 2
    assert kl101["source"] == "kernlint"
    assert kl101["relatedInformation"][0]["location"]["range"]["start"]["line"] == 2

    hover = client.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}}
    )
    assert "KL101 buffer-in-loop" in hover["result"]["contents"]["value"]
    assert "kernlint rule KL101" in hover["result"]["contents"]["value"]

    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": by_code["KL001"]["range"],
            "context": {"diagnostics": [by_code["KL001"]]},
        },
    )["result"]
    assert len(actions) == 1 and actions[0]["kind"] == "quickfix"
    (edit,) = actions[0]["edit"]["changes"][uri]
    assert edit["newText"] == "" and edit["range"]["start"]["line"] == 5

    # Quick changes supersede one another: the latest text's diagnostics come last (an earlier
    # version's come before them only when its analysis ended before the next change arrived).
    for version, text in ((2, LOOP + "\n"), (3, LOOP + "\n\n"), (4, FIXED)):
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )
    latest = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == 4)
    assert latest["params"]["diagnostics"] == []

    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []


EMOJI = LOOP.replace("    sycl::buffer<float> b(", "    /* 😀😀 */ sycl::buffer<float> b(").replace(
    "  q.wait(); // kernlint", "  q.wait(); /* 😀 */ // kernlint"
)
UNITS = {"utf-8": lambda s: len(s.encode("utf-8")), "utf-16": lambda s: len(s.encode("utf-16-le")) // 2}


def start(tmp_path: Path, capabilities: dict) -> tuple[Client, dict]:
    c = Client(tmp_path)
    init = c.request(
        "initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": capabilities}
    )
    c.notify("initialized", {})
    return c, init["result"]


def apply_edit(text: str, edit: dict, encoding: str) -> str:
    """Apply an LSP text edit as a client using `encoding` would."""
    lines = text.split("\n")

    def offset(position: dict) -> int:
        line = lines[position["line"]]
        count, index = 0, 0
        while index < len(line) and count < position["character"]:
            count += UNITS[encoding](line[index])
            index += 1
        return sum(len(t) + 1 for t in lines[: position["line"]]) + index

    start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
    return text[:start] + edit["newText"] + text[end:]


@pytest.mark.parametrize(
    "offered, encoding",
    [
        ({}, "utf-16"),
        ({"general": {"positionEncodings": ["utf-8"]}}, "utf-8"),
        ({"general": {"positionEncodings": ["utf-16", "utf-8"]}}, "utf-16"),
    ],
)
def test_positions_in_the_negotiated_encoding(tmp_path: Path, offered: dict, encoding: str) -> None:
    client, init = start(tmp_path, offered)
    try:
        assert init["capabilities"].get("positionEncoding", "utf-16") == encoding
        path = tmp_path / "k.cpp"
        path.write_text(EMOJI, encoding="utf-8")
        uri = path.as_uri()
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": EMOJI}}
        )
        by_code = {d["code"]: d for d in client.diagnostics(uri)}
        line = EMOJI.split("\n")[3]
        assert by_code["KL101"]["range"]["start"] == {
            "line": 3,
            "character": UNITS[encoding](line[: line.index("sycl::buffer")]),
        }
        hover = client.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": uri},
                "position": {"line": 3, "character": UNITS[encoding](line[: line.index("buffer<")])},
            },
        )
        assert "KL101" in hover["result"]["contents"]["value"]
        actions = client.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": by_code["KL001"]["range"],
                "context": {"diagnostics": [by_code["KL001"]]},
            },
        )["result"]
        (edit,) = actions[0]["edit"]["changes"][uri]
        # the quick fix removes exactly the stale comment, the emoji before it intact
        assert apply_edit(EMOJI, edit, encoding).split("\n")[5] == "  q.wait(); /* 😀 */"
    finally:
        client.close()


def test_no_diagnostics_come_back_after_close(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "k.cpp"
    path.write_text(LOOP)
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": LOOP}}
    )
    assert client.diagnostics(uri)
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": LOOP + "\n"}]},
    )
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    # (version 2's diagnostics come first when its analysis ended before the close arrived)
    client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["diagnostics"] == [])
    with pytest.raises(AssertionError, match="no matching LSP message"):  # a stopped analysis never reports
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics", timeout=1)


def test_config_changes_are_picked_up_and_a_broken_config_is_reported_until_repaired(
    client: Client, tmp_path: Path
) -> None:
    source = tmp_path / "k.cpp"
    source.write_text(LOOP)
    other = tmp_path / "other.cpp"
    other.write_text(LOOP)
    uri, other_uri = source.as_uri(), other.as_uri()
    config = tmp_path / "kernlint.toml"
    config_uri = config.as_uri()

    def published() -> dict:
        return client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]

    def not_analysed(params: dict, target: str) -> None:
        """`target` carries one diagnostic at its top that says the config is broken, and where."""
        assert params["uri"] == target
        (diagnostic,) = params["diagnostics"]
        assert diagnostic["code"] == "config" and diagnostic["range"]["start"] == {"line": 0, "character": 0}
        assert diagnostic["message"].startswith("not analysed: the configuration is broken: ")
        assert "TOML syntax error" in diagnostic["message"]
        (where,) = diagnostic["relatedInformation"]
        assert where["location"]["uri"] == config_uri and where["location"]["range"]["start"]["line"] == 1

    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": LOOP}}
    )
    assert {d["code"] for d in client.diagnostics(uri)} == {"KL101", "KL001"}

    config.write_text('ignore = ["KL101"]\n')  # created: the watcher says so
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": config_uri, "type": 1}]})
    # KL101 is ignored by the config now (and a directive naming a rule that did not run is not stale)
    assert client.diagnostics(uri) == []

    config.write_text('ignore = ["KL101"]\nfail on = "error"\n')  # broken, then saved in the editor
    client.notify("textDocument/didSave", {"textDocument": {"uri": config_uri}})
    first = published()
    assert first["uri"] == config_uri
    (error,) = first["diagnostics"]
    assert "TOML syntax error" in error["message"] and error["range"]["start"]["line"] == 1
    not_analysed(published(), uri)
    # a keystroke later the document still says it was not analysed (it would look clean otherwise)
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": LOOP + "\n"}]},
    )
    not_analysed(published(), uri)
    # a second document under the same broken config: no second report on the config file
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": other_uri, "languageId": "cpp", "version": 1, "text": LOOP}}
    )
    not_analysed(published(), other_uri)
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    not_analysed(published(), uri)

    config.write_text('ignore = ["KL1"]\n')  # repaired: the error is withdrawn, the documents analysed again
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": config_uri, "type": 2}]})
    assert published() == {"uri": config_uri, "diagnostics": []}
    again = [published() for _ in range(2)]
    assert sorted(p["uri"] for p in again) == sorted([uri, other_uri])
    assert all(p["diagnostics"] == [] for p in again)


# --- issue 19: a normal end is exit code 0; analyses never block the server ------------------------


def test_a_normal_shutdown_exits_0_without_a_traceback_and_exit_alone_exits_1(tmp_path: Path) -> None:
    client, _init = start(tmp_path, {})
    assert client.close() == 0
    assert "Traceback" not in client.stderr() and "Error" not in client.stderr()
    client, _init = start(tmp_path, {})
    client.notify("exit", None)  # no shutdown request first: LSP says 1
    assert client.process.wait(timeout=30) == 1
    assert "Traceback" not in client.stderr()


def _held(gate: Path, label: str) -> None:
    """Wait until the analysis named `label` has started and is held at the test gate."""
    deadline = time.monotonic() + 60
    while not (gate / f"{label}.started").exists():
        assert time.monotonic() < deadline, f"the analysis {label} never started"
        time.sleep(0.01)


def test_requests_are_answered_while_an_analysis_runs_and_a_newer_version_cancels_it(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    gate.mkdir()
    client = Client(tmp_path, env={TEST_GATE: str(gate)})
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        path = tmp_path / "k.cpp"
        path.write_text(LOOP)
        uri = path.as_uri()
        (gate / "k.cpp-1.go").touch()  # the first version is analysed at once
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": LOOP}}
        )
        first = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
        assert first["version"] == 1 and {d["code"] for d in first["diagnostics"]} == {"KL101", "KL001"}

        def change(version: int, text: str) -> None:
            client.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
            )

        change(2, LOOP + "\n")
        _held(gate, "k.cpp-2")  # version 2 is being analysed, and stays so until the test says go
        hover = client.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}}
        )
        assert "KL101 buffer-in-loop" in hover["result"]["contents"]["value"]
        actions = client.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 40}},
                "context": {"diagnostics": []},
            },
        )
        assert [a["title"] for a in actions["result"]] == ["kernlint: remove the unused suppression comment"]

        change(3, FIXED)
        # One worker analyses one document at a time: version 3 starting while version 2 is still held
        # at the gate means that the analysis of version 2 was stopped.
        _held(gate, "k.cpp-3")
        assert not (gate / "k.cpp-2.go").exists()
        (gate / "k.cpp-2.go").touch()
        (gate / "k.cpp-3.go").touch()
        latest = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
        assert latest == {"uri": uri, "version": 3, "diagnostics": []}
    finally:
        client.close()
