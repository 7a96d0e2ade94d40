//! How many shards a tournament has, and which one a task of a job array plays.
//!
//! The count is the tournament's, fixed once, never read off how one task was submitted: a
//! Slurm task resubmitted alone (`sbatch --array=3`) sees `SLURM_ARRAY_TASK_COUNT=1`, and
//! planning by that played the whole tournament into one shard's folder. So:
//! - a Slurm array task's id is its shard number (submit `--array=0-(N-1)`);
//! - the count is the config's `shards` if it has one; else the results folder (the parent of
//!   the task's `--out`) keeps it in [`LAYOUT_FILE`], written by the first task of the first
//!   array from that array's size, and read by every later task, resubmissions included;
//! - a task whose array does not fit that count is refused before it plans anything.

mod error;

use crate::shard::Shard;
use agon_engine::{OnPath, PathError};
use serde::{Deserialize, Serialize};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

pub use error::LayoutError;

/// Where a job array's first task writes the tournament's shard count, in the results folder.
pub const LAYOUT_FILE: &str = "agon-shards.json";

/// What the environment says about the task this process is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// A Slurm job array task: its id, and the size and first and last ids of the array it was
    /// submitted in (`SLURM_ARRAY_TASK_*`).
    Slurm {
        id: u32,
        count: u32,
        min: u32,
        max: u32,
    },
    /// A Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`.
    Indexed { index: u32 },
}

impl Task {
    /// The task the environment describes, if any.
    pub fn from_env() -> Result<Option<Task>, LayoutError> {
        Task::from_vars(|name| std::env::var(name).ok())
    }

    fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Option<Task>, LayoutError> {
        let number = |name: &str| -> Result<Option<u32>, LayoutError> {
            var(name)
                .map(|value| {
                    value
                        .trim()
                        .parse::<u32>()
                        .map_err(|_| LayoutError::NotANumber {
                            name: name.to_string(),
                            value: value.clone(),
                        })
                })
                .transpose()
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            // Slurm sets all four (older releases lack the count); an array without its
            // bounds is taken as 0 to its count.
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let count = number("SLURM_ARRAY_TASK_COUNT")?;
            let max = match (number("SLURM_ARRAY_TASK_MAX")?, count) {
                (Some(max), _) => max,
                (None, Some(count)) => (min + count).saturating_sub(1),
                (None, None) => id,
            };
            let count = count.unwrap_or_else(|| max.saturating_sub(min) + 1);
            return Ok(Some(Task::Slurm {
                id,
                count,
                min,
                max,
            }));
        }
        Ok(number("JOB_COMPLETION_INDEX")?.map(|index| Task::Indexed { index }))
    }
}

/// The shard count a results folder keeps ([`LAYOUT_FILE`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Layout {
    config_hash: String,
    shards: u32,
}

