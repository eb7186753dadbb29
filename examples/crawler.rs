//! A polite feed crawler on `feed_decoder::http` (needs `--features http`).
//!
//! ```text
//! cargo run --release --features http --example crawler -- urls.txt --state state.json
//! cargo run --release --features http --example crawler              # same as --demo
//! cargo run --release --features http --example crawler -- --bench 1000
//! ```
//!
//! - **Input**: one URL per line from a file, or from stdin with `-` (blank lines and
//!   `#` comments skipped; duplicates crawled once).
//! - **Politeness**: at most `--concurrency` requests in flight; one request at a time per
//!   host, `--delay-ms` apart.
//! - **Conditional GET**: with `--state FILE`, each URL's `ETag` and `Last-Modified` are
//!   kept in FILE (JSON) between runs, so a second run sends `If-None-Match` /
//!   `If-Modified-Since` and unchanged feeds come back `304`.
//! - **Output**: one JSON line per feed on stdout (or `--output FILE`): URL, final href,
//!   status, encoding, bozo kinds, version, title, entry count, timings, or the error; a
//!   summary table on stderr at the end (feeds by status, encoding, bozo kind; throughput).
//!   A progress bar is drawn on stderr when it is a terminal.
//! - **Sharding**: `--shard i/n` keeps only the URLs whose 64-bit FNV-1a hash of the URL
//!   bytes, modulo `n`, is `i`. The hash is stable across runs, machines and Rust
//!   versions, so a list can be split across `n` hosts by giving every host the same list
//!   and its own `i` (`--shard 0/3`, `--shard 1/3`, `--shard 2/3`), each with its own
//!   `--state` file; every URL is crawled by exactly one host.
//! - **`--demo`** (also what no arguments at all do): serves every `*.xml` under the
//!   project's `feeds/` folder from a loopback server, with the headers each fixture asks
//!   for (`Header: Name: value`, `Status: 404`, `Serve: uncompressed` lines in its leading
//!   XML comment or its `.expect` sidecar; default `Content-Type: application/xml`), plus a few broken endpoints
//!   (a stall, a redirect loop, a connection cut mid-body, a refused port), and crawls it
//!   twice: the second pass is conditional. Works offline.
//! - **`--bench N`**: serves N synthetic ~20 KB feeds from loopback addresses
//!   127.0.0.1–127.0.0.16 (one "host" each) and reports feeds per second and the share of
//!   time spent decoding and parsing.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, IsTerminal, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use feed_decoder::http::{
    CrawlJob, CrawlOptions, CrawlResult, Crawler, FetchOptions, Fetcher, Validators,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[derive(Parser, Debug, Clone)]
#[command(about = "Polite feed crawler on feed-decoder's http feature")]
struct Args {
    /// File with one URL per line (`-` for stdin).
    input: Option<PathBuf>,
    /// Serve the project's fixture feeds from a loopback server and crawl them twice.
    #[arg(long)]
    demo: bool,
    /// Benchmark: serve N synthetic ~20 KB feeds on loopback and crawl them.
    #[arg(long, value_name = "N")]
    bench: Option<usize>,
    /// Conditional-GET state file (JSON), read before and written after the crawl.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Write the JSON lines here instead of stdout.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Pause between two requests to the same host, in milliseconds.
    #[arg(long, default_value_t = 200)]
    delay_ms: u64,
    /// Total timeout per feed, in seconds.
    #[arg(long, default_value_t = 20.0)]
    timeout: f64,
    /// Keep only URLs with FNV-1a(url) % n == i.
    #[arg(long, value_name = "i/n", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// The fixture folder for --demo (default: ./feeds, else the crate's feeds/).
    #[arg(long)]
    feeds: Option<PathBuf>,
    /// Never draw a progress bar.
    #[arg(long)]
    no_progress: bool,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s.split_once('/').ok_or("expected i/n")?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| "bad i")?,
        n.trim().parse().map_err(|_| "bad n")?,
    );
    if n == 0 || i >= n {
        return Err(format!("need 0 <= i < n, got {i}/{n}"));
    }
    Ok((i, n))
}

