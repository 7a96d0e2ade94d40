//! Grading: standings (ratings from `agon_play::standings::bradley_terry`) and the report files of a
//! tournament.

pub mod entrant_build;
pub mod fault_groups;
pub mod game_pages;
pub mod grade;
pub mod html;
pub mod load;
pub mod report;
pub mod versions;
