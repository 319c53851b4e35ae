//! The accept loop: one HTTP/1.1 connection per task, a header timeout for
//! clients that stall, and a clean stop.
//!
//! hyper closes a connection whose request head does not arrive in time,
//! without a word. A client that sent part of a request deserves a 408, so
//! the socket is shared between hyper and this loop: when hyper gives up on
//! a half-sent request, the loop writes the 408 itself. A connection that
//! idles between requests (keep-alive) is closed silently, as everywhere.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The server's limits in time and size.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a client may take to send a request's head.
    pub header_read: Duration,
    /// How long one request may take to be answered.
    pub handler: Duration,
    /// How long open connections get to finish at a stop.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read: Duration::from_secs(10),
            handler: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(3),
        }
    }
}

/// The largest request head hyper buffers (request line and headers); a
/// larger one is answered 431 (or 414 for a long request line).
const MAX_HEAD: usize = 16 * 1024;

/// Serves `router` on `listener` until `stop` completes, then lets open
/// connections finish for `limits.shutdown_grace` at most.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) {
    let router = router.layer(tower_http::timeout::TimeoutLayer::with_status_code(
        axum::http::StatusCode::REQUEST_TIMEOUT,
        limits.handler,
    ));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read)
        .max_buf_size(MAX_HEAD);
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    // Out of descriptors, or a connection reset before it
                    // was accepted: wait a little rather than spin.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let socket = Arc::new(Socket { stream, partial: AtomicBool::new(false) });
                let io = TokioIo::new(SharedIo(socket.clone()));
                let service = TowerToHyperService::new(router.clone());
                let connection = graceful.watch(builder.serve_connection(io, service));
                tokio::spawn(async move {
                    if let Err(e) = connection.await {
                        if e.is_timeout() && socket.partial.load(Ordering::Relaxed) {
                            let _ = tokio::time::timeout(
                                Duration::from_secs(1),
                                socket.write_all(&request_timeout()),
                            )
                            .await;
                        }
                    }
                });
            }
            _ = &mut stop => break,
        }
    }
    drop(listener);
    let _ = tokio::time::timeout(limits.shutdown_grace, graceful.shutdown()).await;
}

/// The answer to a client that stalled in the middle of a request head.
fn request_timeout() -> Vec<u8> {
    let body = r#"{"error":"the request did not arrive in time"}"#;
    format!(
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A connection's socket, shared between hyper and the accept loop.
struct Socket {
    stream: TcpStream,
    /// Whether bytes of a request arrived since the last response was
    /// written: a timeout then cut a request short.
    partial: AtomicBool,
}

impl Socket {
    async fn write_all(&self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            self.stream.writable().await?;
            match self.stream.try_write(bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The socket as hyper's I/O: reads and writes through readiness, as
/// `TcpStream`'s own `AsyncRead` and `AsyncWrite` do, but by reference.
struct SharedIo(Arc<Socket>);

impl AsyncRead for SharedIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let socket = &self.0;
        loop {
            ready!(socket.stream.poll_read_ready(cx))?;
            // Zeroes what hyper's buffer leaves uninitialised: a small cost
            // for a read without `unsafe`.
            match socket.stream.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    if n > 0 {
                        socket.partial.store(true, Ordering::Relaxed);
                    }
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl SharedIo {
    /// One write through readiness: `write` is the socket's `try_write` or
    /// `try_write_vectored`. A write is a response under way, so no request
    /// is left half-sent.
    fn poll_write_with(
        &self,
        cx: &mut Context<'_>,
        write: impl Fn(&TcpStream) -> io::Result<usize>,
    ) -> Poll<io::Result<usize>> {
        let socket = &self.0;
        loop {
            ready!(socket.stream.poll_write_ready(cx))?;
            match write(&socket.stream) {
                Ok(n) => {
                    socket.partial.store(false, Ordering::Relaxed);
                    return Poll::Ready(Ok(n));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl AsyncWrite for SharedIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_with(cx, |stream| stream.try_write(buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_with(cx, |stream| stream.try_write_vectored(bufs))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // The socket closes when the last reference to it goes.
        Poll::Ready(Ok(()))
    }
}
