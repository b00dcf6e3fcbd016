//! The engine as GTP sees it: a game, a searcher, the clock, and what each
//! command does to them. No I/O except the files `loadsgf` and `printsgf`
//! name, so every command can be tested by calling [`Engine::execute`].
//! A failing command leaves the state exactly as it was.

use super::analysis::{self, AnalyzeArgs};
use super::clock::{lag_in_main_time, move_budget, spend, unsettled_budget, Remaining, TimeSystem};
use super::command::{Command, GenmoveKind, StoneStatus, Vertex};
use super::lag::LagMeter;
use super::table;
use crate::board::coord::{move_name, vertex_name};
use crate::board::{Color, CoordError, Move, Point};
use crate::game::{handicap_points, Game, HandicapError};
use crate::rules::{Rules, KGS_NAMES};
use crate::search::status::{cleanup_move, estimate, judge, StatusConfig};
use crate::search::{Decision, Limits, SearchConfig, Searcher, Snapshot};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::time::{Duration, Instant};

/// `Ok` text for `=`, `Err` text for `?`.
pub type Response = Result<String, String>;

/// Thinking time per move when neither the command line nor a clock says.
pub const DEFAULT_TIME_PER_MOVE: Duration = Duration::from_secs(5);
/// How often a streamed search looks at its tree at the least.
const SNAPSHOT_TICK: Duration = Duration::from_millis(50);
/// How often a streamed search checks its stop flag and deadline.
const WATCH_TICK: Duration = Duration::from_millis(2);
/// `loadsgf` refuses larger files: no game record comes near this.
const MAX_SGF_BYTES: u64 = 8 << 20;

#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub size: usize,
    pub rules: Rules,
    pub search: SearchConfig,
    pub status: StatusConfig,
    /// Seconds kept back from every move for lag (`--lag`); `None` learns
    /// it from the clock.
    pub lag: Option<f64>,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            size: 19,
            rules: Rules::default(),
            search: SearchConfig::default(),
            status: StatusConfig::default(),
            lag: None,
        }
    }
}

pub struct Engine {
    game: Game,
    searcher: Searcher,
    status_config: StatusConfig,
    time_system: TimeSystem,
    clocks: [Remaining; 2],
    lag: LagMeter,
    started: Instant,
}

fn err<T>(text: &str) -> Result<T, String> {
    Err(text.to_string())
}

