//! A tiny scriptable HTTP/1.1 server on 127.0.0.1 for the `http` tests: each request is
//! recorded and answered by a handler closure. Keep-alive, `Content-Length` framing only.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A request as the server saw it.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Names lower-cased.
    pub headers: Vec<(String, String)>,
    /// When the request head was complete.
    pub at: std::time::Instant,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What to answer.
pub enum Reply {
    /// A complete response.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Read the request, never answer (until the connection is dropped).
    Stall,
    /// Send the head with `Content-Length: declared`, then `body`, then reset the connection.
    Cut {
        headers: Vec<(String, String)>,
        body: Vec<u8>,
        declared: usize,
    },
}

pub fn ok(headers: &[(&str, &str)], body: impl Into<Vec<u8>>) -> Reply {
    status(200, headers, body)
}

pub fn status(code: u16, headers: &[(&str, &str)], body: impl Into<Vec<u8>>) -> Reply {
    Reply::Full {
        status: code,
        headers: headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
        body: body.into(),
    }
}

pub fn redirect(code: u16, location: &str) -> Reply {
    status(code, &[("Location", location)], Vec::new())
}

pub struct Server {
    pub addr: SocketAddr,
    pub requests: Arc<Mutex<Vec<Request>>>,
    /// The most requests ever being answered at once.
    pub max_in_flight: Arc<AtomicUsize>,
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// Starts a server on 127.0.0.1 (an ephemeral port) on the current tokio runtime.
pub async fn serve(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Server {
    serve_on("127.0.0.1:0", handler).await
}

/// Starts a server on `bind` on the current tokio runtime.
pub async fn serve_on(
    bind: &str,
    handler: impl Fn(&Request) -> Reply + Send + Sync + 'static,
) -> Server {
    let listener = TcpListener::bind(bind).await.expect("bind loopback");
    let addr = listener.local_addr().unwrap();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let handler: Arc<Handler> = Arc::new(handler);
    let in_flight = Arc::new(AtomicUsize::new(0));
    let max_in_flight = Arc::new(AtomicUsize::new(0));
    let (reqs, maxf) = (Arc::clone(&requests), Arc::clone(&max_in_flight));
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let (h, r, f, m) = (
                Arc::clone(&handler),
                Arc::clone(&reqs),
                Arc::clone(&in_flight),
                Arc::clone(&maxf),
            );
            tokio::spawn(connection(stream, h, r, f, m));
        }
    });
    Server {
        addr,
        requests,
        max_in_flight,
    }
}

/// Reads one request head; `None` at end of stream.
pub async fn read_head(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Option<Request> {
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            buf.drain(..end + 4);
            let mut lines = head.split("\r\n");
            let mut first = lines.next()?.split_whitespace();
            let method = first.next()?.to_owned();
            let path = first.next()?.to_owned();
            let headers = lines
                .filter_map(|l| l.split_once(':'))
                .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
                .collect();
            return Some(Request {
                method,
                path,
                headers,
                at: std::time::Instant::now(),
            });
        }
        let mut chunk = [0u8; 4096];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

fn head(status: u16, headers: &[(String, String)], len: usize) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} X\r\nContent-Length: {len}\r\n");
    for (n, v) in headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    out.push_str("\r\n");
    out.into_bytes()
}

async fn connection(
    mut stream: TcpStream,
    handler: Arc<Handler>,
    requests: Arc<Mutex<Vec<Request>>>,
    in_flight: Arc<AtomicUsize>,
    max_in_flight: Arc<AtomicUsize>,
) {
    let mut buf = Vec::new();
    while let Some(req) = read_head(&mut stream, &mut buf).await {
        requests.lock().unwrap().push(req.clone());
        let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        max_in_flight.fetch_max(now, Ordering::SeqCst);
        let reply = handler(&req);
        let keep = match reply {
            Reply::Full {
                status,
                headers,
                body,
            } => {
                let mut out = head(status, &headers, body.len());
                out.extend_from_slice(&body);
                stream.write_all(&out).await.is_ok()
            }
            Reply::Stall => {
                tokio::time::sleep(Duration::from_secs(30)).await;
                false
            }
            Reply::Cut {
                headers,
                body,
                declared,
            } => {
                let mut out = head(200, &headers, declared);
                out.extend_from_slice(&body);
                let _ = stream.write_all(&out).await;
                let _ = stream.flush().await;
                tokio::time::sleep(Duration::from_millis(50)).await;
                let _ = stream.set_zero_linger();
                false
            }
        };
        in_flight.fetch_sub(1, Ordering::SeqCst);
        if !keep {
            return;
        }
    }
}

/// A port on 127.0.0.1 with nothing listening (bound, then released).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// gzip-compresses `data`.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// zlib-compresses `data` (HTTP `deflate`).
pub fn zlib(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A small RSS document.
pub fn rss(title: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\"><channel>\
         <title>{title}</title><item><title>one</title></item></channel></rss>\n"
    )
}
