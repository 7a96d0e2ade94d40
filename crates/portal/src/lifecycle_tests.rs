//! Every upload reaches exactly one final state, and every verdict lands on the upload whose
//! content was judged, however uploads, the ladder's verdicts, the follower and restarts
//! interleave. The portal's own code (the database, the follower's `apply`, the settling at a
//! restart) runs against a model of the ladder that behaves as `ladder::run` does: it judges a
//! slot's file when it reads a new one, sees only the latest file of a slot, numbers builds by
//! content, and after a restart says again what it said of content it finds unchanged.

use super::follow::apply;
use super::store::{BuildStatus, Store, FOUND_IN_FOLDER};
use agon_ladder::events::{Event, Logged};
use agon_play::swap::build::Build;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

const TEAMS: [&str; 2] = ["red", "blue"];

#[derive(Debug, Clone)]
enum Step {
    /// A team uploads content `1`..: kept, then put in its slot.
    Upload { team: usize, content: u8 },
    /// The portal is killed between keeping an upload and putting it in the slot.
    UploadCutOff { team: usize, content: u8 },
    /// The ladder lists the folder and judges the team's slot if its file is new to it.
    LadderReads { team: usize },
    /// The portal reads what the ladder appended to its events.
    FollowerReads,
    /// The process is killed and started again.
    Restart,
}

fn step() -> impl Strategy<Value = Step> {
    let team = 0..TEAMS.len();
    let content = 0u8..4;
    prop_oneof![
        4 => (team.clone(), content.clone()).prop_map(|(team, content)| Step::Upload { team, content }),
        1 => (team.clone(), content).prop_map(|(team, content)| Step::UploadCutOff { team, content }),
        4 => team.prop_map(|team| Step::LadderReads { team }),
        2 => Just(Step::FollowerReads),
        1 => Just(Step::Restart),
    ]
}

/// Content 0 is a broken build: refused. Every other content is accepted.
fn sha(content: u8) -> String {
    format!("sha-{content}")
}

#[derive(Debug, Clone)]
enum Judged {
    Accepted(Build),
    Refused(String),
}

#[derive(Default)]
struct LadderModel {
    /// The upload whose file it read last, per team (forgotten at a restart).
    read: BTreeMap<usize, u32>,
    /// Content judged at least once (per team and content): its version, if accepted.
    versions: BTreeMap<(usize, u8), u32>,
    /// The last verdict per team, by content.
    last: BTreeMap<usize, (u8, Judged)>,
    /// Teams whose next read is the first listing after a restart.
    first_listing: BTreeSet<usize>,
    /// Every upload number the ladder read, with the verdict it gave.
    verdicts: BTreeMap<(usize, u32), Judged>,
}

struct World {
    store: Store,
    dir: std::path::PathBuf,
    /// Per team, the upload in its slot: (number, content).
    slots: BTreeMap<usize, (u32, u8)>,
    contents: BTreeMap<(usize, u32), u8>,
    /// Every upload's file has an inode of its own.
    inodes: BTreeMap<(usize, u32), u64>,
    published: BTreeSet<(usize, u32)>,
    ladder: LadderModel,
    events: Vec<Logged>,
    applied: usize,
}

