"""Tests for the shared OpenMP directive parser (kernlint.frontends.openmp.directives)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernlint.facts.openmp_directive import OmpClause, OmpDirective, OmpParseError
from kernlint.frontends.openmp.directives import _parse, join_c_pragma, parse_directive, scan_fortran_directives


def ok(text: str, language: str = "c", **kw: int) -> OmpDirective:
    """Parse and insist on success, showing the error otherwise."""
    result = parse_directive(text, language=language, **kw)
    assert isinstance(result, OmpDirective), result
    return result


def err(text: str, language: str = "c") -> OmpParseError:
    result = parse_directive(text, language=language)
    assert isinstance(result, OmpParseError), result
    return result


def only(d: OmpDirective, name: str) -> OmpClause:
    found = d.clauses_named(name)
    assert len(found) == 1, d.clauses
    return found[0]


def clause_of(d: OmpDirective, name: str) -> OmpClause:
    """`d.clause(name)`, insisting the directive has that clause."""
    found = d.clause(name)
    assert found is not None, d.clauses
    return found


def dims(item) -> list[tuple]:
    return [(s.lower, s.length, s.upper, s.stride, s.is_range) for s in item.dims]


# --- directive names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, text, kind, leaves",
    [
        ("c", "target", "target", ("target",)),
        ("c", "teams", "teams", ("teams",)),
        ("c", "distribute", "distribute", ("distribute",)),
        ("c", "parallel", "parallel", ("parallel",)),
        ("c", "for", "for", ("for",)),
        ("c", "simd simdlen(8)", "simd", ("simd",)),
        ("c", "loop bind(thread)", "loop", ("loop",)),
        ("c", "parallel for", "parallel for", ("parallel", "for")),
        ("c", "for simd", "for simd", ("for", "simd")),
        (
            "c",
            "target teams distribute parallel for",
            "target teams distribute parallel for",
            ("target", "teams", "distribute", "parallel", "for"),
        ),
        (
            "c",
            "target teams distribute parallel for simd",
            "target teams distribute parallel for simd",
            ("target", "teams", "distribute", "parallel", "for", "simd"),
        ),
        ("c", "target   teams\tloop", "target teams loop", ("target", "teams", "loop")),
        ("c", "target parallel for", "target parallel for", ("target", "parallel", "for")),
        ("c", "target simd", "target simd", ("target", "simd")),
        ("c", "teams distribute simd", "teams distribute simd", ("teams", "distribute", "simd")),
        (
            "c",
            "parallel masked taskloop simd",
            "parallel masked taskloop simd",
            ("parallel", "masked", "taskloop", "simd"),
        ),
        ("c", "target data map(a)", "target data", ("target data",)),
        ("c", "target enter data map(to: a)", "target enter data", ("target enter data",)),
        ("c", "target exit data map(from: a)", "target exit data", ("target exit data",)),
        ("c", "target update to(a)", "target update", ("target update",)),
        ("c", "declare target", "declare target", ("declare target",)),
        ("c", "end declare target", "end declare target", ("declare target",)),
        ("c", "begin declare target", "begin declare target", ("declare target",)),
        ("c", "declare simd uniform(p)", "declare simd", ("declare simd",)),
        ("c", "atomic update", "atomic", ("atomic",)),
        ("c", "critical", "critical", ("critical",)),
        ("c", "barrier", "barrier", ("barrier",)),
        ("c", "single", "single", ("single",)),
        ("c", "master", "master", ("master",)),
        ("c", "masked filter(0)", "masked", ("masked",)),
        ("c", "taskwait", "taskwait", ("taskwait",)),
        ("c", "prefetch data(a[i])", "prefetch", ("prefetch",)),
        ("c", "cancellation point for", "cancellation point", ("cancellation point",)),
        ("c", "sections", "sections", ("sections",)),
        ("c", "section", "section", ("section",)),
        ("fortran", "parallel do", "parallel do", ("parallel", "do")),
        ("fortran", "do simd", "do simd", ("do", "simd")),
        (
            "fortran",
            "target teams distribute parallel do simd",
            "target teams distribute parallel do simd",
            ("target", "teams", "distribute", "parallel", "do", "simd"),
        ),
        (
            "fortran",
            "TARGET TEAMS DISTRIBUTE PARALLEL DO",
            "target teams distribute parallel do",
            ("target", "teams", "distribute", "parallel", "do"),
        ),
        ("fortran", "paralleldo", "parallel do", ("parallel", "do")),
        ("fortran", "parallel workshare", "parallel workshare", ("parallel", "workshare")),
        ("fortran", "end target", "end target", ("target",)),
        ("fortran", "end parallel do", "end parallel do", ("parallel", "do")),
        (
            "fortran",
            "END TARGET TEAMS DISTRIBUTE PARALLEL DO",
            "end target teams distribute parallel do",
            ("target", "teams", "distribute", "parallel", "do"),
        ),
        ("fortran", "enddo", "end do", ("do",)),
        ("fortran", "end target data", "end target data", ("target data",)),
        ("fortran", "targetenterdata map(to: a)", "target enter data", ("target enter data",)),
        ("fortran", "declare target", "declare target", ("declare target",)),
        ("fortran", "prefetch data(b(i:i))", "prefetch", ("prefetch",)),
        ("fortran", "atomic read", "atomic", ("atomic",)),
        ("fortran", "end atomic", "end atomic", ("atomic",)),
        ("fortran", "workshare", "workshare", ("workshare",)),
    ],
)
def test_directive_kind_and_leaves(language: str, text: str, kind: str, leaves: tuple) -> None:
    d = ok(text, language)
    assert d.kind == kind
    assert d.leaves == leaves
    assert d.is_combined == (len(leaves) > 1)
    assert d.language == language


@pytest.mark.parametrize(
    "language, text, kind, clause_names",
    [
        # Fortran may run keywords together, but a clause is not swallowed into the name.
        ("fortran", "do simdlen(4)", "do", ["simdlen"]),
        ("fortran", "parallel default(shared)", "parallel", ["default"]),
        ("fortran", "teams default(none)", "teams", ["default"]),
        ("fortran", "target device(1)", "target", ["device"]),
        ("c", "simd simdlen(4)", "simd", ["simdlen"]),
        ("c", "target device(1)", "target", ["device"]),
        ("c", "cancel parallel if(x)", "cancel", ["parallel", "if"]),
        ("c", "taskloop grainsize(4)", "taskloop", ["grainsize"]),
        ("c", "task untied", "task", ["untied"]),
    ],
)
def test_longest_match_stops_before_clauses(language, text, kind, clause_names) -> None:
    d = ok(text, language)
    assert d.kind == kind
    assert [c.name for c in d.clauses] == clause_names


def test_end_directive_flags() -> None:
    assert ok("end parallel", "fortran").is_end
    assert not ok("parallel", "fortran").is_end
    assert ok("end declare target").is_end


def test_c_does_not_know_fortran_do_and_vice_versa() -> None:
    d = ok("parallel do")  # C: `do` is just an unknown clause, kept
    assert d.kind == "parallel" and [c.name for c in d.clauses] == ["do"]
    assert err("do").message == "unknown OpenMP directive 'do'"
    assert err("for", "fortran").message == "unknown OpenMP directive 'for'"
    d = ok("parallel for", "fortran")
    assert d.kind == "parallel" and [c.name for c in d.clauses] == ["for"]
    assert err("parallel_for").message == "unknown OpenMP directive 'parallel_for'"


@pytest.mark.parametrize(
    "text, kind, extension",
    [
        ("omp parallel for", "parallel for", False),
        ("ompx prefetch data(b[i])", "prefetch", True),
        ("#pragma omp target", "target", False),
        ("  #  pragma   ompx prefetch data(4: b[i])", "prefetch", True),
        ("prefetch data(b[i])", "prefetch", False),
        ("target", "target", False),
    ],
)
def test_c_sentinel_is_optional_and_sets_extension(text, kind, extension) -> None:
    d = ok(text)
    assert (d.kind, d.extension) == (kind, extension)


@pytest.mark.parametrize(
    "text",
    [
        "!$omp parallel do",
        "!$OMP parallel do",
        "c$omp parallel do",
        "*$omp parallel do",
        "parallel do",
        "omp parallel do",
        "OMP parallel do",
    ],
)
def test_fortran_sentinel_is_optional(text: str) -> None:
    assert ok(text, "fortran").kind == "parallel do"


@pytest.mark.parametrize(
    "language, text, kind, arguments",
    [
        ("c", "critical(lock)", "critical", ("lock",)),
        ("fortran", "critical (lock)", "critical", ("lock",)),
        ("fortran", "end critical (lock)", "end critical", ("lock",)),
        ("c", "flush(a, b)", "flush", ("a", "b")),
        ("c", "declare target(a, b)", "declare target", ("a", "b")),
        ("fortran", "declare target (a, /blk/)", "declare target", ("a", "/blk/")),
        ("c", "threadprivate(x)", "threadprivate", ("x",)),
        ("c", "declare variant(base_fn) match(device={arch(gen)})", "declare variant", ("base_fn",)),
        ("fortran", "declare simd(f) uniform(x)", "declare simd", ("f",)),
        ("c", "critical", "critical", ()),
    ],
)
def test_directive_arguments(language, text, kind, arguments) -> None:
    d = ok(text, language)
    assert (d.kind, d.arguments) == (kind, arguments)


def test_declare_variant_keeps_raw_match_clause() -> None:
    d = ok("declare variant(foo) match(construct={parallel}, device={arch(gen)})")
    match = only(d, "match")
    assert match.args == ("construct={parallel}", "device={arch(gen)}")
    assert match.text == "match(construct={parallel}, device={arch(gen)})"


# --- clauses ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, text, name, modifiers, args",
    [
        ("c", "target thread_limit(256)", "thread_limit", (), ("256",)),
        ("c", "target thread_limit(WORKGROUP_SIZE / VECLEN)", "thread_limit", (), ("WORKGROUP_SIZE / VECLEN",)),
        ("fortran", "target teams thread_limit(WORKGROUP_SIZE)", "thread_limit", (), ("WORKGROUP_SIZE",)),
        ("c", "teams num_teams(n / 64)", "num_teams", (), ("n / 64",)),
        ("fortran", "teams NUM_TEAMS(nt)", "num_teams", (), ("nt",)),
        ("c", "parallel num_threads(f(a, b))", "num_threads", (), ("f(a, b)",)),
        ("fortran", "parallel num_threads(4)", "num_threads", (), ("4",)),
        ("c", "simd simdlen(16)", "simdlen", (), ("16",)),
        ("fortran", "simd simdlen(16)", "simdlen", (), ("16",)),
        ("c", "simd safelen(8)", "safelen", (), ("8",)),
        ("fortran", "simd safelen(8)", "safelen", (), ("8",)),
        ("c", "for collapse(2)", "collapse", (), ("2",)),
        ("fortran", "do collapse(3)", "collapse", (), ("3",)),
        ("c", "target if(n > 100)", "if", (), ("n > 100",)),
        ("c", "target if(target: n > 100)", "if", ("target",), ("n > 100",)),
        ("c", "target data if(target data: use_gpu)", "if", ("target data",), ("use_gpu",)),
        ("c", "target update if(target update: n)", "if", ("target update",), ("n",)),
        ("c", "parallel if(c ? a : b)", "if", (), ("c ? a : b",)),
        ("c", "parallel if(ns::enabled)", "if", (), ("ns::enabled",)),
        ("fortran", "target if(n .gt. 100)", "if", (), ("n .gt. 100",)),
        ("fortran", "target parallel if(PARALLEL: n > 1)", "if", ("parallel",), ("n > 1",)),
        ("c", "parallel private(a, b)", "private", (), ("a", "b")),
        ("fortran", "parallel private(i,dx,j)", "private", (), ("i", "dx", "j")),
        ("c", "parallel firstprivate(x)", "firstprivate", (), ("x",)),
        ("fortran", "parallel FIRSTPRIVATE(X)", "firstprivate", (), ("X",)),
        ("c", "for lastprivate(x)", "lastprivate", (), ("x",)),
        ("c", "for lastprivate(conditional: x)", "lastprivate", ("conditional",), ("x",)),
        ("fortran", "do lastprivate(x)", "lastprivate", (), ("x",)),
        ("c", "parallel shared(a, b)", "shared", (), ("a", "b")),
        ("fortran", "parallel shared(a)", "shared", (), ("a",)),
        ("c", "parallel for reduction(+: sum)", "reduction", ("+",), ("sum",)),
        ("c", "parallel for reduction(max: m, n)", "reduction", ("max",), ("m", "n")),
        ("c", "parallel for reduction(&&: ok)", "reduction", ("&&",), ("ok",)),
        ("c", "parallel for reduction(inscan, +: s)", "reduction", ("inscan", "+"), ("s",)),
        ("fortran", "parallel do reduction(+:s)", "reduction", ("+",), ("s",)),
        ("fortran", "parallel do reduction(.and.: ok)", "reduction", (".and.",), ("ok",)),
        ("fortran", "parallel do reduction(.OR.: ok)", "reduction", (".or.",), ("ok",)),
        ("fortran", "parallel do reduction(MAX: m)", "reduction", ("max",), ("m",)),
        ("c", "for nowait", "nowait", (), ()),
        ("fortran", "end do nowait", "nowait", (), ()),
        ("c", "for schedule(static)", "schedule", (), ("static",)),
        ("c", "for schedule(dynamic, 4)", "schedule", (), ("dynamic", "4")),
        ("c", "for schedule(monotonic: dynamic, 4)", "schedule", ("monotonic",), ("dynamic", "4")),
        ("c", "for schedule(nonmonotonic, simd: guided)", "schedule", ("nonmonotonic", "simd"), ("guided",)),
        ("fortran", "do schedule(STATIC, CHUNK)", "schedule", (), ("static", "CHUNK")),
        ("c", "target device(0)", "device", (), ("0",)),
        ("c", "target device(ancestor: 1)", "device", ("ancestor",), ("1",)),
        ("fortran", "target device(dev)", "device", (), ("dev",)),
        ("c", "task depend(in: a, b)", "depend", ("in",), ("a", "b")),
        ("c", "task depend(inout: a[0:n])", "depend", ("inout",), ("a[0:n]",)),
        ("c", "ordered depend(sink: i - 1, j)", "depend", ("sink",), ("i - 1", "j")),
        ("fortran", "task depend(OUT: x)", "depend", ("out",), ("x",)),
        ("c", "target is_device_ptr(p, q)", "is_device_ptr", (), ("p", "q")),
        ("fortran", "target is_device_ptr(p)", "is_device_ptr", (), ("p",)),
        ("c", "target data use_device_ptr(p)", "use_device_ptr", (), ("p",)),
        ("c", "target data use_device_addr(a[0:n])", "use_device_addr", (), ("a[0:n]",)),
        ("fortran", "target data use_device_addr(a)", "use_device_addr", (), ("a",)),
        ("c", "target defaultmap(tofrom: scalar)", "defaultmap", ("tofrom",), ("scalar",)),
        ("c", "target defaultmap(firstprivate)", "defaultmap", (), ("firstprivate",)),
        ("fortran", "target defaultmap(TOFROM: SCALAR)", "defaultmap", ("tofrom",), ("scalar",)),
        ("c", "parallel default(none)", "default", (), ("none",)),
        ("fortran", "parallel default(SHARED)", "default", (), ("shared",)),
        ("c", "simd aligned(a, b)", "aligned", (), ("a", "b")),
        ("c", "simd linear(i)", "linear", (), ("i",)),
        ("c", "distribute dist_schedule(static, 64)", "dist_schedule", (), ("static", "64")),
        ("fortran", "distribute dist_schedule(STATIC)", "dist_schedule", (), ("static",)),
        ("c", "target update to(a[0:n])", "to", (), ("a[0:n]",)),
        ("c", "target update from(a, b)", "from", (), ("a", "b")),
        ("c", "target update to(present: a)", "to", ("present",), ("a",)),
        ("fortran", "target update from(a(1:n))", "from", (), ("a(1:n)",)),
        ("c", "declare target to(f, g)", "to", (), ("f", "g")),
        ("c", "declare target enter(f) device_type(nohost)", "enter", (), ("f",)),
        ("c", "target map(to: a)", "map", ("to",), ("a",)),
        ("c", "target map(from: a)", "map", ("from",), ("a",)),
        ("c", "target map(tofrom: a)", "map", ("tofrom",), ("a",)),
        ("c", "target enter data map(alloc: a[0:n])", "map", ("alloc",), ("a[0:n]",)),
        ("c", "target exit data map(release: a)", "map", ("release",), ("a",)),
        ("c", "target exit data map(delete: a)", "map", ("delete",), ("a",)),
        ("c", "target map(a, b)", "map", (), ("a", "b")),
        ("c", "target map(always, to: a)", "map", ("always", "to"), ("a",)),
        ("c", "target map(always, close, present, tofrom: a)", "map", ("always", "close", "present", "tofrom"), ("a",)),
        ("c", "target map(always to: a)", "map", ("always", "to"), ("a",)),
        ("c", "target map(mapper(custom), to: s)", "map", ("mapper(custom)", "to"), ("s",)),
        ("fortran", "target map(TO: a)", "map", ("to",), ("a",)),
        ("fortran", "target map(ALWAYS, FROM: a, b)", "map", ("always", "from"), ("a", "b")),
        ("fortran", "target map(a)", "map", (), ("a",)),
        ("c", "target map(to: a[0:f(n, 2)], b)", "map", ("to",), ("a[0:f(n, 2)]", "b")),
        ("c", "target map(to: a[c ? 0 : 1:n])", "map", ("to",), ("a[c ? 0 : 1:n]",)),
        ("c", "target ompx_attribute(foo(1), bar)", "ompx_attribute", (), ("foo(1)", "bar")),
        ("c", "target unknown_clause", "unknown_clause", (), ()),
        ("c", "target unknown_clause(x y, z)", "unknown_clause", (), ("x y", "z")),
        ("fortran", "target FooBar(X)", "foobar", (), ("X",)),
        ("c", "parallel proc_bind(close)", "proc_bind", (), ("close",)),
        ("c", "for order(concurrent)", "order", (), ("concurrent",)),
        ("c", "taskloop grainsize(strict: 4)", "grainsize", ("strict",), ("4",)),
        ("c", "parallel copyin(t)", "copyin", (), ("t",)),
        ("c", "single copyprivate(t)", "copyprivate", (), ("t",)),
        ("c", "target has_device_addr(a)", "has_device_addr", (), ("a",)),
        ("c", "for ordered(2)", "ordered", (), ("2",)),
        ("c", "for ordered", "ordered", (), ()),
    ],
)
def test_clause_forms(language, text, name, modifiers, args) -> None:
    d = ok(text, language)
    clause = only(d, name)
    assert clause.modifiers == modifiers
    assert clause.args == args


def test_clause_text_and_columns_point_into_the_logical_line() -> None:
    text = "target teams map(to: a[0:n]) thread_limit(256) nowait"
    d = ok(text)
    for clause in d.clauses:
        assert text[clause.column - 1 :].startswith(clause.text)
    assert [c.text for c in d.clauses] == ["map(to: a[0:n])", "thread_limit(256)", "nowait"]
    assert [c.column for c in d.clauses] == [14, 30, 48]
    item = d.clauses[0].items[0]
    assert item.column == 22 and text[item.column - 1 :].startswith("a[0:n]")


def test_columns_count_the_sentinel_when_given() -> None:
    d = ok("omp target thread_limit(4)")
    assert d.clauses[0].column == 12


def test_clauses_may_be_separated_by_commas_and_need_no_blank() -> None:
    d = ok("parallel do private(a),shared(b), nowait", "fortran")
    assert [c.name for c in d.clauses] == ["private", "shared", "nowait"]
    d = ok("prefetch data(4:b(i:i))if(i<n)", "fortran")
    assert [c.name for c in d.clauses] == ["data", "if"]


@pytest.mark.parametrize(
    "text, args, suffix, modifiers",
    [
        ("simd aligned(a, b: 64)", ("a", "b"), "64", ()),
        ("simd aligned(p)", ("p",), None, ()),
        ("simd linear(i: 2)", ("i",), "2", ()),
        ("simd linear(i)", ("i",), None, ()),
        ("simd linear(val(x, y): 1)", ("x", "y"), "1", ("val",)),
        ("simd linear(ref(r))", ("r",), None, ("ref",)),
        ("simd linear(z: step(3), val)", ("z",), "3", ("val",)),
        ("simd linear(i: n * 2)", ("i",), "n * 2", ()),
    ],
)
def test_postfix_colon_clauses(text, args, suffix, modifiers) -> None:
    clause = ok(text).clauses[0]
    assert (clause.args, clause.suffix, clause.modifiers) == (args, suffix, modifiers)


def test_fortran_linear_and_aligned() -> None:
    d = ok("simd aligned(a:64) linear(VAL(i):1)", "fortran")
    assert only(d, "aligned").suffix == "64"
    assert only(d, "linear").modifiers == ("val",)
    assert only(d, "linear").args == ("i",)


def test_clause_lookup_helpers() -> None:
    d = ok("target teams map(to: a) map(from: b) thread_limit(64)")
    assert d.has("map") and d.has("thread_limit") and not d.has("nowait")
    assert clause_of(d, "map").args == ("a",)
    assert d.clause("nowait") is None
    assert [c.args for c in d.clauses_named("map")] == [("a",), ("b",)]
    assert clause_of(d, "thread_limit").expr == "64"
    assert clause_of(d, "map").expr == "a"


def test_fortran_keeps_expression_spelling_but_lowercases_names() -> None:
    d = ok("TARGET TEAMS THREAD_LIMIT(WorkGroup_Size) MAP(TO: Arr(1:N))", "fortran")
    assert [c.name for c in d.clauses] == ["thread_limit", "map"]
    assert clause_of(d, "thread_limit").args == ("WorkGroup_Size",)
    assert clause_of(d, "map").args == ("Arr(1:N)",)
    assert clause_of(d, "map").items[0].name == "Arr"
    assert clause_of(d, "map").text == "MAP(TO: Arr(1:N))"


def test_c_keeps_clause_case() -> None:
    d = ok("target MAP(to: a)")
    assert [c.name for c in d.clauses] == ["MAP"]


# --- list items and array sections --------------------------------------------------------------


@pytest.mark.parametrize(
    "language, text, expected",
    [
        ("c", "target map(to: a[0:n])", [("a", [("0", "n", None, None, True)])]),
        ("c", "target map(to: a[:n])", [("a", [(None, "n", None, None, True)])]),
        ("c", "target map(to: a[lo:])", [("a", [("lo", None, None, None, True)])]),
        ("c", "target map(to: a[lo:len:2])", [("a", [("lo", "len", None, "2", True)])]),
        ("c", "target map(to: a[0:n][0:m])", [("a", [("0", "n", None, None, True), ("0", "m", None, None, True)])]),
        ("c", "target map(to: a[i][0:m])", [("a", [("i", None, None, None, False), ("0", "m", None, None, True)])]),
        ("c", "target map(to: s.x, p->y[0:n])", [("s.x", []), ("p->y", [("0", "n", None, None, True)])]),
        ("c", "target map(to: s.arr[1:k])", [("s.arr", [("1", "k", None, None, True)])]),
        ("c", "target map(to: a[0:f(n, 2)], b)", [("a", [("0", "f(n, 2)", None, None, True)]), ("b", [])]),
        ("c", "target map(to: a[idx[0]:n])", [("a", [("idx[0]", "n", None, None, True)])]),
        ("c", "target map(to: a[c ? 0 : 1:n])", [("a", [("c ? 0 : 1", "n", None, None, True)])]),
        ("c", "target map(to: a[ns::off:n])", [("a", [("ns::off", "n", None, None, True)])]),
        ("c", "ompx prefetch data(4: b[next_tile])", [("b", [("next_tile", None, None, None, False)])]),
        ("fortran", "target map(to: a(lo:hi))", [("a", [("lo", None, "hi", None, True)])]),
        ("fortran", "target map(to: a(:))", [("a", [(None, None, None, None, True)])]),
        (
            "fortran",
            "target map(to: a(1:n, j))",
            [("a", [("1", None, "n", None, True), ("j", None, None, None, False)])],
        ),
        ("fortran", "target map(to: a(1:n:2))", [("a", [("1", None, "n", "2", True)])]),
        ("fortran", "target map(to: s%x)", [("s%x", [])]),
        ("fortran", "target map(to: s%x(1:n))", [("s%x", [("1", None, "n", None, True)])]),
        ("fortran", "target map(to: a(i)%x(1:n))", [("a(i)%x", [("1", None, "n", None, True)])]),
        ("fortran", "target map(to: a(f(1, 2):n))", [("a", [("f(1, 2)", None, "n", None, True)])]),
        ("fortran", "parallel private(/blk/, x)", [("/blk/", []), ("x", [])]),
        ("fortran", "prefetch data(PREFETCH_HINT:b(next:next))", [("b", [("next", None, "next", None, True)])]),
    ],
)
def test_list_items(language, text, expected) -> None:
    d = ok(text, language)
    items = d.clauses[0].items
    assert [(i.name, dims(i)) for i in items] == expected
    for item in items:
        for section in item.dims:
            assert section.base == item.name


def test_item_helpers() -> None:
    d = ok("target map(to: a[0:n], b[i], c)")
    a, b, c = d.clauses[0].items
    assert a.is_section and not b.is_section and not c.is_section
    assert b.dims[0].index == "i" and a.dims[0].index is None
    assert a.text == "a[0:n]" and a.dims[0].text == "0:n"


def test_depend_sink_has_no_items_but_in_does() -> None:
    assert clause_of(ok("ordered depend(sink: i-1)"), "depend").items == ()
    assert clause_of(ok("task depend(in: a[0:n])"), "depend").items[0].name == "a"


def test_expression_clauses_have_no_items() -> None:
    assert clause_of(ok("target thread_limit(n)"), "thread_limit").items == ()


@pytest.mark.parametrize(
    "text, map_type",
    [
        ("target map(a)", "tofrom"),
        ("target map(to: a)", "to"),
        ("target map(from: a)", "from"),
        ("target map(tofrom: a)", "tofrom"),
        ("target map(alloc: a)", "alloc"),
        ("target exit data map(release: a)", "release"),
        ("target exit data map(delete: a)", "delete"),
        ("target map(always, close, from: a)", "from"),
        ("target map(always, present: a)", "tofrom"),
        ("target map(mapper(m), to: a)", "to"),
        ("target map(MAPTYPE: a)", None),
    ],
)
def test_map_type(text: str, map_type: str | None) -> None:
    assert clause_of(ok(text), "map").map_type == map_type


def test_fortran_map_type_is_case_insensitive() -> None:
    assert clause_of(ok("target map(FROM: a)", "fortran"), "map").map_type == "from"
    assert clause_of(ok("target map(a)", "fortran"), "map").map_type == "tofrom"


def test_map_items_helper() -> None:
    d = ok("target data map(to: a[0:n], b) map(from: c) map(d)")
    entries = [(e.map_type, e.item.name) for e in d.map_items]
    assert entries == [("to", "a"), ("to", "b"), ("from", "c"), ("tofrom", "d")]
    assert d.map_items[0].clause is d.clauses[0]


# --- prefetch (guide 03) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, text, hint, sections, cond, extension",
    [
        (
            "c",
            "ompx prefetch data(PREFETCH_HINT : b[next_tile]) if (next_tile < n2)",
            "PREFETCH_HINT",
            [("b", "next_tile")],
            "next_tile < n2",
            True,
        ),
        ("c", "ompx prefetch data(4: b[i])", "4", [("b", "i")], None, True),
        ("c", "ompx prefetch data(b[i])", None, [("b", "i")], None, True),
        ("c", "ompx prefetch data(b[i], c[j]) if(i < n)", None, [("b", "i"), ("c", "j")], "i < n", True),
        ("c", "ompx prefetch data(2:, b[i])", "2", [("b", "i")], None, True),
        ("c", "ompx prefetch data(2: a[10:4])", "2", [("a", "10:4")], None, True),
        ("c", "prefetch data(4: b[i]) if(i < n)", "4", [("b", "i")], "i < n", False),
        ("c", "omp prefetch data(4: b[i])", "4", [("b", "i")], None, False),
        (
            "fortran",
            "prefetch data(PREFETCH_HINT:b(next:next))if(next<n2)",
            "PREFETCH_HINT",
            [("b", "next:next")],
            "next<n2",
            False,
        ),
        ("fortran", "PREFETCH DATA(4: a(10:13))", "4", [("a", "10:13")], None, False),
        ("fortran", "prefetch data(b(i:i), c(j:j)) if (j <= n)", None, [("b", "i:i"), ("c", "j:j")], "j <= n", False),
        ("fortran", "prefetch data(a(i))", None, [("a", "i")], None, False),
    ],
)
def test_prefetch_forms(language, text, hint, sections, cond, extension) -> None:
    d = ok(text, language)
    assert d.kind == "prefetch"
    assert d.extension is extension
    assert d.prefetch_hint == hint
    assert [(i.name, i.dims[0].text) for i in d.prefetch_sections] == sections
    if_clause = d.clause("if")
    assert (if_clause.expr if if_clause else None) == cond


def test_prefetch_fortran_section_bounds() -> None:
    d = ok("prefetch data(4: b(next:next))", "fortran")
    section = d.prefetch_sections[0].dims[0]
    assert (section.lower, section.upper, section.length) == ("next", "next", None)
    d = ok("ompx prefetch data(4: b[j + 16:1])")
    section = d.prefetch_sections[0].dims[0]
    assert (section.lower, section.length, section.upper) == ("j + 16", "1", None)


# --- comments -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, text, names",
    [
        ("c", "parallel for private(a) /* comment ) ( */ nowait", ["private", "nowait"]),
        ("c", "parallel for /* c */ private(a /* inner, ] */, b) // tail (", ["private"]),
        ("c", "parallel for private(a) // map(", ["private"]),
        ("fortran", "parallel do private(a) ! comment (", ["private"]),
        ("fortran", "parallel do private(a) ! nowait", ["private"]),
    ],
)
def test_comments_inside_directive_text(language, text, names) -> None:
    d = ok(text, language)
    assert [c.name for c in d.clauses] == names
    if "inner" in text:
        assert clause_of(d, "private").args == ("a", "b")


def test_strings_are_not_comments_or_brackets() -> None:
    d = ok('error at(execution) message("oops ) // !")')
    assert clause_of(d, "message").args == ('"oops ) // !"',)
    d = ok("error message('it''s ) ! fine')", "fortran")
    assert clause_of(d, "message").args == ("'it''s ) ! fine'",)


# --- malformed input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, text, message, column",
    [
        ("c", "target map(to: a[0:n]", "missing ')'", 11),
        ("c", "target map(", "missing ')'", 11),
        ("c", "target map(to: a[0:n) nowait", "mismatched ')'", 21),
        ("c", "target map(to: a[0:n]))", "unmatched ')'", 23),
        ("c", "parallel for)", "unmatched ')'", 13),
        ("c", "target thread_limit()", "requires an argument", 20),
        ("c", "target thread_limit", "requires an argument", 8),
        ("c", "target thread_limit( )", "requires an argument", 20),
        ("c", "target map()", "requires an argument", 11),
        ("c", "target map(to:)", "no list item after ':'", 15),
        ("c", "target map(to: )", "no list item after ':'", 15),
        ("c", "target map(: a)", "empty modifier", 12),
        ("c", "target map(to: a,,b)", "empty list item", 18),
        ("c", "target map(to: a,)", "empty list item", 18),
        ("c", "parallel private()", "requires an argument", 17),
        ("c", "for collapse(,)", "empty argument", 14),
        ("c", "for reduction(sum)", "requires 'identifier: list'", 15),
        ("c", "target map(to: [0:n])", "no variable name", 16),
        ("c", "target map(to: a[])", "empty array subscript", 17),
        ("c", "target map(to: a[1:2:3:4])", "too many ':'", 23),
        ("c", "simd aligned(a:)", "nothing after ':'", 15),
        ("c", "frobnicate", "unknown OpenMP directive 'frobnicate'", 1),
        ("c", "omp frobnicate x", "unknown OpenMP directive 'frobnicate'", 5),
        ("c", "", "empty OpenMP directive", 1),
        ("c", "   ", "empty OpenMP directive", 3),
        ("c", "omp", "missing directive name", 3),
        ("c", "(x)", "expected a directive name", 1),
        ("c", "parallel (x)", "does not take a parenthesised argument", 10),
        ("c", "threadprivate", "requires a parenthesised argument", 14),
        ("c", "threadprivate()", "requires a parenthesised argument", 14),
        ("c", "flush(a,,b)", "empty argument", 9),
        ("c", "target 42", "unexpected '4'", 8),
        ("c", "target nowait = 1", "unexpected '='", 15),
        ("c", "target (x)", "does not take", 8),
        ("c", "target map(to: a) (x)", "expected a clause name before '('", 19),
        ("c", 'target message("oops)', "unterminated string literal", 16),
        ("c", "target if(target:)", "no argument after ':'", 18),
        ("fortran", "target map(to: a(1:n)", "missing ')'", 11),
        ("fortran", "target map(to: a(1:n])", "mismatched ']'", 21),
        ("fortran", "target thread_limit()", "requires an argument", 20),
        ("fortran", "target map(to: a(1:n,))", "empty subscript", 22),
        ("fortran", "prefetch data()", "requires an argument", 14),
        ("fortran", "prefetch data(4:)", "no list item after ':'", 17),
        ("fortran", "frobnicate", "unknown OpenMP directive 'frobnicate'", 1),
        ("fortran", "error message('oops)", "unterminated string literal", 15),
    ],
)
def test_malformed_directives(language, text, message, column) -> None:
    e = err(text, language)
    assert message in e.message
    assert e.column == column
    assert e.text == text
    assert 1 <= e.column <= len(text) + 1  # len + 1: something missing at the end


def test_parse_error_names_the_clause_and_keeps_line() -> None:
    e = parse_directive("target teams map(to: a[0:n]", language="c", line=42)
    assert isinstance(e, OmpParseError)
    assert e.line == 42
    assert "clause 'map'" in e.message


def test_unsupported_language_is_an_error_not_an_exception() -> None:
    assert isinstance(parse_directive("parallel", language="cobol"), OmpParseError)


def test_language_aliases() -> None:
    assert ok("parallel for", "cpp").language == "c"
    assert ok("parallel do", "Fortran").language == "fortran"


def test_line_numbers_are_kept() -> None:
    d = ok("parallel do", "fortran", line=7, end_line=9)
    assert (d.line, d.end_line) == (7, 9)
    d = ok("parallel for", "c", line=3)
    assert (d.line, d.end_line) == (3, 3)


# --- join_c_pragma ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("#pragma omp parallel for", "omp parallel for"),
        ("  #  pragma  omp   parallel\tfor  ", "omp parallel for"),
        (
            "#pragma omp target teams distribute parallel for thread_limit(WORKGROUP_SIZE / \\\nVECLEN)",
            "omp target teams distribute parallel for thread_limit(WORKGROUP_SIZE / VECLEN)",
        ),
        (
            "#pragma omp target \\\n    map(to: a[0:n]) \\\n    map(from: b[0:n])",
            "omp target map(to: a[0:n]) map(from: b[0:n])",
        ),
        ("#pragma omp target \\\r\n    nowait", "omp target nowait"),
        ("#pragma omp parallel for \\  \n  nowait", "omp parallel for nowait"),
        ("#pragma omp parallel for /* why */ private(x)", "omp parallel for private(x)"),
        ("#pragma omp parallel for private(x) // trailing", "omp parallel for private(x)"),
        ("#pragma omp parallel for // comment \\\n private(x)", "omp parallel for"),
        ("#pragma omp parallel /* spans\n lines */ for", "omp parallel for"),
        ("#pragma omp parallel for\nfor (int i = 0; i < n; ++i) {}", "omp parallel for"),
        ("#pragma ompx prefetch data(4: b[i]) if (i < n)", "ompx prefetch data(4: b[i]) if (i < n)"),
        ('#pragma omp error message("a // b /* c */")', 'omp error message("a // b /* c */")'),
        ('_Pragma("omp parallel for")', "omp parallel for"),
        ('_Pragma("omp error message(\\"x\\")")', 'omp error message("x")'),
        ("#pragma unroll(4)", "unroll(4)"),
        ("omp parallel", "omp parallel"),
    ],
)
def test_join_c_pragma(raw: str, expected: str) -> None:
    assert join_c_pragma(raw) == expected


def test_join_then_parse_guide_example() -> None:
    raw = "#pragma omp target teams distribute parallel for thread_limit(WORKGROUP_SIZE / \\\nVECLEN)"
    d = ok(join_c_pragma(raw))
    assert d.kind == "target teams distribute parallel for"
    assert clause_of(d, "thread_limit").expr == "WORKGROUP_SIZE / VECLEN"


# --- scan_fortran_directives: free form ---------------------------------------------------------

FREE_SOURCE = """\
program p
  implicit none
  !$omp target teams distribute parallel do thread_limit(64) &
  !$omp& map(to: a(1:n)) &   ! a comment after the ampersand
  ! a plain comment between continuation lines

      !$omp map(from: b)
  x = 1
