//! A record's positions, computed by replaying it with the rules, and everything else the page
//! shows of it, as the JSON the page reads.

use super::patch;
use super::ViewError;
use agon_engine::MatchRecord;
use agon_engine::{replay, replay::Step};
use agon_games::contract::Session;
use agon_games::registry::Registry;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The page's data for `record`; refuses a record that does not replay.
pub fn page_data(record: &MatchRecord, registry: &Registry) -> Result<Replayed, ViewError> {
    let mut frames: Vec<Value> = Vec::with_capacity(record.moves.len() + 1);
    let mut actions: Vec<Option<Value>> = Vec::with_capacity(record.moves.len());
    let mut refused: Vec<(usize, Value)> = Vec::new();
    let mut scores: Vec<Vec<f64>> = Vec::with_capacity(record.moves.len() + 1);
    // The faults by the ply of the position they were refused on.
    let mut faults_at: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, f) in record.faults.iter().enumerate() {
        faults_at.entry(f.ply as usize).or_default().push(k);
    }
    let mut observe = |step: Step, session: &dyn Session| {
        let ply = match step {
            Step::Before(i) => i,
            Step::End => record.moves.len(),
        };
        let game_scores = session.game_scores();
        frames.push(json!({
            "text": session.render(),
            "draw": session.view(),
            "scores": game_scores,
        }));
        scores.push(game_scores);
        // Illegal answers refused on this position (before its move, or at the end).
        for &k in faults_at.get(&ply).into_iter().flatten() {
            let f = &record.faults[k];
            if let Some(draw) = f
                .answer
                .as_deref()
                .and_then(|a| session.view_action(f.seat, a))
            {
                refused.push((k, draw));
            }
        }
        if let Step::Before(i) = step {
            let m = &record.moves[i];
            actions.push(if m.forced.is_some() {
                None
            } else {
                session.view_action(m.seat, &m.action)
            });
        }
    };
    replay::verify_observed(record, registry, &mut observe).map_err(ViewError::NotReplayable)?;
    let patches: Vec<Value> = frames
        .windows(2)
        .map(|pair| patch::diff(&pair[0], &pair[1]).unwrap_or_else(|| json!({ "o": {} })))
        .collect();
    let moves: Vec<Value> = record
        .moves
        .iter()
        .zip(actions)
        .map(|(m, draw)| {
            let mut v = serde_json::to_value(m).expect("moves serialize");
            v["draw"] = draw.unwrap_or(Value::Null);
            v
        })
        .collect();
    let mut faults: Vec<Value> = record
        .faults
        .iter()
        .map(|f| serde_json::to_value(f).expect("faults serialize"))
        .collect();
    for (k, draw) in refused {
        faults[k]["draw"] = draw;
    }
    let seats: Vec<Value> = record
        .seats
        .iter()
        .map(|s| {
            json!({
                "bot": s.bot, "team": s.team, "plugin": s.plugin, "version": s.plugin_version,
                "file": s.file, "sha256": s.sha256,
            })
        })
        .collect();
    Ok(Replayed {
        data: json!({
            "game": record.game,
            "seats": seats,
            "outcome": record.outcome.reason,
            "frames": { "first": frames[0], "patches": patches },
            "moves": moves,
            "faults": faults,
        }),
        scores,
    })
}

/// What a replay gives the page.
pub struct Replayed {
    /// The page's data (the chart's plot area is added by the page).
    pub data: Value,
    /// Each seat's game score at each ply, for the chart.
    pub scores: Vec<Vec<f64>>,
}
