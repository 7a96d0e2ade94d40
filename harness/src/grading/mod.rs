//! Grading: standings (ratings from `crate::ratings::bradley_terry`) and the report files of a
//! tournament.

pub mod game_pages;
pub mod html;
pub mod report;
pub mod standings;
pub mod versions;
