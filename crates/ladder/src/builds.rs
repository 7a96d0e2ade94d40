//! Slots and their builds. A build is numbered by its content: the first build of a slot is
//! version 1, each new content the next number, and content seen before (a team that goes back
//! to an earlier build) keeps its number, so its games and rating continue.

use agon_play::swap::build::Build;
use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Slot {
    /// Version number per content hash, from this run and earlier ones.
    numbers: BTreeMap<String, u32>,
    /// The build games start with now; `None` while the slot has none or after its file was
    /// removed.
    current: Option<Build>,
    /// Distinct builds loaded in this run (the in-process hosts' bound).
    loaded_this_run: Vec<String>,
    /// Its file was removed (and no new one has arrived).
    retired: bool,
}

/// Where a slot stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// New games start with its current build.
    Active,
    /// Its file was removed.
    Retired,
    /// No build of it has passed validation in this run yet.
    Waiting,
}

/// Every slot the ladder has seen.
#[derive(Debug, Default)]
pub struct Slots {
    slots: BTreeMap<String, Slot>,
}

impl Slots {
    /// Remembers that `slot`'s content `sha256` is version `version` (from the journal and the
    /// events of earlier runs).
    pub fn remember(&mut self, slot: &str, sha256: &str, version: u32) {
        self.slots
            .entry(slot.to_string())
            .or_default()
            .numbers
            .insert(sha256.to_string(), version);
    }

    /// The number `build` has or gets, without making it current.
    pub fn number(&mut self, build: &Build) -> u32 {
        let slot = self.slots.entry(build.slot.clone()).or_default();
        let next = slot.numbers.values().max().map_or(1, |n| n + 1);
        *slot.numbers.entry(build.sha256.clone()).or_insert(next)
    }

    /// Distinct builds of `slot` loaded in this run, counting `sha256` if it would be new.
    pub fn loaded_with(&self, slot: &str, sha256: &str) -> usize {
        let loaded = self
            .slots
            .get(slot)
            .map_or(&[][..], |s| &s.loaded_this_run[..]);
        loaded.len() + usize::from(!loaded.iter().any(|s| s == sha256))
    }

    /// Makes `build` (numbered) its slot's current build.
    pub fn make_current(&mut self, build: Build) {
        let slot = self.slots.entry(build.slot.clone()).or_default();
        if !slot.loaded_this_run.contains(&build.sha256) {
            slot.loaded_this_run.push(build.sha256.clone());
        }
        slot.current = Some(build);
        slot.retired = false;
    }

    /// The slot's file is gone: no new game starts with it.
    pub fn retire(&mut self, slot: &str) -> bool {
        let Some(slot) = self.slots.get_mut(slot) else {
            return false;
        };
        slot.retired = true;
        slot.current.take().is_some()
    }

    pub fn status(&self, slot: &str) -> Status {
        match self.slots.get(slot) {
            Some(s) if s.current.is_some() => Status::Active,
            Some(s) if s.retired => Status::Retired,
            _ => Status::Waiting,
        }
    }

    pub fn current(&self, slot: &str) -> Option<&Build> {
        self.slots.get(slot).and_then(|s| s.current.as_ref())
    }

    /// Slots with a current build, by name.
    pub fn active(&self) -> Vec<&Build> {
        self.slots
            .values()
            .filter_map(|s| s.current.as_ref())
            .collect()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.slots.keys().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_games::contract::RawParams;
    use std::path::PathBuf;

    fn build(slot: &str, sha: &str) -> Build {
        Build {
            slot: slot.into(),
            version: 0,
            sha256: sha.into(),
            plugin: "p".into(),
            plugin_version: "1".into(),
            team: "t".into(),
            bot: "random".into(),
            bot_params: RawParams::new(),
            copy: PathBuf::from("/cache/plugins").join(sha).join(slot),
        }
    }

    #[test]
    fn versions_follow_content_and_survive_a_return_to_an_old_build() {
        let mut slots = Slots::default();
        slots.remember("a.so", "old", 1);
        assert_eq!(slots.number(&build("a.so", "old")), 1);
        assert_eq!(slots.number(&build("a.so", "new")), 2);
        assert_eq!(slots.number(&build("a.so", "newer")), 3);
        assert_eq!(slots.number(&build("a.so", "new")), 2);
        assert_eq!(
            slots.number(&build("b.so", "new")),
            1,
            "numbers are per slot"
        );
    }

    #[test]
    fn a_retired_slot_plays_no_more_until_a_new_build_arrives() {
        let mut slots = Slots::default();
        let mut a = build("a.so", "x");
        a.version = slots.number(&a);
        slots.make_current(a.clone());
        assert_eq!(slots.active().len(), 1);
        assert!(slots.retire("a.so"));
        assert!(slots.active().is_empty());
        assert!(!slots.retire("a.so"));
        assert_eq!(slots.loaded_with("a.so", "x"), 1);
        assert_eq!(slots.loaded_with("a.so", "y"), 2);
        slots.make_current(a);
        assert_eq!(slots.current("a.so").map(|b| b.version), Some(1));
    }
}
