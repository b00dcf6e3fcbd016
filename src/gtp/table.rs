//! The one list of commands: parsing, `list_commands` and `known_command`
//! all read it, so a command cannot be listed without being understood or
//! understood without being listed.

use super::analysis::{parse_args, Dialect};
use super::clock::TimeSystem;
use super::command::{Args, Command, GenmoveKind, ParseError, StoneStatus};

pub struct Spec {
    pub name: &'static str,
    /// Builds the typed command from the arguments; extra arguments are
    /// rejected by the caller.
    pub parse: fn(&mut Args) -> Result<Command, ParseError>,
}

const fn spec(name: &'static str, parse: fn(&mut Args) -> Result<Command, ParseError>) -> Spec {
    Spec { name, parse }
}

fn status(a: &mut Args) -> Result<StoneStatus, ParseError> {
    match a.word()?.to_ascii_lowercase().as_str() {
        "alive" => Ok(StoneStatus::Alive),
        "dead" => Ok(StoneStatus::Dead),
        "seki" => Ok(StoneStatus::Seki),
        _ => Err(ParseError::Syntax),
    }
}

fn kgs_time_system(a: &mut Args) -> Result<TimeSystem, ParseError> {
    Ok(match a.word()?.to_ascii_lowercase().as_str() {
        "none" => TimeSystem::None,
        "absolute" => TimeSystem::Absolute { main: a.seconds()? },
        "byoyomi" => TimeSystem::Byoyomi {
            main: a.seconds()?,
            period: a.seconds()?,
            periods: a.count()?,
        },
        "canadian" => TimeSystem::Canadian {
            main: a.seconds()?,
            period: a.seconds()?,
            stones: a.count()?,
        },
        _ => return Err(ParseError::Syntax),
    })
}

