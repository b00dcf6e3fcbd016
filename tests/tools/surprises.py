#!/usr/bin/env python3
"""The surprises in lost match games, and whether ishi finds them itself.

For every game ishi lost among the SGF files a strength run kept
(ISHI_SGF_DIR), finds the largest fall of ishi's win rate from one of its
moves to the next (the game comment lists them), and the opponent's move in
between: the reply ishi did not expect. Then asks ishi, as the opponent in
the position before that reply, for its own move with a few seeds: a reply
ishi never finds itself points at knowledge its search lacks; one it finds
was only missed one move deeper.

    tests/tools/surprises.py [--bin target/release/ishi] [--playouts 5000] \\
        [--min-fall 0.3] [--tune KNOBS] /tmp/sgf-dir/*.sgf

With --tune, ishi searches with those constants (as `ishi --tune`), to see
whether a variant finds replies the default misses; the last line counts
the replies found over all positions.
"""
import argparse
import re
import subprocess

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def vertex(sgf_point, size):
    x, y = sgf_point
    return f"{COLUMNS[ord(x) - 97]}{size - (ord(y) - 97)}"


def property_of(text, name):
    m = re.search(name + r"\[([^\]]*)\]", text)
    return m.group(1) if m else ""


def kept_game(text):
    """A match game kept by ISHI_SGF_DIR: its result, whether ishi won it,
    and ishi's win rate after each of its moves as (ply, rate) pairs; None
    when the game comment holds no win rates."""
    rates = re.search(r"win rate by move: ([^\]]*)", text)
    if not rates:
        return None
    ishi_white = property_of(text, "PW") == "ishi"
    result = property_of(text, "RE")
    won = result[:1] == ("W" if ishi_white else "B")
    pts = [(int(a), float(b)) for a, b in re.findall(r"(\d+):([\d.]+)", rates.group(1))]
    return result, won, pts


def games_not_won(paths):
    """(path, SGF text, result, win rates) of each kept game in `paths`
    that ishi did not win (draws and games without a result included)."""
    for path in paths:
        text = open(path, encoding="utf-8").read()
        game = kept_game(text)
        if game and not game[1]:
            result, _, pts = game
            yield path, text, result, pts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/ishi")
    ap.add_argument("--playouts", default="5000")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--min-fall", type=float, default=0.3)
    ap.add_argument("--tune", default="")
    ap.add_argument("sgf", nargs="+")
    args = ap.parse_args()
    tune = ["--tune", args.tune] if args.tune else []
    total_hits = total_tries = 0
    for path, text, result, pts in games_not_won(args.sgf):
        if result == "0":
            continue
        if len(pts) < 2:
            continue
        (ply, before), (_, after) = max(zip(pts, pts[1:]), key=lambda q: q[0][1] - q[1][1])
        if before - after < args.min_fall:
            continue
        size = int(property_of(text, "SZ") or 19)
        # Passes too (B[] or B[tt]), so that the index is the ply.
        moves = re.findall(r";([BW])\[([a-t]{2}|)\]", text)
        if ply >= len(moves) or moves[ply][1] in ("", "tt"):
            continue
        colour = "black" if moves[ply][0] == "B" else "white"
        reply = vertex(moves[ply][1], size)
        found = []
        for seed in args.seeds.split(","):
            out = subprocess.run(
                [args.bin, "--playouts", args.playouts, "--threads", "1", "--seed", seed]
                + tune,
                input=f"loadsgf {path} {ply + 1}\nreg_genmove {colour}\n",
                capture_output=True,
                text=True,
            ).stdout
            answers = re.findall(r"^= (\S+)$", out, re.M)
            found.append(answers[-1] if answers else "?")
        hits = sum(f.upper() == reply for f in found)
        total_hits += hits
        total_tries += len(found)
        print(
            f"{path}: ishi {before:.2f} -> {after:.2f} after ply {ply}; "
            f"the reply {colour} {reply}; ishi as {colour}: {' '.join(found)} "
            f"({hits}/{len(found)})"
        )
    print(f"replies found: {total_hits}/{total_tries}")


if __name__ == "__main__":
    main()
