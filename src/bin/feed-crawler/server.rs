//! The loopback server of `--demo` and `--bench`: fixture feeds with the headers they ask
//! for, a few broken endpoints, and synthetic feeds.

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::fnv1a;

/// One resource the loopback server can answer with.
#[derive(Clone)]
pub struct Resource {
    status: u16,
    headers: Vec<(String, String)>,
    body: Arc<Vec<u8>>,
    etag: String,
}

/// Special behaviours of the demo server.
#[derive(Clone, Copy)]
pub enum Special {
    Stall,
    Cut,
}

#[derive(Default)]
pub struct Site {
    pub resources: HashMap<String, Resource>,
    pub specials: HashMap<String, Special>,
}

pub const DEMO_LAST_MODIFIED: &str = "Sat, 01 Jan 2000 00:00:00 GMT";

impl Site {
    pub fn add(
        &mut self,
        path: &str,
        status: u16,
        mut headers: Vec<(String, String)>,
        body: impl Into<Arc<Vec<u8>>>,
    ) {
        let body = body.into();
        let has =
            |h: &[(String, String)], n: &str| h.iter().any(|(k, _)| k.eq_ignore_ascii_case(n));
        if has(&headers, NO_CONTENT_TYPE) {
            headers.retain(|(k, _)| !k.eq_ignore_ascii_case(NO_CONTENT_TYPE));
        } else if !has(&headers, "content-type") {
            headers.push(("Content-Type".into(), "application/xml".into()));
        }
        if !has(&headers, "last-modified") {
            headers.push(("Last-Modified".into(), DEMO_LAST_MODIFIED.into()));
        }
        let etag = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("etag"))
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| {
                let e = format!("\"{:016x}\"", fnv1a(&body));
                headers.push(("ETag".into(), e.clone()));
                e
            });
        self.resources.insert(
            path.to_owned(),
            Resource {
                status,
                headers,
                body,
                etag,
            },
        );
    }

    fn answer(&self, path: &str, req_headers: &[(String, String)]) -> Option<Vec<u8>> {
        let r = self.resources.get(path)?;
        let get = |n: &str| {
            req_headers
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
        };
        let fresh = get("if-none-match").is_some_and(|v| v.split(',').any(|t| t.trim() == r.etag))
            || (get("if-none-match").is_none()
                && get("if-modified-since").is_some_and(|v| {
                    r.headers
                        .iter()
                        .any(|(k, lm)| k.eq_ignore_ascii_case("last-modified") && lm == v)
                }));
        let (status, body) = if fresh && r.status == 200 {
            (304, &[][..])
        } else {
            (r.status, &r.body[..])
        };
        let mut out = format!(
            "HTTP/1.1 {status} {}\r\nContent-Length: {}\r\n",
            reason(status),
            body.len()
        );
        for (k, v) in &r.headers {
            out.push_str(&format!("{k}: {v}\r\n"));
        }
        out.push_str("\r\n");
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(body);
        Some(bytes)
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Status",
    }
}

/// Starts the loopback server on `addr`; returns the bound address.
pub async fn serve(addr: &str, site: Arc<Site>) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(connection(stream, Arc::clone(&site)));
        }
    });
    Ok(local)
}

async fn connection(mut stream: TcpStream, site: Arc<Site>) {
    let _ = stream.set_nodelay(true);
    let mut buf = Vec::with_capacity(1024);
    loop {
        let end = loop {
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break end;
            }
            let mut chunk = [0u8; 2048];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        buf.drain(..end + 4);
        let mut lines = head.split("\r\n");
        let path = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("/")
            .to_owned();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        match site.specials.get(&path) {
            Some(Special::Stall) => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                return;
            }
            Some(Special::Cut) => {
                let _ = stream
                    .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 5000\r\n\r\n<rss version=\"2.0\"><channel><title>cut short")
                    .await;
                let _ = stream.flush().await;
                return;
            }
            None => {}
        }
        let reply = site.answer(&path, &headers).unwrap_or_else(|| {
            b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nnot found".to_vec()
        });
        if stream.write_all(&reply).await.is_err() {
            return;
        }
    }
}

