//! The replay viewer, which replays a match ply by ply, in two forms: one self-contained HTML
//! page per match record (`agon view`: no network, no external script or font), and, for a
//! tournament, one viewer page for all its games that loads a game's data file on demand
//! (`games/viewer.html#game=ID` loads `games/ID.js` with a script element, which works from
//! `file://` where `fetch` does not): the viewer's code is written once, not once per game.
//!
//! | file          | concept                                                              |
//! |---------------|----------------------------------------------------------------------|
//! | `error.rs`    | why a page or data file was not made                                 |
//! | `frames.rs`   | the record replayed with the rules: positions, moves, faults as data  |
//! | `patch.rs`    | each position as a patch against the one before                      |
//! | `game_files.rs` | where a folder's viewer page and games' data files live, and writing them |
//! | `named_result.rs` | a result in words that name the players, not their seats or colours |
//! | `pages/viewer.html` | the page (a template of `crate::pages`), `viewer.css` its style |
//! | `viewer.js`   | controls, side panel, patches; each game's `view.js` draws its board  |

mod error;
mod frames;
pub mod game_files;
mod named_result;
mod patch;

pub use error::ViewError;
pub use named_result::named_result;

use agon_engine::{MatchRecord, OnPath};
use agon_games::registry::Registry;
use minijinja::{context, Value};

const VIEWER_JS: &str = include_str!("viewer.js");
const VIEWER_CSS: &str = include_str!("viewer.css");

/// What the viewer shows of one record: the header, the facts, the score chart and the
/// replayed positions (packed).
#[derive(serde::Serialize)]
pub struct Shown {
    pub title: String,
    pub subtitle: String,
    pub game: String,
    pub facts: Vec<(String, String)>,
    /// The score chart's SVG.
    pub chart: String,
    pub data: String,
}

/// What the viewer shows of `record`, titled `title` (default: the players and the game), its
/// result naming each seat's team.
pub fn shown(
    record: &MatchRecord,
    registry: &Registry,
    title: Option<&str>,
) -> Result<Shown, ViewError> {
    shown_named(record, registry, title, &team_names(record))
}

/// [`shown`], its result naming the seats' players `names` (a tournament's entrants).
pub fn shown_named(
    record: &MatchRecord,
    registry: &Registry,
    title: Option<&str>,
    names: &[String],
) -> Result<Shown, ViewError> {
    registry.get(&record.game)?;
    let replayed = frames::page_data(record, registry)?;
    let (chart_svg, chart_area) = crate::charts::scores_over_time(&replayed.scores, "game score");
    let mut data = replayed.data;
    // The record words its result by seat, and the replay checked it as worded; people read
    // it by player.
    let outcome = &record.outcome;
    let named = named_result(&outcome.reason, outcome.winner, &outcome.ranks, names);
    data["outcome"] = named.clone().into();
    data["chart_area"] = chart_area;
    data["colours"] = crate::charts::COLOURS
        .iter()
        .map(|c| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2))
        .collect();
    let players: Vec<String> = record
        .seats
        .iter()
        .map(|s| format!("{}:{}", s.team, s.bot))
        .collect();
    let title = title.map_or_else(
        || format!("{}: {}", record.game, players.join(" vs ")),
        str::to_string,
    );
    Ok(Shown {
        title,
        subtitle: subtitle(record, &named),
        game: record.game.clone(),
        facts: facts(record),
        chart: chart_svg,
        data: packed(&data),
    })
}

/// Each seat's team, or team and bot where two seats have one team.
fn team_names(record: &MatchRecord) -> Vec<String> {
    let teams: Vec<String> = record.seats.iter().map(|s| s.team.clone()).collect();
    let shared = (1..teams.len()).any(|i| teams[..i].contains(&teams[i]));
    if !shared {
        return teams;
    }
    record
        .seats
        .iter()
        .map(|s| format!("{}:{}", s.team, s.bot))
        .collect()
}

fn subtitle(record: &MatchRecord, result: &str) -> String {
    let params: Vec<String> = record
        .params
        .iter()
        // A map given inline would fill the header: long values are named by their size.
        .map(|(k, v)| match v.chars().count() {
            n if n > 40 => format!("{k}=({n} characters)"),
            _ => format!("{k}={v}"),
        })
        .collect();
    format!(
        "{} plies · seed {} · {} · {}",
        record.moves.len(),
        record.seed,
        result,
        if params.is_empty() {
            "default parameters".to_string()
        } else {
            params.join(" ")
        }
    )
}

