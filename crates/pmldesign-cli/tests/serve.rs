//! `pml serve` over HTTP: the guard (token, Host, Origin), a design from counts
//! that `pml assess --design` verifies, uploads (too large, not CSV, a column
//! that does not exist, a million categories), the privatised file, and the
//! limit on designs running at once with their cancel.
#![cfg(feature = "serve")]

use crate::common::serve::{Server, request};
use serde_json::json;

const CSV: &str = "id,colour\n1,red\n2,blue\n3,red\n4,green\n5,red\n6,blue\n7,green\n8,red\n";

#[test]
fn the_guard_refuses_what_lacks_the_token_or_comes_from_elsewhere() {
    let server = Server::start(&[]);
    let host = server.addr.as_str();
    let token = format!("/?token={}", server.token);
    let answer = request(host, "GET", "/", &[("Host", host)], b"");
    answer.refused(403, "token");
    let answer = request(host, "GET", &token, &[("Host", "attacker.example:80")], b"");
    answer.refused(403, "Host");
    let foreign = [("Host", host), ("Origin", "http://attacker.example")];
    let answer = request(host, "GET", &token, &foreign, b"");
    answer.refused(403, "another site");
    // The page, with its token as a cookie for its own requests.
    let page = request(host, "GET", &token, &[("Host", host)], b"");
    assert_eq!(page.status, 200);
    assert!(String::from_utf8_lossy(&page.body).contains("<form"));
    assert!(page.header("content-security-policy").is_some());
    let cookie = page.header("set-cookie").unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    let cookie = cookie.split(';').next().unwrap();
    let same_origin = [("Host", host), ("Cookie", cookie)];
    let script = request(host, "GET", "/app.js", &same_origin, b"");
    assert_eq!(script.status, 200);
    let missing = request(host, "GET", "/nothing", &same_origin, b"");
    assert_eq!(missing.status, 404);
    assert!(!missing.error().is_empty());
}

#[test]
fn a_design_from_counts_verifies_with_pml_assess() {
    let server = Server::start(&[]);
    let answer = server.post_json(
        "/api/design",
        &json!({"counts": "40, 20, 20, 20", "epsilon": 0.5, "tradeoff": true}),
    );
    assert_eq!(
        answer.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&answer.body)
    );
    let v = answer.json();
    let design = v["design"].as_str().unwrap();
    let d: serde_json::Value = serde_json::from_str(design).unwrap();
    assert_eq!(d["status"], "optimal");
    assert_eq!(d["epsilon"], 0.5);
    assert!(v["report"].as_str().unwrap().contains("<svg"));
    assert!(v["table"].as_str().unwrap().contains("Certificate"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("design.json");
    std::fs::write(&path, design).unwrap();
    let out = crate::common::pml()
        .args([
            "assess",
            "--design",
            path.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["verdict"], "verified");
    // A bad level is the CLI's one line, naming the flag.
    let answer = server.post_json("/api/design", &json!({"counts": "4,2", "epsilon": -1}));
    answer.refused(400, "--epsilon");
    let answer = server.call("POST", "/api/design", "application/json", b"{not json");
    assert_eq!(answer.status, 400);
    assert!(!answer.error().is_empty());
}

#[test]
fn an_upload_is_designed_and_privatised() {
    let server = Server::start(&[]);
    let answer = server.upload("survey.csv", CSV.as_bytes());
    assert_eq!(
        answer.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&answer.body)
    );
    let upload = answer.json();
    assert_eq!(upload["columns"], json!(["id", "colour"]));
    let id = upload["upload"].as_str().unwrap();
    let answer = server.post_json(
        "/api/design",
        &json!({"upload": id, "column": "nope", "epsilon": 1.0}),
    );
    assert_eq!(answer.status, 400);
    let e = answer.error();
    assert!(e.contains("\"nope\"") && e.contains("survey.csv"), "{e}");
    assert!(
        !e.contains("pml-serve-"),
        "the stored path is not shown: {e}"
    );
    let answer = server.post_json(
        "/api/design",
        &json!({"upload": id, "column": "colour", "epsilon": 1.0, "delta": 0.5}),
    );
    assert_eq!(
        answer.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&answer.body)
    );
    let v = answer.json();
    let d: serde_json::Value = serde_json::from_str(v["design"].as_str().unwrap()).unwrap();
    assert_eq!(d["labels"], json!(["red", "blue", "green"]));
    let seeded = json!({"design": v["design_id"], "seed": "12345678901234567890"});
    let first = server.post_json("/api/privatise", &seeded);
    assert_eq!(
        first.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&first.body)
    );
    assert!(
        first
            .header("content-disposition")
            .unwrap()
            .contains("survey_private.csv")
    );
    let text = String::from_utf8(first.body.clone()).unwrap();
    // A release: the raw column is left out.
    assert_eq!(text.lines().next(), Some("id,colour_private"));
    assert_eq!(text.lines().count(), 9);
    assert_eq!(first.header("x-pml-warning"), None, "a 64-bit seed");
    let again = server.post_json("/api/privatise", &seeded);
    assert_eq!(again.body, first.body, "the same seed draws the same");
    // A short seed is privatised with, and the answer says why it is weak.
    let short = json!({"design": v["design_id"], "seed": "42"});
    let answer = server.post_json("/api/privatise", &short);
    assert_eq!(answer.status, 200, "{}", answer.error());
    let warning = answer.header("x-pml-warning").unwrap_or_default();
    assert!(
        warning.contains("6-bit number") && warning.contains("every seed that short"),
        "{warning:?}"
    );
}

