"""`kernlint lsp`: a language server (pygls) that publishes kernlint diagnostics to editors.

Documents are analysed in memory with the same engine as the command line: on open and save at
once, on change after a short pause (so typing does not queue an analysis per keystroke). Rule
documentation comes up on hover over a finding; fixes rules offer become quick-fix code actions.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from kernlint import __version__
from kernlint.config import ConfigError, find_config, load_config
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.discovery import SourceEntry, family_of
from kernlint.engine import EngineSetup, analyse_source
from kernlint.session import make_setup

DEBOUNCE_SECONDS = 0.3
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.INFO: types.DiagnosticSeverity.Information}


def _path_of(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _range(line: int, column: int, end_line: int, end_column: int) -> types.Range:
    start = types.Position(line=max(line - 1, 0), character=max(column - 1, 0))
    end = types.Position(line=max(end_line - 1, 0), character=max(end_column - 1, 0))
    return types.Range(start=start, end=end if (end.line, end.character) >= (start.line, start.character) else start)


class KernlintServer(LanguageServer):
    """The server plus the per-project engine setups and the last findings per document."""

    def __init__(self) -> None:
        super().__init__("kernlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.setups: dict[str, EngineSetup | ConfigError] = {}
        self.findings: dict[str, list[Diagnostic]] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}

    def setup_for(self, path: str) -> EngineSetup:
        """The engine setup of the project `path` belongs to (its nearest config), made once."""
        config_path = find_config(Path(path).parent if os.path.isabs(path) else Path.cwd())
        key = str(config_path)
        if key not in self.setups:
            try:
                self.setups[key] = make_setup(load_config(config_path), use_cache=False)
            except ConfigError as exc:
                self.setups[key] = exc
        setup = self.setups[key]
        if isinstance(setup, ConfigError):
            raise setup
        return setup

    def analyse(self, uri: str) -> None:
        document = self.workspace.get_text_document(uri)
        path = _path_of(uri)
        family = family_of(path)
        if family is None:
            return
        try:
            setup = self.setup_for(path)
        except ConfigError as exc:
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"kernlint: {exc}"))
            return
        result = analyse_source(SourceEntry(path, *family), document.source.encode("utf-8"), setup)
        self.findings[uri] = list(result.diagnostics)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version, diagnostics=[self.to_lsp(uri, d) for d in result.diagnostics]))

    def analyse_later(self, uri: str) -> None:
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        self.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, self.analyse, uri)

    @staticmethod
    def to_lsp(uri: str, diagnostic: Diagnostic) -> types.Diagnostic:
        related = [types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri, range=_range(r.line, r.column, r.end_line, r.end_column)),
            message=r.message) for r in diagnostic.related]
        message = diagnostic.message + (f" [{diagnostic.device}]" if diagnostic.device else "")
        return types.Diagnostic(
            range=_range(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column),
            severity=_SEVERITY[diagnostic.severity], code=diagnostic.code, source="kernlint", message=message,
            related_information=related or None,
            data={"name": diagnostic.name, "fix": diagnostic.fix.to_json() if diagnostic.fix else None})


server = KernlintServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KernlintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.analyse(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KernlintServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.analyse(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: KernlintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.analyse_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KernlintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.findings.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _overlaps(diagnostic: Diagnostic, position_range: types.Range) -> bool:
    start = (diagnostic.line - 1, diagnostic.column - 1)
    end = (diagnostic.end_line - 1, diagnostic.end_column - 1)
    return not (end < (position_range.start.line, position_range.start.character)
                or start > (position_range.end.line, position_range.end.character))


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: KernlintServer, params: types.HoverParams) -> types.Hover | None:
    """Hovering over a finding shows its rule's documentation (what `kernlint rule CODE` prints)."""
    point = types.Range(start=params.position, end=params.position)
    hits = [d for d in ls.findings.get(params.text_document.uri, []) if _overlaps(d, point)]
    if not hits:
        return None
    setup = ls.setup_for(_path_of(params.text_document.uri))
    docs = {rule.code: rule.documentation() for rule in setup.rules}
    parts = [f"**{d.code} {d.name}** ({d.severity.value})\n\n{d.message}\n\n```text\n{docs.get(d.code, '')}\n```\n"
             f"`kernlint rule {d.code}`" for d in hits]
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_action(ls: KernlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    actions = []
    for diagnostic in ls.findings.get(uri, []):
        if diagnostic.fix is None or not _overlaps(diagnostic, params.range):
            continue
        edits = [types.TextEdit(range=_range(e.line, e.column, e.end_line, e.end_column), new_text=e.text)
                 for e in diagnostic.fix.edits]
        title = f"kernlint: {diagnostic.fix.description}" + ("" if diagnostic.fix.safe else " (unsafe)")
        actions.append(types.CodeAction(
            title=title, kind=types.CodeActionKind.QuickFix, is_preferred=diagnostic.fix.safe,
            diagnostics=[KernlintServer.to_lsp(uri, diagnostic)],
            edit=types.WorkspaceEdit(changes={uri: edits})))
    return actions


def serve() -> int:
    """Run on stdio until the client says exit."""
    server.start_io()
    return 0
