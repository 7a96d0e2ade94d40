//! Move geometry on a copy of the table: fan-outs and exact two-flip placement (the seed
//! report, sections 5 and 9).

use agon_sdk::flip::{Player, Point, Table};

pub const STEP: f64 = 2.0;

/// The flip of `from` at an absolute heading (radians, from +x).
pub fn flip_toward(from: Point, heading: f64) -> Point {
    Point::new(from.x + STEP * heading.cos(), from.y + STEP * heading.sin())
}

/// The heading of `me`'s direction of attack.
pub fn forward_heading(me: Player) -> f64 {
    if me.forward() > 0.0 {
        0.0
    } else {
        std::f64::consts::PI
    }
}

/// The seed's `forceMove`: the valid flip closest to `heading`, fanning out 1 degree at a time
/// up to `max_degrees` either way.
pub fn fan_out(
    table: &Table,
    me: Player,
    id: u32,
    heading: f64,
    max_degrees: u32,
) -> Option<Point> {
    let from = table.coins(me)[id as usize];
    for step in 0..=max_degrees {
        for sign in [1.0, -1.0] {
            if step == 0 && sign < 0.0 {
                continue;
            }
            let to = flip_toward(from, heading + sign * (step as f64).to_radians());
            if table.validate(me, id, to).is_ok() {
                return Some(to);
            }
        }
    }
    None
}

/// The two possible middle points of two flips taking `from` exactly to `target` (within 4):
/// the seed report's section 5.
pub fn two_flip_middles(from: Point, target: Point) -> Option<[Point; 2]> {
    let (dx, dy) = (target.x - from.x, target.y - from.y);
    let d = (dx * dx + dy * dy).sqrt();
    if !(1e-12..=2.0 * STEP).contains(&d) {
        return None;
    }
    let mean = dy.atan2(dx);
    let half = (d / (2.0 * STEP)).clamp(-1.0, 1.0).acos();
    Some([
        flip_toward(from, mean + half),
        flip_toward(from, mean - half),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_flips_land_exactly() {
        let from = Point::new(30.0, 1.0);
        let target = Point::new(27.5, 2.5);
        for middle in two_flip_middles(from, target).unwrap() {
            assert!((from.distance(middle) - 2.0).abs() < 1e-12);
            assert!((middle.distance(target) - 2.0).abs() < 1e-12);
        }
        assert!(two_flip_middles(from, Point::new(20.0, 1.0)).is_none());
    }
}
