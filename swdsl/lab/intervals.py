"""Confidence intervals for rates: Wilson's score interval for one proportion,
and Newcombe's hybrid score interval for the difference of two (built from
their Wilson intervals). Both behave at small counts and near 0 and 1, where
the textbook normal interval is wrong."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a rate seen k times in n trials ((0, 1) when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def difference(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """p2 - p1 and its 95% interval (Newcombe 1998, method 10)."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, low, high


def games_for(width: float, p: float = 0.5, z: float = Z95) -> int:
    """Trials needed for a 95% interval of about ±width around a rate p."""
    return math.ceil(z * z * p * (1 - p) / (width * width))
