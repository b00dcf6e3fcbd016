#!/usr/bin/env python3
"""Extracts the count corpus of tests/scoring_corpus.rs
(`agrees_with_gnugo_on_match_counts`) from the SGF records a match against
GNU Go leaves in ISHI_SGF_DIR (tests/strength.rs).

Usage:
    python3 tests/tools/match_counts.py DIR [DIR ...] > tests/data/match_counts/NAME.txt

Every game that ended in two passes yields one line; games ended by
resignation or time are left out (GNU Go counted nothing). The result is
GNU Go 3.8's `final_score` (`--chinese-rules`) of the final position, which
the match runner writes into RE[] as the referee's verdict.

Line format (tab separated):
    size  komi  seed  moves  gnugo_score
`moves` are GTP vertices separated by spaces, Black first, colours
alternating, `pass` for a pass; `gnugo_score` as GTP writes it (W+2, B+11, 0).
"""
import glob
import os
import re
import sys


def vertex(sgf, size):
    if sgf == "" or sgf == "tt" and size <= 19:
        return "pass"
    x = ord(sgf[0]) - ord("a")
    y = ord(sgf[1]) - ord("a")
    return f"{'ABCDEFGHJKLMNOPQRST'[x]}{size - y}"


def score(result):
    if result == "0":
        return "0"
    winner, margin = result.split("+")
    margin = float(margin)
    return f"{winner}+{margin:g}"


def main():
    rows = []
    for d in sys.argv[1:]:
        for path in sorted(glob.glob(os.path.join(d, "*.sgf"))):
            text = open(path).read()
            result = re.search(r"RE\[([^\]]*)\]", text).group(1)
            if "Resign" in result or "Time" in result or "R" == result[-1:]:
                continue
            size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
            komi = re.search(r"KM\[([^\]]*)\]", text).group(1)
            seed = int(re.search(r"seed (\d+)", text).group(1))
            moves = re.findall(r";([BW])\[([a-z]{0,2})\]", text)
            colours = "".join(c for c, _ in moves)
            assert colours == ("BW" * len(moves))[: len(moves)], path
            played = " ".join(vertex(m, size) for _, m in moves)
            rows.append((seed, f"{size}\t{komi}\t{seed}\t{played}\t{score(result)}"))
    for _, row in sorted(rows):
        print(row)


if __name__ == "__main__":
    main()
