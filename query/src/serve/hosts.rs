//! Requests for this machine only. A page elsewhere can point its own name
//! at 127.0.0.1 (DNS rebinding): the browser then sends it here, as its own
//! origin, and lets its script read the answers and start searches. Such a
//! request still names that page's host in `Host`, so a server listening on
//! loopback answers only requests for a loopback name.

use super::code::Code;
use super::error::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, Version};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;

/// Which `Host` names the server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosts {
    /// Loopback names only: `localhost` (and `*.localhost`), 127.0.0.0/8,
    /// `[::1]`. For a server listening on loopback.
    Loopback,
    /// Any: the server listens where other machines reach it, under names
    /// it cannot know.
    Any,
}

impl Hosts {
    /// The names a server listening on `ip` answers.
    pub fn for_address(ip: IpAddr) -> Hosts {
        match is_loopback(ip) {
            true => Hosts::Loopback,
            false => Hosts::Any,
        }
    }

    /// Whether a request with `Host: host` is answered.
    fn allows(self, host: &str) -> bool {
        if self == Hosts::Any {
            return true;
        }
        let host = host.trim().to_ascii_lowercase();
        // The name without its port: `[::1]:8080`, `localhost:8080`.
        // An IPv6 address without its closing bracket names nothing.
        let name = match host.strip_prefix('[') {
            Some(rest) => rest.split_once(']').map_or("", |(name, _)| name),
            None => host.split(':').next().unwrap_or_default(),
        };
        let name = name.strip_suffix('.').unwrap_or(name);
        name == "localhost"
            || name.ends_with(".localhost")
            || name.parse::<IpAddr>().is_ok_and(is_loopback)
    }
}

/// Whether `ip` is this machine's loopback, IPv4 written as IPv6
/// (`::ffff:127.0.0.1`) included, which `IpAddr::is_loopback` is not.
pub fn is_loopback(ip: IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// A 403 in JSON for a request that names a host this server does not
/// answer, and a 400 for one whose host cannot be known (RFC 9112: an
/// HTTP/1.1 request without `Host`, or with two); requests of HTTP/1.0,
/// which has no `Host`, are answered without one.
pub async fn check(State(hosts): State<Hosts>, request: Request, next: Next) -> Response {
    match named_host(&request) {
        Err(why) => ApiError::new(Code::BadRequest, why.to_string()).into_response(),
        Ok(None) => next.run(request).await,
        Ok(Some(host)) if hosts.allows(host) => next.run(request).await,
        Ok(Some(host)) => {
            let shown = npuzzle::rules::excerpt(host, 80).to_string();
            ApiError::new(
                Code::ForeignHost,
                format!(
                    "this server answers requests for this machine (localhost, 127.0.0.1, \
                     [::1]), not for Host {shown:?}: a page elsewhere may have pointed its \
                     name here; to be reached under other names, listen with --host"
                ),
            )
            .into_response()
        }
    }
}

/// The host a request is for: the address's own in a request line that
/// gives a whole URL (which RFC 9112 puts before `Host`), else its one
/// `Host` header; none for HTTP/1.0 without one.
fn named_host(request: &Request) -> Result<Option<&str>, &'static str> {
    let mut headers = request.headers().get_all(header::HOST).iter();
    let header = headers.next();
    if headers.next().is_some() {
        return Err("the request gives Host more than once");
    }
    let header = match header {
        Some(host) => Some(host.to_str().map_err(|_| "the Host header is not text")?),
        None if request.version() >= Version::HTTP_11 => {
            return Err("an HTTP/1.1 request must say its Host")
        }
        None => None,
    };
    Ok(request.uri().authority().map(|a| a.as_str()).or(header))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_are_answered_and_others_not() {
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.",
            "app.localhost:3000",
            "127.0.0.1:8080",
            "127.1.2.3",
            "[::1]:8080",
            "[::1]",
            "[::ffff:127.0.0.1]:8080",
        ] {
            assert!(Hosts::Loopback.allows(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1",
            "[2001:db8::1]:80",
            "",
            "x",
            "[::1",
            "[::ffff:10.0.0.1]",
        ] {
            assert!(!Hosts::Loopback.allows(host), "{host}");
            assert!(Hosts::Any.allows(host), "{host}");
        }
    }

    /// A server on IPv4's loopback written as IPv6 answers loopback names
    /// only, as one on 127.0.0.1 does.
    #[test]
    fn loopback_written_as_ipv6_is_loopback() {
        for ip in ["127.0.0.1", "::1", "::ffff:127.0.0.1", "::ffff:127.9.9.9"] {
            assert_eq!(
                Hosts::for_address(ip.parse().unwrap()),
                Hosts::Loopback,
                "{ip}"
            );
        }
        for ip in ["0.0.0.0", "::", "::ffff:10.0.0.1", "192.168.1.2"] {
            assert_eq!(Hosts::for_address(ip.parse().unwrap()), Hosts::Any, "{ip}");
        }
    }
}
