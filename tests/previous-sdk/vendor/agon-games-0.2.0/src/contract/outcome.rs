//! How a match ended: winner, points, ranks and the termination reason.

use serde::{Deserialize, Serialize};

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// Points per seat (1 / 0.5 / 0 for two seats).
    pub scores: Vec<f64>,
    /// `rules` when the game ended by its rules, `forfeit` when a fault ended it.
    pub termination: Termination,
    /// In words, e.g. "white reached the opponent's home row".
    pub reason: String,
    /// Games of more than two seats: each seat's rank, 1 best, ties sharing the better rank.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<usize>,
}

/// Why a match ended: by the rules, or by what a fault cost (written in snake case in records).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The rules ended the game.
    Rules,
    /// A fault cost the faulty seat the game.
    Forfeit,
    /// A seat was disqualified (a fault under `disqualify`, or too many under `random-legal`).
    Disqualified,
    /// No seat could act any more (every seat faulted turn after turn under `skip`): no one wins.
    Stalled,
}

impl Outcome {
    /// A two-seat result by the rules.
    pub fn by_rules(seats: usize, winner: Option<usize>, reason: String) -> Outcome {
        let scores = (0..seats)
            .map(|s| match winner {
                None => 0.5,
                Some(w) if w == s => 1.0,
                Some(_) => 0.0,
            })
            .collect();
        Outcome {
            winner,
            scores,
            termination: Termination::Rules,
            reason,
            ranks: Vec::new(),
        }
    }

    /// A result by ranks (1 best, ties sharing the better rank): each seat scores the share of
    /// the other seats it beat, a tie counting half, so two seats score 1 / 0.5 / 0 as in
    /// [`Outcome::by_rules`] and the scores of a game always sum to half the pairs.
    pub fn ranked(ranks: Vec<usize>, reason: String) -> Outcome {
        let others = ranks.len().saturating_sub(1).max(1) as f64;
        let scores = ranks
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                let beaten = ranks.iter().filter(|&&q| q > r).count() as f64;
                let tied = ranks
                    .iter()
                    .enumerate()
                    .filter(|&(j, &q)| j != i && q == r)
                    .count() as f64;
                (beaten + 0.5 * tied) / others
            })
            .collect();
        let firsts: Vec<usize> = (0..ranks.len()).filter(|&i| ranks[i] == 1).collect();
        Outcome {
            winner: (firsts.len() == 1).then(|| firsts[0]),
            scores,
            termination: Termination::Rules,
            reason,
            ranks,
        }
    }

    /// `loser` forfeits (or is disqualified from) a two-seat game: the other seat wins.
    pub fn forfeit(
        seats: usize,
        loser: usize,
        termination: Termination,
        reason: String,
    ) -> Outcome {
        // A single-seat puzzle whose bot faulted is unsolved.
        if seats == 1 {
            return Outcome {
                winner: None,
                scores: vec![0.0],
                termination,
                reason,
                ranks: Vec::new(),
            };
        }
        if seats > 2 {
            // The others share the first rank; the loser is last.
            let ranks = (0..seats)
                .map(|s| if s == loser { seats } else { 1 })
                .collect();
            return Outcome {
                termination,
                ..Outcome::ranked(ranks, reason)
            };
        }
        let winner = (0..seats).find(|&s| s != loser);
        Outcome {
            termination,
            ..Outcome::by_rules(seats, winner, reason)
        }
    }

    /// A single-seat puzzle's result by the verifier: solved scores 1, unsolved 0.
    pub fn puzzle(solved: bool, reason: String) -> Outcome {
        Outcome {
            winner: solved.then_some(0),
            scores: vec![if solved { 1.0 } else { 0.0 }],
            termination: Termination::Rules,
            reason,
            ranks: Vec::new(),
        }
    }

    /// Nobody could act any more: no winner, no points.
    pub fn stalled(seats: usize, reason: String) -> Outcome {
        Outcome {
            winner: None,
            scores: vec![0.0; seats],
            termination: Termination::Stalled,
            reason,
            ranks: Vec::new(),
        }
    }
}
