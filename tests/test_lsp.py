"""`kernlint lsp` end to end: a real server process, spoken to over stdio in JSON-RPC by the test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue

import pytest

LOOP = """#include <sycl/sycl.hpp>
void g(sycl::queue &q, float *p) {
  for (int i = 0; i < 4; ++i) {
    sycl::buffer<float> b(p, sycl::range<1>(16));
  }
  q.wait(); // kernlint: ignore[KL101]
}
"""
FIXED = LOOP.replace("  for (int i = 0; i < 4; ++i) {\n    sycl::buffer<float> b(p, sycl::range<1>(16));\n  }\n",
                     "  sycl::buffer<float> b(p, sycl::range<1>(16));\n").replace(" // kernlint: ignore[KL101]", "")


class Client:
    """A minimal LSP client: Content-Length framing, requests with ids, notifications in a queue."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "kernlint", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env={**os.environ, "NO_COLOR": "1"})
        self.messages: Queue = Queue()
        self.next_id = 0
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
            length = int(next(line for line in header.decode().split("\r\n") if line.lower().startswith(
                "content-length")).split(":")[1])
            self.messages.put(json.loads(stream.read(length)))

    def send(self, payload: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def notify(self, method: str, params: dict | None) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None, timeout: float = 30) -> dict:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m, timeout)

    def wait(self, predicate, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            except Empty:
                break
            if predicate(message):
                return message
        raise AssertionError(f"no matching LSP message within {timeout}s; stderr: {self._stderr()}")

    def diagnostics(self, uri: str) -> list[dict]:
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri)
        return message["params"]["diagnostics"]

    def _stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return "(server still running)"
        return self.process.stderr.read().decode(errors="replace")

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()


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
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1,
                                                            "text": LOOP}})
    found = client.diagnostics(uri)
    by_code = {d["code"]: d for d in found}
    assert set(by_code) == {"KL101", "KL001"}
    kl101 = by_code["KL101"]
    assert kl101["range"]["start"] == {"line": 3, "character": 4} and kl101["severity"] == 2
    assert kl101["source"] == "kernlint"
    assert kl101["relatedInformation"][0]["location"]["range"]["start"]["line"] == 2

    hover = client.request("textDocument/hover",
                           {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 10}})
    assert "KL101 buffer-in-loop" in hover["result"]["contents"]["value"]
    assert "kernlint rule KL101" in hover["result"]["contents"]["value"]

    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": by_code["KL001"]["range"],
        "context": {"diagnostics": [by_code["KL001"]]}})["result"]
    assert len(actions) == 1 and actions[0]["kind"] == "quickfix"
    (edit,) = actions[0]["edit"]["changes"][uri]
    assert edit["newText"] == "" and edit["range"]["start"]["line"] == 5

    # Several quick changes are debounced into one analysis of the latest text.
    for version, text in ((2, LOOP + "\n"), (3, LOOP + "\n\n"), (4, FIXED)):
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": text}]})
    assert client.diagnostics(uri) == []

    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []
