#!/usr/bin/env python3
"""Where the games ishi did not win turned, from its own win rates.

For every game among the SGF files a strength run kept (ISHI_SGF_DIR) that
ishi lost or drew, reads ishi's win rate after each of its moves (the game
comment) and sorts the game into one of three kinds:

- fall: the win rate had stood at --high (0.8) or more: a refutation the
  search did not see coming;
- early: no such peak, and the win rate stayed below one half from some
  move at or before --early (30) to the end: lost in the opening or early
  middle game;
- later: the rest.

    tests/tools/turns.py [--high 0.8] [--early 30] [--list] /tmp/sgf-dir/*.sgf
"""
import argparse

from surprises import games_not_won


def kind(rates, high, early):
    if any(rate >= high for _, rate in rates):
        return "fall"
    below_from = None
    for ply, rate in rates:
        if rate >= 0.5:
            below_from = None
        elif below_from is None:
            below_from = ply
    if below_from is not None and below_from <= early:
        return "early"
    return "later"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--high", type=float, default=0.8)
    ap.add_argument("--early", type=int, default=30)
    ap.add_argument("--list", action="store_true", help="print each game's kind")
    ap.add_argument("sgf", nargs="+")
    args = ap.parse_args()
    counts = {"fall": 0, "early": 0, "later": 0}
    for path, _, result, rates in games_not_won(args.sgf):
        if not result or not rates:
            continue
        k = kind(rates, args.high, args.early)
        counts[k] += 1
        if args.list:
            print(f"{path}: {k} ({result})")
    total = sum(counts.values())
    print(f"{total} games not won: {counts['fall']} fell from {args.high} or more, "
          f"{counts['early']} lost by move {args.early}, {counts['later']} turned later")


if __name__ == "__main__":
    main()
