use super::Puzzle;

/// Checks `solution` (row-major letters) against `puzzle`; the error names the first offending
/// cell (rows and columns counted from 1).
pub fn verify(puzzle: &Puzzle, solution: &[u8]) -> Result<(), String> {
    let cells = puzzle.cells();
    if solution.len() != cells.len() {
        return Err(format!(
            "the solution has {} cells, the {} x {} puzzle {}",
            solution.len(),
            puzzle.rows(),
            puzzle.cols(),
            cells.len()
        ));
    }
    let at = |i: usize| {
        format!(
            "row {}, column {}",
            i / puzzle.cols() + 1,
            i % puzzle.cols() + 1
        )
    };
    let letters = puzzle.letters();
    for (i, &letter) in solution.iter().enumerate() {
        if !letters.contains(&letter) {
            return Err(format!(
                "{}: `{}` is not one of the puzzle's letters",
                at(i),
                letter.escape_ascii()
            ));
        }
        if let Some(source) = cells[i] {
            if source != letter {
                return Err(format!(
                    "{}: the source {} was changed to {}",
                    at(i),
                    source as char,
                    letter as char
                ));
            }
        }
    }
    for (i, &letter) in solution.iter().enumerate() {
        let same = puzzle
            .neighbours(i)
            .filter(|&j| solution[j] == letter)
            .count();
        let needed = if cells[i].is_some() { 1 } else { 2 };
        if same != needed {
            return Err(format!(
                "{}: {} has {same} neighbour{} of its letter; a {} needs exactly {needed}",
                at(i),
                letter as char,
                if same == 1 { "" } else { "s" },
                if cells[i].is_some() {
                    "source"
                } else {
                    "path cell"
                }
            ));
        }
    }
    // With those counts each letter is one path plus, possibly, separate loops: find a loop.
    match detached_cell(puzzle, solution) {
        Some((i, letter)) => Err(format!(
            "{}: this {} is on a loop apart from the path between the {} sources",
            at(i),
            letter as char,
            letter as char
        )),
        None => Ok(()),
    }
}

/// The first cell not connected to its letter's sources, with its letter.
pub(super) fn detached_cell(puzzle: &Puzzle, solution: &[u8]) -> Option<(usize, u8)> {
    let cells = puzzle.cells();
    for letter in puzzle.letters() {
        let [start, _] = puzzle.sources(letter).expect("a letter has sources");
        let mut reached = vec![false; cells.len()];
        let mut stack = vec![start];
        reached[start] = true;
        while let Some(i) = stack.pop() {
            for j in puzzle.neighbours(i) {
                if solution[j] == letter && !reached[j] {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        if let Some(i) = (0..cells.len()).find(|&i| solution[i] == letter && !reached[i]) {
            return Some((i, letter));
        }
    }
    None
}
