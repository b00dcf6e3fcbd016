//! Clocks through the binary: a controller keeps real time per genmove
//! (from writing the command to reading the whole answer), tells the
//! engine its time with `time_left` before every move, and the engine must
//! never overstep: no sudden-death clock run out, no Canadian period
//! overrun, no byo-yomi period lost.
//! Also `cputime` counts CPU, not wall time.

mod common;

use common::Engine;
use std::time::{Duration, Instant};

/// One player's clock as the controller keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Clock {
    Main(f64),
    /// Seconds and stones left in the current Canadian period.
    Canadian(f64, u32),
    /// Japanese byo-yomi: periods left (the period restarts every move).
    Periods(u32),
}

#[derive(Clone, Copy)]
enum System {
    Absolute,
    Canadian { period: f64, stones: u32 },
    Byoyomi { period: f64, periods: u32 },
}

impl System {
    /// The clock after a move that took `used` seconds, or `Err` with the
    /// overstep: time gone (Canadian) or a byo-yomi period spent.
    fn after(self, clock: Clock, used: f64) -> Result<Clock, String> {
        match (self, clock) {
            (_, Clock::Main(s)) if used <= s => Ok(Clock::Main(s - used)),
            (System::Absolute, Clock::Main(s)) => Err(format!("out of time: {used:.3}s > {s:.3}s")),
            (System::Canadian { period, stones }, Clock::Main(s)) => {
                // The rest of the move counts against the first period.
                self.after(Clock::Canadian(period, stones), used - s)
            }
            (System::Canadian { period, stones }, Clock::Canadian(s, left)) => {
                let rest = s - used;
                if rest < 0.0 {
                    return Err(format!("Canadian period overrun: {rest:.3}s"));
                }
                Ok(if left <= 1 {
                    Clock::Canadian(period, stones)
                } else {
                    Clock::Canadian(rest, left - 1)
                })
            }
            (System::Byoyomi { periods, .. }, Clock::Main(s)) => {
                self.after(Clock::Periods(periods), used - s)
            }
            (System::Byoyomi { period, .. }, Clock::Periods(p)) => {
                if used > period {
                    Err(format!(
                        "byo-yomi period lost: {used:.3}s > {period}s ({p} left)"
                    ))
                } else {
                    Ok(Clock::Periods(p))
                }
            }
            (_, c) => Err(format!("clock {c:?} does not belong to this system")),
        }
    }

    /// `time_left` as a controller sends it: whole seconds, rounded down.
    fn time_left(self, colour: &str, clock: Clock) -> String {
        match (self, clock) {
            (_, Clock::Main(s)) => format!("time_left {colour} {} 0", s.floor()),
            (_, Clock::Canadian(s, left)) => format!("time_left {colour} {} {left}", s.floor()),
            (System::Byoyomi { period, .. }, Clock::Periods(p)) => {
                format!("time_left {colour} {} {p}", period.floor())
            }
            (System::Canadian { period, .. }, Clock::Periods(p)) => {
                format!("time_left {colour} {} {p}", period.floor())
            }
            (System::Absolute, clock) => panic!("no overtime in sudden death: {clock:?}"),
        }
    }
}

/// Plays ishi against itself on 9x9 under `settings` for at most
/// `max_plies`, with the controller's clocks; panics on an overstep.
/// Returns the seconds each move took.
fn timed_game(settings: &str, main: f64, system: System, max_plies: usize) -> Vec<f64> {
    let mut e = Engine::ishi(&["--threads", "1", "--size", "9", "--seed", "5"]);
    e.timeout = Duration::from_secs(20);
    e.ok(settings);
    let mut clocks = [Clock::Main(main), Clock::Main(main)];
    let mut times = Vec::new();
    let mut passes = 0;
    for ply in 0..max_plies {
        let (colour, i) = if ply % 2 == 0 { ("b", 0) } else { ("w", 1) };
        e.ok(&system.time_left(colour, clocks[i]));
        let begun = Instant::now();
        let mv = e.ok(&format!("genmove {colour}"));
        let used = begun.elapsed().as_secs_f64();
        times.push(used);
        clocks[i] = system
            .after(clocks[i], used)
            .unwrap_or_else(|err| panic!("ply {ply} ({colour} {mv}) under '{settings}': {err}"));
        if mv == "resign" {
            break;
        }
        passes = if mv == "pass" { passes + 1 } else { 0 };
        if passes == 2 {
            break;
        }
    }
    let longest = times.iter().cloned().fold(0.0, f64::max);
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    println!(
        "'{settings}': {} moves, mean {mean:.3}s, longest {longest:.3}s, clocks at the end {clocks:?}",
        times.len()
    );
    times
}

#[test]
fn canadian_overtime_of_one_second_per_move_is_never_overrun() {
    let system = System::Canadian {
        period: 1.0,
        stones: 1,
    };
    let times = timed_game("time_settings 2 1 1", 2.0, system, 30);
    // A sensible pace: the engine thinks, it does not just blurt moves out.
    let thinking = times.iter().filter(|&&t| t > 0.1).count();
    assert!(thinking * 2 >= times.len(), "{times:?}");
}

/// Sudden death long enough that a move may go on past its share when its
/// search has not settled, and that the 9x9 floor of moves left is below
/// 20 until the clock runs low.
#[test]
fn sudden_death_is_never_run_out() {
    timed_game("time_settings 20 0 0", 20.0, System::Absolute, 160);
}

/// Ten seconds of sudden death on 9x9 are about 0.3 s a move: they are
/// thought on, not kept back for a lag the clock does not show.
#[test]
fn a_ten_second_game_is_thought_on_and_never_run_out() {
    let times = timed_game("time_settings 10 0 0", 10.0, System::Absolute, 160);
    // Keeping 0.3 s back, every move was given 0.05 s (0.075 s unsettled).
    let thought = times.iter().filter(|&&t| t > 0.15).count();
    assert!(thought >= 10, "{times:.3?}");
}

#[test]
fn kgs_byo_yomi_periods_are_never_lost() {
    let system = System::Byoyomi {
        period: 1.0,
        periods: 3,
    };
    timed_game("kgs-time_settings byoyomi 2 1 3", 2.0, system, 24);
}

#[test]
fn cputime_counts_processor_time_not_wall_time() {
    // A fixed amount of work, not a time: on a loaded machine a search of
    // 0.6 s of wall time may get only a sliver of a core.
    let mut e = Engine::ishi(&[
        "--threads",
        "1",
        "--size",
        "19",
        "--playouts",
        "3000",
        "--tune",
        "early_stop=0",
    ]);
    let cpu = |e: &mut Engine| -> f64 { e.ok("cputime").parse().expect("seconds") };
    let start = cpu(&mut e);
    std::thread::sleep(Duration::from_millis(600));
    let idle = cpu(&mut e) - start;
    assert!(idle < 0.1, "sleeping cost {idle}s of CPU");
    let before = cpu(&mut e);
    e.ok("genmove b");
    let thinking = cpu(&mut e) - before;
    println!("idle 0.6s: {idle:.3} CPU s; genmove of 3,000 playouts: {thinking:.3} CPU s");
    assert!(
        thinking > 0.1,
        "a search of 3,000 playouts used {thinking}s of CPU"
    );
}
