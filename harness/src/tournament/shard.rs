//! Shards: contiguous blocks of a plan's games, for running one tournament on several machines
//! (a Slurm job array, a Kubernetes Indexed Job) and merging the results.

use super::plan::GameSpec;
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`, counted from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard `{s}`: expected I/N with 0 <= I < N, e.g. 0/3");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The shard the environment selects: Slurm's `SLURM_ARRAY_TASK_ID` (minus
    /// `SLURM_ARRAY_TASK_MIN`) of `SLURM_ARRAY_TASK_COUNT`, or Kubernetes'
    /// `JOB_COMPLETION_INDEX` of `configured` shards.
    pub fn from_env(configured: Option<u32>) -> Result<Option<Shard>, String> {
        let var = |name: &str| std::env::var(name).ok();
        let number = |name: &str, value: String| {
            value
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("{name}=`{value}` is not a number"))
        };
        if let (Some(id), Some(count)) = (var("SLURM_ARRAY_TASK_ID"), var("SLURM_ARRAY_TASK_COUNT"))
        {
            let min = var("SLURM_ARRAY_TASK_MIN")
                .map(|m| number("SLURM_ARRAY_TASK_MIN", m))
                .transpose()?
                .unwrap_or(0);
            let id = number("SLURM_ARRAY_TASK_ID", id)?;
            let shard = format!(
                "{}/{}",
                id.saturating_sub(min),
                number("SLURM_ARRAY_TASK_COUNT", count)?
            );
            return shard.parse().map(Some);
        }
        if let Some(index) = var("JOB_COMPLETION_INDEX") {
            let count = configured.ok_or(
                "JOB_COMPLETION_INDEX is set, but the config has no `shards` count".to_string(),
            )?;
            let shard = format!("{}/{count}", number("JOB_COMPLETION_INDEX", index)?);
            return shard.parse().map(Some);
        }
        Ok(None)
    }

    /// This shard's contiguous block: the games split as evenly as possible, in plan order.
    pub fn select<'a>(&self, games: &'a [GameSpec]) -> &'a [GameSpec] {
        let n = games.len();
        let (i, count) = (self.index as usize, self.count as usize);
        &games[n * i / count..n * (i + 1) / count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once() {
        let games: Vec<GameSpec> = (0..10)
            .map(|i| GameSpec {
                id: format!("g{i}"),
                param_set: 0,
                seats: vec![0, 1],
                seed: i,
                params: Default::default(),
            })
            .collect();
        let mut seen = Vec::new();
        for index in 0..3 {
            let block = Shard { index, count: 3 }.select(&games);
            assert!(block.len() == 3 || block.len() == 4);
            seen.extend(block.iter().map(|g| g.id.clone()));
        }
        assert_eq!(seen, games.iter().map(|g| g.id.clone()).collect::<Vec<_>>());
        assert_eq!("1/3".parse::<Shard>(), Ok(Shard { index: 1, count: 3 }));
        for bad in ["3/3", "1", "a/b", "0/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
