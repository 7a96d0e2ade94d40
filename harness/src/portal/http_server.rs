//! The HTTP server: hyper's HTTP/1 connections, each with a header-read timeout (a client that
//! opens connections and sends headers slowly is cut off), at most [`MAX_CONNECTIONS`] at once,
//! and a graceful end: when the ladder stops, connections finish their request and close.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

const MAX_CONNECTIONS: usize = 512;
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the end waits for requests in flight.
const DRAIN: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` until `stop` turns true.
pub async fn serve(listener: TcpListener, app: Router, mut stop: watch::Receiver<bool>) {
    let graceful = GracefulShutdown::new();
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        // Out of descriptors, or a connection reset before it was taken.
                        log::warn!("portal: accept: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let Ok(permit) = connections.clone().try_acquire_owned() else {
                    continue; // dropped: too many connections
                };
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
                let connection = graceful.watch(connection);
                tokio::spawn(async move {
                    let _ = connection.await;
                    drop(permit);
                });
            }
            _ = stop.changed() => break,
        }
    }
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(DRAIN) => {}
    }
}