!$OMP PARALLEL DO PRIVATE(I) ! trailing comment
!$omp& SHARED(A)
!$ use omp_lib
!$ompx not a directive
!$omp_lib neither
  !$omp prefetch data(4:b(i:i)) if(i<n)
  !$omp end target teams distribute parallel do
  !$omp parallel do priv&
  !$omp&ate(x)
  !$omp barrier
  !$omp target &
  !$omp & nowait
  !$omp do &
  x = 2
  print *, "!$omp parallel"
  !$omp end do
"""


def test_scan_free_form() -> None:
    found = scan_fortran_directives(FREE_SOURCE.splitlines(), fixed_form=False)
    assert found == [
        (3, 7, "target teams distribute parallel do thread_limit(64) map(to: a(1:n)) map(from: b)"),
        (9, 10, "PARALLEL DO PRIVATE(I) SHARED(A)"),
        (14, 14, "prefetch data(4:b(i:i)) if(i<n)"),
        (15, 15, "end target teams distribute parallel do"),
        (16, 17, "parallel do private(x)"),
        (18, 18, "barrier"),
        (19, 20, "target nowait"),
        (21, 21, "do"),
        (24, 24, "end do"),
    ]


@pytest.mark.parametrize(
    "lines, expected",
    [
        (["!$omp parallel do &", "!$omp private(i)"], [(1, 2, "parallel do private(i)")]),
        (["!$omp parallel do &", "!$omp& private(i)"], [(1, 2, "parallel do private(i)")]),
        (["!$omp parallel do &", "!$omp &private(i)"], [(1, 2, "parallel do private(i)")]),
        (["!$omp parallel do", "!$omp& private(i)"], [(1, 2, "parallel do private(i)")]),
        (["!$omp parallel do", "!$omp private(i)"], [(1, 1, "parallel do"), (2, 2, "private(i)")]),
        (["   !$OmP   parallel   do  "], [(1, 1, "parallel do")]),
        (["!$omp parallel do &", "", "!$omp& private(i)"], [(1, 3, "parallel do private(i)")]),
        (["!$omp parallel do &\r\n", "!$omp& private(i)\r\n"], [(1, 2, "parallel do private(i)")]),
        (["!$ x = omp_get_thread_num()"], []),
        (["!$omp"], [(1, 1, "")]),
        (["x = 1 ! !$omp parallel"], []),
        ([], []),
    ],
)
def test_scan_free_form_cases(lines, expected) -> None:
    assert scan_fortran_directives(lines, fixed_form=False) == expected


# --- scan_fortran_directives: fixed form --------------------------------------------------------

FIXED_SOURCE = """\
      program p