#[test]
fn bad_uploads_are_refused_with_a_clear_message() {
    let server = Server::start(&["--max-upload", "1k"]);
    let big = "x\n".repeat(1000);
    // Announced past the cap: refused before the body is sent.
    let (content_type, body) = crate::common::serve::multipart("big.csv", big.as_bytes());
    let headers = [
        ("Content-Type", content_type.as_str()),
        ("Expect", "100-continue"),
    ];
    let answer = server.send("POST", "/api/upload", &headers, &body);
    answer.refused(413, "--max-upload = 1 kB");
    // Sent without a length: refused while it streams in.
    let headers = [
        ("Content-Type", content_type.as_str()),
        ("Transfer-Encoding", "chunked"),
    ];
    let answer = server.send("POST", "/api/upload", &headers, &body);
    answer.refused(413, "--max-upload");
    let binary: Vec<u8> = (0..600u32).map(|i| (i * 7 % 256) as u8).collect();
    let answer = server.upload("data.csv", &binary);
    answer.refused(400, "not CSV");
    let answer = server.upload("sheet.xlsx", b"PK\x03\x04");
    answer.refused(400, ".xlsx");
    let answer = server.upload("empty.csv", b"");
    answer.refused(400, "empty");
    let answer = server.upload("fake.parquet", b"a,b\n1,2\n");
    assert_eq!(answer.status, 400);
    assert!(
        answer.error().to_lowercase().contains("parquet"),
        "{}",
        answer.error()
    );
}

#[test]
fn a_million_categories_are_refused_by_the_cap() {
    let server = Server::start(&[]);
    let mut csv = String::from("x\n");
    for i in 0..1_000_000 {
        csv.push_str(&format!("v{i}\n"));
    }
    let answer = server.upload("wide.csv", csv.as_bytes());
    assert_eq!(
        answer.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&answer.body)
    );
    let id = answer.json()["upload"].clone();
    let answer = server.post_json(
        "/api/design",
        &json!({"upload": id, "column": "x", "epsilon": 1.0}),
    );
    assert_eq!(answer.status, 400);
    let e = answer.error();
    assert!(e.contains("100000") && e.contains("wide.csv"), "{e}");
    // Pasted counts past the solver's alphabet, in the CLI's words.
    let counts = vec!["1"; 3000].join(",");
    let answer = server.post_json("/api/design", &json!({"counts": counts, "epsilon": 1.0}));
    answer.refused(400, "2048");
}

