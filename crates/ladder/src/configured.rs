//! The `--bot FILE:BOT` slots, checked at start-up against the files already in the folder. A
//! bot the file does not offer for the game (a typo: `--bot a.so:bott`), or parameters the bot
//! refuses, is the operator's mistake: refused before the ladder starts, naming the bots the
//! file offers. (It used to be a warning, the build refused, and the slot missing from the
//! standings without a word.) A file that arrives later, or one that does not load, is judged
//! by validation like every build.

use crate::LadderError;
use agon_engine::BotSpec;
use agon_engine::ProcessHost;
use agon_engine::{seating, Hosting, Trial};
use agon_engine::{Manifest, StagedPlugin};
use agon_games::contract::{GameRules, RawParams};
use agon_play::match_profile::MatchProfile;
use std::collections::BTreeMap;
use std::path::Path;

/// Refuses the first configured slot whose file in `dir` does not offer its bot for `game`, or
/// whose bot refuses its parameters under `profile`'s budgets; builds are opened in
/// `validation`'s process hosts.
pub fn check_configured(
    dir: &Path,
    configured: &BTreeMap<String, BotSpec>,
    game: &dyn GameRules,
    params: &RawParams,
    validation: &Hosting,
    profile: &MatchProfile,
) -> Result<(), LadderError> {
    let Some(process) = validation.process.as_ref() else {
        return Ok(());
    };
    for (slot, spec) in configured {
        let file = dir.join(slot);
        if !file.is_file() {
            continue;
        }
        let Ok(staged) = StagedPlugin::stage(&file, &validation.cache) else {
            continue;
        };
        let Ok(manifest) = ProcessHost::inspect(process, &staged) else {
            continue;
        };
        if let Some(offers) = offered_instead(&manifest, &spec.bot, game.name()) {
            return Err(LadderError::NotOffered {
                spec: spec.to_string(),
                slot: slot.clone(),
                bot: spec.bot.clone(),
                game: game.name().to_string(),
                offers,
            });
        }
        if spec.params.is_empty() {
            continue;
        }
        let in_folder = BotSpec {
            file,
            ..spec.clone()
        };
        let trial = seating::trial_start(
            &in_folder,
            game,
            validation,
            params,
            profile.start_ms,
            profile.move_ms,
        );
        if let Trial::Refused(message) = trial {
            return Err(LadderError::BotRefused {
                spec: spec.to_string(),
                reason: agon_play::console::name(&message).into_owned(),
            });
        }
    }
    Ok(())
}

/// Nothing where `manifest` offers `bot` for `game`; else what it offers instead.
fn offered_instead(manifest: &Manifest, bot: &str, game: &str) -> Option<String> {
    if manifest
        .bots
        .iter()
        .any(|b| b.name == bot && b.game == game)
    {
        return None;
    }
    let for_game: Vec<&str> = manifest
        .bots
        .iter()
        .filter(|b| b.game == game)
        .map(|b| b.name.as_str())
        .collect();
    if !for_game.is_empty() {
        return Some(format!("its bots for {game}: {}", for_game.join(", ")));
    }
    let all: Vec<String> = manifest
        .bots
        .iter()
        .map(|b| format!("{} for {}", b.name, b.game))
        .collect();
    Some(match all.is_empty() {
        true => "it offers no bots".into(),
        false => format!("its bots: {}", all.join(", ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_engine::BotDescriptor;

    fn manifest(bots: &[(&str, &str)]) -> Manifest {
        Manifest {
            plugin: "p".into(),
            team: "t".into(),
            version: "1".into(),
            bots: bots
                .iter()
                .map(|(name, game)| BotDescriptor {
                    name: name.to_string(),
                    description: String::new(),
                    game: game.to_string(),
                    protocol_version: 1,
                    tournament: true,
                })
                .collect(),
        }
    }

    #[test]
    fn a_bot_not_offered_for_the_game_names_what_is() {
        assert_eq!(
            offered_instead(&manifest(&[]), "bot", "breakthrough"),
            Some("it offers no bots".into())
        );
        let m = manifest(&[
            ("bot", "breakthrough"),
            ("random", "breakthrough"),
            ("greedy", "flip"),
        ]);
        assert_eq!(offered_instead(&m, "bot", "breakthrough"), None);
        assert_eq!(
            offered_instead(&m, "bott", "breakthrough"),
            Some("its bots for breakthrough: bot, random".into())
        );
        assert_eq!(
            offered_instead(&m, "bot", "reversixt"),
            Some("its bots: bot for breakthrough, random for breakthrough, greedy for flip".into())
        );
    }
}
