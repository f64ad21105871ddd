"""What every built-in rule owes, whatever its family: documentation with every section (and a "Fix
safety" section exactly when it offers fixes), a fix availability its findings on the corpus bear out,
and no crash on broken source."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import run_json, run_rule
from kernlint.diagnostics import FixAvailability
from kernlint.rule import Rule
from kernlint_rules import builtin_rules

RULES = builtin_rules()
DEVICES = ("gen9", "xe-lp", "xe-hpg", "xe-hpc", "xe2-hpg", "a100", "h100")


def code_of(rule_class: type[Rule]) -> str:
    return rule_class.code


@pytest.mark.parametrize("rule_class", RULES, ids=code_of)
def test_documentation_has_every_section(rule_class: type[Rule]) -> None:
    doc = rule_class.documentation()
    for section in ("What it does", "Why it matters", "Example", "Fix", "Severity", "Occupancy basis"):
        assert f"\n{section}\n" in f"\n{doc}", (rule_class.code, section)
    for option in rule_class.options:
        assert option in doc


def section(doc: str, title: str) -> str | None:
    """The text of a documentation section (its indented lines), or None when there is none."""
    lines = doc.splitlines()
    if title not in lines:
        return None
    body = []
    for line in lines[lines.index(title) + 1 :]:
        if line and not line.startswith(" "):
            break
        body.append(line)
    return "\n".join(body).strip()


@pytest.mark.parametrize("rule_class", RULES, ids=code_of)
def test_the_severity_policy_names_the_rule_s_own_severity(rule_class: type[Rule]) -> None:
    """Each rule says when it is an error, a warning or an info (issue 18's policy), starting with the
    severity it reports by default."""
    policy = section(rule_class.documentation(), "Severity")
    assert policy, rule_class.code
    assert rule_class.severity.value.capitalize() in policy or rule_class.severity.value in policy, rule_class.code


@pytest.mark.parametrize("rule_class", RULES, ids=code_of)
def test_a_rule_that_fixes_says_when_its_fix_is_safe(rule_class: type[Rule]) -> None:
    safety = section(rule_class.documentation(), "Fix safety")
    if rule_class.fix_availability is FixAvailability.NEVER:
        assert safety is None, rule_class.code
    else:
        assert safety, rule_class.code  # says how its fix is marked: --fix applies only the safe ones
        assert "marked safe" in safety or "marked unsafe" in safety, rule_class.code


@pytest.fixture(scope="module")
def corpus_fixes() -> tuple[Counter[str], Counter[str]]:
    """Findings and findings with a fix, per rule, on the whole corpus for every device."""
    args = [arg for device in DEVICES for arg in ("--device", device)]
    _status, report = run_json("corpus/", *args, "--exit-zero")
    found: Counter[str] = Counter(d["code"] for d in report["diagnostics"])
    fixed: Counter[str] = Counter(d["code"] for d in report["diagnostics"] if d["fix"] is not None)
    return found, fixed


@pytest.mark.parametrize("rule_class", RULES, ids=code_of)
def test_fix_availability_is_what_the_corpus_findings_show(
    rule_class: type[Rule], corpus_fixes: tuple[Counter[str], Counter[str]]
) -> None:
    found, fixed = corpus_fixes
    code = rule_class.code
    assert found[code], f"no {code} finding in the corpus"
    if rule_class.fix_availability is FixAvailability.NEVER:
        assert fixed[code] == 0
    elif rule_class.fix_availability is FixAvailability.ALWAYS:
        assert fixed[code] == found[code]
    else:
        assert 0 < fixed[code] <= found[code]


@pytest.mark.parametrize("rule_class", RULES, ids=code_of)
def test_rules_survive_broken_source(rule_class: type[Rule]) -> None:
    broken = """
        void k(sycl::queue &q, float *x) {
          q.submit([&](sycl::handler &h) {
            sycl::local_accessor<float, 1> t(sycl::range<1>(, h);
            h.parallel_for(sycl::nd_range<3>({64, 64, }, {1, 0, 128}), [=](sycl::nd_item<3> it) {
              it.barrier(
          for (int i = 0; i < ; ++i) { sycl::queue q(; }
    """
    for device in ("gen9", "xe-hpc", "h100"):
        run_rule(rule_class, broken, device)
