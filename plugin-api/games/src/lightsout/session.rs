//! Lights Out as a single-seat engine game (`docs/games/lightsout.md`).

use super::protocol as wire;
use super::{Analysis, Board, Click};
use crate::contract::puzzle::{self, instance_params, no_random_answer, no_turn_to_skip};
use crate::contract::{
    Applied, GameRules, Outcome, ParamError, ParamFiles, RawParams, Rejection, Session, StartInfo,
    ViewData,
};
use crate::contract::{GameType, SolutionView, Starter};
use crate::protocol::GameProtocol;
use crate::protocol::{self, Reply};

/// Lights Out's metadata (docs/architecture.md, "Layout": one constant per game).
pub const GAME: GameType = GameType {
    name: <wire::LightsOut as GameProtocol>::GAME,
    title: "Lights Out",
    protocol_version: wire::VERSION,
    parameter_help: "puzzle=NAME|FILE (a built-in board, default all_on_5x5, or a file: rows \
                     of `.`/`0` white and `#`/`1` black), or instance=TEXT",
    game_score_meaning: "Lights Out: the clicks of the answer",
    view_script: include_str!("view.js"),
    nodes_meaning: "solutions in the null space",
    solution_shown_as: SolutionView::Answer,
    example_params: &[("instance", "#.#\n.#.\n#.#\n")],
    starter: Starter {
        source: include_str!("starter.rs"),
        match_params: " --param puzzle=all_on_5x5",
    },
    instances: crate::instances::LIGHTSOUT,
    default_instance: Some("all_on_5x5"),
    // One seat, no file parameters, the forfeit fault policy.
    ..puzzle::GAME_TYPE
};

/// Lights Out's [`GameRules`]: one seat, the board from `puzzle=FILE` or `instance=TEXT`.
pub struct LightsOutRules;

/// This game's rules under the name the registry reaches every game's by.
pub use LightsOutRules as Rules;

impl GameRules for LightsOutRules {
    fn game_type(&self) -> &'static GameType {
        &GAME
    }

    fn new_session(
        &self,
        params: &RawParams,
        files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        puzzle::new_session(&GAME, params, files, Board::parse, |text, board| {
            LightsOutSession {
                text,
                board,
                result: None,
            }
        })
    }
}

struct LightsOutSession {
    text: String,
    board: Board,
    /// The verdict and the clicks, once answered.
    result: Option<(Outcome, usize)>,
}

/// Records write `clicks: r,c r,c ...` (`minimal clicks: ...` when the bot proved it minimal)
/// or `unsolvable: REASON`.
const CLICKS: &str = "clicks:";
const MINIMAL: &str = "minimal clicks:";
const UNSOLVABLE: &str = "unsolvable:";

/// Click lists longer than this are recorded as a hexadecimal bitmap (`#` and hex digits).
const LIST_LIMIT: usize = 10_000;

impl LightsOutSession {
    fn judge(&mut self, answer: wire::Answer, nodes: Option<u64>) -> Result<Applied, Rejection> {
        if self.result.is_some() {
            return Err(Rejection::Illegal("the puzzle was already answered".into()));
        }
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let (outcome, clicks, notation) = match answer {
            wire::Answer::Clicks {
                clicks,
                proven_minimal,
            } => {
                let cells = wire::unpack(rows, cols, &clicks).ok_or_else(|| {
                    Rejection::Malformed(format!(
                        "a click bitmap of {} bytes for a {rows} x {cols} board (it needs {})",
                        clicks.len(),
                        (rows * cols).div_ceil(8)
                    ))
                })?;
                let mut board = self.board.clone();
                for &(r, c) in &cells {
                    board
                        .click(Click {
                            row: r as u32,
                            col: c as u32,
                        })
                        .map_err(|off| Rejection::Illegal(off.to_string()))?;
                }
                if let Some(first) = board.cells().first() {
                    return Err(Rejection::Illegal(format!(
                        "after the {} clicks {} cells are still black, the first at row {}, \
                         column {} (from 0)",
                        cells.len(),
                        board.black_cells(),
                        first.row,
                        first.col
                    )));
                }
                if proven_minimal {
                    // A claim the engine can check cheaply, it checks.
                    let analysis = Analysis::new(&self.board);
                    if analysis.nullity() <= CHECKED_NULLITY {
                        let fewest = analysis
                            .fewest_clicks(CHECKED_NULLITY, &mut || false)
                            .map(|(p, _, _)| p.black_cells());
                        if let Some(fewest) = fewest.filter(|&f| f < cells.len()) {
                            return Err(Rejection::Illegal(format!(
                                "the answer claims its {} clicks are minimal, but {fewest} clear \
                                 the board",
                                cells.len()
                            )));
                        }
                    }
                }
                let reason = format!(
                    "solved with {} clicks{}",
                    cells.len(),
                    if proven_minimal {
                        " (minimal, as the bot proved)"
                    } else {
                        " (not proven minimal)"
                    }
                );
                let mut notation = String::from(if proven_minimal { MINIMAL } else { CLICKS });
                if cells.len() > LIST_LIMIT {
                    notation.push_str(" #");
                    for byte in &clicks {
                        notation.push_str(&format!("{byte:02x}"));
                    }
                } else {
                    for (r, c) in &cells {
                        notation.push_str(&format!(" {r},{c}"));
                    }
                }
                (Outcome::puzzle(true, reason), cells.len(), notation)
            }
            wire::Answer::Unsolvable { reason } => {
                let reason = crate::contract::bounded(&reason);
                let analysis = Analysis::new(&self.board);
                if let Some(solution) = analysis.solution() {
                    return Err(Rejection::Illegal(format!(
                        "the board is solvable (for example with {} clicks), yet the bot \
                         answered unsolvable: {reason}",
                        solution.black_cells()
                    )));
                }
                let one_line = reason.replace('\n', " ");
                let outcome = Outcome::puzzle(
                    true,
                    format!("correctly shown unsolvable (the rank test agrees): {one_line}"),
                );
                (outcome, 0, format!("{UNSOLVABLE} {one_line}"))
            }
        };
        self.result = Some((outcome, clicks));
        Ok(Applied {
            notation,
            nodes,
            captures: 0,
        })
    }
}

