//! `query serve`: a local web page over the databases found, and the JSON
//! API it uses.
//!
//! Like the rest of the binary, it converts and never re-implements: every
//! answer is a library call, and every JSON object is the one the matching
//! subcommand prints with `--json`. A preview server for one person, as
//! `mdbook serve` is: loopback by default, small limits, short timeouts.
//!
//! - `boards`: which databases are served (discovery, in the command
//!   line's lookup order).
//! - `api`: the routes, their parameters and their errors.
//! - `kind`: complete tables and pattern databases behind the routes: a
//!   lookup or a search with a deadline, and one refusal for what needs
//!   complete tables.
//! - `hosts`: requests for this machine only, on loopback.
//! - `origins`: `--allow-origin`, for pages served from elsewhere, and
//!   the refusal of other sites' pages' requests.
//! - `conn`: the accept loop: HTTP/1.1 connections with a header timeout and
//!   a limit on the request head, JSON answers to what never reaches the
//!   routes (a head that is not HTTP, too large, or cut short), and a clean
//!   stop.
//! - `page/`: the page's HTML, CSS and JavaScript, embedded in the binary.

mod api;
mod boards;
mod code;
mod conn;
mod error;
mod hosts;
mod kind;
mod origins;
mod served;
#[cfg(test)]
mod tests;

pub use api::{router, Stopping};
pub use boards::discover;
pub use conn::{serve, Limits};

