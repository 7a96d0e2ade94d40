//! `agon-play`: what every mode that plays games shares, whatever schedules them (a tournament's
//! plan, a ladder's pairings, the portal's ladder): how a game is played ([`match_profile`],
//! [`game_runner`], [`worker_pool`], [`stop`]), how many at once ([`admission`]), what it leaves ([`journal`], [`json_lines`],
//! [`record_files`]), how results count ([`standings`]), how builds are swapped in while a mode
//! runs ([`swap`]), and
//! the pages and viewer staff and teams read ([`pages`], [`view`], [`charts`]); with the
//! console output and exit guard every command of `agon` runs under ([`console`],
//! [`exit_guard`]).

pub mod admission;
pub mod charts;
pub mod console;
pub mod exit_guard;
pub mod game_runner;
pub mod journal;
pub mod json_lines;
pub mod match_profile;
pub mod pages;
pub mod record_files;
pub mod standings;
pub mod stop;
pub mod swap;
pub mod view;
pub mod worker_pool;
