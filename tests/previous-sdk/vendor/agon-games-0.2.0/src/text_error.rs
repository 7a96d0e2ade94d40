/// Why a text (a puzzle, a board, a map) is not what it should be: where, and what was
/// expected. Lines and columns count from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct TextError {
    /// The line of the offending spot, from 1.
    pub line: usize,
    /// The column (in characters) of the offending spot, from 1.
    pub column: usize,
    /// What is wrong there, or what was expected instead, in words.
    pub problem: String,
}
