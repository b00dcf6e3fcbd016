//! Rule sets as independent knobs; the named presets of RULES.md are only
//! shortcuts for setting them. The knobs are hashed into position keys so
//! that a search never mixes results obtained under different rules.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// May not recreate the position before the opponent's last move.
    Simple,
    /// May not recreate any earlier position.
    Positional,
    /// May not recreate an earlier position with the same player to move.
    Situational,
    /// May not recreate a position that followed an earlier placement by the same player.
    NaturalSituational,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SuicideRule {
    /// A placement may kill its own chain of two or more stones.
    Allowed,
    Forbidden,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoringRule {
    /// Stones on the board plus empty regions reaching only that colour.
    Area,
    /// Surrounded empty points plus prisoners.
    Territory,
    /// Stones on the board only.
    Stones,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SekiRule {
    /// Empty points surrounded by a chain in seki count as its territory.
    Territory,
    /// Empty points inside a seki count for nobody (Japanese, Korean).
    Neutral,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapCompensation {
    None,
    /// White receives one point per handicap stone.
    N,
    /// White receives one point per handicap stone after the first.
    NMinusOne,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    pub ko: KoRule,
    pub suicide: SuicideRule,
    pub scoring: ScoringRule,
    /// Dead chains are removed before counting; false for Tromp-Taylor,
    /// which counts the literal final position.
    pub remove_dead: bool,
    /// Two points off per living group (historical Chinese counting).
    pub group_tax: bool,
    pub seki: SekiRule,
    /// AGA: each pass hands the opponent a prisoner.
    pub pass_stones: bool,
    /// WMSG 2008: Black loses a point if White passed first.
    pub first_pass_point: bool,
    pub handicap_compensation: HandicapCompensation,
    pub komi: f64,
    /// Ing: Black wins when the count is tied.
    pub black_wins_ties: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    UnknownPreset(String),
    UnknownKnob(String),
    BadValue { knob: String, value: String },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(n) => write!(
                f,
                "unknown rules '{n}' (known: {})",
                PRESETS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
            ),
            RulesError::UnknownKnob(k) => write!(f, "unknown rules knob '{k}'"),
            RulesError::BadValue { knob, value } => {
                write!(f, "invalid value '{value}' for rules knob '{knob}'")
            }
        }
    }
}

impl std::error::Error for RulesError {}

const fn area(ko: KoRule, suicide: SuicideRule, komi: f64) -> Rules {
    Rules {
        ko,
        suicide,
        scoring: ScoringRule::Area,
        remove_dead: true,
        group_tax: false,
        seki: SekiRule::Territory,
        pass_stones: false,
        first_pass_point: false,
        handicap_compensation: HandicapCompensation::None,
        komi,
        black_wins_ties: false,
    }
}

use HandicapCompensation as Hc;
use KoRule::*;
use SuicideRule::*;

/// The named presets of RULES.md.
pub const PRESETS: &[(&str, Rules)] = &[
    (
        "tromp-taylor",
        Rules {
            remove_dead: false,
            ..area(Positional, Allowed, 7.5)
        },
    ),
    ("simple-area", area(NaturalSituational, Allowed, 7.5)),
    (
        "chinese",
        Rules {
            handicap_compensation: Hc::N,
            ..area(Positional, Forbidden, 7.5)
        },
    ),
    (
        "japanese",
        Rules {
            scoring: ScoringRule::Territory,
            seki: SekiRule::Neutral,
            ..area(Simple, Forbidden, 6.5)
        },
    ),
    (
        "korean",
        Rules {
            scoring: ScoringRule::Territory,
            seki: SekiRule::Neutral,
            ..area(Simple, Forbidden, 6.5)
        },
    ),
    (
        "aga",
        Rules {
            pass_stones: true,
            handicap_compensation: Hc::NMinusOne,
            ..area(Situational, Forbidden, 7.5)
        },
    ),
    ("new-zealand", area(Situational, Allowed, 7.0)),
    (
        "ing",
        Rules {
            black_wins_ties: true,
            ..area(Situational, Allowed, 8.0)
        },
    ),
    ("egf", area(Positional, Forbidden, 7.0)),
    (
        "wmsg",
        Rules {
            first_pass_point: true,
            ..area(Positional, Forbidden, 6.5)
        },
    ),
    (
        "stone-scoring",
        Rules {
            scoring: ScoringRule::Stones,
            ..area(Simple, Forbidden, 0.0)
        },
    ),
    (
        "group-tax",
        Rules {
            group_tax: true,
            ..area(Simple, Forbidden, 0.0)
        },
    ),
];

/// The names KGS sends with `kgs-rules`, mapped to presets.
pub const KGS_NAMES: &[(&str, &str)] = &[
    ("chinese", "chinese"),
    ("japanese", "japanese"),
    ("aga", "aga"),
    ("new_zealand", "new-zealand"),
];

/// The knob names accepted by [`Rules::set_knob`], with their values.
pub const KNOBS: &[(&str, &str)] = &[
    ("ko", "simple|positional|situational|natural-situational"),
    ("suicide", "allowed|forbidden"),
    ("scoring", "area|territory|stones"),
    ("remove-dead", "true|false"),
    ("group-tax", "true|false"),
    ("seki", "territory|neutral"),
    ("pass-stones", "true|false"),
    ("first-pass-point", "true|false"),
    ("handicap-compensation", "0|n|n-1"),
    ("komi", "a number"),
    ("black-wins-ties", "true|false"),
];

impl Default for Rules {
    /// Chinese: area scoring with positional superko, what most Go programs
    /// and servers expect from an engine that is not told otherwise.
    fn default() -> Rules {
        Rules::preset("chinese").expect("chinese is a preset")
    }
}

fn normalise(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace(['_', ' '], "-")
}

fn parse_bool(knob: &str, v: &str) -> Result<bool, RulesError> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(bad(knob, v)),
    }
}

