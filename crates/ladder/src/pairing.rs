//! Who plays next. Games go to the slots that have played (or are playing) the fewest, ties
//! broken by the ladder's seeded random numbers, and inside a group every slot takes the seat
//! it has held least often, so over time each slot plays every seat about equally. Counts are
//! per slot, not per build: a new build does not jump the queue.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

pub struct Pairing {
    games: HashMap<String, u64>,
    /// (slot, seat) -> games.
    seats: HashMap<(String, usize), u64>,
    rng: ChaCha8Rng,
}

impl Pairing {
    pub fn new(seed: u64) -> Pairing {
        Pairing {
            games: HashMap::new(),
            seats: HashMap::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Counts a game (finished in an earlier run, or just started) for its slots.
    pub fn count(&mut self, group: &[&str]) {
        for (seat, slot) in group.iter().enumerate() {
            *self.games.entry(slot.to_string()).or_default() += 1;
            *self.seats.entry((slot.to_string(), seat)).or_default() += 1;
        }
    }

    /// Takes back a game that was started but not played (its bots' processes were killed from
    /// outside): it counts for no one.
    pub fn uncount(&mut self, group: &[&str]) {
        for (seat, slot) in group.iter().enumerate() {
            if let Some(n) = self.games.get_mut(*slot) {
                *n = n.saturating_sub(1);
            }
            if let Some(n) = self.seats.get_mut(&(slot.to_string(), seat)) {
                *n = n.saturating_sub(1);
            }
        }
    }

    /// The next group of `seats` slots among `active`, in seat order; `None` when there are too
    /// few slots. The group is counted.
    pub fn next_group(&mut self, active: &[&str], seats: usize) -> Option<Vec<String>> {
        if seats == 0 || active.len() < seats {
            return None;
        }
        let mut candidates: Vec<&str> = active.to_vec();
        candidates.shuffle(&mut self.rng);
        candidates.sort_by_key(|s| self.games.get(*s).copied().unwrap_or(0));
        let mut group: Vec<&str> = candidates[..seats].to_vec();
        let mut order = Vec::with_capacity(seats);
        for seat in 0..seats {
            let (at, _) = group
                .iter()
                .enumerate()
                .min_by_key(|(_, s)| self.seats.get(&(s.to_string(), seat)).copied().unwrap_or(0))
                .expect("one slot per seat left");
            order.push(group.remove(at));
        }
        self.count(&order);
        Some(order.into_iter().map(str::to_string).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(counts: impl Iterator<Item = u64>) -> u64 {
        let counts: Vec<u64> = counts.collect();
        counts.iter().max().unwrap() - counts.iter().min().unwrap()
    }

    #[test]
    fn game_and_seat_counts_stay_balanced() {
        for (slots, seats) in [(2, 2), (5, 2), (7, 3), (8, 8), (4, 4)] {
            let names: Vec<String> = (0..slots).map(|i| format!("s{i}")).collect();
            let active: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut pairing = Pairing::new(7);
            for _ in 0..300 {
                let group = pairing.next_group(&active, seats).unwrap();
                let mut distinct = group.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), seats, "a slot twice in {group:?}");
            }
            let games = spread(names.iter().map(|n| pairing.games[n]));
            assert!(
                games <= 1,
                "{slots} slots, {seats} seats: game counts spread {games}"
            );
            for seat in 0..seats {
                let by_seat = spread(
                    names
                        .iter()
                        .map(|n| pairing.seats.get(&(n.clone(), seat)).copied().unwrap_or(0)),
                );
                assert!(
                    by_seat <= 3,
                    "{slots} slots, {seats} seats: seat {seat} counts spread {by_seat}"
                );
            }
        }
    }

    #[test]
    fn too_few_slots_make_no_game_and_a_newcomer_catches_up() {
        let mut pairing = Pairing::new(1);
        assert_eq!(pairing.next_group(&["a"], 2), None);
        for _ in 0..10 {
            pairing.next_group(&["a", "b"], 2).unwrap();
        }
        let group = pairing.next_group(&["a", "b", "c"], 2).unwrap();
        assert!(group.contains(&"c".to_string()), "{group:?}");
        pairing.uncount(&["a", "c"]);
        assert_eq!(pairing.games["c"], 0);
    }
}
