//! `feed-crawler`: a polite, durable feed crawler on `feed_decoder::http` (cargo feature
//! `crawler`).
//!
//! ```text
//! cargo run --release --features crawler --bin feed-crawler -- --demo
//! feed-crawler urls.txt --state state.db -o results.jsonl
//! feed-crawler urls.txt --state state.db -o results.jsonl --resume   # after a stop
//! feed-crawler urls.txt --state state.db -o results.jsonl --due      # periodic run
//! feed-crawler --bench 1000
//! ```
//!
//! - **Input**: one URL per line from a file, or from stdin with `-` (blank lines and
//!   `#` comments skipped; duplicates crawled once).
//! - **Politeness**: at most `--concurrency` requests in flight; one request at a time per
//!   host, `--delay-ms` apart; a `429`/`503` with `Retry-After` pauses its host.
//! - **State** (`--state FILE`): an SQLite database in WAL mode, one transaction per
//!   result: validators (`ETag`, `Last-Modified`, sent back as a conditional GET), last
//!   status and error, last success, failures in a row, the next fetch time and the
//!   permanent-redirect target. `--import-json OLD` imports an old JSON state file once.
//! - **Next fetch**: `Retry-After` and exponential backoff after failures;
//!   `Cache-Control: max-age`, RSS `ttl`, `sy:updatePeriod`/`sy:updateFrequency`,
//!   `skipHours` and `skipDays` after a success (see `feed_decoder::http::schedule`).
//!   `--due` fetches only the feeds whose time has come (and new ones).
//! - **Output**: one JSON line per feed, appended to `--output FILE` (or on stdout), each
//!   written with one `write` call and flushed, so no line is ever cut; a summary table on
//!   stderr at the end.
//! - **Stopping**: SIGINT or SIGTERM starts no new request, lets those in flight finish
//!   within `--grace` seconds, and exits with 130 / 143; a second signal exits at once.
//!   Every result written is in the database; `--resume` continues the unfinished crawl,
//!   skipping the URLs it already reported.
//! - **Sharding**: `--shard i/n` keeps only the URLs whose 64-bit FNV-1a hash, modulo
//!   `n`, is `i` (stable across runs and machines); give each shard its own `--state`.
//! - **`--demo`** (also what no arguments do): serves every `*.xml` under `feeds/` from a
//!   loopback server with the headers each fixture asks for, plus a few broken endpoints
//!   (a stall, a redirect loop, a connection cut mid-body, a refused port), and crawls it
//!   twice, the second pass conditional. Works offline. JSON Lines only with `--jsonl` or
//!   `-o FILE`.
//! - **`--bench N`**: serves N synthetic feeds of `--bench-kb` KB (default 20) from
//!   127.0.0.1–127.0.0.16 and reports
//!   feeds per second and the share of time spent decoding and parsing.

mod db;
mod server;

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufRead, IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use feed_decoder::http::schedule::{self, FetchReport, SchedulePolicy};
use feed_decoder::http::{
    CrawlJob, CrawlOptions, CrawlReport, CrawlResult, Crawler, FetchOptions, Fetcher, StopSignal,
};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use serde_json::json;

use db::{Db, Update};
use server::{Site, Special, serve};

