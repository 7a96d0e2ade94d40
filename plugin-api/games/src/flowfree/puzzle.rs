use std::collections::BTreeMap;

/// The largest grid accepted (the course's largest is 14 x 14).
pub const MAX_SIDE: usize = 64;

/// A Flow Free instance. Cells are row-major; `None` is empty, `Some(b'A')` a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    rows: usize,
    cols: usize,
    cells: Vec<Option<u8>>,
    /// Each letter's two source cells.
    sources: BTreeMap<u8, [usize; 2]>,
}

/// Why a text is not a puzzle: where, and what was expected.
pub type ParseError = crate::text_error::TextError;

impl Puzzle {
    /// Parses the course format: one line per row, CRLF or LF, the last line with or without
    /// a line end.
    pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
        let fail = |line, column, problem: String| ParseError {
            line,
            column,
            problem,
        };
        let body = text.strip_suffix('\n').unwrap_or(text);
        let body = body.strip_suffix('\r').unwrap_or(body);
        if body.is_empty() {
            return Err(fail(1, 1, "the puzzle is empty".into()));
        }
        let lines: Vec<&str> = body
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        let cols = lines[0].chars().count();
        if lines.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(fail(
                1,
                1,
                format!(
                    "{} x {cols} is larger than {MAX_SIDE} x {MAX_SIDE}",
                    lines.len()
                ),
            ));
        }
        let mut cells = Vec::with_capacity(lines.len() * cols);
        let mut seen: BTreeMap<u8, Vec<(usize, usize, usize)>> = BTreeMap::new();
        for (r, line) in lines.iter().enumerate() {
            let n = line.chars().count();
            if n != cols {
                return Err(fail(
                    r + 1,
                    n.min(cols) + 1,
                    format!("this row has {n} cells, the first row {cols}"),
                ));
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '_' => cells.push(None),
                    'A'..='Z' => {
                        seen.entry(ch as u8)
                            .or_default()
                            .push((r + 1, c + 1, r * cols + c));
                        cells.push(Some(ch as u8));
                    }
                    other => {
                        return Err(fail(
                            r + 1,
                            c + 1,
                            format!(
                                "`{other}` is not a cell (expected `_` or an uppercase letter)"
                            ),
                        ))
                    }
                }
            }
        }
        let mut sources = BTreeMap::new();
        for (letter, at) in seen {
            if at.len() != 2 {
                let (line, column, _) = at[at.len().min(2).saturating_sub(1).min(at.len() - 1)];
                let (line, column) = if at.len() > 2 {
                    (at[2].0, at[2].1)
                } else {
                    (line, column)
                };
                return Err(fail(
                    line,
                    column,
                    format!(
                        "letter {} appears {} time{}; each letter must appear exactly twice",
                        letter as char,
                        at.len(),
                        if at.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
            sources.insert(letter, [at[0].2, at[1].2]);
        }
        if sources.is_empty() {
            return Err(fail(1, 1, "the puzzle has no sources".into()));
        }
        Ok(Puzzle {
            rows: lines.len(),
            cols,
            cells,
            sources,
        })
    }

    /// Rows of the grid.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the grid; cell (r, c) is index `r * cols + c`.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Row-major cells: `None` empty, `Some(letter)` a source.
    pub fn cells(&self) -> &[Option<u8>] {
        &self.cells
    }

    /// The letters, ascending.
    pub fn letters(&self) -> Vec<u8> {
        self.sources.keys().copied().collect()
    }

    /// The two sources of `letter`.
    pub fn sources(&self, letter: u8) -> Option<[usize; 2]> {
        self.sources.get(&letter).copied()
    }

    /// The 4-neighbours of cell `i`.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (r, c, rows, cols) = (i / self.cols, i % self.cols, self.rows, self.cols);
        [
            (r > 0).then(|| i - cols),
            (r + 1 < rows).then(|| i + cols),
            (c > 0).then(|| i - 1),
            (c + 1 < cols).then(|| i + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// The puzzle in its own format, CRLF line ends.
    pub fn render(&self) -> String {
        self.render_cells(|i| self.cells[i].unwrap_or(b'_'))
    }

    /// A filled grid in the course's output format: letters, CRLF line ends.
    pub fn render_solution(&self, solution: &[u8]) -> String {
        self.render_cells(|i| solution.get(i).copied().unwrap_or(b'?'))
    }

    fn render_cells(&self, cell: impl Fn(usize) -> u8) -> String {
        let mut out = String::with_capacity(self.rows * (self.cols + 2));
        for r in 0..self.rows {
            for c in 0..self.cols {
                out.push(cell(r * self.cols + c) as char);
            }
            out.push_str("\r\n");
        }
        out
    }
}
