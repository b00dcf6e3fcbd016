"""95% intervals for a count of games won, shared by the match scripts:
Wilson's, and the exact Clopper-Pearson one, computed without scipy (the
regularized incomplete beta function by its continued fraction)."""

import math


def incomplete_beta(a, b, x):
    """I_x(a, b), regularized, for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - incomplete_beta(b, a, 1.0 - x)
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    # Lentz's method on the continued fraction of I_x(a, b).
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 10000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return math.exp(log_front) * f / a


def beta_quantile(q, a, b):
    """The x with I_x(a, b) = q, by bisection."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if incomplete_beta(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def exact_interval(won, played):
    lo = beta_quantile(0.025, won, played - won + 1) if won > 0 else 0.0
    hi = beta_quantile(0.975, won + 1, played - won) if won < played else 1.0
    return lo, hi


def wilson_interval(won, played, z=1.96):
    p = won / played
    centre = p + z * z / (2 * played)
    half = z * math.sqrt(p * (1 - p) / played + z * z / (4 * played * played))
    scale = 1 + z * z / played
    return (centre - half) / scale, (centre + half) / scale
