//! HTTPS served by the portal itself (`--tls-cert`, `--tls-key`): a course server is reached
//! over the internet, and one program with its certificate is less to set up and keep right
//! than a reverse proxy in front (which would also hide the clients' addresses from the
//! connection limits). The files are read again on SIGHUP, so a renewed certificate (certbot's
//! deploy hook) is taken without a restart; a renewal that cannot be read keeps the old one.

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use tokio_rustls::TlsAcceptor;

pub struct Tls {
    cert: PathBuf,
    key: PathBuf,
    config: RwLock<Arc<ServerConfig>>,
}

impl Tls {
    pub fn load(cert: &Path, key: &Path) -> Result<Tls, TlsError> {
        Ok(Tls {
            config: RwLock::new(server_config(cert, key)?),
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
        })
    }

    /// Reads the files again; the old certificate stays if they cannot be used.
    pub fn reload(&self) -> Result<(), TlsError> {
        let config = server_config(&self.cert, &self.key)?;
        *self.config.write().unwrap_or_else(|p| p.into_inner()) = config;
        Ok(())
    }

    /// What the next connection's handshake uses.
    pub fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(
            self.config
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .clone(),
        )
    }
}

fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, TlsError> {
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|source| TlsError::Cert {
            path: cert.to_path_buf(),
            source,
        })?;
    if certs.is_empty() {
        return Err(TlsError::NoCert {
            path: cert.to_path_buf(),
        });
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|source| TlsError::Key {
        path: key.to_path_buf(),
        source,
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(TlsError::Provider)?
        .with_no_client_auth()
        .with_single_cert(certs, private)
        .map_err(|source| TlsError::Pair {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
            source,
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Why the certificate and its key cannot serve: a file that is not PEM, or no certificate in
/// it, or a key that is not the certificate's.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("--tls-cert {}: {source}", path.display())]
    Cert {
        path: PathBuf,
        source: rustls::pki_types::pem::Error,
    },
    #[error("--tls-cert {}: expected a PEM certificate (chain), found none", path.display())]
    NoCert { path: PathBuf },
    #[error("--tls-key {}: expected a PEM private key: {source}", path.display())]
    Key {
        path: PathBuf,
        source: rustls::pki_types::pem::Error,
    },
    #[error("TLS: {0}")]
    Provider(#[source] rustls::Error),
    #[error("--tls-cert {} and --tls-key {}: {source}", cert.display(), key.display())]
    Pair {
        cert: PathBuf,
        key: PathBuf,
        source: rustls::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_that_cannot_serve_names_its_flag_and_file() {
        let dir = agon_engine::output_file::fresh_scratch("portal-tls").unwrap();
        let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
        let Err(missing) = Tls::load(&cert, &key) else {
            panic!("a missing certificate served");
        };
        assert!(matches!(missing, TlsError::Cert { .. }), "{missing:?}");
        assert!(
            missing
                .to_string()
                .starts_with(&format!("--tls-cert {}: ", cert.display())),
            "{missing}"
        );
        std::fs::write(&cert, "not a certificate\n").unwrap();
        let Err(none) = Tls::load(&cert, &key) else {
            panic!("a file without a certificate served");
        };
        assert_eq!(
            none.to_string(),
            format!(
                "--tls-cert {}: expected a PEM certificate (chain), found none",
                cert.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
