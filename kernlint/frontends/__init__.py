"""Front-ends turn source into facts; nothing after this stage knows which parser ran."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from kernlint.limits import DEFAULT_TIMEOUT_S

if TYPE_CHECKING:  # importing the engine (as the command line does) must not load the front-ends' world
    from kernlint.config import Config
    from kernlint.discovery import SourceEntry
    from kernlint.facts import FileFacts
    from kernlint.source import SourceFile


#: Whether this process reads few files, so that query files are compiled in bundles (`plan_queries`).
_FEW_FILES = False


def reading_few_files() -> None:
    """Say that this process reads only a few files: each compile then matters more than the walks of
    the trees, and the queries a file is likely to need are compiled as one (`treesitter.bundle`)."""
    global _FEW_FILES
    _FEW_FILES = True


#: The query files run over a whole C/C++ file beyond the file query: types, and OpenMP's own.
_CPP_ROOT_QUERIES = ("cpp_types",)
_CPP_OPENMP_ROOT_QUERIES = ("cpp_openmp_types", "cpp_openmp_declared", "cpp_openmp_device", "cpp_openmp_calls")
#: OpenMP's query files run over one region or function at a time.
_CPP_OPENMP_REGION_QUERIES = ("cpp_openmp_loops", "cpp_openmp_uses", "cpp_openmp_decls", "cpp_openmp_subscripts")


#: Fortran's query files run over the whole file, and OpenMP's (over a region's lines).
_FORTRAN_ROOT_QUERIES = ("fortran", "fortran_constants")
_FORTRAN_OPENMP_QUERIES = (
    "fortran_loops",
    "fortran_decls",
    "fortran_uses",
    "fortran_device",
    "fortran_calls",
    "fortran_arrays",
    "fortran_host_calls",
)


def plan_queries(family: str, data: bytes) -> None:
    """Bundle the query files that a file with this text is likely to run (`treesitter.bundle`),
    with the patterns that this text can match. A guess: it decides how many compiles there are and
    how big, never what a query finds. The C/C++ query files run over one region or kernel at a time
    share the bundle of those run over the whole file: one compile fewer (about 4 ms) costs less than
    the other files' matches their walks of a region also make, even in a big file (measured)."""
    from kernlint.frontends.common import treesitter

    if family == "fortran":
        openmp = _FORTRAN_OPENMP_QUERIES if b"$omp" in data.lower() else ()
        treesitter.bundle("fortran", _FORTRAN_ROOT_QUERIES + openmp)
        return
    from kernlint.frontends.cpp.loose import LOOSE
    from kernlint.frontends.cpp.scan import FILE_QUERIES

    root = FILE_QUERIES + (_CPP_ROOT_QUERIES + ("cpp_device",) if b"sycl" in data else ())
    if b"omp" in data:
        root += _CPP_OPENMP_ROOT_QUERIES + _CPP_OPENMP_REGION_QUERIES
    treesitter.bundle("cpp", root, data, LOOSE)


def extract_facts(
    entry: SourceEntry,
    source: SourceFile,
    config: Config,
    time_limit_s: float | None = DEFAULT_TIMEOUT_S,
    notes: list[str] | None = None,
) -> FileFacts:
    """Run the front-end that reads `entry`'s language; the file is parsed exactly once. `time_limit_s`
    is the file's whole time limit (None: none); what the user should know about how the file was
    read (libclang overran its share of that limit) is appended to `notes`."""
    if _FEW_FILES:
        plan_queries(entry.family, source.data)
    if entry.family == "fortran":
        from kernlint.frontends.fortran import frontend as fortran

        return fortran.extract(source, fixed_form=entry.fixed_form, config=config)
    if config.frontend == "clang":
        from kernlint.frontends.clang import frontend as clang

        return clang.extract(
            source.path,
            source.data,
            config.include_dirs,
            dict(config.defines),
            config.compile_db,
            config.clang_args,
            clang_parse_bound(time_limit_s),
            notes,
            dict(config.macros),
        )
    from kernlint.frontends.clang.flags import preprocessor_settings
    from kernlint.frontends.cpp import frontend as cpp

    # The build's -D/-I (compile_commands.json) for #if and quoted includes; the configuration's win.
    defines, include_dirs, database = preprocessor_settings(source.path, config.compile_db)
    facts = cpp.extract(
        source.path,
        source.data,
        config.include_dirs + include_dirs,
        {**defines, **dict(config.defines)},
        dict(config.macros),
    )
    return replace(facts, dependencies=(*facts.dependencies, database)) if database else facts


def clang_parse_bound(time_limit_s: float | None) -> float | None:
    """How long libclang may parse a file: half of the file's time limit, so that a parse that
    overruns still leaves the tree-sitter facts time to be analysed (no limit: no bound)."""
    return None if time_limit_s is None else time_limit_s / 2


def clang_unavailable() -> str | None:
    """The warning for a run asked to use the clang front-end where libclang does not load, or None
    when it loads: the tree-sitter front-end then reads every file."""
    from kernlint.frontends import clang

    if clang.available():
        return None
    reason = clang.load_error()
    return (
        f"the clang front-end needs libclang, which could not be loaded{f' ({reason})' if reason else ''}; "
        "every file is read by the tree-sitter front-end instead (pip install libclang)"
    )


def warm_up(families: Iterable[str] = ("c", "cpp", "fortran")) -> None:
    """Compile now (in the parent) every query the front-ends of `families` run, so forked workers
    start with them ready; queries of a language the run does not read are left alone."""
    from kernlint.frontends.common import treesitter
    from kernlint.frontends.cpp.scan import FILE_QUERIES

    wanted = set(families)
    if wanted & {"c", "cpp"}:
        treesitter.combined_query("cpp", FILE_QUERIES)
    for query_file in treesitter.query_files():
        grammar = "fortran" if query_file.startswith("fortran") else "cpp"
        if query_file not in FILE_QUERIES and (grammar in wanted or (grammar == "cpp" and "c" in wanted)):
            treesitter.query(grammar, query_file)
