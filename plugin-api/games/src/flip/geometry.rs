//! Points and the table's bounds with the simulator's tolerance (rules file: "eps is 1e-7
//! everywhere").

use serde::{Deserialize, Serialize};

/// The simulator's tolerance in every distance and bound test (rules file: "eps is 1e-7
/// everywhere").
pub const EPS: f64 = 1e-7;
/// Coins are discs of diameter 2 (rules file, "Table and coins").
pub const DIAMETER: f64 = 2.0;
pub const X_LIMIT: f64 = 60.0;
pub const Y_LIMIT: f64 = 20.0;
/// The thirds are split at x = -20 and x = 20.
pub const THIRD: f64 = 20.0;

/// A point on the table, a coin's centre: x in [-60, 60] (player 1 attacks toward -x), y in
/// [-20, 20] (rules file, "Table and coins").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Along the table's length: the thirds split at x = -20 and x = 20.
    pub x: f64,
    /// Across the table.
    pub y: f64,
}

impl Point {
    /// The point (`x`, `y`), not checked against the table.
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// The Euclidean distance to `other`.
    pub fn distance(self, other: Point) -> f64 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }

    /// Whether both coordinates are finite (neither NaN nor infinite).
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

/// The whole coin lies on the table (rules file, "Moves", rule 4).
pub fn on_table(p: Point) -> bool {
    !(p.x - 1.0 + EPS < -X_LIMIT
        || p.x + 1.0 - EPS > X_LIMIT
        || p.y - 1.0 + EPS < -Y_LIMIT
        || p.y + 1.0 - EPS > Y_LIMIT)
}

/// Two coins overlap (rules file, "Moves", rule 3: touching is allowed).
pub fn overlap(a: Point, b: Point) -> bool {
    a.distance(b) + EPS < DIAMETER
}
