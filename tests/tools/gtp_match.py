#!/usr/bin/env python3
"""A match between two GTP engines, GNU Go refereeing: for calibrating an
opponent (Pachi against GNU Go, say) with the same rules as the strength
harness (Chinese rules, colours alternating, GNU Go's final_score after two
passes, the first engine taking Black in game 1).

    tests/tools/gtp_match.py --games 100 --size 9 --komi 7 --seed 30000 \\
        --first '/path/to/pachi -t =5000 threads=1 -s {seed}' \\
        --second '/usr/games/gnugo --mode gtp --level 10 --chinese-rules --seed {seed}'

`{seed}` in a command line becomes the game's seed (--seed plus the game's
number from 0), so a game can be replayed. Prints each result, then the
first engine's wins with a 95% Wilson interval. With `--deadline HH:MM`
no new game starts after that time of day (the game under way finishes),
so a bounded run loses no game half played.
Each game's line ends with the plies played (a resignation or the move
whose clock ran out not counted).

With `--time S` each engine plays on a sudden-death clock of S seconds
(`time_settings S 0 0`, then `time_left` before each of its moves, whole
seconds rounded down); the clock is the wall time of its `genmove`
answers, and an engine whose clock runs out loses the game ("B+Time").
Each game's line then gives the seconds each engine used, and the end
the mean over all games. `--lag L` charges every genmove L seconds more
than its answer took, as a network between engine and server would:
the engines see it only in the `time_left` they are sent.

With `--handicap N` Black places N stones where its engine's
`fixed_handicap N` puts them (the others are told them by
`set_free_handicap`) and White moves first; `--first-colour W` (or B)
gives the first engine that colour in every game instead of alternating,
so that `--first-colour W --handicap 2` has it give two stones every game.
"""
import argparse
import datetime
import os
import shlex
import time

from gtp_client import Gtp
from intervals import wilson_interval

GNUGO = "/usr/games/gnugo"


def engine(command, seed):
    """The engine of `command`, `{seed}` replaced, run in its program's
    folder (where Pachi looks for its data files), its stderr dropped."""
    argv = [a.replace("{seed}", str(seed)) for a in shlex.split(command)]
    if os.sep in argv[0]:
        # Relative to where the match was started, not to the folder the
        # engine is run in.
        argv[0] = os.path.abspath(argv[0])
    return Gtp(argv, cwd=os.path.dirname(argv[0]) or None, quiet=True)


def play(args, number):
    seed = args.seed + number
    first = engine(args.first, seed)
    second = engine(args.second, seed)
    referee = engine(f"{GNUGO} --mode gtp --level 10 --chinese-rules", seed)
    engines = [first, second, referee]
    try:
        for e in engines:
            e.cmd(f"boardsize {args.size}")
            e.cmd("clear_board")
            e.cmd(f"komi {args.komi}")
        if args.time:
            for e in (first, second):
                e.cmd(f"time_settings {args.time:g} 0 0")
        # The first engine takes Black in even-numbered games (from 0),
        # unless --first-colour fixes its colour.
        first_colour = args.first_colour
        if first_colour == "alternate":
            first_colour = "B" if number % 2 == 0 else "W"
        black, white = (first, second) if first_colour == "B" else (second, first)
        colour = "B"
        if args.handicap:
            stones = black.cmd(f"fixed_handicap {args.handicap}")
            for e in (white, referee):
                e.cmd(f"set_free_handicap {stones}")
            colour = "W"
        clock = {"B": float(args.time or 0), "W": float(args.time or 0)}
        passes, moves = 0, 0
        while passes < 2 and moves < 3 * args.size * args.size:
            mover = black if colour == "B" else white
            other = white if colour == "B" else black
            winner = "W" if colour == "B" else "B"
            if args.time:
                mover.cmd(f"time_left {colour} {max(int(clock[colour]), 0)} 0")
            started = time.monotonic()
            move = mover.cmd(f"genmove {colour}")
            clock[colour] -= time.monotonic() - started + args.lag
            if args.time and clock[colour] < 0:
                return first_colour, winner, f"{winner}+Time", used(args, clock), moves
            if move.lower() == "resign":
                return first_colour, winner, f"{winner}+Resign", used(args, clock), moves
            other.cmd(f"play {colour} {move}")
            referee.cmd(f"play {colour} {move}")
            passes = passes + 1 if move.lower() == "pass" else 0
            moves += 1
            colour = "W" if colour == "B" else "B"
        score = referee.cmd("final_score")
        winner = score[:1] if score[:1] in "BW" else None
        return first_colour, winner, score, used(args, clock), moves
    finally:
        for e in engines:
            e.close()


def used(args, clock):
    """Seconds each colour's clock has run, by colour."""
    return {c: args.time - left for c, left in clock.items()} if args.time else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", required=True)
    parser.add_argument("--second", required=True)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deadline", help="HH:MM: no new game after this time of day")
    parser.add_argument("--time", type=float, help="sudden-death seconds for each engine")
    parser.add_argument("--lag", type=float, default=0.0,
                        help="seconds charged to the clock per genmove beyond its answer")
    parser.add_argument("--handicap", type=int, default=0,
                        help="fixed handicap stones for Black; White then moves first")
    parser.add_argument("--first-colour", choices=["alternate", "B", "W"], default="alternate",
                        help="the first engine's colour in every game (alternating by default)")
    args = parser.parse_args()
    deadline = None
    if args.deadline:
        hour, minute = (int(x) for x in args.deadline.split(":"))
        now = datetime.datetime.now()
        deadline = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if deadline <= now:
            # A time of day already past means that time tomorrow (a run
            # started before midnight), not a run of no games.
            deadline += datetime.timedelta(days=1)
    wins = played = 0
    seconds = {"first": 0.0, "second": 0.0}
    for number in range(args.games):
        if deadline and datetime.datetime.now() >= deadline:
            print(f"deadline {args.deadline}: no game {number + 1}", flush=True)
            break
        try:
            first_colour, winner, result, clock_used, moves = play(args, number)
        except RuntimeError as e:
            print(f"game {number + 1:3}: aborted: {e}", flush=True)
            continue
        played += 1
        won = winner == first_colour
        wins += won
        times = ""
        if clock_used:
            second_colour = "W" if first_colour == "B" else "B"
            seconds["first"] += clock_used[first_colour]
            seconds["second"] += clock_used[second_colour]
            times = (f" (seconds used: first {clock_used[first_colour]:.1f}, "
                     f"second {clock_used[second_colour]:.1f})")
        print(f"game {number + 1:3}: first engine {first_colour} {result} -> "
              f"{'win' if won else 'loss'}{times}, {moves} plies played", flush=True)
    if played:
        lo, hi = wilson_interval(wins, played)
        print(f"first engine won {wins}/{played} = {100 * wins / played:.1f}% "
              f"(95% Wilson interval {100 * lo:.1f}%..{100 * hi:.1f}%)")
        if args.time:
            print(f"mean seconds used a game: first {seconds['first'] / played:.1f}, "
                  f"second {seconds['second'] / played:.1f} of {args.time:g}")


if __name__ == "__main__":
    main()