/// Minimality claims are checked when the null space has at most `2^CHECKED_NULLITY` elements.
const CHECKED_NULLITY: usize = 16;

fn parse_clicks(notation: &str, rows: usize, cols: usize) -> Result<wire::Answer, Rejection> {
    if let Some(reason) = notation.strip_prefix(UNSOLVABLE) {
        return Ok(wire::Answer::Unsolvable {
            reason: reason.trim_start().to_string(),
        });
    }
    let (proven_minimal, list) = match (
        notation.strip_prefix(MINIMAL),
        notation.strip_prefix(CLICKS),
    ) {
        (Some(list), _) => (true, list),
        (None, Some(list)) => (false, list),
        (None, None) => {
            return Err(Rejection::Malformed(format!(
                "`{}` is no Lights Out answer",
                notation.chars().take(40).collect::<String>()
            )))
        }
    };
    let list = list.trim_start();
    let clicks = if let Some(hex) = list.strip_prefix('#') {
        (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2).unwrap_or("zz"), 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| Rejection::Malformed("a bad click bitmap".into()))?
    } else {
        let mut cells = Vec::new();
        for pair in list.split_whitespace() {
            let bad = || Rejection::Malformed(format!("`{pair}` is not row,col"));
            let (r, c) = pair.split_once(',').ok_or_else(bad)?;
            let (r, c): (usize, usize) =
                (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
            if r >= rows || c >= cols {
                return Err(bad());
            }
            cells.push((r, c));
        }
        wire::pack(rows, cols, |r, c| cells.contains(&(r, c)))
    };
    Ok(wire::Answer::Clicks {
        clicks,
        proven_minimal,
    })
}

impl Session for LightsOutSession {
    fn params(&self) -> RawParams {
        instance_params(&self.text)
    }

    fn to_act(&self) -> Option<usize> {
        self.result.is_none().then_some(0)
    }

    fn start_message(&self, seat: usize, info: &StartInfo) -> Vec<u8> {
        protocol::encode(&info.start(
            seat,
            1,
            wire::Setup {
                rows: self.board.rows() as u32,
                cols: self.board.cols() as u32,
            },
        ))
    }

    fn observation(&self, _seat: usize) -> Vec<u8> {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let black = wire::pack(rows, cols, |r, c| self.board.get(r, c));
        protocol::encode(&wire::Observation {
            rows: rows as u32,
            cols: cols as u32,
            black,
        })
    }

    fn apply_answer(&mut self, _seat: usize, answer: &[u8]) -> Result<Applied, Rejection> {
        let reply: Reply<wire::Answer> = protocol::decode(answer)
            .map_err(|e| Rejection::Malformed(format!("not a Lights Out answer: {e}")))?;
        self.judge(reply.action, reply.nodes)
    }

    fn apply_notation(&mut self, _seat: usize, action: &str) -> Result<Applied, Rejection> {
        let answer = parse_clicks(action, self.board.rows(), self.board.cols())?;
        self.judge(answer, None)
    }

    fn skip(&mut self, _seat: usize) -> Result<Applied, Rejection> {
        Err(no_turn_to_skip())
    }

    fn play_random_legal(&mut self, _seat: usize, _draw: u64) -> Result<Applied, Rejection> {
        Err(no_random_answer())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.as_ref().map(|(o, _)| o.clone())
    }

    fn render(&self) -> String {
        self.board.render()
    }

    fn view(&self) -> ViewData {
        let verdict = self.result.as_ref().map(|(o, _)| o.reason.as_str());
        super::view::board(&self.board, verdict)
    }

    fn view_action(&self, _seat: usize, action: &str) -> Option<ViewData> {
        let answer = parse_clicks(action, self.board.rows(), self.board.cols()).ok()?;
        super::view::answer(&self.board, &answer)
    }

    fn game_scores(&self) -> Vec<f64> {
        vec![self
            .result
            .as_ref()
            .map_or(0.0, |(_, clicks)| *clicks as f64)]
    }
}
