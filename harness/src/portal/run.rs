//! `agon portal`: the ladder, the follower of its files and the web server, started together
//! and stopped together. The ladder runs as `agon ladder` would (its own threads, its own stop
//! signals); when it ends, the server finishes its requests in flight and ends too.

use super::folder::PortalFolder;
use super::follow::Follower;
use super::http_server::serve;
use super::limits::{LimitSettings, UploadLimits};
use super::receive::clear_incoming;
use super::routes::router;
use super::state::Portal;
use super::store::{BuildStatus, Store, Verdict};
use super::team_name::TeamName;
use super::token::TokenKey;
use crate::ladder::events::unix_ms;
use crate::ladder::run::{run as run_ladder, LadderOptions, Summary};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the follower looks at the ladder's files.
const FOLLOW_EVERY: Duration = Duration::from_millis(100);

pub struct PortalSettings {
    pub listen: String,
    pub limits: LimitSettings,
}

pub fn run(
    folder: PortalFolder,
    ladder: &LadderOptions,
    settings: PortalSettings,
) -> Result<Summary, String> {
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
    });
    let mut follower = Follower::new(&portal.folder.ladder(), &portal.store)?;
    follower.poll(&portal.store, &portal.news);
    settle_unfinished(&portal)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("the web server's runtime: {e}"))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(&settings.listen))
        .map_err(|e| format!("cannot listen on {}: {e}", settings.listen))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {}: {e}", settings.listen))?;
    crate::console::outln!(
        "agon portal: http://{address}/ ({}; folder {})",
        portal.game,
        portal.folder.root().display()
    );
    let (stop_server, stopped) = tokio::sync::watch::channel(false);
    let server = runtime.spawn(serve(listener, router(portal.clone()), stopped));
    let following = Arc::new(AtomicBool::new(true));
    let follower = {
        let (portal, following) = (portal.clone(), following.clone());
        std::thread::spawn(move || {
            while following.load(Ordering::Relaxed) {
                follower.poll(&portal.store, &portal.news);
                std::thread::sleep(FOLLOW_EVERY);
            }
            follower.poll(&portal.store, &portal.news);
        })
    };
    let summary = run_ladder(ladder);
    let _ = stop_server.send(true);
    let _ = runtime.block_on(server);
    following.store(false, Ordering::Relaxed);
    let _ = follower.join();
    summary
}

/// Builds still validating when the portal starts: those whose content is in the team's slot
/// are validated by the ladder as it starts; the others never reached it (a newer upload
/// replaced them, or the portal stopped between keeping one and handing it over).
fn settle_unfinished(portal: &Portal) -> Result<(), String> {
    let unfinished = portal.store.validating()?;
    for (team, number, sha256) in &unfinished {
        let Some(name) = TeamName::of_slot(&format!("{team}.so")) else {
            continue;
        };
        let in_slot = std::fs::read(portal.folder.builds().join(name.slot()))
            .map(|bytes| agon_engine::loader::sha256_hex(&bytes));
        if in_slot.as_deref().is_ok_and(|sha| sha == sha256) {
            continue;
        }
        let newer = unfinished.iter().any(|(t, n, _)| t == team && n > number)
            || portal
                .store
                .builds(team)?
                .first()
                .is_some_and(|b| b.number > *number);
        let (status, message) = if newer {
            (
                BuildStatus::Superseded,
                "a newer upload replaced it before the ladder took it",
            )
        } else {
            (
                BuildStatus::Lost,
                "the portal stopped before handing it to the ladder; upload it again",
            )
        };
        let verdict = Verdict {
            sha256,
            status,
            version: None,
            message,
            at_ms: unix_ms(),
        };
        portal.store.mark(team, *number, &verdict)?;
    }
    Ok(())
}