impl Engine {
    pub fn new(config: EngineConfig) -> Result<Engine, CoordError> {
        Ok(Engine {
            game: Game::new(config.size, config.rules)?,
            searcher: Searcher::new(config.search).with_referee(config.status.clone()),
            status_config: config.status,
            time_system: TimeSystem::None,
            clocks: [Remaining::default(); 2],
            lag: config.lag.map_or_else(LagMeter::default, LagMeter::fixed),
            started: Instant::now(),
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Runs one command. `stop` turns true when the server wants a long
    /// command (genmove) to finish early.
    /// Thinks on the opponent's time (`--ponder`) until `stop`, keeping the
    /// tree for the next genmove. Does nothing when pondering is off or the
    /// game has ended.
    pub fn ponder(&mut self, stop: &AtomicBool) {
        if self.searcher.config.ponder && !self.game.is_over() {
            let color = self.game.to_move();
            self.searcher.ponder(&self.game, color, stop);
        }
    }

    pub fn execute(&mut self, command: &Command, stop: &AtomicBool) -> Response {
        use Command as C;
        match command {
            C::ProtocolVersion => Ok("2".into()),
            C::Name => Ok("ishi".into()),
            C::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            C::KnownCommand(name) => Ok(table::is_known(name).to_string()),
            C::ListCommands => Ok(table::names().collect::<Vec<_>>().join("\n")),
            C::Quit | C::KgsGameOver | C::GoguiInterrupt => Ok(String::new()),
            C::BoardSize(n) => self.boardsize(*n),
            C::ClearBoard => {
                self.new_game(Game::new(self.game.size(), *self.game.rules()));
                Ok(String::new())
            }
            C::Komi(k) => {
                if !(k.is_finite() && k.abs() <= 1000.0) {
                    return err("syntax error");
                }
                self.game.set_komi(*k);
                Ok(String::new())
            }
            C::Play(color, vertex) => self.play(*color, *vertex),
            C::Genmove(color, kind) => self.genmove(*color, *kind, stop),
            C::Undo => self.undo(1),
            C::GgUndo(n) => self.undo(*n),
            C::FixedHandicap(n) => self.fixed_handicap(*n),
            C::PlaceFreeHandicap(n) => self.place_free_handicap(*n),
            C::SetFreeHandicap(vertices) => self.set_free_handicap(vertices),
            C::TimeSettings(system) => {
                self.time_system = *system;
                self.clocks = [system.start(); 2];
                self.lag.break_runs();
                Ok(String::new())
            }
            C::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                self.clocks[color.index()] = Remaining {
                    seconds: *seconds,
                    stones: *stones,
                };
                self.lag.report(color.index(), *seconds, *stones);
                Ok(String::new())
            }
            C::FinalScore => Ok(judge(&self.game, &self.status_config).score.to_string()),
            C::FinalStatusList(status) => Ok(self.final_status_list(*status)),
            C::LoadSgf { path, move_number } => self.loadsgf(path, *move_number),
            C::PrintSgf(path) => self.printsgf(path.as_deref()),
            C::ShowBoard => Ok(self.showboard()),
            C::ListStones(color) => {
                let stones = self.game.board().stones(*color).iter().map(Point);
                Ok(self.names(stones))
            }
            C::AllLegal(color) => {
                let moves = self.game.legal_moves(*color).into_iter();
                Ok(self.names(moves.filter_map(|m| match m {
                    Move::Place(p) => Some(p),
                    Move::Pass => None,
                })))
            }
            C::IsLegal(color, vertex) => {
                let legal = self
                    .to_move(*vertex)
                    .is_some_and(|m| self.game.is_legal(*color, m));
                Ok(if legal { "1" } else { "0" }.into())
            }
            C::Captures(color) => Ok(self.game.board().captures(*color).to_string()),
            C::CpuTime => Ok(format!("{:.3}", self.cpu_seconds())),
            C::KgsRules(name) => {
                let preset = KGS_NAMES
                    .iter()
                    .find(|(kgs, _)| kgs.eq_ignore_ascii_case(name))
                    .map_or(name.as_str(), |(_, preset)| preset);
                let rules = Rules::preset(preset).map_err(|e| e.to_string())?;
                // KGS sends komi itself; the rule name must not change it.
                self.set_rules(Rules {
                    komi: self.game.rules().komi,
                    ..rules
                });
                Ok(String::new())
            }
            C::IshiRules(None) => Ok(rules_report(self.game.rules())),
            C::IshiRules(Some(name)) => {
                let rules = Rules::preset(name).map_err(|e| e.to_string())?;
                self.set_rules(rules);
                Ok(String::new())
            }
            C::IshiRule { knob, value } => {
                let mut rules = *self.game.rules();
                rules.set_knob(knob, value).map_err(|e| e.to_string())?;
                self.set_rules(rules);
                Ok(String::new())
            }
            C::Analyze(args) => {
                // Without a stream to write to, the lines are collected and
                // a plain analysis ends at the usual move limits.
                let mut lines = Vec::new();
                let tail = self.analyze(args, stop, &mut |l| lines.push(l.to_string()), false);
                lines.extend(tail);
                Ok(lines.join("\n"))
            }
            C::GoguiAnalyzeCommands => Ok(analysis::GOGUI_ANALYZE_COMMANDS.into()),
            C::IshiBestMoves(color) => {
                let size = self.game.size();
                let snap = self.search_for_display(*color, stop);
                Ok(analysis::best_moves_gfx(&snap, *color, size))
            }
            C::IshiPv(color) => {
                let size = self.game.size();
                let snap = self.search_for_display(*color, stop);
                Ok(analysis::pv_gfx(&snap, *color, size))
            }
            C::IshiOwnership => {
                let j = estimate(&self.game, &self.status_config);
                Ok(analysis::ownership_dboard(&j.ownership, self.game.size()))
            }
            C::IshiTerritory => {
                let j = estimate(&self.game, &self.status_config);
                Ok(analysis::territory_gfx(self.game.board(), &j.ownership))
            }
            C::IshiScoreEstimate => {
                let j = estimate(&self.game, &self.status_config);
                Ok(format!(
                    "{} with {} dead stones removed; playouts average {}",
                    j.score,
                    j.dead.count(),
                    analysis::lead_text(j.score_lead)
                ))
            }
        }
    }

    // ---- analysis -------------------------------------------------------------

    /// Runs an analysis command, handing each `info` line to `sink` as it
    /// is made; returns what ends the response (`play <vertex>` for the
    /// genmove variants). With `until_stop`, a plain analysis runs until
    /// `stop` (the next command); without, also until the usual move limits.
    pub fn analyze(
        &mut self,
        args: &AnalyzeArgs,
        stop: &AtomicBool,
        sink: &mut dyn FnMut(&str),
        until_stop: bool,
    ) -> Option<String> {
        let color = args.color.unwrap_or(self.game.to_move());
        let size = self.game.size();
        // Playouts behind the last line sent, so the final line of a
        // genmove variant is not a repeat.
        let mut reported = None;
        let mut report = |snap: &Snapshot| {
            if reported == Some(snap.playouts) {
                return;
            }
            if let Some(line) = analysis::info_line(snap, args, color, size) {
                sink(&line);
                reported = Some(snap.playouts);
            }
        };
        if !args.genmove {
            let limits = (!until_stop).then(|| self.limits(color));
            self.search_streaming(color, limits, args.interval, stop, &mut report);
            return None;
        }
        let begun = Instant::now();
        let limits = self.limits(color);
        self.log_clock(color, &limits);
        let outcome = self.searcher.genmove_reporting(
            &self.game,
            color,
            &limits,
            stop,
            args.interval,
            &mut report,
        );
        // A move from the opening book has no search behind it: no line,
        // only the move.
        if outcome.snapshot.playouts > 0 {
            report(&outcome.snapshot);
        }
        match self.play_decision(color, GenmoveKind::Play, outcome.decision, begun) {
            Ok(mv) => Some(format!("play {mv}")),
            Err(e) => {
                log::error!("the streamed genmove could not play: {e}");
                None
            }
        }
    }

    /// A search at the usual move limits for a GoGui display; its last
    /// snapshot (empty when stopped before any).
    fn search_for_display(&mut self, color: Color, stop: &AtomicBool) -> Snapshot {
        let limits = self.limits(color);
        self.search_streaming(color, Some(limits), None, stop, &mut |_| {})
    }

    /// Searches for `color` until `stop`, or the limits when given, calling
    /// `report` every `interval`; returns the search's state at its end.
    fn search_streaming(
        &mut self,
        color: Color,
        limits: Option<Limits>,
        interval: Option<Duration>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Snapshot),
    ) -> Snapshot {
        // The searcher watches one flag: this one, raised by the caller's
        // stop or the deadline. Its workers count the playout budget.
        let ended = AtomicBool::new(stop.load(SeqCst));
        let start = Instant::now();
        let deadline = limits.and_then(|l| l.time).map(|t| start + t);
        let budget = limits.and_then(|l| l.playouts);
        let tick = interval.map_or(SNAPSHOT_TICK, |i| i.min(SNAPSHOT_TICK));
        let mut next_report = interval.map(|i| start + i);
        let (game, searcher) = (&self.game, &mut self.searcher);
        std::thread::scope(|s| {
            let ended = &ended;
            s.spawn(move || {
                while !ended.load(SeqCst) {
                    if stop.load(SeqCst) || deadline.is_some_and(|d| Instant::now() >= d) {
                        ended.store(true, SeqCst);
                    }
                    std::thread::sleep(WATCH_TICK);
                }
            });
            let at_end = searcher.analyze(game, color, tick, budget, ended, &mut |snap| {
                if let (Some(at), Some(every)) = (next_report, interval) {
                    let now = Instant::now();
                    if now >= at {
                        report(snap);
                        next_report = Some(now + every);
                    }
                }
            });
            ended.store(true, SeqCst);
            at_end
        })
    }

    // ---- game setup -------------------------------------------------------

    fn new_game(&mut self, game: Result<Game, CoordError>) {
        if let Ok(game) = game {
            self.game = game;
            self.searcher.clear();
            self.clocks = [self.time_system.start(); 2];
            self.lag.break_runs();
        }
    }

    fn boardsize(&mut self, n: i64) -> Response {
        let size = usize::try_from(n).map_err(|_| "unacceptable size")?;
        let game = Game::new(size, *self.game.rules()).map_err(|_| "unacceptable size")?;
        self.new_game(Ok(game));
        Ok(String::new())
    }

    fn set_rules(&mut self, rules: Rules) {
        self.game.set_rules(rules);
        self.searcher.clear();
    }

    /// The board point of a vertex, `None` when it lies off this board.
    fn to_move(&self, v: Vertex) -> Option<Move> {
        match v {
            Vertex::Pass => Some(Move::Pass),
            Vertex::At { col, row } => {
                let b = self.game.board();
                b.point(col as usize, (row as usize).checked_sub(1)?)
                    .ok()
                    .map(Move::Place)
            }
        }
    }

    fn names(&self, points: impl Iterator<Item = Point>) -> String {
        let size = self.game.size();
        points
            .map(|p| vertex_name(p, size))
            .collect::<Vec<_>>()
            .join(" ")
    }

    // ---- moves --------------------------------------------------------------

    fn play(&mut self, color: Color, vertex: Vertex) -> Response {
        let mv = self.to_move(vertex).ok_or("illegal move")?;
        self.game.play(color, mv).map_err(|_| "illegal move")?;
        self.infer_handicap();
        Ok(String::new())
    }

    fn undo(&mut self, n: i64) -> Response {
        let n = usize::try_from(n).map_err(|_| "cannot undo")?;
        if n > self.game.plies().len() {
            return err("cannot undo");
        }
        for _ in 0..n {
            self.game.undo();
        }
        self.lag.break_runs();
        self.infer_handicap();
        Ok(String::new())
    }

    /// Handicap stones given as `play B` repeated from an empty board: the
    /// opening run of Black placements counts as handicap (for White's
    /// compensation and for `printsgf`).
    fn infer_handicap(&mut self) {
        if self.game.start_position().0.stone_count() > 0 {
            return;
        }
        let run = self
            .game
            .plies()
            .iter()
            .take_while(|p| p.color == Color::Black && p.mv != Move::Pass)
            .count() as u32;
        self.game.set_handicap_count(if run >= 2 { run } else { 0 });
    }

    fn limits(&self, color: Color) -> Limits {
        let config = &self.searcher.config;
        let size = self.game.size();
        let clock = &self.clocks[color.index()];
        let plies = self.game.plies().len();
        match move_budget(&self.time_system, clock, size * size, plies, &self.lag) {
            Some(time) => Limits {
                playouts: config.playouts,
                time: Some(time),
                unsettled_time: unsettled_budget(&self.time_system, clock, time, &self.lag),
            },
            // A time per move asked for on the command line is kept to.
            None => Limits {
                playouts: config.playouts,
                time: config.time_per_move.or(match config.playouts {
                    None => Some(DEFAULT_TIME_PER_MOVE),
                    Some(_) => None,
                }),
                unsettled_time: None,
            },
        }
    }

    /// A move for `color` took `seconds` of thinking: off its clock, where
    /// the controller does not say, and into the lag's measure.
    fn charge(&mut self, color: Color, seconds: f64) {
        spend(&self.time_system, &mut self.clocks[color.index()], seconds);
        self.lag.moved(color.index(), seconds);
    }

    fn genmove(&mut self, color: Color, kind: GenmoveKind, stop: &AtomicBool) -> Response {
        let limits = self.limits(color);
        self.log_clock(color, &limits);
        let begun = Instant::now();
        let outcome = self.searcher.genmove(&self.game, color, &limits, stop);
        self.play_decision(color, kind, outcome.decision, begun)
    }

    fn log_clock(&self, color: Color, limits: &Limits) {
        if let (Some(budget), clock) = (limits.time, &self.clocks[color.index()]) {
            if self.time_system != TimeSystem::None {
                log::info!(
                    "clock {:.1}s ({} stones): {:.2}s for this move; lag kept back {:.3}s in main time, {:.3}s in overtime ({} moves measured)",
                    clock.seconds,
                    clock.stones,
                    budget.as_secs_f64(),
                    lag_in_main_time(&self.time_system, self.game.size().pow(2), &self.lag),
                    self.lag.allowance(None),
                    self.lag.moves()
                );
            }
        }
    }

    /// Plays what the search (or the book) decided for `color`, begun at
    /// `begun`: an illegal choice becomes a pass, a pass becomes a capture
    /// where dead stones must be taken first, and the time goes on the
    /// clock.
    fn play_decision(
        &mut self,
        color: Color,
        kind: GenmoveKind,
        mut decision: Decision,
        begun: Instant,
    ) -> Response {
        if let Decision::Play(mv) = decision {
            if !self.game.is_legal(color, mv) {
                log::error!("the search chose an illegal move; passing instead");
                decision = Decision::Play(Move::Pass);
            }
        }
        // Where dead stones stay on the board when the game is counted
        // (Tromp-Taylor) or the server asks for clean-up, they must be
        // captured before passing.
        let must_clean_up = kind == GenmoveKind::Cleanup || !self.game.rules().remove_dead;
        if decision == Decision::Play(Move::Pass) && must_clean_up {
            let judgement = judge(&self.game, &self.status_config);
            if let Some(mv) = cleanup_move(&self.game, color, &judgement) {
                if self.game.is_legal(color, mv) {
                    decision = Decision::Play(mv);
                }
            }
        }
        if kind != GenmoveKind::Regression {
            self.charge(color, begun.elapsed().as_secs_f64());
        }
        match decision {
            Decision::Resign => Ok("resign".into()),
            Decision::Play(mv) => {
                if kind != GenmoveKind::Regression {
                    // Checked legal above (a pass always is).
                    if self.game.play(color, mv).is_err() {
                        return err("illegal move");
                    }
                    self.infer_handicap();
                }
                Ok(move_name(mv, self.game.size()))
            }
        }
    }

    // ---- handicap -------------------------------------------------------------

    fn handicap_error(e: HandicapError) -> String {
        e.to_string()
    }

    fn fixed_handicap(&mut self, n: i64) -> Response {
        if !self.board_is_fresh() {
            return err("board not empty");
        }
        let n = u32::try_from(n).map_err(|_| "invalid number of stones")?;
        let points = self.game.fixed_handicap(n).map_err(Self::handicap_error)?;
        self.searcher.clear();
        Ok(self.names(points.into_iter()))
    }

    fn board_is_fresh(&self) -> bool {
        self.game.board().stone_count() == 0 && self.game.plies().is_empty()
    }

    fn place_free_handicap(&mut self, n: i64) -> Response {
        if !self.board_is_fresh() {
            return err("board not empty");
        }
        let size = self.game.size();
        let n = usize::try_from(n).map_err(|_| "invalid number of stones")?;
        if n < 2 || n >= size * size {
            return err("invalid number of stones");
        }
        let points = free_handicap_points(self.game.board(), n);
        self.game
            .set_free_handicap(&points)
            .map_err(Self::handicap_error)?;
        self.searcher.clear();
        Ok(self.names(points.into_iter()))
    }

    fn set_free_handicap(&mut self, vertices: &[Vertex]) -> Response {
        if !self.board_is_fresh() {
            return err("board not empty");
        }
        let mut points = Vec::with_capacity(vertices.len());
        for &v in vertices {
            match self.to_move(v) {
                Some(Move::Place(p)) => points.push(p),
                _ => return err("bad vertex list"),
            }
        }
        self.game
            .set_free_handicap(&points)
            .map_err(Self::handicap_error)?;
        self.searcher.clear();
        Ok(String::new())
    }

    // ---- end of game ----------------------------------------------------------

    fn final_status_list(&self, status: StoneStatus) -> String {
        let judgement = judge(&self.game, &self.status_config);
        let wanted = match status {
            StoneStatus::Alive => judgement.alive(&self.game),
            StoneStatus::Dead => judgement.dead,
            StoneStatus::Seki => judgement.seki,
        };
        let board = self.game.board();
        // One chain per line (as GNU Go answers), ordered by first stone.
        let mut chains: Vec<Vec<Point>> = board
            .chains()
            .into_iter()
            .filter(|&p| wanted.contains(p.0))
            .map(|p| board.chain_stones(p).iter().map(Point).collect())
            .collect();
        chains.sort();
        chains
            .into_iter()
            .map(|chain| self.names(chain.into_iter()))
            .collect::<Vec<_>>()
            .join("\n")
    }

    // ---- files ----------------------------------------------------------------

    fn loadsgf(&mut self, path: &str, move_number: Option<i64>) -> Response {
        let text = read_small_file(path).ok_or("cannot load file")?;
        let game = crate::sgf::read_game(&text, move_number, self.game.rules()).map_err(|e| {
            log::warn!("loadsgf {path}: {e}");
            "cannot load file"
        })?;
        let to_move = game.to_move();
        self.new_game(Ok(game));
        Ok(to_move.to_string())
    }

    fn printsgf(&self, path: Option<&str>) -> Response {
        let text = crate::sgf::write_game(&self.game);
        match path {
            None => Ok(text),
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => Ok(String::new()),
                Err(e) => {
                    log::warn!("printsgf {path}: {e}");
                    err("cannot save file")
                }
            },
        }
    }

