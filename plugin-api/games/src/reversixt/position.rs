use super::board_targets::BoardTargets;
use super::square_set::SquareSet;
use super::targets::TargetSearch;
use super::{Direction, Map, Square};

/// The phase of a game (rules file, "Phase 1", "Phase 2").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Phase 1: stones are placed, capturing lines (rules file, "Phase 1 (building)").
    Building,
    /// Phase 2: bombs are thrown (rules file, "Phase 2 (bombing)").
    Bombing,
    /// The game has ended: nobody can throw a bomb, or one active player is left.
    Over,
}

/// A move: the square and the special value (rules file, "Effects"): 0 for plain, inversion,
/// override and bomb moves, the named player on a choice square, 20 (bomb) or 21 (override
/// stone) on a bonus square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// The target square's column, from 0 at the left.
    pub x: usize,
    /// The target square's row, from 0 at the top.
    pub y: usize,
    /// The special value: 0, a player number 1 to 8, [`BONUS_BOMB`] or [`BONUS_OVERRIDE`].
    pub special: u8,
}

/// The bonus choices (rules file, "Effects"): the special value that takes a bomb on a bonus
/// square.
pub const BONUS_BOMB: u8 = 20;
/// The special value that takes an override stone on a bonus square (rules file, "Effects").
pub const BONUS_OVERRIDE: u8 = 21;

/// Why a move is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The target (x, y) is outside the map's rectangle.
    #[error("({0},{1}) is off the board")]
    OffBoard(usize, usize),
    /// The target (x, y) is a hole: no stone or bomb can go there.
    #[error("({0},{1}) is a hole")]
    Hole(usize, usize),
    /// Another player is to move; holds that player's number.
    #[error("it is player {0}'s turn")]
    NotYourTurn(u8),
    /// The game has ended.
    #[error("the game is over")]
    Over,
    /// A phase-1 stone on (x, y) would turn no line (only taking an `x` with an override stone
    /// may turn nothing).
    #[error("({0},{1}) captures nothing")]
    NoCapture(usize, usize),
    /// The target (x, y) holds a stone or `x`, which costs an override stone, and the player
    /// (the third value) has none left.
    #[error("({0},{1}) needs an override stone and player {2} has none")]
    NoOverride(usize, usize, u8),
    /// A phase-2 move by a player without bombs; holds the player's number.
    #[error("player {0} has no bomb")]
    NoBomb(u8),
    /// The special value does not fit the square (rules file, "Effects").
    #[error("special value {special} is not allowed here: {expected}")]
    Special {
        /// The special value given.
        special: u8,
        /// What the square takes, in words.
        expected: String,
    },
}

/// A ReversiXT game in progress: the board (a map whose squares and transitions change), each
/// player's override stones and bombs, who is disqualified, the phase and the player to move.
#[derive(Debug, Clone)]
pub struct Position {
    /// The board as it stands: squares, stones and the transitions bombs left.
    pub map: Map,
    /// Per player, index 0 is player 1: the override stones left.
    pub overrides: Vec<u32>,
    /// Per player, index 0 is player 1: the bombs left.
    pub bombs: Vec<u32>,
    /// Per player, index 0 is player 1: whether the player is out (its stones stay; rules
    /// file, "Result").
    pub disqualified: Vec<bool>,
    /// The phase in progress.
    pub phase: Phase,
    /// The player to move, 1-based (player numbers as on the board); stale once the phase is
    /// [`Phase::Over`].
    pub to_move: u8,
    last_building_mover: Option<u8>,
}

impl Position {
    /// The start of a game on `map`: player 1 to move in phase 1, or the first player able to.
    pub fn new(map: Map) -> Position {
        let n = map.players as usize;
        let mut position = Position {
            overrides: vec![map.overrides; n],
            bombs: vec![map.bombs; n],
            disqualified: vec![false; n],
            phase: Phase::Building,
            to_move: map.players,
            last_building_mover: None,
            map,
        };
        position.advance();
        position
    }