fn bad(knob: &str, value: &str) -> RulesError {
    RulesError::BadValue {
        knob: knob.to_string(),
        value: value.chars().take(40).collect(),
    }
}

impl Rules {
    /// A preset by name; `_`, spaces and case are forgiven, and KGS names work.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        let wanted = normalise(name);
        let wanted = match wanted.as_str() {
            "tromp-taylor" | "trompttaylor" | "tt" => "tromp-taylor".to_string(),
            "nz" => "new-zealand".to_string(),
            "simple" => "simple-area".to_string(),
            _ => wanted,
        };
        PRESETS
            .iter()
            .find(|(n, _)| *n == wanted)
            .map(|(_, r)| *r)
            .ok_or_else(|| RulesError::UnknownPreset(name.chars().take(40).collect()))
    }

    /// The preset these rules equal, komi aside; `None` for a custom mix.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS
            .iter()
            .find(|(_, r)| {
                Rules {
                    komi: r.komi,
                    ..*self
                } == *r
            })
            .map(|(n, _)| *n)
    }

    /// Sets one knob by name from text (`--ko`, `ishi-rules_set`).
    pub fn set_knob(&mut self, knob: &str, value: &str) -> Result<(), RulesError> {
        let k = normalise(knob);
        let v = normalise(value);
        match k.as_str() {
            "ko" => self.ko = v.parse()?,
            "suicide" => {
                self.suicide = match v.as_str() {
                    "allowed" | "allow" | "true" | "yes" => Allowed,
                    "forbidden" | "forbid" | "false" | "no" => Forbidden,
                    _ => return Err(bad(&k, value)),
                }
            }
            "scoring" => {
                self.scoring = match v.as_str() {
                    "area" => ScoringRule::Area,
                    "territory" => ScoringRule::Territory,
                    "stones" | "stone" => ScoringRule::Stones,
                    _ => return Err(bad(&k, value)),
                }
            }
            "remove-dead" => self.remove_dead = parse_bool(&k, &v)?,
            "group-tax" => self.group_tax = parse_bool(&k, &v)?,
            "seki" => {
                self.seki = match v.as_str() {
                    "territory" => SekiRule::Territory,
                    "neutral" => SekiRule::Neutral,
                    _ => return Err(bad(&k, value)),
                }
            }
            "pass-stones" => self.pass_stones = parse_bool(&k, &v)?,
            "first-pass-point" => self.first_pass_point = parse_bool(&k, &v)?,
            "handicap-compensation" => {
                self.handicap_compensation = match v.as_str() {
                    "0" | "none" => Hc::None,
                    "n" => Hc::N,
                    "n-1" => Hc::NMinusOne,
                    _ => return Err(bad(&k, value)),
                }
            }
            "komi" => self.komi = parse_komi(value).ok_or_else(|| bad(&k, value))?,
            "black-wins-ties" => self.black_wins_ties = parse_bool(&k, &v)?,
            _ => return Err(RulesError::UnknownKnob(knob.chars().take(40).collect())),
        }
        Ok(())
    }

    /// Every knob as `name value` pairs, in [`KNOBS`] order.
    pub fn knobs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ko", self.ko.to_string()),
            ("suicide", self.suicide.to_string()),
            ("scoring", self.scoring.to_string()),
            ("remove-dead", self.remove_dead.to_string()),
            ("group-tax", self.group_tax.to_string()),
            ("seki", self.seki.to_string()),
            ("pass-stones", self.pass_stones.to_string()),
            ("first-pass-point", self.first_pass_point.to_string()),
            (
                "handicap-compensation",
                self.handicap_compensation.to_string(),
            ),
            ("komi", format_komi(self.komi)),
            ("black-wins-ties", self.black_wins_ties.to_string()),
        ]
    }

    /// A key for every knob that changes which moves are legal or how a
    /// game is scored, mixed into position keys.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            h ^= v;
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        };
        mix(self.ko as u64);
        mix(self.suicide as u64);
        mix(self.scoring as u64);
        mix(self.remove_dead as u64);
        mix(self.group_tax as u64);
        mix(self.seki as u64);
        mix(self.pass_stones as u64);
        mix(self.first_pass_point as u64);
        mix(self.handicap_compensation as u64);
        mix(self.komi.to_bits());
        mix(self.black_wins_ties as u64);
        h
    }

    pub fn allows_suicide(&self) -> bool {
        self.suicide == Allowed
    }
}

