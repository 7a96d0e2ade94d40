use crate::geometry::{fan_out, flip_toward, forward_heading, two_flip_middles};
use agon_sdk::flip::convert::table;
use agon_sdk::flip::{Player, Point, Table};
use agon_sdk::protocol::flip::{FlipMove, Observation};
use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;

/// The wall's y positions, spaced 2*sqrt(3) so no coin passes between them, the outer ones
/// 1 + sqrt(3) from the edge (seed report, section 4.2).
const WALL_Y: [f64; 11] = [
    0.0,
    3.464_101_6,
    -3.464_101_6,
    6.928_203_2,
    -6.928_203_2,
    10.392_304_8,
    -10.392_304_8,
    13.856_406_5,
    -13.856_406_5,
    17.320_508_1,
    -17.320_508_1,
];
/// The first runners give up after this many moves (section 6.1).
const RUNNER_PATIENCE: u32 = 100;
/// Runners released over a finished wall have no opponent to race: they keep trying.
const RELEASED_PATIENCE: u32 = 100_000;
/// A runner that has not come 0.5 closer to scoring in this many moves is stuck (typically in
/// the opponent's coins piled up in front of our wall) and gives up, so its moves go to
/// releasing and staging the next runners instead of shuffling it sideways for ever.
const STALL: u32 = 24;
/// An opponent coin this close to scoring (it has crossed the middle) stops the first runners.
const THREAT: f64 = 28.0;
/// A coin this close to its wall spot stands in it.
const PLACED: f64 = 1e-6;

#[derive(Default)]
pub struct State {
    n: u32,
    /// Runners sent so far: coin, moves made, patience.
    runners: Vec<Runner>,
    initial_runners: usize,
    /// Builder of each wall spot.
    wall: [Option<u32>; 11],
    /// Builders repositioned this half-turn (they wait for the next one).
    repositioned: Vec<u32>,
}

impl State {
    /// Overrides the number of runners sent before the wall (the `runners` parameter).
    pub fn with_initial_runners(mut self, runners: usize) -> State {
        self.initial_runners = runners;
        self
    }

    pub fn new(n: u32) -> State {
        State {
            n,
            runners: Vec::new(),
            // Section 7.2: two runners first for 12 <= n < 25, else one.
            initial_runners: if n >= 25 { 1 } else { 2 },
            wall: [None; 11],
            repositioned: Vec::new(),
        }
    }

    pub fn half_turn(&mut self, observation: &Observation) -> Vec<FlipMove> {
        let me: Player = observation.you.into();
        let mut board = table(observation);
        let mut moves = Vec::new();
        let mut left = observation.moves_allowed as usize;
        self.repositioned.clear();
        let mut plan = Planner {
            me,
            board: &mut board,
            moves: &mut moves,
        };
        if self.n < 12 {
            while left > 0 && (self.home_wall_move(&mut plan, left) || race_move(&mut plan, left)) {
                left -= 1;
            }
        } else {
            self.large(&mut plan, &mut left);
        }
        moves
    }

    fn is_runner(&self, id: u32) -> bool {
        self.runners.iter().any(|r| r.id == id)
    }

    fn large(&mut self, plan: &mut Planner, left: &mut usize) {
        // 1. Runners first, one at a time with both moves, while the opponent is busy at home
        // (section 7.1 sends them because a wall-building opponent stays back); an opponent coin
        // past the middle calls for the wall at once.
        let threatened = plan.opponent_nearest_to_go() < THREAT;
        while *left > 0 && !threatened && self.runners.len() <= self.initial_runners {
            let active = self.runners.last().filter(|r| r.active(plan)).map(|r| r.id);
            match active {
                Some(id) => {
                    let moved = run(plan, id);
                    let to_go = plan.to_go(plan.coin(id));
                    let last = self.runners.last_mut().expect("active");
                    if moved {
                        last.moved(to_go);
                        *left -= 1;
                    } else {
                        last.give_up();
                    }
                }
                None if self.runners.len() < self.initial_runners => {
                    let Some(next) = plan.most_advanced(|id| !self.is_runner(id)) else {
                        break;
                    };
                    self.runners.push(Runner::new(next, RUNNER_PATIENCE));
                }
                None => break,
            }
        }
        // 2. The wall.
        while *left > 0 {
            self.assign(plan);
            match self.build(plan, *left) {
                0 => break,
                used => *left -= used,
            }
        }
        // 3. Once it stands: release a runner over it, replaced in the same turn.
        if *left >= 2 && self.standing(plan) {
            self.release(plan, left);
        }
        // 4. Runners out there keep going.
        for i in (0..self.runners.len()).rev() {
            let id = self.runners[i].id;
            while *left > 0 && self.runners[i].active(plan) {
                if !run(plan, id) {
                    break;
                }
                let to_go = plan.to_go(plan.coin(id));
                self.runners[i].moved(to_go);
                *left -= 1;
            }
        }
        // 5. Spare coins line up behind the wall, ready to replace released builders.
        while *left > 0 && self.stage(plan) {
            *left -= 1;
        }
    }

