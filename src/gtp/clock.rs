//! The game clock as the controller describes it (`time_settings`,
//! `kgs-time_settings`, `time_left`) and how long one move may take.

use super::lag::{LagMeter, ASSUMED_LAG};
use std::time::Duration;

/// How the game is timed. Seconds as floats; counts as integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No clock: the command line's limits apply.
    None,
    /// Main time only; running out loses.
    Absolute { main: f64 },
    /// After main time, `stones` moves in every `period` seconds.
    Canadian { main: f64, period: f64, stones: i64 },
    /// After main time, `periods` periods of `period` seconds; a period is
    /// used up only when a move takes longer than it.
    Byoyomi {
        main: f64,
        period: f64,
        periods: i64,
    },
}

impl TimeSystem {
    /// GTP `time_settings`: byo-yomi time 0 means absolute time, byo-yomi
    /// time with 0 stones means no limit at all.
    pub fn from_gtp(main: f64, byo_yomi: f64, stones: i64) -> TimeSystem {
        if byo_yomi == 0.0 {
            TimeSystem::Absolute { main }
        } else if stones == 0 {
            TimeSystem::None
        } else {
            TimeSystem::Canadian {
                main,
                period: byo_yomi,
                stones,
            }
        }
    }

    /// Main time, 0 without a clock.
    pub fn main_time(&self) -> f64 {
        match *self {
            TimeSystem::None => 0.0,
            TimeSystem::Absolute { main }
            | TimeSystem::Canadian { main, .. }
            | TimeSystem::Byoyomi { main, .. } => main,
        }
    }

    /// The clock of one player when the game starts.
    pub fn start(&self) -> Remaining {
        match *self {
            TimeSystem::None => Remaining::default(),
            TimeSystem::Absolute { main } => Remaining {
                seconds: main,
                stones: 0,
            },
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } if main <= 0.0 => Remaining {
                seconds: period,
                stones,
            },
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } if main <= 0.0 => Remaining {
                seconds: period,
                stones: periods,
            },
            TimeSystem::Canadian { main, .. } | TimeSystem::Byoyomi { main, .. } => Remaining {
                seconds: main,
                stones: 0,
            },
        }
    }
}

/// One player's clock as `time_left` reports it: `stones == 0` means main
/// time; otherwise the stones left in the Canadian period, or (KGS) the
/// byo-yomi periods left, with `seconds` left in the current period.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Remaining {
    pub seconds: f64,
    pub stones: i64,
}

/// Kept back from every period for safety, as a fraction.
const SAFETY: f64 = 0.85;
/// Never think for less than this while the clock can pay it...
const MINIMUM: f64 = 0.05;
/// ...nor, in sudden death once it cannot, for less than this. A genmove
/// of 5 ms still adds some dozens of playouts to the tree kept from the
/// move before, and the 45 ms saved at each move let a long game on a
/// short clock last far longer (in the unit model below, 10 s on 9x9
/// with 10 ms of lag a move: 356 plies instead of 168).
const SHORTEST: f64 = 0.005;
/// Nor for more than a day, whatever the clock says: a clock of 1e300
/// seconds is valid GTP, but no `Duration` or deadline holds its share.
const MAXIMUM: f64 = 86_400.0;
/// The floor of [`moves_left`] on big boards, and on small ones when the
/// clock runs low.
const FULL_FLOOR: f64 = 20.0;
/// Below this many seconds of main time, the floor of [`moves_left`] rises
/// toward [`FULL_FLOOR`]: twice the lag (`lag`, at least the one assumed)
/// and the longer think of that many moves. A lag measured longer raises
/// it: with a second lost at every move, 14 s is only seven moves.
fn low_clock(lag: f64) -> f64 {
    2.0 * FULL_FLOOR * (lag.max(ASSUMED_LAG) + MINIMUM)
}

