"""Imported once by the language server's fork server (never by the server itself): the engine, the
rules and every compiled query, which each analysis worker forked from it then has ready. The
server's stop signal is ignored until a worker has set up its own handler for it (its default would
end a worker that is still starting)."""

import signal

from kernlint.engine import analyse_source  # noqa: F401  (imported to be inherited)
from kernlint.frontends import warm_up
from kernlint.plugins import load_plugins

load_plugins()
warm_up()

if hasattr(signal, "SIGUSR1"):
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