    /// Below 12 coins every coin heads for a spot of a wall on the opponent's front line
    /// (x = -21 for player 1): a coin there is home, and together they shut in the opponent's
    /// coins that have not left yet. Spots are assigned once, by minimum-weight matching.
    fn home_wall_move(&mut self, plan: &mut Planner, left: usize) -> bool {
        let me = plan.me;
        let spot = |k: usize| Point::new(21.0 * me.forward(), WALL_Y[k]);
        if self.wall.iter().all(Option::is_none) {
            let n = self.n as usize;
            let weights = Matrix::from_fn(n, 11, |(c, r)| {
                (plan.coin(c as u32).distance(spot(r)) * 1000.0) as i64
            });
            let (_, assignment) = kuhn_munkres_min(&weights);
            for (c, &k) in assignment.iter().enumerate() {
                self.wall[k] = Some(c as u32);
            }
        }
        // The assigned coins not yet on their spots, most advanced first.
        let mut open: Vec<(usize, u32)> = (0..11)
            .filter_map(|k| self.wall[k].map(|id| (k, id)))
            .filter(|&(k, id)| plan.coin(id).distance(spot(k)) >= PLACED)
            .collect();
        open.sort_by(|a, b| {
            plan.to_go(plan.coin(a.1))
                .total_cmp(&plan.to_go(plan.coin(b.1)))
        });
        for (k, id) in open {
            let (from, target) = (plan.coin(id), spot(k));
            let d = from.distance(target);
            if (d - 2.0).abs() < 1e-9 && plan.try_move(id, target) {
                return true;
            }
            if d <= 4.0 {
                if left >= 2 {
                    for middle in two_flip_middles(from, target).into_iter().flatten() {
                        let mut trial = plan.board.clone();
                        if trial.move_coin(me, id, middle).is_ok()
                            && trial.validate(me, id, target).is_ok()
                        {
                            return plan.try_move(id, middle);
                        }
                    }
                }
                continue;
            }
            let heading = (target.y - from.y).atan2(target.x - from.x);
            if let Some(to) = fan_out(plan.board, me, id, heading, 60) {
                if to.distance(target) < d - 1.0 {
                    return plan.try_move(id, to);
                }
            }
        }
        false
    }

    fn wall_x(me: Player) -> f64 {
        // Just behind our goal line (our home third is x >= 20 for player 1).
        -21.0 * me.forward()
    }

    fn spot(me: Player, k: usize) -> Point {
        Point::new(State::wall_x(me), WALL_Y[k])
    }

    fn behind(me: Player, k: usize) -> Point {
        let s = State::spot(me, k);
        Point::new(s.x - 2.0 * me.forward(), s.y)
    }

    fn placed(&self, plan: &Planner, k: usize) -> bool {
        self.wall[k].is_some_and(|id| plan.coin(id).distance(State::spot(plan.me, k)) < PLACED)
    }

    /// An opponent coin sits where spot `k` must go: it waits for it to leave.
    fn occupied(plan: &Planner, k: usize) -> bool {
        let spot = State::spot(plan.me, k);
        plan.board
            .coins(plan.me.other())
            .iter()
            .any(|p| p.distance(spot) < 2.0)
    }

