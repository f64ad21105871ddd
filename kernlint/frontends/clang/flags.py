"""Compiler flags for one file, from the build's `compile_commands.json` when there is one.

A compile database records the command each file was built with. libclang needs only the part of it
that changes how the file *reads* (macros, include paths, language standard, forced includes), not
what the build does with the result (output files, dependency files, device targets), and it does not
know the flags of vendor compilers (`icpx -fsycl`, `-fiopenmp`). This module turns a recorded command
into that part. The tree-sitter front-end uses the same translation for its `-D` and `-I` (`#if` and
quoted includes), so both front-ends read a file the way the build does.

The database format is JSON with `directory`, `file` and `arguments` or `command` per entry; it is read
here directly (rather than through libclang's `CompilationDatabase`) so that the tree-sitter front-end
never loads libclang, and so that a file with no entry can be told apart from one with an entry.

Whatever reaches libclang passes `without_side_effects` first. The database, `clang-args` and the
arguments after `--` can come from a repository that is not the user's, and libclang acts on some
flags beyond reading the source: it writes the dependency file that `-MD -MF PATH`, `-Wp,-MD,PATH`
or `-Xclang -dependency-file PATH` names (with a first line `-MT` chooses: a repository could
rewrite `~/.bashrc`), reads more flags from the file `--config` names, and another libclang could
load the plugins `-fplugin=` or `-Xclang -load` name. So only flags that change how the source
reads pass: macros, include paths and forced includes, the language and its standard, the target,
`-f`/`-m` language and target options (less those that load, write or read build products), `-O`
and warnings.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from functools import lru_cache
from pathlib import PurePath

from kernlint.config import ConfigError
from kernlint.records import record

DATABASE_NAME = "compile_commands.json"

# Flags that take a value as the next argument and change nothing about how the source reads.
_DROP_WITH_VALUE = frozenset(
    {
        "-o",
        "-MF",
        "-MT",
        "-MQ",
        "-Xsycl-target-backend",
        "-Xsycl-target-frontend",
        "-Xsycl-target-linker",
        "-Xs",
        "-Xopenmp-target",
        "-Xlinker",
        "-fp-model",
        "-L",
        "-l",
        "-Xarch_device",
        "-Xarch_host",
        "-Xcuda-ptxas",
        "-Xcuda-fatbinary",
        "--serialize-diagnostics",
        "-arch",
        "-target-backend",
    }
)
# Flags that stand alone and change nothing about how the source reads (or that libclang rejects).
_DROP = frozenset(
    {
        "-c",
        "-S",
        "-E",
        "-M",
        "-MM",
        "-MD",
        "-MMD",
        "-MP",
        "-MG",
        "-fsycl",
        "-fintelfpga",
        "-qmkl",
        "-mkl",
        "-fgpu-rdc",
        "-fno-gpu-rdc",
        "-fopenmp-target-fast",
        "-shared",
        "-static",
        "-pipe",
        "-v",
        "-###",
        "-fcolor-diagnostics",
        "-fdiagnostics-color",
    }
)
# Prefixes of joined flags (`-fsycl-targets=spir64`) dropped for the same reasons.
_DROP_PREFIXES = (
    "-fsycl",
    "-fno-sycl",
    "-fopenmp-targets=",
    "-fopenmp-target",
    "-Xopenmp-target=",
    "--offload-arch=",
    "--cuda-gpu-arch=",
    "--cuda-path=",
    "-fp-model=",
    "-fprofile",
    "-Wl,",
    "-MF",
    "-MT",
    "-MQ",
    "-o",
    "-L",
    "-l",
    "-fdiagnostics-color=",
    "-fcoverage",
    "-fimf-",
    "-qopt-",
    "-fsycl-device",
    "-march=",
    "-mtune=",
    "-fcf-protection",
    "-flto",
)
# Vendor spellings that mean a flag libclang knows.
_MAP = {"-qopenmp": "-fopenmp", "-fiopenmp": "-fopenmp", "-openmp": "-fopenmp", "-qopenmp-simd": "-fopenmp-simd"}
# Flags whose value (next argument, or joined) is a path to resolve against the entry's directory.
_PATH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-isysroot", "--sysroot")

SOURCE_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".cp", ".sycl", ".cu", ".hpp", ".h", ".hh"})


@record
class FileFlags:
    """The flags libclang should parse one file with, and where they came from.

    `origin` is "database" (the file's own entry), "neighbour" (no entry: the flags of the nearest
    file of the same directory tree that has one, `source` naming it), "defaults" (no database) or
    "arguments" (extra arguments such as `clang-args`, read for their `-D`/`-I`)."""

    args: tuple[str, ...]
    origin: str
    database: str | None = None
    source: str | None = None

    @property
    def defines(self) -> tuple[tuple[str, str], ...]:
        """`-D` macros (NAME, VALUE), with `-U` applied, in command-line order."""
        found: dict[str, str] = {}
        for flag, value in _pairs(self.args, ("-D", "-U")):
            name, _, text = value.partition("=")
            if flag == "-U":
                found.pop(name, None)
            elif name:
                found[name] = text if "=" in value else "1"
        return tuple(found.items())

    @property
    def include_dirs(self) -> tuple[str, ...]:
        """`-I`, `-iquote` and `-isystem` directories, in search order for a quoted include."""
        return tuple(value for _flag, value in _pairs(self.args, ("-iquote", "-I", "-isystem")))

    def describe(self) -> str:
        """One line for the user: which flags a file was read with."""
        if self.origin == "database":
            return f"flags from {self.database}"
        if self.origin == "neighbour":
            return f"no entry in {self.database}; used the flags of {self.source}"
        return "no compile_commands.json found; default flags"


def from_build(flags: FileFlags, defines: Mapping[str, str], clang_args: tuple[str, ...]) -> bool:
    """Whether a file is read with its build's flags (its entry, a neighbour's, configured `defines` or
    a `-D`/`-U` in `clang-args`) rather than kernlint's defaults alone: only then are clang's choices
    of `#if` arms the build's, not a guess."""
    return flags.origin != "defaults" or bool(defines) or any(a.startswith(("-D", "-U")) for a in clang_args)


