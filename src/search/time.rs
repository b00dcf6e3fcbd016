//! How long to think for one move under a real clock (GTP `time_settings`,
//! `time_left`, `kgs-time_settings`), with a safety margin so that the
//! engine never loses on time: network lag and the controller's own
//! overhead come out of our time, not the opponent's.

use std::time::Duration;

/// The clock system the controller announced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No limit: think by playouts or the configured time per move.
    None,
    /// One main time for the whole game.
    Absolute { main: Duration },
    /// Main time, then `periods` periods of `period` each; a period is only
    /// used up when a move takes longer than it.
    ByoYomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// Main time, then `stones` moves to play in every `period`.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
}

/// What the controller last said about our clock (`time_left`): time left
/// in the current stage and, in overtime, the stones (Canadian) or periods
/// (byo-yomi) left; 0 while in main time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockReading {
    pub left: Duration,
    pub stones_or_periods: u32,
}

/// Reserve kept back on every move for lag and overhead.
pub const SAFETY: Duration = Duration::from_millis(500);

/// The least we ever think (the search still returns a legal move).
pub const MINIMUM: Duration = Duration::from_millis(20);

/// Thinking time for the next move, given the clock, the board size and
/// the number of empty points (a proxy for how much game is left).
pub fn time_for_move(
    system: TimeSystem,
    clock: ClockReading,
    size: usize,
    empty_points: usize,
) -> Option<Duration> {
    // Our own moves still to come, never fewer than a handful.
    let moves_left = (empty_points as u32 / 3).max(size as u32).max(8);
    let slice = |left: Duration, moves: u32| left / moves.max(1);
    let think = match system {
        TimeSystem::None => return None,
        TimeSystem::Absolute { .. } => slice(clock.left, moves_left),
        TimeSystem::ByoYomi { period, .. } => {
            if clock.stones_or_periods == 0 {
                // Main time may be spent more freely: a period waits behind it.
                slice(clock.left, moves_left) + period / 2
            } else {
                // In overtime the period renews on every move played within it.
                period.min(clock.left)
            }
        }
        TimeSystem::Canadian { period, stones, .. } => {
            if clock.stones_or_periods == 0 {
                slice(clock.left, moves_left) + slice(period, stones) / 2
            } else {
                slice(clock.left, clock.stones_or_periods)
            }
        }
    };
    // Never plan past what is left, and keep the reserve.
    let margin = SAFETY.max(think / 10);
    let cap = clock.left.saturating_sub(margin);
    Some(think.saturating_sub(margin).min(cap).max(MINIMUM))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn reading(left: f64, stones: u32) -> ClockReading {
        ClockReading {
            left: secs(left),
            stones_or_periods: stones,
        }
    }

    #[test]
    fn no_clock_means_no_time_limit() {
        assert_eq!(
            time_for_move(TimeSystem::None, reading(0.0, 0), 9, 81),
            None
        );
    }

    #[test]
    fn absolute_time_is_spread_over_the_remaining_moves() {
        let system = TimeSystem::Absolute { main: secs(300.0) };
        let early = time_for_move(system, reading(300.0, 0), 19, 361).unwrap();
        assert!(early > secs(1.0) && early < secs(5.0), "{early:?}");
        let late = time_for_move(system, reading(2.0, 0), 19, 40).unwrap();
        assert!(late <= secs(1.5), "{late:?}");
    }

    #[test]
    fn canadian_overtime_divides_the_period_by_the_stones_left() {
        let system = TimeSystem::Canadian {
            main: secs(0.0),
            period: secs(300.0),
            stones: 25,
        };
        let t = time_for_move(system, reading(100.0, 10), 19, 200).unwrap();
        assert!(t <= secs(10.0) && t >= secs(8.0), "{t:?}");
    }

    #[test]
    fn byo_yomi_uses_a_period_minus_the_reserve() {
        let system = TimeSystem::ByoYomi {
            main: secs(0.0),
            period: secs(30.0),
            periods: 3,
        };
        let t = time_for_move(system, reading(30.0, 3), 19, 200).unwrap();
        assert!(t < secs(30.0) && t >= secs(26.0), "{t:?}");
    }

    #[test]
    fn an_empty_clock_still_allows_the_minimum() {
        let system = TimeSystem::Absolute { main: secs(60.0) };
        assert_eq!(time_for_move(system, reading(0.1, 0), 9, 30), Some(MINIMUM));
    }
}