fn facts(record: &MatchRecord) -> Vec<(String, String)> {
    vec![
        (
            "game".into(),
            format!("{} (protocol v{})", record.game, record.protocol_version),
        ),
        ("engine".into(), format!("agon {}", record.engine)),
        ("host".into(), format!("{:?}", record.host).to_lowercase()),
        (
            "budgets".into(),
            format!(
                "start {} · move {} ({:?} clock)",
                ms_or_none(record.budgets.start_ms),
                ms_or_none(record.budgets.move_ms),
                record.budgets.clock
            )
            .to_lowercase(),
        ),
        ("fault policy".into(), record.fault_policy.to_string()),
        (
            "termination".into(),
            format!("{:?}", record.outcome.termination).to_lowercase(),
        ),
    ]
}

/// The self-contained viewer page of `record`, titled `title` (default: the players and the
/// game).
pub fn page(
    record: &MatchRecord,
    registry: &Registry,
    title: Option<&str>,
) -> Result<String, ViewError> {
    let shown = shown(record, registry, title)?;
    render(registry, &shown.game.clone(), Some(shown))
}

/// The one viewer page of a tournament of `game`: it shows the game its address names
/// (`viewer.html#game=ID`), loading that game's data file ([`data_file`]).
pub fn shared_page(registry: &Registry, game: &str) -> Result<String, ViewError> {
    render(registry, game, None)
}

/// The data file of one game for [`shared_page`]: a script that hands the viewer what it shows,
/// its chart packed as its data is (the SVG was most of a game's file).
pub fn data_file(shown: &Shown) -> String {
    let file = serde_json::json!({
        "title": shown.title,
        "subtitle": shown.subtitle,
        "facts": shown.facts,
        "chart": pack(shown.chart.as_bytes()),
        "data": shown.data,
    });
    // JSON is a JavaScript expression; this file is loaded as a script, never inlined in HTML.
    format!("Agon.loaded({file});\n")
}

fn render(registry: &Registry, game: &str, shown: Option<Shown>) -> Result<String, ViewError> {
    let rules = registry.get(game)?;
    let (title, subtitle, facts, chart, data) = match shown {
        Some(s) => (s.title, s.subtitle, s.facts, s.chart, s.data),
        None => (
            format!("{game}: game viewer"),
            String::new(),
            Vec::new(),
            String::new(),
            String::new(),
        ),
    };
    let html = crate::pages::render(
        "viewer.html",
        context! {
            title,
            subtitle,
            engine => env!("CARGO_PKG_VERSION"),
            game,
            facts,
            css => Value::from_safe_string(VIEWER_CSS.to_string()),
            viewer => Value::from_safe_string(VIEWER_JS.to_string()),
            game_script => Value::from_safe_string(rules.view_script().to_string()),
            chart => Value::from_safe_string(chart),
            data => Value::from_safe_string(data),
        },
    )?;
    Ok(html)
}

/// Writes the viewer page of `record` to `out`, whole or not at all.
pub fn write_page(
    record: &MatchRecord,
    title: Option<&str>,
    out: &std::path::Path,
) -> Result<(), ViewError> {
    let html = page(record, &Registry::builtin(), title)?;
    agon_engine::output_file::replace(out, html.as_bytes())
        .on_path(out)
        .map_err(ViewError::Write)
}

fn ms_or_none(ms: Option<u64>) -> String {
    ms.map_or("unlimited".into(), |ms| format!("{ms} ms"))
}

/// The page's data as gzip in base64: a 3000-ply game's positions and moves repeat a lot, and
/// the browser inflates them itself (`DecompressionStream`). Base64 cannot end its `<script>`
/// element early, whatever text bots put in it.
fn packed(data: &serde_json::Value) -> String {
    pack(&serde_json::to_vec(data).expect("page data serializes"))
}

/// `bytes` gzipped, in base64.
fn pack(bytes: &[u8]) -> String {
    use base64::Engine as _;
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).expect("writing to memory");
    let bytes = gz.finish().expect("writing to memory");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn bot_text_cannot_close_the_data_script_and_unpacks_whole() {
        use base64::Engine as _;
        let data = serde_json::json!({"detail": "</script><script>alert(1)"});
        let text = packed(&data);
        assert!(!text.contains('<'), "{text}");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&text)
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&json).unwrap(),
            data
        );
    }
}
