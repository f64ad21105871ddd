"""How long pathological inputs take to analyse: deep nests of blocks, conditions and parentheses,
very long lines and very many lines. tests/test_pathological.py checks that each ends in a result;
this says how fast, so a regression to depth² or depth³ work shows up as a number, not a flaky test.

Run by hand: `python benchmarks/bench_pathological.py [--repeat N]`. Prints the median seconds per
input over the repeats, each in this process after one warm-up analysis. Timings are printed, never
asserted. `--smoke` runs each input once (CI runs it to keep this script working).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def kernel(body: str) -> bytes:
    """A SYCL kernel whose body is `body` (the index is `i`, the output `out`)."""
    return (
        "#include <sycl/sycl.hpp>\nvoid f(sycl::queue &q, int *out) {\n"
        "  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) {\n" + body + "  });\n}\n"
    ).encode()


def nested_conditions(depth: int) -> bytes:
    """`depth` nested ifs on distinct thresholds with a divergent branch at the bottom."""
    opening = "".join(f"if (i[0] > {k}) {{\n" for k in range(depth))
    return kernel(opening + "if (i[0] % 2 == 0) out[i] = 1;\n" + "}\n" * depth)


INPUTS = {
    "300 nested conditions": lambda: nested_conditions(300),
    "1,000 nested conditions": lambda: nested_conditions(1_000),
    "10,000 nested ifs": lambda: kernel("if (i) {\n" * 10_000 + "out[i] = 1;\n" + "}\n" * 10_000),
    "10,000 nested blocks": lambda: kernel("{\n" * 10_000 + "out[i] = 1;\n" + "}\n" * 10_000),
    "10,000 nested parentheses": lambda: kernel("out[i] = " + "(" * 10_000 + "i" + ")" * 10_000 + ";\n"),
    "a 1 MB line": lambda: b"int big = " + b"1 + " * 250_000 + b"1;\n" + kernel("out[i] = 1;\n"),
    "200,000 lines": lambda: b"  // a line\n" * 200_000 + kernel("out[i] = 1;\n"),
}


def analyse_once(data: bytes) -> float:
    """Seconds to analyse `data` as one C++ file, without a cache or a time limit."""
    from kernlint.config import Config
    from kernlint.discovery import SourceEntry
    from kernlint.engine import analyse_source
    from kernlint.session import make_setup

    setup = make_setup(Config(root=os.getcwd()), use_cache=False, timeout_s=None)
    started = time.perf_counter()
    analyse_source(SourceEntry("k.cpp", "cpp", False), data, setup)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="each input once, to check the script runs")
    args = parser.parse_args()
    repeat = 1 if args.smoke else args.repeat
    analyse_once(kernel("out[i] = 1;\n"))  # imports and query compilation, not timed
    for name, make in INPUTS.items():
        data = make()
        seconds = statistics.median(analyse_once(data) for _ in range(repeat))
        print(f"{name:28} {len(data):>10,} bytes  {seconds:7.3f} s")


if __name__ == "__main__":
    main()