/// 64-bit FNV-1a: stable everywhere, unlike `DefaultHasher`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

type State = BTreeMap<String, Validators>;

fn load_state(path: Option<&Path>) -> State {
    let Some(path) = path else {
        return State::new();
    };
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            eprintln!("ignoring unreadable state {}: {e}", path.display());
            State::new()
        }),
        Err(_) => State::new(),
    }
}

fn save_state(path: &Path, state: &State) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(state)?)?;
    std::fs::rename(tmp, path)
}

fn main() {
    let args = if std::env::args_os().len() <= 1 {
        Args::parse_from(["crawler", "--demo"])
    } else {
        Args::parse()
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let code = rt.block_on(run(args));
    std::process::exit(code);
}

async fn run(args: Args) -> i32 {
    if let Some(n) = args.bench {
        return bench(&args, n).await;
    }
    if args.demo || args.input.is_none() {
        return demo(&args).await;
    }
    let input = args.input.as_deref().unwrap_or(Path::new("-"));
    let text = if input == Path::new("-") {
        let mut s = String::new();
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            s.push_str(&line);
            s.push('\n');
        }
        s
    } else {
        match std::fs::read_to_string(input) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("cannot read {}: {e}", input.display());
                return 2;
            }
        }
    };
    let urls = url_list(&text, args.shard);
    let mut out = output(&args);
    let mut state = load_state(args.state.as_deref());
    let stats = crawl_pass(&args, urls, &mut state, &mut out, "crawl").await;
    if let Some(p) = &args.state
        && let Err(e) = save_state(p, &state)
    {
        eprintln!("cannot write state {}: {e}", p.display());
    }
    i32::from(stats.total == 0)
}

fn url_list(text: &str, shard: Option<(u64, u64)>) -> Vec<String> {
    let mut seen = HashSet::new();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| shard.is_none_or(|(i, n)| fnv1a(l.as_bytes()) % n == i))
        .filter(|l| seen.insert((*l).to_owned()))
        .map(str::to_owned)
        .collect()
}

fn output(args: &Args) -> Box<dyn Write + Send> {
    match &args.output {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).expect("output file"),
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    }
}

fn fetch_options(args: &Args) -> FetchOptions {
    FetchOptions::new().timeout(Duration::from_secs_f64(args.timeout.max(0.1)))
}

/// Counts for the summary table.
#[derive(Default)]
struct Stats {
    total: usize,
    by_status: BTreeMap<String, usize>,
    by_encoding: BTreeMap<String, usize>,
    by_bozo: BTreeMap<String, usize>,
    bytes: usize,
    fetch: Duration,
    parse: Duration,
    wall: Duration,
}

impl Stats {
    fn add(&mut self, r: &CrawlResult) {
        self.total += 1;
        self.fetch += r.fetch_time;
        self.parse += r.parse_time;
        let status = match &r.outcome {
            Ok(f) => {
                self.bytes += f.body.len();
                f.http
                    .as_ref()
                    .map_or_else(|| "file".to_owned(), |h| h.final_status.to_string())
            }
            Err(e) => format!("error:{}", e.kind()),
        };
        *self.by_status.entry(status).or_default() += 1;
        if let Some(s) = &r.summary {
            *self.by_encoding.entry(s.encoding.clone()).or_default() += 1;
            let kinds: HashSet<_> = s.bozo.iter().map(|k| k.feedparser_name()).collect();
            for k in kinds {
                *self.by_bozo.entry(k.to_owned()).or_default() += 1;
            }
            if s.bozo.is_empty() {
                *self.by_bozo.entry("(none)".to_owned()).or_default() += 1;
            }
        }
    }