use crate::numbers::whole;
use npuzzle::files::shown_path;
use npuzzle::Shape;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `query serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (and prints it).
    #[arg(short, long, default_value_t = 8080, value_parser = whole(0..=u16::MAX), allow_negative_numbers = true)]
    port: u16,
    /// The address to listen on: an IP address, or `localhost` (127.0.0.1 and, where the
    /// machine has IPv6, ::1 on the same port). Anything but loopback makes the page
    /// reachable from other machines; on loopback, only requests naming this machine
    /// (`Host: localhost`, `127.0.0.1`, `[::1]`) are answered.
    #[arg(long, default_value = "127.0.0.1", value_parser = parse_host, value_name = "ADDRESS")]
    host: Host,
    /// Open the page in the default browser once it is served.
    #[arg(short, long)]
    open: bool,
    /// Give up on a request's search after SECONDS (pattern databases, and boards served with
    /// no file; complete tables answer at once) and answer 503 with a JSON error
    /// (/api/heuristics answers with the bound the search proved).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "10",
        value_parser = parse_timeout,
        allow_negative_numbers = true
    )]
    timeout: Duration,
    /// Let scripts of pages from ORIGIN read the API's answers (CORS), for a front end served
    /// elsewhere: http://localhost:3000, say, or * for any page. Given again for more origins.
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = origins::parse_origin)]
    allow_origin: Vec<String>,
}

/// `--timeout`'s value, as `query solve --timeout` reads it; a server has
/// no unlimited searches, so what to do instead is worded for it.
fn parse_timeout(text: &str) -> Result<Duration, String> {
    crate::search::parse_seconds(
        text,
        "the server bounds every search: give a number of seconds (10 by default)",
    )
}

/// How much longer than a search a request may take before the server
/// answers 408 without it: room to finish writing the answer.
const ANSWER_MARGIN: Duration = Duration::from_secs(5);

/// Where `serve` listens: one address, or `localhost`, which clients
/// resolve to 127.0.0.1 or to ::1 (some, such as Node's `fetch`, to ::1
/// alone), so both are listened on.
#[derive(Clone, Copy, Debug)]
pub enum Host {
    Localhost,
    Ip(IpAddr),
}

impl Host {
    /// The address listened on first, and named in the page's URL.
    fn ip(self) -> IpAddr {
        match self {
            Host::Localhost => IpAddr::V4(Ipv4Addr::LOCALHOST),
            Host::Ip(ip) => ip,
        }
    }
}

/// An IP address, or `localhost`.
fn parse_host(text: &str) -> Result<Host, String> {
    if text.eq_ignore_ascii_case("localhost") {
        return Ok(Host::Localhost);
    }
    // clap shows the value (cut short where long): not echoed again here.
    let ip: IpAddr = text.parse().map_err(|_| {
        "not an IP address: write one such as 127.0.0.1, ::1 or 0.0.0.0, or localhost".to_string()
    })?;
    // Such an address can be bound, but no client connects to it.
    let kind = match ip.to_canonical() {
        ip if ip.is_multicast() => Some("a multicast"),
        IpAddr::V4(v4) if v4.is_broadcast() => Some("the broadcast"),
        _ => None,
    };
    match kind {
        Some(kind) => Err(format!(
            "{kind} address, which no client can connect to: listen on an address of this \
             machine, such as 127.0.0.1, ::1 or 0.0.0.0 (every one), or localhost"
        )),
        None => Ok(Host::Ip(ip)),
    }
}

/// Listens on `host` at `port` (0: a free one): for `localhost`, on
/// 127.0.0.1 and on ::1 at the same port too, where it can. 127.0.0.1 is
/// the address that must be had; ::1 is a help for clients that try it
/// alone, and where it cannot be had (no IPv6 here, or another program
/// on that port) `localhost` is served on 127.0.0.1 as before, with a
/// warning when something else answers there.
fn listen(host: Host, port: u16) -> anyhow::Result<(TcpListener, Option<TcpListener>)> {
    // A free port chosen on 127.0.0.1 may be taken on ::1: another, a few
    // times.
    let mut tries = 8;
    loop {
        let first = bind(SocketAddr::new(host.ip(), port))?;
        let Host::Localhost = host else {
            return Ok((first, None));
        };
        let chosen = first.local_addr()?.port();
        let second = SocketAddr::new(IpAddr::V6(std::net::Ipv6Addr::LOCALHOST), chosen);
        match TcpListener::bind(second) {
            Ok(second) => return Ok((first, Some(second))),
            Err(e) if port == 0 && e.kind() == std::io::ErrorKind::AddrInUse && tries > 0 => {
                tries -= 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
                npuzzle::eprintln_or_drop!(
                    "query: warning: {second} is taken by another program, which answers \
                     clients that reach localhost there; serving on {} only",
                    first.local_addr()?
                );
                return Ok((first, None));
            }
            // No IPv6 here: 127.0.0.1 is all `localhost` can reach.
            Err(_) => return Ok((first, None)),
        }
    }
}

/// Listens on `addr`, or says why not, with what to do about it.
fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr).map_err(|e| cannot_listen(addr, e))
}

/// Why `serve` cannot listen on `addr`.
fn cannot_listen(addr: SocketAddr, e: std::io::Error) -> anyhow::Error {
    anyhow::anyhow!(
        "cannot listen on {addr}: {e}{}",
        match e.kind() {
            std::io::ErrorKind::AddrInUse => "; choose another --port, or --port 0 for a free one",
            std::io::ErrorKind::PermissionDenied =>
                "; ports below 1024 need privileges: choose another --port",
            _ => "",
        }
    )
}

/// `query serve`: finds the databases, binds, prints the URL, serves until
/// Ctrl-C.
pub fn run(
    args: &ServeArgs,
    given: &[PathBuf],
    board: Option<Shape>,
) -> anyhow::Result<crate::Outcome> {
    let boards = discover(given, board)?;
    // Bound before the runtime starts, so that a busy port is a plain error.
    let (listener, also) = listen(args.host, args.port)?;
    for listening in std::iter::once(&listener).chain(&also) {
        listening.set_nonblocking(true)?;
    }
    let local = listener.local_addr()?;
    for served in boards.iter() {
        let counted = match served.metric() {
            npuzzle::Metric::SingleTile => "",
            npuzzle::Metric::MultiTile => " (multi-tile)",
        };
        npuzzle::eprintln_or_drop!(
            "query: serving {} boards{counted} from {}",
            served.shape,
            shown_path(&served.path)
        );
    }
    if let Some(shape) = boards.without_file() {
        npuzzle::eprintln_or_drop!(
            "query: serving {shape} boards with no database (none can be built): solutions \
             within a factor of the shortest, guided by linear conflicts"
        );
    }
    if !hosts::is_loopback(args.host.ip()) {
        npuzzle::eprintln_or_drop!(
            "query: warning: listening on {}, which other machines can reach; this is a \
             preview server for one person, not a web host",
            args.host.ip()
        );
    }
    let origins = origins::Origins::new(&args.allow_origin);
    if origins.any() {
        npuzzle::eprintln_or_drop!(
            "query: warning: --allow-origin '*' lets every page you visit read the answers and \
             start searches; name the origins of your own pages instead"
        );
    } else if !args.allow_origin.is_empty() {
        npuzzle::eprintln_or_drop!(
            "query: pages from {} may read the answers",
            args.allow_origin.join(", ")
        );
    }
    let url = page_url(local);
    // For a script that starts the server: one that stops reading (a
    // closed pipe) leaves it serving, a full output is an error.
    let mut out = std::io::stdout();
    match writeln!(out, "{url}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            anyhow::bail!("cannot write to standard output: {e}")
        }
        _ => {}
    }
    npuzzle::eprintln_or_drop!("query: the page is at {url} (Ctrl-C stops the server)");
    if args.open {
        open_browser(&url);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let also = also.map(tokio::net::TcpListener::from_std).transpose()?;
        let stopping = Stopping::new();
        let stop = {
            let stopping = stopping.clone();
            async move {
                let _ = tokio::signal::ctrl_c().await;
                npuzzle::eprintln_or_drop!("query: stopping");
                stopping.stop();
            }
        };
        let answer_within = args.timeout.saturating_add(ANSWER_MARGIN);
        let hosts = hosts::Hosts::for_address(args.host.ip());
        let access = (hosts, origins);
        let router = router(boards, args.timeout, answer_within, access, stopping);
        serve((listener, also), router, Limits::default(), stop).await;
        anyhow::Ok(())
    })?;
    Ok(crate::Outcome::Success)
}

/// The page's URL for a bound address: an unspecified address (`0.0.0.0`,
/// `::`) is reached through loopback on this machine.
fn page_url(addr: SocketAddr) -> String {
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// Starts the system's browser on `url`; a failure is only a warning.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let spawned = command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        npuzzle::eprintln_or_drop!(
            "query: warning: could not open a browser ({e}); open {url} yourself"
        );
    }
}
