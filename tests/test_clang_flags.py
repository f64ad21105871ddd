"""compile_commands.json to libclang arguments, and the -D/-I both front-ends read from it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kernlint.config import ConfigError
from kernlint.frontends.clang.flags import (
    FileFlags,
    compile_database,
    flags_for,
    flags_note,
    preprocessor_settings,
    translate,
)


def test_translate_keeps_what_changes_reading_and_drops_the_build() -> None:
    args = translate(
        [
            "/opt/intel/bin/icpx",
            "-fsycl",
            "-fsycl-targets=spir64_gen",
            "-Xsycl-target-backend",
            "-device pvc",
            "-DN=4",
            "-D",
            "MODE=fast",
            "-UOLD",
            "-Iinc",
            "-isystem",
            "/sys/inc",
            "-include",
            "pre.h",
            "-std=c++20",
            "-O3",
            "-c",
            "src/a.cpp",
            "-o",
            "a.o",
            "-MD",
            "-MF",
            "a.d",
            "-fiopenmp",
            "-fopenmp-targets=spir64",
            "-Wl,--as-needed",
            "-lm",
        ],
        "/build",
        "src/a.cpp",
    )
    assert args == (
        "-DN=4",
        "-D",
        "MODE=fast",
        "-UOLD",
        "-I",
        "/build/inc",
        "-isystem",
        "/sys/inc",
        "-include",
        "/build/pre.h",
        "-std=c++20",
        "-O3",
        "-fopenmp",
    )


def test_translate_skips_a_compiler_wrapper_and_joined_outputs() -> None:
    assert translate(["ccache", "clang++", "-ofoo.o", "-MFfoo.d", "-I/abs", "x.cpp"], "/b", "x.cpp") == ("-I", "/abs")


def test_defines_and_include_dirs_in_command_line_order() -> None:
    flags = FileFlags(
        ("-DA", "-DB=2", "-D", "C=x y", "-UA", "-I", "/i1", "-iquote", "/q", "-isystem", "/s"), "database"
    )
    assert flags.defines == (("B", "2"), ("C", "x y"))
    assert flags.include_dirs == ("/i1", "/q", "/s")


def _database(directory: Path, entries: list[dict]) -> Path:
    path = directory / "compile_commands.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def test_own_entry_neighbour_and_defaults(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "other").mkdir()
    database = _database(
        tmp_path,
        [
            {"directory": str(tmp_path), "file": "src/a.cpp", "command": "g++ -DFROM_A -Iinclude -c src/a.cpp -o a.o"},
            {"directory": str(tmp_path), "file": "other/b.cpp", "arguments": ["g++", "-DFROM_B", "-c", "other/b.cpp"]},
        ],
    )
    own = flags_for(str(tmp_path / "src" / "a.cpp"))
    assert (own.origin, own.database, own.defines) == ("database", str(database), (("FROM_A", "1"),))
    assert own.include_dirs == (str(tmp_path / "include"),)
    neighbour = flags_for(str(tmp_path / "src" / "new.cpp"))
    assert (neighbour.origin, neighbour.source, neighbour.defines) == (
        "neighbour",
        str(tmp_path / "src" / "a.cpp"),
        (("FROM_A", "1"),),
    )
    assert "used the flags of" in neighbour.describe()
    elsewhere = tmp_path.parent / f"{tmp_path.name}_none"
    elsewhere.mkdir()
    assert flags_for(str(elsewhere / "c.cpp")).origin == "defaults"


def test_relative_directory_is_relative_to_the_database(tmp_path: Path) -> None:
    _database(tmp_path, [{"directory": ".", "file": "k.cpp", "arguments": ["icpx", "-DX=1", "-Iinc", "k.cpp"]}])
    flags = flags_for(str(tmp_path / "k.cpp"))
    assert flags.origin == "database" and flags.include_dirs == (str(tmp_path / "inc"),)


def test_database_in_build_directory_and_p_option(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    database = _database(
        tmp_path / "build", [{"directory": str(tmp_path), "file": "m.cpp", "arguments": ["c++", "-DM", "m.cpp"]}]
    )
    assert flags_for(str(tmp_path / "m.cpp")).database == str(database)
    assert compile_database(str(tmp_path / "build")) == str(database)
    assert flags_for(str(tmp_path / "m.cpp"), str(database)).origin == "database"
    with pytest.raises(ConfigError, match=r"no compile_commands\.json"):
        compile_database(str(tmp_path))


def test_preprocessor_settings_for_tree_sitter(tmp_path: Path) -> None:
    database = _database(
        tmp_path, [{"directory": str(tmp_path), "file": "t.cpp", "arguments": ["c++", "-DWG=512", "-Ihdr", "t.cpp"]}]
    )
    defines, include_dirs, found = preprocessor_settings(str(tmp_path / "t.cpp"))
    assert (defines, include_dirs, found) == ({"WG": "512"}, (str(tmp_path / "hdr"),), str(database))


def test_note_counts_origins(tmp_path: Path) -> None:
    _database(tmp_path, [{"directory": str(tmp_path), "file": "a.cpp", "arguments": ["c++", "a.cpp"]}])
    note = flags_note([str(tmp_path / "a.cpp"), str(tmp_path / "b.cpp")], None)
    assert "1 file(s) with their own entry" in note and "1 without one" in note
    assert os.path.relpath(str(tmp_path / "compile_commands.json")) in note
