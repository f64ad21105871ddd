"""Where each rule's documentation lives: a section of `docs/rules.md`, generated from the rules' own
metadata and docstrings (so it cannot drift from them; tests/test_readme.py checks it is current).

The text report, SARIF's `helpUri` and `kernlint rule --output-format json` link to a rule's section
through `rule_url`; the page is in the repository, so the link is to the repository's copy of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kernlint.diagnostics import RuleInfo
from kernlint.rule import rules_markdown

REPOSITORY_URL = "https://github.com/kernlint/kernlint"
RULES_PAGE = "docs/rules.md"
RULES_URL = f"{REPOSITORY_URL}/blob/main/{RULES_PAGE}"
_TITLE = re.compile(r"[A-Z][\w ]{0,40}")  # a section title: a few words, no sentence
_CODE_LINE = re.compile(r"[;{}]\s*(//.*)?$|^\s*(#\s*(pragma|include|define)|!\$omp|//|!\s)|^\s*(for|if)\s*\(")


def anchor(code: str, name: str) -> str:
    """The anchor of a rule's section: its heading, `KL101 buffer-in-loop`, as GitHub slugs it."""
    return f"{code}-{name}".lower()


def rule_url(rule: str | RuleInfo, name: str = "") -> str:
    """The address of a rule's documentation (`rule_url(info)` or `rule_url(code, name)`)."""
    if isinstance(rule, RuleInfo):
        return f"{RULES_URL}#{anchor(rule.code, rule.name)}"
    return f"{RULES_URL}#{anchor(rule, name)}"


def rules_document(infos: Iterable[RuleInfo]) -> str:
    """The whole of `docs/rules.md`: the rules table, then one section per rule."""
    infos = list(infos)
    parts = [
        "# kernlint rules\n",
        "<!-- generated from the rules' metadata and documentation (kernlint.rule_docs); regenerate with\n"
        "     KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_readme.py -->\n",
        "`kernlint rule CODE` prints the same documentation; `kernlint rule --output-format json` gives it "
        "to scripts. The rules marked *per device* run once per `--device`.\n",
        rules_markdown(infos, link=lambda info: f"#{anchor(info.code, info.name)}"),
    ]
    for info in infos:
        parts.append(_section(info))
    return "\n".join(parts)


def _section(info: RuleInfo) -> str:
    facts = [f"Severity: {info.severity.value}"]
    if info.needs_device:
        facts.append("runs once per target device")
    lines = [
        f"## {info.code} {info.name}\n",
        f"{'; '.join(facts)}. {info.fix_availability.sentence()}\n",
        _markdown(info.doc or info.summary),
    ]
    return "\n".join(lines)


def _markdown(doc: str) -> str:
    """A rule docstring (a summary line, then titled sections indented four spaces) as Markdown:
    titles become headings, prose paragraphs stay text, and examples and code become code blocks."""
    out: list[str] = []
    title = ""
    paragraph: list[str] = []

    def flush() -> None:
        if not paragraph:
            return
        text = _dedent(paragraph)
        if title.startswith("Example") or any(_CODE_LINE.search(line) for line in text):
            out.append("```\n" + "\n".join(text) + "\n```\n")
        else:
            out.append(" ".join(line.strip() for line in text) + "\n")
        paragraph.clear()

    for line in doc.splitlines():
        if line and not line[0].isspace():
            flush()
            if out and _TITLE.fullmatch(line):  # the first unindented line is the summary
                title = line.strip()
                out.append(f"### {title}\n")
            else:
                out.append(line.strip() + "\n")
        elif not line.strip():
            if title.startswith("Example") and paragraph:
                paragraph.append("")  # an example keeps its blank lines
            else:
                flush()
        else:
            paragraph.append(line)
    flush()
    return "\n".join(out)


def _dedent(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[indent:] for line in lines]
