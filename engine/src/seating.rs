//! Turns a bot spec into a seat: load the plugin, create the bot, put it behind a host.

use crate::bot_spec::BotSpec;
use crate::game::GameRules;
use crate::host::{HostKind, InlineHost, SeatHost, ThreadHost};
use crate::loader::{LoadError, Plugin};
use crate::record::SeatRecord;
use crate::runner::Seat;

#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("cannot start a thread for seat {seat}: {source}")]
    Thread { seat: usize, source: std::io::Error },
}

/// Loads `spec`'s plugin and seats its bot at `seat`, behind a host of `kind`.
pub fn seat(
    spec: &BotSpec,
    seat: usize,
    game: &dyn GameRules,
    kind: HostKind,
) -> Result<Seat, SeatError> {
    let plugin = Plugin::load(&spec.file)?;
    seat_from_plugin(&plugin, spec, seat, game, kind)
}

/// Like [`seat`], for a plugin already loaded.
pub fn seat_from_plugin(
    plugin: &Plugin,
    spec: &BotSpec,
    seat: usize,
    game: &dyn GameRules,
    kind: HostKind,
) -> Result<Seat, SeatError> {
    let bot = plugin.new_bot(&spec.bot, game)?;
    let host: Box<dyn SeatHost> = match kind {
        HostKind::Inline => Box::new(InlineHost::new(bot)),
        HostKind::Thread => Box::new(
            ThreadHost::spawn(bot, format!("seat-{seat}-{}", spec.bot))
                .map_err(|source| SeatError::Thread { seat, source })?,
        ),
    };
    Ok(Seat {
        record: SeatRecord {
            seat,
            bot: spec.bot.clone(),
            bot_params: spec.params.clone(),
            plugin: plugin.manifest.plugin.clone(),
            plugin_version: plugin.manifest.version.clone(),
            team: plugin.manifest.team.clone(),
            file: plugin.file_name(),
            sha256: plugin.sha256.clone(),
        },
        host,
    })
}
