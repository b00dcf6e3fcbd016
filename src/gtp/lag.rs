//! How much of the controller's clock goes beyond ishi's own thinking
//! (pipes, the GUI, the network), learned from `time_left`.
//!
//! A move's budget keeps this lag back. Assumed at 0.3 s, it would be most
//! of a move on a short clock (10 s of sudden death on 9x9 gives about
//! 0.3 s a move), so before anything is measured it is taken as at most a
//! quarter of a move's share of the whole main time at the start of the
//! game: a lag as long as the moves themselves would lose such a game
//! whatever was kept back. (An overtime period keeps at least the whole
//! 0.3 s: it must survive every move's lag, not their mean.) And 0.3 s is
//! too little over a slow network.
//! The clock says what the lag is:
//! after a move in main time, the next `time_left` for that colour shows
//! how far the clock fell beyond the time ishi measured for the move.
//! Controllers report whole seconds, rounded, which makes one move's
//! figure useless; but over an unbroken run of moves the figures add up
//! to the first report less the last, less ishi's own time, so the
//! rounding errs by under a second for the whole run.

/// The lag assumed before any is measured, and the least the allowance
/// comes down to while what was measured cannot rule it out...
pub const ASSUMED_LAG: f64 = 0.3;
/// ...or this fraction of what the whole main time gives a move at the
/// start of the game, if less.
const ASSUMED_SHARE: f64 = 0.25;
/// The allowance is the most the mean lag can be, given the rounding of
/// the reports, plus this margin for the lag's variation from move to
/// move. Not a multiple: where the lag is long, every second kept back
/// beyond it is a second not thought (with 0.7 s of lag on a 30 s clock,
/// 1.5 times the lag left the minimum think at every move), and a clock
/// shared over the moves left makes up for one long lag at the next
/// moves.
const LAG_MARGIN: f64 = 0.05;
/// The rounding of reports with a fractional part (tenths at the least).
const FRACTIONAL_RESOLUTION: f64 = 0.1;
/// A move whose report is off by more than this (an undo the controller
/// credited back, a clock reset by hand, a long pause) says nothing about
/// the lag and breaks the run.
const IMPLAUSIBLE: f64 = 10.0;

/// The main time last reported for one colour and ishi's own thinking
/// since.
#[derive(Clone, Copy, Debug, Default)]
struct SinceReport {
    reported: f64,
    thought: f64,
    moved: bool,
}

/// What the reports have shown so far.
#[derive(Clone, Debug, Default)]
pub struct LagMeter {
    /// Set on the command line (`--lag`): nothing is learned.
    fixed: Option<f64>,
    since: [Option<SinceReport>; 2],
    /// Whether the last report for each colour ended a measured move (its
    /// run goes on).
    in_run: [bool; 2],
    /// Seconds the clock fell beyond ishi's own time, over `moves`.
    unaccounted: f64,
    moves: u32,
    runs: u32,
    fractional_reports: bool,
}

/// The lag assumed in main time before any is measured, where the whole
/// main time gave each move `share` seconds at the start of the game.
fn assumed_in_main_time(share: f64) -> f64 {
    ASSUMED_LAG.min(share.max(0.0) * ASSUMED_SHARE)
}

impl LagMeter {
    /// A meter that does not learn: the lag is `seconds`.
    pub fn fixed(seconds: f64) -> LagMeter {
        LagMeter {
            fixed: Some(seconds),
            ..LagMeter::default()
        }
    }

