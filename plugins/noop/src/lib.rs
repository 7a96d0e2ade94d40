//! `noop`: answers one constant, pre-encoded Breakthrough reply (`a2-a3`) without decoding the
//! observation, so that timing it measures the plugin boundary and the host, not a bot.

use agon_sdk::export::RawBot;
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Square};
use agon_sdk::protocol::{encode, Reply};

pub struct Noop {
    reply: Vec<u8>,
}

impl Default for Noop {
    fn default() -> Noop {
        let mv = Move {
            from: Square { row: 1, col: 0 },
            to: Square { row: 2, col: 0 },
        };
        Noop {
            reply: encode(&Reply::new(mv)),
        }
    }
}

impl RawBot for Noop {
    type Game = Breakthrough;
    fn act(&mut self, _: &[u8]) -> Vec<u8> {
        self.reply.clone()
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff",
    wire_bots: {},
    raw_bots: { "noop" => Noop: "answers a constant reply (benchmarks)" },
}