    // ---- display ----------------------------------------------------------------

    fn showboard(&self) -> String {
        let board = self.game.board();
        let size = board.size();
        let letters: String = b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[..size]
            .iter()
            .map(|&l| format!(" {}", l as char))
            .collect();
        let max_stars = if size % 2 == 1 { 9 } else { 4 };
        let stars = handicap_points(size, max_stars).unwrap_or_default();
        let last = match self.game.last_move() {
            Some(Move::Place(p)) => Some(p),
            _ => None,
        };
        let mut out = format!("\n  {letters}\n");
        for y in (0..size).rev() {
            out.push_str(&format!("{:>2}", y + 1));
            for x in 0..size {
                let Ok(p) = board.point(x, y) else { continue };
                let stone = match board.color_at(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if stars.contains(&p) => '+',
                    None => '.',
                };
                // The last move is framed: `(X)`.
                let left_of_last = last == Some(p);
                let right_of_last = x > 0 && last.is_some_and(|l| board.xy(l) == (x - 1, y));
                out.push(match (left_of_last, right_of_last) {
                    (true, _) => '(',
                    (false, true) => ')',
                    _ => ' ',
                });
                out.push(stone);
            }
            let after = if last.is_some_and(|p| board.xy(p) == (size - 1, y)) {
                ')'
            } else {
                ' '
            };
            out.push_str(&format!("{after}{:>2}\n", y + 1));
        }
        out.push_str(&format!("  {letters}\n"));
        let rules = self.game.rules();
        out.push_str(&format!(
            "Black (X) has captured {} stones, White (O) has captured {} stones\n",
            board.captures(Color::Black),
            board.captures(Color::White)
        ));
        out.push_str(&format!(
            "Rules {rules}, komi {}, {} to move, move {}",
            crate::rules::format_komi(rules.komi),
            self.game.to_move(),
            self.game.plies().len() + 1
        ));
        out
    }

