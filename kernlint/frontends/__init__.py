"""Front-ends turn source into facts; nothing after this stage knows which parser ran."""

from __future__ import annotations

from kernlint.config import Config
from kernlint.discovery import SourceEntry
from kernlint.facts import FileFacts
from kernlint.source import SourceFile


def extract_facts(entry: SourceEntry, source: SourceFile, config: Config) -> FileFacts:
    """Run the front-end that reads `entry`'s language; the file is parsed exactly once."""
    if entry.family == "fortran":
        from kernlint.frontends import fortran

        return fortran.extract(source, fixed_form=entry.fixed_form, config=config)
    from kernlint.frontends import cpp

    return cpp.extract(source.path, source.data, config.include_dirs, dict(config.defines))


def warm_up() -> None:
    """Compile every query now (in the parent), so forked workers start with them ready."""
    from kernlint.frontends import treesitter

    for grammar, query_file in (("cpp", "cpp"), ("cpp", "cpp_symbols"), ("cpp", "cpp_accessors"), ("fortran", "fortran")):
        treesitter.query(grammar, query_file)
    from kernlint.frontends.openmp_facts import QUERIES  # the OpenMP layer's queries (issue 5)

    for grammar, query_file in QUERIES:
        treesitter.query(grammar, query_file)
