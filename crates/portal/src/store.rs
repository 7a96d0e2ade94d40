//! The portal's database (SQLite, `portal.sqlite`): teams with their token hashes, every build
//! a team uploaded with what became of it, every upload attempt, and how far the portal has
//! read the ladder's events. Game results are not here: the ladder's journal is their source.
//!
//! Written in WAL mode with `synchronous = FULL`: a change the portal has answered for is on
//! disk, whatever happens to the process next.

use crate::store_error::StoreError;
use agon_engine::OnPath;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS teams (
    name TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    created_ms INTEGER NOT NULL,
    revoked_ms INTEGER
);
CREATE TABLE IF NOT EXISTS builds (
    team TEXT NOT NULL REFERENCES teams(name),
    number INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    file_name TEXT NOT NULL,
    uploaded_ms INTEGER NOT NULL,
    status TEXT NOT NULL,
    version INTEGER,
    message TEXT,
    judged_ms INTEGER,
    inode INTEGER,
    PRIMARY KEY (team, number)
);
CREATE TABLE IF NOT EXISTS upload_events (
    id INTEGER PRIMARY KEY,
    team TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS read_offsets (
    file TEXT PRIMARY KEY,
    offset INTEGER NOT NULL
);
";

/// What became of an uploaded build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildStatus {
    /// Handed to the ladder, which has not judged it yet.
    Validating,
    Accepted,
    Refused,
    /// A newer upload replaced it in the slot before the ladder took it.
    Superseded,
    /// The portal stopped between keeping the upload and handing it to the ladder.
    Lost,
}

impl BuildStatus {
    fn as_str(self) -> &'static str {
        match self {
            BuildStatus::Validating => "validating",
            BuildStatus::Accepted => "accepted",
            BuildStatus::Refused => "refused",
            BuildStatus::Superseded => "superseded",
            BuildStatus::Lost => "lost",
        }
    }

    fn parse(text: &str) -> BuildStatus {
        match text {
            "accepted" => BuildStatus::Accepted,
            "refused" => BuildStatus::Refused,
            "superseded" => BuildStatus::Superseded,
            "lost" => BuildStatus::Lost,
            _ => BuildStatus::Validating,
        }
    }
}

/// One uploaded build, as its team's page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct BuildRow {
    pub number: u32,
    pub sha256: String,
    pub bytes: u64,
    pub file_name: String,
    pub uploaded_ms: u64,
    pub status: BuildStatus,
    /// The ladder's version number, once accepted.
    pub version: Option<u32>,
    /// The refusal, or a note on the acceptance.
    pub message: Option<String>,
    pub judged_ms: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TeamRow {
    pub name: String,
    pub created_ms: u64,
    pub revoked_ms: Option<u64>,
    pub builds: u64,
}

/// A ladder's verdict on a team's content.
pub struct Verdict<'a> {
    pub sha256: &'a str,
    /// The inode of the file the ladder judged, when it says (which upload of that content).
    pub inode: Option<u64>,
    pub status: BuildStatus,
    pub version: Option<u32>,
    pub message: &'a str,
    pub at_ms: u64,
}

/// A build still waiting for the ladder's verdict.
pub struct Unfinished {
    pub team: String,
    pub number: u32,
    pub sha256: String,
    pub inode: Option<u64>,
}

pub struct Store {
    connection: Mutex<Connection>,
}

type Sql<T> = Result<T, StoreError>;