/// Every command, in the order `list_commands` gives them.
pub const COMMANDS: &[Spec] = &[
    spec("protocol_version", |_| Ok(Command::ProtocolVersion)),
    spec("name", |_| Ok(Command::Name)),
    spec("version", |_| Ok(Command::Version)),
    spec("known_command", |a| Ok(Command::KnownCommand(a.word()?))),
    spec("list_commands", |_| Ok(Command::ListCommands)),
    spec("quit", |_| Ok(Command::Quit)),
    spec("boardsize", |a| Ok(Command::BoardSize(a.int()?))),
    spec("clear_board", |_| Ok(Command::ClearBoard)),
    spec("komi", |a| Ok(Command::Komi(a.float()?))),
    spec("play", |a| Ok(Command::Play(a.color()?, a.vertex()?))),
    spec("genmove", |a| {
        Ok(Command::Genmove(a.color()?, GenmoveKind::Play))
    }),
    spec("reg_genmove", |a| {
        Ok(Command::Genmove(a.color()?, GenmoveKind::Regression))
    }),
    spec("kgs-genmove_cleanup", |a| {
        Ok(Command::Genmove(a.color()?, GenmoveKind::Cleanup))
    }),
    spec("undo", |_| Ok(Command::Undo)),
    spec("gg-undo", |a| {
        Ok(Command::GgUndo(a.opt_int()?.unwrap_or(1)))
    }),
    spec("fixed_handicap", |a| Ok(Command::FixedHandicap(a.int()?))),
    spec("place_free_handicap", |a| {
        Ok(Command::PlaceFreeHandicap(a.int()?))
    }),
    spec("set_free_handicap", |a| {
        Ok(Command::SetFreeHandicap(a.vertices()?))
    }),
    spec("time_settings", |a| {
        Ok(Command::TimeSettings(TimeSystem::from_gtp(
            a.seconds()?,
            a.seconds()?,
            a.count()?,
        )))
    }),
    spec("kgs-time_settings", |a| {
        Ok(Command::TimeSettings(kgs_time_system(a)?))
    }),
    spec("time_left", |a| {
        Ok(Command::TimeLeft {
            color: a.color()?,
            seconds: a.seconds()?,
            stones: a.count()?,
        })
    }),
    spec("final_score", |_| Ok(Command::FinalScore)),
    spec("final_status_list", |a| {
        Ok(Command::FinalStatusList(status(a)?))
    }),
    spec("loadsgf", |a| {
        Ok(Command::LoadSgf {
            path: a.word()?,
            move_number: a.opt_int()?,
        })
    }),
    spec("printsgf", |a| Ok(Command::PrintSgf(a.opt_word()))),
    spec("showboard", |_| Ok(Command::ShowBoard)),
    spec("list_stones", |a| Ok(Command::ListStones(a.color()?))),
    spec("all_legal", |a| Ok(Command::AllLegal(a.color()?))),
    spec("is_legal", |a| {
        Ok(Command::IsLegal(a.color()?, a.vertex()?))
    }),
    spec("captures", |a| Ok(Command::Captures(a.color()?))),
    spec("cputime", |_| Ok(Command::CpuTime)),
    spec("kgs-rules", |a| Ok(Command::KgsRules(a.word()?))),
    spec("kgs-game_over", |_| Ok(Command::KgsGameOver)),
    spec("ishi-rules", |a| Ok(Command::IshiRules(a.opt_word()))),
    spec("ishi-rule", |a| {
        Ok(Command::IshiRule {
            knob: a.word()?,
            value: a.word()?,
        })
    }),
    spec("gogui-interrupt", |_| Ok(Command::GoguiInterrupt)),
    // Sabaki uses the first of analyze, kata-analyze, lz-analyze it finds.
    spec("analyze", |a| {
        Ok(Command::Analyze(parse_args(a, Dialect::Sabaki, false)?))
    }),
    spec("kata-analyze", |a| {
        Ok(Command::Analyze(parse_args(a, Dialect::Kata, false)?))
    }),
    spec("lz-analyze", |a| {
        Ok(Command::Analyze(parse_args(a, Dialect::Leela, false)?))
    }),
    spec("genmove_analyze", |a| {
        Ok(Command::Analyze(parse_args(a, Dialect::Sabaki, true)?))
    }),
    spec("kata-genmove_analyze", |a| {
        Ok(Command::Analyze(parse_args(a, Dialect::Kata, true)?))
    }),
    spec("lz-genmove_analyze", |a| {
        Ok(Command::Analyze(parse_args(a, Dialect::Leela, true)?))
    }),
    spec("gogui-analyze_commands", |_| {
        Ok(Command::GoguiAnalyzeCommands)
    }),
    spec("ishi-best_moves", |a| {
        Ok(Command::IshiBestMoves(a.color()?))
    }),
    spec("ishi-pv", |a| Ok(Command::IshiPv(a.color()?))),
    spec("ishi-ownership", |_| Ok(Command::IshiOwnership)),
    spec("ishi-territory", |_| Ok(Command::IshiTerritory)),
    spec("ishi-score_estimate", |_| Ok(Command::IshiScoreEstimate)),
];

/// The command of that name; names are exact (GTP is case sensitive).
pub fn find(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|s| s.name == name)
}

pub fn is_known(name: &str) -> bool {
    find(name).is_some()
}

pub fn names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|s| s.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::command::parse_line;

    #[test]
    fn every_listed_command_parses_with_some_arguments() {
        // Each name with a plausible argument list is understood: nothing is
        // listed that only answers `unknown command`.
        let samples = [
            "",
            "b",
            "b d4",
            "9",
            "alive",
            "x.sgf",
            "chinese",
            "ko simple",
            "none",
            "1 1 1",
            "b 10 0",
        ];
        for name in names() {
            let ok = samples
                .iter()
                .any(|args| parse_line(&format!("{name} {args}")).command.is_ok());
            assert!(ok, "{name}");
        }
    }

    #[test]
    fn names_are_unique() {
        let mut all: Vec<_> = names().collect();
        all.sort();
        let n = all.len();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(is_known("gogui-interrupt"));
        assert!(!is_known("GENMOVE"));
    }
}
