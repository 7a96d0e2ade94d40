//! Round robin: every pairing of entrants meets; in games of more than two seats every
//! k-subset meets in each rotation of its seats; puzzles: every entrant on every instance.

use super::super::config::Settings;
use super::super::plan::GameSpec;
use super::{mix, pairs, Lineup, Progress, Schedule};
use agon_games::contract::RawParams;

pub struct RoundRobin;

impl Schedule for RoundRobin {
    fn games_at_most(&self, lineup: &Lineup) -> u128 {
        planned_games(
            lineup.seats,
            lineup.settings.games_per_pairing,
            lineup.names.len(),
        )
    }

    fn next(&self, lineup: &Lineup, progress: &Progress) -> Vec<GameSpec> {
        if !progress.laid_out.is_empty() {
            return Vec::new();
        }
        schedule(
            lineup.seats,
            lineup.config_hash,
            lineup.settings,
            lineup.names.len(),
        )
    }
}

/// How many games [`schedule`] lays out, counted without laying them out.
fn planned_games(seats: &[usize], games_per_pairing: u32, entrants: usize) -> u128 {
    let n = entrants as u128;
    seats
        .iter()
        .map(|&k| {
            let k = k as u128;
            let meetings = match k {
                1 => n,
                // Each pair once: its games alternate the seats (`schedule`).
                2 if n >= 2 => binomial(n, 2),
                // Every k-subset in each of its k rotations; fewer entrants than seats: cyclic.
                _ if n >= k => binomial(n, k).saturating_mul(k),
                _ => k,
            };
            meetings.saturating_mul(games_per_pairing as u128)
        })
        .fold(0u128, u128::saturating_add)
}