c$omp parallel do
c$omp+ private(i)
C     a comment line between
*$omp& shared(a)
!$omp target
      x = 1
c$    x = omp_get_num_threads()
!$OMP  END TARGET
C$OMP PARALLEL DO SCHEDULE(STATIC)
C$OMP1PRIVATE(I)
!$omp prefetch data(4:b(next:next))
!$omp&if(next<n2)
!$omp0parallel
      !$omp parallel
"""


def test_scan_fixed_form() -> None:
    found = scan_fortran_directives(FIXED_SOURCE.splitlines(), fixed_form=True)
    assert found == [
        (2, 5, "parallel do private(i) shared(a)"),
        (6, 6, "target"),
        (9, 9, "END TARGET"),
        (10, 11, "PARALLEL DO SCHEDULE(STATIC) PRIVATE(I)"),
        (12, 13, "prefetch data(4:b(next:next)) if(next<n2)"),
        (14, 14, "parallel"),
    ]


@pytest.mark.parametrize(
    "lines, expected",
    [
        (["c$omp parallel", "c$omp&private(x)"], [(1, 2, "parallel private(x)")]),
        (["C$OMP PARALLEL", "C$OMP+PRIVATE(X)"], [(1, 2, "PARALLEL PRIVATE(X)")]),
        (["*$omp parallel", "*$omp1private(x)"], [(1, 2, "parallel private(x)")]),
        (["!$omp parallel", "!$omp&private(x)"], [(1, 2, "parallel private(x)")]),
        (["!$omp parallel ! why", "!$omp&private(x) ! because"], [(1, 2, "parallel private(x)")]),
        (["c$omp\tparallel", "c$omp\t1private(x)"], [(1, 2, "parallel private(x)")]),
        (["c$omp parallel", "", "c$omp&private(x)"], [(1, 3, "parallel private(x)")]),
        (["c$omp parallel", "c$    x = 1", "c$omp&private(x)"], [(1, 1, "parallel"), (3, 3, "private(x)")]),
        (["c$omp parallel", "      x = 1", "c$omp end parallel"], [(1, 1, "parallel"), (3, 3, "end parallel")]),
        (["  c$omp parallel"], []),
        (["c$omp"], [(1, 1, "")]),
    ],
)
def test_scan_fixed_form_cases(lines, expected) -> None:
    assert scan_fortran_directives(lines, fixed_form=True) == expected


GUIDE_FORTRAN = """\
!$omp target teams distribute parallel do thread_limit(WORKGROUP_SIZE)
!$omp& private(i,dx,j,u,bb,next,delta,r2,s0,s1,f)
do i = 0, n1-1
!$omp prefetch data(PREFETCH_HINT:b(next:next))if(next<n2)
enddo
"""


@pytest.mark.parametrize("fixed_form", [True, False])
def test_guide_fortran_example_scans_and_parses(fixed_form: bool) -> None:
    found = scan_fortran_directives(GUIDE_FORTRAN.splitlines(), fixed_form=fixed_form)
    assert [(s, e) for s, e, _ in found] == [(1, 2), (4, 4)]
    kernel = ok(found[0][2], "fortran", line=found[0][0], end_line=found[0][1])
    assert kernel.kind == "target teams distribute parallel do"
    assert clause_of(kernel, "thread_limit").expr == "WORKGROUP_SIZE"
    assert len(clause_of(kernel, "private").items) == 11
    assert (kernel.line, kernel.end_line) == (1, 2)
    prefetch = ok(found[1][2], "fortran", line=found[1][0])
    assert prefetch.prefetch_hint == "PREFETCH_HINT"
    assert clause_of(prefetch, "if").expr == "next<n2"


# --- robustness (property tests) ----------------------------------------------------------------

_FRAGMENTS = st.sampled_from(
    [
        "omp",
        "ompx",
        "!$omp",
        "target",
        "teams",
        "distribute",
        "parallel",
        "for",
        "do",
        "simd",
        "end",
        "data",
        "enter",
        "prefetch",
        "map",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ":",
        "::",
        ",",
        "to",
        "from",
        "tofrom",
        "always",
        "a",
        "b[0:n]",
        "a(1:n)",
        "if",
        "?",
        "thread_limit",
        "reduction",
        "+",
        ".and.",
        "linear",
        "val(",
        "step(",
        "aligned",
        "depend",
        "sink",
        "'",
        '"',
        "/*",
        "*/",
        "//",
        "!",
        "&",
        " ",
        "\t",
        "\\\n",
        "\n",
        "0",
        "-1",
        "%",
        ".",
        "->",
        "declare",
        "critical",
        "flush",
        "ordered",
        "nowait",
        "schedule",
        "static",
        "#pragma",
    ]
)
_ODD_TEXT = st.lists(_FRAGMENTS, max_size=30).map("".join)
_ANY_TEXT = st.one_of(st.text(max_size=120), _ODD_TEXT)
_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(text=_ANY_TEXT, language=st.sampled_from(["c", "fortran"]), line=st.integers(1, 10**6))
def test_parse_directive_never_raises(text: str, language: str, line: int) -> None:
    result = _parse(text, language, line, line)  # no safety net: a bug would raise here
    assert isinstance(result, (OmpDirective, OmpParseError))
    if isinstance(result, OmpParseError):
        assert result.line == line
        assert 1 <= result.column <= len(text) + 1
        assert "internal" not in result.message
    else:
        for clause in result.clauses:
            assert 1 <= clause.column <= len(text)
            for item in clause.items:
                assert item.name


@_SETTINGS
@given(lines=st.lists(st.one_of(st.text(max_size=60), _ODD_TEXT), max_size=12), fixed_form=st.booleans())
def test_scan_fortran_directives_never_raises(lines: list[str], fixed_form: bool) -> None:
    found = scan_fortran_directives(lines, fixed_form=fixed_form)
    previous_end = 0
    for start, end, text in found:
        assert previous_end < start <= end <= len(lines)
        assert isinstance(text, str)
        assert "internal" not in getattr(parse_directive(text, language="fortran"), "message", "")
        previous_end = end


@_SETTINGS
@given(raw=_ANY_TEXT)
def test_join_c_pragma_never_raises(raw: str) -> None:
    joined = join_c_pragma(raw)
    assert isinstance(joined, str)
    assert joined == joined.strip()


_CLAUSE_SAMPLES = st.sampled_from(
    [
        "map(to: a[0:n])",
        "map(b)",
        "thread_limit(256)",
        "nowait",
        "private(x, y)",
        "reduction(+: s)",
        "if(n > 1)",
        "collapse(2)",
        "num_teams(8)",
        "depend(in: a)",
    ]
)


@_SETTINGS
@given(clauses=st.lists(_CLAUSE_SAMPLES, max_size=6), sep=st.sampled_from([" ", ", ", "  "]))
def test_well_formed_clause_lists_round_trip(clauses: list[str], sep: str) -> None:
    text = "target teams distribute parallel for " + sep.join(clauses)
    d = ok(text)
    assert [c.text for c in d.clauses] == clauses
    for clause in d.clauses:
        assert text[clause.column - 1 :].startswith(clause.text)


def test_all_caps_clause_words_are_macros_not_mistakes() -> None:
    """An all-caps word is a build's macro in C, and in Fortran where it stands out from a directive
    written in lower case (`GPU_SCHEDULE`); in an all-capitals Fortran directive, capitals say nothing."""
    from kernlint.frontends.openmp.directives import is_macro_name

    def warnings(text: str, language: str) -> tuple[str, ...]:
        directive = parse_directive(text, language=language)
        assert isinstance(directive, OmpDirective)
        return directive.warnings

    assert warnings("omp target teams distribute parallel for THREADLIMIT", "c") == ()
    assert warnings("omp target teams distribute parallel for threadlimit", "c")
    assert warnings("!$omp target teams distribute parallel do GPU_SCHEDULE", "fortran") == ()
    assert warnings("!$omp target teams distribute parallel do schedul(static)", "fortran")
    assert warnings("!$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO SCHEDUL(STATIC)", "fortran")
    assert [is_macro_name(w) for w in ("SIMD_CLAUSE", "N", "_X", "Tile", "simd")] == [True, True, True, False, False]


def test_macro_clauses_expand_outside_parentheses_only() -> None:
    from kernlint.frontends.cpp.pragma_operators import expanded_clauses

    macros = {"TL": "thread_limit(256)", "N": "64", "EMPTY": ""}
    assert (
        expanded_clauses("omp target teams TL map(to: a[0:N]) EMPTY", macros.get)
        == "omp target teams thread_limit(256) map(to: a[0:N]) "
    )
    assert expanded_clauses("omp target teams map(to: a[0:N])", macros.get) is None


def test_pragma_operator_lines_become_pragma_lines_of_the_same_length() -> None:
    from kernlint.frontends.cpp.pragma_operators import rewrite_pragma_operators

    data = (
        b'#define OFFLOAD _Pragma("omp target teams")\n'
        b'  _Pragma("omp parallel for simd") // vectorised\n'
        b"    OFFLOAD\n  OFFLOAD x = 1;\n"
    )
    parsed, texts = rewrite_pragma_operators(data)
    assert len(parsed) == len(data) and parsed.count(b"\n") == data.count(b"\n")
    assert sorted(texts.values()) == ["omp parallel for simd", "omp target teams"]
    assert b"  #pragma omp parallel for simd" in parsed and b"#pragma _" in parsed
    assert parsed.endswith(b"  OFFLOAD x = 1;\n")  # not alone on its line: left alone
