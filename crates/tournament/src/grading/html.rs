//! `report.html`: the tournament report for people. One self-contained page (minijinja template
//! `report.html`, plotters charts): standings with a legend, charts, the per-instance table,
//! the cross-table coloured by score, each entrant's faults by cause (an example message, links
//! to its games), and every game linked to its replay viewer, its result naming entrants.

use super::entrant_build::entrant_build;
use super::fault_groups::fault_groups;
use super::game_pages::Written;
use super::grade::{CrossTable, FirstSeat, Report, Row};
use crate::entry::Entry;
use crate::plan::{Excluded, Plan};
use agon_games::registry::Registry;
use agon_play::charts::{grouped_bars, intervals};
use agon_play::view::game_files;
use agon_play::view::named_result;
use minijinja::{context, Value};
use serde::Serialize;
use std::collections::BTreeMap;

/// How many games a fault line links before it says "and N more".
const LINKED_GAMES: usize = 12;

#[derive(Serialize)]
struct StandingsRow {
    index: usize,
    rank: usize,
    name: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    points: f64,
    score_pct: String,
    score_style: String,
    mean_game_score: String,
    mean_rank: String,
    rating: String,
    ms_per_move: String,
    faults: Vec<(String, u32)>,
    /// What the row's grade is of; empty for a name the plan does not have.
    file: String,
    version: String,
    sha256: String,
}

#[derive(Serialize)]
struct Cell {
    text: String,
    style: String,
}

#[derive(Serialize)]
struct InstanceRow {
    label: String,
    full: String,
    cells: Vec<Cell>,
    games: u32,
    draws: u32,
}

#[derive(Serialize)]
struct FaultLine {
    anchor: Option<String>,
    entrant: String,
    cause: String,
    /// The first fault's message: the others of its kind differ in details only.
    example: String,
    /// Faults of this kind.
    count: usize,
    /// (game id, link to its page if it has one)
    games: Vec<(String, Option<String>)>,
    more: usize,
}

#[derive(Serialize)]
struct GameLine {
    id: String,
    href: Option<String>,
    set: String,
    players: String,
    result: String,
    moves: usize,
    faults: String,
}

/// A background from red (share 0) through yellow to green (share 1).
fn share_style(share: f64) -> String {
    if !share.is_finite() {
        return String::new();
    }
    let hue = 120.0 * share.clamp(0.0, 1.0);
    format!("background: hsl({hue:.0}, 70%, 86%)")
}