pub(super) fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k.min(n - k)).fold(1u128, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Every game; `seats[set]` is the number of seats under parameter set `set`.
fn schedule(
    seats: &[usize],
    config_hash: &str,
    settings: &Settings,
    entrants: usize,
) -> Vec<GameSpec> {
    if seats.iter().all(|&k| k == 1) {
        return puzzles(seats.len(), config_hash, settings, entrants);
    }
    let mut games = Vec::new();
    for (set, &k) in seats.iter().enumerate() {
        if k > 2 {
            let groups = if entrants >= k {
                subsets(entrants, k)
            } else {
                Vec::new()
            };
            games.extend(rotations(k, config_hash, settings, set, entrants, &groups));
            continue;
        }
        for a in 0..entrants {
            for b in a + 1..entrants {
                let prefix = format!("{config_hash}-s{set:02}-e{a:02}e{b:02}");
                let key = pairs::seed_key(set, a, b);
                games.extend(pairs::meeting(settings, &prefix, set, (a, b), key));
            }
        }
    }
    games
}

/// Puzzles: every entrant on every instance.
fn puzzles(
    param_sets: usize,
    config_hash: &str,
    settings: &Settings,
    entrants: usize,
) -> Vec<GameSpec> {
    let mut games = Vec::new();
    for set in 0..param_sets {
        for e in 0..entrants {
            for i in 0..settings.games_per_pairing {
                games.push(GameSpec {
                    id: format!("{config_hash}-s{set:02}-e{e:02}-g{i:03}"),
                    param_set: set,
                    seats: vec![e],
                    seed: mix(
                        settings.seed ^ mix((set as u64) << 48 ^ (e as u64) << 32 ^ i as u64),
                    ),
                    params: RawParams::new(),
                });
            }
        }
    }
    games
}

/// Games of `k > 2` seats (docs/architecture.md, "Tournaments": every k-subset, seats rotated).
/// - Given `groups` of `k` entrants (at least `k` entrants): each group meets once per
///   rotation `r` of its seats (its `j`-th member in seat `(j + r) mod k`), so each member sits
///   in every seat.
/// - No groups (fewer entrants than seats): rotation `r` (one per entrant) seats entrant
///   `(r + s) mod n` in seat `s`; an entrant fills several seats, each graded on its own, and
///   over the rotations every entrant sits in every seat equally often.
///
/// `games_per_pairing` games per rotation; game `i` of every rotation of a group has the same
/// seed, so the rotations differ only in who sits where.
pub(super) fn rotations(
    k: usize,
    config_hash: &str,
    settings: &Settings,
    set: usize,
    entrants: usize,
    groups: &[Vec<usize>],
) -> Vec<GameSpec> {
    let enough = !groups.is_empty();
    let cyclic = [Vec::new()];
    let groups = if enough { groups } else { &cyclic[..] };
    let turns = if enough { k } else { entrants };
    let mut games = Vec::new();
    for (c, group) in groups.iter().enumerate() {
        for r in 0..turns {
            let seats: Vec<usize> = if enough {
                (0..k).map(|s| group[(s + k - r) % k]).collect()
            } else {
                (0..k).map(|s| (r + s) % entrants).collect()
            };
            for i in 0..settings.games_per_pairing {
                games.push(GameSpec {
                    id: format!("{config_hash}-s{set:02}-c{c:04}-r{r:02}-g{i:03}"),
                    param_set: set,
                    seats: seats.clone(),
                    seed: mix(settings.seed
                        ^ mix((set as u64) << 48 ^ (c as u64) << 20 ^ 0xfeed << 12 ^ i as u64)),
                    params: RawParams::new(),
                });
            }
        }
    }
    games
}

/// Every `k`-subset of `0..n`, in lexicographic order.
pub(super) fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut pick: Vec<usize> = (0..k).collect();
    loop {
        out.push(pick.clone());
        // The rightmost position that can still move right.
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_field::settings;
    use super::*;

    #[test]
    fn the_schedule_swaps_seats_and_mirrors_seeds() {
        let settings = settings(4);
        let games = schedule(&[2, 2], "abcd", &settings, 3);
        assert_eq!(games.len(), 2 * 3 * 4);
        // The count the limit is checked against is the schedule's: two-seat pairs were counted
        // twice, which refused tournaments of half the limit and more.
        for (seats, entrants) in [(vec![2, 2], 3), (vec![2], 5), (vec![3], 4), (vec![1, 1], 2)] {
            assert_eq!(
                planned_games(&seats, settings.games_per_pairing, entrants),
                schedule(&seats, "abcd", &settings, entrants).len() as u128,
                "{seats:?} among {entrants}"
            );
        }
        assert_eq!(games[0].seats, [0, 1]);
        assert_eq!(games[1].seats, [1, 0]);
        assert_eq!(games[0].seed, games[1].seed, "both seatings share a seed");
        assert_ne!(games[0].seed, games[2].seed);
        assert_eq!(games[5].id, "abcd-s00-e00e02-g001");
        let mut ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), games.len(), "ids are unique");
        assert_eq!(schedule(&[2, 2], "abcd", &settings, 3), games, "stable");
        let puzzles = schedule(&[1, 1, 1], "abcd", &settings, 2);
        assert_eq!(puzzles.len(), 3 * 2 * 4);
        assert!(puzzles.iter().all(|g| g.seats.len() == 1));
        // The Flip course's boards: 42 + floor(r / 2) for game r = 1..20.
        let course = Settings {
            games_per_pairing: 20,
            game_seed: Some(("seed".into(), 42)),
            ..settings.clone()
        };
        let games = schedule(&[2], "abcd", &course, 2);
        let boards: Vec<&str> = games.iter().map(|g| g.params["seed"].as_str()).collect();
        assert_eq!(boards[0], "42");
        assert_eq!(boards[1], boards[2]);
        assert_eq!(boards[1], "43");
        assert_eq!(boards[19], "52");
        // Eight seats, three entrants: a rotation per entrant; every entrant sits in every
        // seat once per game index; rotations share their seeds.
        let many = schedule(&[8, 2], "abcd", &settings, 3);
        let eight: Vec<&GameSpec> = many.iter().filter(|g| g.param_set == 0).collect();
        assert_eq!(eight.len(), 3 * 4);
        assert_eq!(eight[0].seats, [0, 1, 2, 0, 1, 2, 0, 1]);
        assert_eq!(eight[4].seats, [1, 2, 0, 1, 2, 0, 1, 2]);
        assert_eq!(eight[0].seed, eight[4].seed);
        assert_ne!(eight[0].seed, eight[1].seed);
        for seat in 0..8 {
            let mut sitters: Vec<usize> = eight
                .iter()
                .filter(|g| g.id.ends_with("g000"))
                .map(|g| g.seats[seat])
                .collect();
            sitters.sort();
            assert_eq!(sitters, [0, 1, 2], "seat {seat}");
        }
        assert_eq!(
            many.len() - eight.len(),
            3 * 4,
            "the two-seat set pairs as usual"
        );
        // Three seats, five entrants: all ten 3-subsets, each in its three rotations.
        let subset_games = schedule(&[3], "abcd", &settings, 5);
        assert_eq!(subset_games.len(), 10 * 3 * 4);
        let mut groups: Vec<Vec<usize>> = subset_games
            .iter()
            .map(|g| {
                let mut members = g.seats.clone();
                members.sort();
                members
            })
            .collect();
        groups.dedup();
        assert_eq!(groups, subsets(5, 3));
        assert_eq!(subset_games[0].seats, [0, 1, 2]);
        assert_eq!(subset_games[4].seats, [2, 0, 1]);
        assert_eq!(
            subset_games[0].seed, subset_games[4].seed,
            "rotations share seeds"
        );
        for seat in 0..3 {
            let in_seat = subset_games
                .iter()
                .filter(|g| g.seats[seat] == 4 && g.id.ends_with("g000"))
                .count();
            assert_eq!(
                in_seat, 6,
                "entrant 4 is in 6 of the subsets, once per seat each"
            );
        }
    }
}
