pub mod bench;
mod bench_tournament;
pub mod games;
pub mod lightsout;
pub mod play;
pub mod plugins;
pub mod replay;
pub mod solve;
pub mod tournament;