/// A parameter set's label with file paths cut to their file names: a sweep over maps reads
/// `map=comp2019_04_8p.map`, not the whole path.
pub fn short_label(label: &str) -> String {
    label
        .split(' ')
        .map(|item| match item.split_once('=') {
            Some((key, value)) if value.contains('/') => {
                let name = value.rsplit('/').next().unwrap_or(value);
                format!("{key}={name}")
            }
            _ => item.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each entrant's mean time per move over all its games, from the per-set timing.
fn ms_per_move(report: &Report) -> BTreeMap<String, f64> {
    let mut sums: BTreeMap<String, (f64, u32)> = BTreeMap::new();
    for t in &report.timing {
        let s = sums.entry(t.name.clone()).or_default();
        s.0 += t.mean_ms * t.games as f64;
        s.1 += t.games;
    }
    sums.into_iter()
        .map(|(name, (total, games))| (name, total / games.max(1) as f64))
        .collect()
}

fn standings_rows(plan: &Plan, rows: &[Row], ms: &BTreeMap<String, f64>) -> Vec<StandingsRow> {
    rows.iter()
        .map(|r| (r, entrant_build(plan, &r.name).unwrap_or_default()))
        .map(|(r, build)| StandingsRow {
            index: plan
                .entrants
                .iter()
                .position(|e| e.name == r.name)
                .unwrap_or(0),
            rank: r.rank,
            name: r.name.clone(),
            games: r.tally.games,
            wins: r.tally.wins,
            draws: r.tally.draws,
            losses: r.tally.losses,
            points: r.tally.points,
            score_pct: format!("{:.1}", r.score_pct),
            score_style: share_style(r.score_pct / 100.0),
            mean_game_score: format!("{:.2}", r.mean_game_score),
            mean_rank: r.mean_rank.map_or("-".into(), |m| format!("{m:.2}")),
            rating: r.rating_text(),
            ms_per_move: ms.get(&r.name).map_or("-".into(), |m| format!("{m:.2}")),
            faults: r.faults.iter().map(|(c, n)| (c.clone(), *n)).collect(),
            file: build.file,
            version: build.version,
            sha256: build.sha256,
        })
        .collect()
}

/// What the parameter sets are, in words, for the per-instance table.
fn instance_kind(plan: &Plan) -> (&'static str, &'static str) {
    let swept: Vec<&String> = plan
        .param_sets
        .first()
        .map(|p| p.swept.keys().collect())
        .unwrap_or_default();
    match swept.as_slice() {
        [key] if key.as_str() == "puzzle" => (
            "puzzle",
            "Each solver's result per puzzle: solved games out of games played.",
        ),
        [key] if key.as_str() == "map" => (
            "map",
            "Each entrant's score % on each map (points per game).",
        ),
        _ => (
            "parameter set",
            "Each entrant's score % under each parameter set (points per game).",
        ),
    }
}

fn fault_lines(plan: &Plan, entries: &[&Entry], pages: &Written) -> Vec<FaultLine> {
    let mut lines = Vec::new();
    let mut last_entrant = None;
    for group in fault_groups(entries) {
        let entrant = group.entrant;
        let anchor = (last_entrant != Some(entrant)).then(|| format!("faults-{entrant}"));
        last_entrant = Some(entrant);
        let linked = group
            .games
            .iter()
            .take(LINKED_GAMES)
            .map(|id| (id.clone(), pages.has(id).then(|| game_files::link(id))))
            .collect();
        lines.push(FaultLine {
            anchor,
            entrant: plan
                .entrants
                .get(entrant)
                .map_or("?".into(), |e| e.name.clone()),
            cause: group.cause,
            example: group.example,
            count: group.count,
            more: group.games.len().saturating_sub(LINKED_GAMES),
            games: linked,
        });
    }
    lines
}

/// Games the report lists one by one; past them it says how to open any game by its id, so
/// that a million-game tournament's report stays a page a browser opens.
const LISTED_GAMES: usize = 5_000;

fn game_lines(plan: &Plan, entries: &[&Entry], pages: &Written) -> Vec<GameLine> {
    entries
        .iter()
        .take(LISTED_GAMES)
        .map(|e| GameLine {
            id: e.id.clone(),
            href: pages.has(&e.id).then(|| game_files::link(&e.id)),
            set: plan
                .param_sets
                .get(e.param_set)
                .map_or("?".into(), |p| short_label(&p.label)),
            players: e.names.join(" vs "),
            result: named_result(&e.result.reason, e.result.winner, &e.result.ranks, &e.names),
            moves: e.result.moves,
            faults: e
                .result
                .faults
                .iter()
                .map(|f| {
                    let who = e.names.get(f.seat).map_or("?", String::as_str);
                    format!("{who}: {}", f.cause)
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect()
}

fn charts(report: &Report, labels: &[String], ms: &BTreeMap<String, f64>) -> Vec<String> {
    let names: Vec<String> = report.standings.iter().map(|r| r.name.clone()).collect();
    let per_set = |value: &dyn Fn(&Row) -> f64| -> Vec<(String, Vec<f64>)> {
        names
            .iter()
            .map(|name| {
                let values = report
                    .per_param
                    .iter()
                    .map(|p| {
                        p.standings
                            .iter()
                            .find(|r| &r.name == name)
                            .map_or(f64::NAN, value)
                    })
                    .collect();
                (name.clone(), values)
            })
            .collect()
    };
    let mut out = vec![
        grouped_bars(
            "Score % per parameter set",
            "score %",
            labels,
            &per_set(&|r| r.score_pct),
        ),
        grouped_bars(
            "Mean game score per parameter set",
            "game score",
            labels,
            &per_set(&|r| r.mean_game_score),
        ),
    ];
    let rated: Vec<(String, f64, f64, f64)> = report
        .standings
        .iter()
        .filter_map(|r| Some((r.name.clone(), r.rating?, r.rating_low?, r.rating_high?)))
        .collect();
    if !rated.is_empty() {
        out.push(intervals(
            "Rating with its 95% interval",
            "rating (Elo scale)",
            &rated,
        ));
    }
    let times: Vec<(String, Vec<f64>)> = names
        .iter()
        .map(|n| (n.clone(), vec![ms.get(n).copied().unwrap_or(f64::NAN)]))
        .collect();
    out.push(grouped_bars(
        "Mean time per move",
        "ms / move",
        &["all games".to_string()],
        &times,
    ));
    if report.per_param.len() > 1 && report.crosstable.is_some() {
        let draws = vec![(
            "draws".to_string(),
            report.per_param.iter().map(|p| p.draws as f64).collect(),
        )];
        out.push(grouped_bars(
            "Draws per parameter set",
            "draws",
            labels,
            &draws,
        ));
    }
    out
}

/// The page, from the graded report, the games it counts and their viewer pages.
pub fn page(plan: &Plan, report: &Report, entries: &[&Entry], pages: &Written) -> String {
    let t = &report.tournament;
    let ms = ms_per_move(report);
    let labels: Vec<String> = report
        .per_param
        .iter()
        .map(|p| short_label(&p.label))
        .collect();
    let (kind, kind_meaning) = instance_kind(plan);
    let charts: Vec<Value> = charts(report, &labels, &ms)
        .into_iter()
        .map(Value::from_safe_string)
        .collect();
    let games = game_lines(plan, entries, pages);
    render(context! {
        title => plan.settings.name.clone().unwrap_or_else(|| format!("{} tournament", t.game)),
        game => t.game,
        config_hash => t.config_hash,
        written => humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        engine => env!("CARGO_PKG_VERSION"),
        summary => summary(plan, report),
        missing => t.games_missing,
        standings => standings_rows(plan, &report.standings, &ms),
        ranked => report.standings.iter().any(|r| r.mean_rank.is_some()),
        rated => report.standings.iter().any(|r| r.rating.is_some()),
        game_score_meaning => Registry::builtin()
            .get(&t.game)
            .map_or("The game's own score", |g| g.game_score_meaning()),
        clock => t.clock,
        clock_meaning => clock_meaning(&t.clock),
        charts,
        instances => instance_table(report, &labels, kind == "puzzle"),
        instance_kind => kind,
        instance_meaning => kind_meaning,
        crosstable => report.crosstable.as_ref().map(crosstable),
        first_seat => report.first_seat.as_ref().map(first_seat),
        faults => fault_lines(plan, entries, pages),
        games_count => entries.len(),
        games_unlisted => entries.len().saturating_sub(games.len()),
        games_open => games.len() <= 60,
        games,
        pages_failed => pages_failed(pages),
        excluded => excluded(&t.excluded),
    })
}

fn render(page: Value) -> String {
    agon_play::pages::render("report.html", page).expect("the report renders")
}

/// What was played, and under which settings, in one sentence.
fn summary(plan: &Plan, report: &Report) -> String {
    let t = &report.tournament;
    let settings = &plan.settings;
    format!(
        "{} of {} planned games played; {} games per pairing, seed {}, {} host, {} ms per move \
         on the {} budget clock{}.",
        t.games_played,
        t.games_planned,
        settings.games_per_pairing,
        settings.seed,
        settings.profile.host,
        settings.profile.move_ms,
        t.clock,
        settings
            .profile
            .on_fault
            .map(|p| format!(", faults: {p}"))
            .unwrap_or_default()
    )
}

fn clock_meaning(clock: &str) -> &'static str {
    match clock {
        "cpu" => "each bot's own CPU time, fair on a loaded machine",
        _ => "elapsed time",
    }
}

/// Each entrant's result on each parameter set, when there are several; a puzzle's as solved
/// games out of games played.
fn instance_table(report: &Report, labels: &[String], puzzles: bool) -> Option<Value> {
    (report.per_param.len() > 1).then(|| {
        let names: Vec<String> = report.standings.iter().map(|r| r.name.clone()).collect();
        let rows: Vec<InstanceRow> = report
            .per_param
            .iter()
            .zip(labels)
            .map(|(p, label)| InstanceRow {
                label: label.clone(),
                full: p.label.clone(),
                games: p.games,
                draws: p.draws,
                cells: names
                    .iter()
                    .map(|name| match p.standings.iter().find(|r| &r.name == name) {
                        Some(r) if r.tally.games > 0 => Cell {
                            text: if puzzles {
                                format!("{}/{}", r.tally.wins, r.tally.games)
                            } else {
                                format!("{:.1}", r.score_pct)
                            },
                            style: share_style(r.score_pct / 100.0),
                        },
                        _ => Cell {
                            text: "-".into(),
                            style: String::new(),
                        },
                    })
                    .collect(),
            })
            .collect();
        context! { entrants => names, rows }
    })
}

fn crosstable(c: &CrossTable) -> Value {
    let rows: Vec<Value> = c
        .names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let cells: Vec<Cell> = (0..c.names.len())
                .map(|j| match c.games[i][j] {
                    0 => Cell {
                        text: String::new(),
                        style: String::new(),
                    },
                    games => Cell {
                        text: format!("{}/{}", c.points[i][j], games),
                        style: share_style(c.points[i][j] / games as f64),
                    },
                })
                .collect();
            context! { name, cells }
        })
        .collect();
    context! { names => c.names, rows }
}

fn first_seat(f: &FirstSeat) -> String {
    format!(
        "{} wins, {} draws, {} losses in {} games: {:.1}% of the points (50% = no advantage).",
        f.wins, f.draws, f.losses, f.games, f.score_pct
    )
}

/// Why games have no viewer page, told by the first of them.
fn pages_failed(pages: &Written) -> Option<String> {
    (!pages.failed.is_empty()).then(|| {
        let (id, why) = &pages.failed[0];
        format!(
            "{} games have no viewer page (the first, {id}: {why}).",
            pages.failed.len()
        )
    })
}

/// (name, file, error) of each excluded entrant.
fn excluded(excluded: &[Excluded]) -> Vec<(String, String, String)> {
    excluded
        .iter()
        .map(|e| {
            (
                e.name.clone(),
                e.file.display().to_string(),
                e.error.clone(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_sweeps_read_as_file_names() {
        assert_eq!(
            short_label("map=course/maps/comp2019_04_8p.map depth=2"),
            "map=comp2019_04_8p.map depth=2"
        );
        assert_eq!(short_label("workers_to_base=2"), "workers_to_base=2");
    }

    #[test]
    fn shares_run_from_red_to_green() {
        assert_eq!(share_style(0.0), "background: hsl(0, 70%, 86%)");
        assert_eq!(share_style(1.0), "background: hsl(120, 70%, 86%)");
        assert_eq!(share_style(f64::NAN), "");
    }
}
