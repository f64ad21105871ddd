"""The claims checked on hardware: one entry per pair of kernels, and the claims that are not measured.

A claim is a folder `pairs/<key>/` with four files: `bad.cpp` and `good.cpp` (SYCL or OpenMP C++,
analysed by kernlint with `--device h100`; the bad one carries an `expect:` annotation on the finding's
line) and their CUDA twins `bad.cu` and `good.cu`. Adding a claim is adding such a folder and one `Claim` below.

`measure` names how the claim's figure is read off the counters (see `compare.measured_figure`):

  occupancy   the idle share of an SM's warp slots: 100 − achieved occupancy
              (sm__warps_active.avg.pct_of_peak_sustained_active); theoretical occupancy is shown too
  idle-lanes  the idle share of the lanes of every warp instruction: 100 × (1 − active threads per
              warp instruction ÷ 32) (smsp__thread_inst_executed_per_inst_executed.ratio)
  busy-lanes  the busy share of the lanes over the SASS instructions of the source lines marked
              `// measured` in bad.cu: predicated-on thread instructions ÷ (32 × warp instructions),
              per instruction from ncu's source counters, reconvergence bookkeeping (BSSY, BSYNC) left out
  sectors-per-request   the 32-byte sectors a warp's global load touches: the kernel's
              l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum ÷ l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
              (the bad twin's only global loads are the claimed access)
  shared-wavefronts     the passes a warp's local-memory load takes:
              l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum ÷ smsp__inst_executed_op_shared_ld.sum
              (its only shared loads are the claimed access); bank conflicts per load
              (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum ÷ the same) shown beside it
  sm-idle     the idle share of the GPU's SMs over the kernel: 100 × (1 − sm__cycles_active.avg ÷
              sm__cycles_active.max), the busiest SM standing for the kernel's duration
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PAIRS = Path(__file__).resolve().parents[1] / "pairs"
VARIANTS = ("bad", "good")
MEASURES = ("occupancy", "idle-lanes", "busy-lanes", "sectors-per-request", "shared-wavefronts", "sm-idle")
TOLERANCE = 0.15  # a prediction passes within ±15 % of the measured figure


@dataclass(frozen=True)
class Claim:
    key: str
    """The folder under pairs/."""
    label: str
    """The rule and, for KL501, the class: what RESULTS.md calls the row."""
    rule: str
    kernel: str
    """The CUDA kernel's function name (ncu --kernel-name), the same in both twins."""
    measure: str
    klass: str | None = None
    """The KL501 class the bad form must be graded as (evidence `class`)."""

    @property
    def folder(self) -> Path:
        return PAIRS / self.key

    def source(self, variant: str, suffix: str) -> Path:
        return self.folder / f"{variant}{suffix}"


CLAIMS: tuple[Claim, ...] = (
    Claim("kl202_block_cap", "KL202 low occupancy (block cap)", "KL202", "relax_pairs", "occupancy"),
    Claim("kl202_local_memory", "KL202 low occupancy (local memory)", "KL202", "pair_average", "occupancy"),
    Claim("kl203_partial_sub_group", "KL203 partial sub-group", "KL203", "relax", "idle-lanes"),
    Claim(
        "kl501_divergent_loop",
        "KL501 divergent loop",
        "KL501",
        "running_sums",
        "busy-lanes",
        "divergent-loop",
    ),
    Claim("kl501_heavy_arms", "KL501 heavy arms", "KL501", "settle", "busy-lanes", "heavy-arms"),
    Claim("kl501_serial_leader", "KL501 serial leader", "KL501", "tile_sums", "busy-lanes", "serial-leader"),
    Claim(
        "kl501_cheap_arms",
        "KL501 cheap arms (modulo)",
        "KL501",
        "rescale_every_fourth",
        "busy-lanes",
        "cheap-arms",
    ),
    Claim(
        "kl501_tree_heavy",
        "KL501 tree reduction (heavy steps)",
        "KL501",
        "tile_stats",
        "busy-lanes",
        "tree-reduction",
    ),
    Claim(
        "kl501_tree_steps",
        "KL501 tree reduction (predicated steps)",
        "KL501",
        "tile_sums",
        "busy-lanes",
        "tree-reduction",
    ),
    Claim("kl209_one_team", "KL209 one team", "KL209", "relax", "sm-idle"),
    Claim("kl601_row_walk", "KL601 row walk", "KL601", "row_sums", "sectors-per-request"),
    Claim("kl601_pairs", "KL601 stride 2 (pairs)", "KL601", "magnitudes", "sectors-per-request"),
    Claim("kl601_short_chunk", "KL601 chunks of one sector", "KL601", "row_sums", "sectors-per-request"),
    Claim("kl602_tile_column", "KL602 unpadded tile column", "KL602", "transpose", "shared-wavefronts"),
    Claim("kl603_member", "KL603 one member of a struct", "KL603", "scale_masses", "sectors-per-request"),
)

