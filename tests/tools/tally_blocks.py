#!/usr/bin/env python3
"""Adds up the logs of GNU Go blocks (`cargo test --release --test strength
-- --ignored --nocapture`, its output saved to a file per block) the way the
research notes (docs/RESEARCH.md) count them: a draw and an aborted game count as played and not won.

    tests/tools/tally_blocks.py block-*.log
    tests/tools/tally_blocks.py --add 26188 29195 --add 28284 31541 block-*.log

prints each block (won, by colour, draws, aborted), the blocks together, and
with each `--add WON PLAYED` (an earlier count) the new total. Intervals are
95%: Wilson's and the exact Clopper-Pearson one (`intervals.py`, no scipy).
"""

import argparse
import re
import sys

from intervals import exact_interval, wilson_interval

GAME = re.compile(r"^game +(\d+): ishi (Black|White) \S+ in \d+ moves -> (win|loss|draw)$")
ABORTED = re.compile(r"^game +(\d+): aborted: ")


def describe(won, played):
    wl, wh = wilson_interval(won, played)
    el, eh = exact_interval(won, played)
    return (
        f"{won:,} of {played:,} ({100 * won / played:.2f}%, Wilson {100 * wl:.2f}-{100 * wh:.2f}, "
        f"exact {100 * el:.2f}-{100 * eh:.2f})"
    )


def tally(path):
    """(won, played, {colour: [won, played]}, draws, aborted) of one log."""
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
    colours = {"Black": [0, 0], "White": [0, 0]}
    total_draws = total_aborted = 0
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
        total_draws += draws
        total_aborted += aborted
        for colour in colours:
            colours[colour][0] += by_colour[colour][0]
            colours[colour][1] += by_colour[colour][1]
    b, w = colours["Black"], colours["White"]
    total_won = b[0] + w[0]
    total_played = b[1] + w[1] + total_aborted
    if total_played == 0:
        sys.exit("no games in these logs")
    print(
        f"together: {describe(total_won, total_played)}; {b[0]} of {b[1]} as Black, "
        f"{w[0]} of {w[1]} as White; {total_draws} draws, {total_aborted} aborted"
    )
    for won, played in args.add:
        print(f"with {won:,} of {played:,}: {describe(won + total_won, played + total_played)}")


if __name__ == "__main__":
    main()
