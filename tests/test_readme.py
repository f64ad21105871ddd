"""The README's rules table and docs/rules.md are what the rules' metadata and documentation generate
(`kernlint.rule.rules_markdown`, `kernlint.rule_docs.rules_document`), and the user-facing docs point
only at files the repository has.

After adding or changing a rule, regenerate them:

    KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_readme.py
"""

from __future__ import annotations

import os
import re

from conftest import REPO
from kernlint.engine import PARSE_ERROR_RULE
from kernlint.plugins import load_plugins
from kernlint.rule import rules_markdown
from kernlint.rule_docs import RULES_PAGE, anchor, rules_document

README = REPO / "README.md"
BEGIN = "<!-- rules table: generated from the rules' metadata, see tests/test_readme.py -->\n"
END = "<!-- end of rules table -->\n"
TABLE = re.compile(re.escape(BEGIN) + r"(?P<table>.*?)" + re.escape(END), re.DOTALL)


def test_readme_rules_table_is_current() -> None:
    plugins = load_plugins()
    table = rules_markdown(
        [PARSE_ERROR_RULE, *(rule.info() for _code, rule in sorted(plugins.rules.items()))],
        link=lambda info: f"{RULES_PAGE}#{anchor(info.code, info.name)}",
    )
    text = README.read_text("utf-8")
    match = TABLE.search(text)
    assert match, f"README.md lacks the rules table between {BEGIN.strip()} and {END.strip()}"
    if os.environ.get("KERNLINT_UPDATE_SNAPSHOTS") == "1":
        README.write_text(text[: match.start("table")] + table + text[match.end("table") :], "utf-8")
        return
    assert match.group("table") == table, (
        "README.md's rules table is out of date: regenerate it with "
        "KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_readme.py"
    )


def test_docs_rules_page_is_current() -> None:
    """docs/rules.md, which every finding links to, holds one section per rule, generated."""
    infos = [PARSE_ERROR_RULE, *(rule.info() for _code, rule in sorted(load_plugins().rules.items()))]
    page = REPO / RULES_PAGE
    expected = rules_document(infos)
    if os.environ.get("KERNLINT_UPDATE_SNAPSHOTS") == "1":
        page.parent.mkdir(exist_ok=True)
        page.write_text(expected, "utf-8")
        return
    assert page.exists() and page.read_text("utf-8") == expected, (
        f"{RULES_PAGE} is out of date: regenerate it with "
        "KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_readme.py"
    )
    headings = re.findall(r"^## (KL\d+) (\S+)$", expected, re.MULTILINE)
    assert [code for code, _name in headings] == [info.code for info in infos]
    assert all(f"(#{anchor(code, name)})" in expected for code, name in headings)  # the table links to them
    assert "### Why it matters" in expected and "```\n" in expected


USER_DOCS = (
    "README.md",
    ".pre-commit-hooks.yaml",
    "docs/contract.md",
    "kernlint/report/schemas/kernlint-output-v1.schema.json",
)


def test_the_user_facing_docs_point_at_files_the_repository_has() -> None:
    """The contract (command line, exit codes, JSON fields, annotations) lives in docs/contract.md: no
    doc, and no module, points at a contract file the repository does not have."""
    assert (REPO / "docs" / "contract.md").exists()
    for name in USER_DOCS:
        text = (REPO / name).read_text("utf-8")
        assert "SPEC" not in text, name
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):  # relative Markdown links
            assert (REPO / name).parent.joinpath(target).exists(), f"{name} links to a missing {target}"
    sources = [*(REPO / "kernlint").rglob("*.py"), *(REPO / "tests").glob("*.py")]
    retired = ("SPEC" + ".md", "SPEC" + " §")  # spelt so that this file does not name them itself
    mentions = [p for p in sources if any(name in p.read_text("utf-8") for name in retired)]
    assert mentions == []
    assert "docs/contract.md" in (REPO / "README.md").read_text("utf-8")


def test_the_documentation_links_point_at_the_project_repository() -> None:
    from kernlint.compat import tomllib
    from kernlint.rule_docs import REPOSITORY_URL, RULES_URL

    urls = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["urls"]
    assert urls == {"Repository": REPOSITORY_URL, "Documentation": RULES_URL}