    /// `time_left` for `colour` (0 Black, 1 White): `seconds` in main time
    /// when `stones` is 0.
    pub fn report(&mut self, colour: usize, seconds: f64, stones: i64) {
        let in_main_time = stones == 0 && seconds.is_finite() && seconds >= 0.0;
        let measured = match self.since[colour] {
            Some(s) if s.moved && in_main_time => {
                let beyond = s.reported - s.thought - seconds;
                (beyond.abs() <= IMPLAUSIBLE).then_some(beyond)
            }
            _ => None,
        };
        if let Some(beyond) = measured {
            self.unaccounted += beyond;
            self.moves += 1;
            if !self.in_run[colour] {
                self.runs += 1;
            }
            self.fractional_reports |= seconds.fract() != 0.0;
        }
        self.in_run[colour] = measured.is_some();
        self.since[colour] = in_main_time.then_some(SinceReport {
            reported: seconds,
            thought: 0.0,
            moved: false,
        });
    }

    /// ishi thought `seconds` on a move for `colour`.
    pub fn moved(&mut self, colour: usize, seconds: f64) {
        if let Some(s) = &mut self.since[colour] {
            s.thought += seconds;
            s.moved = true;
        }
    }

    /// The clock changed in a way the next report cannot be compared with
    /// (a new game, new settings, an undo): every run ends here.
    pub fn break_runs(&mut self) {
        self.since = [None; 2];
        self.in_run = [false; 2];
    }

    /// The seconds to keep back for lag from a move in main time, whose
    /// clock gave each move `share` seconds at the start of the game, or
    /// with `None` from a move in overtime. There a period must survive
    /// the lag of every move, not its mean, so the allowance never comes
    /// down below the assumption; it only rises where the reports prove
    /// the lag longer.
    pub fn allowance(&self, share: Option<f64>) -> f64 {
        if let Some(seconds) = self.fixed {
            return seconds;
        }
        let Some((least, most)) = self.mean_lag_bounds() else {
            return share.map_or(ASSUMED_LAG, assumed_in_main_time);
        };
        let proven = least + LAG_MARGIN;
        match share {
            None => ASSUMED_LAG.max(proven),
            // Below the assumption where the reports rule it out; above it
            // where they prove the lag larger.
            Some(share) => (most + LAG_MARGIN).min(assumed_in_main_time(share).max(proven)),
        }
    }

    /// The least and the most the mean lag can be, given the rounding of
    /// the reports; `None` before any move is measured.
    fn mean_lag_bounds(&self) -> Option<(f64, f64)> {
        if self.moves == 0 {
            return None;
        }
        let moves = f64::from(self.moves);
        let mean = (self.unaccounted / moves).max(0.0);
        let resolution = if self.fractional_reports {
            FRACTIONAL_RESOLUTION
        } else {
            1.0
        };
        let rounding = resolution * f64::from(self.runs) / moves;
        Some(((mean - rounding).max(0.0), mean + rounding))
    }

