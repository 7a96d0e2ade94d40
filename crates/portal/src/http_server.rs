//! The HTTP server: hyper's HTTP/1 connections over TCP or TLS, each admitted by the
//! connection table (`connections`), with bounded buffers and headers, a header-read timeout
//! (which also closes a keep-alive connection idle that long), a bounded life for a connection
//! that proves no team, and a graceful end: when the ladder stops, connections finish their
//! request and close.

use super::connections::{Client, Connection, Refused, Table};
use super::secured_io::SecuredIo;
use super::tls::Tls;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};
use tower::ServiceExt;

/// A request's headers must arrive within this; so must the next request on a kept-alive
/// connection.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection may live without proving a team.
pub const UNAUTHENTICATED_LIFE: Duration = Duration::from_secs(30);
/// How long a connection told to end may finish its request.
const GRACE: Duration = Duration::from_secs(5);
/// How long a TLS handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long the end waits for requests in flight.
const DRAIN: Duration = Duration::from_secs(5);
/// The most a connection buffers of what it reads (and so the largest body chunk).
pub const READ_BUFFER: usize = 32 << 10;
/// The most a request's head may take, and how many headers it may have.
const HEAD_BYTES: usize = 16 << 10;
const HEADERS: usize = 64;

pub struct Server {
    pub app: Router,
    pub table: Arc<Table>,
    pub tls: Option<Arc<Tls>>,
}

/// Serves on `listener` until `stop` turns true.
pub async fn serve(listener: TcpListener, server: Server, stop: watch::Receiver<bool>) {
    let (running, mut all_ended) = mpsc::channel::<()>(1);
    let mut stopping = stop.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of descriptors, or a connection reset before it was taken.
                        log::warn!("portal: accept: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let client = Client::of(peer.ip());
                let connection = match server.table.admit(client) {
                    Ok(connection) => Arc::new(connection),
                    Err(refused) => {
                        turn_away(&stream, client, refused);
                        continue;
                    }
                };
                let (app, tls, stop, running) =
                    (server.app.clone(), server.tls.clone(), stop.clone(), running.clone());
                tokio::spawn(async move {
                    let _running = running;
                    match tls {
                        None => serve_one(TokioIo::new(stream), connection, app, stop).await,
                        Some(tls) => {
                            let handshake = tokio::time::timeout(HANDSHAKE, tls.acceptor().accept(stream));
                            if let Ok(Ok(stream)) = handshake.await {
                                serve_one(TokioIo::new(stream), connection, app, stop).await;
                            }
                        }
                    }
                });
            }
            _ = stopping.changed() => break,
        }
    }
    drop(running);
    let _ = tokio::time::timeout(DRAIN, all_ended.recv()).await;
}

/// A short answer for a connection that is not taken, written if the socket takes it at once
/// (never waited for), then the connection is closed.
fn turn_away(stream: &tokio::net::TcpStream, client: Client, refused: Refused) {
    log::debug!("portal: a connection from {client} is not taken: {refused:?}");
    let mut answer = String::from("HTTP/1.1 503 Service Unavailable\r\n");
    for (name, value) in super::csp::every_answer(super::csp::DATA_POLICY) {
        answer.push_str(&format!("{name}: {value}\r\n"));
    }
    answer.push_str("retry-after: 10\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    let _ = stream.try_write(answer.as_bytes());
}

/// One connection, until it ends, is cut for a newcomer, outlives its unauthenticated life,
/// or the server stops.
async fn serve_one<I>(
    io: TokioIo<I>,
    connection: Arc<Connection>,
    app: Router,
    mut stop: watch::Receiver<bool>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let tagged = connection.clone();
    let service = app.map_request(move |mut request: axum::extract::Request<_>| {
        request.extensions_mut().insert(tagged.clone());
        request
    });
    let http = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(READ_BUFFER)
        .max_header_size(HEAD_BYTES)
        .max_headers(HEADERS)
        .serve_connection(SecuredIo::new(io), TowerToHyperService::new(service));
    tokio::pin!(http);
    let life = tokio::time::sleep(UNAUTHENTICATED_LIFE);
    tokio::pin!(life);
    let mut ending: Option<std::pin::Pin<Box<tokio::time::Sleep>>> = None;
    loop {
        tokio::select! {
            _ = http.as_mut() => return,
            () = connection.cut.notified() => return,
            () = &mut life, if ending.is_none() && !connection.is_authenticated() => {
                http.as_mut().graceful_shutdown();
                ending = Some(Box::pin(tokio::time::sleep(GRACE)));
            }
            _ = stop.changed(), if ending.is_none() => {
                http.as_mut().graceful_shutdown();
                ending = Some(Box::pin(tokio::time::sleep(GRACE)));
            }
            () = async { ending.as_mut().expect("guarded").await }, if ending.is_some() => return,
        }
    }
}
