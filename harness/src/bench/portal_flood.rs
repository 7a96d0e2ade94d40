//! The portal against strangers, for `agon bench --suite portal`: connections held open from
//! many loopback addresses (127.0.0.N), each sending a request's head a byte at a time and
//! connecting again whenever it is cut, and the worst inputs the portal's parsers can be fed
//! over every connection it allows.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Strangers holding connections until dropped.
pub struct Strangers {
    stop: Arc<AtomicBool>,
    held: Arc<AtomicUsize>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Strangers {
    /// `each` strangers from each of 127.0.0.N, N in `addresses`.
    pub fn start(portal: SocketAddr, addresses: std::ops::Range<u8>, each: usize) -> Strangers {
        let (stop, held) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicUsize::new(0)),
        );
        let (stopping, counting) = (stop.clone(), held.clone());
        let thread = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async move {
                let mut tasks = Vec::new();
                for last in addresses {
                    for _ in 0..each {
                        let (stop, held) = (stopping.clone(), counting.clone());
                        tasks.push(tokio::spawn(hold_open(portal, last, stop, held)));
                    }
                }
                for task in tasks {
                    let _ = task.await;
                }
            });
        });
        Strangers {
            stop,
            held,
            thread: Some(thread),
        }
    }

    /// Connections held now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }
}

impl Drop for Strangers {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn hold_open(portal: SocketAddr, last: u8, stop: Arc<AtomicBool>, held: Arc<AtomicUsize>) {
    let from = SocketAddr::new(IpAddr::from([127, 0, 0, last]), 0);
    while !stop.load(Ordering::Relaxed) {
        let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
            return;
        };
        if socket.bind(from).is_err() {
            return;
        }
        let Ok(mut stream) = socket.connect(portal).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        held.fetch_add(1, Ordering::Relaxed);
        let head = b"GET /api/standings HTTP/1.1\r\nHost: x\r\nX-Slow: ";
        let mut answer = [0u8; 256];
        for sent in 0.. {
            let byte = head.get(sent).copied().unwrap_or(b'a');
            if stop.load(Ordering::Relaxed) || stream.write_all(&[byte]).await.is_err() {
                break;
            }
            // Cut, or answered: either way this connection is over.
            let read = tokio::time::timeout(Duration::from_millis(500), stream.read(&mut answer));
            if read.await.is_ok() {
                break;
            }
        }
        held.fetch_sub(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The time of one `GET /api/standings` on a new connection, in ms, or why it failed.
pub fn standings_ms(portal: SocketAddr) -> anyhow::Result<f64> {
    use std::io::{Read, Write};
    let asked = std::time::Instant::now();
    let mut stream = std::net::TcpStream::connect(portal)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.write_all(b"GET /api/standings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    if !answer.starts_with(b"HTTP/1.1 200") {
        anyhow::bail!(
            "{}",
            String::from_utf8_lossy(&answer[..answer.len().min(80)])
        );
    }
    Ok(asked.elapsed().as_secs_f64() * 1000.0)
}

/// The worst inputs over every connection the portal allows: each team's upload with a part
/// header that never ends, then heads just short of the portal's limit from strangers on every
/// other place. The connections are held until the returned streams are dropped.
pub fn worst_inputs(
    portal: SocketAddr,
    uploads: &[(String, String)],
    connections: usize,
) -> Vec<std::net::TcpStream> {
    use std::io::Write;
    let mut held = Vec::new();
    for (team, token) in uploads {
        let Ok(mut stream) = std::net::TcpStream::connect(portal) else {
            continue;
        };
        let head = format!(
            "POST /api/teams/{team}/builds HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \
             {token}\r\nContent-Type: multipart/form-data; boundary=b\r\n\
             Content-Length: 60000000\r\n\r\n--b\r\nX-Pad: "
        );
        let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
        let _ = stream.write_all(head.as_bytes());
        let pad = vec![b'a'; 1 << 20];
        // Cut by the portal well before this is all sent.
        for _ in 0..8 {
            if stream.write_all(&pad).is_err() {
                break;
            }
        }
        held.push(stream);
    }
    let head = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: {}",
        "a".repeat(15 << 10)
    );
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return held;
    };
    let per_address = 30;
    for last in 2..=254u8 {
        for _ in 0..per_address {
            if held.len() >= connections {
                return held;
            }
            let from = SocketAddr::new(IpAddr::from([127, 0, 0, last]), 0);
            if let Ok(mut stream) = runtime.block_on(connect_from(from, portal)) {
                let _ = stream.write_all(head.as_bytes());
                held.push(stream);
            }
        }
    }
    held
}

/// A connection to `to` from the address `from` (std cannot bind before it connects).
async fn connect_from(from: SocketAddr, to: SocketAddr) -> std::io::Result<std::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(from)?;
    let stream = socket.connect(to).await?.into_std()?;
    stream.set_nonblocking(false)?;
    Ok(stream)
}
