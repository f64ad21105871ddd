"""Front-ends turn source into facts; nothing after this stage knows which parser ran."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing the engine (as the command line does) must not load the front-ends' world
    from kernlint.config import Config
    from kernlint.discovery import SourceEntry
    from kernlint.facts import FileFacts
    from kernlint.source import SourceFile


def extract_facts(entry: SourceEntry, source: SourceFile, config: Config) -> FileFacts:
    """Run the front-end that reads `entry`'s language; the file is parsed exactly once."""
    if entry.family == "fortran":
        from kernlint.frontends.fortran import frontend as fortran

        return fortran.extract(source, fixed_form=entry.fixed_form, config=config)
    if config.frontend == "clang":
        from kernlint.frontends.clang import frontend as clang

        return clang.extract(
            source.path, source.data, config.include_dirs, dict(config.defines), config.compile_db, config.clang_args
        )
    from kernlint.frontends.clang.flags import preprocessor_settings
    from kernlint.frontends.cpp import frontend as cpp

    # The build's -D/-I (compile_commands.json) for #if and quoted includes; the configuration's win.
    defines, include_dirs, database = preprocessor_settings(source.path, config.compile_db)
    facts = cpp.extract(
        source.path, source.data, config.include_dirs + include_dirs, {**defines, **dict(config.defines)}
    )
    return replace(facts, dependencies=(*facts.dependencies, database)) if database else facts


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
