//! The seed's three CSP solvers (UIUC CS440 F17 A2, Part 1): every cell a variable, the letters
//! its values, the neighbour-count rule the constraint.
//! - dumb: random variable and value order, only checks the constraint on assignment;
//! - smart: most-constrained variable first, with forward checking of the neighbours' domains;
//! - smarter: smart plus propagation to a fixed point (a cell whose colour has exactly as many
//!   possible same-colour neighbours as it needs forces them; one that has enough drops the
//!   colour from the others).
//!
//! Every solver counts attempted assignments, and checks a full assignment with the verifier
//! (the counts alone allow separate loops).

use crate::problem::Problem;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Dumb,
    Smart,
    Smarter,
}

pub enum Result {
    Solved(Vec<u8>),
    /// The search space is exhausted: no solution.
    Exhausted,
    /// The attempt limit was reached.
    CutOff,
}

pub struct Search<'a> {
    problem: &'a Problem,
    strategy: Strategy,
    pub attempts: u64,
    limit: u64,
    colour: Vec<Option<u8>>,
    order: Vec<usize>,
    rng: ChaCha8Rng,
}

const NONE: u32 = 0;

impl<'a> Search<'a> {
    pub fn new(problem: &'a Problem, strategy: Strategy, limit: u64, seed: u64) -> Search<'a> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut order: Vec<usize> = (0..problem.cells())
            .filter(|&i| problem.fixed[i].is_none())
            .collect();
        if strategy == Strategy::Dumb {
            order.shuffle(&mut rng);
        }
        Search {
            problem,
            strategy,
            attempts: 0,
            limit,
            colour: problem.fixed.clone(),
            order,
            rng,
        }
    }

    pub fn run(&mut self) -> Result {
        let all = (1u32 << self.problem.colours()) - 1;
        let mut domains: Vec<u32> = self
            .problem
            .fixed
            .iter()
            .map(|f| f.map_or(all, |k| 1 << k))
            .collect();
        if self.strategy != Strategy::Dumb {
            for i in 0..self.problem.cells() {
                if self.colour[i].is_none() {
                    domains[i] = self.feasible(i, domains[i], &domains);
                }
            }
            if self.strategy == Strategy::Smarter && !self.propagate(&mut domains) {
                return Result::Exhausted;
            }
        }
        match self.solve(&mut domains, 0) {
            Some(true) => {
                Result::Solved(self.colour.iter().map(|c| c.expect("complete")).collect())
            }
            Some(false) => Result::Exhausted,
            None => Result::CutOff,
        }
    }

    /// How many neighbours of `i` have colour `k`, and how many could still get it.
    fn counts(&self, i: usize, k: u8, domains: &[u32]) -> (u8, u8) {
        let mut same = 0;
        let mut open = 0;
        for &j in &self.problem.neighbours[i] {
            match self.colour[j] {
                Some(c) if c == k => same += 1,
                Some(_) => {}
                None if self.strategy == Strategy::Dumb || domains[j] & (1 << k) != 0 => open += 1,
                None => {}
            }
        }
        (same, open)
    }

    /// A coloured cell can still meet its count.
    fn satisfiable(&self, i: usize, domains: &[u32]) -> bool {
        let Some(k) = self.colour[i] else { return true };
        let (same, open) = self.counts(i, k, domains);
        let need = self.problem.need[i];
        same <= need && same + open >= need
    }

    /// The colours of `domain` that uncoloured cell `i` could take without breaking a count.
    fn feasible(&mut self, i: usize, domain: u32, domains: &[u32]) -> u32 {
        let mut out = NONE;
        for k in 0..self.problem.colours() as u8 {
            if domain & (1 << k) == 0 {
                continue;
            }
            self.colour[i] = Some(k);
            let ok = self.satisfiable(i, domains)
                && self.problem.neighbours[i]
                    .iter()
                    .all(|&j| self.satisfiable(j, domains));
            self.colour[i] = None;
            if ok {
                out |= 1 << k;
            }
        }
        out
    }

