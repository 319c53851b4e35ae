//! The accept loop: one HTTP/1.1 connection per task, a header timeout for
//! clients that stall, and a clean stop.
//!
//! hyper answers what it cannot hand to the routes by itself: a request head
//! it cannot read (400) or that is too large (431), with an empty body; and
//! it closes a connection whose request head does not arrive in time,
//! without a word. Every answer of the server is JSON, and a client that sent
//! part of a request deserves a 408, so the socket is shared between hyper
//! and this loop: hyper's own answer is held back, and when the connection
//! ends, the loop writes the JSON one in its place, or the 408. A connection
//! that idles between requests (keep-alive) is closed silently, as
//! everywhere. A route's search watches the socket of its request
//! ([`Client::watch`]), so that it stops when its client goes.

use super::code::Code;
use super::error::ApiError;
use axum::http::StatusCode;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU8, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The server's limits in time for a connection.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a client may take to send a request's head.
    pub header_read: Duration,
    /// How long open connections get to finish at a stop.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(3),
        }
    }
}

/// The largest request head read (request line and headers); a larger one
/// is answered 431.
pub const MAX_HEAD: usize = 16 * 1024;

/// The most headers a request may have: as many as a head of [`MAX_HEAD`]
/// can hold (the shortest line, `a:` and a line feed, is 3 bytes), so that
/// its size is the one limit.
const MAX_HEADERS: usize = MAX_HEAD / 3;

/// Serves `router` on `listener` (and on `also`, where one name stands
/// for two addresses: `localhost`) until `stop` completes, then lets open
/// connections finish for `limits.shutdown_grace` at most.
pub async fn serve(
    (listener, also): (TcpListener, Option<TcpListener>),
    router: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        // A client may close its side once its request is sent (`nc -N`,
        // some HTTP/1.0 clients); it still gets its answer, though a search
        // longer than a second stops as for a client gone (see
        // `watch_for_close`).
        .half_close(true)
        .header_read_timeout(limits.header_read)
        .max_buf_size(MAX_HEAD)
        .max_header_size(MAX_HEAD)
        .max_headers(MAX_HEADERS);
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = accept(&listener, also.as_ref()) => {
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
                let socket = Arc::new(Socket::new(stream));
                let io = TokioIo::new(SharedIo(socket.clone()));
                let service = TowerToHyperService::new(MarkingRouter {
                    router: router.clone(),
                    socket: socket.clone(),
                });
                let connection = graceful.watch(builder.serve_connection(io, service));
                tokio::spawn(async move {
                    if let Err(e) = connection.await {
                        if let Some(answer) = socket.unanswered(&e, limits) {
                            let _ = tokio::time::timeout(
                                Duration::from_secs(1),
                                socket.write_all(&answer.to_http()),
                            )
                            .await;
                        }
                    }
                });
            }
            _ = &mut stop => break,
        }
    }
    drop((listener, also));
    let _ = tokio::time::timeout(limits.shutdown_grace, graceful.shutdown()).await;
}

/// The next connection on `listener`, or on `also` if there is one.
async fn accept(
    listener: &TcpListener,
    also: Option<&TcpListener>,
) -> std::io::Result<(TcpStream, std::net::SocketAddr)> {
    match also {
        None => listener.accept().await,
        Some(also) => tokio::select! {
            accepted = listener.accept() => accepted,
            accepted = also.accept() => accepted,
        },
    }
}

tokio::task_local! {
    /// The connection of the request being answered, for a route that
    /// searches to [`Client::watch`]. Requests that do not come through
    /// [`serve`] (the tests' own calls of the router) have none.
    pub static CLIENT: Client;
}

/// A request's connection, as the routes see it.
pub struct Client(Arc<Socket>);

impl Client {
    /// A flag set once the client goes (see [`watch_for_close`]), watched
    /// until the [`Watch`] is dropped: a search runs while it holds one.
    pub fn watch(&self) -> Watch {
        let gone = Arc::new(AtomicBool::new(false));
        let task = tokio::spawn(watch_for_close(self.0.clone(), gone.clone()));
        Watch {
            gone,
            _task: AbortOnDrop(task),
        }
    }
}

/// The watch of a client while a search runs.
pub struct Watch {
    /// Set once the client has gone.
    pub gone: Arc<AtomicBool>,
    _task: AbortOnDrop,
}

/// The router as hyper's service, marking on the socket each request that
/// reaches it (what hyper writes for such a request is the router's
/// answer), with its connection as [`CLIENT`].
#[derive(Clone)]
struct MarkingRouter {
    router: Router,
    socket: Arc<Socket>,
}

impl<B> tower::Service<hyper::Request<B>> for MarkingRouter
where
    Router: tower::Service<hyper::Request<B>>,
{
    type Response = <Router as tower::Service<hyper::Request<B>>>::Response;
    type Error = <Router as tower::Service<hyper::Request<B>>>::Error;
    type Future = tokio::task::futures::TaskLocalFuture<
        Client,
        <Router as tower::Service<hyper::Request<B>>>::Future,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        tower::Service::<hyper::Request<B>>::poll_ready(&mut self.router, cx)
    }

    fn call(&mut self, request: hyper::Request<B>) -> Self::Future {
        self.socket.phase.store(ROUTED, Ordering::Relaxed);
        CLIENT.scope(Client(self.socket.clone()), self.router.call(request))
    }
}

/// How long a search goes on after its client's input ends: TCP does not
/// tell a closed connection from one closed only for sending (`nc -N`),
/// whose client still reads, so a short search is still answered.
const GONE_AFTER: Duration = Duration::from_secs(1);

