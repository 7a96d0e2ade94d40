//! The course servers' TCP connections, spoken byte for byte so a course's own clients and
//! servers can meet Agon's: the lobby and announcements of `agon reversixt serve` and the
//! client of `agon reversixt connect`. The messages themselves are the game's
//! (`agon_games::reversixt::course_wire`). The seat a remote client
//! plays is a host, [`crate::host::RemoteSeat`].

pub mod announcer;
pub mod client;
pub mod deadline_io;
pub mod lobby;