def _pairs(args: tuple[str, ...], flags: tuple[str, ...]) -> list[tuple[str, str]]:
    """(flag, value) for each of `flags`, whether written joined (`-DX`) or separate (`-D X`)."""
    found: list[tuple[str, str]] = []
    index = 0
    while index < len(args):
        arg = args[index]
        for flag in flags:
            if arg == flag and index + 1 < len(args):
                found.append((flag, args[index + 1]))
                index += 1
                break
            if arg.startswith(flag) and arg != flag:
                found.append((flag, arg[len(flag) :]))
                break
        index += 1
    return found


def translate(arguments: list[str] | tuple[str, ...], directory: str, file: str | None = None) -> tuple[str, ...]:
    """The reading-relevant part of one recorded compile command: no compiler, no `-c`/`-o`, no
    dependency-file or device-target flags, vendor flags mapped to clang's, paths made absolute."""
    args = list(arguments)
    if args and not args[0].startswith("-"):
        args = args[1:]  # the compiler (or a wrapper such as ccache followed by the compiler)
        while args and not args[0].startswith("-") and os.path.basename(args[0]) in _COMPILER_NAMES:
            args = args[1:]
    target = os.path.normpath(os.path.join(directory, file)) if file else None
    kept: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg in _DROP_WITH_VALUE:
            index += 1
            continue
        if arg == "--":
            break
        if arg in _DROP or arg.startswith(_DROP_PREFIXES):
            continue
        if arg in _MAP:
            kept.append(_MAP[arg])
            continue
        path_flag = next(
            (f for f in _PATH_FLAGS if arg == f or (arg.startswith(f) and f != "-include" and f != "-imacros")), None
        )
        if path_flag is not None:
            value = arg[len(path_flag) :] if arg != path_flag else (args[index] if index < len(args) else "")
            if arg == path_flag:
                index += 1
            kept.extend((path_flag, os.path.normpath(os.path.join(directory, value))))
            continue
        if not arg.startswith("-"):
            if target is not None and os.path.normpath(os.path.join(directory, arg)) == target:
                continue  # the file itself
            if os.path.splitext(arg)[1].lower() in SOURCE_SUFFIXES | {".o", ".obj", ".a", ".so"}:
                continue  # another input or output of the command
        kept.append(arg)
    return tuple(kept)


_COMPILER_NAMES = frozenset(
    {
        "cc",
        "c++",
        "gcc",
        "g++",
        "clang",
        "clang++",
        "icx",
        "icpx",
        "icpc",
        "icc",
        "dpcpp",
        "acpp",
        "syclcc",
        "nvc++",
        "nvcc",
        "hipcc",
        "amdclang++",
        "ccache",
        "sccache",
        "distcc",
    }
)