    fn standing(&self, plan: &Planner) -> bool {
        (0..11).all(|k| self.placed(plan, k) || State::occupied(plan, k))
    }

    /// Builders by minimum-weight bipartite matching of the open spots to the free coins.
    fn assign(&mut self, plan: &Planner) {
        let me = plan.me;
        let open: Vec<usize> = (0..11).filter(|&k| !self.placed(plan, k)).collect();
        let placed: Vec<u32> = (0..11)
            .filter(|&k| self.placed(plan, k))
            .filter_map(|k| self.wall[k])
            .collect();
        let free: Vec<u32> = (0..self.n)
            .filter(|&id| !self.is_runner(id) && !placed.contains(&id))
            .filter(|&id| !Table::in_target(me, plan.coin(id)))
            .collect();
        if open.is_empty() || free.len() < open.len() {
            return;
        }
        let weights = Matrix::from_fn(open.len(), free.len(), |(r, c)| {
            (plan.coin(free[c]).distance(State::spot(me, open[r])) * 1000.0) as i64
        });
        let (_, assignment) = kuhn_munkres_min(&weights);
        for (r, &c) in assignment.iter().enumerate() {
            self.wall[open[r]] = Some(free[c]);
        }
    }

    /// Building moves at the open spot nearest the most advanced opponent coin: exact one- or
    /// two-flip placement when in reach, else a flip toward the spot. Returns the moves used.
    fn build(&mut self, plan: &mut Planner, left: usize) -> usize {
        let me = plan.me;
        let threat_y = plan.most_threatening_opponent_y();
        let mut open: Vec<usize> = (0..11)
            .filter(|&k| !self.placed(plan, k) && self.wall[k].is_some())
            .filter(|&k| !State::occupied(plan, k))
            .collect();
        open.sort_by(|&a, &b| {
            (WALL_Y[a] - threat_y)
                .abs()
                .total_cmp(&(WALL_Y[b] - threat_y).abs())
        });
        for k in open {
            let id = self.wall[k].expect("assigned");
            if self.repositioned.contains(&id) {
                continue;
            }
            let target = State::spot(me, k);
            let from = plan.coin(id);
            let d = from.distance(target);
            if (d - 2.0).abs() < 1e-9 && plan.try_move(id, target) {
                return 1;
            }
            if left >= 2 && d <= 4.0 {
                for middle in two_flip_middles(from, target).into_iter().flatten() {
                    let mut trial = plan.board.clone();
                    if trial.move_coin(me, id, middle).is_ok()
                        && trial.validate(me, id, target).is_ok()
                    {
                        plan.try_move(id, middle);
                        plan.try_move(id, target);
                        return 2;
                    }
                }
            }
            if d <= 4.0 {
                // Within reach but not placeable now: step to where the exact approach is clear
                // next half-turn.
                if let Some(to) = reposition(plan, id, target) {
                    plan.try_move(id, to);
                    self.repositioned.push(id);
                    return 1;
                }
                continue;
            }
            let heading = (target.y - from.y).atan2(target.x - from.x);
            if let Some(to) = fan_out(plan.board, me, id, heading, 70) {
                if to.distance(target) < d - 0.1 {
                    plan.try_move(id, to);
                    return 1;
                }
            }
        }
        0
    }

    /// A wall coin steps out as a runner and the coin staged behind it takes its place in the
    /// same turn, so the wall never has a gap between our turns.
    fn release(&mut self, plan: &mut Planner, left: &mut usize) {
        let me = plan.me;
        for k in 0..11 {
            if !self.placed(plan, k) {
                continue;
            }
            let spot = State::spot(me, k);
            let behind = State::behind(me, k);
            let Some(stager) = (0..self.n)
                .find(|&id| !self.is_runner(id) && plan.coin(id).distance(behind) < PLACED)
            else {
                continue;
            };
            let builder = self.wall[k].expect("placed");
            // Any forward-ish flip out of the line that leaves room for the stager.
            for step in 0..=75u32 {
                for sign in [1.0, -1.0] {
                    let heading = forward_heading(me) + sign * (step as f64).to_radians();
                    let out = flip_toward(spot, heading);
                    let mut trial = plan.board.clone();
                    if trial.move_coin(me, builder, out).is_ok()
                        && trial.validate(me, stager, spot).is_ok()
                    {
                        plan.try_move(builder, out);
                        plan.try_move(stager, spot);
                        self.wall[k] = Some(stager);
                        self.runners.push(Runner::new(builder, RELEASED_PATIENCE));
                        *left -= 2;
                        return;
                    }
                }
            }
        }
    }