    /// A position as an observer reports it (a bot rebuilding the engine's state): `to_move`
    /// must be active and able to move in `phase`. Who built last is unknown, which only matters
    /// for who bombs first, and a player to move in phase 1 builds before that is decided.
    pub fn resume(
        map: Map,
        overrides: Vec<u32>,
        bombs: Vec<u32>,
        disqualified: Vec<bool>,
        phase: Phase,
        to_move: u8,
    ) -> Position {
        Position {
            map,
            overrides,
            bombs,
            disqualified,
            phase,
            to_move,
            last_building_mover: None,
        }
    }

    /// The number of players, disqualified ones included.
    pub fn players(&self) -> u8 {
        self.map.players
    }

    fn active(&self, p: u8) -> bool {
        !self.disqualified[p as usize - 1]
    }

    /// Walks from `target` in direction `dir` for a stone of `player`, handing each square
    /// passed (another player's stone or an expansion stone) to `passed`; true when the walk
    /// then reaches one of the mover's own stones, so those squares turn. It breaks at an empty
    /// or special square, at an edge or hole with no transition, and on returning to the target
    /// (rules file, "Phase 1").
    fn walk(
        &self,
        player: u8,
        target: usize,
        dir: Direction,
        mut passed: impl FnMut(usize),
    ) -> bool {
        let (mut at, mut heading) = (target, dir);
        // Walks are reversible, so every loop returns to the target; the bound only guards
        // against a map this reasoning missed.
        for _ in 0..=self.map.squares.len() * 8 {
            let Some((next, on)) = self.map.step_index(at, heading) else {
                return false;
            };
            if next == target {
                return false;
            }
            match self.map.squares[next] {
                Square::Stone(q) if q == player => return true,
                Square::Stone(_) | Square::Expansion => passed(next),
                _ => return false,
            }
            at = next;
            heading = on;
        }
        false
    }

    /// The squares a stone of `player` on `target` would turn in direction `dir`.
    fn line(&self, player: u8, target: usize, dir: Direction) -> Vec<usize> {
        let mut passed = Vec::new();
        if self.walk(player, target, dir, |t| passed.push(t)) {
            passed
        } else {
            Vec::new()
        }
    }

    /// Whether the line in direction `dir` turns anything, without collecting the squares.
    fn line_turns_any(&self, player: u8, target: usize, dir: Direction) -> bool {
        let mut any = false;
        self.walk(player, target, dir, |_| any = true) && any
    }

