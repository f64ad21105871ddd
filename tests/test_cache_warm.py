"""What the warm run's shortcuts must not change: a cached result is the one JSON would give back (the
index is marshal data now), an index that does not load is an empty one, a folder's config is found
once per run but anew after `forget`, a config added above a project misses the cache, and every
spelling of a path looks up the file's own entry."""

from __future__ import annotations

import json
import marshal
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_kernlint
from kernlint.cache import CacheIndex, absolute_paths, record_for
from kernlint.cache_home import Signer, cache_home, user_key
from kernlint.diagnostics import Diagnostic, FileResult, FileStatus, Severity
from kernlint.discovery import SourceEntry
from kernlint.projects import ConfigResolver
from test_cache_trust import KERNEL

AN_HOUR_AGO = time.time() - 3600


@pytest.fixture(autouse=True)
def own_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache home of each test's own: the damaged indexes written here must not reach other tests'."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))


def _source(tmp_path: Path) -> SourceEntry:
    path = tmp_path / "k.cpp"
    path.write_bytes(b"int x;\n")
    os.utime(path, (AN_HOUR_AGO, AN_HOUR_AGO))  # older than the index: its stamp is trusted
    return SourceEntry(str(path), "cpp")


def _finding(path: str, evidence: dict) -> Diagnostic:
    return Diagnostic(path, 1, 1, 1, 4, "KL101", "buffer-in-loop", Severity.WARNING, "a message", evidence=evidence)


def test_a_cached_result_is_what_json_gives_back(tmp_path: Path) -> None:
    """Marshal keeps tuples and integer keys that JSON turns into lists and strings: a cached result must
    still be the JSON form, as every warm run's was when the index was JSON."""
    entry = _source(tmp_path)
    evidence = {"arms": (1, 2), 3: "three", "nested": {"pair": (0.5, None)}}
    result = FileResult(entry.path, "sycl", FileStatus.OK, None, (_finding(entry.path, evidence),))
    index = CacheIndex(str(tmp_path), "context")
    index.store(entry, result, record_for(os.stat(entry.path), result))
    index.save()
    cached = CacheIndex(str(tmp_path), "context").lookup(entry)
    assert cached is not None
    [diagnostic] = cached.diagnostics
    assert diagnostic.evidence == {"arms": [1, 2], "3": "three", "nested": {"pair": [0.5, None]}}
    assert diagnostic == Diagnostic.from_json(json.loads(json.dumps(result.diagnostics[0].to_json())))


def _signed_index(index: CacheIndex, body: bytes) -> None:
    home = cache_home()
    assert home is not None and index.path is not None
    key = user_key(home)
    assert key is not None
    index.path.write_bytes(b"kernlint-index " + Signer(key).sign(body) + b"\n" + body)


@pytest.mark.parametrize("damage", ["json", "truncated", "other format"])
def test_an_index_that_does_not_load_is_an_empty_one(tmp_path: Path, damage: str) -> None:
    """Signed by this user, yet not this format's: an index of the JSON format, marshal data cut short,
    a document of another format number. Each is a miss, never a failed run."""
    entry = _source(tmp_path)
    result = FileResult(entry.path, "sycl", FileStatus.OK, None, ())
    index = CacheIndex(str(tmp_path), "context")
    index.store(entry, result, record_for(os.stat(entry.path), result))
    index.save()
    assert CacheIndex(str(tmp_path), "context").lookup(entry) == result
    assert index.path is not None
    document = marshal.loads(index.path.read_bytes().partition(b"\n")[2])
    if damage == "json":
        body = json.dumps({**document, "format": 3}).encode()
    elif damage == "truncated":
        body = marshal.dumps(document)[:-7]
    else:
        body = marshal.dumps({**document, "format": 99})
    _signed_index(index, body)
    assert CacheIndex(str(tmp_path), "context").lookup(entry) is None


def test_a_folder_s_config_is_found_anew_after_forget(tmp_path: Path) -> None:
    """The resolver keeps each folder's answer for the run; the language server calls `forget` when a
    config file changes, and must then see the new one."""
    (tmp_path / ".git").mkdir()
    folder = tmp_path / "src"
    folder.mkdir()
    resolver = ConfigResolver(start=str(tmp_path))
    assert resolver.for_directory(str(folder)).path is None
    (tmp_path / ".kernlint.toml").write_text('device = ["a100"]\n')
    assert resolver.for_directory(str(folder)).path is None  # the run's answer
    resolver.forget()
    assert resolver.for_directory(str(folder)).devices == ("a100",)
    assert resolver.for_file(str(folder / "k.cpp")).devices == ("a100",)


def test_a_config_added_in_a_parent_folder_misses_the_cache(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / "src" / "k.cpp").write_bytes(KERNEL)
    os.utime(project / "src" / "k.cpp", (AN_HOUR_AGO, AN_HOUR_AGO))
    first = run_kernlint("k.cpp", "--output-format", "concise", cwd=project / "src")
    assert first.returncode == 1 and b"KL101" in first.stdout
    assert run_kernlint("k.cpp", "--output-format", "concise", cwd=project / "src").stdout == first.stdout  # warm
    (project / ".kernlint.toml").write_text('ignore = ["KL101"]\n')
    ignored = run_kernlint("k.cpp", "--output-format", "concise", cwd=project / "src")
    assert ignored.returncode == 0 and b"KL101" not in ignored.stdout
    (project / ".kernlint.toml").unlink()
    assert run_kernlint("k.cpp", "--output-format", "concise", cwd=project / "src").stdout == first.stdout


SPELLINGS = st.lists(st.sampled_from(["a", ".", "..", "b", "", "a.cpp"]), min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(SPELLINGS, st.booleans(), st.booleans())
def test_every_spelling_of_a_path_is_made_absolute_as_abspath_does(
    parts: list[str], absolute: bool, trailing: bool
) -> None:
    """The cache asks for the working directory once per run rather than once per file: each path must
    still map to `os.path.abspath`'s answer, the key of its entry."""
    path = ("/" if absolute else "") + "/".join(parts) + ("/" if trailing else "")
    if not path:
        path = "."
    assert absolute_paths([path, "x.cpp"]) == [os.path.abspath(path), os.path.abspath("x.cpp")]
