"""Confidence bounds of a Theta sketch's distinct-count estimate.

The retained count ``k`` of a sketch with sampling fraction ``theta`` is
binomially distributed, so bounds on the distinct count ``n`` follow from the
tails of Binomial(n, theta). Like DataSketches, this uses:

* exact mode (theta = 1): both bounds equal ``k``;
* ``k = 0`` (upper) and ``k = 1`` (lower): the closed forms
  ``log(delta) / log(1 - theta)`` and ``log(1 - delta) / log(1 - theta)``, with
  ``log(1 - theta)`` computed as ``log1p(-theta)``: DataSketches computes
  ``log(1 - theta)``, which loses precision as theta shrinks and is 0 once
  ``1 - theta`` rounds to 1 (theta below ~1.1e-16, i.e. ``theta_long`` below
  ~1024), where DataSketches reports an upper bound of 0 for ``k = 0`` and a
  lower bound of ``k`` for ``k = 1``; the bounds here keep their true value
  there (``-log(delta) / theta`` and ``-log(1 - delta) / theta`` in the limit);
* ``k > 120``: the Gaussian approximation with continuity correction (the
  "classic" bound solved as a quadratic in ``sqrt(n)``);
* ``k <= 120`` and theta small (``theta < k / 360``): the same Gaussian formula
  with an *equivalent* number of standard deviations, chosen so that the
  formula reproduces the exact Poisson-limit bound; here this module computes
  that equivalent from the Poisson quantile (closed form), where DataSketches
  uses a precomputed table, so results agree to about 1e-4 relative;
* otherwise (k <= 120, theta not small, estimate below ~360): the exact bound
  from summing the negative-binomial posterior term by term.

``delta`` for 1, 2, 3 standard deviations is the one-sided normal tail
``erfc(s / sqrt(2)) / 2``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

__all__ = ["lower_bound", "upper_bound", "delta_of"]


def delta_of(num_std_devs: int) -> float:
    """One-sided normal tail probability at ``num_std_devs`` (1, 2 or 3)."""
    if num_std_devs not in (1, 2, 3):
        raise ValueError("num_std_devs must be 1, 2 or 3")
    return 0.5 * math.erfc(num_std_devs / math.sqrt(2.0))


def _gauss_lb(k: int, theta: float, c: float) -> float:
    n_hat = (k - 0.5) / theta
    b = c * math.sqrt((1.0 - theta) / theta)
    return n_hat + 0.5 * b * b - 0.5 * b * math.sqrt(b * b + 4.0 * n_hat)


def _gauss_ub(k: int, theta: float, c: float) -> float:
    n_hat = (k + 0.5) / theta
    b = c * math.sqrt((1.0 - theta) / theta)
    return n_hat + 0.5 * b * b + 0.5 * b * math.sqrt(b * b + 4.0 * n_hat)


def _poisson_cdf(k: int, lam: float) -> float:
    """P(X <= k) for X ~ Poisson(lam)."""
    term = math.exp(-lam)
    total = term
    for i in range(1, k + 1):
        term *= lam / i
        total += term
    return min(total, 1.0)


def _solve(f: Callable[[float], float], target: float, lo: float, hi: float, increasing: bool) -> float:
    """Bisection for ``f(x) == target`` with ``f`` monotone on ``[lo, hi]``."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        v = f(mid)
        if (v < target) == increasing:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return 0.5 * (lo + hi)


@cache
def _equiv_std_devs(k: int, num_std_devs: int, upper: bool) -> float:
    """Standard deviations for which the Gaussian formula gives the Poisson-limit bound.

    As theta -> 0, ``theta * bound`` tends to ``(sqrt(m + c^2/4) -/+ c/2)^2`` with
    ``m = k -/+ 1/2``; equating that with the exact Poisson bound ``lam`` gives
    ``c = (m - lam) / sqrt(lam)`` (lower) or ``(lam - m) / sqrt(lam)`` (upper).
    """
    delta = delta_of(num_std_devs)
    hi = 4.0 * k + 60.0
    if upper:
        # lam such that P(X <= k | lam) = delta (decreasing in lam)
        lam = _solve(lambda x: _poisson_cdf(k, x), delta, 0.0, hi, increasing=False)
        return (lam - (k + 0.5)) / math.sqrt(lam)
    # lam such that P(X >= k | lam) = delta (increasing in lam)
    lam = _solve(lambda x: 1.0 - _poisson_cdf(k - 1, x), delta, 0.0, hi, increasing=True)
    return ((k - 0.5) - lam) / math.sqrt(lam)


def _exact_lb(k: int, p: float, delta: float) -> float:
    # Largest n whose negative-binomial posterior mass (k successes in n trials) stays <= delta.
    q = 1.0 - p
    term = p**k
    total = term
    m = k
    while total <= delta:
        term = term * q * m / (m + 1 - k)
        total += term
        m += 1
    return float(m - 1)


def _exact_ub(k: int, p: float, delta: float) -> float:
    k += 1
    q = 1.0 - p
    term = p**k
    total = term
    m = k
    while total < 1.0 - delta:
        term = term * q * m / (m + 1 - k)
        total += term
        m += 1
    return float(m)


def _approx_lb(k: int, theta: float, sd: int) -> float:
    if theta == 1.0:
        return float(k)
    if k == 0:
        return 0.0
    if k == 1:
        return float(math.floor(math.log1p(-delta_of(sd)) / math.log1p(-theta)))
    if k > 120:
        return _gauss_lb(k, theta, sd) - 0.5
    if theta > 1.0 - 1e-5:
        return float(k)
    if theta < k / 360.0:
        return _gauss_lb(k, theta, _equiv_std_devs(k, sd, False)) - 0.5
    return _exact_lb(k, theta, delta_of(sd))


def _approx_ub(k: int, theta: float, sd: int) -> float:
    if theta == 1.0:
        return float(k)
    if k == 0:
        return float(math.ceil(math.log(delta_of(sd)) / math.log1p(-theta)))
    if k > 120:
        return _gauss_ub(k, theta, sd) + 0.5
    if theta > 1.0 - 1e-5:
        return float(k + 1)
    if theta < k / 360.0:
        return _gauss_ub(k, theta, _equiv_std_devs(k, sd, True)) + 0.5
    return _exact_ub(k, theta, delta_of(sd))


def _check(theta: float, num_std_devs: int) -> None:
    if not 0.0 < theta <= 1.0:
        raise ValueError(f"theta must be in (0, 1], got {theta}")
    delta_of(num_std_devs)


def lower_bound(k: int, theta: float, num_std_devs: int = 2) -> float:
    """Lower bound on the distinct count given ``k`` retained hashes at sampling fraction ``theta``."""
    _check(theta, num_std_devs)
    estimate = k / theta
    return min(estimate, max(float(k), _approx_lb(k, theta, num_std_devs)))


def upper_bound(k: int, theta: float, num_std_devs: int = 2) -> float:
    """Upper bound on the distinct count given ``k`` retained hashes at sampling fraction ``theta``."""
    _check(theta, num_std_devs)
    estimate = k / theta
    return max(estimate, _approx_ub(k, theta, num_std_devs))
