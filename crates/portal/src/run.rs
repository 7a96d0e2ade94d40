//! `agon portal`: the ladder, the follower of its files and the web server, started together
//! and stopped together. The ladder runs as `agon ladder` would (its own threads, its own stop
//! signals); when it ends, the server finishes its requests in flight and ends too. SIGHUP
//! reads the TLS certificate again.

use super::connections::{ConnectionLimits, Table};
use super::folder::PortalFolder;
use super::follow::Follower;
use super::http_server::{serve, Server};
use super::limits::{LimitSettings, UploadLimits};
use super::receive::clear_incoming;
use super::routes::router;
use super::state::Portal;
use super::store::Store;
use super::team_name::TeamName;
use super::tls::Tls;
use super::token::TokenKey;
use crate::{PortalError, StoreError};
use agon_ladder::events::unix_ms;
use agon_ladder::run::{run as run_ladder, LadderOptions, Summary};
use std::path::PathBuf;
use std::sync::Arc;

pub struct PortalSettings {
    pub listen: String,
    pub limits: LimitSettings,
    pub connections: ConnectionLimits,
    /// The certificate (chain) and private key to serve HTTPS with, as PEM files.
    pub tls: Option<(PathBuf, PathBuf)>,
}

pub fn run(
    folder: PortalFolder,
    mut ladder: LadderOptions,
    settings: PortalSettings,
) -> Result<Summary, PortalError> {
    let tls = match &settings.tls {
        Some((cert, key)) => Some(Arc::new(Tls::load(cert, key)?)),
        None => None,
    };
    let store = Store::open(&folder.database())?;
    let key = TokenKey::load_or_create(&folder.key())?;
    clear_incoming(&folder.incoming());
    let portal = Arc::new(Portal {
        folder,
        store,
        key,
        news: Default::default(),
        limits: UploadLimits::new(settings.limits),
        game: ladder.game.clone(),
        secure_cookies: tls.is_some(),
    });
    let mut follower = Follower::new(&portal.folder.ladder(), &portal.store)?;
    follower.poll(&portal.store, &portal.news);
    settle_unfinished(&portal)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(PortalError::Runtime)?;
    let cannot_listen = |source| PortalError::Listen {
        address: settings.listen.clone(),
        source,
    };
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(&settings.listen))
        .map_err(cannot_listen)?;
    let address = listener.local_addr().map_err(cannot_listen)?;
    agon_play::console::outln!(
        "agon portal: {}://{address}/ ({}; folder {})",
        if tls.is_some() { "https" } else { "http" },
        portal.game,
        portal.folder.root().display()
    );
    runtime.spawn(reload_on_hangup(tls.clone()));
    let (stop_server, stopped) = tokio::sync::watch::channel(false);
    let server = Server {
        app: router(portal.clone()),
        table: Table::new(settings.connections),
        tls,
    };
    let server = runtime.spawn(serve(listener, server, stopped));
    // The follower reads the ladder's files when the ladder says it wrote to them, and at
    // no other time: an idle portal does nothing.
    let (written, news) = crossbeam_channel::bounded(1);
    ladder.written = Some(written);
    let follower = {
        let portal = portal.clone();
        std::thread::spawn(move || {
            for () in news {
                follower.poll(&portal.store, &portal.news);
            }
            follower.poll(&portal.store, &portal.news);
        })
    };
    let summary = run_ladder(&ladder).map_err(PortalError::from);
    drop(ladder); // the follower's channel closes: it reads what is left and ends
    let _ = stop_server.send(true);
    let _ = runtime.block_on(server);
    let _ = follower.join();
    summary
}

/// Builds still validating when the portal starts: see `Store::settle_unfinished`.
fn settle_unfinished(portal: &Portal) -> Result<(), StoreError> {
    let in_slot = |team: &str| {
        let path = portal
            .folder
            .builds()
            .join(TeamName::parse(team).ok()?.slot());
        let bytes = std::fs::read(&path).ok()?;
        let inode = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&path).ok()?);
        Some((agon_engine::loader::sha256_hex(&bytes), inode))
    };
    portal.store.settle_unfinished(&in_slot, unix_ms())
}

/// SIGHUP: the certificate is read again (a renewal is taken without a restart).
async fn reload_on_hangup(tls: Option<Arc<Tls>>) {
    use tokio::signal::unix::{signal, SignalKind};
    let mut hangups = match signal(SignalKind::hangup()) {
        Ok(hangups) => hangups,
        Err(e) => {
            log::warn!("portal: SIGHUP cannot be caught ({e}): the certificate is not reloaded");
            return;
        }
    };
    while hangups.recv().await.is_some() {
        match &tls {
            None => log::info!("portal: SIGHUP: no --tls-cert to read again"),
            Some(tls) => match tls.reload() {
                Ok(()) => log::info!("portal: SIGHUP: the TLS certificate was read again"),
                Err(e) => log::error!("portal: SIGHUP: {e}; the old certificate stays"),
            },
        }
    }
}