/// Sets `gone` once the client closes the connection or resets it, and
/// [`GONE_AFTER`] has passed. hyper does not read while a request is
/// answered (it lets a client close its sending side and still get the
/// answer), so this looks at the socket without taking from it. Bytes of a
/// next request (pipelining) hide what follows them, and end the watch.
async fn watch_for_close(socket: Arc<Socket>, gone: Arc<AtomicBool>) {
    let mut byte = [0u8; 1];
    if let Ok(0) | Err(_) = socket.stream.peek(&mut byte).await {
        tokio::time::sleep(GONE_AFTER).await;
        gone.store(true, Ordering::Relaxed);
    }
}

/// Stops a task when dropped: the watch of a client ends with its search.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The phases of an exchange, as [`Socket::phase`] holds them: no request
/// with the router (what hyper writes then is its own answer), one handed
/// to it, its answer being written.
const IDLE: u8 = 0;
const ROUTED: u8 = 1;
const ANSWERING: u8 = 2;

/// A connection's socket, shared between hyper and the accept loop.
struct Socket {
    stream: TcpStream,
    /// Whether bytes of a request arrived since the last response was
    /// written: a timeout then cut a request short.
    partial: AtomicBool,
    /// Where the exchange is: [`IDLE`], [`ROUTED`] or [`ANSWERING`].
    phase: AtomicU8,
    /// The status of the answer hyper wrote by itself, held back (0: none).
    withheld: AtomicU16,
}

impl Socket {
    fn new(stream: TcpStream) -> Socket {
        Socket {
            stream,
            partial: AtomicBool::new(false),
            phase: AtomicU8::new(IDLE),
            withheld: AtomicU16::new(0),
        }
    }

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

    /// Whether `bytes`, about to be written, begin hyper's own answer: a
    /// status line while no request is with the router. Its status is kept
    /// for [`Socket::unanswered`], and the bytes are dropped. (A client that
    /// pipelines a bad request behind a good one and does not read the
    /// first answer can still get hyper's: it follows that answer unsent.)
    fn withhold(&self, bytes: &[u8]) -> bool {
        match self.phase.load(Ordering::Relaxed) {
            IDLE => match status_of(bytes) {
                Some(status) => {
                    self.withheld.store(status, Ordering::Relaxed);
                    true
                }
                None => false,
            },
            ROUTED => {
                self.phase.store(ANSWERING, Ordering::Relaxed);
                false
            }
            _ => false,
        }
    }

    /// What to write when the connection ended with `e`: hyper's own
    /// answer, held back, in JSON; a 400 for a head hyper refused without
    /// an answer; or a 408 for a request cut short by the header timeout.
    /// Nothing for a connection that simply closed.
    fn unanswered(&self, e: &hyper::Error, limits: Limits) -> Option<ApiError> {
        let withheld = self.withheld.load(Ordering::Relaxed);
        if withheld != 0 {
            let status = StatusCode::from_u16(withheld).ok()?;
            let head_too_large = || {
                format!("the request head (its request line and headers) is over {MAX_HEAD} bytes")
            };
            let (code, message) = match status {
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
                    (Code::HeadTooLarge, head_too_large())
                }
                // A request line past the limit.
                StatusCode::URI_TOO_LONG => (Code::QueryTooLong, head_too_large()),
                _ => (
                    Code::BadRequest,
                    format!("not a request this server can read: {e}"),
                ),
            };
            return Some(ApiError::new(code, message).with_status(status));
        }
        if e.is_parse() {
            // A head hyper refused without answering: an HTTP/2 preface.
            return Some(ApiError::new(
                Code::BadRequest,
                format!("not a request this server can read: {e}; it speaks HTTP/1.1"),
            ));
        }
        if e.is_timeout() && self.partial.load(Ordering::Relaxed) {
            return Some(ApiError::new(
                Code::RequestTimeout,
                format!(
                    "the request did not arrive within {} s",
                    limits.header_read.as_secs_f64()
                ),
            ));
        }
        None
    }
}

/// The status of the response whose status line `bytes` begin with.
fn status_of(bytes: &[u8]) -> Option<u16> {
    let rest = bytes
        .strip_prefix(b"HTTP/1.1 ")
        .or_else(|| bytes.strip_prefix(b"HTTP/1.0 "))?;
    let digits = std::str::from_utf8(rest.get(..3)?).ok()?;
    digits.parse().ok()
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
    /// One write through readiness of `len` bytes, the first of which are
    /// `first`: `write` is the socket's `try_write` or `try_write_vectored`.
    /// A write is a response under way, so no request is left half-sent.
    fn poll_write_with(
        &self,
        cx: &mut Context<'_>,
        first: &[u8],
        len: usize,
        write: impl Fn(&TcpStream) -> io::Result<usize>,
    ) -> Poll<io::Result<usize>> {
        let socket = &self.0;
        if socket.withhold(first) {
            return Poll::Ready(Ok(len));
        }
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
        self.poll_write_with(cx, buf, buf.len(), |stream| stream.try_write(buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let first = bufs
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&[][..], |b| &b[..]);
        let len = bufs.iter().map(|b| b.len()).sum();
        self.poll_write_with(cx, first, len, |stream| stream.try_write_vectored(bufs))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // hyper flushes once all it buffered is written: an answer under way
        // is complete.
        let _ =
            self.0
                .phase
                .compare_exchange(ANSWERING, IDLE, Ordering::Relaxed, Ordering::Relaxed);
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // The socket closes when the last reference to it goes.
        Poll::Ready(Ok(()))
    }
}