#[derive(Parser, Debug, Clone)]
#[command(about = "Polite, durable feed crawler on feed-decoder's http feature")]
struct Args {
    /// File with one URL per line (`-` for stdin).
    input: Option<PathBuf>,
    /// Serve the project's fixture feeds from a loopback server and crawl them twice.
    #[arg(long)]
    demo: bool,
    /// Benchmark: serve N synthetic ~20 KB feeds on loopback and crawl them.
    #[arg(long, value_name = "N")]
    bench: Option<usize>,
    /// --bench: the size of each synthetic feed, in KB (one body shared by all URLs).
    #[arg(long, value_name = "KB", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    bench_kb: u32,
    /// State database (SQLite, created if missing); without it, state lasts one run.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Import the validators of an old JSON state file into --state (once per file).
    #[arg(long, value_name = "FILE", requires = "state")]
    import_json: Option<PathBuf>,
    /// Append the JSON lines to this file instead of writing them to stdout.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// --demo and --bench: print the JSON lines on stdout (without it they print only
    /// the summary, unless --output is given).
    #[arg(long)]
    jsonl: bool,
    /// Continue the last unfinished crawl in --state, skipping the URLs it reported.
    #[arg(long, requires = "state")]
    resume: bool,
    /// Fetch only the feeds whose next fetch time has come (and feeds never fetched).
    #[arg(long, requires = "state")]
    due: bool,
    /// Requests in flight at once (at least 1).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    concurrency: u32,
    /// Pause between two requests to the same host, in milliseconds.
    #[arg(long, default_value_t = 200)]
    delay_ms: u64,
    /// Total time per feed, fetch and parse, in seconds.
    #[arg(long, default_value_t = 20.0, value_parser = positive_secs)]
    timeout: f64,
    /// After SIGINT/SIGTERM, how long in-flight fetches may take to finish, in seconds.
    #[arg(long, default_value_t = 5.0, value_parser = positive_secs)]
    grace: f64,
    /// The longest a `Retry-After` on 429/503 pauses its host within the crawl, in
    /// seconds (the stored next fetch time honours all of it).
    #[arg(long, default_value_t = 5.0, value_parser = non_negative_secs)]
    max_host_pause: f64,
    /// A request header `Name: value` sent with every request (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
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

fn positive_secs(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e6 => Ok(v),
        _ => Err(format!("expected a number of seconds above 0, got {s:?}")),
    }
}

fn non_negative_secs(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..1e6).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a number of seconds, 0 or more, got {s:?}"
        )),
    }
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

fn main() {
    let args = if std::env::args_os().len() <= 1 {
        Args::parse_from(["feed-crawler", "--demo"])
    } else {
        Args::parse()
    };
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("feed-crawler: cannot start the async runtime: {e}");
            std::process::exit(2);
        }
    };
    let code = rt.block_on(run(args));
    // Detached parse threads (a parse that ran out of time) must not hold the exit.
    rt.shutdown_timeout(Duration::from_millis(100));
    std::process::exit(code);
}

/// A setup failure: said on stderr, exit status 2.
fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("feed-crawler: {message}");
    2
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
            Err(e) => return fail(format_args!("cannot read {}: {e}", input.display())),
        }
    };
    let listed = url_list(&text, None).len();
    let urls = url_list(&text, args.shard);
    if urls.is_empty() {
        eprintln!(
            "feed-crawler: no URLs to crawl in {} ({})",
            input.display(),
            if listed == 0 {
                "one URL per line; blank lines and # comments are skipped".to_owned()
            } else {
                format!(
                    "{listed} listed, none in shard {:?}",
                    args.shard.unwrap_or((0, 1))
                )
            }
        );
        return 1;
    }
    let mut sink = match Sink::open(&args, Out::for_args(&args, true)) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let fetcher = match fetcher(&args) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let now = schedule::now().timestamp();
    let (crawl, resumed) = match sink.db.crawl(args.resume, now) {
        Ok(c) => c,
        Err(e) => return fail(format_args!("state database: {e}")),
    };
    sink.crawl = crawl;
    let mut skip = HashSet::new();
    if resumed {
        match resumed_done(&mut sink, &args) {
            Ok(done) => skip = done,
            Err(e) => return fail(e),
        }
        eprintln!(
            "resuming crawl #{crawl}: {} of {} URLs already reported",
            urls.iter().filter(|u| skip.contains(*u)).count(),
            urls.len()
        );
    } else if args.resume {
        eprintln!("no unfinished crawl to resume: starting crawl #{crawl}");
    }
    let mut todo = Vec::with_capacity(urls.len());
    let mut not_due = 0;
    for u in urls {
        if skip.contains(&u) {
            continue;
        }
        if args.due {
            match sink.db.feed(&u) {
                Ok(f) if f.next_fetch.is_some_and(|t| t > now) => {
                    not_due += 1;
                    continue;
                }
                Ok(_) => {}
                Err(e) => return fail(format_args!("state database: {e}")),
            }
        }
        todo.push(u);
    }
    if args.due {
        eprintln!("{} feeds due, {not_due} not due yet", todo.len());
    }
    let pass = crawl_pass(&args, &fetcher, todo, &mut sink, "crawl").await;
    finish(&sink, &pass)
}

