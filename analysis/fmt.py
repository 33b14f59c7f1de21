"""Number formatting shared by the analysis tables printed by the CLI and the HTML report.

Every helper prints ``n/a`` for a missing value (a statistic that does not apply to a group).
"""

from __future__ import annotations


def num(x: object, digits: int = 1) -> str:
    return "n/a" if x is None else f"{x:,.{digits}f}"


def pct(x: object, digits: int = 1) -> str:
    return "n/a" if x is None else f"{x * 100:.{digits}f}%"


def pp(x: object) -> str:
    """A difference of proportions in percentage points (0.031 -> +3.1 pp)."""
    return "n/a" if x is None else f"{x * 100:+.1f} pp"


def ci(lo: object, hi: object, scale: float = 1.0, digits: int = 1, sign: bool = False) -> str:
    if lo is None or hi is None:
        return "n/a"
    fmt = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f"[{fmt.format(lo * scale)}, {fmt.format(hi * scale)}]"