#[test]
fn designs_past_jobs_are_refused_and_a_design_can_be_cancelled() {
    let server = Server::start(&["--jobs", "1", "--time-limit", "600"]);
    // A design that runs until it is cancelled.
    let counts: Vec<String> = (0..1500).map(|i| (1 + i % 97).to_string()).collect();
    let long = json!({"counts": counts.join(","), "epsilon": 0.7, "job": "long-one"});
    let (addr, token) = (server.addr.clone(), server.token.clone());
    let running = std::thread::spawn(move || {
        let headers = [
            ("Host", addr.as_str()),
            ("X-PML-Token", token.as_str()),
            ("Content-Type", "application/json"),
        ];
        // Refused while one of the small designs below holds the place: again.
        loop {
            let answer = request(
                &addr,
                "POST",
                "/api/design",
                &headers,
                long.to_string().as_bytes(),
            );
            if answer.status != 503 {
                return answer;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    });
    let small = json!({"counts": "4,2,1", "epsilon": 1.0});
    let mut refused = None;
    for _ in 0..2000 {
        let answer = server.post_json("/api/design", &small);
        if answer.status == 503 {
            refused = Some(answer);
            break;
        }
        assert_eq!(answer.status, 200);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let refused = refused.expect("a second design while the first runs is refused");
    assert!(refused.error().contains("--jobs 1"), "{}", refused.error());
    let cancelled = server.post_json("/api/cancel", &json!({"job": "long-one"}));
    assert_eq!(cancelled.json()["cancelled"], true);
    let answer = running.join().unwrap();
    assert!(
        answer.status == 200 || answer.status == 500,
        "{}",
        answer.status
    );
    if answer.status == 200 {
        let d: serde_json::Value =
            serde_json::from_str(answer.json()["design"].as_str().unwrap()).unwrap();
        assert_ne!(d["status"], "optimal", "stopped early");
    }
    let answer = server.post_json("/api/design", &small);
    assert_eq!(answer.status, 200, "the place is free again");
    let unknown = server.post_json("/api/cancel", &json!({"job": "long-one"}));
    assert_eq!(unknown.json()["cancelled"], false);
}

#[test]
fn bad_flags_are_one_line_usage_errors() {
    for (flag, value) in [
        ("--max-upload", "5 parsecs"),
        ("--time-limit", "0"),
        ("--host", "example.org"),
        ("--jobs", "0"),
    ] {
        let err = crate::common::usage_stderr(&["serve", flag, value, "--port", "0"]);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(flag) && err.contains(value), "{err}");
    }
}

#[test]
fn a_design_whose_page_went_away_is_stopped() {
    use std::io::Write;
    let server = Server::start(&["--jobs", "1", "--time-limit", "600"]);
    // Runs for minutes unless stopped.
    let counts: Vec<String> = (0..1500).map(|i| (1 + i % 97).to_string()).collect();
    let long = json!({"counts": counts.join(","), "epsilon": 0.7}).to_string();
    let small = json!({"counts": "4,2,1", "epsilon": 1.0});
    let mut started = false;
    for _ in 0..100 {
        let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
        let head = format!(
            "POST /api/design HTTP/1.1\r\nHost: {}\r\nX-PML-Token: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            server.addr,
            server.token,
            long.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(long.as_bytes()).unwrap();
        // Running once a second design is refused; then the page goes away.
        let refused = (0..200).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(5));
            server.post_json("/api/design", &small).status == 503
        });
        drop(stream);
        if refused {
            started = true;
            break;
        }
    }
    assert!(started, "the long design never held the place");
    // Its interrupt is set: the place frees long before the minutes it would take.
    let freed = (0..1200).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        server.post_json("/api/design", &small).status == 200
    });
    assert!(freed, "the abandoned design still runs");
}

