"""A minimal LSP client for the tests: a real `kernlint lsp` process spoken to over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue


class Client:
    """A minimal LSP client: Content-Length framing, requests with ids, notifications in a queue."""

    def __init__(self, cwd: Path, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kernlint", "lsp"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "NO_COLOR": "1", **(env or {})},
        )
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
            length = int(
                next(line for line in header.decode().split("\r\n") if line.lower().startswith("content-length")).split(
                    ":"
                )[1]
            )
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
        message = self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        )
        return message["params"]["diagnostics"]

    def _stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return "(server still running)"
        return self.process.stderr.read().decode(errors="replace")

    def close(self) -> int:
        """End the server as an editor does (`shutdown`, then `exit`); its exit code."""
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()

    def stderr(self) -> str:
        """What the server wrote on stderr (once it has ended)."""
        return self._stderr()