    /// One move of a spare coin toward a free staging point behind the wall.
    fn stage(&mut self, plan: &mut Planner) -> bool {
        let me = plan.me;
        // A builder whose spot an opponent coin holds has nothing to build: it stages instead.
        let builders: Vec<u32> = (0..11)
            .filter(|&k| !State::occupied(plan, k))
            .filter_map(|k| self.wall[k])
            .collect();
        let staged: Vec<Point> = (0..11).map(|k| State::behind(me, k)).collect();
        let spares: Vec<u32> = (0..self.n)
            .filter(|&id| !self.is_runner(id) && !builders.contains(&id))
            .filter(|&id| !Table::in_target(me, plan.coin(id)))
            .filter(|&id| staged.iter().all(|s| plan.coin(id).distance(*s) >= PLACED))
            .collect();
        for id in spares {
            let from = plan.coin(id);
            let free_spots = staged.iter().copied().filter(|s| {
                [me, me.other()]
                    .iter()
                    .flat_map(|&p| plan.board.coins(p).iter())
                    .all(|c| c.distance(from) < 1e-9 || c.distance(*s) >= 2.0 - 1e-6)
            });
            let Some(target) =
                free_spots.min_by(|a, b| from.distance(*a).total_cmp(&from.distance(*b)))
            else {
                return false;
            };
            let d = from.distance(target);
            if (d - 2.0).abs() < 1e-9 && plan.try_move(id, target) {
                return true;
            }
            if d <= 4.0 {
                for middle in two_flip_middles(from, target).into_iter().flatten() {
                    let mut trial = plan.board.clone();
                    if trial.move_coin(me, id, middle).is_ok()
                        && trial.validate(me, id, target).is_ok()
                    {
                        return plan.try_move(id, middle);
                    }
                }
                if let Some(to) = reposition(plan, id, target) {
                    return plan.try_move(id, to);
                }
            }
            let heading = (target.y - from.y).atan2(target.x - from.x);
            if let Some(to) = fan_out(plan.board, me, id, heading, 70) {
                if to.distance(target) < d - 0.1 {
                    return plan.try_move(id, to);
                }
            }
        }
        false
    }
}

/// A coin sent to score.
#[derive(Clone, Copy, Debug)]
struct Runner {
    id: u32,
    steps: u32,
    patience: u32,
    /// The least distance to scoring it has reached, and the moves made since.
    best_to_go: f64,
    stalled: u32,
}

impl Runner {
    fn new(id: u32, patience: u32) -> Runner {
        Runner {
            id,
            steps: 0,
            patience,
            best_to_go: f64::INFINITY,
            stalled: 0,
        }
    }

    fn active(&self, plan: &Planner) -> bool {
        self.steps < self.patience
            && self.stalled < STALL
            && !Table::in_target(plan.me, plan.coin(self.id))
    }

    fn moved(&mut self, to_go: f64) {
        self.steps += 1;
        if to_go < self.best_to_go - 0.5 {
            self.best_to_go = to_go;
            self.stalled = 0;
        } else {
            self.stalled += 1;
        }
    }

    fn give_up(&mut self) {
        self.steps = self.patience;
    }
}

/// A flip of coin `id` to a point from which `target` can be reached exactly: in one flip, or
/// in two through a free middle point.
fn reposition(plan: &Planner, id: u32, target: Point) -> Option<Point> {
    let me = plan.me;
    let from = plan.coin(id);
    (0..72).find_map(|i| {
        let to = flip_toward(from, (i as f64 * 5.0).to_radians());
        let mut trial = plan.board.clone();
        trial.move_coin(me, id, to).ok()?;
        let d = to.distance(target);
        if (d - 2.0).abs() < 1e-9 && trial.validate(me, id, target).is_ok() {
            return Some(to);
        }
        two_flip_middles(to, target)?
            .into_iter()
            .find_map(|middle| {
                let mut next = trial.clone();
                next.move_coin(me, id, middle).ok()?;
                next.validate(me, id, target).ok().map(|()| to)
            })
    })
}