    fn print(&self, label: &str) {
        let mut e = std::io::stderr().lock();
        let secs = self.wall.as_secs_f64().max(1e-9);
        let _ = writeln!(
            e,
            "\n== {label}: {} feeds in {:.2} s ({:.0} feeds/s, {:.1} MB/s)",
            self.total,
            secs,
            self.total as f64 / secs,
            self.bytes as f64 / secs / 1e6
        );
        let busy = (self.fetch + self.parse).as_secs_f64().max(1e-9);
        let _ = writeln!(
            e,
            "   task time: fetch {:.0} ms, decode+parse {:.0} ms ({:.1}% of fetch+parse)",
            self.fetch.as_secs_f64() * 1e3,
            self.parse.as_secs_f64() * 1e3,
            100.0 * self.parse.as_secs_f64() / busy
        );
        for (title, map) in [
            ("status", &self.by_status),
            ("encoding", &self.by_encoding),
            ("bozo", &self.by_bozo),
        ] {
            let _ = writeln!(e, "   {title:<9}");
            for (k, v) in map {
                let _ = writeln!(e, "     {k:<34} {v:>6}");
            }
        }
    }
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

fn json_line(r: &CrawlResult) -> serde_json::Value {
    let mut v = json!({ "index": r.index, "url": r.url, "wait_ms": ms(r.wait), "fetch_ms": ms(r.fetch_time), "parse_ms": ms(r.parse_time) });
    let m = v.as_object_mut().expect("object");
    match &r.outcome {
        Ok(f) => {
            m.insert("href".into(), json!(f.href));
            m.insert("bytes".into(), json!(f.body.len()));
            if let Some(h) = &f.http {
                m.insert("status".into(), json!(h.status));
                m.insert("final_status".into(), json!(h.final_status));
                m.insert("not_modified".into(), json!(h.not_modified));
                m.insert("etag".into(), json!(h.etag));
                m.insert("modified".into(), json!(h.modified));
                m.insert("permanent_href".into(), json!(h.permanent_href));
                m.insert("wire_bytes".into(), json!(h.wire_bytes));
            }
        }
        Err(e) => {
            m.insert("error".into(), json!(e.kind()));
            m.insert("error_message".into(), json!(e.to_string()));
        }
    }
    if let Some(s) = &r.summary {
        m.insert("encoding".into(), json!(s.encoding));
        m.insert("version".into(), json!(s.version));
        m.insert("title".into(), json!(s.title));
        m.insert("entries".into(), json!(s.entries));
        let kinds: Vec<_> = s.bozo.iter().map(|k| k.feedparser_name()).collect();
        m.insert("bozo".into(), json!(kinds));
        m.insert("bozo_message".into(), json!(s.first_bozo));
    }
    v
}

/// One crawl over `urls`; updates `state` from every answer.
async fn crawl_pass(
    args: &Args,
    urls: Vec<String>,
    state: &mut State,
    out: &mut Box<dyn Write + Send>,
    label: &str,
) -> Stats {
    let fetcher = match Fetcher::new(fetch_options(args)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return Stats::default();
        }
    };
    let crawler = Crawler::new(
        fetcher,
        CrawlOptions::new()
            .concurrency(args.concurrency)
            .per_host_delay(Duration::from_millis(args.delay_ms)),
    );
    let jobs: Vec<CrawlJob> = urls
        .iter()
        .map(|u| {
            CrawlJob::new(u.clone()).with_validators(state.get(u).cloned().unwrap_or_default())
        })
        .collect();
    let bar = if !args.no_progress && std::io::stderr().is_terminal() {
        let b = ProgressBar::new(jobs.len() as u64);
        b.set_style(
            ProgressStyle::with_template(
                "{prefix} [{bar:40}] {pos}/{len} {per_sec} eta {eta} {msg}",
            )
            .expect("template")
            .progress_chars("=> "),
        );
        b.set_prefix(label.to_owned());
        b
    } else {
        ProgressBar::hidden()
    };
    let mut stats = Stats::default();
    let start = Instant::now();
    crawler
        .crawl(jobs, |r| {
            stats.add(&r);
            let _ = writeln!(out, "{}", json_line(&r));
            if let Ok(f) = &r.outcome
                && let Some(h) = &f.http
                && !h.not_modified
            {
                let v = h.validators();
                if v.is_empty() {
                    state.remove(&r.url);
                } else {
                    state.insert(r.url.clone(), v);
                }
            }
            bar.set_message(r.url);
            bar.inc(1);
        })
        .await;
    stats.wall = start.elapsed();
    bar.finish_and_clear();
    let _ = out.flush();
    stats.print(label);
    stats
}

