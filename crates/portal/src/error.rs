//! Why a portal did not start or stopped: its certificate, its database or its key, the web
//! server's runtime or address, or the ladder under it.

use crate::tls::TlsError;
use crate::token::KeyError;
use crate::StoreError;
use agon_ladder::LadderError;

#[derive(Debug, thiserror::Error)]
pub enum PortalError {
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The key that signs sign-in tokens.
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the web server's runtime: {0}")]
    Runtime(#[source] std::io::Error),
    #[error("cannot listen on {address}: {source}")]
    Listen {
        address: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Ladder(#[from] LadderError),
}
