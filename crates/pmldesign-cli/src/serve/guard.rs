//! Who may talk to the server: every request carries the per-run token (in the
//! query, the `X-PML-Token` header, or the cookie the page gets from its URL),
//! names this server in its Host header (against DNS rebinding), and comes from
//! its own page if it has an Origin (against other sites in the same browser).
//! Anything else gets 403 with a message saying which check failed.

use super::error::ApiError;
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Arc;

/// The header a script may carry the token in.
pub const TOKEN_HEADER: &str = "x-pml-token";

/// The checks of one server run.
#[derive(Debug)]
pub struct Guard {
    token: String,
    /// The Host values that name this server; `None` when it listens on every
    /// address (0.0.0.0 or ::), where any name may reach it.
    hosts: Option<Vec<String>>,
    cookie: String,
}

impl Guard {
    /// A fresh random token (256 bits from the thread's CSPRNG, seeded by the
    /// operating system) for a server listening on `bound`.
    pub fn new(bound: SocketAddr) -> Self {
        let mut bytes = [0u8; 32];
        rand::fill(&mut bytes);
        let token = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let port = bound.port();
        let ip = bound.ip();
        let hosts = if ip.is_loopback() {
            Some(vec![
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
            ])
        } else if ip.is_unspecified() {
            None
        } else {
            Some(vec![bound.to_string()])
        };
        Guard {
            token,
            hosts,
            cookie: format!("pml_token_{port}"),
        }
    }

    /// The token, for the URL printed at the start.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Checks a request; `Ok(true)` when the token came in the query (the page
    /// then gets it as a cookie).
    fn check(&self, headers: &HeaderMap, query: Option<&str>) -> Result<bool, ApiError> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        if let Some(hosts) = &self.hosts
            && !hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
        {
            return Err(ApiError::forbidden(format!(
                "refused: the Host header {host:?} does not name this server ({}); open the URL `pml serve` printed",
                hosts[0]
            )));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or_default();
            if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
                return Err(ApiError::forbidden(format!(
                    "refused: a request from another site (Origin {origin:?}); only the page at http://{host}/ may use this server"
                )));
            }
        }
        let from_query = query.is_some_and(|q| {
            q.split('&')
                .filter_map(|kv| kv.strip_prefix("token="))
                .any(|t| self.matches(t))
        });
        let from_header = headers
            .get(TOKEN_HEADER)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|t| self.matches(t));
        let from_cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|c| c.to_str().ok())
            .flat_map(|c| c.split(';'))
            .filter_map(|kv| kv.trim().strip_prefix(&self.cookie)?.strip_prefix('='))
            .any(|t| self.matches(t));
        if !(from_query || from_header || from_cookie) {
            return Err(ApiError::forbidden(
                "refused: the token is missing or wrong; open the whole URL `pml serve` printed, with its ?token=...",
            ));
        }
        Ok(from_query)
    }

    /// Compares a token in time independent of where it differs.
    fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.token.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// The cookie that carries the token for the page's own requests.
    fn set_cookie(&self) -> Option<HeaderValue> {
        let cookie = format!(
            "{}={}; HttpOnly; SameSite=Strict; Path=/",
            self.cookie, self.token
        );
        HeaderValue::from_str(&cookie).ok()
    }
}

/// The middleware: refuses what [`Guard`] refuses; on every answer, headers that
/// keep the token out of referrers and caches.
pub async fn guard(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let (mut response, from_query) = match guard.check(request.headers(), request.uri().query()) {
        Ok(from_query) => (next.run(request).await, from_query),
        Err(e) => (e.into_response(), false),
    };
    let headers = response.headers_mut();
    if from_query && let Some(cookie) = guard.set_cookie() {
        headers.insert(header::SET_COOKIE, cookie);
    }
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(host: &str, origin: Option<&str>, cookie: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        if let Some(c) = cookie {
            h.insert(header::COOKIE, HeaderValue::from_str(c).unwrap());
        }
        h
    }

    #[test]
    fn token_host_and_origin_are_checked() {
        let g = Guard::new("127.0.0.1:4000".parse().unwrap());
        let q = format!("token={}", g.token());
        let ok = request("127.0.0.1:4000", None, None);
        assert!(g.check(&ok, Some(&q)).unwrap());
        assert!(g.check(&ok, None).is_err());
        assert!(g.check(&ok, Some("token=00")).is_err());
        let cookie = format!("a=b; pml_token_4000={}", g.token());
        let with_cookie = request(
            "localhost:4000",
            Some("http://localhost:4000"),
            Some(&cookie),
        );
        assert!(!g.check(&with_cookie, None).unwrap());
        let rebound = request("evil.example:4000", None, None);
        let e = g.check(&rebound, Some(&q)).unwrap_err();
        assert!(e.message.contains("Host"), "{}", e.message);
        let foreign = request("127.0.0.1:4000", Some("http://evil.example"), None);
        let e = g.check(&foreign, Some(&q)).unwrap_err();
        assert!(e.message.contains("another site"), "{}", e.message);
    }
}