/// A half-turn being planned on a copy of the table.
struct Planner<'a> {
    me: Player,
    board: &'a mut Table,
    moves: &'a mut Vec<FlipMove>,
}

impl Planner<'_> {
    fn coin(&self, id: u32) -> Point {
        self.board.coins(self.me)[id as usize]
    }

    fn try_move(&mut self, id: u32, to: Point) -> bool {
        if self.board.move_coin(self.me, id, to).is_ok() {
            self.moves.push(FlipMove {
                id,
                x: to.x,
                y: to.y,
            });
            true
        } else {
            false
        }
    }

    /// How far a coin of `who` still has to go (0 once home).
    fn to_go_of(who: Player, p: Point) -> f64 {
        match who {
            Player::One => (p.x + 21.0).max(0.0),
            Player::Two => (21.0 - p.x).max(0.0),
        }
    }

    fn to_go(&self, p: Point) -> f64 {
        Planner::to_go_of(self.me, p)
    }

    fn most_advanced(&self, allowed: impl Fn(u32) -> bool) -> Option<u32> {
        (0..self.board.coins(self.me).len() as u32)
            .filter(|&id| allowed(id) && !Table::in_target(self.me, self.coin(id)))
            .min_by(|&a, &b| {
                self.to_go(self.coin(a))
                    .total_cmp(&self.to_go(self.coin(b)))
            })
    }

    /// The opponent's coins not yet in its target.
    fn opponent_coins_in_play(&self) -> impl Iterator<Item = &Point> + '_ {
        let them = self.me.other();
        self.board
            .coins(them)
            .iter()
            .filter(move |p| !Table::in_target(them, **p))
    }

    /// How far the opponent coin closest to scoring still has to go.
    fn opponent_nearest_to_go(&self) -> f64 {
        let them = self.me.other();
        self.opponent_coins_in_play()
            .map(|p| Planner::to_go_of(them, *p))
            .fold(f64::INFINITY, f64::min)
    }

    /// The y of the opponent coin closest to scoring.
    fn most_threatening_opponent_y(&self) -> f64 {
        let them = self.me.other();
        self.opponent_coins_in_play()
            .min_by(|a, b| Planner::to_go_of(them, **a).total_cmp(&Planner::to_go_of(them, **b)))
            .map_or(0.0, |p| p.y)
    }

    /// The least crowded band of the opponent's side, as a y to aim at.
    /// Where a runner past the middle aims: a free point just past the goal line, in the
    /// least crowded band there (our own arrivals count too, or runners queue behind them),
    /// then the nearest to `from`.
    fn landing_point(&self, from: Point) -> Point {
        let x = 22.0 * self.me.forward();
        let coins: Vec<Point> = [self.me, self.me.other()]
            .iter()
            .flat_map(|&p| self.board.coins(p).iter().copied())
            .filter(|c| c.distance(from) > 1e-9)
            .collect();
        let crowd = |y: f64| {
            coins
                .iter()
                .filter(|p| (p.x - x).abs() < 6.0 && (p.y - y).abs() < 3.0)
                .count()
        };
        (0..=76)
            .map(|i| Point::new(x, -19.0 + 0.5 * i as f64))
            .filter(|p| coins.iter().all(|c| c.distance(*p) >= 2.0 + 1e-6))
            .min_by(|a, b| {
                crowd(a.y)
                    .cmp(&crowd(b.y))
                    .then((a.y - from.y).abs().total_cmp(&(b.y - from.y).abs()))
            })
            .unwrap_or(Point::new(x, self.least_dense_y()))
    }

    fn least_dense_y(&self) -> f64 {
        let opponents = self.board.coins(self.me.other());
        (0..9)
            .map(|b| -16.0 + 4.0 * b as f64)
            .min_by(|&a, &b| {
                let crowd = |y: f64| opponents.iter().filter(|p| (p.y - y).abs() < 3.0).count();
                crowd(a).cmp(&crowd(b)).then(a.abs().total_cmp(&b.abs()))
            })
            .unwrap_or(0.0)
    }
}

