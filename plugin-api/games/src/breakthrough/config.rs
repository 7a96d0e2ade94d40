use super::Side;
use crate::contract::{ParamError, ParamReader, RawParams};
use serde::{Deserialize, Serialize};

/// The parameters of one Breakthrough game (rules file, "Board and pieces" and "Winning").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Config {
    /// Rows of the board, at least 4 (two home rows per side); row 0 is White's back row.
    pub rows: u8,
    /// Columns of the board, 2 to 26 (lettered `a` to `z`); `rows * cols` is at most 64.
    pub cols: u8,
    /// Who moves first; the rules file's default is White ("Board and pieces").
    pub first: Side,
    /// The extended rule "workers to base"; 1 is the standard rule ("Winning").
    pub workers_to_base: u8,
    /// Total plies after which the game is a draw; off by default ("Winning"). The rules file
    /// does not say whether a "move" is one player's move or a pair; Agon counts plies.
    pub move_limit: Option<u32>,
}

impl Default for Config {
    fn default() -> Self {
        Config::STANDARD
    }
}

impl Config {
    /// 8 x 8, White first, one worker to base, no move limit (rules file, "Board and pieces").
    pub const STANDARD: Config = Config {
        rows: 8,
        cols: 8,
        first: Side::White,
        workers_to_base: 1,
        move_limit: None,
    };

    /// Checks a configuration: two home rows per side that do not meet, at most 64 squares (the
    /// bitboard), at most 26 columns (the notation), and a reachable `workers_to_base`.
    pub fn validated(self) -> Result<Config, ParamError> {
        let bad = |detail: String| Err(ParamError::Inconsistent { detail });
        if self.rows < 4 {
            return bad(format!(
                "rows = {}: each side fills two home rows, so a board needs at least 4 rows",
                self.rows
            ));
        }
        if self.cols < 2 || self.cols > 26 {
            return bad(format!("cols = {}: expected 2 to 26 columns", self.cols));
        }
        if self.rows as u32 * self.cols as u32 > 64 {
            return bad(format!(
                "rows x cols = {} x {}: Agon's Breakthrough supports boards of at most 64 squares",
                self.rows, self.cols
            ));
        }
        // At most `cols` workers fit on the opponent's home row.
        if self.workers_to_base == 0 || self.workers_to_base > self.cols {
            return bad(format!(
                "workers_to_base = {}: expected 1 to {} (the squares of the opponent's home row)",
                self.workers_to_base, self.cols
            ));
        }
        Ok(self)
    }

    /// Parses `rows`, `cols`, `first`, `workers_to_base` and `move_limit`; unknown keys are
    /// refused so a misspelt parameter cannot silently play the default game.
    pub fn from_params(raw: &RawParams) -> Result<Config, ParamError> {
        let mut reader = ParamReader::new(raw);
        let d = Config::STANDARD;
        let rows = reader.get("rows", "a number of rows (4 to 32)", d.rows)?;
        let cols = reader.get("cols", "a number of columns (2 to 26)", d.cols)?;
        let first = reader.get("first", "`white` or `black`", d.first)?;
        let workers_to_base = reader.get(
            "workers_to_base",
            "a number of workers (1 = standard rule)",
            d.workers_to_base,
        )?;
        let move_limit = reader.get_optional("move_limit", "a number of plies, or `off`")?;
        reader.finish()?;
        Config {
            rows,
            cols,
            first,
            workers_to_base,
            move_limit,
        }
        .validated()
    }

    /// The configuration as parameters with every key present, as records store it.
    pub fn to_params(&self) -> RawParams {
        let mut p = RawParams::new();
        p.insert("rows".into(), self.rows.to_string());
        p.insert("cols".into(), self.cols.to_string());
        p.insert("first".into(), self.first.to_string());
        p.insert("workers_to_base".into(), self.workers_to_base.to_string());
        p.insert(
            "move_limit".into(),
            self.move_limit
                .map_or_else(|| "off".to_string(), |m| m.to_string()),
        );
        p
    }

    /// The number of squares, `rows * cols`.
    pub fn squares(&self) -> u32 {
        self.rows as u32 * self.cols as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::contract::raw_params as params;

    #[test]
    fn defaults_are_the_standard_game() {
        assert_eq!(Config::from_params(&RawParams::new()), Ok(Config::STANDARD));
    }

    #[test]
    fn extended_boards_parse() {
        let c = Config::from_params(&params(&[
            ("rows", "5"),
            ("cols", "10"),
            ("workers_to_base", "3"),
            ("first", "black"),
            ("move_limit", "200"),
        ]))
        .unwrap();
        assert_eq!((c.rows, c.cols, c.workers_to_base), (5, 10, 3));
        assert_eq!(c.first, Side::Black);
        assert_eq!(c.move_limit, Some(200));
        assert_eq!(Config::from_params(&c.to_params()), Ok(c));
    }

    #[test]
    fn bad_parameters_name_the_key() {
        let e = Config::from_params(&params(&[("rows", "eight")])).unwrap_err();
        assert!(e.to_string().contains("`rows`"), "{e}");
        let e = Config::from_params(&params(&[("colums", "8")])).unwrap_err();
        assert!(e.to_string().contains("unknown parameter `colums`"), "{e}");
        let e = Config::from_params(&params(&[("rows", "9"), ("cols", "9")])).unwrap_err();
        assert!(e.to_string().contains("64 squares"), "{e}");
        let e = Config::from_params(&params(&[("rows", "3")])).unwrap_err();
        assert!(e.to_string().contains("at least 4 rows"), "{e}");
        let e = Config::from_params(&params(&[("workers_to_base", "9")])).unwrap_err();
        assert!(e.to_string().contains("workers_to_base"), "{e}");
    }
}
