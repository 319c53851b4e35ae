//! `serve --allow-origin`: lets a page served from elsewhere (a game's
//! front end on `http://localhost:3000`, say) read the API's answers.
//!
//! A browser lets a script read an answer from another origin only when
//! the answer names that origin in `Access-Control-Allow-Origin`. The API
//! takes GET with no headers of its own, which browsers send without
//! asking first (no preflight), so that header is all it takes. Requests
//! that other sites' pages make, from origins not named, are refused
//! ([`refuse_cross_site`]).

use super::code::Code;
use super::error::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The origins whose pages may read the answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    /// Any page at all (`*`).
    any: bool,
    /// These, in lower case, as browsers send them in `Origin`.
    listed: Vec<String>,
}

/// The longest origin taken: a host name of 253 characters with a scheme
/// and a port.
const MAX_ORIGIN: usize = 280;

impl Origins {
    /// The origins given with `--allow-origin`.
    pub fn new(given: &[String]) -> Origins {
        Origins {
            any: given.iter().any(|o| o == "*"),
            listed: given.iter().filter(|o| *o != "*").cloned().collect(),
        }
    }

    /// Whether any page may read the answers (for a warning).
    pub fn any(&self) -> bool {
        self.any
    }

    /// What `Access-Control-Allow-Origin` says to a request from `origin`,
    /// if it may read the answer.
    fn allowed(&self, origin: &HeaderValue) -> Option<HeaderValue> {
        if self.any {
            return Some(HeaderValue::from_static("*"));
        }
        let text = origin.to_str().ok()?.to_ascii_lowercase();
        self.listed.contains(&text).then(|| origin.clone())
    }
}

/// `--allow-origin`'s value: `*`, or an origin as a browser sends it
/// (`http://localhost:3000`: a scheme, a host and a port, no path), in
/// lower case; a trailing `/` is dropped.
pub fn parse_origin(text: &str) -> Result<String, String> {
    const EXAMPLE: &str = "write one as a browser sends it, such as http://localhost:3000 (a \
                           scheme, a host and maybe a port, no path), or * for any page";
    if text == "*" {
        return Ok(text.to_string());
    }
    if text.len() > MAX_ORIGIN {
        return Err(format!(
            "{} characters: too long for an origin; {EXAMPLE}",
            text.len()
        ));
    }
    let text = text.strip_suffix('/').unwrap_or(text).to_ascii_lowercase();
    let Some((scheme, host)) = text.split_once("://") else {
        return Err(format!("not an origin; {EXAMPLE}"));
    };
    if scheme != "http" && scheme != "https" {
        return Err(format!(
            "the scheme is {scheme:?}, not http or https; {EXAMPLE}"
        ));
    }
    if !host.is_ascii() {
        return Err(format!(
            "the host is not ASCII: browsers send an international name in its xn-- form \
             (as \"http://xn--bcher-kva.example\" for bücher.example); {EXAMPLE}"
        ));
    }
    let fine = |c: char| c.is_ascii_alphanumeric() || "-.:[]".contains(c);
    if host.is_empty() || !host.chars().all(fine) {
        return Err(format!(
            "not an origin (a host, and no path, query or user); {EXAMPLE}"
        ));
    }
    // The port follows the last colon outside an IPv6 address's brackets.
    let (name, port) = match host.rfind(':') {
        Some(at) if !host[at..].contains(']') => (&host[..at], Some(&host[at + 1..])),
        _ => (host, None),
    };
    let bracketed = name.starts_with('[') && name.ends_with(']') && name.len() > 2;
    let plain = !name.is_empty() && !name.contains(['[', ']', ':']) && !name.starts_with('.');
    if !bracketed && !plain {
        return Err(format!("no host name or address in {text:?}; {EXAMPLE}"));
    }
    // Browsers leave out the scheme's own port.
    let default = if scheme == "http" { "80" } else { "443" };
    match port {
        None => Ok(text.clone()),
        Some(p) if p == default => Ok(format!("{scheme}://{name}")),
        Some(p) if p.parse::<u16>().is_ok_and(|p| p > 0) && !p.starts_with('0') => Ok(text.clone()),
        Some(p) if p.len() > 1 && p.starts_with('0') && p.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!(
                "the port {p:?} starts with 0, which browsers never send: write it \
                 without the zeros; {EXAMPLE}"
            ))
        }
        Some(p) => Err(format!(
            "the port {p:?} is not one from 1 to 65535; {EXAMPLE}"
        )),
    }
}

