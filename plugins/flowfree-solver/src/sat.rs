//! The `fast` solver: the neighbour-count rule as a SAT problem (batsat), with separate loops
//! cut lazily: when a model has a loop apart from its letter's path, a clause forbids exactly
//! that loop and the solver runs again.

use crate::problem::Problem;
use agon_sdk::flowfree::verify;
use batsat::{lbool, BasicSolver, Lit, SolverInterface, Var};

pub struct Outcome {
    pub colours: Option<Vec<u8>>,
    /// The solver's decisions plus its propagated conflicts: its attempted assignments.
    pub attempts: u64,
    pub rounds: u32,
}

/// Every subset of `items` with `size` elements.
fn subsets(items: &[usize], size: usize) -> Vec<Vec<usize>> {
    if size == 0 {
        return vec![vec![]];
    }
    if items.len() < size {
        return vec![];
    }
    let mut with: Vec<Vec<usize>> = subsets(&items[1..], size - 1)
        .into_iter()
        .map(|mut s| {
            s.insert(0, items[0]);
            s
        })
        .collect();
    with.extend(subsets(&items[1..], size));
    with
}

pub fn solve(problem: &Problem) -> Outcome {
    let (n, k) = (problem.cells(), problem.colours());
    let mut solver = BasicSolver::default();
    let vars: Vec<Vec<Var>> = (0..n)
        .map(|_| (0..k).map(|_| solver.new_var_default()).collect())
        .collect();
    let lit = |i: usize, c: usize| Lit::new(vars[i][c], true);
    for i in 0..n {
        // Exactly one colour; a source's is fixed.
        if let Some(c) = problem.fixed[i] {
            solver.add_clause_reuse(&mut vec![lit(i, c as usize)]);
        }
        solver.add_clause_reuse(&mut (0..k).map(|c| lit(i, c)).collect());
        for a in 0..k {
            for b in a + 1..k {
                solver.add_clause_reuse(&mut vec![!lit(i, a), !lit(i, b)]);
            }
        }
        // Colour c here means exactly `need` neighbours of colour c.
        let nb = &problem.neighbours[i];
        let need = problem.need[i] as usize;
        for c in 0..k {
            // At least `need`: every set of |nb| - need + 1 neighbours holds one of colour c.
            for s in subsets(nb, nb.len() + 1 - need.min(nb.len() + 1)) {
                if s.is_empty() {
                    solver.add_clause_reuse(&mut vec![!lit(i, c)]);
                    continue;
                }
                let mut clause = vec![!lit(i, c)];
                clause.extend(s.iter().map(|&j| lit(j, c)));
                solver.add_clause_reuse(&mut clause);
            }
            // At most `need`: no `need + 1` neighbours all of colour c.
            for s in subsets(nb, need + 1) {
                let mut clause = vec![!lit(i, c)];
                clause.extend(s.iter().map(|&j| !lit(j, c)));
                solver.add_clause_reuse(&mut clause);
            }
        }
    }
    let mut rounds = 0;
    loop {
        rounds += 1;
        if solver.solve_limited(&[]) != lbool::TRUE {
            return Outcome {
                colours: None,
                attempts: solver.num_decisions() + solver.num_conflicts(),
                rounds,
            };
        }
        let colours: Vec<u8> = (0..n)
            .map(|i| {
                (0..k)
                    .find(|&c| solver.value_var(vars[i][c]) == lbool::TRUE)
                    .expect("exactly one colour") as u8
            })
            .collect();
        let grid = problem.grid(&colours);
        if verify(&problem.puzzle, &grid).is_ok() {
            return Outcome {
                colours: Some(colours),
                attempts: solver.num_decisions() + solver.num_conflicts(),
                rounds,
            };
        }
        // Forbid each separate loop of this model.
        let mut cut = false;
        for c in 0..k {
            let [start, _] = problem.puzzle.sources(problem.letters[c]).expect("sources");
            let mut reached = vec![false; n];
            let mut stack = vec![start];
            reached[start] = true;
            while let Some(i) = stack.pop() {
                for &j in &problem.neighbours[i] {
                    if colours[j] as usize == c && !reached[j] {
                        reached[j] = true;
                        stack.push(j);
                    }
                }
            }
            let apart: Vec<usize> = (0..n)
                .filter(|&i| colours[i] as usize == c && !reached[i])
                .collect();
            if !apart.is_empty() {
                cut = true;
                solver.add_clause_reuse(&mut apart.iter().map(|&i| !lit(i, c)).collect());
            }
        }
        if !cut {
            // The counts hold and nothing is apart, yet the verifier refused: cannot happen.
            return Outcome {
                colours: None,
                attempts: solver.num_decisions() + solver.num_conflicts(),
                rounds,
            };
        }
    }
}
