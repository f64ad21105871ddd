"""A long fuzzing run: the properties of tests/test_fuzz_engine.py (mutated corpus files, random bytes
and token soup, generated OpenMP directives and configs) on many more examples than the suite affords.

    python benchmarks/fuzz_long.py            # 50 times the suite's examples (about 10,000 inputs)
    python benchmarks/fuzz_long.py 200 -x     # a longer run; extra arguments go to pytest

Hypothesis keeps failing examples in .hypothesis/, so the suite replays any failure found here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    scale = argv[0] if argv and argv[0].isdigit() else "50"
    extra = argv[1:] if argv and argv[0].isdigit() else argv
    env = {**os.environ, "KERNLINT_FUZZ_SCALE": scale}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        str(REPO / "tests" / "test_fuzz_engine.py"),
        "--hypothesis-show-statistics",
        *extra,
    ]
    return subprocess.run(command, cwd=REPO, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
