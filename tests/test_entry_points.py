"""kernlint's own reading of the installed entry points (`kernlint.entry_points`) gives what
`importlib.metadata.entry_points(group=...)` gives, in the same order: in this environment, and in
generated ones (several path entries, a distribution installed twice, egg-info folders, names that
normalise alike, comments and sections, a distribution without entry points, a missing folder, a
zip archive and an egg on the path, another finder of distributions)."""

from __future__ import annotations

import sys
import zipfile
from importlib.metadata import entry_points as from_metadata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kernlint.entry_points
from kernlint.entry_points import EntryPoint, entry_points


def _as_tuples(found: object) -> list[tuple[str, str, str]]:
    return [(e.name, e.value, e.group) for e in found]  # type: ignore[attr-defined]


def _same_as_metadata(group: str) -> None:
    assert _as_tuples(entry_points(group)) == _as_tuples(from_metadata(group=group))


@pytest.mark.parametrize("group", ["kernlint", "console_scripts", "pytest11", "nothing-here"])
def test_this_environment(group: str) -> None:
    _same_as_metadata(group)
    if group == "kernlint":
        assert any(e.name == "builtin-rules" for e in entry_points(group))


def _distribution(where: Path, folder: str, text: str | None) -> None:
    info = where / folder
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {folder.partition('-')[0]}\nVersion: 1\n")
    if text is not None:
        (info / "entry_points.txt").write_text(text)


_FOLDERS = st.sampled_from(
    [
        "alpha-1.0.dist-info",
        "alpha-2.0.dist-info",
        "Alpha_Plugin-1.dist-info",
        "alpha.plugin-1.dist-info",
        "beta-1.egg-info",
        "beta-3.dist-info",
        "gamma.dist-info",
        "Delta-0.1.DIST-INFO",
    ]
)
_TEXTS = st.lists(
    st.sampled_from(
        [
            "[kernlint]",
            "[console_scripts]",
            "[other]",
            "one = pkg.one",
            "two=pkg.two:attr",
            "  three =  pkg:attr.inner [extra] ",
            "# a comment",
            "",
            "four = pkg.four",
            "junk",
        ]
    ),
    max_size=7,
).map("\n".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.lists(st.tuples(_FOLDERS, st.one_of(st.none(), _TEXTS)), max_size=4), min_size=1, max_size=3),
    st.booleans(),
)
def test_generated_environments(
    tmp_path_factory: pytest.TempPathFactory, layout: list[list[tuple[str, str | None]]], missing: bool
) -> None:
    base = tmp_path_factory.mktemp("site")
    paths = []
    for number, distributions in enumerate(layout):
        where = base / f"path{number}"
        where.mkdir()
        for folder, text in distributions:
            _distribution(where, folder, text)
        paths.append(str(where))
    if missing:
        paths.insert(1, str(base / "not-there"))
    original = sys.path[:]
    sys.path[:] = paths
    try:
        for group in ("kernlint", "console_scripts", "other"):
            try:
                expected = _as_tuples(from_metadata(group=group))
            except Exception as exc:  # a line without `=`: both fail alike
                with pytest.raises(type(exc)):
                    entry_points(group)
                continue
            assert _as_tuples(entry_points(group)) == expected
    finally:
        sys.path[:] = original


def test_an_archive_or_an_egg_on_the_path_is_left_to_importlib_metadata(tmp_path: Path) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("zipped-1.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\nVersion: 1\n")
        handle.writestr("zipped-1.dist-info/entry_points.txt", "[kernlint]\nzipped = zipped_rules\n")
    egg = tmp_path / "eggy-1.egg"
    (egg / "EGG-INFO").mkdir(parents=True)
    (egg / "EGG-INFO" / "PKG-INFO").write_text("Metadata-Version: 1.1\nName: eggy\nVersion: 1\n")
    (egg / "EGG-INFO" / "entry_points.txt").write_text("[kernlint]\neggy = eggy_rules\n")
    original = sys.path[:]
    try:
        for path in (archive, egg):
            sys.path[:] = [str(path)]
            found = entry_points("kernlint")
            assert _as_tuples(found) == _as_tuples(from_metadata(group="kernlint"))
            assert len(found) == 1 and not isinstance(found[0], EntryPoint)  # importlib.metadata's own
    finally:
        sys.path[:] = original


def test_another_finder_of_distributions_is_left_to_importlib_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        @staticmethod
        def find_spec(*_args: object) -> None:
            return None

        @staticmethod
        def find_distributions(*_args: object) -> list[object]:
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    found = entry_points("kernlint")
    assert found and not any(isinstance(e, EntryPoint) for e in found)


def test_loading_names_the_object_or_fails_as_importlib_metadata_fails() -> None:
    assert EntryPoint("x", "kernlint.entry_points:EntryPoint.load", "g").load() is EntryPoint.load
    assert EntryPoint("x", "kernlint.entry_points", "g").load() is kernlint.entry_points
    from importlib.metadata import EntryPoint as Reference

    for value in ("not a value!", "no_such_module_here:x"):
        with pytest.raises(Exception) as ours:
            EntryPoint("x", value, "g").load()
        with pytest.raises(Exception) as theirs:
            Reference("x", value, "g").load()
        assert repr(ours.value) == repr(theirs.value)