    fn cpu_seconds(&self) -> f64 {
        process_cpu_seconds().unwrap_or_else(|| self.started.elapsed().as_secs_f64())
    }
}

/// The preset name (or `custom`) and then every knob, one per line.
fn rules_report(rules: &Rules) -> String {
    let mut lines = vec![rules.preset_name().unwrap_or("custom").to_string()];
    lines.extend(rules.knobs().into_iter().map(|(k, v)| format!("{k} {v}")));
    lines.join("\n")
}

/// Reads a regular file of reasonable size; never blocks on a pipe or device.
fn read_small_file(path: &str) -> Option<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SGF_BYTES {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_SGF_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// CPU time of the whole process (all threads) from /proc; `None` elsewhere.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces; fields are counted after its ')'.
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    // Linux reports in USER_HZ, 100 on every common configuration.
    Some((user + system) / 100.0)
}

/// `n` points for a free handicap: the fixed star points where the board has
/// that many, otherwise star points first and then, greedily, the point
/// farthest from every stone so far, preferring the third and fourth lines.
pub fn free_handicap_points(board: &crate::board::Board, n: usize) -> Vec<Point> {
    let size = board.size();
    if let Some(points) = u32::try_from(n).ok().and_then(|k| handicap_points(size, k)) {
        return points;
    }
    let max_fixed = if size % 2 == 1 { 9 } else { 4 };
    let mut chosen: Vec<Point> = handicap_points(size, max_fixed)
        .unwrap_or_default()
        .into_iter()
        .take(n)
        .collect();
    let all: Vec<Point> = board.points().collect();
    let wanted_line = if size >= 13 { 3 } else { 2 };
    let edge_penalty = |p: Point| {
        let (x, y) = board.xy(p);
        let line = x.min(y).min(size - 1 - x).min(size - 1 - y);
        line.abs_diff(wanted_line)
    };
    let distance = |a: Point, b: Point| {
        let ((ax, ay), (bx, by)) = (board.xy(a), board.xy(b));
        ax.abs_diff(bx).max(ay.abs_diff(by))
    };
    let mut nearest: Vec<usize> = all
        .iter()
        .map(|&p| {
            chosen
                .iter()
                .map(|&c| distance(p, c))
                .min()
                .unwrap_or(usize::MAX)
        })
        .collect();
    while chosen.len() < n {
        let best = all
            .iter()
            .enumerate()
            .filter(|&(i, _)| nearest[i] > 0)
            .max_by_key(|&(i, &p)| (nearest[i], std::cmp::Reverse(edge_penalty(p))))
            .map(|(_, &p)| p);
        let Some(best) = best else { break };
        chosen.push(best);
        for (i, &p) in all.iter().enumerate() {
            nearest[i] = nearest[i].min(distance(p, best));
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::gtp::command::parse_line;

    fn engine(size: usize, rules: &str) -> Engine {
        let mut config = EngineConfig {
            size,
            rules: Rules::preset(rules).unwrap(),
            ..EngineConfig::default()
        };
        config.search.threads = 1;
        config.search.playouts = Some(50);
        config.status.threads = 1;
        config.status.playouts = 100;
        Engine::new(config).unwrap()
    }

    fn run(e: &mut Engine, line: &str) -> Response {
        let command = parse_line(line).command.map_err(|err| err.to_string())?;
        e.execute(&command, &AtomicBool::new(false))
    }

    fn ok(e: &mut Engine, line: &str) -> String {
        run(e, line).unwrap_or_else(|err| panic!("{line}: {err}"))
    }

    fn fails_unchanged(e: &mut Engine, line: &str, message: &str) {
        let before = e.game().clone();
        assert_eq!(run(e, line), Err(message.to_string()), "{line}");
        assert_eq!(e.game().board(), before.board(), "{line}");
        assert_eq!(e.game().plies().len(), before.plies().len(), "{line}");
        assert_eq!(e.game().to_move(), before.to_move(), "{line}");
        assert_eq!(e.game().rules(), before.rules(), "{line}");
    }

    fn diagram(e: &Engine) -> Board {
        e.game().board().clone()
    }

    #[test]
    fn play_consecutive_colours_and_illegal_moves() {
        let mut e = engine(5, "chinese");
        ok(&mut e, "play b B1");
        ok(&mut e, "play b C1");
        ok(&mut e, "play B A2");
        // A1 would be a lone stone without liberties.
        fails_unchanged(&mut e, "play w A1", "illegal move");
        fails_unchanged(&mut e, "play w B1", "illegal move");
        fails_unchanged(&mut e, "play w F1", "illegal move");
        fails_unchanged(&mut e, "play w Z25", "illegal move");
        fails_unchanged(&mut e, "play w I1", "syntax error");
        fails_unchanged(&mut e, "play green A1", "syntax error");
        assert_eq!(
            diagram(&e),
            Board::from_ascii(
                "
                . . . . .
                . . . . .
                . . . . .
                X . . . .
                . X X . ."
            )
            .unwrap()
        );
        assert_eq!(ok(&mut e, "list_stones black"), "B1 C1 A2");
        assert_eq!(ok(&mut e, "is_legal w A1"), "0");
        assert_eq!(ok(&mut e, "is_legal b A1"), "1");
        assert_eq!(ok(&mut e, "is_legal b J9"), "0");
    }

    #[test]
    fn simple_ko_and_positional_superko() {
        // . X O .      White captures at B1... a plain ko on the bottom edge.
        for (rules, retake_after_pass) in [("japanese", true), ("chinese", false)] {
            let mut e = engine(4, rules);
            for mv in [
                "play b B1",
                "play b A2",
                "play b B3",
                "play w C1",
                "play w D2",
                "play w C3",
                "play b C2",
                "play w B2",
            ] {
                ok(&mut e, mv);
            }
            // White captured at B2: Black may not retake at C2 at once.
            assert_eq!(ok(&mut e, "captures white"), "1");
            fails_unchanged(&mut e, "play b C2", "illegal move");
            ok(&mut e, "play b pass");
            ok(&mut e, "play w pass");
            // After passes simple ko allows the retake; positional superko
            // never allows recreating the earlier position.
            assert_eq!(
                run(&mut e, "play b C2").is_ok(),
                retake_after_pass,
                "{rules}"
            );
        }
    }

    #[test]
    fn suicide_depends_on_the_rules() {
        for (rules, legal) in [("chinese", false), ("new-zealand", true)] {
            let mut e = engine(3, rules);
            for mv in [
                "play w B1",
                "play w B2",
                "play w A3",
                "play w B3",
                "play b A1",
            ] {
                ok(&mut e, mv);
            }
            // A2 kills Black's own pair A1-A2 without capturing.
            assert_eq!(run(&mut e, "play b A2").is_ok(), legal, "{rules}");
            if legal {
                assert_eq!(ok(&mut e, "list_stones black"), "");
                assert_eq!(ok(&mut e, "captures white"), "2");
            }
        }
    }

    #[test]
    fn undo_and_gg_undo() {
        let mut e = engine(9, "chinese");
        fails_unchanged(&mut e, "undo", "cannot undo");
        ok(&mut e, "play b E5");
        ok(&mut e, "play w C3");
        ok(&mut e, "play b pass");
        fails_unchanged(&mut e, "gg-undo 4", "cannot undo");
        fails_unchanged(&mut e, "gg-undo -1", "cannot undo");
        ok(&mut e, "gg-undo 2");
        assert_eq!(ok(&mut e, "list_stones white"), "");
        ok(&mut e, "undo");
        assert_eq!(e.game().plies().len(), 0);
        assert_eq!(e.game().to_move(), Color::Black);
    }

    #[test]
    fn board_size_and_clear() {
        let mut e = engine(9, "chinese");
        ok(&mut e, "play b E5");
        for bad in [
            "boardsize 1",
            "boardsize 26",
            "boardsize -19",
            "boardsize 99999999999999999999",
        ] {
            fails_unchanged(&mut e, bad, "unacceptable size");
        }
        fails_unchanged(&mut e, "boardsize x", "syntax error");
        ok(&mut e, "boardsize 25");
        assert_eq!(e.game().size(), 25);
        assert_eq!(e.game().board().stone_count(), 0);
        ok(&mut e, "komi -3.5");
        ok(&mut e, "clear_board");
        assert_eq!(e.game().rules().komi, -3.5);
    }

    #[test]
    fn handicap_commands_follow_the_spec() {
        let mut e = engine(19, "chinese");
        assert_eq!(ok(&mut e, "fixed_handicap 3"), "D4 Q16 D16");
        assert_eq!(e.game().to_move(), Color::White);
        assert_eq!(e.game().handicap(), 3);
        fails_unchanged(&mut e, "fixed_handicap 2", "board not empty");
        fails_unchanged(&mut e, "place_free_handicap 2", "board not empty");
        fails_unchanged(&mut e, "set_free_handicap A1 B1", "board not empty");
        ok(&mut e, "clear_board");
        fails_unchanged(&mut e, "fixed_handicap 10", "invalid number of stones");
        fails_unchanged(&mut e, "fixed_handicap 1", "invalid number of stones");
        fails_unchanged(&mut e, "set_free_handicap A1", "bad vertex list");
        fails_unchanged(&mut e, "set_free_handicap A1 A1", "bad vertex list");
        fails_unchanged(&mut e, "set_free_handicap A1 pass", "bad vertex list");
        fails_unchanged(&mut e, "set_free_handicap A1 Z25", "bad vertex list");
        ok(&mut e, "set_free_handicap A1 T19 K10");
        assert_eq!(e.game().handicap(), 3);
        ok(&mut e, "boardsize 5");
        fails_unchanged(&mut e, "fixed_handicap 2", "invalid number of stones");
        fails_unchanged(&mut e, "place_free_handicap 25", "invalid number of stones");
        fails_unchanged(&mut e, "place_free_handicap 1", "invalid number of stones");
        let placed = ok(&mut e, "place_free_handicap 3");
        assert_eq!(placed.split(' ').count(), 3);
        assert_eq!(e.game().board().stone_count(), 3);
    }

    #[test]
    fn free_handicap_points_are_distinct_and_well_spread() {
        for size in [2, 5, 9, 10, 19, 25] {
            let board = Board::new(size).unwrap();
            for n in 2..(size * size).min(60) {
                let points = free_handicap_points(&board, n);
                let mut distinct = points.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), n, "{size} {n}");
            }
        }
        let board = Board::new(19).unwrap();
        let names: Vec<_> = free_handicap_points(&board, 4)
            .iter()
            .map(|&p| vertex_name(p, 19))
            .collect();
        assert_eq!(names, ["D4", "Q16", "D16", "Q4"]);
    }

    #[test]
    fn handicap_by_repeated_black_moves_is_recorded() {
        let mut e = engine(9, "chinese");
        ok(&mut e, "play b C3");
        assert_eq!(e.game().handicap(), 0);
        ok(&mut e, "play b G7");
        ok(&mut e, "play w E5");
        assert_eq!(e.game().handicap(), 2);
        assert!(ok(&mut e, "printsgf").contains("HA[2]"));
        ok(&mut e, "gg-undo 2");
        assert_eq!(e.game().handicap(), 0);
    }

    #[test]
    fn genmove_plays_and_keeps_working_after_two_passes() {
        let mut e = engine(9, "chinese");
        ok(&mut e, "play b pass");
        ok(&mut e, "play w pass");
        let mv = ok(&mut e, "genmove b");
        assert_eq!(e.game().plies().len(), 3);
        if mv != "pass" {
            assert_eq!(ok(&mut e, "list_stones b"), mv.to_uppercase());
        }
        let before = e.game().plies().len();
        ok(&mut e, "reg_genmove w");
        assert_eq!(e.game().plies().len(), before);
        ok(&mut e, "kgs-genmove_cleanup w");
        assert_eq!(e.game().plies().len(), before + 1);
    }

    #[test]
    fn scoring_a_split_board() {
        // Black owns the two left columns, White the rest: 10 to 15 on area.
        let mut e = engine(5, "chinese");
        for row in 1..=5 {
            ok(&mut e, &format!("play b B{row}"));
            ok(&mut e, &format!("play w C{row}"));
        }
        ok(&mut e, "komi 0.5");
        assert_eq!(ok(&mut e, "final_score"), "W+5.5");
        ok(&mut e, "kgs-rules japanese");
        assert_eq!(e.game().rules().komi, 0.5, "kgs-rules keeps komi");
        // Territory: 5 points against 10.
        assert_eq!(ok(&mut e, "final_score"), "W+5.5");
        ok(&mut e, "komi -10");
        assert_eq!(ok(&mut e, "final_score"), "B+5");
        let alive = ok(&mut e, "final_status_list alive");
        assert_eq!(alive.lines().count(), 2, "one chain per line: {alive}");
        assert!(alive.lines().any(|l| l == "B1 B2 B3 B4 B5"), "{alive}");
        assert_eq!(ok(&mut e, "final_status_list seki"), "");
        fails_unchanged(&mut e, "final_status_list zombie", "syntax error");
    }

    #[test]
    fn rules_over_gtp() {
        let mut e = engine(9, "chinese");
        let report = ok(&mut e, "ishi-rules");
        assert!(
            report.starts_with("chinese\nko positional\nsuicide forbidden"),
            "{report}"
        );
        ok(&mut e, "kgs-rules new_zealand");
        assert_eq!(e.game().rules().preset_name(), Some("new-zealand"));
        ok(&mut e, "ishi-rules tromp-taylor");
        assert_eq!(e.game().rules().komi, 7.5);
        ok(&mut e, "ishi-rule ko situational");
        let report = ok(&mut e, "ishi-rules");
        assert!(
            report.starts_with("custom\nko situational\nsuicide allowed"),
            "{report}"
        );
        assert!(run(&mut e, "ishi-rule ko sometimes").is_err());
        assert!(run(&mut e, "ishi-rule colour blue").is_err());
        assert!(run(&mut e, "kgs-rules martian").is_err());
        assert!(run(&mut e, "ishi-rules martian").is_err());
        assert_eq!(e.game().rules().ko, crate::rules::KoRule::Situational);
    }

    #[test]
    fn showboard_has_no_empty_line_and_shows_the_stones() {
        let mut e = engine(9, "chinese");
        ok(&mut e, "play b E5");
        ok(&mut e, "play w J1");
        let board = ok(&mut e, "showboard");
        let framed = crate::gtp::format_response(None, &Ok(board.clone()));
        assert!(!framed.trim_end().contains("\n\n"));
        let rows: Vec<&str> = board.lines().collect();
        assert_eq!(rows[1], "   A B C D E F G H J", "{board}");
        assert_eq!(rows[6], " 5 . . + . X . + . .  5", "{board}");
        assert_eq!(rows[10], " 1 . . . . . . . .(O) 1", "{board}");
        ok(&mut e, "play b C1");
        let board = ok(&mut e, "showboard");
        assert_eq!(
            board.lines().nth(10),
            Some(" 1 . .(X). . . . . O  1"),
            "{board}"
        );
    }

    #[test]
    fn clock_commands_set_the_budget() {
        let mut e = engine(19, "chinese");
        ok(&mut e, "time_settings 0 30 10");
        assert_eq!(
            e.limits(Color::Black).time,
            move_budget(&e.time_system, &e.clocks[0], 361, 0, &e.lag)
        );
        ok(&mut e, "time_left b 20 5");
        assert_eq!(
            e.clocks[0],
            Remaining {
                seconds: 20.0,
                stones: 5
            }
        );
        let t = e.limits(Color::Black).time.unwrap().as_secs_f64();
        assert!(t < 4.0 && t > 2.0, "{t}");
        // Canadian overtime: its stones share the period, no more.
        assert_eq!(e.limits(Color::Black).unsettled_time, None);
        // Sudden death: an unsettled search may go on for half again.
        ok(&mut e, "time_settings 600 0 0");
        let limits = e.limits(Color::Black);
        let budget = limits.time.unwrap();
        assert_eq!(limits.unsettled_time, Some(budget.mul_f64(1.5)));
        ok(&mut e, "kgs-time_settings none");
        assert_eq!(e.limits(Color::Black).time, None, "--playouts alone limits");
        fails_unchanged(&mut e, "time_left b -1 0", "syntax error");
        fails_unchanged(&mut e, "kgs-time_settings fischer 1 2", "syntax error");
    }

    /// The CGOS client sets the clock before `clear_board` (boardsize,
    /// komi, time_settings, clear_board): a new game keeps the settings,
    /// with a full clock.
    #[test]
    fn a_new_game_keeps_the_time_settings_given_before_it() {
        let mut e = engine(9, "tromp-taylor");
        ok(&mut e, "boardsize 9");
        ok(&mut e, "komi 7.0");
        ok(&mut e, "time_settings 60 0 0");
        ok(&mut e, "time_left b 12 0");
        ok(&mut e, "clear_board");
        assert_eq!(e.clocks[0].seconds, 60.0);
        let budget = e.limits(Color::Black).time.expect("on the clock");
        assert!(budget < Duration::from_secs(5), "{budget:?}");
    }

    /// A streamed genmove is genmove's own search with lines sent on the
    /// way: one thread and one seed give the same search, so its last line
    /// is what genmove's search ends with, and it plays genmove's move.
    #[test]
    fn a_streamed_genmove_searches_as_genmove_does() {
        let args = AnalyzeArgs {
            dialect: analysis::Dialect::Kata,
            genmove: true,
            color: Some(Color::Black),
            interval: Some(Duration::from_millis(10)),
            min_moves: 0,
            max_moves: 0,
            ownership: true,
        };
        for moves in [
            &[][..],
            &["play b E5", "play w C3", "play b G4", "play w D6"],
        ] {
            let fresh = || {
                let mut e = engine(9, "chinese");
                e.searcher.config.playouts = Some(600);
                for m in moves {
                    ok(&mut e, m);
                }
                e
            };
            let stop = AtomicBool::new(false);
            let mut streamed = fresh();
            let mut lines = Vec::new();
            let play = streamed.analyze(&args, &stop, &mut |l| lines.push(l.to_string()), false);
            let mut plain = fresh();
            let limits = plain.limits(Color::Black);
            let outcome = plain
                .searcher
                .genmove(&plain.game, Color::Black, &limits, &stop);
            let expected = analysis::info_line(&outcome.snapshot, &args, Color::Black, 9);
            assert_eq!(lines.last(), expected.as_ref(), "{moves:?}");
            let Decision::Play(mv) = outcome.decision else {
                panic!("{moves:?}: resigned")
            };
            assert_eq!(
                play,
                Some(format!("play {}", move_name(mv, 9))),
                "{moves:?}"
            );
        }
    }

    #[test]
    fn the_clock_reports_measure_the_lag_between_genmoves() {
        let mut e = engine(9, "chinese");
        ok(&mut e, "time_settings 600 0 0");
        ok(&mut e, "time_left b 600 0");
        ok(&mut e, "genmove b");
        ok(&mut e, "play w C3");
        ok(&mut e, "time_left b 599.9 0");
        assert_eq!(e.lag.moves(), 1);
        // The analysis form of genmove is measured too.
        ok(&mut e, "lz-genmove_analyze b 100");
        ok(&mut e, "play w G7");
        ok(&mut e, "time_left b 599.8 0");
        assert_eq!(e.lag.moves(), 2);
        // A report after an undo, a new game or new settings is not
        // compared with the one before.
        let resets = [
            "undo",
            "clear_board",
            "boardsize 9",
            "time_settings 600 0 0",
        ];
        for (reset, left) in resets.iter().zip([599.7, 599.6, 599.5, 599.4]) {
            ok(&mut e, "genmove b");
            ok(&mut e, reset);
            ok(&mut e, &format!("time_left b {left} 0"));
            assert_eq!(e.lag.moves(), 2, "{reset}");
        }
        // A regression genmove is no move on the clock.
        ok(&mut e, "reg_genmove b");
        ok(&mut e, "time_left b 599.3 0");
        assert_eq!(e.lag.moves(), 2);
    }

    #[test]
    fn sgf_files_round_trip_through_gtp() {
        let dir = std::env::temp_dir().join(format!("ishi-handler-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.sgf");
        let path = path.to_str().unwrap();
        let mut e = engine(9, "japanese");
        for mv in ["play b E5", "play w C3", "play b pass", "play w G7"] {
            ok(&mut e, mv);
        }
        ok(&mut e, &format!("printsgf {path}"));
        let mut other = engine(19, "chinese");
        assert_eq!(ok(&mut other, &format!("loadsgf {path}")), "black");
        assert_eq!(other.game().board(), e.game().board());
        assert_eq!(other.game().rules(), e.game().rules());
        assert_eq!(ok(&mut other, &format!("loadsgf {path} 3")), "black");
        assert_eq!(other.game().plies().len(), 2);
        fails_unchanged(&mut other, "loadsgf /nonexistent/x.sgf", "cannot load file");
        fails_unchanged(&mut other, "loadsgf /dev/zero", "cannot load file");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn protocol_basics() {
        let mut e = engine(9, "chinese");
        assert_eq!(ok(&mut e, "protocol_version"), "2");
        assert_eq!(ok(&mut e, "known_command play"), "true");
        assert_eq!(ok(&mut e, "known_command fly"), "false");
        let list = ok(&mut e, "list_commands");
        assert!(list.lines().any(|l| l == "gogui-interrupt"));
        assert!(list.lines().all(table::is_known));
        assert!(ok(&mut e, "cputime").parse::<f64>().unwrap() >= 0.0);
        assert_eq!(ok(&mut e, "all_legal b").split(' ').count(), 81);
    }
}
