"""Imported once by the language server's fork server (never by the server itself): the engine, the
rules and every compiled query, which each analysis worker forked from it then has ready."""

from kernlint.engine import analyse_source  # noqa: F401  (imported to be inherited)
from kernlint.frontends import warm_up
from kernlint.plugins import load_plugins

load_plugins()
warm_up()