/// What a fixture's leading comment asks of the server.
pub struct FixtureHead {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub uncompressed: bool,
}

/// Reads `Header: Name: value`, `Status: N` and `Serve: uncompressed` lines from the
/// first XML comment (ASCII-compatible fixtures only) and from a sidecar `NAME.expect`
/// beside the file, where `Transport: http` without a `Content-Type` header means "send
/// no Content-Type".
pub fn fixture_head(file: &Path, bytes: &[u8]) -> FixtureHead {
    let mut head = FixtureHead {
        status: 200,
        headers: Vec::new(),
        uncompressed: false,
    };
    if let Ok(sidecar) = std::fs::read_to_string(file.with_extension("expect")) {
        head_lines(&sidecar, &mut head);
        let http = sidecar
            .lines()
            .any(|l| l.trim().eq_ignore_ascii_case("Transport: http"));
        if http
            && !head
                .headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            head.headers.push((NO_CONTENT_TYPE.into(), String::new()));
        }
    }
    let Some(start) = bytes.windows(4).position(|w| w == b"<!--") else {
        return head;
    };
    let root = bytes
        .iter()
        .enumerate()
        .find(|&(i, &b)| b == b'<' && bytes.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic()));
    if root.is_some_and(|(i, _)| i < start) {
        return head;
    }
    let rest = &bytes[start + 4..];
    let end = rest
        .windows(3)
        .position(|w| w == b"-->")
        .unwrap_or(rest.len());
    head_lines(&String::from_utf8_lossy(&rest[..end]), &mut head);
    head
}

/// A marker header: serve this fixture without any Content-Type.
pub const NO_CONTENT_TYPE: &str = "x-no-content-type";

fn head_lines(text: &str, head: &mut FixtureHead) {
    for line in text.lines() {
        let line = line.trim();
        if let Some(h) = line.strip_prefix("Header:") {
            if let Some((n, v)) = h.split_once(':') {
                head.headers
                    .push((n.trim().to_owned(), v.trim().to_owned()));
            }
        } else if let Some(s) = line.strip_prefix("Status:") {
            head.status = s.trim().parse().unwrap_or(200);
        } else if line
            .strip_prefix("Serve:")
            .is_some_and(|s| s.trim() == "uncompressed")
        {
            head.uncompressed = true;
        }
    }
}

pub fn compress(coding: &str, body: &[u8]) -> Option<Vec<u8>> {
    use flate2::Compression;
    let mut out = Vec::new();
    match coding.trim().to_ascii_lowercase().as_str() {
        "gzip" | "x-gzip" => {
            let mut e = flate2::write::GzEncoder::new(&mut out, Compression::default());
            e.write_all(body).ok()?;
            e.finish().ok()?;
        }
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(&mut out, Compression::default());
            e.write_all(body).ok()?;
            e.finish().ok()?;
        }
        _ => return None,
    }
    Some(out)
}

pub fn find_xml(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            find_xml(&p, out);
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("xml")) {
            out.push(p);
        }
    }
}

/// A synthetic RSS 2.0 feed of about `size` bytes.
pub fn synthetic_feed(n: usize, size: usize) -> Vec<u8> {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\"><channel>\
         <title>Bench feed {n}</title><link>http://example.org/{n}</link>\
         <description>Synthetic feed for the crawler benchmark — café</description>\n"
    );
    let mut i = 0;
    while s.len() < size {
        s.push_str(&format!(
            "<item><title>Item {i} of feed {n}</title><link>http://example.org/{n}/{i}</link>\
             <guid>urn:bench:{n}:{i}</guid><pubDate>Sat, 01 Jan 2000 00:00:{:02} GMT</pubDate>\
             <description>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do \
             eiusmod tempor incididunt ut labore et dolore magna aliqua — ünïcödé.</description></item>\n",
            i % 60
        ));
        i += 1;
    }
    s.push_str("</channel></rss>\n");
    s.into_bytes()
}
