"""The language server (pygls): kernlint's findings as editor diagnostics, hover and quick fixes.

Documents are analysed in memory with the same engine and the same per-file configuration as the
command line: on open, change and save, at once. Analyses run in a worker process
(`kernlint.lsp.worker`), so the server answers hover and code actions while a large file is
analysed, and a newer version of a document stops the analysis of the older one: typing queues no
analysis per keystroke, and no pause before an analysis adds to the wait for its diagnostics. Rule
documentation comes up on hover over a finding; fixes rules offer become quick-fix code actions. A
changed config file is read again and every open document re-analysed; while a config is broken, it
carries one diagnostic and every document it governs says, at its top, that it was not analysed
and why.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from kernlint import __version__
from kernlint.config import CONFIG_FILES, ConfigError
from kernlint.diagnostics import Diagnostic, Severity
from kernlint.discovery import SourceEntry, family_of
from kernlint.engine import EngineSetup
from kernlint.lsp.positions import Analysed, Positions
from kernlint.lsp.trace import mark
from kernlint.lsp.worker import Analyser, Request
from kernlint.projects import ConfigResolver
from kernlint.rule_docs import rule_url
from kernlint.session import ProjectSetups

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_TOML_POSITION = re.compile(r"at line (\d+), column (\d+)")


def _path_of(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _is_config_file(uri: str) -> bool:
    return os.path.basename(_path_of(uri)) in CONFIG_FILES


class KernlintServer(LanguageServer):
    """The server plus the per-project engine setups, the open documents and their last findings."""

    def __init__(self) -> None:
        super().__init__("kernlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.setups = ProjectSetups(ConfigResolver(), use_cache=False)
        self.analyser = Analyser()
        self.open: set[str] = set()
        self.analysed: dict[str, Analysed] = {}
        self.running: set[asyncio.Future[None]] = set()  # kept referenced until done
        self.config_errors: dict[str, str] = {}  # config file URI -> the error published on it
        self.shut_down = False  # `shutdown` came before `exit`: a normal end (exit code 0)

    def setup_for(self, path: str) -> EngineSetup:
        """The engine setup of the project `path` belongs to, resolved as the command line does."""
        return self.setups.for_file(path)

    def positions(self, text: str) -> Positions:
        return Positions(text, self.workspace.position_encoding)

    def schedule(self, uri: str) -> None:
        """Analyse `uri` now; whatever analysis of it was queued or running is stale."""
        generation = self.analyser.supersede(uri)
        task = asyncio.ensure_future(self.analyse(uri, generation))
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    def close(self, uri: str) -> None:
        """An editor shows nothing for a closed file: drop its queued and running analysis."""
        self.open.discard(uri)
        self.analyser.supersede(uri)
        self.analysed.pop(uri, None)

    async def analyse(self, uri: str, generation: int) -> None:
        if uri not in self.open:
            return  # closed while its analysis waited
        document = self.workspace.get_text_document(uri)
        path = _path_of(uri)
        family = family_of(path)
        if family is None:
            return
        text, version = document.source, document.version
        try:
            setup = self.setup_for(path)
        except ConfigError as exc:
            self.analysed.pop(uri, None)
            self.report_config_error(path, exc)
            self.publish(uri, [self.not_analysed(path, exc)], version)
            return
        label = f"{Path(path).name}-{version}"
        mark("start", label)
        request = Request(SourceEntry(path, *family), text.encode("utf-8"), setup, label)
        result = await self.analyser.analyse(uri, generation, request)
        if result is None or uri not in self.open:
            return  # a newer version (or the closing) superseded this one
        mark("received", label)
        analysed = Analysed(list(result.diagnostics), self.positions(text))
        self.analysed[uri] = analysed
        diagnostics = [self.to_lsp(uri, d, analysed.positions) for d in result.diagnostics]
        mark("converted", label)
        self.publish(uri, diagnostics, version)
        mark("published", label)

    def publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None = None) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
        )

    def config_uri(self, path: str) -> str:
        """The URI of the config file that governs `path` ("" when none does)."""
        config = self.setups.resolver.governing(os.path.dirname(os.path.abspath(path)))
        return "" if config is None else Path(os.path.abspath(config)).as_uri()

    def not_analysed(self, path: str, error: ConfigError) -> types.Diagnostic:
        """The diagnostic a document carries, at its top, while its configuration is broken: without
        it the document would look clean."""
        config_uri = self.config_uri(path)
        start = types.Position(line=0, character=0)
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=config_uri, range=self.config_range(error)),
                message="the configuration error",
            )
        ]
        return types.Diagnostic(
            range=types.Range(start=start, end=start),
            severity=types.DiagnosticSeverity.Error,
            source="kernlint",
            code="config",
            message=f"not analysed: the configuration is broken: {error}",
            related_information=related if config_uri else None,
        )

    @staticmethod
    def config_range(error: ConfigError) -> types.Range:
        where = _TOML_POSITION.search(str(error))
        line, column = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        start = types.Position(line=line - 1, character=column - 1)
        return types.Range(start=start, end=start)

    def report_config_error(self, path: str, error: ConfigError) -> None:
        """Publish a broken config as one diagnostic on the config file, once until it changes."""
        key = uri = self.config_uri(path)  # "": not a file's fault (e.g. a plugin's): a message instead
        if self.config_errors.get(key) == str(error):
            return
        self.config_errors[key] = str(error)
        if not uri:
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"kernlint: {error}"))
            return
        self.publish(
            uri,
            [
                types.Diagnostic(
                    range=self.config_range(error),
                    severity=types.DiagnosticSeverity.Error,
                    source="kernlint",
                    code="config",
                    message=str(error),
                )
            ],
        )

    def reload_config(self) -> None:
        """A config file was created, changed or deleted: read the configs again, withdraw the errors
        reported on them, and analyse every open document again."""
        self.setups.forget()
        for uri in self.config_errors:
            if uri:
                self.publish(uri, [])
        self.config_errors.clear()
        for uri in sorted(self.open):
            self.schedule(uri)

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
            code_description=types.CodeDescription(href=rule_url(diagnostic.code, diagnostic.name)),
            source="kernlint",
            message=message,
            related_information=related or None,
            data={"name": diagnostic.name, "fix": diagnostic.fix.to_json() if diagnostic.fix else None},
        )


server = KernlintServer()


@server.feature(types.INITIALIZED)
def initialized(ls: KernlintServer, _params: types.InitializedParams) -> None:
    """Start the analysis worker, and ask the client to tell us about config files changing, when it
    lets servers ask."""
    asyncio.get_running_loop().run_in_executor(None, ls.analyser.start)
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


@server.feature(types.SHUTDOWN)
def shutdown(ls: KernlintServer, _params: None) -> None:
    ls.shut_down = True
    ls.analyser.close()


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: KernlintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(_is_config_file(change.uri) for change in params.changes):
        ls.reload_config()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KernlintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.open.add(params.text_document.uri)
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KernlintServer, params: types.DidSaveTextDocumentParams) -> None:
    if _is_config_file(params.text_document.uri):
        ls.reload_config()
    else:
        ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: KernlintServer, params: types.DidChangeTextDocumentParams) -> None:
    mark("changed", f"{Path(_path_of(params.text_document.uri)).name}-{params.text_document.version}")
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KernlintServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.close(params.text_document.uri)
    ls.publish(params.text_document.uri, [])


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: KernlintServer, params: types.HoverParams) -> types.Hover | None:
    """Hovering over a finding shows its rule's documentation (what `kernlint rule CODE` prints)."""
    analysed = ls.analysed.get(params.text_document.uri)
    hits = analysed.overlapping(types.Range(start=params.position, end=params.position)) if analysed else []
    if not hits:
        return None
    docs = {code: rule.documentation() for code, rule in ls.setups.plugins.rules.items()}
    parts = [
        f"**{d.code} {d.name}** ({d.severity.value})\n\n{d.message}\n\n```text\n{docs.get(d.code, '')}\n```\n"
        f"`kernlint rule {d.code}` · [documentation]({rule_url(d.code, d.name)})"
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
    """Run on stdio until the client says exit: 0 after a `shutdown` request, 1 without one (LSP)."""
    try:
        server.start_io()
    finally:
        server.analyser.close()
    return 0 if server.shut_down else 1
