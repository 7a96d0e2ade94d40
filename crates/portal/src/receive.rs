//! Receiving an uploaded file: streamed to `incoming/` as it arrives (never held in memory),
//! hashed on the way, refused once it passes the size limit or stalls, and synced to disk
//! before anything else sees it. A file not published is removed.

use super::body_budget::Budget;
use super::limits::LimitSettings;
use super::refusal::Refusal;
use agon_engine::{OnPath, PathError};
use axum::extract::multipart::{Field, MultipartError};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;

/// A received file, complete and on disk, not yet in the ladder's folder.
pub struct Received {
    pub sha256: String,
    pub bytes: u64,
    /// The file's inode, which it keeps when it is renamed into the slot.
    pub inode: u64,
    temp: TempFile,
}

/// A file in `incoming/`, removed when dropped unless it was published.
struct TempFile {
    path: PathBuf,
    published: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The `.part` files a portal stopped mid-upload left behind: no build uses them.
pub fn clear_incoming(incoming: &Path) {
    let Ok(entries) = std::fs::read_dir(incoming) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().ends_with(PART) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

const PART: &str = ".part";
/// Bytes of the file held in memory while they are written.
const WRITE_BUFFER: usize = 64 << 10;

/// Streams `field` into a new file in `incoming`.
pub async fn receive(
    mut field: Field<'_>,
    incoming: &Path,
    limits: &LimitSettings,
    budget: &Budget,
) -> Result<Received, Refusal> {
    let mut name = [0u8; 8];
    getrandom::fill(&mut name).map_err(|e| Refusal::internal(format!("no randomness: {e}")))?;
    let name: String = name.iter().map(|b| format!("{b:02x}")).collect();
    let temp = TempFile {
        path: incoming.join(format!("upload-{name}{PART}")),
        published: false,
    };
    let io = |e: std::io::Error| Refusal::internal(format!("{}: {e}", temp.path.display()));
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temp.path)
        .await
        .map_err(io)?;
    // What waits to be written is held in memory: no more than a chunk or two.
    file.set_max_buf_size(WRITE_BUFFER);
    let mut hasher = Sha256::new();
    let mut bytes: u64 = 0;
    loop {
        let chunk = match tokio::time::timeout(limits.idle, field.chunk()).await {
            Err(_) => {
                return Err(Refusal::timed_out(format!(
                    "the upload stalled: nothing arrived for {} s",
                    limits.idle.as_secs()
                )))
            }
            Ok(Err(e)) => return Err(multipart_refusal(e, limits)),
            Ok(Ok(None)) => break,
            Ok(Ok(Some(chunk))) => chunk,
        };
        budget.file_bytes(chunk.len());
        bytes += chunk.len() as u64;
        if bytes > limits.max_bytes {
            return Err(too_large(limits));
        }
        hasher.update(&chunk);
        file.write_all(&chunk).await.map_err(io)?;
    }
    if bytes == 0 {
        return Err(Refusal::bad_request("the file is empty".into()));
    }
    file.sync_all().await.map_err(io)?;
    let inode = std::os::unix::fs::MetadataExt::ino(&file.metadata().await.map_err(io)?);
    Ok(Received {
        sha256: format!("{:x}", hasher.finalize()),
        bytes,
        inode,
        temp,
    })
}

impl Received {
    /// Moves the file to `target` (one rename: the ladder sees the whole file or the old one)
    /// and syncs the folder, so that the move survives a crash.
    pub fn publish(mut self, target: &Path) -> Result<(), PublishError> {
        std::fs::rename(&self.temp.path, target).map_err(|source| PublishError::Rename {
            from: self.temp.path.clone(),
            to: target.to_path_buf(),
            source,
        })?;
        self.temp.published = true;
        let folder = target.parent().unwrap_or(Path::new("."));
        std::fs::File::open(folder)
            .and_then(|dir| dir.sync_all())
            .on_path(folder)?;
        Ok(())
    }
}

/// Why a received upload did not reach the ladder's folder: it could not be renamed there
/// (either name may be the one at fault), or the folder could not be synced.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("{} -> {}: {source}", from.display(), to.display())]
    Rename {
        from: PathBuf,
        to: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Sync(#[from] PathError),
}

pub fn too_large(limits: &LimitSettings) -> Refusal {
    Refusal::too_large(format!(
        "the file is larger than the portal's limit of {} MiB",
        limits.max_bytes >> 20
    ))
}

/// A body that broke off, was malformed, or passed the request's size limit.
pub fn multipart_refusal(error: MultipartError, limits: &LimitSettings) -> Refusal {
    if error.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        return too_large(limits);
    }
    Refusal::bad_request(format!(
        "the upload broke off or is malformed: {}",
        error.body_text()
    ))
}
