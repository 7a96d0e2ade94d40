//! Writes the grading report of a tournament folder: `standings.json`, CSV tables,
//! `report.md` and a self-contained `report.html` (see `html.rs`).

use super::entrant_build::entrant_build;
use super::fault_groups::fault_groups;
use super::game_pages::Written;
use super::grade::{CrossTable, Report, Row};
use super::load::{Load, WAIT_WORTH_NAMING_MS};
use crate::entry::Entry;
use crate::format;
use crate::plan::Plan;
use agon_engine::{OnPath, PathError};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Writes every output into `dir`; returns the files written.
pub fn write_all(
    dir: &Path,
    plan: &Plan,
    report: &Report,
    games: &[&Entry],
    pages: &Written,
) -> Result<Vec<PathBuf>, PathError> {
    let mut files = vec![
        (
            "standings.json",
            serde_json::to_string_pretty(report).expect("reports serialize") + "\n",
        ),
        ("standings.csv", standings_csv(&report.standings, None)),
        ("per_param.csv", per_param_csv(report)),
        ("timing.csv", timing_csv(report)),
        ("report.md", markdown(plan, report, games)),
        ("report.html", super::html::page(plan, report, games, pages)),
    ];
    if let Some(c) = &report.crosstable {
        files.push(("crosstable.csv", crosstable_csv(c)));
    }
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        agon_engine::output_file::replace(&path, text.as_bytes()).on_path(&path)?;
        written.push(path);
    }
    Ok(written)
}

fn opt(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| v.to_string())
}

