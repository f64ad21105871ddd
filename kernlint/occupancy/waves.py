"""Whole-GPU figures for a launch: how many waves of work-groups it takes and how full they are.

Both vendors use the same picture: every Xe-core/SM holds ``n`` work-groups at once, so one wave
is ``units x n`` work-groups; all waves but the last are full. The figures are computed exactly
with fractions. Intel's calculator instead rounds the wave count to 2 decimals before it derives
the average (e.g. one 512-item group on Xe-LP: 2.43 % instead of the exact 2.38 %); that variant
is reproduced separately, in floating point as the page does it, so the reference data can be
matched digit for digit without letting the quirk into the numbers kernlint reports.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from kernlint.records import record


@record
class WaveFigures:
    """GPU-level occupancy of a whole launch."""

    waves: Fraction
    """Exact number of waves: total work-items / work-items per wave."""
    peak_pct: Fraction
    """Occupancy of the fullest wave (the first), as a share of the whole GPU."""
    average_pct: Fraction
    """Mean occupancy over the ceil(waves) wave slots the launch takes."""


def wave_figures(global_items: int, items_per_wave: Fraction, occupancy_pct: Fraction) -> WaveFigures:
    """Exact waves, peak and average for ``global_items`` work-items (``items_per_wave`` > 0)."""
    waves = Fraction(global_items) / items_per_wave
    full = math.floor(waves)
    if waves == full:
        return WaveFigures(waves, occupancy_pct, occupancy_pct)
    peak = occupancy_pct if full >= 1 else waves * occupancy_pct
    return WaveFigures(waves, peak, occupancy_pct * waves / (full + 1))


def calculator_waves(global_items: int, items_per_wave: float, occupancy_pct: float) -> tuple[float, float]:
    """(wave count, average %) exactly as Intel's GPU Occupancy Calculator shows them.

    The page computes in IEEE doubles, formats the wave count with ``toFixed(2)`` (round half up
    on the double's exact value) and uses that rounded count for the average.
    """
    full = math.floor(global_items / items_per_wave)
    rem = math.fmod(global_items, items_per_wave)
    if rem == 0:
        return float(full), occupancy_pct
    shown = float(Decimal(full + rem / items_per_wave).quantize(Decimal("0.01"), ROUND_HALF_UP))
    return shown, shown * occupancy_pct / (full + 1)
