use anyhow::{bail, Result};
use clap::{Parser, Subcommand};
use ishi::rules::Rules;
use ishi::search::bench::{playouts_per_second, PlayoutKind};
use std::time::Duration;

/// ishi: a Monte Carlo Go engine speaking the Go Text Protocol (GTP) on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "ishi", version, about)]
struct Cli {
    /// Rule set: tromp-taylor, simple-area, chinese, japanese, korean, aga,
    /// new-zealand, ing, egf, wmsg, stone-scoring, group-tax.
    #[arg(long, global = true)]
    rules: Option<String>,
    /// Ko rule override: simple, positional, situational, natural-situational.
    #[arg(long, global = true)]
    ko: Option<String>,
    /// Suicide override: allowed (multi-stone suicide is legal) or forbidden.
    #[arg(long, global = true)]
    suicide: Option<String>,
    /// Komi: points given to White (any number, e.g. 6.5, 7, -3).
    #[arg(long, global = true, allow_hyphen_values = true)]
    komi: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move sequences from the empty board (rules self-check).
    Perft {
        #[arg(long, default_value_t = 3)]
        size: usize,
        #[arg(long, default_value_t = 3)]
        depth: u32,
    },
    /// Measure playouts per second from the empty board.
    Bench {
        /// Board sizes to measure, comma separated.
        #[arg(long, default_value = "9,19", value_delimiter = ',')]
        sizes: Vec<usize>,
        /// Thread counts to measure, comma separated (e.g. 1,2).
        #[arg(long, default_value = "1", value_delimiter = ',')]
        threads: Vec<usize>,
        /// Playout policies to measure: light, heavy.
        #[arg(long, default_value = "light", value_delimiter = ',')]
        playout: Vec<String>,
        /// Seconds per measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
    },
}

fn rules_from(cli: &Cli) -> Result<Rules> {
    let mut rules = match &cli.rules {
        Some(name) => Rules::preset(name)?,
        None => Rules::default(),
    };
    if let Some(k) = &cli.ko {
        rules.set_knob("ko", k)?;
    }
    if let Some(s) = &cli.suicide {
        rules.set_knob("suicide", s)?;
    }
    if let Some(k) = &cli.komi {
        rules.set_knob("komi", k)?;
    }
    Ok(rules)
}

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let rules = rules_from(&cli)?;
    match &cli.command {
        Some(Command::Perft { size, depth }) => {
            let counts = ishi::perft::perft(*size, rules, *depth)?;
            for (d, n) in counts.iter().enumerate() {
                println!("{} {}", d + 1, n);
            }
        }
        Some(Command::Bench {
            sizes,
            threads,
            playout,
            seconds,
        }) => {
            let kinds = playout
                .iter()
                .map(|k| match k.as_str() {
                    "light" => Ok(PlayoutKind::Light),
                    "heavy" => Ok(PlayoutKind::Heavy),
                    other => bail!("unknown playout policy '{other}' (light, heavy)"),
                })
                .collect::<Result<Vec<_>>>()?;
            let duration = Duration::from_secs_f64(seconds.max(0.1));
            for &size in sizes {
                if !(2..=25).contains(&size) {
                    bail!("board size {size} is not between 2 and 25");
                }
                for &kind in &kinds {
                    let mut base = None;
                    for &t in threads {
                        let r = playouts_per_second(size, kind, t, duration, 1);
                        let rate = r.per_second();
                        let ratio = base.map_or(1.0, |b: f64| rate / b);
                        base.get_or_insert(rate);
                        println!(
                            "{size}x{size} {kind:?} threads={t} playouts/s={rate:.0} moves/playout={:.1} ratio_vs_first={ratio:.2}",
                            r.moves as f64 / r.playouts.max(1) as f64
                        );
                    }
                }
            }
        }
        None => {
            bail!("GTP mode is not wired yet");
        }
    }
    Ok(())
}
