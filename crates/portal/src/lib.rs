//! `agon-portal`, the course portal (`agon portal`): the ladder and a web server in one process. Teams upload
//! builds with their token, the ladder validates and plays them as any build in its folder,
//! and the pages show each build's verdict, rating and games.
//!
//! | file | role |
//! |---|---|
//! | `folder.rs` | the portal's folder: the ladder's, the database, uploads in progress, its own cache; its owner's alone |
//! | `team_name.rs` | a team's name: an id that names its slot, never a path |
//! | `token.rs` | team tokens: random, kept as keyed hashes, compared in constant time; signatures |
//! | `session.rs` | a browser's signed session cookie and its forms' CSRF token |
//! | `store.rs` | the database: teams, builds and their verdicts, upload attempts |
//! | `follow.rs` | what the ladder's events and journal say, into the database and memory |
//! | `limits.rs` | upload size, uploads per hour, uploads at once |
//! | `receive.rs` | an uploaded file streamed to disk, hashed, bounded |
//! | `body_budget.rs` | the bytes of an upload's body other than its file, bounded |
//! | `drain.rs` | the rest of a refused upload read before the answer, bounded |
//! | `upload.rs` | one upload from its body to the slot |
//! | `auth.rs` | which team a request acts for (token or session), checked before any body |
//! | `signin.rs` | signing in and out in a browser |
//! | `refusal.rs` | why a request was refused: status and sentence |
//! | `scrub.rs` | what a client is told names no place on the server |
//! | `team_view.rs`, `verdict.rs` | a team as anyone, and as the team itself, sees it |
//! | `web.rs`, `api.rs` | the pages and the JSON API |
//! | `csp.rs` | the security headers of every answer, the pages' Content-Security-Policy |
//! | `routes.rs` | every address, with its body limit, timeout and concurrency |
//! | `connections.rs` | connections per client and in all, strangers' fewer, a newcomer's place |
//! | `http_server.rs` | the connections: buffers, header timeout, life, graceful end |
//! | `secured_io.rs` | hyper's own error answers given the security headers |
//! | `tls.rs` | HTTPS, its certificate read again on SIGHUP |
//! | `run.rs` | the ladder, the follower and the server, started and stopped together |

mod api;
mod auth;
mod body_budget;
mod connections;
mod csp;
mod drain;
mod error;
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
mod scrub;
mod secured_io;
mod session;
mod signin;
mod state;
mod store;
mod store_error;
mod team_name;
mod team_view;
mod tls;
mod token;
mod upload;
mod verdict;
mod web;

pub use connections::ConnectionLimits;
pub use error::PortalError;
pub use folder::PortalFolder;
pub use limits::LimitSettings;
pub use run::{run, PortalSettings};
pub use store::Store;
pub use store_error::StoreError;
pub use team_name::{BadTeamName, TeamName};
pub use tls::TlsError;
pub use token::{new_token, KeyError, NoRandomness, TokenKey};
