//! ishi: a Monte Carlo Go engine. The library holds everything; the binary
//! (`src/main.rs`) only reads the command line and connects stdin/stdout.

pub mod board;
pub mod game;
pub mod gtp;
pub mod perft;
pub mod rules;
pub mod score;
pub mod search;
pub mod sgf;