/// Marks the crawl finished when nothing was left out; the exit status.
fn finish(sink: &Sink, pass: &Pass) -> i32 {
    let complete = pass.report.not_started == 0 && pass.report.abandoned == 0;
    if complete && pass.write_error.is_none() {
        let _ = sink
            .db
            .finish_crawl(sink.crawl, schedule::now().timestamp());
    }
    if let Some(e) = &pass.write_error {
        eprintln!("feed-crawler: {e}");
        return 1;
    }
    match pass.signal {
        Some(sig) => {
            eprintln!(
                "stopped by signal {sig}: {} not started, {} dropped in flight; \
                 run again with --resume to finish crawl #{}",
                pass.report.not_started, pass.report.abandoned, sink.crawl
            );
            128 + sig
        }
        None => 0,
    }
}

/// The URLs a resumed crawl reported: from the database, and from the output file (a line
/// written just before a kill -9 whose database commit did not happen).
fn resumed_done(sink: &mut Sink, args: &Args) -> Result<HashSet<String>, String> {
    let crawl = sink.crawl;
    let mut done = sink
        .db
        .done(crawl)
        .map_err(|e| format!("state database: {e}"))?;
    let Some(path) = &args.output else {
        return Ok(done);
    };
    let Ok(file) = File::open(path) else {
        return Ok(done);
    };
    let mut extra = Vec::new();
    for line in std::io::BufReader::new(file).lines().map_while(Result::ok) {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        if v["crawl"].as_i64() == Some(crawl)
            && let Some(u) = v["url"].as_str()
            && !done.contains(u)
        {
            extra.push(u.to_owned());
            done.insert(u.to_owned());
        }
    }
    sink.db
        .mark_done(crawl, extra.iter().map(String::as_str))
        .map_err(|e| format!("state database: {e}"))?;
    Ok(done)
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

fn fetcher(args: &Args) -> Result<Fetcher, String> {
    let mut options = FetchOptions::new().timeout(Duration::from_secs_f64(args.timeout));
    for line in &args.headers {
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("--header needs 'Name: value', got {line:?}"));
        };
        options = options.header(name.trim(), value.trim());
    }
    Fetcher::new(options).map_err(|e| format!("--header: {e}"))
}

/// Where the JSON lines go.
enum Out {
    None,
    Stdout,
    File(PathBuf),
}

impl Out {
    fn for_args(args: &Args, stdout_by_default: bool) -> Out {
        match &args.output {
            Some(p) => Out::File(p.clone()),
            None if stdout_by_default || args.jsonl => Out::Stdout,
            None => Out::None,
        }
    }
}

/// An output opened for appending whole lines.
enum Writer {
    None,
    Stdout,
    File(File),
}

impl Writer {
    fn open(out: &Out) -> Result<Writer, String> {
        Ok(match out {
            Out::None => Writer::None,
            Out::Stdout => Writer::Stdout,
            Out::File(p) => {
                let mut f = std::fs::OpenOptions::new()
                    .read(true)
                    .append(true)
                    .create(true)
                    .open(p)
                    .map_err(|e| format!("cannot open output {}: {e}", p.display()))?;
                // A line cut by a crash of an older version: start on a new line.
                let len = f.metadata().map(|m| m.len()).unwrap_or(0);
                if len > 0 {
                    let mut last = [0u8];
                    f.seek(SeekFrom::Start(len - 1))
                        .and_then(|_| f.read_exact(&mut last))
                        .map_err(|e| format!("cannot read output {}: {e}", p.display()))?;
                    if last[0] != b'\n' {
                        f.write_all(b"\n")
                            .map_err(|e| format!("cannot write output {}: {e}", p.display()))?;
                    }
                }
                Writer::File(f)
            }
        })
    }

