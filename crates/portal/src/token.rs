//! Team tokens. A token is 128 random bits, shown once when the team is added; the portal keeps
//! only its keyed BLAKE3 hash, under a key of its own (`portal.key`, apart from the database:
//! a copy of the database alone gives no way to test guesses). Hashes are compared in constant
//! time (`blake3::Hash`'s equality).

use agon_engine::{OnPath, PathError};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// What every token starts with, so that one pasted in the wrong place is recognisable.
const PREFIX: &str = "agon_";

pub struct TokenKey([u8; 32]);

impl TokenKey {
    /// The key in `path`, made (readable by its owner only) where there is none yet.
    pub fn load_or_create(path: &Path) -> Result<TokenKey, KeyError> {
        match std::fs::read(path) {
            Ok(bytes) => {
                let key: [u8; 32] =
                    bytes
                        .as_slice()
                        .try_into()
                        .map_err(|_| KeyError::WrongLength {
                            path: path.to_path_buf(),
                            found: bytes.len(),
                        })?;
                Ok(TokenKey(key))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut key = [0u8; 32];
                getrandom::fill(&mut key).map_err(NoRandomness)?;
                write_whole(path, &key).on_path(path)?;
                Ok(TokenKey(key))
            }
            Err(e) => Err(PathError::new(path, e).into()),
        }
    }

    /// The hash kept for `token`, as hex.
    pub fn hash(&self, token: &str) -> String {
        blake3::keyed_hash(&self.0, token.as_bytes())
            .to_hex()
            .to_string()
    }

    /// A signature of `fields` for `purpose` (a session, a form's CSRF token), as hex: keyed
    /// by the portal's key under a key of its own per purpose, each field length-prefixed.
    pub fn sign(&self, purpose: &str, fields: &[&str]) -> String {
        self.signature(purpose, fields).to_hex().to_string()
    }

    /// Whether `signature` (hex) is [`TokenKey::sign`]'s for these, in constant time.
    pub fn verify(&self, purpose: &str, fields: &[&str], signature: &str) -> bool {
        blake3::Hash::from_hex(signature)
            .is_ok_and(|given| given == self.signature(purpose, fields))
    }

    fn signature(&self, purpose: &str, fields: &[&str]) -> blake3::Hash {
        let key = blake3::keyed_hash(&self.0, format!("agon portal {purpose}").as_bytes());
        let mut hasher = blake3::Hasher::new_keyed(key.as_bytes());
        for field in fields {
            hasher.update(&(field.len() as u64).to_le_bytes());
            hasher.update(field.as_bytes());
        }
        hasher.finalize()
    }

    /// Whether `token` is the one whose hash is `stored` (hex), in constant time.
    pub fn matches(&self, token: &str, stored: &str) -> bool {
        blake3::Hash::from_hex(stored)
            .is_ok_and(|stored| blake3::keyed_hash(&self.0, token.as_bytes()) == stored)
    }
}

/// Writes the key under a temporary name, synced, then renames it into place and syncs the
/// folder: a portal stopped at any point leaves the whole key or none (and the database's
/// hashes are never left without the key they were made with).
fn write_whole(path: &Path, key: &[u8]) -> std::io::Result<()> {
    let temp = path.with_extension("new");
    let _ = std::fs::remove_file(&temp);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temp)?;
    file.write_all(key)?;
    file.sync_all()?;
    std::fs::rename(&temp, path)?;
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    std::fs::File::open(folder.unwrap_or(Path::new(".")))?.sync_all()
}

/// A new token: 128 random bits, as hex after [`PREFIX`].
pub fn new_token() -> Result<String, NoRandomness> {
    let mut bits = [0u8; 16];
    getrandom::fill(&mut bits).map_err(NoRandomness)?;
    let hex: String = bits.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{PREFIX}{hex}"))
}

/// The operating system gave no random bits.
#[derive(Debug, thiserror::Error)]
#[error("no randomness: {0}")]
pub struct NoRandomness(#[source] getrandom::Error);

/// Why the key that token hashes are made with cannot be used: its file is not one, it cannot
/// be read or made, or there is no randomness to make it with.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{}: expected the portal's 32-byte key, found {found} bytes", path.display())]
    WrongLength { path: PathBuf, found: usize },
    #[error(transparent)]
    File(#[from] PathError),
    #[error(transparent)]
    NoRandomness(#[from] NoRandomness),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_matches_its_own_hash_only() {
        let dir = std::env::temp_dir().join(format!("agon-token-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let key = TokenKey::load_or_create(&dir.join("key")).unwrap();
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.len(), PREFIX.len() + 32);
        let stored = key.hash(&a);
        assert!(key.matches(&a, &stored));
        assert!(!key.matches(&b, &stored));
        assert!(!key.matches(&a, "not hex"));
        // The same key is read back; another key makes other hashes.
        let again = TokenKey::load_or_create(&dir.join("key")).unwrap();
        assert!(again.matches(&a, &stored));
        let other = TokenKey::load_or_create(&dir.join("other")).unwrap();
        assert!(!other.matches(&a, &stored));
        std::fs::write(dir.join("short"), b"abc").unwrap();
        let signed = key.sign("session", &["red", "17"]);
        assert!(key.verify("session", &["red", "17"], &signed));
        assert!(!key.verify("session", &["red", "18"], &signed));
        assert!(!key.verify("csrf", &["red", "17"], &signed));
        assert!(
            !key.verify("session", &["red1", "7"], &signed),
            "fields keep their bounds"
        );
        assert!(!other.verify("session", &["red", "17"], &signed));
        let refused = TokenKey::load_or_create(&dir.join("short")).err().unwrap();
        assert!(
            matches!(refused, KeyError::WrongLength { found: 3, .. }),
            "{refused:?}"
        );
        assert!(
            refused
                .to_string()
                .ends_with("short: expected the portal's 32-byte key, found 3 bytes"),
            "{refused}"
        );
        let folder = TokenKey::load_or_create(&dir).err().unwrap();
        assert!(matches!(folder, KeyError::File(_)), "{folder:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