impl Store {
    pub fn open(path: &Path) -> Sql<Store> {
        // Its owner's alone; SQLite gives its journal files the database's own mode.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .and_then(|file| file.set_permissions(std::fs::Permissions::from_mode(0o600)))
            .on_path(path)?;
        let opened = |cause| StoreError::Open {
            path: path.to_path_buf(),
            cause,
        };
        let connection = Connection::open(path).map_err(opened)?;
        connection
            // The WAL is checkpointed every 128 pages and cut back to 1 MiB after: a flood of
            // refused uploads, each noted, leaves no large file behind.
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                 PRAGMA wal_autocheckpoint = 128; PRAGMA journal_size_limit = 1048576;",
            )
            .and_then(|()| connection.busy_timeout(std::time::Duration::from_secs(5)))
            .and_then(|()| connection.execute_batch(SCHEMA))
            .and_then(|()| add_inode_column(&connection))
            .map_err(opened)?;
        Ok(Store {
            connection: Mutex::new(connection),
        })
    }

    fn db(&self) -> MutexGuard<'_, Connection> {
        self.connection.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Every row `sql` selects, each made into a `T` by `row`.
    fn rows<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Sql<Vec<T>> {
        let db = self.db();
        let mut query = db.prepare(sql)?;
        let rows = query.query_map(params, row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Adds a team, or gives a revoked one a new token. A team that exists is refused.
    pub fn add_team(&self, name: &str, token_hash: &str, now_ms: u64) -> Sql<()> {
        let db = self.db();
        let revoked: Option<Option<u64>> = db
            .query_row(
                "SELECT revoked_ms FROM teams WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?;
        match revoked {
            Some(None) => {
                return Err(StoreError::TeamExists {
                    team: name.to_string(),
                })
            }
            Some(Some(_)) => db.execute(
                "UPDATE teams SET token_hash = ?2, revoked_ms = NULL WHERE name = ?1",
                params![name, token_hash],
            )?,
            None => db.execute(
                "INSERT INTO teams (name, token_hash, created_ms) VALUES (?1, ?2, ?3)",
                params![name, token_hash, now_ms],
            )?,
        };
        Ok(())
    }

    /// Revokes a team's token; false when there is no such active team.
    pub fn revoke_team(&self, name: &str, now_ms: u64) -> Sql<bool> {
        Ok(self
            .db()
            .execute(
                "UPDATE teams SET revoked_ms = ?2 WHERE name = ?1 AND revoked_ms IS NULL",
                params![name, now_ms],
            )
            .map(|n| n == 1)?)
    }

    pub fn teams(&self) -> Sql<Vec<TeamRow>> {
        self.rows(
            "SELECT name, created_ms, revoked_ms, \
                 (SELECT COUNT(*) FROM builds WHERE builds.team = teams.name) \
                 FROM teams ORDER BY name",
            [],
            |r| {
                Ok(TeamRow {
                    name: r.get(0)?,
                    created_ms: r.get(1)?,
                    revoked_ms: r.get(2)?,
                    builds: r.get(3)?,
                })
            },
        )
    }

    /// Whether `name` is a team (revoked or not).
    pub fn is_team(&self, name: &str) -> Sql<bool> {
        Ok(self
            .db()
            .query_row("SELECT 1 FROM teams WHERE name = ?1", [name], |_| Ok(()))
            .optional()
            .map(|found| found.is_some())?)
    }

    /// The token hash of an active team.
    pub fn token_hash(&self, name: &str) -> Sql<Option<String>> {
        Ok(self
            .db()
            .query_row(
                "SELECT token_hash FROM teams WHERE name = ?1 AND revoked_ms IS NULL",
                [name],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The active team whose token has the hash `token_hash`.
    pub fn team_with_hash(&self, token_hash: &str) -> Sql<Option<String>> {
        Ok(self
            .db()
            .query_row(
                "SELECT name FROM teams WHERE token_hash = ?1 AND revoked_ms IS NULL",
                [token_hash],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The team's builds uploaded since `since_ms`.
    pub fn uploads_since(&self, team: &str, since_ms: u64) -> Sql<u64> {
        Ok(self.db().query_row(
            "SELECT COUNT(*) FROM builds WHERE team = ?1 AND uploaded_ms >= ?2 \
                 AND file_name != ?3",
            params![team, since_ms, FOUND_IN_FOLDER],
            |r| r.get(0),
        )?)
    }

    /// Keeps a new build of `team`, still to be judged; returns its number (1 for the first).
    /// `inode` is its file's, which the ladder's verdict will name.
    pub fn add_build(
        &self,
        team: &str,
        (sha256, inode): (&str, u64),
        bytes: u64,
        file_name: &str,
        now_ms: u64,
    ) -> Sql<u32> {
        let mut db = self.db();
        let tx = db.transaction()?;
        let number: u32 = tx.query_row(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM builds WHERE team = ?1",
            [team],
            |r| r.get(0),
        )?;
        tx.execute(
            "INSERT INTO builds (team, number, sha256, bytes, file_name, uploaded_ms, status, \
             inode) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'validating', ?7)",
            params![team, number, sha256, bytes, file_name, now_ms, inode],
        )?;
        tx.commit()?;
        Ok(number)
    }

    /// Marks one build.
    pub fn mark(&self, team: &str, number: u32, verdict: &Verdict) -> Sql<()> {
        Ok(self
            .db()
            .execute(
                "UPDATE builds SET status = ?3, version = ?4, message = ?5, judged_ms = ?6 \
                 WHERE team = ?1 AND number = ?2",
                params![
                    team,
                    number,
                    verdict.status.as_str(),
                    verdict.version,
                    verdict.message,
                    verdict.at_ms
                ],
            )
            .map(drop)?)
    }

    /// Applies the ladder's verdict on `team`'s content and notes that the ladder's `file` is
    /// read up to `offset`, in one transaction (a verdict is applied once, however the portal
    /// stops). The verdict is on the oldest build of that content still validating, and on the
    /// uploads of the same content right after it (the ladder saw them as one); builds of other
    /// content still validating before it were replaced before the ladder saw them. A verdict
    /// on content no upload brought (a file put in the folder by hand) becomes a build of its
    /// own. Returns the builds it marked.
    pub fn judge(&self, team: &str, verdict: &Verdict, (file, offset): (&str, u64)) -> Sql<usize> {
        let mut db = self.db();
        let tx = db.transaction()?;
        let marked = judge_in(&tx, team, verdict)?;
        set_offset(&tx, file, offset)?;
        tx.commit()?;
        Ok(marked)
    }

    /// Refuses the build of `team` whose file could not be read: the one with that inode still
    /// validating, else the newest still validating (the one in its slot now); older ones still
    /// validating were replaced before the ladder saw them. Notes the read offset in the same
    /// transaction.
    pub fn refuse_unread(
        &self,
        team: &str,
        (inode, reason, at_ms): (Option<u64>, &str, u64),
        (file, offset): (&str, u64),
    ) -> Sql<()> {
        let mut db = self.db();
        let tx = db.transaction()?;
        let by_inode: Option<u32> = tx.query_row(
            "SELECT MIN(number) FROM builds WHERE team = ?1 AND status = 'validating' \
                 AND inode = ?2",
            params![team, inode],
            |r| r.get(0),
        )?;
        let newest: Option<u32> = tx.query_row(
            "SELECT MAX(number) FROM builds WHERE team = ?1 AND status = 'validating'",
            [team],
            |r| r.get(0),
        )?;
        if let Some(number) = by_inode.or(newest) {
            supersede_before(&tx, team, number, at_ms)?;
            tx.execute(
                "UPDATE builds SET status = 'refused', message = ?3, judged_ms = ?4 \
                 WHERE team = ?1 AND number = ?2",
                params![team, number, reason, at_ms],
            )?;
        }
        set_offset(&tx, file, offset)?;
        Ok(tx.commit()?)
    }

    /// The team's builds, newest first.
    pub fn builds(&self, team: &str) -> Sql<Vec<BuildRow>> {
        self.rows(
            "SELECT number, sha256, bytes, file_name, uploaded_ms, status, version, message, \
                 judged_ms FROM builds WHERE team = ?1 ORDER BY number DESC",
            [team],
            |r| {
                Ok(BuildRow {
                    number: r.get(0)?,
                    sha256: r.get(1)?,
                    bytes: r.get(2)?,
                    file_name: r.get(3)?,
                    uploaded_ms: r.get(4)?,
                    status: BuildStatus::parse(&r.get::<_, String>(5)?),
                    version: r.get(6)?,
                    message: r.get(7)?,
                    judged_ms: r.get(8)?,
                })
            },
        )
    }

    /// Builds of every team still validating.
    pub fn validating(&self) -> Sql<Vec<Unfinished>> {
        self.rows(
            "SELECT team, number, sha256, inode FROM builds WHERE status = 'validating'",
            [],
            |r| {
                Ok(Unfinished {
                    team: r.get(0)?,
                    number: r.get(1)?,
                    sha256: r.get(2)?,
                    inode: r.get(3)?,
                })
            },
        )
    }

    /// Settles the builds still validating when the portal starts (after it has read what the
    /// ladder said while it was down): the one whose file is in the team's slot now is judged
    /// by the ladder as it starts; the others never reached it, replaced by a newer upload, or
    /// cut off by a stop between keeping one and handing it over. `in_slot` gives the content
    /// and inode of a team's slot.
    pub fn settle_unfinished(
        &self,
        in_slot: &dyn Fn(&str) -> Option<(String, u64)>,
        at_ms: u64,
    ) -> Sql<()> {
        for unfinished in self.validating()? {
            let Unfinished {
                team,
                number,
                sha256,
                inode,
            } = &unfinished;
            let in_the_slot = in_slot(team).is_some_and(|(sha, slot_inode)| {
                *sha256 == sha && inode.is_none_or(|inode| inode == slot_inode)
            });
            if in_the_slot {
                continue;
            }
            let newest = self.builds(team)?.first().map_or(0, |b| b.number);
            let (status, message) = if newest > *number {
                (BuildStatus::Superseded, REPLACED)
            } else {
                (BuildStatus::Lost, NOT_HANDED_OVER)
            };
            let verdict = Verdict {
                sha256,
                inode: None,
                status,
                version: None,
                message,
                at_ms,
            };
            self.mark(team, *number, &verdict)?;
        }
        Ok(())
    }

    /// Notes an upload attempt and its outcome (`received`, or why it was refused).
    ///
    /// An attempt explains, it decides nothing: it is written without waiting for the disk
    /// (WAL with `synchronous = NORMAL`: it survives the portal's own crash, not the
    /// machine's), and a team keeps only its latest [`ATTEMPTS_KEPT`], so a team that sends
    /// refused uploads in a loop costs neither a sync each nor a growing database.
    pub fn log_upload(&self, team: &str, outcome: &str, detail: &str, now_ms: u64) -> Sql<()> {
        let mut db = self.db();
        db.execute_batch("PRAGMA synchronous = NORMAL")?;
        let logged = (|| {
            let tx = db.transaction()?;
            tx.execute(
                "INSERT INTO upload_events (team, at_ms, outcome, detail) VALUES (?1, ?2, ?3, ?4)",
                params![team, now_ms, outcome, detail],
            )?;
            tx.execute(
                "DELETE FROM upload_events WHERE team = ?1 AND id <= (SELECT id FROM \
                 upload_events WHERE team = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
                params![team, ATTEMPTS_KEPT],
            )?;
            tx.commit()
        })();
        let restored = db.execute_batch("PRAGMA synchronous = FULL");
        Ok(logged.and(restored)?)
    }

    /// Upload attempts of `team`: (at_ms, outcome, detail), newest first.
    pub fn upload_log(&self, team: &str, limit: u32) -> Sql<Vec<(u64, String, String)>> {
        self.rows(
            "SELECT at_ms, outcome, detail FROM upload_events WHERE team = ?1 \
                 ORDER BY id DESC LIMIT ?2",
            params![team, limit],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
    }

    /// How far the portal has read `file` (bytes).
    pub fn read_offset(&self, file: &str) -> Sql<u64> {
        Ok(self
            .db()
            .query_row(
                "SELECT offset FROM read_offsets WHERE file = ?1",
                [file],
                |r| r.get(0),
            )
            .optional()
            .map(|o| o.unwrap_or(0))?)
    }

    pub fn set_read_offset(&self, file: &str, offset: u64) -> Sql<()> {
        set_offset(&self.db(), file, offset)
    }
}

/// Upload attempts kept per team.
pub const ATTEMPTS_KEPT: u32 = 100;

/// Why a build never reached the ladder.
const REPLACED: &str = "a newer upload replaced it before the ladder took it";
const NOT_HANDED_OVER: &str = "the portal stopped before handing it to the ladder; upload it again";

fn set_offset(db: &Connection, file: &str, offset: u64) -> Sql<()> {
    Ok(db
        .execute(
            "INSERT INTO read_offsets (file, offset) VALUES (?1, ?2) \
         ON CONFLICT(file) DO UPDATE SET offset = excluded.offset",
            params![file, offset],
        )
        .map(drop)?)
}

/// Builds of `team` still validating from before build `number`: the ladder judged a later
/// file of the slot, so these were replaced before it took them.
fn supersede_before(tx: &rusqlite::Transaction, team: &str, number: u32, at_ms: u64) -> Sql<()> {
    Ok(tx
        .execute(
            "UPDATE builds SET status = 'superseded', judged_ms = ?3, message = ?4 \
         WHERE team = ?1 AND number < ?2 AND status = 'validating'",
            params![team, number, at_ms, REPLACED],
        )
        .map(drop)?)
}

/// [`Store::judge`] within its transaction. The build judged is the upload whose file the
/// ladder read (by inode and content); a verdict on an upload judged already is one said again
/// after a restart. Where the verdict names no inode known here (a file put in the folder by
/// hand, a database older than inodes) it could be any upload of that content, so the oldest
/// still validating takes it, with the uploads of the same content right after it.
fn judge_in(tx: &rusqlite::Transaction, team: &str, verdict: &Verdict) -> Sql<usize> {
    let by_inode: Option<u32> = tx.query_row(
        "SELECT MIN(number) FROM builds WHERE team = ?1 AND sha256 = ?2 AND inode = ?3 \
             AND status = 'validating'",
        params![team, verdict.sha256, verdict.inode],
        |r| r.get(0),
    )?;
    if let Some(number) = by_inode {
        supersede_before(tx, team, number, verdict.at_ms)?;
        return mark_range(tx, team, verdict, (number, number + 1));
    }
    let judged_before = any(
        tx,
        "SELECT COUNT(*) > 0 FROM builds WHERE team = ?1 AND inode = ?2",
        params![team, verdict.inode],
    )?;
    if judged_before {
        return Ok(0); // said again (after a restart) of an upload it judged then
    }
    let first: Option<u32> = tx.query_row(
        "SELECT MIN(number) FROM builds WHERE team = ?1 AND sha256 = ?2 \
             AND status = 'validating'",
        params![team, verdict.sha256],
        |r| r.get(0),
    )?;
    let Some(first) = first else {
        return found_in_folder(tx, team, verdict);
    };
    let next_other: u32 = tx.query_row(
        "SELECT COALESCE(MIN(number), 4294967295) FROM builds WHERE team = ?1 \
             AND status = 'validating' AND sha256 != ?2 AND number > ?3",
        params![team, verdict.sha256, first],
        |r| r.get(0),
    )?;
    supersede_before(tx, team, first, verdict.at_ms)?;
    mark_range(tx, team, verdict, (first, next_other))
}

/// Gives `verdict` to the team's builds of its content still validating, numbered in `range`.
fn mark_range(
    tx: &rusqlite::Transaction,
    team: &str,
    verdict: &Verdict,
    (from, to): (u32, u32),
) -> Sql<usize> {
    Ok(tx.execute(
        "UPDATE builds SET status = ?3, version = ?4, message = ?5, judged_ms = ?6 \
         WHERE team = ?1 AND sha256 = ?2 AND status = 'validating' AND number >= ?7 \
         AND number < ?8",
        params![
            team,
            verdict.sha256,
            verdict.status.as_str(),
            verdict.version,
            verdict.message,
            verdict.at_ms,
            from,
            to
        ],
    )?)
}

/// The answer of a `SELECT COUNT(*) > 0` query.
fn any(tx: &rusqlite::Transaction, query: &str, values: impl rusqlite::Params) -> Sql<bool> {
    Ok(tx.query_row(query, values, |r| r.get(0))?)
}

/// Databases made before builds kept their file's inode get the column.
fn add_inode_column(db: &Connection) -> rusqlite::Result<()> {
    let has: bool = db.query_row(
        "SELECT COUNT(*) > 0 FROM pragma_table_info('builds') WHERE name = 'inode'",
        [],
        |r| r.get(0),
    )?;
    if !has {
        db.execute_batch("ALTER TABLE builds ADD COLUMN inode INTEGER")?;
    }
    Ok(())
}

/// The file name a build gets that no upload brought.
pub const FOUND_IN_FOLDER: &str = "(found in the ladder's folder)";

/// A verdict on content that no validating upload of the team holds: a build of its own, unless
/// an upload brought that content before (the verdict is said again after a restart, or the
/// ladder judged a second file of it that the first verdict already covered).
fn found_in_folder(tx: &rusqlite::Transaction, team: &str, verdict: &Verdict) -> Sql<usize> {
    let known = any(
        tx,
        "SELECT COUNT(*) > 0 FROM builds WHERE team = ?1 AND sha256 = ?2",
        params![team, verdict.sha256],
    )?;
    let is_team = any(tx, "SELECT COUNT(*) > 0 FROM teams WHERE name = ?1", [team])?;
    if known || !is_team {
        return Ok(0);
    }
    Ok(tx.execute(
        "INSERT INTO builds (team, number, sha256, bytes, file_name, uploaded_ms, status, \
         version, message, judged_ms) \
         SELECT ?1, COALESCE(MAX(number), 0) + 1, ?2, 0, ?3, ?4, ?5, ?6, ?7, ?4 \
         FROM builds WHERE team = ?1",
        params![
            team,
            verdict.sha256,
            FOUND_IN_FOLDER,
            verdict.at_ms,
            verdict.status.as_str(),
            verdict.version,
            verdict.message
        ],
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(name: &str) -> (Store, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("agon-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&dir.join("portal.sqlite")).unwrap();
        store.add_team("red", "hash-red", 1).unwrap();
        (store, dir)
    }

    const AT: (&str, u64) = ("events.jsonl", 1);

    fn verdict(sha256: &str, status: BuildStatus, version: Option<u32>) -> Verdict<'_> {
        Verdict {
            sha256,
            inode: None,
            status,
            version,
            message: "why",
            at_ms: 9,
        }
    }

    /// Red's builds that a verdict on content `sha256` changed.
    fn judged(store: &Store, sha256: &str, status: BuildStatus, version: Option<u32>) -> usize {
        store
            .judge("red", &verdict(sha256, status, version), AT)
            .unwrap()
    }

    fn statuses(store: &Store) -> Vec<(u32, BuildStatus, Option<u32>)> {
        let mut rows: Vec<_> = store
            .builds("red")
            .unwrap()
            .iter()
            .map(|b| (b.number, b.status, b.version))
            .collect();
        rows.reverse();
        rows
    }

    #[test]
    fn a_verdict_takes_its_content_and_replaced_uploads_are_superseded() {
        let (store, dir) = store("judge");
        for sha in ["a", "b", "b"] {
            store.add_build("red", (sha, 0), 10, "x.so", 5).unwrap();
        }
        // The ladder saw only the last content: both uploads of it take the verdict.
        assert_eq!(judged(&store, "b", BuildStatus::Accepted, Some(1)), 2);
        use BuildStatus::*;
        assert_eq!(
            statuses(&store),
            [
                (1, Superseded, None),
                (2, Accepted, Some(1)),
                (3, Accepted, Some(1))
            ]
        );
        // Read again after a restart: nothing changes.
        assert_eq!(judged(&store, "b", Accepted, Some(1)), 0);
        // Content no upload brought becomes a build of its own.
        assert_eq!(judged(&store, "c", Refused, None), 1);
        let found = &store.builds("red").unwrap()[0];
        assert_eq!((found.number, found.status), (4, Refused));
        assert_eq!(found.file_name, FOUND_IN_FOLDER);
        // Not counted as an upload of the hour.
        assert_eq!(store.uploads_since("red", 0).unwrap(), 3);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Content X, then Y, then X again, each judged in turn: each verdict is its own build's.
    #[test]
    fn a_verdict_is_the_oldest_uploads_of_its_content() {
        let (store, dir) = store("order");
        for sha in ["x", "y", "x"] {
            store.add_build("red", (sha, 0), 10, "x.so", 5).unwrap();
        }
        use BuildStatus::*;
        assert_eq!(judged(&store, "x", Accepted, Some(1)), 1);
        assert_eq!(judged(&store, "y", Refused, None), 1);
        assert_eq!(judged(&store, "x", Accepted, Some(1)), 1);
        assert_eq!(
            statuses(&store),
            [
                (1, Accepted, Some(1)),
                (2, Refused, None),
                (3, Accepted, Some(1))
            ]
        );
        assert_eq!(store.read_offset("events.jsonl").unwrap(), 1);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_team_keeps_only_its_latest_attempts() {
        let (store, dir) = store("attempts");
        store.add_team("blue", "hash-blue", 1).unwrap();
        store.log_upload("blue", "refused", "blue's", 1).unwrap();
        for at in 0..ATTEMPTS_KEPT + 30 {
            store
                .log_upload("red", "refused", &format!("#{at}"), at.into())
                .unwrap();
        }
        let kept = store.upload_log("red", 1000).unwrap();
        assert_eq!(kept.len(), ATTEMPTS_KEPT as usize);
        assert_eq!(kept[0].2, format!("#{}", ATTEMPTS_KEPT + 29));
        assert_eq!(store.upload_log("blue", 10).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_database_that_is_not_a_file_or_not_a_database_is_named() {
        let dir = agon_engine::output_file::fresh_scratch("store-bad").unwrap();
        std::fs::create_dir_all(dir.join("folder.sqlite")).unwrap();
        let Err(error) = Store::open(&dir.join("folder.sqlite")) else {
            panic!("opened a folder as the database");
        };
        assert!(matches!(&error, StoreError::File(e) if e.path == dir.join("folder.sqlite")));
        let garbage = dir.join("garbage.sqlite");
        std::fs::write(&garbage, vec![b'x'; 4096]).unwrap();
        let Err(error) = Store::open(&garbage) else {
            panic!("opened garbage as the database");
        };
        assert!(
            matches!(&error, StoreError::Open { path, .. } if *path == garbage),
            "{error:?}"
        );
        // SQLite's code is in the text already; as a source it would print a second time.
        assert!(std::error::Error::source(&error).is_none(), "{error:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_team_is_added_once_revoked_and_given_a_new_token() {
        let (store, dir) = store("teams");
        let exists = store.add_team("red", "other", 2).unwrap_err();
        assert!(
            matches!(&exists, StoreError::TeamExists { team } if team == "red"),
            "{exists}"
        );
        assert!(exists.to_string().contains("team revoke red"), "{exists}");
        assert_eq!(
            store.team_with_hash("hash-red").unwrap().as_deref(),
            Some("red")
        );
        assert!(store.revoke_team("red", 3).unwrap());
        assert!(!store.revoke_team("red", 4).unwrap());
        assert_eq!(store.token_hash("red").unwrap(), None);
        assert_eq!(store.team_with_hash("hash-red").unwrap(), None);
        assert!(store.is_team("red").unwrap());
        store.add_team("red", "new-hash", 5).unwrap();
        assert_eq!(
            store.token_hash("red").unwrap().as_deref(),
            Some("new-hash")
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
