//! A bot that uses every CPU it may: for the cgroup's CPU cap and for the kill of a whole
//! cgroup at a deadline, which must end its threads with it.

use crate::params::number_param;
use agon_sdk::export::WireBot;
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};
use std::hint::black_box;

fn spin() -> ! {
    let mut spins: u64 = 0;
    loop {
        spins = black_box(spins.wrapping_add(1));
    }
}

/// Starts `threads` threads (default 1; those the sandbox refuses are not retried) that spin
/// forever, and spins itself: it never answers.
#[derive(Default)]
pub struct SpinThreads {
    threads: usize,
}

impl WireBot for SpinThreads {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["threads"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.threads = number_param(start, "threads", 1)?;
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        for _ in 0..self.threads {
            if std::thread::Builder::new().spawn(|| spin()).is_err() {
                break;
            }
        }
        spin()
    }
}
