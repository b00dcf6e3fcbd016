#!/usr/bin/env python3
"""Adds up the logs of GNU Go blocks (`cargo test --release --test strength
-- --ignored --nocapture`, its output saved to a file per block) the way the
README counts them: a draw and an aborted game count as played and not won.

    tests/tools/tally_blocks.py block-*.log
    tests/tools/tally_blocks.py --add 26188 29195 --add 28284 31541 block-*.log

prints each block (won, by colour, draws, aborted), the blocks together, and
with each `--add WON PLAYED` (an earlier count) the new total. Intervals are
95%: Wilson's and the exact Clopper-Pearson one, computed here without
scipy (the regularized incomplete beta function by its continued fraction).
"""

import argparse
import math
import re
import sys

GAME = re.compile(r"^game +(\d+): ishi (Black|White) \S+ in \d+ moves -> (win|loss|draw)$")
ABORTED = re.compile(r"^game +(\d+): aborted: ")


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


def describe(won, played):
    wl, wh = wilson_interval(won, played)
    el, eh = exact_interval(won, played)
    return (
        f"{won:,} of {played:,} ({100 * won / played:.2f}%, Wilson {100 * wl:.2f}-{100 * wh:.2f}, "
        f"exact {100 * el:.2f}-{100 * eh:.2f})"
    )


def tally(path):
    """(won, played, {colour: (won, played)}, draws, aborted) of one log."""
    by_colour = {"Black": [0, 0], "White": [0, 0]}
    draws = aborted = 0
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip()
            game = GAME.match(line)
            if game:
                _, colour, outcome = game.groups()
                by_colour[colour][1] += 1
                by_colour[colour][0] += outcome == "win"
                draws += outcome == "draw"
            elif ABORTED.match(line):
                aborted += 1
    won = by_colour["Black"][0] + by_colour["White"][0]
    played = by_colour["Black"][1] + by_colour["White"][1] + aborted
    return won, played, by_colour, draws, aborted


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+")
    parser.add_argument(
        "--add",
        nargs=2,
        type=int,
        action="append",
        default=[],
        metavar=("WON", "PLAYED"),
        help="an earlier count to add the blocks to (repeatable)",
    )
    args = parser.parse_args()
    total_won = total_played = total_draws = total_aborted = 0
    colours = {"Black": [0, 0], "White": [0, 0]}
    for path in args.logs:
        won, played, by_colour, draws, aborted = tally(path)
        if played == 0:
            print(f"{path}: no games")
            continue
        b, w = by_colour["Black"], by_colour["White"]
        print(
            f"{path}: {won} of {played} ({b[0]} of {b[1]} as Black, {w[0]} of {w[1]} as White; "
            f"{draws} draws, {aborted} aborted)"
        )
        total_won += won
        total_played += played
        total_draws += draws
        total_aborted += aborted
        for colour in colours:
            colours[colour][0] += by_colour[colour][0]
            colours[colour][1] += by_colour[colour][1]
    if total_played == 0:
        sys.exit("no games in these logs")
    b, w = colours["Black"], colours["White"]
    print(
        f"together: {describe(total_won, total_played)}; {b[0]} of {b[1]} as Black, "
        f"{w[0]} of {w[1]} as White; {total_draws} draws, {total_aborted} aborted"
    )
    for won, played in args.add:
        print(f"with {won:,} of {played:,}: {describe(won + total_won, played + total_played)}")


if __name__ == "__main__":
    main()
