"""The host flows (`kernlint.facts.host`) the C/C++ and Fortran front-ends build: device steps with
their data, host uses in execution order (a loop's condition after its body), guards, aliases, the
values a submission takes, and which waits wait for everything."""

from __future__ import annotations

import textwrap

from kernlint.config import Config
from kernlint.facts import HostFlow
from kernlint.frontends.cpp.frontend import extract
from kernlint.frontends.fortran.frontend import extract as extract_fortran
from kernlint.source import SourceFile


def flows(code: str, path: str = "k.cpp") -> dict[str | None, HostFlow]:
    facts = extract(path, textwrap.dedent(code).encode())
    return {flow.function: flow for flow in facts.host_flows}


def steps(flow: HostFlow) -> list[tuple[int, str, str, tuple[str, ...], tuple[str, ...]]]:
    return [(s.span.line, s.kind, s.form, s.reads, s.writes) for s in flow.steps]


def test_sycl_steps_in_the_order_they_run() -> None:
    (flow,) = flows(
        """
        void run(sycl::queue &q, size_t n) {
          float *d = sycl::malloc_device<float>(n, q);
          float h_err = 1.0f;
          float *err = sycl::malloc_device<float>(1, q);
          int it = 0;
          while (h_err > 1e-3f) {
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] *= 0.5f; err[0] = d[0]; });
            q.memcpy(&h_err, err, sizeof(float)).wait();
            ++it;
          }
        }
        """
    ).values()
    assert [loop.kind for loop in flow.loops] == ["while"]
    assert steps(flow) == [
        (8, "launch", "q.parallel_for", ("d",), ("d", "err")),
        (9, "copy", "q.memcpy", ("err",), ("h_err",)),
        (9, "wait", "wait()", (), ()),
        (7, "use", "h_err", ("h_err",), ()),  # the condition, placed after the body
    ]
    copy = flow.steps[1]
    # no rule prices this copy (no round trip, no partial results): its size is kept as written
    assert copy.direction == "to-host" and copy.bytes is None and copy.size_text == "sizeof(float)"
    assert copy.blocking and copy.values == ()
    assert all(s.loops == (0,) for s in flow.steps)


def test_guards_aliases_and_values() -> None:
    flow = flows(
        """
        struct Grid { float *cells; };
        void run(sycl::queue &q, Grid g, size_t n, int steps) {
          float *cells = g.cells;
          float *d = sycl::malloc_device<float>(n, q);
          for (int s = 0; s < steps; ++s) {
            q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] = cells[i] * s; });
            if (s % 10 == 0) q.wait();
            printf("%f\\n", g.cells[0]);
          }
        }
        """
    )["run"]
    launch, wait, use = flow.steps
    assert launch.values == ("n", "s") and launch.reads == ("cells",) and launch.writes == ("d",)
    assert wait.conditional and not launch.conditional
    assert use.kind == "use" and use.form == "g" and use.reads == ("cells",)  # `g.cells` is `cells`


def test_waits_for_everything_or_for_one_operation() -> None:
    code = """
        void run(float *h, size_t n) {{
          sycl::queue q{{{props}}};
          float *d = sycl::malloc_device<float>(n, q);
          sycl::event e = q.memcpy(d, h, n * sizeof(float));
          e.wait();
          q.memcpy(h, d, n * sizeof(float)).wait();
          q.wait();
        }}
        """
    plain = flows(code.format(props="sycl::gpu_selector_v"))["run"]
    ordered = flows(code.format(props="sycl::gpu_selector_v, sycl::property::queue::in_order()"))["run"]
    assert [(s.form, s.waits_all) for s in plain.steps if s.kind == "wait"] == [
        ("e.wait()", False),
        ("wait()", False),
        ("q.wait()", True),
    ]
    assert [s.waits_all for s in ordered.steps if s.kind == "wait"] == [True, True, True]


def test_openmp_steps_and_one_call_level() -> None:
    by_function = flows(
        """
        void step(float *x, int n) {
        #pragma omp target teams distribute parallel for map(tofrom: x[0:n]) nowait
          for (int i = 0; i < n; ++i) x[i] += 1.0f;
        #pragma omp taskwait
        }
        void run(float *a, int n, int steps) {
        #pragma omp target enter data map(to: a[0:n])
          for (int s = 0; s < steps; ++s) step(a, n);
        #pragma omp target update from(a[0:n])
        }
        """,
        "k.c",
    )
    assert steps(by_function["step"])[:2] == [
        (3, "launch", "#pragma omp target teams distribute parallel for", ("x",), ("x",)),
        (5, "wait", "#pragma omp taskwait", (), ()),
    ]
    run = by_function["run"]
    call = next(s for s in run.steps if s.callee == "step")
    assert call.kind == "call" and call.arguments == ("a", "n")  # step() waits: not a plain launch
    assert [(s.kind, s.direction) for s in run.steps if s.kind == "copy"] == [
        ("copy", "to-device"),
        ("copy", "to-host"),
    ]


def test_fortran_flows_read_target_regions_updates_and_host_uses() -> None:
    source = """
        subroutine run(u, n, steps)
          integer, intent(in) :: n, steps
          real, intent(inout) :: u(n)
          integer :: s, i
          do s = 1, steps
            !$omp target teams distribute parallel do map(tofrom: u)
            do i = 1, n
              u(i) = u(i) * 0.5
            end do
            !$omp end target teams distribute parallel do
            !$omp target update from(u)
            u(1) = 0.0
          end do
        end subroutine run
        """
    facts = extract_fortran(SourceFile("k.f90", textwrap.dedent(source).encode()), fixed_form=False, config=Config())
    (flow,) = facts.host_flows
    assert flow.function == "run" and flow.parameters == ("u", "n", "steps")
    assert [loop.kind for loop in flow.loops] == ["for"] and flow.loops[0].bound == "steps"
    assert [(s.span.line, s.kind, s.reads, s.writes) for s in flow.steps] == [
        (7, "launch", ("u",), ("u",)),
        (12, "copy", (), ("u",)),
        (13, "use", (), ("u",)),
    ]