/// How many more moves of ours the main time (`seconds` left) has to
/// last, with `lag` lost at each: those of a game of 0.8 × the board's
/// area in plies, and never fewer than [`fewest_moves_left`].
fn moves_left(board_area: usize, plies: usize, seconds: f64, lag: f64) -> f64 {
    let expected_plies = board_area as f64 * 0.8;
    ((expected_plies - plies as f64) / 2.0).max(fewest_moves_left(board_area, seconds, lag))
}

/// The floor of [`moves_left`]: 20 moves on boards of 200 points and up.
/// On smaller boards 20 is more than a game has left once past its middle
/// (on 9x9, 12 plies on average at ply 60, over 1,200 games against GNU
/// Go), and with it a game of median length ended with a quarter of a
/// sudden-death clock unused. There the floor is a tenth of the area
/// (9x9: 8, 13x13: 16) while the clock is ample, and rises back to 20 as
/// it runs low (below [`low_clock`]), so that a game far longer than
/// expected still has time for its last moves.
fn fewest_moves_left(board_area: usize, seconds: f64, lag: f64) -> f64 {
    let ample = (board_area as f64 / 10.0).floor().min(FULL_FLOOR);
    let low = (low_clock(lag) / seconds.max(f64::MIN_POSITIVE)).min(1.0);
    ample + (FULL_FLOOR - ample) * low
}

/// The lag kept back from a move in main time. A lag as long as a move's
/// share of the whole clock would lose the game whatever was kept back,
/// so before it is measured it is assumed no longer than a part of what
/// the main time gives a move at the start.
pub fn lag_in_main_time(system: &TimeSystem, board_area: usize, lag: &LagMeter) -> f64 {
    let whole_main = system.main_time();
    let share = whole_main / moves_left(board_area, 0, whole_main, ASSUMED_LAG);
    lag.allowance(Some(share))
}

/// The time one move may take under `system` with `clock` left for the
/// mover, keeping back what `lag` allows for; `None` when there is no
/// clock.
pub fn move_budget(
    system: &TimeSystem,
    clock: &Remaining,
    board_area: usize,
    plies: usize,
    lag: &LagMeter,
) -> Option<Duration> {
    let main_lag = lag_in_main_time(system, board_area, lag);
    let main = |share: f64| share - main_lag;
    let overtime = |share: f64| share - lag.allowance(None);
    let share_of_main = clock.seconds / moves_left(board_area, plies, clock.seconds, main_lag);
    // Sudden death has no period to fall back on: there the least think
    // gives way to the clock.
    let floor = if matches!(system, TimeSystem::Absolute { .. }) {
        SHORTEST
    } else {
        MINIMUM
    };
    let seconds = match *system {
        TimeSystem::None => return None,
        TimeSystem::Absolute { .. } => main(share_of_main),
        TimeSystem::Canadian { period, stones, .. } => {
            let period_share = |seconds: f64, stones: i64| seconds * SAFETY / stones.max(1) as f64;
            if clock.stones > 0 {
                overtime(period_share(clock.seconds, clock.stones))
            } else {
                // Main time spent early only moves the start of byo-yomi.
                main(share_of_main).max(overtime(period_share(period, stones)))
            }
        }
        TimeSystem::Byoyomi { period, .. } => {
            if clock.stones > 0 {
                overtime(clock.seconds.min(period) * SAFETY)
            } else {
                main(share_of_main).max(overtime(period * SAFETY))
            }
        }
    };
    Some(Duration::from_secs_f64(seconds.clamp(floor, MAXIMUM)))
}

/// How much longer than its budget a move may take when its search has
/// not settled (see [`unsettled_budget`]).
const UNSETTLED_FACTOR: f64 = 1.5;

