//! Counting a finished position under any rule set, given which chains are
//! dead and which are in seki (judging that is [`crate::search::status`]'s job).

use crate::board::{Bitboard, Board, Color};
use crate::game::Game;
use crate::rules::{HandicapCompensation, Rules, ScoringRule, SekiRule};
use std::fmt;

/// Points for each side, komi and every adjustment included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub black: f64,
    pub white: f64,
    pub black_wins_ties: bool,
}

impl Score {
    /// Black's points minus White's.
    pub fn margin(&self) -> f64 {
        self.black - self.white
    }

    pub fn winner(&self) -> Option<Color> {
        let m = self.margin();
        if m > 0.0 || (m == 0.0 && self.black_wins_ties) {
            Some(Color::Black)
        } else if m < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Score {
    /// GTP style: `B+3.5`, `W+0.5`, `0` for jigo (`B+0` when Black wins ties).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.margin();
        let amount = crate::rules::format_komi(m.abs());
        match self.winner() {
            Some(Color::Black) => write!(f, "B+{amount}"),
            Some(Color::White) => write!(f, "W+{amount}"),
            None => f.write_str("0"),
        }
    }
}

/// What scoring needs beyond the board: the game's captures, passes and handicap.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameFacts {
    /// Stones captured by Black and by White during the game.
    pub captures: [u32; 2],
    pub passes: [u32; 2],
    pub handicap: u32,
    pub first_passer_of_ending: Option<Color>,
}

impl GameFacts {
    pub fn of(game: &Game) -> GameFacts {
        let b = game.board();
        GameFacts {
            captures: [b.captures(Color::Black), b.captures(Color::White)],
            passes: [game.passes_by(Color::Black), game.passes_by(Color::White)],
            handicap: game.handicap(),
            first_passer_of_ending: game.first_passer_of_ending(),
        }
    }
}

/// Scores a game's current position with the given dead and seki stones.
pub fn score_game(game: &Game, dead: &Bitboard, seki: &Bitboard) -> Score {
    score(game.board(), game.rules(), &GameFacts::of(game), dead, seki)
}

/// Scores `board` under `rules`. `dead` holds the stones of dead chains,
/// `seki` the stones of chains in seki; both are ignored where the rules
/// score the literal position.
pub fn score(
    board: &Board,
    rules: &Rules,
    facts: &GameFacts,
    dead: &Bitboard,
    seki: &Bitboard,
) -> Score {
    let (dead, seki) = if rules.remove_dead {
        (*dead, *seki)
    } else {
        (Bitboard::EMPTY, Bitboard::EMPTY)
    };
    let live = board.without(&dead);
    let stride = board.stride();
    let mut points = [0f64; 2];
    let neutral_seki = rules.seki == SekiRule::Neutral;

    for c in [Color::Black, Color::White] {
        let i = c.index();
        let stones = *live.stones(c);
        let mut territory = live.area_territory(c);
        if neutral_seki {
            // Regions bordered by a chain in seki count for nobody.
            let seki_neighbourhood = (seki & stones).neighbours(stride);
            for region in territory.components(stride) {
                if region.intersects(&seki_neighbourhood) {
                    territory = territory.and_not(&region);
                }
            }
        }
        let dead_of_opponent = (dead & *board.stones(c.opponent())).count();
        points[i] = match rules.scoring {
            ScoringRule::Area => (stones.count() + territory.count()) as f64,
            ScoringRule::Stones => stones.count() as f64,
            ScoringRule::Territory => {
                let mut prisoners = facts.captures[i] + dead_of_opponent;
                if rules.pass_stones {
                    prisoners += facts.passes[c.opponent().index()];
                }
                (territory.count() + prisoners) as f64
            }
        };
        if rules.group_tax {
            let groups = (stones | territory)
                .components(stride)
                .into_iter()
                .filter(|g| g.intersects(&stones))
                .count();
            points[i] -= 2.0 * groups as f64;
        }
    }

    let mut white = points[1] + rules.komi;
    if rules.scoring == ScoringRule::Area && facts.handicap >= 1 {
        white += match rules.handicap_compensation {
            HandicapCompensation::None => 0.0,
            HandicapCompensation::N => facts.handicap as f64,
            HandicapCompensation::NMinusOne => facts.handicap.saturating_sub(1) as f64,
        };
    }
    let mut black = points[0];
    if rules.first_pass_point && facts.first_passer_of_ending == Some(Color::White) {
        black -= 1.0;
    }
    Score {
        black,
        white,
        black_wins_ties: rules.black_wins_ties,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str) -> Rules {
        Rules::preset(name).unwrap()
    }

    #[test]
    fn area_and_territory_on_a_split_board() {
        let b = Board::from_ascii(
            "
            . X O . .
            . X O . .
            . X O . .
            . X O . .
            . X O . .",
        )
        .unwrap();
        let facts = GameFacts::default();
        let none = Bitboard::EMPTY;
        let area = score(
            &b,
            &Rules {
                komi: 0.0,
                ..rules("chinese")
            },
            &facts,
            &none,
            &none,
        );
        assert_eq!((area.black, area.white), (10.0, 15.0));
        assert_eq!(area.to_string(), "W+5");
        let terr = score(
            &b,
            &Rules {
                komi: 0.5,
                ..rules("japanese")
            },
            &facts,
            &none,
            &none,
        );
        assert_eq!((terr.black, terr.white), (5.0, 10.5));
        let stones = score(&b, &rules("stone-scoring"), &facts, &none, &none);
        assert_eq!(stones.to_string(), "0");
    }

    #[test]
    fn ing_black_wins_ties() {
        let b = Board::new(3).unwrap();
        let r = Rules {
            komi: 0.0,
            ..rules("ing")
        };
        let s = score(
            &b,
            &r,
            &GameFacts::default(),
            &Bitboard::EMPTY,
            &Bitboard::EMPTY,
        );
        assert_eq!(s.to_string(), "B+0");
    }
}
