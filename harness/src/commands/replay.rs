//! `agon replay verify FILE`

use crate::cli::VerifyArgs;
use agon_engine::replay;
use agon_engine::MatchRecord;
use agon_games::registry::Registry;
use agon_play::console::outln;
use anyhow::anyhow;

pub fn verify(args: VerifyArgs) -> anyhow::Result<()> {
    let record = MatchRecord::read(&args.file)?;
    let verified = replay::verify(&record, &Registry::builtin()).map_err(|e| {
        anyhow!(
            "{}: replay does not match the record: {e}",
            args.file.display()
        )
    })?;
    outln!(
        "{}: ok: {} moves replayed; {}",
        args.file.display(),
        verified.moves,
        verified.outcome.reason
    );
    Ok(())
}
