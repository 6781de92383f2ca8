//! `pml serve`: a local web page that drives `pml design` and `pml apply` for
//! people who do not script. It sits above the commands (it calls their
//! pipelines, as `main` does) and holds no mathematics.
//!
//! - `guard`: the per-run token, Host and Origin checks (403);
//! - `routes`: the endpoints and the server's state; `form`: a request as the
//!   command line it stands for; `upload`: receiving a file (413 past the cap);
//!   `store`: the uploads and designs kept; `jobs`: at most `--jobs` at once
//!   (503), each cancellable; `work`: what a job computes on a blocking thread;
//! - `assets`: the page, embedded in the binary; `error`: `{"error": ...}`.

mod assets;
mod error;
mod form;
mod guard;
mod jobs;
mod routes;
mod store;
mod upload;
mod work;

use crate::args::serve::ServeArgs;
use crate::error::CliError;
use axum::Router;
use guard::Guard;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use routes::{App, router};
use std::io::Write;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Runs `pml serve` until Ctrl-C (or SIGTERM).
pub fn run(a: ServeArgs) -> Result<(), CliError> {
    if !(a.time_limit.is_finite() && a.time_limit > 0.0) {
        return Err(CliError::Usage(format!(
            "invalid --time-limit = {:?}: give a positive, finite number of seconds such as 30",
            a.time_limit
        )));
    }
    if !(a.upload_idle.is_finite() && a.upload_idle > 0.0 && a.upload_idle <= 86_400.0) {
        return Err(CliError::Usage(format!(
            "invalid --upload-idle = {:?}: give a positive number of seconds up to a day, such as 30",
            a.upload_idle
        )));
    }
    if !(a.header_timeout.is_finite() && a.header_timeout > 0.0 && a.header_timeout <= 3_600.0) {
        return Err(CliError::Usage(format!(
            "invalid --header-timeout = {:?}: give a positive number of seconds up to an hour, such as 10",
            a.header_timeout
        )));
    }
    let ip = host_ip(&a.host)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the server's threads: {e}")))?;
    runtime.block_on(serve(a, ip))
}

/// The address of `--host`: an IP address, or `localhost` (127.0.0.1).
fn host_ip(host: &str) -> Result<IpAddr, CliError> {
    if host.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    host.trim_matches(|c| c == '[' || c == ']')
        .parse()
        .map_err(|_| {
            CliError::Usage(format!(
                "invalid --host {host:?}: not an IP address; give one such as 127.0.0.1 (the default), ::1 or localhost"
            ))
        })
}

async fn serve(a: ServeArgs, ip: IpAddr) -> Result<(), CliError> {
    let listener = TcpListener::bind((ip, a.port)).await.map_err(|e| {
        CliError::Failure(format!(
            "cannot listen on --host {} --port {}: {e}; choose another --port (0 picks a free one)",
            a.host, a.port
        ))
    })?;
    let bound = listener.local_addr()?;
    if !ip.is_loopback() {
        crate::say::warn_guarantee(&format!(
            "warning: --host {}: the page is reachable from other machines on the network; only the token in the URL guards it (use the default 127.0.0.1 to keep it on this machine)",
            a.host
        ));
    }
    let guard = Arc::new(Guard::new(bound));
    let store = store::Store::new()
        .map_err(|e| CliError::Failure(format!("cannot create the work directory: {e}")))?;
    let app = Arc::new(App::new(store, &a));
    let shown = if ip.is_unspecified() {
        format!("127.0.0.1:{}", bound.port())
    } else {
        bound.to_string()
    };
    // The first line of stdout, flushed: scripts and tests read the URL from it.
    let mut out = std::io::stdout().lock();
    writeln!(out, "pml serve: http://{shown}/?token={}", guard.token())?;
    out.flush()?;
    drop(out);
    eprintln!(
        "pml serve: open the URL above in a browser (it holds this run's token); Ctrl-C stops the server and removes its uploads ({})",
        app.store.dir().display()
    );
    let limits = Connections {
        at_once: a.max_connections as usize,
        header_timeout: Duration::from_secs_f64(a.header_timeout),
    };
    accept(listener, router(app, guard), limits).await
}

/// How the server holds its connections: `--max-connections` and
/// `--header-timeout`.
struct Connections {
    at_once: usize,
    header_timeout: Duration,
}

/// Serves `app` over HTTP/1.1, each connection on its own task: at most
/// `at_once` open (the next waits in the listen queue), and each closed when a
/// request's headers (or the next request, on an idle connection) take longer
/// than `header_timeout`, so that half-open connections cannot hold the
/// server's file descriptors.
async fn accept(listener: TcpListener, app: Router, limits: Connections) -> Result<(), CliError> {
    let slots = Arc::new(Semaphore::new(limits.at_once));
    loop {
        let slot = slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| CliError::Failure(format!("the server stopped: {e}")))?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was
            // accepted: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout);
        tokio::spawn(async move {
            // A connection's error (a timeout, a reset) ends only that connection.
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
            drop(slot);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::host_ip;

    #[test]
    fn hosts() {
        assert!(host_ip("localhost").unwrap().is_loopback());
        assert!(host_ip("::1").unwrap().is_loopback());
        assert!(host_ip("[::1]").unwrap().is_loopback());
        assert!(!host_ip("0.0.0.0").unwrap().is_loopback());
        let e = host_ip("example.org").unwrap_err().to_string();
        assert!(e.contains("--host"), "{e}");
    }
}