/// The work directory is 0700 and an upload 0600 whatever the umask: raw data
/// is never readable by other local users.
#[test]
fn the_store_and_its_uploads_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start_in(&[], tmp.path());
    let answer = server.upload("people.csv", CSV.as_bytes());
    assert_eq!(answer.status, 200, "{}", answer.error());
    let store = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("pml-serve-")
        })
        .expect("the work directory");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&store), 0o700);
    let files: Vec<_> = std::fs::read_dir(&store)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!files.is_empty());
    for f in files {
        assert_eq!(mode(&f), 0o600, "{}", f.display());
    }
}

/// An upload that stalls (headers and part of its body, then nothing) is
/// answered 408 after `--upload-idle` and frees its slot: four stalled uploads
/// do not keep every other one out.
#[test]
fn stalled_uploads_time_out_and_free_their_slots() {
    use std::io::{Read, Write};
    let server = Server::start(&["--upload-idle", "0.5"]);
    let (content_type, body) = crate::common::serve::multipart("people.csv", CSV.as_bytes());
    let stalled: Vec<std::net::TcpStream> = (0..4)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
            let mut head = "POST /api/upload HTTP/1.1\r\nConnection: close\r\n".to_owned();
            for (name, value) in server.headers(&[("Content-Type", &content_type)]) {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len() + 1000));
            stream.write_all(head.as_bytes()).unwrap();
            stream.write_all(&body[..body.len() / 2]).unwrap();
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(60)))
                .unwrap();
            stream
        })
        .collect();
    for mut stream in stalled {
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("--upload-idle"), "{answer}");
    }
    let answer = server.upload("people.csv", CSV.as_bytes());
    assert_eq!(answer.status, 200, "{}", answer.error());
}

/// A file whose first line runs past 1 MiB is refused with a short error (a
/// server once answered 9.4 MB of JSON echoing it).
#[test]
fn a_line_past_the_limit_is_refused_in_a_short_error() {
    let server = Server::start(&[]);
    let long = format!("{}\n1\n", "c".repeat(3 << 20));
    let answer = server.upload("long.csv", long.as_bytes());
    answer.refused(400, "1 MiB");
    assert!(answer.body.len() < 2_000, "{} bytes", answer.body.len());
}

/// Connections that never finish their request headers (or send nothing) are
/// closed after `--header-timeout`, so that they cannot hold the server's file
/// descriptors; the server answers a whole request afterwards.
#[test]
fn half_open_connections_are_closed_after_the_header_timeout() {
    use std::io::{Read, Write};
    let server = Server::start(&["--header-timeout", "0.5"]);
    let started = std::time::Instant::now();
    let idle: Vec<std::net::TcpStream> = (0..4)
        .map(|i| {
            let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
            if i % 2 == 0 {
                stream.write_all(b"GET / HT").unwrap();
            }
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(20)))
                .unwrap();
            stream
        })
        .collect();
    for mut stream in idle {
        let mut answer = Vec::new();
        // Closed by the server: the end of the stream (after at most a short
        // answer), or a reset; never the 20 s read timeout.
        match stream.read_to_end(&mut answer) {
            Ok(_) => assert!(answer.len() < 1_000, "{answer:?}"),
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}"),
        }
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(15));
    let answer = server.upload("people.csv", CSV.as_bytes());
    assert_eq!(answer.status, 200, "{}", answer.error());
}

/// `--header-timeout` and `--max-connections` out of range are one-line usage
/// errors naming the flag.
#[test]
fn connection_limits_out_of_range_are_refused() {
    use crate::common::usage_error;
    usage_error(
        &["serve", "--port", "0", "--header-timeout", "0"],
        "--header-timeout",
    );
    usage_error(
        &["serve", "--port", "0", "--max-connections", "2"],
        "--max-connections",
    );
}
