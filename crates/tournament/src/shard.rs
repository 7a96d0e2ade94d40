//! Shards: one tournament played as several runs (a Slurm job array, a Kubernetes Indexed
//! Job), each on its share of the plan, and merged afterwards.
//!
//! **Which games a shard plays.** The plan's games are dealt out in rounds of `N`: round `r`
//! (games `rN` to `rN + N - 1`) gives one game to each shard, starting one shard later than the
//! round before, so game `i` goes to shard `(i + i / N) mod N`. The plan lists a pairing's games
//! together, seats alternating, and parameter sets in turn, so every shard gets the same mix of
//! pairings, seats and parameter sets: no shard gets most of the slowest pairing's games
//! (contiguous blocks did, and the array waited for that task), nor, with an even `N`, only one
//! seating of them (plain `i mod N` did, which made two shards of four twice as slow).
//!
//! **How many shards there are** is fixed once for the tournament, never by how one task was
//! submitted (`layout.rs`).

use super::plan::GameSpec;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`, counted from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// A shard written as something other than `I/N` with `0 <= I < N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("shard `{text}`: expected I/N with 0 <= I < N, e.g. 0/3")]
pub struct ShardError {
    text: String,
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError {
            text: s.to_string(),
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).map_err(|_| bad())
    }
}

/// A plan keeps its shard as `"I/N"`; one that does not parse makes the plan unreadable, as any
/// other malformed field does.
impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Shard `index` of `count`, if there is such a shard.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if index < count {
            Ok(Shard { index, count })
        } else {
            Err(ShardError {
                text: format!("{index}/{count}"),
            })
        }
    }

    /// The shard of `count` that game `position` of the whole plan (counted from 0) goes to.
    pub fn dealt(position: usize, count: u32) -> Shard {
        let n = count as usize;
        Shard {
            index: ((position % n + position / n) % n) as u32,
            count,
        }
    }

    /// Whether game `position` of the whole plan is this shard's.
    pub fn holds(&self, position: usize) -> bool {
        Shard::dealt(position, self.count) == *self
    }

    /// This shard's games of the whole plan `games`, in plan order.
    pub fn select(&self, games: &[GameSpec]) -> Vec<GameSpec> {
        games
            .iter()
            .enumerate()
            .filter(|(i, _)| self.holds(*i))
            .map(|(_, g)| g.clone())
            .collect()
    }

    /// Where the `k`-th game of this shard's share stands in the whole plan: its game of round
    /// `k`.
    pub fn position(&self, k: usize) -> usize {
        let n = self.count as usize;
        k * n + (self.index as usize + n - k % n) % n
    }

    /// How many of a plan of `total` games are this shard's: one per whole round, and one of
    /// the last, partial round if the deal reaches it.
    pub fn share_of(&self, total: usize) -> usize {
        let n = self.count as usize;
        let (rounds, rest) = (total / n, total % n);
        let last = (self.index as usize + n - rounds % n) % n;
        rounds + usize::from(last < rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(n: u64) -> Vec<GameSpec> {
        (0..n)
            .map(|i| GameSpec {
                id: format!("g{i}"),
                param_set: 0,
                seats: vec![0, 1],
                seed: i,
                params: Default::default(),
            })
            .collect()
    }

    #[test]
    fn shards_deal_the_games_out_one_by_one_and_cover_each_once() {
        let plan = games(10);
        let mut seen = vec![0; 10];
        for index in 0..3 {
            let shard = Shard { index, count: 3 };
            let share = shard.select(&plan);
            assert_eq!(share.len(), shard.share_of(plan.len()));
            for (k, game) in share.iter().enumerate() {
                let at = shard.position(k);
                assert_eq!(plan[at], *game);
                seen[at] += 1;
            }
        }
        assert_eq!(seen, vec![1; 10]);
        // With an even count, each shard gets both seatings (even and odd games) of a pairing.
        for index in 0..4 {
            let share = Shard { index, count: 4 }.select(&games(16));
            let odd = share.iter().filter(|g| g.seed % 2 == 1).count();
            assert_eq!(odd, 2, "shard {index}");
        }
        let first = Shard { index: 0, count: 3 }.select(&plan);
        let ids: Vec<&str> = first.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, ["g0", "g5", "g7", "g9"]);
        assert_eq!(Shard { index: 2, count: 3 }.share_of(10), 3);
        assert_eq!(Shard { index: 3, count: 4 }.share_of(2), 0);
    }

    #[test]
    fn shards_parse_as_index_of_count() {
        assert_eq!("1/3".parse::<Shard>(), Ok(Shard { index: 1, count: 3 }));
        for bad in ["3/3", "1", "a/b", "0/0"] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("shard `{bad}`: expected I/N with 0 <= I < N, e.g. 0/3")
            );
        }
        assert_eq!(Shard::new(2, 3), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(
            Shard::new(3, 3).unwrap_err(),
            "3/3".parse::<Shard>().unwrap_err()
        );
    }
}
