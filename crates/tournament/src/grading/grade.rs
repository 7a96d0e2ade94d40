//! Standings from a plan and its journal: points, wins / draws / losses, mean game score,
//! ratings, faults by cause; per parameter set and overall; a cross-table; the first seat's
//! advantage. Only what the games decided goes in: no times, so deterministic bots give
//! identical standings whatever the concurrency or interruptions.

use crate::entry::Entry;
use crate::plan::{Excluded, Plan};
use agon_play::standings::bradley_terry::bradley_terry;
use agon_play::standings::Tally;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub tournament: Summary,
    /// Overall, best first.
    pub standings: Vec<Row>,
    pub per_param: Vec<ParamTable>,
    /// Two-seat games only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crosstable: Option<CrossTable>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_seat: Option<FirstSeat>,
    /// Mean time and search nodes per entrant and parameter set (puzzle runs grade on them).
    /// Times vary from run to run, so they stay out of `standings.json` (see `timing.csv`).
    #[serde(skip)]
    pub timing: Vec<Timing>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timing {
    pub param_set: String,
    pub name: String,
    pub games: u32,
    pub solved_or_won: u32,
    pub mean_ms: f64,
    /// Mean search nodes (Flow Free: attempted assignments), where reported.
    pub mean_nodes: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub game: String,
    pub config_hash: String,
    pub games_planned: usize,
    pub games_played: usize,
    /// Which clock judged the budgets: `cpu` (the bot's own CPU time) or `wall`.
    pub clock: String,
    /// Planned games with no result (an unfinished run, or missing shards).
    pub games_missing: usize,
    pub excluded: Vec<Excluded>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub rank: usize,
    pub name: String,
    /// Its games, wins, draws, losses and points (points to three decimals).
    #[serde(flatten)]
    pub tally: Tally,
    /// Points per game, in percent.
    pub score_pct: f64,
    pub win_pct: f64,
    /// The game's own score per game (Breakthrough: workers captured).
    pub mean_game_score: f64,
    /// Games of more than two seats: the mean rank (1 best, ties sharing the better rank).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_rank: Option<f64>,
    /// Bradley-Terry rating (Elo scale) with its 95% confidence interval (two-seat games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_low: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_high: Option<f64>,
    /// Faults by cause.
    pub faults: BTreeMap<String, u32>,
}

