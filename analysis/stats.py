"""Confidence intervals used in every summary: Wilson for proportions, normal for means, and the
paired per-deal differences of duplicate-deal comparisons (``rummysim compare``, ``tournament``)."""

from __future__ import annotations

import math

import numpy as np

from rummysim.errors import InputError

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (well behaved near 0 and 1 and for small n)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, free of rounding
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def mean_ci(mean: float, std: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval of a mean from its sample standard deviation."""
    if n <= 1 or std is None or math.isnan(std):
        return (math.nan, math.nan)
    half = z * std / math.sqrt(n)
    return (mean - half, mean + half)


def z_two_sided(alpha: float) -> float:
    """Normal quantile z with P(|Z| > z) = alpha (1.96 for alpha = 0.05)."""
    from statistics import NormalDist

    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    return NormalDist().inv_cdf(1.0 - alpha / 2.0)


def _p_value(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2.0)) if not math.isnan(z) else math.nan


def _estimate(est: float, se: float) -> dict:
    """Estimate, 95% interval, half-width, z and two-sided p from a standard error."""
    half = Z95 * se
    if se > 0:
        z = est / se
    else:
        z = 0.0 if est == 0 else math.copysign(math.inf, est)
    return {"diff": est, "ci": [est - half, est + half], "half_width": half, "se": se,
            "z": z if math.isfinite(z) else None, "p_value": _p_value(z) if math.isfinite(z) else 0.0}


def diff_stats(diff: np.ndarray, hands: np.ndarray) -> dict:
    """Per-game and per-hand score differences from per-deal differences and mean hands per game
    (the statistics of :mod:`rummysim.comparison`, whose docstring derives them).

    Example:
        >>> s = diff_stats(np.array([10.0, 30.0, 20.0]), np.array([2.0, 4.0, 3.0]))
        >>> s["per_game"]["diff"], s["per_hand"]["diff"]
        (20.0, 6.666666666666667)
    """
    n = diff.size
    if n < 2:
        raise InputError("a comparison needs at least 2 deals")
    se_game = float(diff.std(ddof=1)) / math.sqrt(n)
    hbar = float(hands.mean())
    ratio = float(diff.mean()) / hbar
    resid = (diff - ratio * hands) / hbar
    se_hand = float(resid.std(ddof=1)) / math.sqrt(n)
    return {"deals": n, "mean_hands_per_game": hbar,
            "per_game": _estimate(float(diff.mean()), se_game), "per_hand": _estimate(ratio, se_hand)}


def format_p(p: float) -> str:
    """A p-value for people: ``0.047``, ``3.1e-09``, ``< 1e-300`` (below double precision)."""
    if p is None or math.isnan(p):
        return "n/a"
    if p == 0.0:
        return "< 1e-300"
    if p < 1e-3:
        return f"{p:.2g}"
    return f"{p:.3f}".rstrip("0").rstrip(".") if p < 1 else "1"
