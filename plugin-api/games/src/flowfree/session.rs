//! Flow Free as a single-seat engine game (`docs/games/flowfree.md`).

use super::protocol as wire;
use super::{verify, Puzzle};
use crate::contract::puzzle::{self, instance_params, no_random_answer, no_turn_to_skip};
use crate::contract::{
    Applied, GameRules, Outcome, ParamError, ParamFiles, RawParams, Rejection, Session, StartInfo,
    ViewData,
};
use crate::contract::{GameType, SolutionView, Starter};
use crate::protocol::GameProtocol;
use crate::protocol::{self, Reply};

/// Flow Free's metadata (docs/architecture.md, "Layout": one constant per game).
pub const GAME: GameType = GameType {
    name: <wire::FlowFree as GameProtocol>::GAME,
    title: "Flow Free",
    protocol_version: wire::VERSION,
    parameter_help:
        "puzzle=NAME|FILE (a built-in course puzzle, default input55, or a file in the course \
         format: `_` empty, letters as sources), or instance=TEXT",
    game_score_meaning: "Flow Free: none (a puzzle is solved or not)",
    view_script: include_str!("view.js"),
    nodes_meaning: "attempted assignments",
    solution_shown_as: SolutionView::FinalBoard,
    example_params: &[("instance", "A_A\nB_B\n")],
    starter: Starter {
        source: include_str!("starter.rs"),
        match_params: " --param puzzle=input55",
    },
    instances: crate::instances::FLOWFREE,
    default_instance: Some("input55"),
    // One seat, no file parameters, the forfeit fault policy.
    ..puzzle::GAME_TYPE
};

/// Flow Free's [`GameRules`]: one seat, the puzzle from `puzzle=FILE` or `instance=TEXT`.
pub struct FlowFreeRules;

/// This game's rules under the name the registry reaches every game's by.
pub use FlowFreeRules as Rules;

impl GameRules for FlowFreeRules {
    fn game_type(&self) -> &'static GameType {
        &GAME
    }

    fn new_session(
        &self,
        params: &RawParams,
        files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        puzzle::new_session(&GAME, params, files, Puzzle::parse, |text, puzzle| {
            FlowFreeSession {
                text,
                puzzle,
                answer: None,
            }
        })
    }
}

struct FlowFreeSession {
    text: String,
    puzzle: Puzzle,
    /// The verdict and, when solved, the grid.
    answer: Option<(Outcome, Option<Vec<u8>>)>,
}

/// Records write the solved grid as rows joined by `/`, or `gave up: REASON`.
const GAVE_UP: &str = "gave up:";

impl FlowFreeSession {
    fn judge(&mut self, answer: wire::Answer, nodes: Option<u64>) -> Result<Applied, Rejection> {
        if self.answer.is_some() {
            return Err(Rejection::Illegal("the puzzle was already answered".into()));
        }
        let (outcome, grid, notation) = match answer {
            wire::Answer::Solved { cells } => {
                verify(&self.puzzle, &cells).map_err(Rejection::Illegal)?;
                let notation = cells
                    .chunks(self.puzzle.cols())
                    .map(|row| String::from_utf8_lossy(row).into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                (
                    Outcome::puzzle(true, "solved".into()),
                    Some(cells),
                    notation,
                )
            }
            wire::Answer::GaveUp { reason } => {
                let reason = crate::contract::bounded(&reason);
                let reason: String = reason
                    .chars()
                    .map(|c| if c == '\n' { ' ' } else { c })
                    .collect();
                let outcome =
                    Outcome::puzzle(false, format!("unsolved: the bot gave up: {reason}"));
                (outcome, None, format!("{GAVE_UP} {reason}"))
            }
        };
        self.answer = Some((outcome, grid));
        Ok(Applied {
            notation,
            nodes,
            captures: 0,
        })
    }
}

impl Session for FlowFreeSession {
    fn params(&self) -> RawParams {
        instance_params(&self.text)
    }

    fn to_act(&self) -> Option<usize> {
        self.answer.is_none().then_some(0)
    }

    fn start_message(&self, seat: usize, info: &StartInfo) -> Vec<u8> {
        protocol::encode(&info.start(
            seat,
            1,
            wire::Setup {
                rows: self.puzzle.rows() as u32,
                cols: self.puzzle.cols() as u32,
            },
        ))
    }

    fn observation(&self, _seat: usize) -> Vec<u8> {
        protocol::encode(&wire::Observation {
            rows: self.puzzle.rows() as u32,
            cols: self.puzzle.cols() as u32,
            cells: self
                .puzzle
                .cells()
                .iter()
                .map(|c| c.unwrap_or(b'_'))
                .collect(),
        })
    }

    fn apply_answer(&mut self, _seat: usize, answer: &[u8]) -> Result<Applied, Rejection> {
        let reply: Reply<wire::Answer> = protocol::decode(answer)
            .map_err(|e| Rejection::Malformed(format!("not a Flow Free answer: {e}")))?;
        self.judge(reply.action, reply.nodes)
    }

    fn apply_notation(&mut self, _seat: usize, action: &str) -> Result<Applied, Rejection> {
        let answer = match action.strip_prefix(GAVE_UP) {
            Some(reason) => wire::Answer::GaveUp {
                reason: reason.trim_start().to_string(),
            },
            None => wire::Answer::Solved {
                cells: action.bytes().filter(|&b| b != b'/').collect(),
            },
        };
        self.judge(answer, None)
    }

    fn view(&self) -> ViewData {
        let solution = match &self.answer {
            Some((_, Some(grid))) => Some(grid.as_slice()),
            _ => None,
        };
        super::view::instance(&self.puzzle, solution)
    }

    fn view_action(&self, _seat: usize, action: &str) -> Option<ViewData> {
        super::view::answer(&self.puzzle, action, GAVE_UP)
    }

    fn answer_notation(&self, answer: &[u8]) -> Option<String> {
        let reply: Reply<wire::Answer> = protocol::decode(answer).ok()?;
        match reply.action {
            wire::Answer::Solved { cells } => Some(
                cells
                    .chunks(self.puzzle.cols().max(1))
                    .map(|row| String::from_utf8_lossy(row).into_owned())
                    .collect::<Vec<_>>()
                    .join("/"),
            ),
            wire::Answer::GaveUp { .. } => None,
        }
    }

    fn skip(&mut self, _seat: usize) -> Result<Applied, Rejection> {
        Err(no_turn_to_skip())
    }

    fn play_random_legal(&mut self, _seat: usize, _draw: u64) -> Result<Applied, Rejection> {
        Err(no_random_answer())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.answer.as_ref().map(|(o, _)| o.clone())
    }

    fn render(&self) -> String {
        match &self.answer {
            Some((_, Some(grid))) => self.puzzle.render_solution(grid),
            _ => self.puzzle.render(),
        }
    }

    fn game_scores(&self) -> Vec<f64> {
        vec![0.0]
    }
}