    /// Writes one whole line with one `write` call and flushes it.
    fn line(&mut self, line: &str) -> std::io::Result<()> {
        match self {
            Writer::None => Ok(()),
            Writer::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(line.as_bytes())?;
                out.flush()
            }
            Writer::File(f) => f.write_all(line.as_bytes()),
        }
    }
}

/// What every result is written to.
struct Sink {
    out: Writer,
    db: Db,
    crawl: i64,
    policy: SchedulePolicy,
}

impl Sink {
    /// Opens the database and the output, so that both are known to work before the
    /// crawl starts.
    fn open(args: &Args, out: Out) -> Result<Sink, String> {
        let mut db = Db::open(args.state.as_deref())?;
        if let Some(json) = &args.import_json {
            match db.import_json(json, schedule::now().timestamp())? {
                Some(n) => eprintln!("imported validators of {n} feeds from {}", json.display()),
                None => eprintln!("{} was imported before; skipped", json.display()),
            }
        }
        let out = Writer::open(&out)?;
        Ok(Sink {
            out,
            db,
            crawl: 0,
            policy: SchedulePolicy::default(),
        })
    }

    /// Writes `r`'s line, then stores its state: a line on disk is never missing from a
    /// resumed crawl (see [`resumed_done`]), and a line is never cut.
    /// `key` is the URL as listed (`r.url` may be where it moved for good).
    fn record(&mut self, r: &CrawlResult, key: &str, bar: &ProgressBar) -> Result<(), String> {
        let now = schedule::now();
        let prev = self.db.feed(key).map_err(|e| e.to_string())?;
        let (status, failed, headers, validators, permanent, error) = match &r.outcome {
            Ok(f) => match &f.http {
                Some(h) => {
                    let failed = h.final_status >= 400;
                    let keep = h.not_modified || failed;
                    (
                        Some(h.final_status),
                        failed,
                        Some(&h.headers),
                        (!keep).then(|| h.validators()),
                        h.permanent_href.as_deref(),
                        None,
                    )
                }
                None => (None, false, None, None, None, None),
            },
            Err(e) => (
                None,
                true,
                None,
                None,
                None,
                Some(format!("{}: {e}", e.kind())),
            ),
        };
        let failures = if failed { prev.failures + 1 } else { 0 };
        let hints = r
            .summary
            .as_ref()
            .map(|s| &s.refresh)
            .or(prev.hints.as_ref());
        let next = schedule::next_fetch(
            &self.policy,
            now,
            &FetchReport {
                status,
                failed,
                headers,
                hints,
                failures,
            },
        );
        let mut line = json_line(r, key, self.crawl, next.timestamp()).to_string();
        line.push('\n');
        let written = if matches!(self.out, Writer::Stdout) && !bar.is_hidden() {
            bar.suspend(|| self.out.line(&line))
        } else {
            self.out.line(&line)
        };
        written.map_err(|e| format!("cannot write output: {e}"))?;
        self.db
            .record(&Update {
                url: key,
                crawl: self.crawl,
                now: now.timestamp(),
                validators,
                status,
                error,
                success: !failed,
                failures,
                next_fetch: next.timestamp(),
                permanent_url: permanent,
                hints: r.summary.as_ref().map(|s| &s.refresh),
            })
            .map_err(|e| format!("cannot store state: {e}"))
    }
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
            // One row per encoding whatever case the feed wrote it in.
            *self
                .by_encoding
                .entry(s.encoding.to_ascii_lowercase())
                .or_default() += 1;
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
            "\n== {label}: {} feeds in {:.2} s ({:.1} feeds/s, {:.1} MB/s)",
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

fn json_line(r: &CrawlResult, key: &str, crawl: i64, next_fetch: i64) -> serde_json::Value {
    let mut v = json!({
        "crawl": crawl,
        "index": r.index,
        "url": key,
        "wait_ms": ms(r.wait),
        "fetch_ms": ms(r.fetch_time),
        "parse_ms": ms(r.parse_time),
        "next_fetch": next_fetch,
    });
    let Some(m) = v.as_object_mut() else {
        return v;
    };
    if r.url != key {
        m.insert("fetched_url".into(), json!(r.url));
    }
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

/// How one pass went.
struct Pass {
    stats: Stats,
    report: CrawlReport,
    /// The signal that stopped it.
    signal: Option<i32>,
    /// Why results stopped being recorded.
    write_error: Option<String>,
}

/// Listens for SIGINT/SIGTERM (Ctrl-C elsewhere): the first stops `stop` and aborts it
/// after `grace`; the second aborts it at once. Records the signal number in `caught`.
fn watch_signals(
    stop: StopSignal,
    grace: Duration,
    caught: Arc<AtomicI32>,
) -> std::io::Result<tokio::task::JoinHandle<()>> {
    let mut count = 0;
    let mut on_signal = move |sig: i32| {
        count += 1;
        let _ = caught.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
        if count == 1 {
            eprintln!(
                "\nfeed-crawler: stopping (signal {sig}): no new requests; waiting up to \
                 {:.1} s for those in flight (signal again to stop at once)",
                grace.as_secs_f64()
            );
            stop.stop();
            let s = stop.clone();
            tokio::spawn(async move {
                tokio::time::sleep(grace).await;
                s.abort();
            });
        } else {
            stop.abort();
        }
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut int = signal(SignalKind::interrupt())?;
        let mut term = signal(SignalKind::terminate())?;
        Ok(tokio::spawn(async move {
            loop {
                let sig = tokio::select! {
                    _ = int.recv() => 2,
                    _ = term.recv() => 15,
                };
                on_signal(sig);
            }
        }))
    }
    #[cfg(not(unix))]
    {
        Ok(tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                on_signal(2);
            }
        }))
    }
}

