use super::topology::{unpack, Topology};
use super::{Direction, Square};
use std::collections::HashMap;
use std::sync::Arc;

/// The largest side a map may have (rules file, "Map file": at most 1000 x 1000).
pub const MAX_SIDE: usize = 1000;

/// Why a text is not a map: where, and what was expected.
pub type MapError = crate::text_error::TextError;

/// A pair of joined ends: leaving `from` in `from_dir` enters `to` and continues in
/// `to_dir.reverse()`, and symmetrically (rules file, "Map file").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transition {
    /// The first end's square, (x, y): x the column, y the row.
    pub from: (usize, usize),
    /// The direction out of the first end: a step that way that would leave the board or hit a
    /// hole goes through the transition instead.
    pub from_dir: Direction,
    /// The second end's square, (x, y).
    pub to: (usize, usize),
    /// The direction out of the second end, used as `from_dir` is; a walk that enters through
    /// the first end continues from here in its reverse.
    pub to_dir: Direction,
    /// The map line it was written on.
    pub line: usize,
}

/// A ReversiXT map: header, board and transitions, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    /// Players of the map, 2 to 8.
    pub players: u8,
    /// Override stones each player starts with (the header's; a [`super::Position`] counts
    /// them in play).
    pub overrides: u32,
    /// Bombs each player starts with (the header's; a [`super::Position`] counts them in play).
    pub bombs: u32,
    /// A bomb's blast radius in steps (rules file, "Phase 2").
    pub bomb_strength: u32,
    /// Columns, 1 to [`MAX_SIDE`]; x runs from 0 to `width - 1`, left to right.
    pub width: usize,
    /// Rows, 1 to [`MAX_SIDE`]; y runs from 0 (the top row) to `height - 1`.
    pub height: usize,
    /// Row-major, `y * width + x`. Writing to it directly applies no rule: a square made a
    /// hole this way keeps its transitions (use [`Map::make_holes`]).
    pub squares: Vec<Square>,
    /// The transitions still standing, in the map's order. Walks follow the map's own links,
    /// built when it was parsed: editing this list does not change where a step leads.
    pub transitions: Vec<Transition>,
    /// Where each step leads, transitions included; shared by the copies a search makes, until
    /// a bomb removes a transition.
    topology: Arc<Topology>,
    /// Transition ends that face the board, so are never used (accepted when lenient).
    pub inert_ends: Vec<MapError>,
}

struct Token<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

fn fail<T>(line: usize, column: usize, problem: impl Into<String>) -> Result<T, MapError> {
    Err(MapError {
        line,
        column,
        problem: problem.into(),
    })
}

/// Splits on spaces and tabs, keeping each token's 1-based line and column; `\r\n` and `\n`
/// both end a line, and repeated or trailing blanks are accepted (rules file, "Map file").
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    for (l, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        // (byte offset, 1-based column) of the token being read. Columns are counted as the
        // characters go by: recounting from the line's start per token would make a map
        // written on one long line quadratic to read.
        let mut start = None;
        for (column, (i, ch)) in line.char_indices().chain([(line.len(), ' ')]).enumerate() {
            let blank = ch == ' ' || ch == '\t';
            match (start, blank) {
                (None, false) => start = Some((i, column + 1)),
                (Some((s, c)), true) => {
                    out.push(Token {
                        text: &line[s..i],
                        line: l + 1,
                        column: c,
                    });
                    start = None;
                }
                _ => {}
            }
        }
    }
    out
}

impl Map {
    /// Parses a map as the rules file states it, and as the course server reads it: a
    /// transition end that faces the board is an error (the server refuses the course's own
    /// `initialMaps/scope.map`: "transition 1 is invalid").
    pub fn parse(text: &str) -> Result<Map, MapError> {
        Map::parse_with(text, false)
    }

    /// Parses a map accepting transition ends that face the board (listed in `inert_ends`:
    /// they can never be used). For maps someone else has already accepted (a bot reading the
    /// engine's board, a client reading its server's map) and, on request, for course maps
    /// that have such ends.
    pub fn parse_lenient(text: &str) -> Result<Map, MapError> {
        Map::parse_with(text, true)
    }

