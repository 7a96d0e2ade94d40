/// What a square of a ReversiXT map holds (rules file, "Map file" and "Squares").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Square {
    /// `0`
    Empty,
    /// `-`: not part of the board.
    Hole,
    /// `c`: the mover trades all stones with a player it names.
    Choice,
    /// `i`: every player's stones pass to the next player.
    Inversion,
    /// `b`: the mover takes a bomb or an override stone.
    Bonus,
    /// `x`: an opponent stone for every player.
    Expansion,
    /// `1`..`8`: a player's stone.
    Stone(u8),
}

impl Square {
    /// The square a map token names, if any.
    pub fn from_token(token: &str) -> Option<Square> {
        Some(match token {
            "0" => Square::Empty,
            "-" => Square::Hole,
            "c" => Square::Choice,
            "i" => Square::Inversion,
            "b" => Square::Bonus,
            "x" => Square::Expansion,
            _ => match token.as_bytes() {
                [d @ b'1'..=b'8'] => Square::Stone(d - b'0'),
                _ => return None,
            },
        })
    }

    /// The map token that names this square (the inverse of [`Square::from_token`]).
    pub fn token(self) -> char {
        match self {
            Square::Empty => '0',
            Square::Hole => '-',
            Square::Choice => 'c',
            Square::Inversion => 'i',
            Square::Bonus => 'b',
            Square::Expansion => 'x',
            Square::Stone(p) => (b'0' + p) as char,
        }
    }
}
