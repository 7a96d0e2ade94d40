//! The state of a Flip game and its rules (rules file, "Moves", "Turns", "Score and end").

use super::geometry::{on_table, Point, DIAMETER, EPS, X_LIMIT};
use super::grid::Grid;
use super::{place, Config, PlacementJam};
use serde::{Deserialize, Serialize};

/// One of the two players, numbered as in the rules file ("Table and coins").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// Starts in the right third, attacks toward -x. Seat 0.
    One,
    /// Starts in the left third, attacks toward +x. Seat 1.
    Two,
}

impl Player {
    /// The player's index, also its seat: 0 for player 1, 1 for player 2.
    pub fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// The direction this player attacks in: -1 for player 1, +1 for player 2.
    pub fn forward(self) -> f64 {
        match self {
            Player::One => -1.0,
            Player::Two => 1.0,
        }
    }
}

/// Why a move was skipped (rules file, "Moves": rules 1 to 4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
pub enum Invalid {
    /// Rule 1: the id is not one of the mover's coins.
    #[error("coin {id} does not exist (ids are 0 to {max})")]
    NoSuchCoin {
        /// The id asked for.
        id: u32,
        /// The mover's highest coin id, `n - 1`.
        max: u32,
    },
    /// The destination has a NaN or infinite coordinate.
    #[error("the destination is not a number")]
    NotFinite,
    /// Rule 2: the new centre is not 2 (within [`EPS`]) from the old one.
    #[error("the flip is {distance} long, not exactly one diameter")]
    NotOneDiameter {
        /// The distance from the old centre to the new one.
        distance: f64,
    },
    /// Rule 3: the coin would overlap another coin (touching is allowed).
    #[error("the destination overlaps {owner:?}'s coin {id}")]
    Overlap {
        /// Whose coin is in the way (the mover's own coins count too).
        owner: Player,
        /// That coin's id.
        id: u32,
    },
    /// Rule 4: the coin would not lie fully on the table.
    #[error("the destination is not fully on the table")]
    OffTable,
}

/// One requested move and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveResult {
    /// The coin the move asked for.
    pub id: u32,
    /// The centre it asked to flip that coin to.
    pub to: Point,
    /// `Ok` when the coin moved; otherwise why the move was skipped (the coin stayed).
    pub result: Result<(), Invalid>,
}

/// A player's half-turn: the moves it asked for (beyond the allowed number they are ignored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HalfTurn {
    /// The player who moved.
    pub player: Player,
    /// The turn the half-turn belongs to, from 0.
    pub turn: u32,
    /// The moves within the allowed number, in the order asked and applied.
    pub moves: Vec<MoveResult>,
    /// Requested moves beyond the allowed number, ignored.
    pub ignored: usize,
}

/// How a finished game ended (rules file, "Score and end").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// `None`: a draw.
    pub winner: Option<Player>,
    /// Every coin in the target third after the winner's half-turn.
    pub early: bool,
    /// The recorded (sticky) scores at the end: [player 1, player 2].
    pub scores: [u32; 2],
}

/// A Flip game: both players' coins, the turn, the player to move, the recorded scores and,
/// once over, the outcome. Player 1 moves first; [`Flip::play`] applies a whole half-turn in
/// turn order, [`Flip::move_coin`] one move outside it. A table rebuilt from an observation
/// ([`super::convert::table`]) has the game's turn, player to move and scores too.
#[derive(Debug, Clone)]
pub struct Flip {
    config: Config,
    coins: [Vec<Point>; 2],
    grid: Grid,
    /// [`Flip::count`] per player, kept up to date by [`Flip::move_coin`]: a half-turn moves at
    /// most two coins, so the score needs no scan of all `n`.
    counts: [u32; 2],
    turn: u32,
    to_move: Player,
    /// Recorded (sticky) scores: the running maximum after each own half-turn.
    scores: [u32; 2],
    outcome: Option<Outcome>,
}

impl Flip {
    /// The start of a game: the board drawn from `config.seed` as the course simulator drew it
    /// (rules file, "Initial placement"). Fails when `config.n` coins cannot be placed (see
    /// [`super::PRACTICAL_COINS`]).
    pub fn new(config: Config) -> Result<Flip, PlacementJam> {
        let coins = place(config.n, config.seed)?;
        Ok(Flip::from_positions(config, coins))
    }

    /// A game from given positions (tests and bots that rebuild a state): `coins[0]` are player
    /// 1's, `coins[1]` player 2's, by id; turn 0, player 1 to move, scores 0.
    /// Not checked: coins may overlap or lie off the table, and their count need not be `n`.
    pub fn from_positions(config: Config, coins: [Vec<Point>; 2]) -> Flip {
        let mut grid = Grid::new();
        for player in [Player::One, Player::Two] {
            for (id, &p) in coins[player.index()].iter().enumerate() {
                grid.insert(p, (player, id as u32));
            }
        }
        let counts = [Player::One, Player::Two].map(|player| {
            coins[player.index()]
                .iter()
                .filter(|&&p| Flip::in_target(player, p))
                .count() as u32
        });
        Flip {
            config,
            coins,
            grid,
            counts,
            turn: 0,
            to_move: Player::One,
            scores: [0, 0],
            outcome: None,
        }
    }