/// Refuses, before any work, a request that a page on another site made
/// other than by a link followed: a script or an image there could keep the
/// server searching for as long as the page stays open (it cannot read the
/// answers, but the work is done). Browsers say where a request comes from
/// in `Sec-Fetch-Site`; a page `--allow-origin` names (by its `Origin`) is
/// answered, as is every request with `--allow-origin '*'`, and clients
/// that send no such header (curl, programs) are answered as before.
pub async fn refuse_cross_site(
    State(origins): State<Arc<Origins>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let site = headers.get("sec-fetch-site").map(HeaderValue::as_bytes);
    let elsewhere = matches!(site, Some(b"cross-site" | b"same-site"));
    let followed = headers
        .get("sec-fetch-mode")
        .is_some_and(|mode| mode == "navigate");
    let allowed =
        origins.any || (headers.get(header::ORIGIN)).is_some_and(|o| origins.allowed(o).is_some());
    if elsewhere && !followed && !allowed {
        return ApiError::new(
            Code::CrossSite,
            "this server answers its own page, and links followed to it, but not requests \
             that a page on another site makes (Sec-Fetch-Site), whose scripts or images could \
             keep it searching; to let a page elsewhere use the API, serve with \
             --allow-origin and its origin"
                .to_string(),
        )
        .into_response();
    }
    next.run(request).await
}

/// Names the request's origin in the answer when its page may read it.
pub async fn allow(State(origins): State<Arc<Origins>>, request: Request, next: Next) -> Response {
    let origin = request.headers().get(header::ORIGIN).cloned();
    let mut response = next.run(request).await;
    if !origins.listed.is_empty() {
        // The answer differs by origin: caches must tell them apart.
        response
            .headers_mut()
            .append(header::VARY, HeaderValue::from_static("origin"));
    }
    if let Some(allowed) = origin.and_then(|o| origins.allowed(&o)) {
        response
            .headers_mut()
            .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, allowed);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_read_as_browsers_send_them() {
        assert_eq!(
            parse_origin("http://localhost:3000/").unwrap(),
            "http://localhost:3000"
        );
        assert_eq!(
            parse_origin("HTTPS://Example.COM").unwrap(),
            "https://example.com"
        );
        assert_eq!(
            parse_origin("http://[::1]:8000").unwrap(),
            "http://[::1]:8000"
        );
        assert_eq!(parse_origin("*").unwrap(), "*");
        // Browsers leave out the scheme's own port.
        assert_eq!(
            parse_origin("http://localhost:80").unwrap(),
            "http://localhost"
        );
        assert_eq!(
            parse_origin("https://example.com:443/").unwrap(),
            "https://example.com"
        );
        assert_eq!(
            parse_origin("https://example.com:80").unwrap(),
            "https://example.com:80"
        );
        for (bad, why) in [
            ("localhost:3000", "not an origin"),
            ("ftp://host", "the scheme is \"ftp\""),
            ("http://", "not an origin"),
            ("http://?x", "not an origin (a host"),
            ("http://host/game", "no path"),
            ("http://user@host", "no path, query or user"),
            ("http://é.com", "the host is not ASCII"),
            ("http://a.com:080", "the port \"080\" starts with 0"),
            ("", "not an origin"),
            ("http://host:", "the port \"\""),
            ("http://:80", "no host name"),
            ("http://[::1", "no host name"),
            ("http://host:99999", "the port \"99999\""),
            ("http://host:0", "the port \"0\""),
            ("http://.", "no host name"),
        ] {
            let error = parse_origin(bad).unwrap_err();
            assert!(error.contains(why), "{bad:?}: {error}");
        }
        let long = format!("http://{}.com", "a".repeat(100_000));
        assert!(parse_origin(&long).unwrap_err().contains("too long"));
    }

    #[test]
    fn only_the_origins_listed_are_named() {
        let listed = Origins::new(&["http://localhost:3000".to_string()]);
        let asked = |o: &'static str| listed.allowed(&HeaderValue::from_static(o));
        assert_eq!(
            asked("http://localhost:3000"),
            Some(HeaderValue::from_static("http://localhost:3000"))
        );
        assert_eq!(
            asked("http://LOCALHOST:3000"),
            Some(HeaderValue::from_static("http://LOCALHOST:3000"))
        );
        assert_eq!(asked("http://localhost:3001"), None);
        assert_eq!(asked("http://evil.example"), None);
        let any = Origins::new(&["*".to_string()]);
        let from = HeaderValue::from_static("http://evil.example");
        assert_eq!(any.allowed(&from), Some(HeaderValue::from_static("*")));
        assert_eq!(Origins::default().allowed(&from), None);
    }
}