@lru_cache(maxsize=256)
def find_database(directory: str) -> str | None:
    """The nearest `compile_commands.json` at or above `directory` (or in its `build/` sub-directory,
    where CMake writes it), as an absolute path; None when there is none."""
    current = os.path.abspath(directory)
    while True:
        for candidate in (os.path.join(current, DATABASE_NAME), os.path.join(current, "build", DATABASE_NAME)):
            if os.path.isfile(candidate):
                return candidate
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def database_in(directory: str) -> str | None:
    """The database `-p DIR` names: DIR/compile_commands.json (or DIR itself if it is the file)."""
    if os.path.isfile(directory):
        return os.path.abspath(directory)
    path = os.path.join(directory, DATABASE_NAME)
    return os.path.abspath(path) if os.path.isfile(path) else None


@lru_cache(maxsize=8)
def _load(database: str, _mtime: float) -> dict[str, tuple[str, ...]]:
    """Each entry's translated flags by absolute file path (the last entry of a file wins)."""
    try:
        with open(database, encoding="utf-8") as handle:
            entries = json.load(handle)
    except (OSError, ValueError):
        return {}
    table: dict[str, tuple[str, ...]] = {}
    for entry in entries if isinstance(entries, list) else ():
        if not isinstance(entry, dict) or "file" not in entry:
            continue
        directory = os.path.join(os.path.dirname(database), str(entry.get("directory") or "."))
        if isinstance(entry.get("arguments"), list):
            arguments = [str(a) for a in entry["arguments"]]
        else:
            try:
                arguments = shlex.split(str(entry.get("command", "")))
            except ValueError:
                continue
        file = os.path.normpath(os.path.join(directory, str(entry["file"])))
        table[file] = translate(arguments, directory, file)
    return table


def load_database(database: str) -> dict[str, tuple[str, ...]]:
    """The translated entries of `database` (re-read when the file changes)."""
    try:
        mtime = os.path.getmtime(database)
    except OSError:
        return {}
    return _load(database, mtime)


def flags_for(path: str, compile_db: str | None = None) -> FileFlags:
    """The flags `path` was built with: its entry in the database `compile_db` names (a directory or
    the file) or, without one, in the nearest database above the file; a file with no entry gets the
    flags of the closest file that has one (same directory first, then the longest shared path)."""
    absolute = os.path.normpath(os.path.abspath(path))
    database = database_in(compile_db) if compile_db else find_database(os.path.dirname(absolute))
    if database is None:
        return FileFlags((), "defaults")
    table = load_database(database)
    if absolute in table:
        return FileFlags(table[absolute], "database", database)
    if not table:
        return FileFlags((), "defaults", database)
    neighbour = max(sorted(table), key=lambda other: _shared_depth(other, absolute))
    return FileFlags(table[neighbour], "neighbour", database, neighbour)


def _shared_depth(one: str, other: str) -> int:
    """How many leading directories two paths share (same directory scores highest)."""
    return len(PurePath(os.path.commonpath([os.path.dirname(one), os.path.dirname(other)])).parts)


def preprocessor_settings(
    path: str, compile_db: str | None = None
) -> tuple[dict[str, str], tuple[str, ...], str | None]:
    """What the tree-sitter front-end needs from the build for `path`: its `-D` macros, its include
    directories and the database they came from (a dependency of the file's result), all empty when
    no database is found."""
    flags = flags_for(path, compile_db)
    return dict(flags.defines), flags.include_dirs, flags.database


def compile_database(directory: str) -> str:
    """The database `-p DIR` names, as an absolute path; a `ConfigError` when there is none."""
    database = database_in(directory)
    if database is None:
        raise ConfigError(f"-p {directory}: no {DATABASE_NAME} there")
    return database


def flags_note(paths: list[str], compile_db: str | None) -> str:
    """One line saying where the clang front-end's flags come from, for the files of a run."""
    origins: dict[str, int] = {}
    databases: set[str] = set()
    for path in paths:
        flags = flags_for(path, compile_db)
        origins[flags.origin] = origins.get(flags.origin, 0) + 1
        if flags.database:
            databases.add(os.path.relpath(flags.database))
    parts = []
    if origins.get("database"):
        parts.append(f"{origins['database']} file(s) with their own entry")
    if origins.get("neighbour"):
        parts.append(f"{origins['neighbour']} without one, read with the flags of the nearest file that has one")
    if origins.get("defaults"):
        parts.append(f"{origins['defaults']} with default flags (no {DATABASE_NAME} found)")
    where = f" in {', '.join(sorted(databases))}" if databases else ""
    return f"clang front-end{where}: " + ("; ".join(parts) or "no C/C++ files")


