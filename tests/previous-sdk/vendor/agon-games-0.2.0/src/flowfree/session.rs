//! Flow Free as a single-seat engine game (`docs/games/flowfree.md`).

use super::protocol as wire;
use super::{verify, Puzzle};
use crate::contract::puzzle::{
    instance_params, instance_text, invalid, no_random_answer, no_turn_to_skip,
};
use crate::contract::{
    Applied, FaultPolicy, GameRules, Outcome, ParamError, ParamFiles, RawParams, Rejection,
    Session, StartInfo, ViewData,
};
use crate::protocol::{self, Reply, Start};

/// Flow Free's [`GameRules`]: one seat, the puzzle from `puzzle=FILE` or `instance=TEXT`.
pub struct FlowFreeRules;

impl GameRules for FlowFreeRules {
    fn name(&self) -> &'static str {
        "flowfree"
    }

    fn protocol_version(&self) -> u32 {
        wire::VERSION
    }

    fn seats(&self) -> usize {
        1
    }

    fn parameter_help(&self) -> &'static str {
        "puzzle=FILE (the course format: `_` empty, letters as sources), or instance=TEXT"
    }

    /// docs/architecture.md, "Fault policy": a puzzle whose bot faults is unsolved (forfeit, one seat).
    fn default_fault_policy(&self) -> FaultPolicy {
        FaultPolicy::Forfeit
    }

    fn game_score_meaning(&self) -> &'static str {
        "Flow Free: none (a puzzle is solved or not)"
    }

    fn view_script(&self) -> &'static str {
        include_str!("view.js")
    }

    fn new_session(
        &self,
        params: &RawParams,
        files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        let text = instance_text(params, files)?;
        let puzzle = Puzzle::parse(&text).map_err(invalid)?;
        Ok(Box::new(FlowFreeSession {
            text,
            puzzle,
            answer: None,
        }))
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
        protocol::encode(&Start {
            seat: seat as u32,
            seats: 1,
            seed: info.seed,
            start_budget_ms: info.start_budget_ms,
            move_budget_ms: info.move_budget_ms,
            bot_params: info.bot_params.clone(),
            game: wire::Setup {
                rows: self.puzzle.rows() as u32,
                cols: self.puzzle.cols() as u32,
            },
        })
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
