//! The course portal (`agon portal`): the ladder and a web server in one process. Teams upload
//! builds with their token, the ladder validates and plays them as any build in its folder,
//! and the pages show each build's verdict, rating and games.
//!
//! | file | role |
//! |---|---|
//! | `folder.rs` | the portal's folder: the ladder's, the database, uploads in progress |
//! | `team_name.rs` | a team's name: an id that names its slot, never a path |
//! | `token.rs` | team tokens: random, kept as keyed hashes, compared in constant time |
//! | `store.rs` | the database: teams, builds and their verdicts, upload attempts |
//! | `follow.rs` | what the ladder's events and journal say, into the database and memory |
//! | `limits.rs` | upload size, uploads per hour, uploads at once |
//! | `receive.rs` | an uploaded file streamed to disk, hashed, bounded |
//! | `body_gate.rs` | a body that lets only a few bytes through before the token is checked |
//! | `drain.rs` | the rest of a refused upload read before the answer, bounded |
//! | `upload.rs` | one upload from token to slot |
//! | `auth.rs` | which team a request may act for |
//! | `refusal.rs` | why a request was refused: status and sentence |
//! | `team_view.rs`, `verdict.rs` | a team as its page and the API show it |
//! | `web.rs`, `api.rs` | the pages and the JSON API |
//! | `csp.rs` | the security headers, the pages' Content-Security-Policy |
//! | `routes.rs` | every address, with its body limit and timeout |
//! | `http_server.rs` | the connections: header timeout, bounded, graceful end |
//! | `run.rs` | the ladder, the follower and the server, started and stopped together |

mod api;
mod auth;
mod body_gate;
mod csp;
mod drain;
mod folder;
mod follow;
mod http_server;
#[cfg(test)]
mod lifecycle_tests;
mod limits;
mod receive;
mod refusal;
mod routes;
mod run;
mod state;
mod store;
mod team_name;
mod team_view;
mod token;
mod upload;
mod verdict;
mod web;

pub use folder::PortalFolder;
pub use limits::LimitSettings;
pub use run::{run, PortalSettings};
pub use store::Store;
pub use team_name::TeamName;
pub use token::{new_token, TokenKey};