fn timing_csv(report: &Report) -> String {
    let mut out = String::from("param_set,name,games,solved_or_won,mean_ms,mean_nodes\n");
    for t in &report.timing {
        let _ = writeln!(
            out,
            "{},{},{},{},{:.3},{}",
            csv_field(&t.param_set),
            csv_field(&t.name),
            t.games,
            t.solved_or_won,
            t.mean_ms,
            t.mean_nodes.map_or(String::new(), |n| format!("{n:.1}"))
        );
    }
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn faults_text(row: &Row) -> String {
    row.faults
        .iter()
        .map(|(cause, n)| format!("{cause}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A row's first columns, as every standings table has them: rank, `name` (the row's, as the
/// table writes names), games, wins, draws, losses, points.
fn leading_cells(r: &Row, name: String) -> [String; 7] {
    let t = &r.tally;
    [
        r.rank.to_string(),
        name,
        t.games.to_string(),
        t.wins.to_string(),
        t.draws.to_string(),
        t.losses.to_string(),
        t.points.to_string(),
    ]
}

fn standings_csv(rows: &[Row], set: Option<&str>) -> String {
    let mut out = String::new();
    if set.is_none() {
        out.push_str("rank,name,games,wins,draws,losses,points,score_pct,win_pct,mean_game_score,rating,rating_low,rating_high,faults\n");
    }
    for r in rows {
        if let Some(set) = set {
            let _ = write!(out, "{},", csv_field(set));
        }
        let _ = writeln!(
            out,
            "{},{:.2},{:.2},{:.3},{},{},{},{}",
            leading_cells(r, csv_field(&r.name)).join(","),
            r.score_pct,
            r.win_pct,
            r.mean_game_score,
            opt(r.rating),
            opt(r.rating_low),
            opt(r.rating_high),
            csv_field(&faults_text(r))
        );
    }
    out
}

fn per_param_csv(report: &Report) -> String {
    let mut out = String::from("param_set,rank,name,games,wins,draws,losses,points,score_pct,win_pct,mean_game_score,rating,rating_low,rating_high,faults\n");
    for t in &report.per_param {
        out.push_str(&standings_csv(&t.standings, Some(&t.label)));
    }
    out
}

/// Row `i`'s points against column `j` over their games (`3/4`); none on the diagonal or where
/// the two never met.
fn crosstable_cell(c: &CrossTable, i: usize, j: usize) -> Option<String> {
    (i != j && c.games[i][j] != 0).then(|| format!("{}/{}", c.points[i][j], c.games[i][j]))
}

fn crosstable_csv(c: &CrossTable) -> String {
    let mut out = String::from("points of row vs column");
    for name in &c.names {
        let _ = write!(out, ",{}", csv_field(name));
    }
    out.push('\n');
    for (i, name) in c.names.iter().enumerate() {
        out.push_str(&csv_field(name));
        for j in 0..c.names.len() {
            out.push(',');
            if let Some(cell) = crosstable_cell(c, i, j) {
                out.push_str(&cell);
            }
        }
        out.push('\n');
    }
    out
}

/// The tournament's `name`, else its game and configuration hash.
fn markdown_title(plan: &Plan, report: &Report) -> String {
    let t = &report.tournament;
    match &plan.settings.name {
        Some(name) => format!("# {name}\n\n{} tournament {}.\n\n", t.game, t.config_hash),
        None => format!("# {} tournament {}\n\n", t.game, t.config_hash),
    }
}

fn markdown(plan: &Plan, report: &Report, games: &[&Entry]) -> String {
    let t = &report.tournament;
    let mut out = markdown_title(plan, report);
    let _ = write!(
        out,
        "{} of {} planned games played",
        t.games_played, t.games_planned
    );
    if t.games_missing > 0 {
        let _ = write!(out, " (**{} missing**)", t.games_missing);
    }
    let _ = writeln!(
        out,
        "; {} games per pairing, seed {}, {} host, {} ms per move on the {} budget clock.\n",
        plan.settings.games_per_pairing,
        plan.settings.seed,
        plan.settings.profile.host,
        plan.settings.profile.move_ms,
        t.clock
    );
    if let Some(line) = format::describe(plan, games.iter().copied()) {
        let _ = writeln!(out, "{line}\n");
    }
    out.push_str("## Standings\n\n");
    out.push_str(&markdown_table(&report.standings, Some(plan)));
    for table in report
        .per_param
        .iter()
        .filter(|_| report.per_param.len() > 1)
    {
        let _ = writeln!(out, "\n## {}\n", table.label);
        out.push_str(&markdown_table(&table.standings, None));
    }
    if let Some(c) = &report.crosstable {
        out.push_str(&markdown_crosstable(c));
    }
    if plan.games.iter().all(|g| g.seats.len() == 1) {
        out.push_str("\n## Times\n\n| puzzle | solver | games | solved | mean ms | mean nodes |\n|---|---|---|---|---|---|\n");
        for t in &report.timing {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {:.2} | {} |",
                t.param_set,
                t.name,
                t.games,
                t.solved_or_won,
                t.mean_ms,
                t.mean_nodes.map_or("-".to_string(), |n| format!("{n:.0}"))
            );
        }
    }
    if let Some(f) = &report.first_seat {
        let _ = writeln!(
            out,
            "\nFirst seat: {} wins, {} draws, {} losses in {} games ({:.1}% of the points).",
            f.wins, f.draws, f.losses, f.games, f.score_pct
        );
    }
    out.push_str(&markdown_faults(plan, games));
    out.push_str(&markdown_load(games));
    if !t.excluded.is_empty() {
        out.push_str("\n## Excluded entrants\n\n");
        for e in &t.excluded {
            let _ = writeln!(out, "- {} ({}): {}", e.name, e.file.display(), e.error);
        }
    }
    out
}

fn markdown_crosstable(c: &CrossTable) -> String {
    let mut out = String::from("\n## Cross-table (points of row against column)\n\n|   |");
    for name in &c.names {
        let _ = write!(out, " {name} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(c.names.len()));
    out.push('\n');
    for (i, name) in c.names.iter().enumerate() {
        let _ = write!(out, "| {name} |");
        for j in 0..c.names.len() {
            match crosstable_cell(c, i, j) {
                Some(cell) => {
                    let _ = write!(out, " {cell} |");
                }
                None => out.push_str(" |"),
            }
        }
        out.push('\n');
    }
    out
}

/// A standings table; with `builds`, each row ends with what its grade is of (the overall
/// table: the per-set tables repeat the same entrants).
fn markdown_table(rows: &[Row], builds: Option<&Plan>) -> String {
    // Many-seat games add the mean rank after the points.
    let ranked = rows.iter().any(|r| r.mean_rank.is_some());
    let mut out = String::from("| # | entrant | games | W | D | L | points |");
    if ranked {
        out.push_str(" mean rank |");
    }
    out.push_str(" score % | mean game score | rating (95% CI) | faults |");
    if builds.is_some() {
        out.push_str(" plugin file | version | sha256 |");
    }
    let columns = out.matches('|').count() - 1;
    let _ = writeln!(out, "\n|{}", "---|".repeat(columns));
    for r in rows {
        let rank = match (ranked, r.mean_rank) {
            (false, _) => String::new(),
            (true, Some(m)) => format!(" {m:.2} |"),
            (true, None) => " - |".into(),
        };
        let build = match builds.map(|plan| entrant_build(plan, &r.name)) {
            None => String::new(),
            Some(None) => " | | |".into(),
            Some(Some(b)) => format!(
                " {} | {} | {} |",
                table_cell(&b.file),
                table_cell(&b.version),
                b.sha256
            ),
        };
        let _ = writeln!(
            out,
            "| {} |{rank} {:.1} | {:.2} | {} | {} |{build}",
            leading_cells(r, table_cell(&r.name)).join(" | "),
            r.score_pct,
            r.mean_game_score,
            r.rating_text(),
            faults_text(r)
        );
    }
    out
}

/// Each entrant's faults by cause: how many, in how many games, and the first one's message.
fn markdown_faults(plan: &Plan, games: &[&Entry]) -> String {
    let groups = fault_groups(games);
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## Faults\n\n| entrant | cause | times | games | example |\n|---|---|---|---|---|\n",
    );
    for g in groups {
        let name = table_cell(
            plan.entrants
                .get(g.entrant)
                .map_or("?", |e| e.name.as_str()),
        );
        let example = table_cell(&g.example);
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {example} (game {}) |",
            g.cause,
            g.count,
            g.games.len(),
            g.example_game
        );
    }
    out
}

/// The load the run met (see [`Load`]), when there is something to say.
fn markdown_load(games: &[&Entry]) -> String {
    let Some(load) = Load::of(games) else {
        return String::new();
    };
    let mut out = String::from("\n## Load\n\n");
    if let Some((worst, game)) = &load.worst {
        let _ = writeln!(
            out,
            "Waiting for a CPU (the time the bots were ready to run and waited for a CPU, by the \
             kernel's scheduler statistics): {:.2} ms a move over the run, {:.2} ms a move at \
             most (game {game}); {} of {} games waited {} ms a move or more.",
            load.wait_per_move_ms, worst, load.waited, load.measured, WAIT_WORTH_NAMING_MS,
        );
    }
    if let Some(pressure) = load.mean_pressure {
        let _ = writeln!(
            out,
            "\nThe machine's CPU pressure while the games ran (the share of the time in which \
             some task waited for a CPU, the run's own included): mean {:.1}%.",
            pressure * 100.0,
        );
    }
    let _ = writeln!(
        out,
        "\nNot graded: each bot is owed its CPU budget however busy the machine."
    );
    if !load.replayed.is_empty() {
        let _ = writeln!(
            out,
            "\n{} game{} played again after the machine cut an attempt short (a bot starved \
             of a CPU, or its process stopped or killed from outside):\n",
            load.replayed.len(),
            if load.replayed.len() == 1 {
                " was"
            } else {
                "s were"
            },
        );
        for (game, why) in &load.replayed {
            let _ = writeln!(out, "- {game}: {}", table_cell(why));
        }
    }
    out
}

/// `text` as one cell of a Markdown table: a `|` of its own (a team may be called anything)
/// would start another column, a line break end the row.
fn table_cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::table_cell;

    #[test]
    fn a_cell_keeps_its_pipes_and_lines_inside() {
        assert_eq!(table_cell("a|b\nc"), "a\\|b c");
        assert_eq!(table_cell("Team Rocket"), "Team Rocket");
    }
}
