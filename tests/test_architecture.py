"""ARCHITECTURE.md cannot drift from the tree: it names every package and package-data folder, every path
and `kernlint.` module it names exists, its links resolve, and the README's Development section points at
it. Also the size limit the document states: no module of kernlint or its rules over 600 lines."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCUMENT = REPO / "ARCHITECTURE.md"
PACKAGE_ROOTS = ("kernlint", "rules/kernlint_rules")
REPOSITORY_PATH = re.compile(r"`((?:kernlint|rules|tests|benchmarks|docs|corpus)/[^`\s]*)`")
MODULE_NAME = re.compile(r"`(kernlint(?:_rules)?(?:\.\w+)+)`")
MAX_MODULE_LINES = 600


def folders_to_name(repo: Path) -> list[str]:
    """Every package under the package roots, and every data folder a package holds (`queries/`,
    `devices/` …), as repository-relative paths; caches and hidden folders left out."""
    found = []
    for root in PACKAGE_ROOTS:
        top = repo / root
        for folder in [top, *sorted(p for p in top.rglob("*") if p.is_dir())]:
            if folder.name.startswith((".", "__")):
                continue
            if (folder / "__init__.py").exists() or (folder.parent / "__init__.py").exists():
                found.append(folder.relative_to(repo).as_posix())
    return found


def unnamed(document: str, repo: Path = REPO) -> list[str]:
    """The folders the document does not name, each written as `path/`."""
    return [folder for folder in folders_to_name(repo) if f"`{folder}/`" not in document]


def test_every_package_and_data_folder_is_named() -> None:
    missing = unnamed(DOCUMENT.read_text("utf-8"))
    assert missing == [], f"ARCHITECTURE.md does not name {missing}: add a line each to section 2"


def test_a_package_left_out_is_caught(tmp_path: Path) -> None:
    """The check above can fail: a line removed from the document, or a package added to the tree."""
    document = DOCUMENT.read_text("utf-8")
    assert "kernlint/lsp" in unnamed(document.replace("`kernlint/lsp/`", "the language server"))
    for folder in ("kernlint/analysis", "kernlint/occupancy/devices", "rules/kernlint_rules/hypothetical"):
        (tmp_path / folder).mkdir(parents=True)
    for package in ("kernlint", "kernlint/analysis", "rules/kernlint_rules", "rules/kernlint_rules/hypothetical"):
        (tmp_path / package / "__init__.py").touch()
    (tmp_path / "kernlint" / "occupancy" / "__init__.py").touch()
    assert unnamed(document, tmp_path) == ["rules/kernlint_rules/hypothetical"]


def test_every_path_it_names_exists() -> None:
    named = {path.rstrip(".,:;") for path in REPOSITORY_PATH.findall(DOCUMENT.read_text("utf-8"))}
    concrete = [path for path in named if not any(mark in path for mark in "<*")]
    assert concrete, "no repository path found: the pattern no longer matches the document"
    missing = sorted(path for path in concrete if not (REPO / path).exists())
    assert missing == []


def _resolves(dotted: str) -> bool:
    """Whether `dotted` is a module, or an attribute reached from the longest importable module prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(value, name):
                return False
            value = getattr(value, name)
        return True
    return False


def test_every_module_and_name_it_cites_exists() -> None:
    cited = sorted(set(MODULE_NAME.findall(DOCUMENT.read_text("utf-8"))))
    assert "kernlint.rule.RuleContext" in cited
    assert [name for name in cited if not _resolves(name)] == []
    assert not _resolves("kernlint.rule.NoSuchContext")


def test_its_links_resolve_and_the_readme_links_to_it() -> None:
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", DOCUMENT.read_text("utf-8")):
        assert (REPO / target).exists(), f"ARCHITECTURE.md links to a missing {target}"
    readme = (REPO / "README.md").read_text("utf-8")
    development = readme[readme.index("## Development") :]
    assert "](ARCHITECTURE.md)" in development


def test_no_module_of_kernlint_or_its_rules_is_over_600_lines() -> None:
    sizes = {
        path.relative_to(REPO).as_posix(): len(path.read_text("utf-8").splitlines())
        for root in ("kernlint", "rules")
        for path in (REPO / root).rglob("*.py")
    }
    assert len(sizes) > 100
    assert {path: lines for path, lines in sizes.items() if lines > MAX_MODULE_LINES} == {}