impl World {
    fn new(case: u64) -> World {
        let dir =
            std::env::temp_dir().join(format!("agon-lifecycle-{}-{case}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&dir.join("portal.sqlite")).unwrap();
        for team in TEAMS {
            store.add_team(team, &format!("hash-{team}"), 1).unwrap();
        }
        World {
            store,
            dir,
            slots: BTreeMap::new(),
            contents: BTreeMap::new(),
            inodes: BTreeMap::new(),
            published: BTreeSet::new(),
            ladder: LadderModel::default(),
            events: Vec::new(),
            applied: 0,
        }
    }

    fn keep(&mut self, team: usize, content: u8) -> u32 {
        let inode = 1000 + self.inodes.len() as u64;
        let number = self
            .store
            .add_build(TEAMS[team], (&sha(content), inode), 10, "bot.so", 5)
            .unwrap();
        self.contents.insert((team, number), content);
        self.inodes.insert((team, number), inode);
        number
    }

    fn run(&mut self, step: &Step) {
        match *step {
            Step::Upload { team, content } => {
                let number = self.keep(team, content);
                self.slots.insert(team, (number, content));
                self.published.insert((team, number));
            }
            Step::UploadCutOff { team, content } => {
                self.keep(team, content);
                self.restart();
            }
            Step::LadderReads { team } => self.ladder_reads(team),
            Step::FollowerReads => self.follower_reads(),
            Step::Restart => self.restart(),
        }
    }

    fn ladder_reads(&mut self, team: usize) {
        let Some(&(number, content)) = self.slots.get(&team) else {
            return;
        };
        if self.ladder.read.get(&team) == Some(&number) {
            return; // the same file: nothing new to the ladder
        }
        self.ladder.read.insert(team, number);
        let first = self.ladder.first_listing.remove(&team);
        let again = self
            .ladder
            .last
            .get(&team)
            .filter(|(judged, _)| first && *judged == content)
            .map(|(_, verdict)| verdict.clone());
        let verdict = again.unwrap_or_else(|| self.judge(team, content));
        self.ladder.last.insert(team, (content, verdict.clone()));
        self.ladder.verdicts.insert((team, number), verdict.clone());
        let slot = format!("{}.so", TEAMS[team]);
        let inode = Some(self.inodes[&(team, number)]);
        let event = match verdict {
            Judged::Accepted(build) => Event::Accepted {
                build,
                smoke: Vec::new(),
                validation_ms: 1.0,
                inode,
            },
            Judged::Refused(reason) => Event::Refused {
                slot,
                sha256: Some(sha(content)),
                reason,
                inode,
            },
        };
        self.events.push(Logged { unix_ms: 7, event });
    }

    fn judge(&mut self, team: usize, content: u8) -> Judged {
        if content == 0 {
            return Judged::Refused("it does not load".into());
        }
        let next = 1 + self
            .ladder
            .versions
            .iter()
            .filter(|((t, _), _)| *t == team)
            .map(|(_, v)| *v)
            .max()
            .unwrap_or(0);
        let version = *self.ladder.versions.entry((team, content)).or_insert(next);
        Judged::Accepted(Build {
            slot: format!("{}.so", TEAMS[team]),
            version,
            sha256: sha(content),
            plugin: "p".into(),
            plugin_version: "1".into(),
            team: TEAMS[team].into(),
            bot: "bot".into(),
            bot_params: Default::default(),
            copy: "copy".into(),
        })
    }

    fn follower_reads(&mut self) {
        while self.applied < self.events.len() {
            let offset = self.applied as u64 + 1;
            apply(
                &self.store,
                &self.events[self.applied],
                ("events.jsonl", offset),
            )
            .unwrap();
            self.applied += 1;
        }
    }

    fn restart(&mut self) {
        // What the ladder appended is on disk: the follower reads it before it settles.
        self.follower_reads();
        let (slots, inodes) = (&self.slots, &self.inodes);
        let in_slot = |team: &str| {
            let index = TEAMS.iter().position(|t| *t == team)?;
            let (number, content) = slots.get(&index)?;
            Some((sha(*content), inodes[&(index, *number)]))
        };
        self.store.settle_unfinished(&in_slot, 9).unwrap();
        self.ladder.read.clear();
        self.ladder.first_listing = (0..TEAMS.len()).collect();
    }

    /// The end of a course: a last restart, the ladder reads every slot, the follower all.
    fn finish(&mut self) {
        self.restart();
        for team in 0..TEAMS.len() {
            self.ladder_reads(team);
        }
        self.follower_reads();
    }

    fn check(&self) -> Result<(), TestCaseError> {
        for (team, name) in TEAMS.iter().enumerate() {
            for build in self.store.builds(name).unwrap() {
                let key = (team, build.number);
                let what = format!("{name} build {}: {build:?}", build.number);
                prop_assert_ne!(build.file_name.as_str(), FOUND_IN_FOLDER, "{}", what);
                prop_assert_ne!(build.status, BuildStatus::Validating, "{}", what);
                match self.ladder.verdicts.get(&key) {
                    Some(Judged::Accepted(accepted)) => {
                        prop_assert_eq!(build.status, BuildStatus::Accepted, "{}", what);
                        prop_assert_eq!(build.version, Some(accepted.version), "{}", what);
                    }
                    Some(Judged::Refused(_)) => {
                        prop_assert_eq!(build.status, BuildStatus::Refused, "{}", what)
                    }
                    // Never read: replaced before the ladder saw it, never handed over, or of
                    // the same content as a later upload the ladder judged.
                    None => {
                        let published = self.published.contains(&key);
                        match build.status {
                            BuildStatus::Lost => prop_assert!(!published, "{}", what),
                            BuildStatus::Superseded => {}
                            _ => {
                                let content = self.contents[&key];
                                let judged = self.ladder.verdicts.iter().any(|((t, n), _)| {
                                    *t == team && self.contents[&(*t, *n)] == content
                                });
                                prop_assert!(judged, "{}", what);
                            }
                        }
                    }
                }
            }
            if let Some((number, _)) = self.slots.get(&team) {
                prop_assert!(self.ladder.verdicts.contains_key(&(team, *number)));
            }
        }
        Ok(())
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn every_upload_ends_in_one_state_and_verdicts_reach_their_own_upload(
        steps in proptest::collection::vec(step(), 1..40),
        case in any::<u64>(),
    ) {
        let mut world = World::new(case);
        for step in &steps {
            world.run(step);
        }
        world.finish();
        world.check()?;
    }
}

/// The two sequences the review found: a cut-short file replaced within seconds, and X, Y, X.
#[test]
fn the_sequences_that_lost_verdicts_before() {
    let mut world = World::new(u64::MAX);
    for step in [
        Step::Upload {
            team: 0,
            content: 0,
        },
        Step::Upload {
            team: 0,
            content: 1,
        },
        Step::LadderReads { team: 0 },
        Step::Upload {
            team: 1,
            content: 1,
        },
        Step::LadderReads { team: 1 },
        Step::Upload {
            team: 1,
            content: 2,
        },
        Step::LadderReads { team: 1 },
        Step::Upload {
            team: 1,
            content: 1,
        },
        Step::FollowerReads,
        Step::LadderReads { team: 1 },
    ] {
        world.run(&step);
    }
    world.finish();
    world.check().unwrap();
    let statuses: Vec<_> = world
        .store
        .builds("blue")
        .unwrap()
        .iter()
        .rev()
        .map(|b| (b.status, b.version))
        .collect();
    use BuildStatus::*;
    assert_eq!(
        statuses,
        [
            (Accepted, Some(1)),
            (Accepted, Some(2)),
            (Accepted, Some(1))
        ]
    );
    let red: Vec<_> = world
        .store
        .builds("red")
        .unwrap()
        .iter()
        .map(|b| b.status)
        .collect();
    assert_eq!(red, [Accepted, Superseded]);
}
