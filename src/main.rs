use anyhow::{bail, Result};
use clap::{Parser, Subcommand};
use ishi::gtp::server::serve;
use ishi::gtp::{Engine, EngineConfig};
use ishi::rules::Rules;
use ishi::search::bench::{bench_lines, BenchPlan, PlayoutKind};
use ishi::search::status::StatusConfig;
use ishi::search::SearchConfig;
use std::time::Duration;

/// ishi: a Monte Carlo Go engine speaking the Go Text Protocol (GTP) on stdin/stdout.
///
/// Without a subcommand ishi waits for GTP commands: connect it to Sabaki,
/// GoGui, gogui-twogtp, kgsGtp or gomill, or type commands such as
/// `genmove b`, `showboard` and `final_score` yourself.
#[derive(Parser, Debug)]
#[command(name = "ishi", version, about, long_about)]
struct Cli {
    /// Rule set: chinese (default), japanese, korean, aga, new-zealand, ing,
    /// egf, wmsg, tromp-taylor, simple-area, stone-scoring, group-tax.
    /// A controller can change it later (kgs-rules, ishi-rules).
    #[arg(long, global = true, value_name = "NAME")]
    rules: Option<String>,
    /// Ko rule, overriding the rule set: simple (no immediate retake),
    /// positional (no earlier whole-board position may recur), situational
    /// (not with the same player to move), natural-situational.
    #[arg(long, global = true, value_name = "K")]
    ko: Option<String>,
    /// Suicide, overriding the rule set: allowed (a move may kill its own
    /// group of two or more stones) or forbidden.
    #[arg(long, global = true, value_name = "S")]
    suicide: Option<String>,
    /// Komi: points given to White (e.g. 6.5, 7, -3). Default: the rule set's.
    #[arg(long, global = true, allow_hyphen_values = true, value_name = "X")]
    komi: Option<String>,
    /// Board size at start, 2 to 25 (the controller usually sets it).
    #[arg(long, default_value_t = 19, value_name = "N")]
    size: usize,
    /// Threads to think with. Default: every core of the machine.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Simulated games per move (a strength cap that does not depend on the
    /// machine's speed). With no clock, such a search on 9x9 expands its
    /// tree sooner, which is stronger per playout and a little slower.
    #[arg(long, value_name = "N")]
    playouts: Option<u64>,
    /// Seconds of thinking per move when the game has no clock. Default 5,
    /// unless --playouts is given. A game clock (time_settings) overrides it.
    #[arg(long, value_name = "SECONDS_PER_MOVE")]
    time: Option<f64>,
    /// Simulation style: heavy (default; plays out captures, ataris and
    /// shapes, stronger) or light (random moves, faster).
    #[arg(long, value_name = "light|heavy")]
    playout: Option<String>,
    /// Resign when the estimated chance of winning stays below this
    /// fraction (e.g. 0.1); 0 never resigns.
    #[arg(long, value_name = "FRACTION")]
    resign: Option<f64>,
    /// Upper bound on the search tree's size, to cap memory in long thinks
    /// (48 bytes a node, in chunks of 65,536; between moves up to 16 chunks
    /// of the tree before, about 50 MB, are kept for the next one).
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
    /// Tree-search constants for tuning experiments, as name=value pairs
    /// separated by commas (e.g. explore=0.2,rave_equiv=1000,prior_even=10).
    /// An unknown name lists the known ones.
    #[arg(long, global = true, value_name = "LIST")]
    tune: Option<String>,
    /// Keep thinking during the opponent's time.
    #[arg(long)]
    ponder: bool,
    /// Seconds to keep back from every move on a clock for network and GUI
    /// lag. Default: learned from the controller's time_left reports,
    /// assumed 0.3 s (less on very short clocks) until they show it.
    #[arg(long, value_name = "SECONDS")]
    lag: Option<f64>,
    /// Random seed, for games that can be replayed exactly.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Simulated games used to decide which stones are dead when scoring
    /// (final_score, final_status_list): more is slower and surer. Default 2000.
    #[arg(long, value_name = "N")]
    score_playouts: Option<u32>,
    /// More log output on stderr (-v info, -vv debug, -vvv trace). RUST_LOG works too.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
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
        /// Take every measurement this many times, thread counts interleaved,
        /// and report the best (shared machines are noisy).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Measure only inside the tree search, not raw playouts.
        #[arg(long)]
        search_only: bool,
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

fn playout_kind(name: &str) -> Result<PlayoutKind> {
    match name {
        "light" => Ok(PlayoutKind::Light),
        "heavy" => Ok(PlayoutKind::Heavy),
        other => bail!("unknown playout policy '{other}' (light, heavy)"),
    }
}

fn engine_config(cli: &Cli, rules: Rules) -> Result<EngineConfig> {
    if !(2..=25).contains(&cli.size) {
        bail!("board size {} is not between 2 and 25", cli.size);
    }
    let mut search = SearchConfig::default();
    if let Some(t) = cli.threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        search.threads = t;
    }
    search.playouts = cli.playouts;
    if let Some(seconds) = cli.time {
        if !(seconds.is_finite() && seconds > 0.0) {
            bail!("--time must be a positive number of seconds");
        }
        search.time_per_move = Some(Duration::from_secs_f64(seconds));
    }
    if let Some(p) = &cli.playout {
        search.playout = playout_kind(p)?;
    }
    if let Some(r) = cli.resign {
        if !(0.0..1.0).contains(&r) {
            bail!("--resign must be a fraction from 0 to below 1");
        }
        search.resign_threshold = r;
    }
    search.tuning = tuning_from(cli)?;
    if let Some(n) = cli.max_nodes {
        search.max_nodes = n;
    }
    search.ponder = cli.ponder;
    if let Some(lag) = cli.lag {
        if !(lag.is_finite() && (0.0..=60.0).contains(&lag)) {
            bail!("--lag must be a number of seconds from 0 to 60");
        }
    }
    let mut status = StatusConfig {
        threads: search.threads,
        ..StatusConfig::default()
    };
    if let Some(seed) = cli.seed {
        search.seed = seed;
        status.seed = seed;
    }
    if let Some(n) = cli.score_playouts {
        status.playouts = n.max(1);
    }
    Ok(EngineConfig {
        size: cli.size,
        rules,
        search,
        status,
        lag: cli.lag,
    })
}