/// How long a move whose search has not settled by `budget` may take in
/// all: half as long again, where main time has that and the lag to spare
/// (a quarter of it at most); none in overtime, whose periods the budget
/// already fills, and none without a clock.
pub fn unsettled_budget(
    system: &TimeSystem,
    clock: &Remaining,
    budget: Duration,
    lag: &LagMeter,
) -> Option<Duration> {
    if matches!(system, TimeSystem::None) || clock.stones > 0 {
        return None;
    }
    let longer = budget.mul_f64(UNSETTLED_FACTOR).as_secs_f64();
    let lag = lag.allowance(None);
    (longer + lag <= clock.seconds / 4.0).then(|| Duration::from_secs_f64(longer))
}

/// Our own bookkeeping after a move took `elapsed` seconds, for controllers
/// that do not send `time_left` before every move.
pub fn spend(system: &TimeSystem, clock: &mut Remaining, elapsed: f64) {
    match *system {
        TimeSystem::None => {}
        TimeSystem::Absolute { .. } => clock.seconds = (clock.seconds - elapsed).max(0.0),
        TimeSystem::Canadian { period, stones, .. } => {
            if clock.stones == 0 {
                clock.seconds -= elapsed;
                if clock.seconds < 0.0 {
                    *clock = Remaining {
                        seconds: (period + clock.seconds).max(0.0),
                        stones,
                    };
                }
            } else {
                clock.seconds = (clock.seconds - elapsed).max(0.0);
                clock.stones -= 1;
                if clock.stones == 0 {
                    *clock = Remaining {
                        seconds: period,
                        stones,
                    };
                }
            }
        }
        TimeSystem::Byoyomi {
            period, periods, ..
        } => {
            if clock.stones == 0 {
                clock.seconds -= elapsed;
                if clock.seconds < 0.0 {
                    *clock = Remaining {
                        seconds: period,
                        stones: periods,
                    };
                }
            } else if elapsed > period {
                clock.stones = (clock.stones - 1).max(1);
                clock.seconds = period;
            } else {
                clock.seconds = period;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(d: Option<Duration>) -> f64 {
        d.expect("a clock is running").as_secs_f64()
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(
            move_budget(
                &TimeSystem::None,
                &Remaining::default(),
                361,
                0,
                &LagMeter::default()
            ),
            None
        );
        assert_eq!(TimeSystem::from_gtp(0.0, 1.0, 0), TimeSystem::None);
    }

    #[test]
    fn absolute_time_is_shared_over_the_moves_left() {
        let system = TimeSystem::from_gtp(600.0, 0.0, 0);
        let clock = system.start();
        // 19x19: about 144 moves of ours expected at the start.
        let early = secs(move_budget(&system, &clock, 361, 0, &LagMeter::default()));
        assert!((3.0..5.0).contains(&early), "{early}");
        // Late in a 19x19 game at least 20 moves are still assumed.
        let late = Remaining {
            seconds: 20.0,
            stones: 0,
        };
        let b = secs(move_budget(&system, &late, 361, 400, &LagMeter::default()));
        assert!((b - (1.0 - ASSUMED_LAG)).abs() < 1e-9, "{b}");
        // Nearly out of time: still a small positive think, the shortest
        // in sudden death, the usual least where a period follows.
        let flag = Remaining {
            seconds: 0.5,
            stones: 0,
        };
        assert_eq!(
            secs(move_budget(&system, &flag, 81, 10, &LagMeter::default())),
            SHORTEST
        );
        let canadian = TimeSystem::from_gtp(600.0, 0.2, 1);
        assert_eq!(
            secs(move_budget(&canadian, &flag, 81, 10, &LagMeter::default())),
            MINIMUM
        );
    }

    #[test]
    fn a_small_board_spends_its_clock_on_the_moves_a_game_has() {
        // 9x9, 5 minutes sudden death. Half of ishi's games against GNU Go
        // end by ply 63, nine in ten by ply 80; one in a hundred goes past 93.
        let system = TimeSystem::Absolute { main: 300.0 };
        let spent = |plies| -> f64 {
            whole_game(system, 81, plies, 0.0)
                .unwrap_or_else(|ply| panic!("out of time at ply {ply}"))
                .iter()
                .sum()
        };
        assert!(spent(63) > 0.85 * 300.0, "median game: {}", spent(63));
        assert!(spent(80) > 0.9 * 300.0, "long game: {}", spent(80));
        // A very long game still thinks at every move, and within the
        // clock, with a quarter of a second lost to the controller at each.
        for (main, plies) in [(300.0, 150), (60.0, 120)] {
            let system = TimeSystem::Absolute { main };
            let used = whole_game(system, 81, plies, 0.25)
                .unwrap_or_else(|ply| panic!("{main} s: out of time at ply {ply}"));
            assert!(used.iter().all(|&t| t >= MINIMUM));
        }
        // The middle of the game gets as much as the opening.
        let opening = secs(move_budget(
            &system,
            &system.start(),
            81,
            0,
            &LagMeter::default(),
        ));
        let used = whole_game(system, 81, 63, 0.0).expect("never out of time");
        assert!(used[20] > 0.95 * opening, "ply 40: {} s", used[20]);
        // The opening thinks as long as with a floor of 20.
        assert!(
            (opening - (300.0 / 32.4 - ASSUMED_LAG)).abs() < 1e-9,
            "{opening}"
        );
        // Big boards keep a floor of 20 of their own moves; small ones
        // return to it as the clock runs low.
        let lag = ASSUMED_LAG;
        assert_eq!(fewest_moves_left(361, 600.0, lag), 20.0);
        assert_eq!(fewest_moves_left(361, 1.0, lag), 20.0);
        assert!((fewest_moves_left(81, 1000.0, lag) - 8.0).abs() < 0.2);
        assert!((fewest_moves_left(169, 1000.0, lag) - 16.0).abs() < 0.1);
        assert_eq!(fewest_moves_left(81, low_clock(lag), lag), 20.0);
        assert_eq!(fewest_moves_left(81, 0.0, lag), 20.0);
        // A short lag keeps the floor of the lag assumed; a long one
        // raises the clock that counts as low.
        assert_eq!(low_clock(0.01), low_clock(ASSUMED_LAG));
        assert_eq!(fewest_moves_left(81, 30.0, 1.0), 20.0);
        assert!(fewest_moves_left(81, 30.0, 0.01) < 20.0);
    }

    #[test]
    fn an_unsettled_search_may_go_on_only_where_main_time_has_time_to_spare() {
        let budget = Duration::from_secs(2);
        let longer = |system: TimeSystem, clock: Remaining| {
            unsettled_budget(&system, &clock, budget, &LagMeter::default())
        };
        let main = |seconds| Remaining { seconds, stones: 0 };
        let absolute = TimeSystem::Absolute { main: 300.0 };
        assert_eq!(longer(absolute, main(100.0)), Some(Duration::from_secs(3)));
        // Three seconds and the lag would be more than a quarter of 12.
        assert_eq!(longer(absolute, main(12.0)), None);
        assert_eq!(longer(TimeSystem::None, main(100.0)), None);
        let byo_yomi = TimeSystem::Byoyomi {
            main: 60.0,
            period: 10.0,
            periods: 3,
        };
        assert_eq!(longer(byo_yomi, main(60.0)), Some(Duration::from_secs(3)));
        let in_a_period = Remaining {
            seconds: 10.0,
            stones: 3,
        };
        assert_eq!(longer(byo_yomi, in_a_period), None);
        let canadian = TimeSystem::from_gtp(60.0, 100.0, 10);
        assert_eq!(
            longer(
                canadian,
                Remaining {
                    seconds: 100.0,
                    stones: 5
                }
            ),
            None
        );
        // Every budget a sudden-death clock gives leaves room to go on.
        for (seconds, plies) in [(300.0, 0), (300.0, 60), (30.0, 40), (14.0, 80)] {
            let clock = main(seconds);
            let budget = move_budget(&absolute, &clock, 81, plies, &LagMeter::default()).unwrap();
            assert!(
                unsettled_budget(&absolute, &clock, budget, &LagMeter::default()).is_some(),
                "{seconds} s"
            );
        }
    }

    #[test]
    fn an_absurdly_long_clock_gives_a_day_at_most() {
        for system in [
            TimeSystem::from_gtp(1e300, 0.0, 0),
            TimeSystem::from_gtp(1e300, 1e300, 1),
            TimeSystem::Byoyomi {
                main: 1e300,
                period: 1e300,
                periods: 1,
            },
        ] {
            let clock = system.start();
            let budget =
                move_budget(&system, &clock, 81, 0, &LagMeter::default()).expect("a clock");
            assert_eq!(budget.as_secs_f64(), MAXIMUM, "{system:?}");
            let longer = unsettled_budget(&system, &clock, budget, &LagMeter::default());
            assert!(longer.is_none_or(|t| t.as_secs_f64() <= 1.5 * MAXIMUM));
        }
    }

    #[test]
    fn canadian_period_is_split_over_its_stones_with_a_margin() {
        let system = TimeSystem::from_gtp(0.0, 300.0, 25);
        let clock = system.start();
        assert_eq!(
            clock,
            Remaining {
                seconds: 300.0,
                stones: 25
            }
        );
        let b = secs(move_budget(&system, &clock, 361, 0, &LagMeter::default()));
        assert!((b - (300.0 * SAFETY / 25.0 - ASSUMED_LAG)).abs() < 1e-9);
        assert!(b * 25.0 < 300.0);
    }

    #[test]
    fn japanese_byo_yomi_never_overruns_a_period() {
        let system = TimeSystem::Byoyomi {
            main: 0.0,
            period: 30.0,
            periods: 5,
        };
        let clock = system.start();
        let b = secs(move_budget(&system, &clock, 361, 100, &LagMeter::default()));
        assert!(b < 30.0 * 0.9 && b > 30.0 * 0.7, "{b}");
        // In main time a move may use at least what a period allows.
        let main = TimeSystem::Byoyomi {
            main: 10.0,
            period: 30.0,
            periods: 5,
        };
        let b = secs(move_budget(
            &main,
            &main.start(),
            361,
            0,
            &LagMeter::default(),
        ));
        assert!(b >= 30.0 * SAFETY - ASSUMED_LAG - 1e-9);
    }

    #[test]
    fn spending_moves_into_byo_yomi() {
        let system = TimeSystem::from_gtp(10.0, 60.0, 5);
        let mut clock = system.start();
        spend(&system, &mut clock, 12.0);
        assert_eq!(
            clock,
            Remaining {
                seconds: 58.0,
                stones: 5
            }
        );
        for _ in 0..5 {
            spend(&system, &mut clock, 1.0);
        }
        assert_eq!(
            clock,
            Remaining {
                seconds: 60.0,
                stones: 5
            }
        );
        let kgs = TimeSystem::Byoyomi {
            main: 0.0,
            period: 30.0,
            periods: 3,
        };
        let mut clock = kgs.start();
        spend(&kgs, &mut clock, 10.0);
        assert_eq!(
            clock,
            Remaining {
                seconds: 30.0,
                stones: 3
            }
        );
        spend(&kgs, &mut clock, 31.0);
        assert_eq!(clock.stones, 2);
    }

    /// Plays a whole game against the clock: every move takes its budget
    /// plus `overhead` (answering, the controller's lag), and the clock is
    /// reported before each in whole seconds, as controllers do; returns
    /// the seconds of each move, or the ply where the clock ran out.
    fn whole_game(
        system: TimeSystem,
        area: usize,
        plies: usize,
        overhead: f64,
    ) -> Result<Vec<f64>, usize> {
        let mut clock = system.start();
        let mut lag = LagMeter::default();
        let mut used = Vec::new();
        for ply in (0..plies).step_by(2) {
            lag.report(0, clock.seconds.floor(), clock.stones);
            let budget = secs(move_budget(&system, &clock, area, ply, &lag));
            lag.moved(0, budget);
            let took = budget + overhead;
            let before = clock;
            spend(&system, &mut clock, took);
            let overstepped = match system {
                TimeSystem::Absolute { .. } => before.seconds < took,
                TimeSystem::Byoyomi { period, .. } => before.stones > 0 && took > period,
                TimeSystem::Canadian { .. } => before.stones > 0 && took > before.seconds,
                TimeSystem::None => false,
            };
            if overstepped {
                return Err(ply);
            }
            used.push(took);
        }
        Ok(used)
    }

    #[test]
    fn a_short_clock_is_thought_on_not_kept_back_for_lag() {
        // 10 s of sudden death on 9x9, 10 ms of lag a move. Keeping 0.3 s
        // back from shares of about 0.3 s thought 0.05 s a move and used
        // 2.9 s of the 10 in a game of 60 plies.
        let system = TimeSystem::Absolute { main: 10.0 };
        let used = whole_game(system, 81, 60, 0.01).expect("never out of time");
        assert!(used.iter().sum::<f64>() > 6.0, "{used:?}");
        assert!(used[0] > 0.2, "the first move: {} s", used[0]);
        // A long game, or a lag of a third of the share, still fits.
        whole_game(system, 81, 100, 0.01).expect("100 plies");
        whole_game(system, 81, 60, 0.1).expect("0.1 s of lag");
        // Far longer ones too, thinking less once the clock is too low to
        // pay 50 ms a move: with that floor, 10 ms of lag ran out at ply
        // 168 and 0.1 s at ply 94.
        let used = whole_game(system, 81, 300, 0.01).expect("300 plies");
        assert!(used.iter().all(|&t| t >= SHORTEST + 0.01));
        whole_game(system, 81, 106, 0.1).expect("106 plies with 0.1 s of lag");
    }

    #[test]
    fn a_slow_connection_is_measured_and_survived() {
        // 19x19, 5 minutes of sudden death, a second lost at every move:
        // with 0.3 s kept back the clock ran out at ply 272.
        let system = TimeSystem::Absolute { main: 300.0 };
        let used = whole_game(system, 361, 300, 1.0).expect("never out of time");
        assert!(used.iter().all(|&t| t >= 1.0 + SHORTEST));
        // On 9x9, the clock counts as low sooner where a second is lost at
        // every move (14 s is seven moves): the moves of a long game were
        // thought on as if the game were ending, and it ran out at ply 118.
        whole_game(system, 81, 130, 1.0).expect("130 plies on 9x9");
    }

    #[test]
    fn a_whole_game_keeps_a_sensible_pace_within_the_clock() {
        // 19x19, 10 minutes sudden death, a long game of 300 plies, with
        // 0.25 s lost per move to the controller and the network.
        let absolute = TimeSystem::Absolute { main: 600.0 };
        let used = whole_game(absolute, 361, 300, 0.25).expect("never out of time");
        let opening: f64 = used[..40].iter().sum::<f64>() / 40.0;
        assert!(opening > 2.5, "the opening is thought about: {opening}");
        assert!(used.iter().sum::<f64>() < 600.0);
        // Byo-yomi and Canadian overtime of a few seconds: no period lost.
        for system in [
            TimeSystem::Byoyomi {
                main: 60.0,
                period: 5.0,
                periods: 1,
            },
            TimeSystem::Byoyomi {
                main: 0.0,
                period: 1.0,
                periods: 1,
            },
            TimeSystem::Canadian {
                main: 60.0,
                period: 10.0,
                stones: 5,
            },
            TimeSystem::Canadian {
                main: 2.0,
                period: 1.0,
                stones: 1,
            },
        ] {
            let used = whole_game(system, 81, 120, 0.25)
                .unwrap_or_else(|ply| panic!("{system:?} at ply {ply}"));
            assert!(used.iter().all(|&t| t >= MINIMUM), "{system:?}");
        }
    }
}