    /// Moves measured so far, for the log.
    pub fn moves(&self) -> u32 {
        self.moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move's share of a clock long enough that the assumption is 0.3 s.
    const LONG: Option<f64> = Some(5.0);
    const SHORT: Option<f64> = Some(0.31);

    /// A controller's clock for one colour: every move takes `think` by
    /// ishi's measure and `think + lag` by the clock's; reports are
    /// rounded down to whole seconds, or to milliseconds.
    fn run(meter: &mut LagMeter, start: f64, moves: usize, think: f64, lag: f64, whole: bool) {
        let shown = |clock: f64| {
            if whole {
                clock.floor()
            } else {
                (clock * 1000.0).floor() / 1000.0
            }
        };
        let mut clock = start;
        for _ in 0..moves {
            meter.report(0, shown(clock), 0);
            meter.moved(0, think);
            clock -= think + lag;
        }
        meter.report(0, shown(clock), 0);
    }

    #[test]
    fn nothing_reported_keeps_the_assumption() {
        let mut meter = LagMeter::default();
        assert_eq!(meter.allowance(LONG), ASSUMED_LAG);
        // Reports without a move between them measure nothing.
        meter.report(0, 60.0, 0);
        meter.report(0, 59.0, 0);
        assert_eq!(meter.allowance(LONG), ASSUMED_LAG);
        assert_eq!(meter.moves(), 0);
    }

    #[test]
    fn a_short_clock_assumes_a_short_lag() {
        // 10 s of sudden death on 9x9: about 0.31 s a move.
        let meter = LagMeter::default();
        assert!((meter.allowance(SHORT) - 0.0775).abs() < 1e-9);
        assert_eq!(meter.allowance(Some(0.0)), 0.0);
        assert_eq!(meter.allowance(Some(1.2)), ASSUMED_LAG);
        // An overtime period keeps the whole assumption.
        assert_eq!(meter.allowance(None), ASSUMED_LAG);
    }

    #[test]
    fn whole_second_reports_bring_the_allowance_down_as_moves_add_up() {
        let mut meter = LagMeter::default();
        run(&mut meter, 60.0, 3, 0.37, 0.01, true);
        // Three moves of rounded reports cannot rule out 0.3 s.
        assert_eq!(meter.allowance(LONG), ASSUMED_LAG);
        // Games of thirty moves: each run's rounding is under a second.
        for _ in 0..12 {
            run(&mut meter, 60.0, 30, 0.37, 0.01, true);
        }
        let many = meter.allowance(LONG);
        assert!((0.03..0.15).contains(&many), "{many}");
        // An overtime period still keeps the whole assumption.
        assert_eq!(meter.allowance(None), ASSUMED_LAG);
        // Still never above a short clock's assumption.
        assert!((meter.allowance(SHORT) - 0.0775).abs() < 1e-9);
    }

    #[test]
    fn precise_reports_are_believed_sooner() {
        let mut meter = LagMeter::default();
        run(&mut meter, 60.0, 5, 0.5, 0.005, false);
        let allowance = meter.allowance(LONG);
        assert!((0.05..0.1).contains(&allowance), "{allowance}");
        // Five moves of whole-second reports still allow the assumed lag.
        let mut whole = LagMeter::default();
        run(&mut whole, 60.0, 5, 0.5, 0.005, true);
        assert_eq!(whole.allowance(LONG), ASSUMED_LAG);
    }

    #[test]
    fn a_lag_larger_than_assumed_is_learned() {
        let mut meter = LagMeter::default();
        run(&mut meter, 300.0, 20, 2.0, 0.8, true);
        let allowance = meter.allowance(LONG);
        assert!(allowance >= 0.8, "{allowance}");
        assert!(allowance <= 0.9 + LAG_MARGIN, "{allowance}");
        // Whatever the share: a game that short is lost anyway, and a
        // longer one is kept from running out. Overtime too.
        assert_eq!(meter.allowance(SHORT), allowance);
        assert_eq!(meter.allowance(None), allowance);
    }

    #[test]
    fn a_clock_that_jumps_breaks_the_run_and_is_not_counted() {
        let mut meter = LagMeter::default();
        meter.report(0, 60.0, 0);
        meter.moved(0, 1.0);
        // An undo credited back: the clock went up.
        meter.report(0, 75.0, 0);
        assert_eq!(meter.moves(), 0);
        // Overtime reports are not compared with main time.
        meter.moved(0, 1.0);
        meter.report(0, 30.0, 5);
        meter.moved(0, 1.0);
        meter.report(0, 29.0, 4);
        assert_eq!(meter.moves(), 0);
        // A new game between a move and its report.
        meter.report(1, 60.0, 0);
        meter.moved(1, 1.0);
        meter.break_runs();
        meter.report(1, 300.0, 0);
        assert_eq!(meter.moves(), 0);
        assert_eq!(meter.allowance(LONG), ASSUMED_LAG);
    }

    #[test]
    fn a_lag_given_on_the_command_line_is_kept() {
        let mut meter = LagMeter::fixed(1.0);
        run(&mut meter, 60.0, 30, 0.5, 0.0, false);
        assert_eq!(meter.allowance(LONG), 1.0);
        assert_eq!(meter.allowance(SHORT), 1.0);
        assert_eq!(meter.allowance(None), 1.0);
    }
}
