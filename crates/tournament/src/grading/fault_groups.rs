//! The faults of a tournament by entrant and kind: how often each entrant faulted for each
//! cause, in which games, with one message as the example. Messages of one kind differ in
//! details (a timeout's milliseconds), so a line per message would repeat one fault many times.

use crate::entry::Entry;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub struct FaultGroup {
    /// The entrant's index in the plan.
    pub entrant: usize,
    pub cause: String,
    /// Faults of this kind, however many a game had.
    pub count: usize,
    /// The first fault's message, and the game it happened in.
    pub example: String,
    pub example_game: String,
    /// The games with such a fault, each once, in the order of `entries`.
    pub games: Vec<String>,
}

/// The groups of `entries`' faults, by entrant (in plan order) and then cause.
pub fn fault_groups(entries: &[&Entry]) -> Vec<FaultGroup> {
    let mut groups: BTreeMap<(usize, String), FaultGroup> = BTreeMap::new();
    for e in entries {
        for f in &e.result.faults {
            let Some(&entrant) = e.seats.get(f.seat) else {
                continue;
            };
            let cause = f.cause.to_string();
            let group = groups
                .entry((entrant, cause.clone()))
                .or_insert_with(|| FaultGroup {
                    entrant,
                    cause,
                    count: 0,
                    example: f.detail.clone(),
                    example_game: e.id.clone(),
                    games: Vec::new(),
                });
            group.count += 1;
            if group.games.last() != Some(&e.id) {
                group.games.push(e.id.clone());
            }
        }
    }
    groups.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::FaultCause;
    use agon_play::journal::JournalFault;

    fn game(id: &str, faults: &[(usize, FaultCause, &str)]) -> Entry {
        let faults = faults
            .iter()
            .map(|&(seat, cause, detail)| JournalFault {
                seat,
                cause,
                detail: detail.into(),
            })
            .collect();
        let mut entry = Entry::drawn(id, faults);
        entry.seats = vec![1, 0];
        entry.names = vec!["b".into(), "a".into()];
        entry
    }

    #[test]
    fn faults_of_one_kind_make_one_group_with_their_count_and_first_message() {
        let timeout = FaultCause::Timeout;
        let games = [
            game(
                "g1",
                &[(0, timeout, "took 1201 ms"), (0, timeout, "took 1305 ms")],
            ),
            game(
                "g2",
                &[(0, timeout, "took 1100 ms"), (1, FaultCause::Illegal, "a1")],
            ),
        ];
        let groups = fault_groups(&games.iter().collect::<Vec<_>>());
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(
            (groups[0].entrant, groups[0].cause.as_str()),
            (0, "illegal")
        );
        let timeouts = &groups[1];
        assert_eq!((timeouts.entrant, timeouts.cause.as_str()), (1, "timeout"));
        assert_eq!(timeouts.count, 3);
        assert_eq!(timeouts.games, ["g1", "g2"]);
        assert_eq!(
            (timeouts.example.as_str(), timeouts.example_game.as_str()),
            ("took 1201 ms", "g1")
        );
    }
}
