"""The README's rules table is the one the rules' metadata generates (`kernlint.rule.rules_markdown`).

After adding or changing a rule, regenerate it:

    KERNLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_readme.py
"""

from __future__ import annotations

import os
import re

from conftest import REPO
from kernlint.engine import PARSE_ERROR_RULE
from kernlint.plugins import load_plugins
from kernlint.rule import rules_markdown

README = REPO / "README.md"
BEGIN = "<!-- rules table: generated from the rules' metadata, see tests/test_readme.py -->\n"
END = "<!-- end of rules table -->\n"
TABLE = re.compile(re.escape(BEGIN) + r"(?P<table>.*?)" + re.escape(END), re.DOTALL)


def test_readme_rules_table_is_current() -> None:
    plugins = load_plugins()
    table = rules_markdown([PARSE_ERROR_RULE, *(rule.info() for _code, rule in sorted(plugins.rules.items()))])
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
