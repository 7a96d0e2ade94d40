//! `agon flip board`: the course simulator's start board, bit for bit.

use crate::cli::FlipBoardArgs;
use agon_games::contract::RawParams;
use agon_games::flip::{place, Config};
use agon_play::console::outln;

pub fn board(args: FlipBoardArgs) -> anyhow::Result<()> {
    // The same checks as the game's parameters.
    let params = RawParams::from([
        ("n".to_string(), args.n.to_string()),
        ("seed".to_string(), args.seed.to_string()),
    ]);
    Config::from_params(&params)?;
    let [one, two] = place(args.n, args.seed)?;
    if args.json {
        let list = |v: &[agon_games::flip::Point]| v.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>();
        let out = serde_json::json!({
            "n": args.n,
            "seed": args.seed,
            "player1": list(&one),
            "player2": list(&two),
        });
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string_pretty(&out)?)
        );
        return Ok(());
    }
    outln!(
        "n = {}, seed = {} (player 1 right, player 2 left)",
        args.n,
        args.seed
    );
    outln!(
        "{:>4}  {:>22}  {:>22}",
        "id",
        "player 1 (x, y)",
        "player 2 (x, y)"
    );
    for (id, (a, b)) in one.iter().zip(&two).enumerate() {
        outln!(
            "{id:>4}  ({:>9.4}, {:>9.4})  ({:>9.4}, {:>9.4})",
            a.x,
            a.y,
            b.x,
            b.y
        );
    }
    Ok(())
}