/// One runner move: straight until the middle, then toward the least crowded free landing
/// point just past the goal line, scoring at once when a flip can. False when it cannot move
/// forward at all.
fn run(plan: &mut Planner, id: u32) -> bool {
    let me = plan.me;
    let from = plan.coin(id);
    if from.x * me.forward() < 0.0 {
        return match fan_out(plan.board, me, id, forward_heading(me), 80) {
            Some(to) => plan.try_move(id, to),
            None => false,
        };
    }
    if plan.to_go(from) <= 2.0 {
        for step in 0..=90u32 {
            for sign in [1.0, -1.0] {
                let to = flip_toward(
                    from,
                    forward_heading(me) + sign * (step as f64).to_radians(),
                );
                if Table::in_target(me, to) && plan.try_move(id, to) {
                    return true;
                }
            }
        }
    }
    let goal = plan.landing_point(from);
    let heading = (goal.y - from.y).atan2(goal.x - from.x);
    let fan = if plan.to_go(from) <= 5.0 { 90 } else { 80 };
    match fan_out(plan.board, me, id, heading, fan) {
        Some(to) => plan.try_move(id, to),
        None => false,
    }
}

/// One race move for n < 12 (section 8); false only when no coin can move at all.
fn race_move(plan: &mut Planner, left: usize) -> bool {
    let me = plan.me;
    let n = plan.board.coins(me).len() as u32;
    let mut order: Vec<u32> = (0..n)
        .filter(|&id| !Table::in_target(me, plan.coin(id)))
        .collect();
    order.sort_by(|&a, &b| {
        plan.to_go(plan.coin(a))
            .total_cmp(&plan.to_go(plan.coin(b)))
    });
    let ahead = forward_heading(me);
    // Straight, most advanced first.
    for &id in &order {
        if plan.try_move(id, flip_toward(plan.coin(id), ahead)) {
            return true;
        }
    }
    let them = me.other();
    let mine: f64 = (0..n).map(|id| plan.to_go(plan.coin(id))).sum::<f64>() / n as f64;
    let theirs: f64 = plan
        .board
        .coins(them)
        .iter()
        .map(|p| Planner::to_go_of(them, *p))
        .sum::<f64>()
        / n as f64;
    let around_opponents = left >= 2 || theirs - mine > 1.0;
    // 1. Around our own coins (3. around opponents when allowed), still gaining ground.
    for &id in &order {
        let from = plan.coin(id);
        let blocked_by_own = plan
            .board
            .coins(me)
            .iter()
            .enumerate()
            .any(|(other, p)| other as u32 != id && p.distance(flip_toward(from, ahead)) < 2.0);
        if !blocked_by_own && !around_opponents {
            continue;
        }
        if let Some(to) = fan_out(plan.board, me, id, ahead, 75) {
            if plan.to_go(to) < plan.to_go(from) {
                return plan.try_move(id, to);
            }
        }
    }
    // 2. Home coins that stand in the way of our own coins' entry step deeper.
    let entering: Vec<Point> = order
        .iter()
        .map(|&id| flip_toward(plan.coin(id), ahead))
        .collect();
    for id in 0..n {
        let p = plan.coin(id);
        if Table::in_target(me, p) && entering.iter().any(|e| e.distance(p) < 2.0) {
            let deeper = flip_toward(p, ahead);
            if Table::in_target(me, deeper) && plan.try_move(id, deeper) {
                return true;
            }
        }
    }
    // Never waste a move: the most advanced coin that can gain ground at all.
    for &id in &order {
        let from = plan.coin(id);
        if let Some(to) = fan_out(plan.board, me, id, ahead, 89) {
            if plan.to_go(to) < plan.to_go(from) {
                return plan.try_move(id, to);
            }
        }
    }
    false
}
