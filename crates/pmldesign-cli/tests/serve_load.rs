//! A bounded load test of `pml serve` on 127.0.0.1: 200 requests from 20 client
//! threads, good designs mixed with bad uploads (too large, binary, not CSV),
//! a column that does not exist, a million categories, and requests without the
//! token, from a foreign Origin or to a foreign Host. Every answer is a result or
//! a clear one-line error; the server is still up afterwards, its memory bounded.

mod common;
use common::serve::{Answer, Server, multipart, request, rss_kb};
use serde_json::{Value, json};
use std::sync::Arc;

const THREADS: usize = 20;
const PER_THREAD: usize = 10;
const KINDS: usize = 10;
/// The bound on the server's resident memory after the run.
const MAX_RSS_KB: u64 = 500 * 1024;

struct Fixture {
    addr: String,
    token: String,
    upload: Value,
    wide: Value,
    oversized: Vec<u8>,
    oversized_type: String,
}

impl Fixture {
    fn send(&self, kind: usize) -> (Answer, &'static [u16]) {
        let addr = self.addr.as_str();
        let token = self.token.as_str();
        let json = |body: Value| {
            let headers = [
                ("Host", addr),
                ("X-PML-Token", token),
                ("Content-Type", "application/json"),
            ];
            request(
                addr,
                "POST",
                "/api/design",
                &headers,
                body.to_string().as_bytes(),
            )
        };
        let upload = |name: &str, data: &[u8]| {
            let (content_type, body) = multipart(name, data);
            let headers = [
                ("Host", addr),
                ("X-PML-Token", token),
                ("Content-Type", content_type.as_str()),
            ];
            request(addr, "POST", "/api/upload", &headers, &body)
        };
        let page = |headers: &[(&str, &str)]| request(addr, "GET", "/", headers, b"");
        match kind {
            0 => (
                json(json!({"counts": "40,20,20,20", "epsilon": 0.5})),
                &[200, 503],
            ),
            1 => (
                json(json!({"upload": self.upload, "column": "colour", "epsilon": 1.0})),
                &[200, 503],
            ),
            2 => (page(&[("Host", addr)]), &[403]),
            3 => (
                page(&[
                    ("Host", addr),
                    ("X-PML-Token", token),
                    ("Origin", "http://evil.example"),
                ]),
                &[403],
            ),
            4 => {
                let headers = [
                    ("Host", addr),
                    ("X-PML-Token", token),
                    ("Content-Type", self.oversized_type.as_str()),
                    ("Expect", "100-continue"),
                ];
                let a = request(addr, "POST", "/api/upload", &headers, &self.oversized);
                (a, &[413])
            }
            5 => (
                upload("noise.csv", &[0u8, 159, 146, 150, 0, 1, 2]),
                &[400, 503],
            ),
            6 => (
                json(json!({"upload": self.upload, "column": "missing", "epsilon": 1.0})),
                &[400, 503],
            ),
            7 => (
                json(json!({"upload": self.wide, "column": "x", "epsilon": 1.0})),
                &[400, 503],
            ),
            8 => (upload("book.xlsx", b"PK\x03\x04"), &[400, 503]),
            _ => (
                page(&[("Host", "rebound.example:80"), ("X-PML-Token", token)]),
                &[403],
            ),
        }
    }
}

#[test]
fn two_hundred_requests_from_twenty_clients() {
    let mut server = Server::start(&["--max-upload", "16MB", "--jobs", "2"]);
    let upload = server.upload("survey.csv", b"id,colour\n1,red\n2,blue\n3,red\n4,green\n");
    assert_eq!(upload.status, 200);
    let mut wide = String::from("x\n");
    for i in 0..1_000_000 {
        wide.push_str(&format!("v{i}\n"));
    }
    let wide = server.upload("wide.csv", wide.as_bytes());
    assert_eq!(wide.status, 200);
    let (oversized_type, oversized) = multipart("huge.csv", &vec![b'1'; 17_000_000]);
    let fixture = Arc::new(Fixture {
        addr: server.addr.clone(),
        token: server.token.clone(),
        upload: upload.json()["upload"].clone(),
        wide: wide.json()["upload"].clone(),
        oversized,
        oversized_type,
    });
    let before = rss_kb(server.pid());
    let clients: Vec<_> = (0..THREADS)
        .map(|t| {
            let fixture = fixture.clone();
            std::thread::spawn(move || {
                let mut seen = Vec::new();
                for r in 0..PER_THREAD {
                    let kind = (t + r * 3) % KINDS;
                    let (answer, expected) = fixture.send(kind);
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
            })
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