# Flags that pass with the argument after them (`-I dir`) or joined to it (`-Idir`): they change how
# the source reads and only ever read files. `-include` and `-imacros` pass only separate, since
# joined they would spell other options (`-include-pch`).
_READING_WITH_VALUE = (
    "-D",
    "-U",
    "-I",
    "-iquote",
    "-isystem",
    "-isystem-after",
    "-idirafter",
    "-isysroot",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-iwithsysroot",
    "-x",
    "--sysroot",
)
_READING_SEPARATE_ONLY = frozenset({"-include", "-imacros", "-target"})
# Flags that pass alone.
_READING_ALONE = frozenset(
    {
        "-w",
        "-pthread",
        "-ansi",
        "-pedantic",
        "-pedantic-errors",
        "-trigraphs",
        "-undef",
        "-nostdinc",
        "-nostdinc++",
        "-nostdlibinc",
        "-nobuiltininc",
        "-nogpuinc",
        "-nocudainc",
        "-nogpulib",
        "-nocudalib",
        "--cuda-host-only",
        "--cuda-device-only",
        "--offload-host-only",
        "--offload-device-only",
    }
)
_READING_PREFIXES = ("-std=", "--std=", "-stdlib=", "--target=", "--gcc-toolchain=", "--gcc-install-dir=", "-O", "-W")
# Of those, the ones that hand arguments to another program (`-Wp,-MD,PATH` writes a file).
_PASSING_ON = ("-Wp,", "-Wa,", "-Wl,")
# `-f` and `-m` options pass, except these, which load code, write files or read build products
# (after `-f`, with or without `no-`; after `-m`).
_F_REFUSED = re.compile(
    r"-f(no-)?(plugin|pass-plugin|modules-cache-path|module-output|module-file|prebuilt-module-path|"
    r"apinotes-cache-path|time-trace|crash-diagnostics|save-optimization-record|optimization-record|"
    r"profile|cs-profile|proc-stat-report|depfile-entry|coverage|test-coverage|stack-usage|dump|"
    r"embed-offload-object)"
)
_M_REFUSED = re.compile(r"-m(llvm|odule|ain-file-name|link)")
# Refused flags whose value is the next argument, dropped with it: outputs, plugins, configuration
# files, build products (and every `-X...`, which forwards its value to another program or to clang's
# internal options).
_REFUSED_WITH_VALUE = frozenset(
    {
        "-mllvm",
        "-MF",
        "-MT",
        "-MQ",
        "-MJ",
        "-o",
        "--output",
        "--config",
        "--serialize-diagnostics",
        "-serialize-diagnostic-file",
        "-dependency-file",
        "-dependency-dot",
        "-header-include-file",
        "-module-dependency-dir",
        "-load",
        "-plugin",
        "-add-plugin",
        "-include-pch",
        "-ivfsoverlay",
        "-B",
        "--prefix",
        "-dumpdir",
        "-dumpbase",
        "-working-directory",
        "-main-file-name",
        "-split-dwarf-file",
        "-split-dwarf-output",
        "-arch",
        "-target-cpu",
        "-target-feature",
        "-target-abi",
    }
)


def without_side_effects(args: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The arguments that only change how the source reads: everything else (a flag libclang could
    act on, a response file `@FILE`, a stray input) is dropped, with its value when it takes one."""
    kept: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg in _READING_SEPARATE_ONLY or arg in _READING_WITH_VALUE:
            kept.extend(args[index - 1 : index + 1])
            index += 1
        elif _reads_only(arg):
            kept.append(arg)
        elif arg in _REFUSED_WITH_VALUE or arg.startswith(("-X", "-plugin-arg-")):
            index += 1  # `-Xclang -load`, `-MF PATH`: the value goes too
    return tuple(kept)


def _reads_only(arg: str) -> bool:
    """Whether `arg` (standing alone, or with its value joined) only changes how the source reads."""
    if arg in _READING_ALONE:
        return True
    if arg.startswith(_READING_WITH_VALUE):
        return True
    if arg.startswith(_READING_PREFIXES):
        return not arg.startswith(_PASSING_ON)
    if arg.startswith("-f"):
        return _F_REFUSED.match(arg) is None
    if arg.startswith("-m"):
        return _M_REFUSED.match(arg) is None
    return False
