"""OpenMP directive names per language and the longest-match recogniser for them.

Combined and composite constructs are generated from their leaves, so `leaves` of any kind comes
from the same table that recognised it.  Fortran spells the worksharing loop `do`, has `end ...`
directives and lets blanks between directive keywords be omitted (`paralleldo`, `enddo`).
"""

from __future__ import annotations

from functools import lru_cache

from kernlint.frontends.openmp.clauses import SPECS
from kernlint.frontends.openmp.lex import is_ident_char

Leaves = tuple[str, ...]

# Constructs that never enclose a block: no Fortran `end` form exists for them.
STANDALONE = frozenset(
    {
        "barrier",
        "taskwait",
        "taskyield",
        "flush",
        "cancel",
        "cancellation point",
        "depobj",
        "scan",
        "threadprivate",
        "groupprivate",
        "requires",
        "declare target",
        "declare simd",
        "declare variant",
        "declare reduction",
        "declare mapper",
        "declare induction",
        "target enter data",
        "target exit data",
        "target update",
        "prefetch",
        "interop",
        "error",
        "nothing",
        "allocate",
        "section",
        "assumes",
    }
)

# Directives whose name may be followed by a parenthesised argument, and whether it is required.
DIRECTIVE_ARGUMENTS: dict[str, bool] = {
    "critical": False,
    "end critical": False,
    "flush": False,
    "declare target": False,
    "declare simd": False,
    "threadprivate": True,
    "groupprivate": True,
    "allocate": False,
    "declare reduction": True,
    "declare mapper": True,
    "declare variant": True,
    "declare induction": True,
    "depobj": True,
}


def _constructs(loop: str, fortran: bool) -> list[Leaves]:
    """Every directive as a tuple of leaf construct names."""
    single = [
        "target data",
        "target enter data",
        "target exit data",
        "target update",
        "target variant dispatch",
        "declare target",
        "declare simd",
        "declare variant",
        "declare reduction",
        "declare mapper",
        "declare induction",
        "prefetch",
        "atomic",
        "critical",
        "barrier",
        "single",
        "master",
        "masked",
        "taskwait",
        "taskgroup",
        "taskyield",
        "flush",
        "ordered",
        "cancel",
        "cancellation point",
        "depobj",
        "scan",
        "allocate",
        "threadprivate",
        "groupprivate",
        "requires",
        "interop",
        "dispatch",
        "error",
        "nothing",
        "metadirective",
        "assume",
        "assumes",
        "section",
        "sections",
        "task",
        "scope",
        "tile",
        "unroll",
        "taskloop",
        "loop",
        "simd",
        "teams",
        "distribute",
        "parallel",
        "target",
        loop,
    ]
    if fortran:
        single += ["workshare", "allocators"]
    else:
        single += [
            "begin declare target",
            "end declare target",
            "begin declare variant",
            "end declare variant",
            "begin assumes",
            "end assumes",
            "begin metadirective",
            "end metadirective",
        ]
    names: list[Leaves] = [(name,) for name in single]
    taskloops: list[Leaves] = [("taskloop",), ("taskloop", "simd")]
    for lead in ("master", "masked"):
        names += [(lead,) + t for t in taskloops]
    names.append(("taskloop", "simd"))
    names.append((loop, "simd"))
    par_body: list[Leaves] = [(loop,), (loop, "simd"), ("loop",), ("sections",), ("master",), ("masked",)]
    par_body += [(lead,) + t for lead in ("master", "masked") for t in taskloops]
    if fortran:
        par_body.append(("workshare",))
    parallel = [("parallel",) + body for body in par_body]
    distribute: list[Leaves] = [
        ("distribute", "simd"),
        ("distribute", "parallel", loop),
        ("distribute", "parallel", loop, "simd"),
    ]
    teams = [("teams",) + d for d in [("distribute",), *distribute]] + [("teams", "loop")]
    target = [("target",) + x for x in [("parallel",), *parallel, ("teams",), *teams, ("simd",)]]
    names += parallel + distribute + teams + target
    return list(dict.fromkeys(names))


class _Tables:
    """Directive tables for one language: kind -> leaves, a word trie, and valid `if` modifiers."""

    def __init__(self, fortran: bool) -> None:
        self.fortran = fortran
        self.leaves: dict[str, Leaves] = {}
        for construct in _constructs("do" if fortran else "for", fortran):
            kind = " ".join(construct)
            if kind.startswith(("begin ", "end ")):
                construct = (kind.split(" ", 1)[1],)
            self.leaves[kind] = construct
        self.modifier_names = frozenset(
            {k for k in self.leaves if not k.startswith(("begin ", "end "))}
            | {leaf for ls in self.leaves.values() for leaf in ls}
        )
        if fortran:  # every block construct has an `end` directive in Fortran
            for kind, leaves in list(self.leaves.items()):
                if kind not in STANDALONE:
                    self.leaves["end " + kind] = leaves
        #: Every word of a directive name, and those words plus clause names (to spot misspellings).
        self.words = frozenset(w for kind in self.leaves for w in kind.split(" "))
        self.vocabulary = sorted(self.words | set(SPECS))
        self.trie: dict[str, dict] = {}
        for kind in self.leaves:
            node = self.trie
            for word in kind.split(" "):
                node = node.setdefault(word, {})
            node[""] = kind  # type: ignore[assignment]


@lru_cache(maxsize=2)
def tables(fortran: bool) -> _Tables:
    """The (cached) directive tables for C/C++ or Fortran."""
    return _Tables(fortran)


def match_directive(text: str, pos: int, fortran: bool) -> tuple[str, int] | None:
    """Longest directive name starting at `pos`: (normalised kind, offset just past it).

    C needs each keyword to end at a word boundary; Fortran may run keywords together, but
    the whole name must still end at a boundary (so `do simdlen(4)` is `do` plus a clause).
    """
    n = len(text)
    best: tuple[str, int] | None = None
    folded = text.lower() if fortran else text

    def walk(node: dict[str, dict], at: int) -> None:
        nonlocal best
        while at < n and text[at] in " \t":
            at += 1
        for word, child in node.items():
            if not word or not folded.startswith(word, at):
                continue
            end = at + len(word)
            boundary = end >= n or not is_ident_char(text[end])
            if not boundary and not fortran:
                continue
            if boundary and "" in child and (best is None or end > best[1]):
                best = (child[""], end)
            walk(child, end)

    walk(tables(fortran).trie, pos)
    return best


def leaves_of(kind: str, fortran: bool) -> Leaves:
    """Leaf constructs of a directive kind (for `end X`, those of X); unknown kinds are one leaf."""
    return tables(fortran).leaves.get(kind, (kind,))
