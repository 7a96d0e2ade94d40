//! Seeds derived from a match seed: every random choice in a match comes from it and from the
//! run's secret.
//!
//! A bot sees its own seat seed. If seat seeds were a public function of the match seed (as
//! they were: an invertible mix), a bot could invert its own, recover the match seed, compute
//! its opponent's seat seed and replay a seeded opponent's random stream move for move. So every
//! derived seed is a keyed pseudo-random function (keyed BLAKE3) of the match seed under a
//! 256-bit secret drawn from the operating system for each run (a tournament's plan, a ladder,
//! an `agon match`). Without the secret, one seat seed tells nothing about the match seed or
//! any other seat's seed. The secret is kept in the plan, the journal and the record, never in
//! anything a bot receives, so that every game can be reproduced exactly.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The key of a run's seed derivation: 32 bytes from the operating system's generator, written
/// as 64 lowercase hexadecimal digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SeedSecret([u8; 32]);

/// Domain separation: a seat seed and an engine draw never share an input.
const SEAT_SEED: &[u8] = b"agon seat seed v2";
const ENGINE_DRAW: &[u8] = b"agon engine draw v2";

impl SeedSecret {
    /// A fresh secret from the operating system.
    pub fn draw() -> std::io::Result<SeedSecret> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| {
            std::io::Error::other(format!(
                "cannot draw a seed secret from the operating system: {e}"
            ))
        })?;
        Ok(SeedSecret(key))
    }

    pub const fn from_bytes(key: [u8; 32]) -> SeedSecret {
        SeedSecret(key)
    }

    /// The secret's value in `u64`s derived under it, for `label` and `words`.
    fn derive(&self, label: &[u8], words: &[u64]) -> u64 {
        let mut hasher = blake3::Hasher::new_keyed(&self.0);
        hasher.update(label);
        for word in words {
            hasher.update(&word.to_le_bytes());
        }
        let out = hasher.finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&out.as_bytes()[..8]);
        u64::from_le_bytes(first)
    }
}

/// The seed handed to the bot in `seat` for a match seeded with `match_seed`.
pub fn seat_seed(secret: &SeedSecret, match_seed: u64, seat: usize) -> u64 {
    secret.derive(SEAT_SEED, &[match_seed, seat as u64])
}

/// The engine's own draw for ply `ply` (the random-legal fault policy), independent of the bots'
/// seeds.
pub fn engine_draw(secret: &SeedSecret, match_seed: u64, ply: u32) -> u64 {
    secret.derive(ENGINE_DRAW, &[match_seed, ply as u64])
}

impl fmt::Display for SeedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for SeedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SeedSecret({self})")
    }
}

/// Why a text is not a seed secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a seed secret is 64 hexadecimal digits (as records and `agon match` print it), got {0}")]
pub struct BadSecret(String);

impl std::str::FromStr for SeedSecret {
    type Err = BadSecret;

    fn from_str(text: &str) -> Result<SeedSecret, BadSecret> {
        let bad = || {
            let shown: String = text.chars().take(80).collect();
            BadSecret(format!("{shown:?} ({} characters)", text.chars().count()))
        };
        if text.len() != 64 || !text.is_ascii() {
            return Err(bad());
        }
        let mut key = [0u8; 32];
        for (byte, pair) in key.iter_mut().zip(text.as_bytes().chunks(2)) {
            let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
            *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(SeedSecret(key))
    }
}

impl TryFrom<String> for SeedSecret {
    type Error = BadSecret;

    fn try_from(text: String) -> Result<SeedSecret, BadSecret> {
        text.parse()
    }
}

impl From<SeedSecret> for String {
    fn from(secret: SeedSecret) -> String {
        secret.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: SeedSecret = SeedSecret::from_bytes([7; 32]);

    #[test]
    fn seats_get_distinct_stable_seeds() {
        assert_ne!(seat_seed(&KEY, 1, 0), seat_seed(&KEY, 1, 1));
        assert_ne!(seat_seed(&KEY, 1, 0), seat_seed(&KEY, 2, 0));
        assert_eq!(seat_seed(&KEY, 42, 1), seat_seed(&KEY, 42, 1));
        assert_ne!(seat_seed(&KEY, 42, 1), engine_draw(&KEY, 42, 1));
    }

    #[test]
    fn another_secret_gives_other_seeds_for_the_same_match_seed() {
        let other = SeedSecret::from_bytes([8; 32]);
        for seat in 0..4 {
            assert_ne!(seat_seed(&KEY, 5, seat), seat_seed(&other, 5, seat));
        }
        let drawn = (SeedSecret::draw().unwrap(), SeedSecret::draw().unwrap());
        assert_ne!(drawn.0, drawn.1, "two draws from the OS");
    }

    #[test]
    fn a_secret_round_trips_through_its_text_and_json() {
        let text = KEY.to_string();
        assert_eq!(text.len(), 64);
        assert_eq!(text.parse::<SeedSecret>(), Ok(KEY));
        let json = serde_json::to_string(&KEY).unwrap();
        assert_eq!(serde_json::from_str::<SeedSecret>(&json).unwrap(), KEY);
        for bad in ["", "07", &"g".repeat(64), &"é".repeat(32), &"0".repeat(65)] {
            assert!(bad.parse::<SeedSecret>().is_err(), "{bad:?}");
        }
        assert!(serde_json::from_str::<SeedSecret>("\"00\"").is_err());
    }

    /// The derivation the engine used before keys: SplitMix64's output function, invertible.
    fn unkeyed_seat_seed(match_seed: u64, seat: usize) -> u64 {
        let mut z = match_seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(seat as u64 + 1));
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The inversion a bot made of the unkeyed derivation: from its own seat seed back to the
    /// match seed (undoing each xorshift and multiplication), then forward to another seat's.
    fn inverted_match_seed(own: u64, seat: usize) -> u64 {
        fn unshift(y: u64, s: u32) -> u64 {
            let mut x = y;
            for _ in 0..(64 / s + 1) {
                x = y ^ (x >> s);
            }
            x
        }
        fn inverse(a: u64) -> u64 {
            // Newton's iteration for the inverse of an odd number modulo 2^64.
            let mut x = a;
            for _ in 0..6 {
                x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
            }
            x
        }
        let mut z = unshift(own, 31);
        z = unshift(z.wrapping_mul(inverse(0x94d0_49bb_1331_11eb)), 27);
        z = unshift(z.wrapping_mul(inverse(0xbf58_476d_1ce4_e5b9)), 30);
        z.wrapping_sub(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(seat as u64 + 1))
    }

    #[test]
    fn the_old_inversion_recovers_nothing_from_a_keyed_seat_seed() {
        let secret = SeedSecret::draw().unwrap();
        for match_seed in [0u64, 1, 42, 0xdead_beef, u64::MAX] {
            for seat in 0..2 {
                // The attack works on the unkeyed derivation ...
                let old = unkeyed_seat_seed(match_seed, seat);
                assert_eq!(inverted_match_seed(old, seat), match_seed);
                // ... and recovers neither the match seed nor the other seat's seed now.
                let own = seat_seed(&secret, match_seed, seat);
                let guess = inverted_match_seed(own, seat);
                assert_ne!(guess, match_seed);
                let other = 1 - seat;
                assert_ne!(
                    seat_seed(&secret, guess, other),
                    seat_seed(&secret, match_seed, other)
                );
                assert_ne!(
                    unkeyed_seat_seed(guess, other),
                    seat_seed(&secret, match_seed, other)
                );
            }
        }
    }
}