    /// A game in progress from given positions, turn, player to move and recorded scores (a
    /// bot rebuilding the state it was sent). Not checked, like [`Flip::from_positions`].
    pub fn resume(
        config: Config,
        coins: [Vec<Point>; 2],
        turn: u32,
        to_move: Player,
        scores: [u32; 2],
    ) -> Flip {
        Flip {
            turn,
            to_move,
            scores,
            ..Flip::from_positions(config, coins)
        }
    }

    /// The game's parameters (coins per player, turn limit, board seed).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// `player`'s coin centres, indexed by coin id.
    pub fn coins(&self, player: Player) -> &[Point] {
        &self.coins[player.index()]
    }

    /// The turn in progress, from 0; a turn is player 1's half-turn then player 2's.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The player whose half-turn is next.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The recorded (sticky) scores, [player 1, player 2]: each player's running maximum of
    /// [`Flip::count`] after its own half-turns ("Score and end").
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Moves the player to move may make now: turn 0 gives player 1 one move ("Turns").
    pub fn moves_allowed(&self) -> usize {
        if self.turn == 0 && self.to_move == Player::One {
            1
        } else {
            2
        }
    }

    /// Whether a coin centre lies in `player`'s target third ("Score and end").
    pub fn in_target(player: Player, p: Point) -> bool {
        match player {
            Player::One => p.x - 1.0 + EPS >= -X_LIMIT && p.x + 1.0 - EPS <= -20.0,
            Player::Two => p.x - 1.0 + EPS >= 20.0 && p.x + 1.0 - EPS <= X_LIMIT,
        }
    }

    /// `player`'s coins in its target third now.
    pub fn count(&self, player: Player) -> u32 {
        self.counts[player.index()]
    }

    /// Why `player` may not move coin `id` to `to` now, if it may not ("Moves").
    pub fn validate(&self, player: Player, id: u32, to: Point) -> Result<(), Invalid> {
        let own = &self.coins[player.index()];
        let Some(&from) = own.get(id as usize) else {
            return Err(Invalid::NoSuchCoin {
                id,
                max: own.len().saturating_sub(1) as u32,
            });
        };
        if !to.is_finite() {
            return Err(Invalid::NotFinite);
        }
        let distance = from.distance(to);
        if (distance - DIAMETER).abs() >= EPS {
            return Err(Invalid::NotOneDiameter { distance });
        }
        if let Some((owner, other)) = self.grid.first_overlap(to, (player, id), &self.coins) {
            return Err(Invalid::Overlap { owner, id: other });
        }
        if !on_table(to) {
            return Err(Invalid::OffTable);
        }
        Ok(())
    }

    /// Moves one coin if the move is valid, outside the turn order (a bot planning its
    /// half-turn on a copy of the table uses this).
    pub fn move_coin(&mut self, player: Player, id: u32, to: Point) -> Result<(), Invalid> {
        self.validate(player, id, to)?;
        let from = self.coins[player.index()][id as usize];
        self.grid.remove(from, (player, id));
        self.grid.insert(to, (player, id));
        self.coins[player.index()][id as usize] = to;
        let count = &mut self.counts[player.index()];
        *count = *count - Flip::in_target(player, from) as u32 + Flip::in_target(player, to) as u32;
        Ok(())
    }

    /// Plays the half-turn of the player to move: at most [`Flip::moves_allowed`] moves, each
    /// validated against the board the previous one left, invalid ones skipped; then the
    /// player's sticky score, an early win (from turn 1 on), and the turn limit.
    pub fn play(&mut self, requested: &[(u32, Point)]) -> HalfTurn {
        let player = self.to_move;
        let allowed = if self.outcome.is_some() {
            0
        } else {
            self.moves_allowed()
        };
        let mut moves = Vec::with_capacity(allowed.min(requested.len()));
        for &(id, to) in requested.iter().take(allowed) {
            let result = self.move_coin(player, id, to);
            moves.push(MoveResult { id, to, result });
        }
        let half = HalfTurn {
            player,
            turn: self.turn,
            moves,
            ignored: requested.len().saturating_sub(allowed),
        };
        if self.outcome.is_some() {
            return half;
        }
        let now = self.count(player);
        let score = &mut self.scores[player.index()];
        *score = (*score).max(now);
        if self.turn >= 1 && *score == self.config.n {
            self.outcome = Some(Outcome {
                winner: Some(player),
                early: true,
                scores: self.scores,
            });
            return half;
        }
        match player {
            Player::One => self.to_move = Player::Two,
            Player::Two => {
                self.to_move = Player::One;
                self.turn += 1;
                if self.turn >= self.config.turns {
                    let [a, b] = self.scores;
                    self.outcome = Some(Outcome {
                        winner: match a.cmp(&b) {
                            std::cmp::Ordering::Greater => Some(Player::One),
                            std::cmp::Ordering::Less => Some(Player::Two),
                            std::cmp::Ordering::Equal => None,
                        },
                        early: false,
                        scores: self.scores,
                    });
                }
            }
        }
        half
    }
}