#: Device-side figures kernlint prints that this harness does not measure, and why.
NOT_MEASURED: tuple[tuple[str, str], ...] = (
    ("KL204 unsupported sub-group size", "Intel only: an NVIDIA warp is always 32 lanes, there is no size to choose"),
    (
        "KL301 block loads/stores at sub-group size 32",
        "Intel only: the sub-group block load/store extension and its SIMD32 restriction do not exist on NVIDIA",
    ),
    (
        "KL401–KL405 prefetch hints",
        "Intel only: the OpenMP prefetch directive and its cache hints are an Intel extension; "
        "NVIDIA compilers do not emit them",
    ),
    ("KL502 divergent barrier", "exempt: its cost is a deadlock or undefined behaviour, not a figure to measure"),
    (
        "KL501 inherent divergence",
        "kernlint prints no figure for this class (the lanes follow each lane's data: the cost reads "
        "'cost unknown without the lane estimate')",
    ),
)

#: Claims of rules that do not exist yet.
PENDING: tuple[tuple[str, str], ...] = ()


def by_key(key: str) -> Claim:
    for claim in CLAIMS:
        if claim.key == key:
            return claim
    raise KeyError(key)


def measured_lines(claim: Claim, variant: str = "bad") -> list[int]:
    """Line numbers (1-based) of the twin's lines marked `// measured`."""
    text = claim.source(variant, ".cu").read_text(encoding="utf-8")
    return [number for number, line in enumerate(text.splitlines(), start=1) if line.rstrip().endswith("// measured")]


#: Why a claim's prediction misses the measurement: shown in RESULTS.md only while the claim fails.
EXPLANATIONS: dict[str, str] = {
    "kl501_divergent_loop": (
        "the model is wrong for this loop. kernlint/analysis/grading.py (`_comparison`, the `varying` case) grades "
        "a loop condition `k <= lid` (the loop's own counter against the id) as `shrinking`, and the cost builder "
        "(`_utilisation` in the rules' costs module, kind `shrinking`) applies the tree-reduction formula "
        "(n − 1) ÷ (n × log2 n) = 19.4 % 'in the last 5 steps'. Here the lanes do not halve: they leave one "
        "iteration apart (as the message itself says). A sub-group whose trip counts are t0 + 1 … t0 + n keeps "
        "(t0 + (n + 1) ÷ 2) ÷ (t0 + n) of its lanes busy: 51.6 % for the first sub-group (t0 = 0), rising towards "
        "100 %; over this 256-item work-group (t0 = 0, 32, …, 224) Σ(lid + 1) ÷ Σ 32 × (32w + 32) = 32,896 ÷ 36,864 "
        "= 89.2 % per source iteration. The SASS measures 77.8 %, lower because nvcc unrolls the loop by 16, 8 and "
        "4, so a lane idles for whole unrolled blocks. Suggested estimate: a `staggered` lane kind, "
        "Σ trip ÷ (n × Σ max trip per sub-group) when the work-group size is known (89.2 %, within 15 % of the "
        "measured 77.8 %), else the bound (n + 1) ÷ (2n) = 51.6 %. The fix's speed-up comes mostly from the "
        "better algorithm (a scan instead of a quadratic loop), not from lane use."
    ),
    "kl501_tree_steps": (
        "the model is right for one warp but not for the work-group. The arm is one statement, and nvcc "
        "predicates it (`@!P0 LDS`, `LDS`, `FADD`, `STS`) instead of branching around it, as the class's own "
        "words say ('short enough to predicate'). So in each of the last five steps all 8 warps of the "
        "256-item work-group issue the arm, 7 of them with no lane on: 31 busy lane-steps over 5 steps × 256 "
        "lanes = (n − 1) ÷ (work-group size × log2 n) = 2.42 %, exactly what is measured (124 predicated-on "
        "thread instructions over 160 warp instructions per work-group). The cost builder's `shrinking` formula "
        "(n − 1) ÷ (n × log2 n) = 19.4 % counts only the warp that holds the active lanes, which is right when "
        "the arm is a real branch: the heavy-arms tree (row 'KL501 heavy arms (shrinking tree)') measures "
        "exactly 19.4 %. Suggested estimate for cheap (predicated) arms with the work-group size W known: "
        "(n − 1) ÷ (W × log2 n)."
    ),
}