fn progress_bar(args: &Args, len: usize, label: &str) -> ProgressBar {
    if args.no_progress || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {rate} eta {eta} {wide_msg}")
    {
        b.set_style(
            style
                .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1}/s", s.per_sec());
                })
                .progress_chars("=> "),
        );
    }
    b.set_prefix(label.to_owned());
    b
}

/// One crawl over `urls`, every result written and stored as it arrives.
async fn crawl_pass(
    args: &Args,
    fetcher: &Fetcher,
    urls: Vec<String>,
    sink: &mut Sink,
    label: &str,
) -> Pass {
    let crawler = Crawler::new(
        fetcher.clone(),
        CrawlOptions::new()
            .concurrency(args.concurrency as usize)
            .per_host_delay(Duration::from_millis(args.delay_ms))
            .max_host_pause(Duration::from_secs_f64(args.max_host_pause)),
    );
    // A feed that moved for good is fetched where it went; results keep the listed URL.
    let mut jobs = Vec::with_capacity(urls.len());
    for u in &urls {
        let f = sink.db.feed(u).unwrap_or_default();
        let url = f.permanent_url.unwrap_or_else(|| u.clone());
        jobs.push(CrawlJob::new(url).with_validators(f.validators));
    }
    let bar = progress_bar(args, jobs.len(), label);
    let stop = StopSignal::new();
    let caught = Arc::new(AtomicI32::new(0));
    let watcher = watch_signals(
        stop.clone(),
        Duration::from_secs_f64(args.grace),
        Arc::clone(&caught),
    );
    if let Err(e) = &watcher {
        eprintln!("feed-crawler: cannot listen for signals ({e}); Ctrl-C will kill the crawl");
    }
    let mut stats = Stats::default();
    let mut write_error = None;
    let start = Instant::now();
    let report = crawler
        .crawl_until(jobs, &stop, |r| {
            if write_error.is_some() {
                return;
            }
            if let Err(e) = sink.record(&r, &urls[r.index], &bar) {
                write_error = Some(e);
                stop.abort();
                return;
            }
            stats.add(&r);
            bar.set_message(r.url);
            bar.inc(1);
        })
        .await;
    stats.wall = start.elapsed();
    if let Ok(w) = watcher {
        w.abort();
    }
    bar.finish_and_clear();
    stats.print(label);
    let sig = caught.load(Ordering::SeqCst);
    Pass {
        stats,
        report,
        signal: (sig != 0).then_some(sig),
        write_error,
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
    server::find_xml(&dir, &mut files);
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
        let head = server::fixture_head(file, &raw);
        let coding = head
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-encoding"))
            .map(|(_, v)| v.clone());
        let body = match (&coding, head.uncompressed) {
            (Some(c), false) => server::compress(c, &raw).unwrap_or(raw),
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
        Err(e) => return fail(format_args!("cannot start the loopback server: {e}")),
    };
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
    eprintln!(
        "demo: serving {} fixture feeds from {} on http://{addr}/ and crawling them twice.\n\
         demo: every feed is on this one host, so requests go one at a time, {} ms apart \
         (politeness), and /broken/stall waits out the {:.0} s timeout on purpose: expect \
         tens of feeds per second here (try --bench 1000 for throughput over 16 hosts).",
        files.len(),
        dir.display(),
        args_demo.delay_ms,
        args_demo.timeout,
    );
    // Without --state the database lives in memory: this run's port is random anyway.
    let mut sink = match Sink::open(args, Out::for_args(args, false)) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if matches!(sink.out, Writer::None) {
        eprintln!(
            "demo: summary only; --jsonl prints the JSON lines, -o FILE appends them to FILE"
        );
    }
    let fetcher = match fetcher(&args_demo) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let mut passes = Vec::new();
    for label in ["demo pass 1", "demo pass 2 (conditional)"] {
        let now = schedule::now().timestamp();
        match sink.db.crawl(false, now) {
            Ok((id, _)) => sink.crawl = id,
            Err(e) => return fail(format_args!("state database: {e}")),
        }
        let pass = crawl_pass(&args_demo, &fetcher, urls.clone(), &mut sink, label).await;
        let code = finish(&sink, &pass);
        if code != 0 {
            return code;
        }
        passes.push(pass);
    }
    let not_modified = passes[1].stats.by_status.get("304").copied().unwrap_or(0);
    eprintln!("demo: pass 2 got {not_modified} × 304 Not Modified from saved validators");
    i32::from(passes[0].stats.total == 0)
}

async fn bench(args: &Args, n: usize) -> i32 {
    let mut site = Site::default();
    let size = args.bench_kb as usize * 1000;
    // One body for every URL, so the server's memory does not hide the crawler's.
    let body = Arc::new(server::synthetic_feed(0, size));
    for i in 0..n {
        site.add(
            &format!("/bench/{i}.xml"),
            200,
            Vec::new(),
            Arc::clone(&body),
        );
    }
    let site = Arc::new(site);
    let mut addrs = Vec::new();
    for h in 1..=16 {
        match serve(&format!("127.0.0.{h}:0"), Arc::clone(&site)).await {
            Ok(a) => addrs.push(a),
            Err(_) if h > 1 => break,
            Err(e) => return fail(format_args!("cannot start the loopback server: {e}")),
        }
    }
    let urls: Vec<String> = (0..n)
        .map(|i| format!("http://{}/bench/{i}.xml", addrs[i % addrs.len()]))
        .collect();
    let concurrency = (args.concurrency as usize).max(addrs.len());
    eprintln!(
        "bench: {n} feeds of ~{} KB over {} loopback hosts, concurrency {concurrency}, \
         per-host delay 0 ms",
        args.bench_kb,
        addrs.len(),
    );
    let bench_args = Args {
        concurrency: u32::try_from(concurrency).unwrap_or(u32::MAX),
        delay_ms: 0,
        ..args.clone()
    };
    let mut sink = match Sink::open(&bench_args, Out::for_args(args, false)) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let fetcher = match fetcher(&bench_args) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    match sink.db.crawl(false, schedule::now().timestamp()) {
        Ok((id, _)) => sink.crawl = id,
        Err(e) => return fail(format_args!("state database: {e}")),
    }
    let pass = crawl_pass(&bench_args, &fetcher, urls, &mut sink, "bench").await;
    let code = finish(&sink, &pass);
    let stats = &pass.stats;
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
    if code != 0 { code } else { i32::from(ok != n) }
}
