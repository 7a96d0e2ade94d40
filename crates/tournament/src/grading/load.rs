//! The load a run met, for staff: how long the bots waited for a CPU they wanted while the
//! games were played, how busy the machine was, and which games were played again because the
//! machine cut an attempt short. Never graded: under the CPU clock a bot is owed its budget of
//! CPU however busy the machine (the engine's starvation backstop), and a game the machine
//! spoiled is played again.

use crate::entry::Entry;

/// A game's bots met a busy machine when they waited for a CPU this share of the time they
/// wanted one, or more.
pub const WAIT_WORTH_NAMING: f64 = 0.10;

/// The load over a run's games.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// Games whose bots' waits the kernel said.
    pub measured: usize,
    pub mean_wait: f64,
    /// The longest wait, and its game.
    pub worst: Option<(f64, String)>,
    /// Games at [`WAIT_WORTH_NAMING`] or more.
    pub waited: usize,
    /// The machine's mean CPU pressure over the games where the kernel said it: the share of
    /// their time in which some task (the run's own included) waited for a CPU.
    pub mean_pressure: Option<f64>,
    /// Games played again, each with why its first attempt was not finished.
    pub replayed: Vec<(String, String)>,
}

impl Load {
    /// The load over `games`; `None` when there is nothing to say (nothing measured, no game
    /// played again).
    pub fn of(games: &[&Entry]) -> Option<Load> {
        let waits: Vec<(f64, &str)> = games
            .iter()
            .filter_map(|g| Some((g.result.cpu_wait?, g.id.as_str())))
            .collect();
        let pressures: Vec<f64> = games.iter().filter_map(|g| g.result.cpu_pressure).collect();
        let replayed: Vec<(String, String)> = games
            .iter()
            .filter_map(|g| Some((g.id.clone(), g.result.replayed.first()?.clone())))
            .collect();
        if waits.is_empty() && pressures.is_empty() && replayed.is_empty() {
            return None;
        }
        let worst = waits
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|&(wait, id)| (wait, id.to_string()));
        Some(Load {
            measured: waits.len(),
            mean_wait: mean(waits.iter().map(|w| w.0)).unwrap_or(0.0),
            worst,
            waited: waits.iter().filter(|w| w.0 >= WAIT_WORTH_NAMING).count(),
            mean_pressure: mean(pressures.into_iter()),
            replayed,
        })
    }
}

fn mean(values: impl ExactSizeIterator<Item = f64>) -> Option<f64> {
    let count = values.len();
    (count > 0).then(|| values.sum::<f64>() / count as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, wait: Option<f64>, pressure: Option<f64>, replayed: &[&str]) -> Entry {
        let mut entry = Entry::drawn(id, Vec::new());
        entry.result.cpu_wait = wait;
        entry.result.cpu_pressure = pressure;
        entry.result.replayed = replayed.iter().map(|s| s.to_string()).collect();
        entry
    }

    #[test]
    fn a_run_without_measures_or_replays_has_nothing_to_say() {
        assert_eq!(Load::of(&[&game("g1", None, None, &[])]), None);
    }

    #[test]
    fn the_load_names_the_longest_wait_and_every_game_played_again() {
        let games = [
            game("g1", Some(0.02), Some(0.5), &[]),
            game(
                "g2",
                Some(0.40),
                None,
                &["the machine starved the bot", "again"],
            ),
            game("g3", Some(0.10), Some(0.3), &[]),
            game("g4", None, None, &[]),
        ];
        let games: Vec<&Entry> = games.iter().collect();
        let load = Load::of(&games).expect("something to say");
        assert_eq!(load.measured, 3);
        assert!((load.mean_wait - 0.52 / 3.0).abs() < 1e-9);
        assert_eq!(load.worst, Some((0.40, "g2".to_string())));
        assert_eq!(load.waited, 2);
        assert!((load.mean_pressure.expect("measured") - 0.4).abs() < 1e-9);
        assert_eq!(
            load.replayed,
            vec![("g2".to_string(), "the machine starved the bot".to_string())]
        );
    }

    #[test]
    fn pressure_alone_is_still_said() {
        let load = Load::of(&[&game("g1", None, Some(0.25), &[])]).expect("something to say");
        assert_eq!((load.measured, load.worst), (0, None));
        assert_eq!(load.mean_pressure, Some(0.25));
    }
}
