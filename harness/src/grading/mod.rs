//! Grading: standings, ratings and the report files of a tournament.

pub mod ratings;
pub mod report;
pub mod standings;
pub mod svg;
pub mod versions;
