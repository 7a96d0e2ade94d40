//! `agon portal` (the ladder with its web server) and `agon portal team ...` (staff's team
//! commands, on this machine only).

use crate::cli::{PortalArgs, PortalCommand, PortalServeArgs, TeamCommand};
use agon_portal::{
    self, ConnectionLimits, LimitSettings, PortalFolder, PortalSettings, Store, TeamName, TokenKey,
};
use anyhow::{anyhow, bail};
use std::time::Duration;

pub fn run(args: PortalArgs) -> anyhow::Result<()> {
    match args.command {
        Some(PortalCommand::Team(command)) => team(command),
        None => serve(args.serve),
    }
}

fn serve(args: PortalServeArgs) -> anyhow::Result<()> {
    let dir = args
        .dir
        .ok_or_else(|| anyhow!("--dir: name the portal's folder"))?;
    if !(1..=4096).contains(&args.max_upload_mb) {
        bail!(
            "--max-upload-mib {}: expected 1 to 4096 MiB",
            args.max_upload_mb
        );
    }
    if args.uploads_at_once == 0 || args.upload_idle_seconds == 0 {
        bail!("--uploads-at-once and --upload-idle-s: expected at least 1");
    }
    if args.max_connections == 0 || args.max_connections_per_client == 0 {
        bail!("--max-connections and --max-connections-per-client: expected at least 1");
    }
    let tls = match (args.tls_cert, args.tls_key) {
        (Some(cert), Some(key)) => Some((cert, key)),
        (None, None) => None,
        _ => bail!("--tls-cert and --tls-key: give both (HTTPS) or neither (HTTP)"),
    };
    let folder = PortalFolder::open(&dir)?;
    let mut options =
        crate::commands::ladder::options(folder.builds(), folder.ladder(), args.play)?;
    options.hosting.cache = folder.cache();
    options.validation.cache = folder.cache();
    let settings = PortalSettings {
        listen: args.listen,
        limits: LimitSettings {
            max_bytes: args.max_upload_mb << 20,
            per_hour: args.uploads_per_hour,
            at_once: args.uploads_at_once,
            idle: Duration::from_secs(args.upload_idle_seconds),
            ..LimitSettings::default()
        },
        connections: ConnectionLimits {
            total: args.max_connections,
            per_client: args.max_connections_per_client,
            unauthenticated_per_client: args.max_connections_per_client.div_ceil(2),
        },
        tls,
    };
    agon_engine::interrupt::finish_games_in_flight();
    let out = options.out.clone();
    let summary = agon_portal::run(folder, options, settings)?;
    crate::commands::ladder::report(&out, &summary);
    Ok(())
}

fn team(command: TeamCommand) -> anyhow::Result<()> {
    let now = agon_ladder::events::unix_ms();
    match command {
        TeamCommand::Add(args) => {
            let name = TeamName::parse(&args.name)?;
            let folder = PortalFolder::open(&args.portal.dir)?;
            let store = Store::open(&folder.database())?;
            let key = TokenKey::load_or_create(&folder.key())?;
            let token = agon_portal::new_token()?;
            store.add_team(name.as_str(), &key.hash(&token), now)?;
            eprintln!(
                "agon: team `{name}` added; its token, shown this once (the portal keeps only \
                 its hash; `agon portal team revoke {name}` then `team add` makes a new one):"
            );
            agon_play::console::outln!("{token}");
        }
        TeamCommand::List(args) => {
            let folder = PortalFolder::open(&args.dir)?;
            let store = Store::open(&folder.database())?;
            let teams = store.teams()?;
            if teams.is_empty() {
                eprintln!(
                    "agon: no team yet: `agon portal team add NAME --dir {}`",
                    args.dir.display()
                );
            }
            for team in teams {
                let state = if team.revoked_ms.is_some() {
                    "token revoked"
                } else {
                    "active"
                };
                agon_play::console::outln!("{}\t{} builds\t{state}", team.name, team.builds);
            }
        }
        TeamCommand::Revoke(args) => {
            let name = TeamName::parse(&args.name)?;
            let folder = PortalFolder::open(&args.portal.dir)?;
            let store = Store::open(&folder.database())?;
            if !store.revoke_team(name.as_str(), now)? {
                bail!("no team `{name}` with an active token");
            }
            eprintln!("agon: the token of team `{name}` is revoked");
        }
    }
    Ok(())
}
