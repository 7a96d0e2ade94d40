/// Why a text (a puzzle, a board, a map) is not what it should be: where, and what was
/// expected. Lines and columns count from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct TextError {
    pub line: usize,
    pub column: usize,
    pub problem: String,
}