/// The folder a task's `--out` folder is in: where the tournament's shard folders and its
/// [`LAYOUT_FILE`] are.
pub fn results_folder(out: &Path) -> PathBuf {
    match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The shard `task` plays of the tournament `config_hash`, whose config fixes `configured`
/// shards (or none), with `results` the folder its shard folders go in.
pub fn shard_of_task(
    task: Task,
    configured: Option<u32>,
    results: &Path,
    config_hash: &str,
) -> Result<Shard, LayoutError> {
    match task {
        Task::Indexed { index } => {
            let count = configured.ok_or(LayoutError::NoShardsCount)?;
            Shard::new(index, count).map_err(|source| LayoutError::BadIndex {
                index,
                count,
                source,
            })
        }
        Task::Slurm {
            id,
            count,
            min,
            max,
        } => {
            let (shards, fixed_by) = match configured {
                Some(n) => (n, "the config's `shards`".to_string()),
                None => match read_layout(results, config_hash)? {
                    Some(n) => (n, results.join(LAYOUT_FILE).display().to_string()),
                    None => first_layout(results, config_hash, count, min, max)?,
                },
            };
            if max >= shards || id >= shards {
                return Err(LayoutError::ArrayDoesNotFit {
                    min,
                    max,
                    shards,
                    fixed_by,
                });
            }
            Ok(Shard {
                index: id,
                count: shards,
            })
        }
    }
}

/// The count the first array of a tournament fixes: its size, when it runs shards 0 to N-1.
fn first_layout(
    results: &Path,
    config_hash: &str,
    count: u32,
    min: u32,
    max: u32,
) -> Result<(u32, String), LayoutError> {
    if min != 0 || count != max + 1 {
        return Err(LayoutError::CountUnknown {
            min,
            max,
            count,
            layout: results.join(LAYOUT_FILE),
        });
    }
    let written = write_layout(results, config_hash, count)?;
    Ok((
        written,
        format!(
            "{} (this job array's size)",
            results.join(LAYOUT_FILE).display()
        ),
    ))
}

fn read_layout(results: &Path, config_hash: &str) -> Result<Option<u32>, LayoutError> {
    let path = results.join(LAYOUT_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(PathError::new(&path, e).into()),
    };
    let layout: Layout = serde_json::from_str(&text).map_err(|source| LayoutError::NotALayout {
        path: path.clone(),
        source,
    })?;
    if layout.config_hash != config_hash {
        return Err(LayoutError::OtherTournament {
            path,
            kept: layout.config_hash,
            this: config_hash.to_string(),
        });
    }
    if layout.shards == 0 {
        return Err(LayoutError::ZeroShards { path });
    }
    Ok(Some(layout.shards))
}

/// Writes the layout unless another task got there first (a hard link never replaces a file);
/// the count the folder keeps, which must be `shards`.
fn write_layout(results: &Path, config_hash: &str, shards: u32) -> Result<u32, LayoutError> {
    std::fs::create_dir_all(results).on_path(results)?;
    let path = results.join(LAYOUT_FILE);
    // Tasks on other nodes may share a process id: the name is this task's alone.
    let temporary = results.join(format!(
        ".{LAYOUT_FILE}.{}-{:016x}",
        std::process::id(),
        rand::random::<u64>()
    ));
    let layout = Layout {
        config_hash: config_hash.to_string(),
        shards,
    };
    let text = serde_json::to_string(&layout).expect("layouts serialize") + "\n";
    agon_engine::output_file::replace(&temporary, text.as_bytes()).on_path(&temporary)?;
    let linked = std::fs::hard_link(&temporary, &path);
    let _ = std::fs::remove_file(&temporary);
    match linked {
        Ok(()) => Ok(shards),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            let kept = read_layout(results, config_hash)?.unwrap_or(shards);
            if kept != shards {
                return Err(LayoutError::OtherArraySize { path, kept, shards });
            }
            Ok(kept)
        }
        Err(e) => Err(PathError::new(&path, e).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::output_file::fresh_scratch;

    fn slurm(id: u32, min: u32, max: u32, count: u32) -> Task {
        Task::Slurm {
            id,
            count,
            min,
            max,
        }
    }

    #[test]
    fn the_environment_names_slurm_tasks_and_indexed_jobs() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let task = Task::from_vars(vars(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "1"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ]));
        assert_eq!(task.unwrap(), Some(slurm(3, 3, 3, 1)));
        // Older Slurm releases set no count: the bounds give it.
        let task = Task::from_vars(vars(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ]));
        assert_eq!(task.unwrap(), Some(slurm(2, 0, 3, 4)));
        let task = Task::from_vars(vars(&[("JOB_COMPLETION_INDEX", "2")]));
        assert_eq!(task.unwrap(), Some(Task::Indexed { index: 2 }));
        assert_eq!(Task::from_vars(vars(&[])).unwrap(), None);
        let bad = Task::from_vars(vars(&[
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]));
        let bad = bad.unwrap_err();
        assert!(matches!(bad, LayoutError::NotANumber { .. }), "{bad:?}");
        assert!(bad.to_string().contains("SLURM_ARRAY_TASK_ID=`x`"));
    }

    #[test]
    fn the_first_array_fixes_the_count_and_a_resubmitted_task_keeps_its_shard() {
        let results = fresh_scratch("layout-first").unwrap();
        let shard = shard_of_task(slurm(1, 0, 3, 4), None, &results, "h").unwrap();
        assert_eq!(shard, Shard { index: 1, count: 4 });
        // Another task of the same array agrees.
        let shard = shard_of_task(slurm(2, 0, 3, 4), None, &results, "h").unwrap();
        assert_eq!(shard, Shard { index: 2, count: 4 });
        // Task 3 alone, resubmitted: Slurm says 1 task, the folder says 4 shards.
        let shard = shard_of_task(slurm(3, 3, 3, 1), None, &results, "h").unwrap();
        assert_eq!(shard, Shard { index: 3, count: 4 });
        // A larger array into the same folder is refused, naming the layout.
        let e = shard_of_task(slurm(5, 0, 7, 8), None, &results, "h")
            .unwrap_err()
            .to_string();
        assert!(e.contains("tasks 0-7") && e.contains("4 shards"), "{e}");
        assert!(e.contains(LAYOUT_FILE), "{e}");
        // Another tournament's folder is refused.
        let e = shard_of_task(slurm(0, 0, 3, 4), None, &results, "other")
            .unwrap_err()
            .to_string();
        assert!(e.contains("belongs to tournament h"), "{e}");
        std::fs::remove_dir_all(&results).unwrap();
    }

    #[test]
    fn a_lone_resubmission_into_a_fresh_folder_is_refused_unless_the_config_fixes_the_count() {
        let results = fresh_scratch("layout-fresh").unwrap();
        let e = shard_of_task(slurm(3, 3, 3, 1), None, &results, "h")
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot tell how many shards"), "{e}");
        assert!(!results.join(LAYOUT_FILE).exists());
        let shard = shard_of_task(slurm(3, 3, 3, 1), Some(4), &results, "h").unwrap();
        assert_eq!(shard, Shard { index: 3, count: 4 });
        let e = shard_of_task(slurm(4, 4, 4, 1), Some(4), &results, "h")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--array=0-3"), "{e}");
        let e = shard_of_task(Task::Indexed { index: 1 }, None, &results, "h")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no `shards` count"), "{e}");
        let shard = shard_of_task(Task::Indexed { index: 1 }, Some(2), &results, "h").unwrap();
        assert_eq!(shard, Shard { index: 1, count: 2 });
        let e = shard_of_task(Task::Indexed { index: 2 }, Some(2), &results, "h").unwrap_err();
        assert!(
            matches!(
                e,
                LayoutError::BadIndex {
                    index: 2,
                    count: 2,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "JOB_COMPLETION_INDEX=2 of `shards = 2`: shard `2/2`: expected I/N with 0 <= I < N, \
             e.g. 0/3"
        );
        std::fs::remove_dir_all(&results).unwrap();
    }
}
