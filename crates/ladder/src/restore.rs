//! What a ladder continues with after a restart, or a `kill -9` at any point: every slot's
//! build is a fact kept by content in `events.jsonl` (the last build accepted, whose
//! content-addressed copy every game loads), never whatever file lies in the slot. A slot whose
//! latest file was refused plays on with its last accepted build, and content already judged
//! is not judged anew: the first listing repeats the verdict it had, so that whoever follows
//! the events (the portal) learns the verdict on every file it put there.

use super::events::{Event, Logged};
use agon_engine::BotSpec;
use agon_play::swap::build::Build;
use std::collections::BTreeMap;
use std::path::Path;

/// The last verdict on a slot's content.
#[derive(Debug, Clone, PartialEq)]
pub enum LastVerdict {
    Accepted(Build),
    Refused {
        sha256: Option<String>,
        reason: String,
    },
}

impl LastVerdict {
    pub fn sha256(&self) -> Option<&str> {
        match self {
            LastVerdict::Accepted(build) => Some(&build.sha256),
            LastVerdict::Refused { sha256, .. } => sha256.as_deref(),
        }
    }
}

/// Per slot, what the events of earlier runs say.
#[derive(Debug, Default)]
pub struct Restored {
    /// The build each slot played last, unless its file was removed since.
    pub current: BTreeMap<String, Build>,
    /// The last verdict on each slot's content.
    pub last: BTreeMap<String, LastVerdict>,
}

impl Restored {
    pub fn from_events(events: &[Logged]) -> Restored {
        let mut restored = Restored::default();
        for logged in events {
            match &logged.event {
                Event::Accepted { build, .. } => {
                    restored.current.insert(build.slot.clone(), build.clone());
                    let verdict = LastVerdict::Accepted(build.clone());
                    restored.last.insert(build.slot.clone(), verdict);
                }
                Event::Refused {
                    slot,
                    sha256,
                    reason,
                    ..
                } => {
                    let verdict = LastVerdict::Refused {
                        sha256: sha256.clone(),
                        reason: reason.clone(),
                    };
                    restored.last.insert(slot.clone(), verdict);
                }
                Event::Retired { slot } => {
                    restored.current.remove(slot);
                    restored.last.remove(slot);
                }
                Event::Started { .. } | Event::Stopped { .. } => {}
            }
        }
        restored
    }

    /// Keeps only the builds that can play on: their file is still in `dir` (a file removed
    /// while the ladder was down retires its slot), their copy still holds their content, and
    /// their bot is still the one configured for the slot. Returns why each other one cannot.
    pub fn keep_playable(
        &mut self,
        dir: &Path,
        configured: &BTreeMap<String, BotSpec>,
    ) -> Vec<(String, String)> {
        let mut dropped = Vec::new();
        self.current.retain(|slot, build| {
            let why = unplayable(dir, build, configured.get(slot));
            if let Some(why) = &why {
                dropped.push((slot.clone(), why.clone()));
            }
            why.is_none()
        });
        // A verdict is repeated only for content the ladder can play as it did then.
        let current = &self.current;
        self.last.retain(|slot, verdict| match verdict {
            LastVerdict::Accepted(build) => current.get(slot) == Some(build),
            LastVerdict::Refused { sha256, .. } => sha256.is_some(),
        });
        dropped
    }
}

fn unplayable(dir: &Path, build: &Build, configured: Option<&BotSpec>) -> Option<String> {
    if !dir.join(&build.slot).exists() {
        return Some("its file was removed while the ladder was stopped".into());
    }
    if let Some(spec) = configured {
        if spec.bot != build.bot || spec.params != build.bot_params {
            return Some(format!(
                "v{} plays bot `{}`, but the slot is now configured for `{}`",
                build.version,
                build.bot_text(),
                spec.bot
            ));
        }
    }
    match std::fs::read(&build.copy) {
        Ok(bytes) if agon_engine::loader::sha256_hex(&bytes) == build.sha256 => None,
        Ok(_) => Some(format!(
            "the copy of v{} no longer holds its content",
            build.version
        )),
        Err(e) => Some(format!(
            "the copy of v{} cannot be read: {e}",
            build.version
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_games::contract::RawParams;

    fn build(dir: &Path, slot: &str, content: &[u8], version: u32) -> Build {
        let copy = dir.join(format!("copy-{version}"));
        std::fs::write(&copy, content).unwrap();
        Build {
            slot: slot.into(),
            version,
            sha256: agon_engine::loader::sha256_hex(content),
            plugin: "p".into(),
            plugin_version: "1".into(),
            team: "t".into(),
            bot: "random".into(),
            bot_params: RawParams::new(),
            copy,
        }
    }

    fn logged(event: Event) -> Logged {
        Logged { unix_ms: 1, event }
    }

    fn accepted(build: &Build) -> Logged {
        logged(Event::Accepted {
            build: build.clone(),
            smoke: Vec::new(),
            validation_ms: 1.0,
            inode: None,
        })
    }

    #[test]
    fn a_refused_file_leaves_the_last_accepted_build_and_its_verdict_is_kept() {
        let dir = agon_engine::output_file::fresh_scratch("ladder-restore").unwrap();
        std::fs::write(dir.join("a.so"), b"whatever lies there").unwrap();
        let (v1, v2) = (
            build(&dir, "a.so", b"one", 1),
            build(&dir, "a.so", b"two", 2),
        );
        let gone = build(&dir, "b.so", b"bee", 1);
        let events = [
            accepted(&v1),
            accepted(&gone),
            accepted(&v2),
            logged(Event::Refused {
                slot: "a.so".into(),
                sha256: Some("bad".into()),
                reason: "it panicked".into(),
                inode: None,
            }),
        ];
        let mut restored = Restored::from_events(&events);
        assert_eq!(restored.current["a.so"], v2);
        let dropped = restored.keep_playable(&dir, &BTreeMap::new());
        assert_eq!(dropped.len(), 1, "{dropped:?}");
        assert_eq!(dropped[0].0, "b.so");
        assert!(dropped[0].1.contains("removed"), "{dropped:?}");
        assert_eq!(restored.current.keys().collect::<Vec<_>>(), ["a.so"]);
        assert_eq!(restored.last["a.so"].sha256(), Some("bad"));

        // A copy that lost its content is not played; its verdict is not repeated.
        std::fs::write(&v2.copy, b"tampered").unwrap();
        let mut restored = Restored::from_events(&events[..3]);
        let dropped = restored.keep_playable(&dir, &BTreeMap::new());
        assert!(dropped
            .iter()
            .any(|(slot, why)| slot == "a.so" && why.contains("no longer holds")));
        assert!(!restored.last.contains_key("a.so"));

        // Retired: nothing to continue.
        let retired = [
            accepted(&v1),
            logged(Event::Retired {
                slot: "a.so".into(),
            }),
        ];
        let restored = Restored::from_events(&retired);
        assert!(restored.current.is_empty() && restored.last.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
