//! A bounded load test of `pml serve` on 127.0.0.1: 200 requests from 20 client
//! threads, good designs mixed with bad uploads (too large, binary, not CSV),
//! a column that does not exist, a million categories, and requests without the
//! token, from a foreign Origin or to a foreign Host. Every answer is a result or
//! a clear one-line error; the server is still up afterwards, its memory bounded.
#![cfg(feature = "serve")]

use crate::common::serve::{Answer, Client, Server, multipart, request, rss_kb};
use serde_json::{Value, json};
use std::sync::Arc;

const THREADS: usize = 20;
const PER_THREAD: usize = 10;
const KINDS: usize = 10;
/// The bound on the server's resident memory after the run.
const MAX_RSS_KB: u64 = 500 * 1024;

struct Fixture {
    client: Client,
    upload: Value,
    wide: Value,
    oversized: Vec<u8>,
    oversized_type: String,
}

impl Fixture {
    fn design(&self, body: Value) -> Answer {
        self.client.post_json("/api/design", &body)
    }

    fn page(&self, headers: &[(&str, &str)]) -> Answer {
        request(&self.client.addr, "GET", "/", headers, b"")
    }

    /// Request `kind` (0 to 9) and the statuses it may get (503: busy).
    fn send(&self, kind: usize) -> (Answer, &'static [u16]) {
        let addr = self.client.addr.as_str();
        match kind {
            0 => (
                self.design(json!({"counts": "40,20,20,20", "epsilon": 0.5})),
                &[200, 503],
            ),
            1 => {
                let form = json!({"upload": self.upload, "column": "colour", "epsilon": 1.0});
                (self.design(form), &[200, 503])
            }
            2 => (self.page(&[("Host", addr)]), &[403]),
            3 => (
                self.page(&self.client.headers(&[("Origin", "http://evil.example")])),
                &[403],
            ),
            4 => {
                let extra = [
                    ("Content-Type", self.oversized_type.as_str()),
                    ("Expect", "100-continue"),
                ];
                let a = self
                    .client
                    .send("POST", "/api/upload", &extra, &self.oversized);
                (a, &[413])
            }
            5 => (
                self.client
                    .upload("noise.csv", &[0u8, 159, 146, 150, 0, 1, 2]),
                &[400, 503],
            ),
            6 => {
                let form = json!({"upload": self.upload, "column": "missing", "epsilon": 1.0});
                (self.design(form), &[400, 503])
            }
            7 => {
                let form = json!({"upload": self.wide, "column": "x", "epsilon": 1.0});
                (self.design(form), &[400, 503])
            }
            8 => (self.client.upload("book.xlsx", b"PK\x03\x04"), &[400, 503]),
            _ => {
                let headers = [
                    ("Host", "rebound.example:80"),
                    ("X-PML-Token", &self.client.token),
                ];
                (self.page(&headers), &[403])
            }
        }
    }

    /// One client: its requests, each answered by a result or a clear error.
    fn client(&self, t: usize) -> Vec<u16> {
        let mut seen = Vec::new();
        for r in 0..PER_THREAD {
            let kind = (t + r * 3) % KINDS;
            let (answer, expected) = self.send(kind);
            assert!(
                expected.contains(&answer.status),
                "kind {kind}: {} {:?}",
                answer.status,
                String::from_utf8_lossy(&answer.body)
            );
            if answer.status == 200 {
                assert!(answer.body.starts_with(b"{") || answer.body.starts_with(b"<"));
            } else {
                let e = answer.error();
                assert!(!e.is_empty() && e.len() < 1000, "kind {kind}: {e}");
            }
            seen.push(answer.status);
        }
        seen
    }
}

/// The server's uploads (a small file and a million categories) and the body of
/// an upload past its cap.
fn fixture(server: &Server) -> Fixture {
    let upload = server.upload("survey.csv", b"id,colour\n1,red\n2,blue\n3,red\n4,green\n");
    assert_eq!(upload.status, 200);
    let mut wide = String::from("x\n");
    for i in 0..1_000_000 {
        wide.push_str(&format!("v{i}\n"));
    }
    let wide = server.upload("wide.csv", wide.as_bytes());
    assert_eq!(wide.status, 200);
    let (oversized_type, oversized) = multipart("huge.csv", &vec![b'1'; 17_000_000]);
    Fixture {
        client: server.client(),
        upload: upload.json()["upload"].clone(),
        wide: wide.json()["upload"].clone(),
        oversized,
        oversized_type,
    }
}

#[test]
fn two_hundred_requests_from_twenty_clients() {
    let mut server = Server::start(&["--max-upload", "16MB", "--jobs", "2"]);
    let fixture = Arc::new(fixture(&server));
    let before = rss_kb(server.pid());
    let clients: Vec<_> = (0..THREADS)
        .map(|t| {
            let fixture = fixture.clone();
            std::thread::spawn(move || fixture.client(t))
        })
        .collect();
    let statuses: Vec<u16> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    assert_eq!(statuses.len(), THREADS * PER_THREAD);
    assert!(
        statuses.contains(&200),
        "some designs went through: {statuses:?}"
    );
    assert!(server.alive(), "the server is still up");
    let page = request(
        &server.addr,
        "GET",
        &format!("/?token={}", server.token),
        &[("Host", server.addr.as_str())],
        b"",
    );
    assert_eq!(page.status, 200);
    let after = rss_kb(server.pid());
    let mut tally = std::collections::BTreeMap::new();
    for s in &statuses {
        *tally.entry(*s).or_insert(0) += 1;
    }
    println!("statuses {tally:?}; resident memory {before} kB before, {after} kB after");
    assert!(
        after < MAX_RSS_KB,
        "resident memory {after} kB after the run ({before} kB before)"
    );
}
