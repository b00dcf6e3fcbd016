#!/usr/bin/env python3
"""Compares the speed of ishi builds (or settings) by the CPU time they
spend on the same fixed work: the first MOVES moves of a self-play game,
PLAYOUTS playouts a move, early stop off, one thread. CPU seconds, unlike
the playouts per second of `ishi bench`, hardly change when other work
shares the machine (a GNU Go match, say), so two builds can be compared
while matches run.

    tests/tools/cpu_work.py --rounds 8 /tmp/ishi-before target/release/ishi
    tests/tools/cpu_work.py --rounds 8 --size 19 --moves 10 \\
        target/release/ishi target/release/ishi:expand_at=2

Each argument is a binary, optionally with `:` and a --tune list added to
`book=0,early_stop=0`. The runs are interleaved, round by round, each round
with its own seed (the same for every entry). Printed: every run, then for
each entry its total CPU seconds and its speed relative to the first entry
(total of the first over total of this one; the per-round spread in
brackets). Where two builds play the same moves the work is the same;
otherwise, with other settings, the games differ a little.
"""

import argparse
import resource
import statistics

from gtp_client import Gtp


def cpu_seconds(binary, tune, seed, size, moves, playouts):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    extra = f",{tune}" if tune else ""
    g = Gtp([binary, "--playouts", str(playouts), "--threads", "1", "--seed", str(seed),
             "--tune", f"book=0,early_stop=0{extra}"], quiet=True)
    g.cmd(f"boardsize {size}")
    g.cmd("komi 7")
    g.cmd("clear_board")
    for i in range(moves):
        if "resign" in g.cmd("genmove " + ("b" if i % 2 == 0 else "w")).lower():
            break
    g.p.stdin.write("quit\n")
    g.p.stdin.flush()
    g.p.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("entries", nargs="+", help="BINARY or BINARY:TUNE")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--playouts", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1, help="seed of the first round")
    args = ap.parse_args()
    entries = [e.split(":", 1) if ":" in e else [e, ""] for e in args.entries]
    times = [[] for _ in entries]
    for r in range(args.rounds):
        for i, (binary, tune) in enumerate(entries):
            t = cpu_seconds(binary, tune, args.seed + r, args.size, args.moves, args.playouts)
            times[i].append(t)
            print(f"round {r + 1} {args.entries[i]}: {t:.3f} s", flush=True)
    first = times[0]
    for i, entry in enumerate(args.entries):
        ratios = [a / b for a, b in zip(first, times[i])]
        print(f"{entry}: {sum(times[i]):.2f} s, speed {sum(first) / sum(times[i]):.3f} of the first "
              f"(rounds {min(ratios):.2f}-{max(ratios):.2f}, median {statistics.median(ratios):.3f})")


if __name__ == "__main__":
    main()
