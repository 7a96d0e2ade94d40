use super::geometry::{Geometry, Steps};
use super::Move;

/// The legal moves of a position, generated as they are asked for, in the order of
/// [`super::Position::legal_moves`]: straight steps first, then toward column `a`, then away from
/// it, each in square order. A search that walks the moves once needs no list (no allocation per
/// node); [`super::Position::legal_moves`] collects them into one.
#[derive(Debug, Clone)]
pub struct LegalMoves {
    /// Destinations not yet handed out, per direction (see [`Steps`]).
    steps: Steps,
    /// The first direction that may still have destinations.
    direction: usize,
    geometry: Geometry,
}

impl LegalMoves {
    #[inline]
    pub(super) fn new(steps: Steps, geometry: Geometry) -> LegalMoves {
        LegalMoves {
            steps,
            direction: 0,
            geometry,
        }
    }
}

impl Iterator for LegalMoves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        loop {
            let targets = self.steps.targets.get_mut(self.direction)?;
            if *targets != 0 {
                let to = targets.trailing_zeros();
                *targets &= *targets - 1;
                let rotation = self.steps.rotations[self.direction];
                return Some(self.geometry.step(to, rotation));
            }
            self.direction += 1;
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.steps.count() as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for LegalMoves {}

impl std::iter::FusedIterator for LegalMoves {}