    /// `Some(true)` solved, `Some(false)` exhausted, `None` cut off.
    fn solve(&mut self, domains: &mut [u32], depth: usize) -> Option<bool> {
        let Some(var) = self.choose(domains, depth) else {
            return Some(
                self.problem.accepts(
                    &self
                        .colour
                        .iter()
                        .map(|c| c.unwrap_or(0))
                        .collect::<Vec<_>>(),
                ),
            );
        };
        let mut values: Vec<u8> = (0..self.problem.colours() as u8)
            .filter(|k| domains[var] & (1 << k) != 0)
            .collect();
        if self.strategy == Strategy::Dumb {
            values.shuffle(&mut self.rng);
        }
        for k in values {
            self.attempts += 1;
            if self.attempts > self.limit {
                return None;
            }
            self.colour[var] = Some(k);
            let consistent = match self.strategy {
                Strategy::Dumb => {
                    self.satisfiable(var, domains)
                        && self.problem.neighbours[var]
                            .iter()
                            .all(|&j| self.satisfiable(j, domains))
                }
                Strategy::Smart | Strategy::Smarter => true,
            };
            if consistent {
                let mut next = domains.to_vec();
                next[var] = 1 << k;
                if self.narrow(var, &mut next) && self.solve(&mut next, depth + 1)? {
                    return Some(true);
                }
            }
            self.colour[var] = None;
        }
        Some(false)
    }

    /// Forward checking (and propagation for smarter) after colouring `var`; false on a wipe-out.
    fn narrow(&mut self, var: usize, domains: &mut [u32]) -> bool {
        if self.strategy == Strategy::Dumb {
            return true;
        }
        // The neighbours of `var` and theirs: every count that involves `var`.
        let mut around: Vec<usize> = vec![var];
        for &j in &self.problem.neighbours[var] {
            around.push(j);
            around.extend(self.problem.neighbours[j].iter().copied());
        }
        for &i in &around {
            if self.colour[i].is_none() {
                domains[i] = self.feasible(i, domains[i], domains);
                if domains[i] == NONE {
                    return false;
                }
            } else if !self.satisfiable(i, domains) {
                return false;
            }
        }
        self.strategy != Strategy::Smarter || self.propagate(domains)
    }

    /// Smarter's propagation to a fixed point; false on a wipe-out.
    fn propagate(&mut self, domains: &mut [u32]) -> bool {
        let n = self.problem.cells();
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                let Some(k) = self.colour[i].or_else(|| {
                    (domains[i].count_ones() == 1).then(|| domains[i].trailing_zeros() as u8)
                }) else {
                    continue;
                };
                let need = self.problem.need[i];
                let mut same = 0;
                let mut open: Vec<usize> = Vec::new();
                for &j in &self.problem.neighbours[i] {
                    if self.colour[j] == Some(k)
                        || (self.colour[j].is_none() && domains[j] == 1 << k)
                    {
                        same += 1;
                    } else if self.colour[j].is_none() && domains[j] & (1 << k) != 0 {
                        open.push(j);
                    }
                }
                if same > need || same + (open.len() as u8) < need {
                    return false;
                }
                if same == need && !open.is_empty() {
                    for &j in &open {
                        domains[j] &= !(1 << k);
                        if domains[j] == NONE {
                            return false;
                        }
                    }
                    changed = true;
                } else if same + open.len() as u8 == need && !open.is_empty() {
                    for &j in &open {
                        domains[j] = 1 << k;
                    }
                    changed = true;
                }
            }
            for i in 0..n {
                if self.colour[i].is_none() && domains[i].count_ones() > 1 {
                    let narrowed = self.feasible(i, domains[i], domains);
                    if narrowed != domains[i] {
                        domains[i] = narrowed;
                        changed = true;
                        if narrowed == NONE {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// The next variable: the next in random order (dumb), else the smallest domain.
    fn choose(&self, domains: &[u32], _depth: usize) -> Option<usize> {
        let open = self
            .order
            .iter()
            .copied()
            .filter(|&i| self.colour[i].is_none());
        match self.strategy {
            Strategy::Dumb => open.into_iter().next(),
            _ => open.min_by_key(|&i| domains[i].count_ones()),
        }
    }
}
