//! Whom a candidate build meets in its validation game. Validation must look like a real game
//! (a build that could tell would play clean there and cheat in every game after), so the
//! candidate meets real opponents, drawn at random: the current builds of the other slots (or
//! entrants), else its own slot's current build, else the house bot, the SDK's random player,
//! which every game of several seats has.

use agon_engine::BotSpec;
use agon_engine::InlineHost;
use agon_engine::Seat;
use agon_engine::SeatRecord;
use agon_games::registry::Registry;
use agon_sdk::export::BotEntry;
use rand::seq::IndexedRandom;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The builds games are played with now, by slot (a ladder's file name, a tournament's
/// entrant), kept up to date by whoever accepts builds.
#[derive(Debug, Default)]
pub struct Sparring {
    current: Mutex<BTreeMap<String, BotSpec>>,
}

/// One opponent's seat in a validation game.
#[derive(Debug, Clone, PartialEq)]
pub enum Opponent {
    Build { slot: String, spec: BotSpec },
    House,
}

impl Sparring {
    /// `slot` plays `spec` from now on (`None`: it plays no more).
    pub fn set(&self, slot: &str, spec: Option<BotSpec>) {
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        match spec {
            Some(spec) => current.insert(slot.to_string(), spec),
            None => current.remove(slot),
        };
    }

    /// `count` opponents for a candidate build of `slot`, drawn with replacement.
    pub fn pick(&self, slot: &str, count: usize) -> Vec<Opponent> {
        let current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        let others: Vec<Opponent> = current
            .iter()
            .filter(|(s, _)| s.as_str() != slot)
            .map(|(s, spec)| Opponent::Build {
                slot: s.clone(),
                spec: spec.clone(),
            })
            .collect();
        let pool = if others.is_empty() {
            let own = current.get(slot).map(|spec| Opponent::Build {
                slot: slot.to_string(),
                spec: spec.clone(),
            });
            own.into_iter().collect()
        } else {
            others
        };
        let mut rng = rand::rng();
        (0..count)
            .map(|_| pool.choose(&mut rng).cloned().unwrap_or(Opponent::House))
            .collect()
    }
}

/// The house bot's entry for `game`: the SDK's random player, for a game of several seats
/// (a puzzle has no opponent to stand in for).
fn house_entry(game: &str) -> Option<BotEntry> {
    const NAME: &str = "random";
    const ABOUT: &str = "the house's random player";
    let seats = Registry::builtin().get(game).ok()?.seats();
    (seats > 1)
        .then(|| agon_sdk::export::sparring_entry(game, NAME, ABOUT))
        .flatten()
}

/// The house bot at `seat` of a game of `game`, played on the engine's thread (it is the
/// engine's own code), or `None` for a game without one.
pub fn house_seat(game: &str, seat: usize) -> Option<Seat> {
    let entry = house_entry(game)?;
    Some(Seat {
        record: SeatRecord {
            seat,
            bot: entry.name.to_string(),
            bot_params: Default::default(),
            plugin: "agon-house".into(),
            plugin_version: env!("CARGO_PKG_VERSION").into(),
            team: "house".into(),
            file: String::new(),
            sha256: String::new(),
            sandbox: None,
            stderr: None,
            run_queue: None,
        },
        host: Box::new(InlineHost::new((entry.make)())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn spec(file: &str) -> BotSpec {
        BotSpec {
            file: PathBuf::from(file),
            bot: "b".into(),
            params: Default::default(),
        }
    }

    #[test]
    fn a_candidate_meets_other_slots_first_then_its_own_then_the_house() {
        let sparring = Sparring::default();
        assert_eq!(
            sparring.pick("a", 2),
            vec![Opponent::House, Opponent::House]
        );
        sparring.set("a", Some(spec("a1")));
        assert_eq!(
            sparring.pick("a", 1),
            vec![Opponent::Build {
                slot: "a".into(),
                spec: spec("a1")
            }]
        );
        sparring.set("b", Some(spec("b1")));
        for opponent in sparring.pick("a", 20) {
            assert!(matches!(opponent, Opponent::Build { slot, .. } if slot == "b"));
        }
        sparring.set("b", None);
        sparring.set("a", None);
        assert_eq!(sparring.pick("a", 1), vec![Opponent::House]);
    }

    #[test]
    fn every_game_of_several_seats_has_a_house_bot() {
        for game in ["breakthrough", "flip", "rectangles", "reversixt"] {
            let seat = house_seat(game, 1).expect(game);
            assert_eq!(seat.record.seat, 1);
        }
        assert!(house_seat("lightsout", 0).is_none());
    }
}
