"""`benchmarks/parser_share.py` reads tree-sitter's own time out of a cProfile dump by the names cProfile
gives the binding's C methods: a binding that renamed them would make it report no parse at all."""

from __future__ import annotations

import cProfile
import sys
from pathlib import Path

import tree_sitter

from kernlint.frontends.common import treesitter

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import parser_share

SOURCE = b"void scale(float *x, int n) { for (int i = 0; i < n; ++i) x[i] = 2 * x[i]; }\n" * 200


def _profiled(work: object, path: Path) -> None:
    profile = cProfile.Profile()
    profile.runcall(work)  # type: ignore[arg-type]
    profile.dump_stats(str(path))


def test_parse_and_query_runs_are_counted(tmp_path: Path) -> None:
    query = tree_sitter.Query(treesitter.language("cpp"), "(for_statement) @loop")

    def work() -> None:
        tree = treesitter.parser("cpp").parse(SOURCE)
        tree_sitter.QueryCursor(query).matches(tree.root_node)
        tree_sitter.QueryCursor(query).captures(tree.root_node)

    _profiled(work, tmp_path / "ts.prof")
    seconds = parser_share.tree_sitter_seconds(tmp_path / "ts.prof")
    assert seconds["parse"] > 0
    assert seconds["run queries"] > 0


def test_other_work_is_not_counted(tmp_path: Path) -> None:
    _profiled(lambda: sorted(SOURCE.split()), tmp_path / "other.prof")
    assert parser_share.tree_sitter_seconds(tmp_path / "other.prof") == {"parse": 0.0, "run queries": 0.0}
