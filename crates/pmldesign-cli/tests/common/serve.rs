//! A running `pml serve` and a tiny HTTP/1.1 client over a std `TcpStream`
//! (test-only: one request per connection, `Connection: close`).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A server started on a free port; stopped (SIGTERM, then waited for) on drop.
/// It is also its [`Client`] (`server.addr`, `server.upload(..)`).
pub struct Server {
    child: Child,
    client: Client,
}

/// Where a server listens and its run's token: requests that carry both.
/// Shared by the threads of a load test.
#[derive(Clone)]
pub struct Client {
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The run's token.
    pub token: String,
}

impl std::ops::Deref for Server {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Server {
    /// `pml serve --port 0 EXTRA...`, once it has printed its URL.
    pub fn start(extra: &[&str]) -> Server {
        Self::start_in(extra, &std::env::temp_dir())
    }

    /// [`Server::start`] with its work directory made in `tmp` (`TMPDIR`).
    pub fn start_in(extra: &[&str], tmp: &std::path::Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pml"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .env("TMPDIR", tmp)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("pml serve: http://")
            .unwrap_or_else(|| panic!("first line {line:?}"));
        let (addr, token) = url.split_once("/?token=").unwrap();
        Server {
            child,
            client: Client {
                addr: addr.to_owned(),
                token: token.to_owned(),
            },
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// True while the process runs.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// The client of this server (to share among threads).
    pub fn client(&self) -> Client {
        self.client.clone()
    }
}

impl Client {
    /// The right Host and the token header, then `extra`.
    pub fn headers<'a>(&'a self, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
        let mut h = vec![
            ("Host", self.addr.as_str()),
            ("X-PML-Token", self.token.as_str()),
        ];
        h.extend_from_slice(extra);
        h
    }

    /// A request with the right Host, the token header and `extra`.
    pub fn send(&self, method: &str, path: &str, extra: &[(&str, &str)], body: &[u8]) -> Answer {
        request(&self.addr, method, path, &self.headers(extra), body)
    }

    /// A request with the token header, the right Host and a content type.
    pub fn call(&self, method: &str, path: &str, content_type: &str, body: &[u8]) -> Answer {
        self.send(method, path, &[("Content-Type", content_type)], body)
    }

    /// `POST path` with a JSON body.
    pub fn post_json(&self, path: &str, body: &serde_json::Value) -> Answer {
        self.call(
            "POST",
            path,
            "application/json",
            body.to_string().as_bytes(),
        )
    }

    /// Uploads `data` as the file `name`; returns the answer.
    pub fn upload(&self, name: &str, data: &[u8]) -> Answer {
        let (content_type, body) = multipart(name, data);
        self.call("POST", "/api/upload", &content_type, &body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM, so that the server removes its work directory; SIGKILL if no
        // `kill` could send it.
        let terminated = Command::new("kill")
            .arg(self.child.id().to_string())
            .status()
            .is_ok_and(|s| s.success());
        if !terminated {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A multipart/form-data body holding `data` as the field `file`.
pub fn multipart(name: &str, data: &[u8]) -> (String, Vec<u8>) {
    let boundary = "pml-test-boundary-7d1f";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// An answer: status, headers (lower-case names) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&self.body)))
    }

    /// Asserts a refusal: `status`, and a one-line error that names `part`.
    pub fn refused(&self, status: u16, part: &str) {
        assert_eq!(
            self.status,
            status,
            "{:?}",
            String::from_utf8_lossy(&self.body)
        );
        let e = self.error();
        assert!(e.contains(part), "{part:?} not in {e}");
    }

    /// The one-line `error` of a JSON error body.
    pub fn error(&self) -> String {
        let v = self.json();
        let e = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {v}"));
        assert!(!e.contains('\n'), "one line: {e}");
        e.to_owned()
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One request on a new connection. With `Expect: 100-continue` among the
/// headers, the body is sent only after the server's `100 Continue`; with a
/// `Transfer-Encoding` header, as one chunk (no length announced).
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let chunked = headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("transfer-encoding"));
    let body = if chunked {
        head.push_str("\r\n");
        let mut framed = format!("{:x}\r\n", body.len()).into_bytes();
        framed.extend_from_slice(body);
        framed.extend_from_slice(b"\r\n0\r\n\r\n");
        framed
    } else {
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        body.to_vec()
    };
    stream.write_all(head.as_bytes()).unwrap();
    let expect = headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("expect"));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    if expect {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if !line.contains(" 100 ") {
            return read_answer(line, &mut reader);
        }
        line.clear();
        reader.read_line(&mut line).unwrap(); // the blank line after 100
    }
    // The server may answer (and close) before reading all of a refused body.
    let _ = stream.write_all(&body);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    read_answer(line, &mut reader)
}

fn read_answer(status_line: String, reader: &mut impl BufRead) -> Answer {
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("status line {status_line:?}"));
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (n, v) = line.split_once(':').unwrap();
        headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
    }
    let mut raw = Vec::new();
    let _ = reader.read_to_end(&mut raw);
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(&raw) } else { raw };
    Answer {
        status,
        headers,
        body,
    }
}

/// The body of a chunked transfer.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let end = raw.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = std::str::from_utf8(&raw[..end]).unwrap();
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        raw = &raw[end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

/// The resident memory of a process in kB (`VmRSS` of /proc/PID/status).
pub fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}
