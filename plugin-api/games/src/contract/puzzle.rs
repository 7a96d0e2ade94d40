//! What the single-seat puzzles share: the metadata every puzzle's [`GameType`] has in common,
//! the instance from the parameters, `puzzle=FILE` (read through the engine's
//! [`super::ParamFiles`]) or `instance=TEXT` (records keep the text itself, so they replay
//! without the file), and the turn-based fault hooks a puzzle refuses.

use super::{FaultPolicy, GameType, ParamError, ParamFiles, RawParams, Rejection, Seats, Session};
use super::{SolutionView, Starter};

/// What every puzzle's [`GameType`] has in common, for struct update syntax in the puzzle's own
/// `session.rs` (`GameType { name: ..., ..puzzle::GAME_TYPE }`). The empty fields are no
/// defaults: each puzzle sets its own.
pub const GAME_TYPE: GameType = GameType {
    name: "",
    title: "",
    protocol_version: 0,
    seats: Seats::Fixed(1),
    file_params: &[],
    parameter_help: "",
    // docs/architecture.md, "Fault policy": a puzzle whose bot faults is unsolved (forfeit, one seat).
    default_fault_policy: FaultPolicy::Forfeit,
    game_score_meaning: "",
    view_script: "",
    nodes_meaning: "",
    solution_shown_as: SolutionView::Answer,
    example_params: &[],
    starter: Starter {
        source: "",
        match_params: "",
    },
    instances: &[],
    default_instance: None,
};

/// A puzzle's [`super::GameRules::new_session`]: the instance text from the parameters, parsed
/// with `parse` (an error is [`invalid`]), and the session `open` makes of the text and the
/// parsed instance.
pub fn new_session<I, E: std::fmt::Display, S: Session + 'static>(
    game: &'static GameType,
    params: &RawParams,
    files: &dyn ParamFiles,
    parse: impl FnOnce(&str) -> Result<I, E>,
    open: impl FnOnce(String, I) -> S,
) -> Result<Box<dyn Session>, ParamError> {
    let text = instance_text(params, files, game)?;
    let instance = parse(&text).map_err(invalid)?;
    Ok(Box::new(open(text, instance)))
}

/// The instance text the parameters name: a built-in puzzle of `game` by its name, a file by
/// its path, the text itself, or else the game's default puzzle.
pub fn instance_text(
    params: &RawParams,
    files: &dyn ParamFiles,
    game: &'static GameType,
) -> Result<String, ParamError> {
    for key in params.keys() {
        if key != "puzzle" && key != "instance" {
            return Err(ParamError::Unknown {
                key: key.clone(),
                known: "puzzle, instance".into(),
            });
        }
    }
    match (params.get("puzzle"), params.get("instance")) {
        (Some(value), None) => match super::built_in(game.instances, value) {
            Some(puzzle) => Ok(puzzle.text.to_string()),
            None => files
                .read_text("puzzle", value)
                .map_err(|e| ParamError::Invalid {
                    key: "puzzle".into(),
                    value: value.clone(),
                    expected: format!(
                        "a built-in puzzle ({}) or a readable puzzle file ({e})",
                        super::instance_names(game.instances)
                    ),
                }),
        },
        (None, Some(text)) => Ok(text.clone()),
        (Some(_), Some(_)) => Err(ParamError::Inconsistent {
            detail: "`puzzle` and `instance` are both given; give one".into(),
        }),
        (None, None) => match game
            .default_instance
            .and_then(|name| super::built_in(game.instances, name))
        {
            Some(puzzle) => Ok(puzzle.text.to_string()),
            None => Err(ParamError::Inconsistent {
                detail: "`puzzle=NAME|FILE` (or `instance=TEXT`) is required".into(),
            }),
        },
    }
}

/// The parameters a session reports: the instance text itself.
pub fn instance_params(text: &str) -> RawParams {
    RawParams::from([("instance".to_string(), text.to_string())])
}

/// A parse error of the instance as a parameter error.
pub fn invalid(error: impl std::fmt::Display) -> ParamError {
    ParamError::Invalid {
        key: "puzzle".into(),
        value: "(the instance)".into(),
        expected: format!("a valid instance: {error}"),
    }
}

/// A puzzle is one answer: there is no turn to pass (the `skip` fault policy).
pub fn no_turn_to_skip() -> Rejection {
    Rejection::Illegal("a puzzle has no turn to skip".into())
}

/// A puzzle has no legal answer the engine could pick (the `random-legal` fault policy).
pub fn no_random_answer() -> Rejection {
    Rejection::Illegal("a puzzle has no random legal answer".into())
}
