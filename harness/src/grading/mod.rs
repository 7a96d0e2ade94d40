//! Grading: standings, ratings and the report files of a tournament.

pub mod game_pages;
pub mod html;
pub mod ratings;
pub mod report;
pub mod standings;
pub mod versions;