fn tuning_from(cli: &Cli) -> Result<ishi::search::Tuning> {
    match &cli.tune {
        Some(t) => ishi::search::Tuning::parse(t).map_err(|e| anyhow::anyhow!("--tune: {e}")),
        None => Ok(Default::default()),
    }
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let mut logger =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    let level = match cli.verbose {
        0 => None,
        1 => Some(log::LevelFilter::Info),
        2 => Some(log::LevelFilter::Debug),
        _ => Some(log::LevelFilter::Trace),
    };
    if let Some(level) = level {
        logger.filter_level(level);
    }
    logger.target(env_logger::Target::Stderr).init();
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
            repeat,
            search_only,
        }) => {
            let kinds = playout
                .iter()
                .map(|k| playout_kind(k))
                .collect::<Result<Vec<_>>>()?;
            let duration = Duration::from_secs_f64(seconds.max(0.1));
            if let Some(bad) = sizes.iter().find(|s| !(2..=25).contains(*s)) {
                bail!("board size {bad} is not between 2 and 25");
            }
            // Raw playouts and playouts inside the tree search, each thread
            // count against the first one measured in the same run.
            let tuning = tuning_from(&cli)?;
            let plan = BenchPlan {
                sizes: sizes.clone(),
                kinds,
                threads: threads.clone(),
                duration,
                repeat: *repeat,
                tuning,
                search_only: *search_only,
            };
            for line in bench_lines(&plan) {
                println!("{line}");
            }
        }
        None => {
            let engine = Engine::new(engine_config(&cli, rules)?)?;
            let mut stdout = std::io::stdout().lock();
            let stdin = std::io::BufReader::new(std::io::stdin());
            if let Err(e) = serve(engine, stdin, &mut stdout) {
                // The controller has gone away; there is nobody to answer.
                log::warn!("GTP session ended: {e}");
            }
        }
    }
    Ok(())
}
