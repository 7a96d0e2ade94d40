//! `agon reversixt check-map`: is a map valid, and what is on it; `agon reversixt maps`: the
//! course maps built in.

use crate::cli::{CheckMapArgs, MapsArgs};
use agon_engine::{input_file::limits, Input};
use agon_games::reversixt::{Map, Square};
use agon_play::console::outln;
use anyhow::anyhow;

/// `agon reversixt maps`: the built-in course maps.
pub fn maps(args: MapsArgs) -> anyhow::Result<()> {
    let mut rows = Vec::new();
    for built_in in agon_games::reversixt::session::GAME.instances {
        let map = Map::parse_lenient(built_in.text)
            .map_err(|e| anyhow!("the built-in map {}: {e}", built_in.name))?;
        rows.push(serde_json::json!({
            "name": built_in.name,
            "players": map.players,
            "width": map.width,
            "height": map.height,
        }));
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    outln!("{:<18} {:>7}  {:>9}", "map", "players", "size");
    for row in &rows {
        let size = format!("{}x{}", row["width"], row["height"]);
        outln!(
            "{:<18} {:>7}  {:>9}",
            row["name"].as_str().unwrap_or(""),
            row["players"],
            size
        );
    }
    eprintln!(
        "agon: {} maps; play one with `--param map=NAME`, or give a map file's path",
        rows.len()
    );
    Ok(())
}

pub fn check_map(args: CheckMapArgs) -> anyhow::Result<()> {
    let name = args.file.to_string_lossy();
    let instances = agon_games::reversixt::session::GAME.instances;
    let text = match agon_games::contract::built_in(instances, &name) {
        Some(built_in) => built_in.text.to_string(),
        None => Input::new("map", limits::INSTANCE).read_text(&args.file)?,
    };
    let parsed = if args.lenient {
        Map::parse_lenient(&text)
    } else {
        Map::parse(&text)
    };
    let map = parsed.map_err(|e| anyhow!("{}: {e}", args.file.display()))?;
    for inert in &map.inert_ends {
        eprintln!("warning: {}: {inert}", args.file.display());
    }
    let stones = map.stones();
    let holes = map.count(Square::Hole);
    let specials = [
        ("choice", map.count(Square::Choice)),
        ("inversion", map.count(Square::Inversion)),
        ("bonus", map.count(Square::Bonus)),
        ("expansion", map.count(Square::Expansion)),
    ];
    if args.json {
        let out = serde_json::json!({
            "file": args.file.display().to_string(),
            "players": map.players,
            "width": map.width,
            "height": map.height,
            "overrides": map.overrides,
            "bombs": map.bombs,
            "bomb_strength": map.bomb_strength,
            "stones": stones,
            "squares": map.width * map.height - holes,
            "holes": holes,
            "transitions": map.transitions.len(),
            "inert_transition_ends": map.inert_ends.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            "choice": specials[0].1,
            "inversion": specials[1].1,
            "bonus": specials[2].1,
            "expansion": specials[3].1,
        });
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string_pretty(&out)?)
        );
        return Ok(());
    }
    outln!("{}: a valid map", args.file.display());
    outln!("players      {}", map.players);
    outln!(
        "size         {} x {} (width x height), {} squares, {} holes",
        map.width,
        map.height,
        map.width * map.height - holes,
        holes
    );
    outln!(
        "per player   {} override stones, {} bombs of strength {}",
        map.overrides,
        map.bombs,
        map.bomb_strength
    );
    let per: Vec<String> = stones
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{}: {n}", i + 1))
        .collect();
    outln!("stones       {}", per.join(", "));
    outln!("transitions  {}", map.transitions.len());
    let sp: Vec<String> = specials.iter().map(|(k, n)| format!("{k} {n}")).collect();
    outln!("specials     {}", sp.join(", "));
    Ok(())
}
