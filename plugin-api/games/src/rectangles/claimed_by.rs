//! Who filled each cell. The rules forget it (a filled cell is only filled: rules file, "A
//! round", 4), but the replay viewer shades a claimed cell in its claimer's colour, so the
//! session keeps it beside the game, from each round's claims.

use super::board::{colour, paint_char, Paint, UNPAINTED};
use super::claims::Claim;

/// Per cell of an n x n board, row-major: [`UNPAINTED`] while unfilled, else the colour of the
/// player whose claim filled it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedBy {
    n: usize,
    cells: Vec<Paint>,
}

impl ClaimedBy {
    /// An n x n board with no cell claimed.
    pub fn new(n: usize) -> ClaimedBy {
        ClaimedBy {
            n,
            cells: vec![UNPAINTED; n * n],
        }
    }

    /// Notes a round's claims in the order they were resolved: a claim fills only the interior
    /// cells no earlier claim filled, so those keep their claimer.
    pub fn note(&mut self, claims: &[Claim]) {
        for claim in claims {
            for cell in claim.rect.interior() {
                let at = cell.row as usize * self.n + cell.col as usize;
                if let Some(owner) = self.cells.get_mut(at).filter(|o| **o == UNPAINTED) {
                    *owner = colour(claim.player);
                }
            }
        }
    }

    /// The rows, North first, as the viewer reads them: `.` unfilled, `a`.. the letter of the
    /// player whose claim filled the cell (its paint letter).
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.n.max(1))
            .map(|row| row.iter().map(|&p| paint_char(p)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::session::RectanglesRules;
    use super::super::Rect;
    use super::*;
    use crate::contract::{raw_params, GameRules};
    use crate::transcript::PlainFiles;

    #[test]
    fn a_cell_keeps_the_player_whose_claim_filled_it_first() {
        let mut claimed = ClaimedBy::new(4);
        let claim = |player, rect| Claim {
            player,
            rect,
            cells: 0,
        };
        claimed.note(&[claim(0, Rect::new(0, 0, 2, 2))]);
        claimed.note(&[claim(1, Rect::new(0, 0, 3, 3))]);
        assert_eq!(claimed.rows(), ["....", ".ab.", ".bb.", "...."]);
    }

    #[test]
    fn the_viewer_sees_each_claim_in_its_claimers_letter() {
        // Two players, one robot each, each walking a 3 x 3 ring in its own corner: both rings
        // close in round 7 and each claims its one interior cell.
        let params = raw_params(&[("n", "7"), ("robots", "1")]);
        let mut session = RectanglesRules.new_session(&params, &PlainFiles).unwrap();
        session.apply_notation(0, "place 0,0").unwrap();
        session.apply_notation(1, "place 6,6").unwrap();
        for (a, b) in "EESSWWN".chars().zip("WWNNEES".chars()) {
            assert_eq!(session.view()["claimed"][1], ".......");
            session.apply_notation(0, &a.to_string()).unwrap();
            session.apply_notation(1, &b.to_string()).unwrap();
        }
        let view = session.view();
        assert_eq!(view["scores"], serde_json::json!([1, 1]));
        assert_eq!(view["board"][1].as_str().unwrap().chars().nth(1), Some('#'));
        assert_eq!(view["claimed"][1], ".a.....");
        assert_eq!(view["claimed"][5], ".....b.");
    }
}