    fn parse_with(text: &str, lenient: bool) -> Result<Map, MapError> {
        let tokens = tokens(text);
        // Where a missing token would have been: just past the last one.
        let end = tokens
            .last()
            .map(|t| (t.line, t.column + t.text.chars().count()))
            .unwrap_or((1, 1));
        let mut next = 0usize;
        let mut header = |field: &str, min: u64, max: u64| -> Result<u64, MapError> {
            let Some(t) = tokens.get(next) else {
                return fail(end.0, end.1, format!("truncated header: expected {field}"));
            };
            next += 1;
            let value: u64 = t.text.parse().map_err(|_| MapError {
                line: t.line,
                column: t.column,
                problem: format!("expected {field} (a whole number), found `{}`", t.text),
            })?;
            if !(min..=max).contains(&value) {
                return fail(
                    t.line,
                    t.column,
                    format!("{field} must be {min} to {max}, found {value}"),
                );
            }
            Ok(value)
        };
        let players = header("the number of players", 2, 8)? as u8;
        let overrides = header("the override stones", 0, u32::MAX as u64)? as u32;
        let bombs = header("the bombs", 0, u32::MAX as u64)? as u32;
        let bomb_strength = header("the bomb strength", 0, u32::MAX as u64)? as u32;
        let height = header("the height", 1, MAX_SIDE as u64)? as usize;
        let width = header("the width", 1, MAX_SIDE as u64)? as usize;

        let mut squares = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                let Some(t) = tokens.get(next) else {
                    return fail(
                        end.0,
                        end.1,
                        format!("truncated board at ({x},{y}): {height} rows of {width} squares expected"),
                    );
                };
                next += 1;
                let square = match Square::from_token(t.text) {
                    Some(Square::Stone(p)) if p > players => {
                        return fail(
                            t.line,
                            t.column,
                            format!("a stone of player {p} at ({x},{y}) on a {players}-player map"),
                        )
                    }
                    Some(s) => s,
                    None => {
                        return fail(
                            t.line,
                            t.column,
                            format!(
                                "invalid square `{}` at ({x},{y}): expected 0-8, -, c, i, b or x",
                                t.text
                            ),
                        )
                    }
                };
                squares.push(square);
            }
        }

        // What a game can use (a choice; the rules file sets no maximum): each bomb turns at least
        // one square into a hole, so no game throws more bombs than the board has squares; no
        // blast reaches further than every square; and as many override stones as squares is
        // far beyond any course map (the most is 69, on a board of 361). Larger values only make
        // games endless or bombs slow (a strength of 2^32 - 1 used to take seconds a bomb).
        // Squares of the rectangle, holes included: a position's text keeps the header as
        // loaded while bombs turn squares into holes, and must still read back.
        let board = width * height;
        for (index, field, value) in [
            (1, "override stones", overrides),
            (2, "bombs", bombs),
            (3, "the bomb strength", bomb_strength),
        ] {
            if value as usize > board {
                let t = &tokens[index];
                return fail(
                    t.line,
                    t.column,
                    format!(
                        "{field} must be at most the board's {board} squares (width x height: \
                         what a game can use), found {value}"
                    ),
                );
            }
        }
        let mut map = Map {
            players,
            overrides,
            bombs,
            bomb_strength,
            width,
            height,
            squares,
            transitions: Vec::new(),
            topology: Arc::default(),
            inert_ends: Vec::new(),
        };
        // Where a step off an end leads: (square, direction) -> (square, direction to go on in).
        let mut links = HashMap::new();
        let rest = &tokens[next..];
        for group in rest.chunks(7) {
            let first = &group[0];
            if group.len() < 7 {
                return fail(
                    first.line,
                    first.column,
                    "truncated transition: expected `x1 y1 r1 <-> x2 y2 r2`",
                );
            }
            if group[3].text != "<->" {
                return fail(
                    group[3].line,
                    group[3].column,
                    format!(
                        "bad transition delimiter `{}`: expected `<->`",
                        group[3].text
                    ),
                );
            }
            let from = map.transition_end(&group[0..3], lenient)?;
            let to = map.transition_end(&group[4..7], lenient)?;
            map.add_transition(
                Transition {
                    from: from.0,
                    from_dir: from.1,
                    to: to.0,
                    to_dir: to.1,
                    line: first.line,
                },
                &mut links,
            )?;
        }
        map.topology = Arc::new(Topology::new(width, height, &links));
        Ok(map)
    }

    /// The index of (x, y) in [`Map::squares`], `y * width + x` (not checked against the board).
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// Each square index of `indices` (increasing) with its (x, y), without a division per
    /// square: the rows are counted off as the indices pass them.
    pub(crate) fn coordinates(
        &self,
        indices: impl Iterator<Item = usize>,
    ) -> impl Iterator<Item = (usize, (usize, usize))> {
        // A width of 0 (only by writing the field) leaves every square in row 0.
        let width = if self.width == 0 {
            usize::MAX
        } else {
            self.width
        };
        let (mut row, mut y) = (0, 0);
        indices.map(move |i| {
            while i - row >= width {
                row += width;
                y += 1;
            }
            (i, (i - row, y))
        })
    }

    /// What (x, y) holds. Not checked: off the board it reads another square or panics.
    pub fn square(&self, x: usize, y: usize) -> Square {
        self.squares[self.index(x, y)]
    }

    /// The ordinary neighbour of (x, y) in `dir`, if it is on the board and not a hole.
    pub fn plain_step(&self, x: usize, y: usize, dir: Direction) -> Option<(usize, usize)> {
        let (dx, dy) = dir.offset();
        let nx = x as i64 + dx;
        let ny = y as i64 + dy;
        if nx < 0 || ny < 0 || nx >= self.width as i64 || ny >= self.height as i64 {
            return None;
        }
        let (nx, ny) = (nx as usize, ny as usize);
        (self.square(nx, ny) != Square::Hole).then_some((nx, ny))
    }

    /// One step of a walk: the ordinary neighbour, else through a transition when one starts
    /// here in `dir` (rules file: a transition is used only where the ordinary step would leave
    /// the board or hit a hole). Returns the square reached and the direction to go on in.
    pub fn step(&self, x: usize, y: usize, dir: Direction) -> Option<((usize, usize), Direction)> {
        if let Some(next) = self.plain_step(x, y, dir) {
            return Some((next, dir));
        }
        let (to, on) = unpack(self.topology.link(self.index(x, y), dir.index())?);
        Some((
            (to % self.width, to / self.width),
            Direction::ALL[on as usize],
        ))
    }

    /// `step` on square indices.
    pub fn step_index(&self, index: usize, dir: Direction) -> Option<(usize, Direction)> {
        if index < self.squares.len() && self.topology_fits() {
            let (to, on) = self.topology.step(&self.squares, index, dir.index())?;
            return Some((to, Direction::ALL[on as usize]));
        }
        let ((x, y), on) = self.step(index % self.width, index / self.width, dir)?;
        Some((self.index(x, y), on))
    }

    /// Whether the step table still matches the board: `width`, `height` and `squares` are
    /// public and could have been changed since the map was read.
    pub(crate) fn topology_fits(&self) -> bool {
        self.topology
            .fits(self.width, self.height, self.squares.len())
    }

    /// The step table (see [`Topology`]); only for a map whose table fits
    /// ([`Map::topology_fits`]).
    pub(crate) fn topology(&self) -> &Topology {
        &self.topology
    }

    /// A bomb's work on one square: it becomes a hole and its transitions vanish with it
    /// (rules file, "Phase 2").
    pub fn make_hole(&mut self, index: usize) {
        self.make_holes(&[index]);
    }

    /// [`Map::make_hole`] for every square of a blast at once: linear in the squares and the
    /// transitions, where one square at a time cost squares x transitions.
    pub fn make_holes(&mut self, indices: &[usize]) {
        let mut holed = vec![false; self.squares.len()];
        for &index in indices {
            self.squares[index] = Square::Hole;
            holed[index] = true;
        }
        // Most blasts touch no transition: the table shared with other copies stays as it is.
        if indices.iter().any(|&i| self.topology.has_link_at(i)) {
            Arc::make_mut(&mut self.topology).remove_links_of(&holed);
        }
        let width = self.width;
        self.transitions
            .retain(|t| !holed[t.from.1 * width + t.from.0] && !holed[t.to.1 * width + t.to.0]);
    }

    /// The map in the map-file format (rules file, "Map file"): the header as loaded, the
    /// squares and transitions as they are now. `Map::parse` reads it back to an equal map, so
    /// bots receive positions as text every course tool can read.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{}\n{}\n{} {}\n{} {}\n",
            self.players, self.overrides, self.bombs, self.bomb_strength, self.height, self.width
        );
        for row in self.squares.chunks(self.width) {
            let tokens: Vec<String> = row.iter().map(|s| s.token().to_string()).collect();
            out.push_str(&tokens.join(" "));
            out.push('\n');
        }
        for t in &self.transitions {
            out.push_str(&format!(
                "{} {} {} <-> {} {} {}\n",
                t.from.0, t.from.1, t.from_dir, t.to.0, t.to.1, t.to_dir
            ));
        }
        out
    }

    /// Stones per player (index 0 is player 1).
    pub fn stones(&self) -> Vec<usize> {
        (1..=self.players)
            .map(|p| {
                self.squares
                    .iter()
                    .filter(|&&s| s == Square::Stone(p))
                    .count()
            })
            .collect()
    }

    /// How many squares hold `square` (e.g. the bonus squares left).
    pub fn count(&self, square: Square) -> usize {
        self.squares.iter().filter(|&&s| s == square).count()
    }

    fn transition_end(
        &mut self,
        t: &[Token],
        lenient: bool,
    ) -> Result<((usize, usize), Direction), MapError> {
        let number = |tok: &Token, what: &str, below: usize| -> Result<usize, MapError> {
            match tok.text.parse::<usize>() {
                Ok(v) if v < below => Ok(v),
                _ => fail(
                    tok.line,
                    tok.column,
                    format!(
                        "bad transition coordinates: {what} must be 0 to {}, found `{}`",
                        below - 1,
                        tok.text
                    ),
                ),
            }
        };
        let x = number(&t[0], "x", self.width)?;
        let y = number(&t[1], "y", self.height)?;
        let r = number(&t[2], "the direction", 8)?;
        let dir = Direction::new(r as u8).expect("checked above");
        if self.square(x, y) == Square::Hole {
            return fail(
                t[0].line,
                t[0].column,
                format!("transition end ({x},{y}) is a hole"),
            );
        }
        if let Some((nx, ny)) = self.plain_step(x, y, dir) {
            let problem = format!(
                "transition end ({x},{y}) direction {dir} leads onto the board at ({nx},{ny}); an end must face the edge or a hole"
            );
            if !lenient {
                return fail(t[0].line, t[0].column, problem);
            }
            // The course's own initialMaps/scope.map has such an end: since a transition is
            // only used where the ordinary step leaves the board or hits a hole (rules file,
            // "Map file"), it can never be entered from there; keep the map, say so.
            self.inert_ends.push(MapError {
                line: t[0].line,
                column: t[0].column,
                problem: problem.replace(
                    "an end must face",
                    "never used from there: an end should face",
                ),
            });
        }
        Ok(((x, y), dir))
    }

    fn add_transition(
        &mut self,
        t: Transition,
        links: &mut HashMap<(usize, Direction), (usize, Direction)>,
    ) -> Result<(), MapError> {
        let a = (self.index(t.from.0, t.from.1), t.from_dir);
        let b = (self.index(t.to.0, t.to.1), t.to_dir);
        for end in [a, b] {
            if links.contains_key(&end) {
                let earlier = self
                    .transitions
                    .iter()
                    .find(|e| {
                        let ea = (self.index(e.from.0, e.from.1), e.from_dir);
                        let eb = (self.index(e.to.0, e.to.1), e.to_dir);
                        ea == end || eb == end
                    })
                    .map(|e| e.line)
                    .unwrap_or(0);
                return fail(
                    t.line,
                    1,
                    format!(
                        "transition end ({},{}) direction {} is already used by the transition on line {earlier}",
                        end.0 % self.width,
                        end.0 / self.width,
                        end.1
                    ),
                );
            }
        }
        links.insert(a, (b.0, b.1.reverse()));
        links.insert(b, (a.0, a.1.reverse()));
        self.transitions.push(t);
        Ok(())
    }
}
