#!/usr/bin/env python3
"""Generates the scoring corpus: GNU Go 3.8 self-play games played to two
passes, with GNU Go's own verdicts, one game per line.

Usage (from the repository root; 19x19 games are slow, run in the background):
    python3 tests/tools/gen_scoring_corpus.py SIZE FIRST_SEED LAST_SEED [SHARD/SHARDS]
Every seed in FIRST_SEED..=LAST_SEED yields one game (or nothing if the game
exceeds the move limit); nothing is filtered on the result. SHARD/SHARDS
(e.g. 0/2, 1/2) plays only the seeds with seed % SHARDS == SHARD, so that a
range can be split over processes; merge the outputs sorted by seed
(`sort -t$'\t' -k5,5n`). The procedure and seed ranges of the stored corpus
are in tests/data/scoring/README.md.

Procedure per seed: level = LEVELS[size][seed % len]; GNU Go never resigns;
one or two random opening moves (second to second-last line, from a
generator seeded by seed and size); then GNU Go plays both colours until two
consecutive passes.

Line format (tab separated):
    size  komi_japanese  komi_chinese  level  seed  moves  japanese_score  chinese_score  dead
`moves` are GTP vertices separated by spaces, Black first, colours
alternating, ending with two passes. `japanese_score` is `final_score` of GNU
Go with its default (Japanese) rules, `chinese_score` the same with
`--chinese-rules`; `dead` is `final_status_list dead` (Japanese process).
"""
import random
import sys

from gtp_client import Gtp

GNUGO = "/usr/games/gnugo"
KOMI_JAPANESE = 6.5
KOMI_CHINESE = 7.5


def gnugo(args):
    return Gtp([GNUGO, "--mode", "gtp"] + args)


def one_game(size, level, seed, rng):
    player = gnugo(["--level", str(level), "--seed", str(seed), "--never-resign"])
    player.cmd(f"boardsize {size}")
    player.cmd("clear_board")
    player.cmd(f"komi {KOMI_JAPANESE}")
    moves = []
    colours = "BW"
    letters = "ABCDEFGHJKLMNOPQRST"[:size]
    # A few random opening moves, away from the first line, so that games differ.
    for _ in range(rng.randint(1, 2)):
        colour = colours[len(moves) % 2]
        for _try in range(20):
            v = f"{letters[rng.randint(1, size - 2)]}{rng.randint(2, size - 1)}"
            try:
                player.cmd(f"play {colour} {v}")
                moves.append(v)
                break
            except RuntimeError:
                continue
    limit = 3 * size * size
    while len(moves) < limit:
        colour = colours[len(moves) % 2]
        v = player.cmd(f"genmove {colour}").upper()
        moves.append("pass" if v == "PASS" else v)
        if len(moves) >= 2 and moves[-1] == "pass" and moves[-2] == "pass":
            break
    else:
        player.close()
        return None
    japanese = player.cmd("final_score")
    dead = " ".join(player.cmd("final_status_list dead").split())
    player.close()

    counter = gnugo(["--chinese-rules", "--seed", str(seed)])
    counter.cmd(f"boardsize {size}")
    counter.cmd("clear_board")
    counter.cmd(f"komi {KOMI_CHINESE}")
    for i, v in enumerate(moves):
        counter.cmd(f"play {colours[i % 2]} {v}")
    chinese = counter.cmd("final_score")
    counter.close()
    return "\t".join([str(size), str(KOMI_JAPANESE), str(KOMI_CHINESE), str(level), str(seed),
                      " ".join(moves), japanese, chinese, dead])


# Mid-to-high levels so that games are played out until the boundaries are
# settled (levels 1-2 pass with large open areas, which test nobody's
# scorer); 19x19 stops at 8 to keep a game to a few minutes.
LEVELS = {9: [6, 7, 8, 9, 10], 13: [6, 7, 8, 9, 10], 19: [6, 7, 8]}


def main():
    size = int(sys.argv[1])
    first, last = int(sys.argv[2]), int(sys.argv[3])
    shard, shards = (int(x) for x in (sys.argv[4] if len(sys.argv) > 4 else "0/1").split("/"))
    levels = LEVELS.get(size, [10])
    for seed in range(first, last + 1):
        if seed % shards != shard:
            continue
        rng = random.Random(seed * 7919 + size)
        level = levels[seed % len(levels)]
        line = one_game(size, level, seed, rng)
        if line is not None:
            print(line, flush=True)
        else:
            print(f"seed {seed}: move limit reached, no game", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