// ---------------------------------------------------------------------------------------
// The loopback server for --demo and --bench.

/// One resource the loopback server can answer with.
#[derive(Clone)]
struct Resource {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    etag: String,
}

/// Special behaviours of the demo server.
#[derive(Clone, Copy)]
enum Special {
    Stall,
    Cut,
}

#[derive(Default)]
struct Site {
    resources: HashMap<String, Resource>,
    specials: HashMap<String, Special>,
}

const DEMO_LAST_MODIFIED: &str = "Sat, 01 Jan 2000 00:00:00 GMT";

impl Site {
    fn add(&mut self, path: &str, status: u16, mut headers: Vec<(String, String)>, body: Vec<u8>) {
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
async fn serve(addr: &str, site: Arc<Site>) -> std::io::Result<SocketAddr> {
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
struct FixtureHead {
    status: u16,
    headers: Vec<(String, String)>,
    uncompressed: bool,
}

/// Reads `Header: Name: value`, `Status: N` and `Serve: uncompressed` lines from the
/// first XML comment (ASCII-compatible fixtures only) and from a sidecar `NAME.expect`
/// beside the file, where `Transport: http` without a `Content-Type` header means "send
/// no Content-Type".
fn fixture_head(file: &Path, bytes: &[u8]) -> FixtureHead {
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
const NO_CONTENT_TYPE: &str = "x-no-content-type";

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

fn compress(coding: &str, body: &[u8]) -> Option<Vec<u8>> {
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

fn find_xml(dir: &Path, out: &mut Vec<PathBuf>) {
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

fn feeds_dir(args: &Args) -> PathBuf {
    if let Some(d) = &args.feeds {
        return d.clone();
    }
    let here = PathBuf::from("feeds");
    if here.is_dir() {
        here
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds")
    }
}

async fn demo(args: &Args) -> i32 {
    let dir = feeds_dir(args);
    let mut files = Vec::new();
    find_xml(&dir, &mut files);
    files.sort();
    let mut site = Site::default();
    let mut paths = Vec::new();
    for file in &files {
        let Ok(raw) = std::fs::read(file) else {
            continue;
        };
        let rel = file
            .strip_prefix(&dir)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        let path = format!("/feeds/{rel}");
        let head = fixture_head(file, &raw);
        let coding = head
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-encoding"))
            .map(|(_, v)| v.clone());
        let body = match (&coding, head.uncompressed) {
            (Some(c), false) => compress(c, &raw).unwrap_or(raw),
            _ => raw,
        };
        site.add(&path, head.status, head.headers, body);
        paths.push(path);
    }
    site.specials.insert("/broken/stall".into(), Special::Stall);
    site.specials.insert("/broken/cut".into(), Special::Cut);
    site.add(
        "/broken/loop-a",
        302,
        vec![("Location".into(), "/broken/loop-b".into())],
        Vec::new(),
    );
    site.add(
        "/broken/loop-b",
        302,
        vec![("Location".into(), "/broken/loop-a".into())],
        Vec::new(),
    );
    paths.extend(
        [
            "/broken/stall",
            "/broken/cut",
            "/broken/loop-a",
            "/broken/missing",
        ]
        .map(String::from),
    );
    let addr = match serve("127.0.0.1:0", Arc::new(site)).await {
        Ok(a) => a,
        Err(e) => {
            eprintln!("cannot start the loopback server: {e}");
            return 2;
        }
    };
    eprintln!(
        "demo: serving {} fixture feeds from {} on http://{addr}/",
        files.len(),
        dir.display()
    );
    let refused = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port());
    let mut urls: Vec<String> = paths.iter().map(|p| format!("http://{addr}{p}")).collect();
    if let Ok(port) = refused {
        urls.push(format!("http://127.0.0.1:{port}/refused.xml"));
    }
    let urls: Vec<String> = url_list(&urls.join("\n"), args.shard);
    let args_demo = Args {
        delay_ms: args.delay_ms.min(20),
        timeout: args.timeout.min(2.0),
        ..args.clone()
    };
    let mut out = output(args);
    // The state file would name this run's random port; keep it to this run unless asked.
    let mut state = load_state(args.state.as_deref());
    let first = crawl_pass(
        &args_demo,
        urls.clone(),
        &mut state,
        &mut out,
        "demo pass 1",
    )
    .await;
    let second = crawl_pass(
        &args_demo,
        urls,
        &mut state,
        &mut out,
        "demo pass 2 (conditional)",
    )
    .await;
    if let Some(p) = &args.state {
        let _ = save_state(p, &state);
    }
    let not_modified = second.by_status.get("304").copied().unwrap_or(0);
    eprintln!("demo: pass 2 got {not_modified} × 304 Not Modified from saved validators");
    i32::from(first.total == 0)
}

/// A synthetic RSS 2.0 feed of about `size` bytes.
fn synthetic_feed(n: usize, size: usize) -> Vec<u8> {
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

async fn bench(args: &Args, n: usize) -> i32 {
    let mut site = Site::default();
    for i in 0..n {
        site.add(
            &format!("/bench/{i}.xml"),
            200,
            Vec::new(),
            synthetic_feed(i, 20_000),
        );
    }
    let site = Arc::new(site);
    let mut addrs = Vec::new();
    for h in 1..=16 {
        match serve(&format!("127.0.0.{h}:0"), Arc::clone(&site)).await {
            Ok(a) => addrs.push(a),
            Err(_) if h > 1 => break,
            Err(e) => {
                eprintln!("cannot start the loopback server: {e}");
                return 2;
            }
        }
    }
    let urls: Vec<String> = (0..n)
        .map(|i| format!("http://{}/bench/{i}.xml", addrs[i % addrs.len()]))
        .collect();
    eprintln!(
        "bench: {n} feeds of ~20 KB over {} loopback hosts, concurrency {}, per-host delay {} ms",
        addrs.len(),
        args.concurrency.max(addrs.len()),
        0
    );
    let bench_args = Args {
        concurrency: args.concurrency.max(addrs.len()),
        delay_ms: 0,
        ..args.clone()
    };
    let mut out: Box<dyn Write + Send> = match &args.output {
        Some(_) => output(args),
        None => Box::new(std::io::sink()),
    };
    let mut state = State::new();
    let stats = crawl_pass(&bench_args, urls, &mut state, &mut out, "bench").await;
    let ok = stats.by_status.get("200").copied().unwrap_or(0);
    println!(
        "{}",
        json!({
            "feeds": stats.total,
            "ok": ok,
            "seconds": stats.wall.as_secs_f64(),
            "feeds_per_second": stats.total as f64 / stats.wall.as_secs_f64().max(1e-9),
            "parse_share_of_task_time": stats.parse.as_secs_f64() / (stats.fetch + stats.parse).as_secs_f64().max(1e-9),
            "parse_seconds_total": stats.parse.as_secs_f64(),
            "parse_share_of_wall_x_cores": stats.parse.as_secs_f64() / (stats.wall.as_secs_f64() * std::thread::available_parallelism().map_or(1, |p| p.get()) as f64),
        })
    );
    i32::from(ok != n)
}
