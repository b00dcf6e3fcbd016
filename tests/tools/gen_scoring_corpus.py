#!/usr/bin/env python3
"""Generates the scoring corpus: GNU Go 3.8 self-play games played to two
passes, with GNU Go's own verdicts, one game per line.

Usage (from the repository root; 19x19 games are slow, run in the background):
    timeout 3h python3 tests/tools/gen_scoring_corpus.py 9 60 > tests/data/scoring/gnugo-9.txt
    timeout 3h python3 tests/tools/gen_scoring_corpus.py 13 30 > tests/data/scoring/gnugo-13.txt
    timeout 5h python3 tests/tools/gen_scoring_corpus.py 19 20 > tests/data/scoring/gnugo-19.txt
Optional third argument: the first seed (default 1).

Line format (tab separated):
    size  komi_japanese  komi_chinese  level  seed  moves  japanese_score  chinese_score  dead
`moves` are GTP vertices separated by spaces, Black first, colours
alternating, ending with two passes. `japanese_score` is `final_score` of GNU
Go with its default (Japanese) rules, `chinese_score` the same with
`--chinese-rules`; `dead` is `final_status_list dead` (Japanese process).
"""
import random
import subprocess
import sys

GNUGO = "/usr/games/gnugo"
KOMI_JAPANESE = 6.5
KOMI_CHINESE = 7.5


class Gtp:
    def __init__(self, args):
        self.p = subprocess.Popen([GNUGO, "--mode", "gtp"] + args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError("gnugo died")
            l = l.rstrip("\n")
            if l == "" and out:
                break
            if l != "" or out:
                out.append(l)
        text = "\n".join(out)
        if not text.startswith("="):
            raise RuntimeError(f"{line}: {text}")
        return text[1:].strip()

    def close(self):
        try:
            self.cmd("quit")
        except Exception:
            pass
        self.p.wait()


def one_game(size, level, seed, rng):
    player = Gtp(["--level", str(level), "--seed", str(seed)])
    player.cmd(f"boardsize {size}")
    player.cmd("clear_board")
    player.cmd(f"komi {KOMI_JAPANESE}")
    moves = []
    colours = "BW"
    letters = "ABCDEFGHJKLMNOPQRST"[:size]
    # A few random opening moves, away from the first line, so that games differ.
    for _ in range(rng.randint(1, 4)):
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
        if v == "RESIGN":
            player.close()
            return None
        moves.append("pass" if v == "PASS" else v)
        if len(moves) >= 2 and moves[-1] == "pass" and moves[-2] == "pass":
            break
    else:
        player.close()
        return None
    japanese = player.cmd("final_score")
    dead = " ".join(player.cmd("final_status_list dead").split())
    player.close()

    counter = Gtp(["--chinese-rules", "--seed", str(seed)])
    counter.cmd(f"boardsize {size}")
    counter.cmd("clear_board")
    counter.cmd(f"komi {KOMI_CHINESE}")
    for i, v in enumerate(moves):
        counter.cmd(f"play {colours[i % 2]} {v}")
    chinese = counter.cmd("final_score")
    counter.close()
    return "\t".join([str(size), str(KOMI_JAPANESE), str(KOMI_CHINESE), str(level), str(seed),
                      " ".join(moves), japanese, chinese, dead])


def main():
    size = int(sys.argv[1])
    games = int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    levels = {9: [1, 3, 5, 8, 10], 13: [1, 2, 4, 6], 19: [0, 1, 2]}.get(size, [1])
    made = 0
    while made < games:
        rng = random.Random(seed * 7919 + size)
        level = levels[seed % len(levels)]
        line = one_game(size, level, seed, rng)
        seed += 1
        if line is not None:
            print(line, flush=True)
            made += 1


if __name__ == "__main__":
    main()
