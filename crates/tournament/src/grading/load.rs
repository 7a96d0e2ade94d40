//! The load a run met, for staff: how long the bots waited for a CPU they wanted while the
//! games were played, how busy the machine was, and which games were played again because the
//! machine cut an attempt short. Never graded: under the CPU clock a bot is owed its budget of
//! CPU however busy the machine (the engine's starvation backstop), and a game the machine
//! spoiled is played again.

use crate::entry::Entry;

/// A game's bots met a busy machine when they waited this long (ms) for a CPU per move, or
/// longer: a hundredth of a short budget. Every call's wake-up waits a few microseconds on any
/// machine, which is not worth naming.
pub const WAIT_WORTH_NAMING_MS: f64 = 1.0;

/// The load over a run's games.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// Games whose bots' waits the kernel said.
    pub measured: usize,
    /// The bots' wait for a CPU per move (ms), over the measured games' moves.
    pub wait_per_move_ms: f64,
    /// The longest wait per move of a game, and its game.
    pub worst: Option<(f64, String)>,
    /// Games at [`WAIT_WORTH_NAMING_MS`] a move or more.
    pub waited: usize,
    /// The machine's mean CPU pressure over the games where the kernel said it: the share of
    /// their time in which some task (the run's own included) waited for a CPU.
    pub mean_pressure: Option<f64>,
    /// Games played again, each with why its first attempt was not finished.
    pub replayed: Vec<(String, String)>,
}

/// One measured game's wait for a CPU.
struct GameWait<'a> {
    waited_ms: f64,
    /// Its moves; a game of none counts as one.
    moves: f64,
    id: &'a str,
}

impl GameWait<'_> {
    fn per_move(&self) -> f64 {
        self.waited_ms / self.moves
    }
}

impl Load {
    /// The load over `games`; `None` when there is nothing to say (nothing measured, no game
    /// played again).
    pub fn of(games: &[&Entry]) -> Option<Load> {
        let waits: Vec<GameWait> = games
            .iter()
            .filter_map(|g| {
                Some(GameWait {
                    waited_ms: g.result.cpu_wait_ms?,
                    moves: g.result.moves.max(1) as f64,
                    id: &g.id,
                })
            })
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
            .max_by(|a, b| a.per_move().total_cmp(&b.per_move()))
            .map(|w| (w.per_move(), w.id.to_string()));
        let waited_ms: f64 = waits.iter().map(|w| w.waited_ms).sum();
        let moves: f64 = waits.iter().map(|w| w.moves).sum();
        Some(Load {
            measured: waits.len(),
            wait_per_move_ms: if moves > 0.0 { waited_ms / moves } else { 0.0 },
            worst,
            waited: waits
                .iter()
                .filter(|w| w.per_move() >= WAIT_WORTH_NAMING_MS)
                .count(),
            mean_pressure: (!pressures.is_empty())
                .then(|| pressures.iter().sum::<f64>() / pressures.len() as f64),
            replayed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of 10 moves whose bots waited `wait` ms for a CPU.
    fn game(id: &str, wait: Option<f64>, pressure: Option<f64>, replayed: &[&str]) -> Entry {
        let mut entry = Entry::drawn(id, Vec::new());
        entry.result.moves = 10;
        entry.result.cpu_wait_ms = wait;
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
            game("g1", Some(0.2), Some(0.5), &[]),
            game(
                "g2",
                Some(400.0),
                None,
                &["the machine starved the bot", "again"],
            ),
            game("g3", Some(10.0), Some(0.3), &[]),
            game("g4", None, None, &[]),
        ];
        let games: Vec<&Entry> = games.iter().collect();
        let load = Load::of(&games).expect("something to say");
        assert_eq!(load.measured, 3);
        assert!(
            (load.wait_per_move_ms - 410.2 / 30.0).abs() < 1e-9,
            "{load:?}"
        );
        assert_eq!(load.worst, Some((40.0, "g2".to_string())));
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
