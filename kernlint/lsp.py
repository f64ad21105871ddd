"""`kernlint lsp`: a language server (pygls) that publishes kernlint diagnostics to editors.

Documents are analysed in memory with the same engine and the same per-file configuration as the
command line: on open and save at once, on change after a short pause (so typing does not queue an
analysis per keystroke). Rule documentation comes up on hover over a finding; fixes rules offer
become quick-fix code actions. Positions are sent in the encoding negotiated with the client (UTF-16
unless it offers another), so edits land right on lines holding emoji. A changed config file is
read again and every open document re-analysed; a broken one is reported once, on the file itself.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from kernlint import __version__
from kernlint.config import CONFIG_FILES, ConfigError
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.discovery import SourceEntry, family_of
from kernlint.engine import EngineSetup, analyse_source
from kernlint.projects import ConfigResolver
from kernlint.session import ProjectSetups

DEBOUNCE_SECONDS = 0.3
_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # where LSP (and kernlint) end lines
_TOML_POSITION = re.compile(r"at line (\d+), column (\d+)")
_UNITS: dict[str, Callable[[str], int]] = {  # code units per text, by LSP position encoding
    "utf-8": lambda text: len(text.encode("utf-8")),
    "utf-16": lambda text: len(text.encode("utf-16-le")) // 2,
    "utf-32": len,
}


def _path_of(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _is_config_file(uri: str) -> bool:
    return os.path.basename(_path_of(uri)) in CONFIG_FILES


class Positions:
    """kernlint's 1-based (line, character column) positions of one text as LSP positions in the
    negotiated encoding, and back: a column counts code points, a client counts code units."""

    def __init__(self, text: str, encoding: object) -> None:
        self.lines = _LINE_BREAK.split(text)
        self.units = _UNITS.get(str(getattr(encoding, "value", encoding)), _UNITS["utf-16"])  # LSP's default

    def _line(self, index: int) -> str:
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def position(self, line: int, column: int) -> types.Position:
        index = max(line - 1, 0)
        return types.Position(line=index, character=self.units(self._line(index)[: max(column - 1, 0)]))

    def range(self, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        start, end = self.position(line, column), self.position(end_line, end_column)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return types.Range(start=start, end=end)

    def column(self, position: types.Position) -> tuple[int, int]:
        """The 1-based (line, character column) of a client position (inside a character: its start)."""
        text = self._line(position.line)
        count = 0
        for index, character in enumerate(text):
            count += self.units(character)
            if count > position.character:
                return position.line + 1, index + 1
        return position.line + 1, len(text) + 1


class Analysed:
    """A document's last findings with the positions of the text they were found in."""

    def __init__(self, findings: list[Diagnostic], positions: Positions) -> None:
        self.findings = findings
        self.positions = positions

    def overlapping(self, area: types.Range) -> list[Diagnostic]:
        start = self.positions.column(area.start)
        end = self.positions.column(area.end)
        return [d for d in self.findings if not ((d.end_line, d.end_column) < start or (d.line, d.column) > end)]


