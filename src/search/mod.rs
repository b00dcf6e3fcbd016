//! Monte Carlo search: playouts, the tree, time control. Threads live here
//! and above; nothing below this module does I/O or spawns threads.

pub mod bench;
pub mod playout;