/// Komi as GTP sends it: any float, finite, within reason.
pub fn parse_komi(s: &str) -> Option<f64> {
    let k: f64 = s.trim().parse().ok()?;
    (k.is_finite() && k.abs() <= 1000.0).then_some(k)
}

pub fn format_komi(k: f64) -> String {
    if k.fract() == 0.0 {
        format!("{k:.0}")
    } else {
        format!("{k}")
    }
}

impl fmt::Display for Rules {
    /// `chinese` for an exact preset (komi aside), otherwise every knob.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(n) => f.write_str(n),
            None => {
                let parts: Vec<String> = self
                    .knobs()
                    .into_iter()
                    .filter(|(k, _)| *k != "komi")
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                write!(f, "custom({})", parts.join(","))
            }
        }
    }
}

macro_rules! named_enum {
    ($ty:ty, $knob:expr, $($variant:path => $name:expr),+) => {
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $($variant => $name),+ })
            }
        }
        impl FromStr for $ty {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<Self, RulesError> {
                match normalise(s).as_str() {
                    $($name => Ok($variant),)+
                    _ => Err(bad($knob, s)),
                }
            }
        }
    };
}

named_enum!(KoRule, "ko", Simple => "simple", Positional => "positional",
    Situational => "situational", NaturalSituational => "natural-situational");
named_enum!(SuicideRule, "suicide", Allowed => "allowed", Forbidden => "forbidden");
named_enum!(ScoringRule, "scoring", ScoringRule::Area => "area",
    ScoringRule::Territory => "territory", ScoringRule::Stones => "stones");
named_enum!(SekiRule, "seki", SekiRule::Territory => "territory", SekiRule::Neutral => "neutral");
named_enum!(HandicapCompensation, "handicap-compensation", Hc::None => "0", Hc::N => "n",
    Hc::NMinusOne => "n-1");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_table() {
        let tt = Rules::preset("tromp-taylor").unwrap();
        assert_eq!(
            (tt.ko, tt.suicide, tt.remove_dead, tt.komi),
            (Positional, Allowed, false, 7.5)
        );
        let j = Rules::preset("Japanese").unwrap();
        assert_eq!(
            (j.ko, j.scoring, j.seki, j.komi),
            (Simple, ScoringRule::Territory, SekiRule::Neutral, 6.5)
        );
        let aga = Rules::preset("aga").unwrap();
        assert!(aga.pass_stones);
        assert_eq!(aga.handicap_compensation, Hc::NMinusOne);
        assert!(Rules::preset("ing").unwrap().black_wins_ties);
        assert_eq!(Rules::preset("new_zealand").unwrap().komi, 7.0);
        assert!(Rules::preset("wmsg").unwrap().first_pass_point);
        assert_eq!(
            Rules::preset("stone-scoring").unwrap().scoring,
            ScoringRule::Stones
        );
        assert!(Rules::preset("group-tax").unwrap().group_tax);
        assert!(Rules::preset("martian").is_err());
    }

    #[test]
    fn every_preset_names_itself_and_hashes_apart() {
        let mut hashes = std::collections::HashSet::new();
        for (name, rules) in PRESETS {
            if *name == "korean" {
                // Korean and Japanese share every knob; the name resolves to the first.
                continue;
            }
            assert_eq!(rules.preset_name(), Some(*name));
            assert!(hashes.insert(rules.hash()), "{name}");
        }
    }

    #[test]
    fn knobs_override_presets() {
        let mut r = Rules::preset("japanese").unwrap();
        r.set_knob("ko", "situational").unwrap();
        assert_eq!(r.ko, Situational);
        assert_eq!(r.preset_name(), None);
        assert!(r.to_string().starts_with("custom("));
        assert!(r.set_knob("ko", "sideways").is_err());
        assert!(r.set_knob("colour", "red").is_err());
        r.set_knob("komi", "-3").unwrap();
        assert_eq!(r.komi, -3.0);
        assert!(r.set_knob("komi", "NaN").is_err());
    }
}