impl Row {
    /// `1820 (1447 to 2193)`, or `-` without a rating (puzzles).
    pub fn rating_text(&self) -> String {
        match (self.rating, self.rating_low, self.rating_high) {
            (Some(e), Some(lo), Some(hi)) => format!("{e:.0} ({lo:.0} to {hi:.0})"),
            _ => "-".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamTable {
    pub label: String,
    pub swept: BTreeMap<String, String>,
    pub draws: u32,
    pub games: u32,
    pub standings: Vec<Row>,
}

/// `points[i][j]`: what row entrant `i` scored against column entrant `j`, over `games[i][j]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrossTable {
    pub names: Vec<String>,
    pub points: Vec<Vec<f64>>,
    pub games: Vec<Vec<u32>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FirstSeat {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The first seat's points per game, in percent (50 = no advantage).
    pub score_pct: f64,
}

/// The journal's entries that belong to the plan, each game once (the first entry of an id).
pub fn unique_entries<'a>(plan: &Plan, entries: &'a [Entry]) -> Vec<&'a Entry> {
    let planned: HashSet<&str> = plan.games.iter().map(|g| g.id.as_str()).collect();
    let mut seen = HashSet::new();
    let mut unique: Vec<&Entry> = entries
        .iter()
        .filter(|e| planned.contains(e.id.as_str()) && seen.insert(e.id.as_str()))
        .collect();
    unique.sort_by(|a, b| a.id.cmp(&b.id));
    unique
}

/// Which entrants the report lists: all of them, but in a shard's report only those that played
/// in the shard (the others' empty rows would only repeat the whole plan's field).
fn listed(plan: &Plan, games: &[&Entry]) -> Vec<bool> {
    let mut listed = vec![plan.shard.is_none(); plan.entrants.len()];
    for e in games {
        for &entrant in &e.seats {
            if let Some(l) = listed.get_mut(entrant) {
                *l = true;
            }
        }
    }
    listed
}

/// The cross-table of the `listed` entrants.
fn listed_crosstable(
    plan: &Plan,
    listed: &[bool],
    points: &[Vec<f64>],
    played: &[Vec<u32>],
) -> CrossTable {
    let keep: Vec<usize> = (0..listed.len()).filter(|&i| listed[i]).collect();
    CrossTable {
        names: keep
            .iter()
            .map(|&i| plan.entrants[i].name.clone())
            .collect(),
        points: keep
            .iter()
            .map(|&i| keep.iter().map(|&j| points[i][j]).collect())
            .collect(),
        games: keep
            .iter()
            .map(|&i| keep.iter().map(|&j| played[i][j]).collect())
            .collect(),
    }
}

pub fn grade(plan: &Plan, entries: &[Entry]) -> Report {
    let games = unique_entries(plan, entries);
    let n = plan.entrants.len();
    let listed = listed(plan, &games);
    let mut points = vec![vec![0.0; n]; n];
    let mut played = vec![vec![0u32; n]; n];
    let mut first = Tally::default();
    for e in games.iter().filter(|e| e.seats.len() == 2) {
        if let (Some(&a), Some(&b)) = (e.seats.first(), e.seats.get(1)) {
            let (pa, pb) = (e.result.points(0), e.result.points(1));
            points[a][b] += pa;
            points[b][a] += pb;
            played[a][b] += 1;
            played[b][a] += 1;
            first.add(&e.result, 0);
        }
    }
    let per_param = plan
        .param_sets
        .iter()
        .enumerate()
        .map(|(set, p)| {
            let subset: Vec<&Entry> = games
                .iter()
                .copied()
                .filter(|e| e.param_set == set)
                .collect();
            ParamTable {
                label: p.label.clone(),
                swept: p.swept.clone(),
                draws: subset
                    .iter()
                    .filter(|e| e.result.scores.iter().all(|&s| s == 0.5))
                    .count() as u32,
                games: subset.len() as u32,
                standings: rows(plan, &subset, &listed),
            }
        })
        .collect();
    let duel = plan.games.first().is_some_and(|g| g.seats.len() == 2);
    let timing = timing(plan, &games);
    Report {
        tournament: Summary {
            game: plan.settings.game.clone(),
            config_hash: plan.config_hash.clone(),
            games_planned: plan.games_planned(),
            games_played: games.len(),
            clock: match plan.settings.profile.clock {
                agon_engine::Clock::Cpu => "cpu".into(),
                agon_engine::Clock::Wall => "wall".into(),
            },
            games_missing: plan.games_planned() - games.len(),
            excluded: plan.excluded.clone(),
        },
        standings: rows(plan, &games, &listed),
        per_param,
        crosstable: duel.then(|| listed_crosstable(plan, &listed, &points, &played)),
        first_seat: duel.then_some(FirstSeat {
            games: first.games,
            wins: first.wins,
            draws: first.draws,
            losses: first.losses,
            score_pct: first.score_pct(),
        }),
        timing,
    }
}

fn timing(plan: &Plan, games: &[&Entry]) -> Vec<Timing> {
    let mut out = Vec::new();
    for (set, p) in plan.param_sets.iter().enumerate() {
        for (entrant, e) in plan.entrants.iter().enumerate() {
            let mut t = Timing {
                param_set: p.label.clone(),
                name: e.name.clone(),
                games: 0,
                solved_or_won: 0,
                mean_ms: 0.0,
                mean_nodes: None,
            };
            let mut nodes = (0u64, 0u32);
            for g in games.iter().filter(|g| g.param_set == set) {
                for (seat, &who) in g.seats.iter().enumerate() {
                    if who != entrant {
                        continue;
                    }
                    t.games += 1;
                    if g.result.winner == Some(seat) {
                        t.solved_or_won += 1;
                    }
                    t.mean_ms += g.ms_per_move.get(seat).copied().unwrap_or(0.0);
                    if let Some(Some(n)) = g.nodes.get(seat) {
                        nodes = (nodes.0.saturating_add(*n), nodes.1 + 1);
                    }
                }
            }
            if t.games > 0 {
                t.mean_ms /= t.games as f64;
                t.mean_nodes = (nodes.1 > 0).then(|| nodes.0 as f64 / nodes.1 as f64);
                out.push(t);
            }
        }
    }
    out
}

/// The head-to-head results a game contains, as (seat, seat, points, points): the two seats of
/// a duel; every pair of seats of a ranked game (the better rank wins the pair, equal ranks
/// draw), which lets Bradley-Terry rate many-seat games too.
fn pairwise(e: &Entry) -> Vec<(usize, usize, f64, f64)> {
    if e.result.ranks.len() == e.seats.len() && e.seats.len() > 2 {
        let mut pairs = Vec::new();
        for a in 0..e.result.ranks.len() {
            for b in a + 1..e.result.ranks.len() {
                let pa = match e.result.ranks[a].cmp(&e.result.ranks[b]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                pairs.push((a, b, pa, 1.0 - pa));
            }
        }
        return pairs;
    }
    if e.seats.len() == 2 {
        return vec![(0, 1, e.result.points(0), e.result.points(1))];
    }
    Vec::new()
}

/// The standings of the `listed` entrants over `games`, best first: by points, then rating,
/// then name.
fn rows(plan: &Plan, games: &[&Entry], listed: &[bool]) -> Vec<Row> {
    let n = plan.entrants.len();
    let mut wins_against = vec![vec![0.0; n]; n];
    let mut games_against = vec![vec![0.0; n]; n];
    let mut rows: Vec<Row> = plan
        .entrants
        .iter()
        .map(|e| Row {
            rank: 0,
            name: e.name.clone(),
            tally: Tally::default(),
            score_pct: 0.0,
            win_pct: 0.0,
            mean_game_score: 0.0,
            mean_rank: None,
            rating: None,
            rating_low: None,
            rating_high: None,
            faults: BTreeMap::new(),
        })
        .collect();
    let mut game_score = vec![0.0; n];
    let mut rank_sum = vec![(0.0, 0u32); n];
    for e in games {
        for (seat, &entrant) in e.seats.iter().enumerate() {
            let row = &mut rows[entrant];
            row.tally.add(&e.result, seat);
            if let Some(&rank) = e.result.ranks.get(seat) {
                rank_sum[entrant].0 += rank as f64;
                rank_sum[entrant].1 += 1;
            }
            game_score[entrant] += e.result.game_scores.get(seat).copied().unwrap_or(0.0);
        }
        for f in &e.result.faults {
            if let Some(&entrant) = e.seats.get(f.seat) {
                *rows[entrant].faults.entry(f.cause.to_string()).or_default() += 1;
            }
        }
        for (sa, sb, pa, pb) in pairwise(e) {
            let (a, b) = (e.seats[sa], e.seats[sb]);
            // A game nobody scored in (stalled) says nothing about relative strength, nor
            // does an entrant meeting itself in a many-seat game.
            if pa + pb > 0.0 && a != b {
                wins_against[a][b] += pa / (pa + pb);
                wins_against[b][a] += pb / (pa + pb);
                games_against[a][b] += 1.0;
                games_against[b][a] += 1.0;
            }
        }
    }
    for (row, &(sum, count)) in rows.iter_mut().zip(&rank_sum) {
        row.mean_rank = (count > 0).then(|| (sum / count as f64 * 100.0).round() / 100.0);
    }
    let duel = games.iter().any(|e| e.seats.len() >= 2);
    let ratings = bradley_terry(&wins_against, &games_against);
    for (i, row) in rows.iter_mut().enumerate() {
        row.score_pct = row.tally.score_pct();
        // Many-seat games score sevenths and the like: three decimals keep reports readable.
        row.tally.points = (row.tally.points * 1000.0).round() / 1000.0;
        row.win_pct = row.tally.win_pct();
        row.mean_game_score = if row.tally.games == 0 {
            0.0
        } else {
            game_score[i] / row.tally.games as f64
        };
        // An entrant without games here (a parameter set it did not play, a run cut short) has
        // no rating, not the prior's.
        if duel && row.tally.games > 0 {
            row.rating = Some(round(ratings[i].elo));
            row.rating_low = Some(round(ratings[i].low));
            row.rating_high = Some(round(ratings[i].high));
        }
    }
    let mut rows: Vec<Row> = rows
        .into_iter()
        .zip(listed)
        .filter_map(|(row, &listed)| listed.then_some(row))
        .collect();
    rows.sort_by(|a, b| {
        b.tally
            .points
            .total_cmp(&a.tally.points)
            .then(b.rating.unwrap_or(0.0).total_cmp(&a.rating.unwrap_or(0.0)))
            .then(a.name.cmp(&b.name))
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    rows
}

/// One decimal: ratings are estimates, and rounding keeps reports free of float noise.
fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
