"""`--format junit`: JUnit XML, which CI systems (GitLab, Jenkins, Azure) show as test results.

Each checked file is a test suite; each finding in it a failed test case named after its rule (and
device), its severity the failure's type; a file without findings passes one test case. Paths are as
reported elsewhere: as given on the command line.
"""

from __future__ import annotations

import re
from typing import TextIO
from xml.etree import ElementTree

from kernlint.diagnostics import Diagnostic, RunResult

# Characters XML 1.0 cannot hold at all (escaping does not help): replaced so the document parses.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _case(suite: ElementTree.Element, diagnostic: Diagnostic) -> None:
    device = f" ({diagnostic.device})" if diagnostic.device else ""
    case = ElementTree.SubElement(
        suite,
        "testcase",
        name=f"{diagnostic.code} {diagnostic.name}{device}",
        classname=_xml(diagnostic.path),
        file=_xml(diagnostic.path),
        line=str(diagnostic.line),
    )
    message = _xml(diagnostic.message)
    failure = ElementTree.SubElement(case, "failure", message=message, type=diagnostic.severity.value)
    failure.text = f"{_xml(diagnostic.path)}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code} {message}"


def to_junit(result: RunResult, timings: bool = True) -> ElementTree.Element:
    """The `<testsuites>` element of a run (its duration only with `timings`)."""
    by_path: dict[str, list[Diagnostic]] = {file.path: [] for file in result.files}
    for diagnostic in result.diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    root = ElementTree.Element(
        "testsuites",
        name="kernlint",
        tests=str(sum(max(len(found), 1) for found in by_path.values())),
        failures=str(len(result.diagnostics)),
        errors="0",
    )
    if timings:
        root.set("time", f"{result.elapsed_s:.3f}")
    for path, found in by_path.items():
        suite = ElementTree.SubElement(
            root, "testsuite", name=_xml(path), tests=str(max(len(found), 1)), failures=str(len(found)), errors="0"
        )
        for diagnostic in found:
            _case(suite, diagnostic)
        if not found:
            ElementTree.SubElement(suite, "testcase", name="no findings", classname=_xml(path), file=_xml(path))
    return root


def render(result: RunResult, stream: TextIO, *, timings: bool = True) -> None:
    """Write the XML document, indented."""
    root = to_junit(result, timings)
    ElementTree.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ElementTree.tostring(root, encoding="unicode"))
    stream.write("\n")