class KernlintServer(LanguageServer):
    """The server plus the per-project engine setups, the open documents and their last findings."""

    def __init__(self) -> None:
        super().__init__("kernlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.setups = ProjectSetups(ConfigResolver(), use_cache=False)
        self.open: set[str] = set()
        self.analysed: dict[str, Analysed] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.config_errors: dict[str, str] = {}  # config file URI -> the error published on it

    def setup_for(self, path: str) -> EngineSetup:
        """The engine setup of the project `path` belongs to, resolved as the command line does."""
        return self.setups.for_file(path)

    def positions(self, text: str) -> Positions:
        return Positions(text, self.workspace.position_encoding)

    def analyse(self, uri: str) -> None:
        self.pending.pop(uri, None)
        if uri not in self.open:
            return  # closed while its analysis waited: an editor shows nothing for a closed file
        document = self.workspace.get_text_document(uri)
        path = _path_of(uri)
        family = family_of(path)
        if family is None:
            return
        try:
            setup = self.setup_for(path)
        except ConfigError as exc:
            self.report_config_error(path, exc)
            self.analysed.pop(uri, None)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
            return
        text = document.source
        result = analyse_source(SourceEntry(path, *family), text.encode("utf-8"), setup)
        analysed = Analysed(list(result.diagnostics), self.positions(text))
        self.analysed[uri] = analysed
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                version=document.version,
                diagnostics=[self.to_lsp(uri, d, analysed.positions) for d in result.diagnostics],
            )
        )

    def analyse_later(self, uri: str) -> None:
        self.cancel(uri)
        self.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, self.analyse, uri)

    def cancel(self, uri: str) -> None:
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()

    def report_config_error(self, path: str, error: ConfigError) -> None:
        """Publish a broken config as one diagnostic on the config file, once until it changes."""
        config = self.setups.resolver.governing(os.path.dirname(os.path.abspath(path)))
        if config is None:  # not a file's fault (e.g. a plugin's): say it once in a message
            key, uri = "", ""
        else:
            key = uri = Path(os.path.abspath(config)).as_uri()
        if self.config_errors.get(key) == str(error):
            return
        self.config_errors[key] = str(error)
        if not uri:
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"kernlint: {error}"))
            return
        where = _TOML_POSITION.search(str(error))
        line, column = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        start = types.Position(line=line - 1, character=column - 1)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=[
                    types.Diagnostic(
                        range=types.Range(start=start, end=start),
                        severity=types.DiagnosticSeverity.Error,
                        source="kernlint",
                        code="config",
                        message=str(error),
                    )
                ],
            )
        )

    def reload_config(self) -> None:
        """A config file was created, changed or deleted: read the configs again, withdraw the errors
        reported on them, and analyse every open document again."""
        self.setups.forget()
        for uri in self.config_errors:
            if uri:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self.config_errors.clear()
        for uri in sorted(self.open):
            self.cancel(uri)
            self.analyse(uri)

    @staticmethod
    def to_lsp(uri: str, diagnostic: Diagnostic, positions: Positions) -> types.Diagnostic:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=positions.range(r.line, r.column, r.end_line, r.end_column)),
                message=r.message,
            )
            for r in diagnostic.related
        ]
        message = diagnostic.message + (f" [{diagnostic.device}]" if diagnostic.device else "")
        return types.Diagnostic(
            range=positions.range(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column),
            severity=_SEVERITY[diagnostic.severity],
            code=diagnostic.code,
            source="kernlint",
            message=message,
            related_information=related or None,
            data={"name": diagnostic.name, "fix": diagnostic.fix.to_json() if diagnostic.fix else None},
        )


server = KernlintServer()


@server.feature(types.INITIALIZED)
def initialized(ls: KernlintServer, _params: types.InitializedParams) -> None:
    """Ask the client to tell us about config files changing, when it lets servers ask."""
    capabilities = ls.client_capabilities.workspace
    watched = capabilities.did_change_watched_files if capabilities else None
    if not (watched and watched.dynamic_registration):
        return
    watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]
    ls.client_register_capability(
        types.RegistrationParams(
            registrations=[
                types.Registration(
                    id="kernlint-config-files",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
                )
            ]
        )
    )


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: KernlintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(_is_config_file(change.uri) for change in params.changes):
        ls.reload_config()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KernlintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.open.add(params.text_document.uri)
    ls.analyse(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KernlintServer, params: types.DidSaveTextDocumentParams) -> None:
    if _is_config_file(params.text_document.uri):
        ls.reload_config()
    else:
        ls.cancel(params.text_document.uri)
        ls.analyse(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: KernlintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.analyse_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KernlintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.open.discard(uri)
    ls.cancel(uri)
    ls.analysed.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: KernlintServer, params: types.HoverParams) -> types.Hover | None:
    """Hovering over a finding shows its rule's documentation (what `kernlint rule CODE` prints)."""
    analysed = ls.analysed.get(params.text_document.uri)
    hits = analysed.overlapping(types.Range(start=params.position, end=params.position)) if analysed else []
    if not hits:
        return None
    setup = ls.setup_for(_path_of(params.text_document.uri))
    docs = {rule.code: rule.documentation() for rule in setup.rules}
    parts = [
        f"**{d.code} {d.name}** ({d.severity.value})\n\n{d.message}\n\n```text\n{docs.get(d.code, '')}\n```\n"
        f"`kernlint rule {d.code}`"
        for d in hits
    ]
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])
)
def code_action(ls: KernlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    analysed = ls.analysed.get(uri)
    if analysed is None:
        return []
    actions = []
    for diagnostic in analysed.overlapping(params.range):
        if diagnostic.fix is None:
            continue
        edits = [
            types.TextEdit(range=analysed.positions.range(e.line, e.column, e.end_line, e.end_column), new_text=e.text)
            for e in diagnostic.fix.edits
        ]
        title = f"kernlint: {diagnostic.fix.description}" + ("" if diagnostic.fix.safe else " (unsafe)")
        actions.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                is_preferred=diagnostic.fix.safe,
                diagnostics=[KernlintServer.to_lsp(uri, diagnostic, analysed.positions)],
                edit=types.WorkspaceEdit(changes={uri: edits}),
            )
        )
    return actions


def serve() -> int:
    """Run on stdio until the client says exit."""
    server.start_io()
    return 0
