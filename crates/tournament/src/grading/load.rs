//! The load a run met, for staff: how busy the machine was while the games were played, and
//! which games were played again because the machine cut an attempt short. Never graded: under
//! the CPU clock a bot is owed its budget of CPU however busy the machine (the engine's
//! starvation backstop), and a game the machine spoiled is played again.

use crate::entry::Entry;

/// A game met CPU pressure when some task waited for a CPU this share of its time or more.
pub const PRESSURE_WORTH_NAMING: f64 = 0.10;

/// The load over a run's games.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// Games whose CPU pressure the kernel said.
    pub measured: usize,
    pub mean_pressure: f64,
    /// The highest pressure, and its game.
    pub worst: Option<(f64, String)>,
    /// Games at [`PRESSURE_WORTH_NAMING`] or more.
    pub under_pressure: usize,
    /// Games played again, each with why its first attempt was not finished.
    pub replayed: Vec<(String, String)>,
}

impl Load {
    /// The load over `games`; `None` when there is nothing to say (no pressure measured, no
    /// game played again).
    pub fn of(games: &[&Entry]) -> Option<Load> {
        let pressures: Vec<(f64, &str)> = games
            .iter()
            .filter_map(|g| Some((g.result.cpu_pressure?, g.id.as_str())))
            .collect();
        let replayed: Vec<(String, String)> = games
            .iter()
            .filter_map(|g| Some((g.id.clone(), g.result.replayed.first()?.clone())))
            .collect();
        if pressures.is_empty() && replayed.is_empty() {
            return None;
        }
        let worst = pressures
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|&(p, id)| (p, id.to_string()));
        Some(Load {
            measured: pressures.len(),
            mean_pressure: pressures.iter().map(|p| p.0).sum::<f64>()
                / pressures.len().max(1) as f64,
            worst,
            under_pressure: pressures
                .iter()
                .filter(|p| p.0 >= PRESSURE_WORTH_NAMING)
                .count(),
            replayed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, pressure: Option<f64>, replayed: &[&str]) -> Entry {
        let mut entry = Entry::drawn(id, Vec::new());
        entry.result.cpu_pressure = pressure;
        entry.result.replayed = replayed.iter().map(|s| s.to_string()).collect();
        entry
    }

    #[test]
    fn a_run_without_measures_or_replays_has_nothing_to_say() {
        assert_eq!(Load::of(&[&game("g1", None, &[])]), None);
    }

    #[test]
    fn the_load_names_the_worst_game_and_every_game_played_again() {
        let games = [
            game("g1", Some(0.02), &[]),
            game("g2", Some(0.40), &["the machine starved the bot", "again"]),
            game("g3", Some(0.10), &[]),
            game("g4", None, &[]),
        ];
        let games: Vec<&Entry> = games.iter().collect();
        let load = Load::of(&games).expect("something to say");
        assert_eq!(load.measured, 3);
        assert!((load.mean_pressure - 0.52 / 3.0).abs() < 1e-9);
        assert_eq!(load.worst, Some((0.40, "g2".to_string())));
        assert_eq!(load.under_pressure, 2);
        assert_eq!(
            load.replayed,
            vec![("g2".to_string(), "the machine starved the bot".to_string())]
        );
    }
}
