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
    pub fn load(cert: &Path, key: &Path) -> Result<Tls, String> {
        Ok(Tls {
            config: RwLock::new(server_config(cert, key)?),
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
        })
    }

    /// Reads the files again; the old certificate stays if they cannot be used.
    pub fn reload(&self) -> Result<(), String> {
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

fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("--tls-cert {}: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "--tls-cert {}: expected a PEM certificate (chain), found none",
            cert.display()
        ));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        format!(
            "--tls-key {}: expected a PEM private key: {e}",
            key.display()
        )
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, private)
        .map_err(|e| {
            format!(
                "--tls-cert {} and --tls-key {}: {e}",
                cert.display(),
                key.display()
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}