    /// Every square a phase-1 stone of `player` on `target` turns (the target excluded).
    pub fn captures(&self, player: u8, target: usize) -> Vec<usize> {
        let mut all: Vec<usize> = Direction::ALL
            .iter()
            .flat_map(|&d| self.line(player, target, d))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// Whether a phase-1 stone of `player` on `target` turns at least one square.
    pub fn turns_any(&self, player: u8, target: usize) -> bool {
        Direction::ALL
            .iter()
            .any(|&d| self.line_turns_any(player, target, d))
    }

    /// Whether `player` may put a stone on `target` in phase 1, regardless of the special value.
    pub fn can_build(&self, player: u8, target: usize) -> bool {
        match self.map.squares[target] {
            Square::Hole => false,
            Square::Empty | Square::Choice | Square::Inversion | Square::Bonus => {
                self.turns_any(player, target)
            }
            // Override moves (rules file, "Phase 1"): an expansion stone may be taken even
            // when nothing turns.
            Square::Expansion => self.overrides[player as usize - 1] > 0,
            Square::Stone(_) => {
                self.overrides[player as usize - 1] > 0 && self.turns_any(player, target)
            }
        }
    }

    /// The squares `player` may build on now (phase 1).
    pub fn building_targets(&self, player: u8) -> Vec<usize> {
        self.building_target_set(player, false).iter().collect()
    }

    pub(crate) fn has_building_move(&self, player: u8) -> bool {
        self.building_target_set(player, true)
            .iter()
            .next()
            .is_some()
    }

    /// The squares `player` may build on (with `first_only`, at most the first one found):
    /// found from the player's own stones where every step of the board can be walked back
    /// (all of them at once on a board of up to a few thousand squares, else stone by stone),
    /// else by trying every square.
    fn building_target_set(&self, player: u8, first_only: bool) -> SquareSet {
        let squares = &self.map.squares;
        let mut targets = SquareSet::new(squares.len());
        let topology = self.map.topology();
        if self.map.topology_fits() && topology.reversible(squares) {
            let may_override = (player as usize)
                .checked_sub(1)
                .and_then(|p| self.overrides.get(p))
                .is_some_and(|&left| left > 0);
            let board = BoardTargets::new(squares, topology, player, may_override);
            match board {
                Some(board) if !first_only => board.run(&mut targets),
                _ => {
                    TargetSearch::new(squares, topology, player, may_override)
                        .run(&mut targets, first_only);
                }
            }
        } else {
            for t in (0..squares.len()).filter(|&t| self.can_build(player, t)) {
                targets.insert(t);
                if first_only {
                    break;
                }
            }
        }
        targets
    }

    /// Every legal move of the player to move, with each allowed special value.
    pub fn legal_moves(&self) -> Vec<Move> {
        let squares = &self.map.squares;
        let mut moves = Vec::new();
        match self.phase {
            Phase::Over => {}
            Phase::Bombing => {
                let targets = (0..squares.len()).filter(|&t| squares[t] != Square::Hole);
                for (_, (x, y)) in self.map.coordinates(targets) {
                    moves.push(Move { x, y, special: 0 });
                }
            }
            Phase::Building => {
                let targets = self.building_target_set(self.to_move, false);
                moves.reserve(64);
                for (t, (x, y)) in self.map.coordinates(targets.iter()) {
                    let at = |special| Move { x, y, special };
                    match squares[t] {
                        Square::Choice => moves.extend((1..=self.players()).map(at)),
                        Square::Bonus => moves.extend([at(BONUS_BOMB), at(BONUS_OVERRIDE)]),
                        _ => moves.push(at(0)),
                    }
                }
            }
        }
        moves
    }

    /// Plays `m` for the player to move, or says why it is illegal (the position is unchanged
    /// then).
    pub fn play(&mut self, player: u8, m: Move) -> Result<(), IllegalMove> {
        if self.phase == Phase::Over {
            return Err(IllegalMove::Over);
        }
        if player != self.to_move {
            return Err(IllegalMove::NotYourTurn(self.to_move));
        }
        if m.x >= self.map.width || m.y >= self.map.height {
            return Err(IllegalMove::OffBoard(m.x, m.y));
        }
        let target = self.map.index(m.x, m.y);
        let square = self.map.squares[target];
        if square == Square::Hole {
            return Err(IllegalMove::Hole(m.x, m.y));
        }
        let p = player as usize - 1;
        if self.phase == Phase::Bombing {
            expect_special(m.special, 0, "0 for a bomb")?;
            if self.bombs[p] == 0 {
                return Err(IllegalMove::NoBomb(player));
            }
            self.bombs[p] -= 1;
            self.bomb(target);
            self.advance();
            return Ok(());
        }
        let captured = self.captures(player, target);
        let is_override = matches!(square, Square::Stone(_) | Square::Expansion);
        if captured.is_empty() && square != Square::Expansion {
            return Err(IllegalMove::NoCapture(m.x, m.y));
        }
        if is_override && self.overrides[p] == 0 {
            return Err(IllegalMove::NoOverride(m.x, m.y, player));
        }
        match square {
            Square::Choice => {
                if !(1..=self.players()).contains(&m.special) {
                    return Err(IllegalMove::Special {
                        special: m.special,
                        expected: format!(
                            "a player number 1 to {} on a choice square",
                            self.players()
                        ),
                    });
                }
            }
            Square::Bonus => {
                if m.special != BONUS_BOMB && m.special != BONUS_OVERRIDE {
                    return Err(IllegalMove::Special {
                        special: m.special,
                        expected: "20 (bomb) or 21 (override stone) on a bonus square".into(),
                    });
                }
            }
            _ => expect_special(m.special, 0, "0 off choice and bonus squares")?,
        }
        if is_override {
            self.overrides[p] -= 1;
        }
        for t in captured.into_iter().chain([target]) {
            self.map.squares[t] = Square::Stone(player);
        }
        match square {
            Square::Choice if m.special != player => self.swap(player, m.special),
            Square::Inversion => self.invert(),
            Square::Bonus if m.special == BONUS_BOMB => self.bombs[p] += 1,
            Square::Bonus => self.overrides[p] += 1,
            _ => {}
        }
        self.last_building_mover = Some(player);
        self.advance();
        Ok(())
    }

    /// The offender is out; its stones stay (rules file, "Result"). The game goes on.
    pub fn disqualify(&mut self, player: u8) {
        self.disqualified[player as usize - 1] = true;
        if self.phase != Phase::Over && (player == self.to_move || self.only_one_left()) {
            self.advance();
        }
    }

    fn only_one_left(&self) -> bool {
        self.disqualified.iter().filter(|&&d| !d).count() <= 1
    }

    fn swap(&mut self, a: u8, b: u8) {
        for s in &mut self.map.squares {
            match *s {
                Square::Stone(q) if q == a => *s = Square::Stone(b),
                Square::Stone(q) if q == b => *s = Square::Stone(a),
                _ => {}
            }
        }
    }

    fn invert(&mut self) {
        let n = self.players();
        for s in &mut self.map.squares {
            if let Square::Stone(q) = *s {
                *s = Square::Stone(q % n + 1);
            }
        }
    }

    /// Every square within `strength` steps of `target` (8-neighbour steps and transitions,
    /// never through holes) becomes a hole (rules file, "Phase 2").
    fn bomb(&mut self, target: usize) {
        let mut reached = vec![target];
        let mut seen = vec![false; self.map.squares.len()];
        seen[target] = true;
        let mut frontier = vec![target];
        for _ in 0..self.map.bomb_strength {
            if frontier.is_empty() {
                break; // nothing further to reach, however strong the bomb
            }
            let mut next = Vec::new();
            for &at in &frontier {
                for d in Direction::ALL {
                    if let Some((to, _)) = self.map.step_index(at, d) {
                        if !seen[to] {
                            seen[to] = true;
                            next.push(to);
                        }
                    }
                }
            }
            reached.extend(&next);
            frontier = next;
        }
        self.map.make_holes(&reached);
    }

    /// Passes the turn on: to the next active player able to move in this phase, switching to
    /// bombing when nobody can build and ending the game when nobody can bomb or one player is
    /// left (rules file, "Phase 1", "Phase 2").
    fn advance(&mut self) {
        if self.only_one_left() {
            self.phase = Phase::Over;
            return;
        }
        let n = self.players();
        let after = |p: u8, k: u8| (p - 1 + k) % n + 1;
        if self.phase == Phase::Building {
            if let Some(p) = (1..=n)
                .map(|k| after(self.to_move, k))
                .find(|&p| self.active(p) && self.has_building_move(p))
            {
                self.to_move = p;
                return;
            }
            self.phase = Phase::Bombing;
            // Bombing starts with the next player after the last builder (player 1 if none).
            self.to_move = self.last_building_mover.unwrap_or(n);
        }
        // A bomb needs a non-hole square to fall on (rules file, "Phase 2"): once the board is
        // all holes, nobody can throw one.
        let target_left = self.map.squares.iter().any(|&s| s != Square::Hole);
        match (1..=n)
            .map(|k| after(self.to_move, k))
            .find(|&p| target_left && self.active(p) && self.bombs[p as usize - 1] > 0)
        {
            Some(p) => self.to_move = p,
            None => self.phase = Phase::Over,
        }
    }

    /// Ranks by stones, most first, equal counts sharing the better rank (1, 1, 3, ...);
    /// disqualified players rank after everyone else (rules file, "Result"). Index 0 is
    /// player 1.
    pub fn ranks(&self) -> Vec<usize> {
        let stones = self.map.stones();
        let key = |p: usize| (self.disqualified[p], std::cmp::Reverse(stones[p]));
        (0..stones.len())
            .map(|p| 1 + (0..stones.len()).filter(|&q| key(q) < key(p)).count())
            .collect()
    }
}

fn expect_special(special: u8, want: u8, expected: &str) -> Result<(), IllegalMove> {
    if special == want {
        Ok(())
    } else {
        Err(IllegalMove::Special {
            special,
            expected: expected.into(),
        })
    }
}
