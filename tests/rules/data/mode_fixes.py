"""Running one accessor rule on a whole source and applying its fix, for the data rules' fix tests."""

from __future__ import annotations

from kernlint.diagnostics import Edit, Fix
from kernlint.frontends.cpp.frontend import extract
from kernlint.rule import RuleContext
from kernlint.source import SourceFile


def apply(text: str, edits: tuple[Edit, ...]) -> str:
    """Apply edits (1-based lines, 1-based character columns, end exclusive) from the last to the first."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        lo = starts[edit.line - 1] + edit.column - 1
        hi = starts[edit.end_line - 1] + edit.end_column - 1
        assert 0 <= lo <= hi <= len(text)
        text = text[:lo] + edit.text + text[hi:]
    return text


def check_text(rule_class, text: str) -> list:
    facts = extract("t.cpp", text.encode())
    ctx = RuleContext(rule_class, SourceFile("t.cpp", text.encode()), facts.language)
    return list(rule_class().check(facts, ctx))


def fixed_line(rule_class, text: str) -> tuple[str, Fix]:
    """The one line the rule's only diagnostic's fix changes, after the change, and the fix."""
    (diagnostic,) = check_text(rule_class, text)
    assert diagnostic.fix is not None, diagnostic.message
    new = apply(text, diagnostic.fix.edits)
    changed = [b for a, b in zip(text.splitlines(), new.splitlines()) if a != b]
    assert len(changed) == 1 and len(text.splitlines()) == len(new.splitlines())
    return changed[0].strip(), diagnostic.fix
