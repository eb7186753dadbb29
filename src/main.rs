//! `feed-decoder`: decode and parse feeds, print a summary or the JSON contract.
//!
//! ```text
//! feed-decoder [--json] [--jobs N] [--header 'Name: value']... [--content-type V] INPUT...
//! ```
//!
//! Without `--header`/`--content-type` an input has no transport metadata (local bytes);
//! with them it is an HTTP response with those headers. With the `http` feature an input
//! may also be a URL, fetched with conditional-GET-ready headers, decompression and a
//! size cap; the JSON then carries `href`, `status`, `etag`, `modified` and the response's
//! `headers` (an empty object for local bytes, as feedparser's result has).
//!
//! One input prints one JSON object (`--json`). Several print JSON Lines, one object per
//! input in argument order, each with an `input` key (the argument as given). An input
//! that cannot be read or fetched is reported on standard error and, with `--json`, as
//! an object `{"input"?, "error", "message"}` on its line; the rest go on. Several
//! inputs are parsed one per CPU (at most 8) at a time; `--jobs N` sets how many, and
//! `--jobs 1` runs them one after the other. The output order stays the same. The exit
//! status is 2 when any input could not be read (or the arguments are wrong), 0
//! otherwise. A closed standard output ends the program quietly with status 0.

#[path = "cli/huge_pages.rs"]
mod huge_pages;

use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use clap::{Parser, ValueEnum};
use feed_decoder::{
    Decoder, Headers, Parsed, Policy, Transport, output, parse::ParseOptions, parse_and_write,
};
use serde_json::{Map, Value};

/// Largest input read from a file or stdin (1 GiB): bigger inputs are refused, not
/// allocated.
const MAX_INPUT: u64 = 1 << 30;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PolicyArg {
    /// feedparser's chain plus recovery from evidence in the bytes (default).
    Recover,
    /// feedparser's behaviour exactly, mojibake included.
    Feedparser,
}

/// Decode a feed's bytes to Unicode the way feedparser does (and better), parse it, and
/// report what was wrong.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// File paths, `-` for standard input, or (with the `http` feature) http(s), feed:
    /// or file: URLs.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// Parse this many inputs at a time (the output stays in argument order); the
    /// default is one per CPU (at most 8) when there are several inputs. `--jobs 1` runs
    /// them one after the other on one thread.
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Print the JSON contract (feedparser-shaped result plus the decoding trail).
    #[arg(long)]
    json: bool,
    /// An HTTP response header `Name: value` (repeatable); makes the input an HTTP
    /// response.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// The HTTP Content-Type (same as --header 'Content-Type: V').
    #[arg(long, value_name = "V")]
    content_type: Option<String>,
    /// How to treat labels that decode but are contradicted by the bytes.
    #[arg(long, value_enum, default_value = "recover")]
    policy: PolicyArg,
    /// Do not consult chardetng.
    #[arg(long)]
    no_detector: bool,
    /// A top-level-domain hint for chardetng (e.g. `jp`, `ru`).
    #[arg(long)]
    tld: Option<String>,
    /// Return HTML values as the feed wrote them, without sanitizing.
    #[arg(long)]
    no_sanitize: bool,
    /// Leave relative URIs inside HTML values unresolved.
    #[arg(long)]
    no_resolve_uris: bool,
    /// Print the decoded text instead of a summary.
    #[arg(long, conflicts_with = "json")]
    text: bool,
}

/// The most inputs run at a time without `--jobs`: each thread may hold up to four
/// finished outputs in memory while an earlier input is written (see [`run_parallel`]).
const AUTO_JOBS: usize = 8;

impl Args {
    /// How many inputs run at a time: `--jobs`, else one per CPU up to [`AUTO_JOBS`];
    /// never more than there are inputs.
    fn threads(&self) -> usize {
        let wanted = self.jobs.map_or_else(
            || {
                std::thread::available_parallelism()
                    .map_or(1, std::num::NonZeroUsize::get)
                    .min(AUTO_JOBS)
            },
            usize::from,
        );
        wanted.clamp(1, self.inputs.len().max(1))
    }
}

/// Why an input gave no result: a short stable kind and a message.
struct InputError {
    kind: &'static str,
    message: String,
}

fn read_input(input: &str) -> Result<Vec<u8>, InputError> {
    let mut buf = Vec::new();
    let result = if input == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT + 1)
            .read_to_end(&mut buf)
    } else {
        std::fs::File::open(input).and_then(|f| {
            // The exact size up front: growing by doubling would leave up to half the
            // buffer unused (a 100 MB feed in a 128 MiB vector).
            let len = f.metadata().map_or(0, |m| m.len()).min(MAX_INPUT + 1);
            buf.reserve_exact(usize::try_from(len).unwrap_or(0).saturating_add(1));
            f.take(MAX_INPUT + 1).read_to_end(&mut buf)
        })
    };
    if let Err(e) = result {
        let kind = match e.kind() {
            std::io::ErrorKind::NotFound => "not-found",
            std::io::ErrorKind::PermissionDenied => "permission-denied",
            std::io::ErrorKind::IsADirectory => "is-a-directory",
            _ => "read",
        };
        return Err(InputError {
            kind,
            message: format!("cannot read {input}: {e}"),
        });
    }
    if buf.len() as u64 > MAX_INPUT {
        return Err(InputError {
            kind: "too-large",
            message: format!("{input} is larger than {MAX_INPUT} bytes"),
        });
    }
    Ok(buf)
}

/// An HTTP field name: one or more token characters (RFC 9110, section 5.1).
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// A header value may not hold a line break or NUL (RFC 9110, section 5.5).
fn check_header_value(what: &str, value: &str) -> Result<(), String> {
    if value.contains(['\r', '\n', '\0']) {
        return Err(format!(
            "{what} {value:?}: a header value cannot contain a line break or NUL"
        ));
    }
    Ok(())
}

fn transport(args: &Args) -> Result<Transport, String> {
    if args.headers.is_empty() && args.content_type.is_none() {
        return Ok(Transport::Local);
    }
    let mut h = Headers::new();
    for line in &args.headers {
        check_header_value("--header", line)?;
        let raw_name = line.split_once(':').map_or("", |(n, _)| n);
        let (name, value) = Headers::parse_line(line)
            .ok_or_else(|| format!("--header needs 'Name: value', got {line:?}"))?;
        if !is_header_name(raw_name) {
            return Err(format!(
                "--header {line:?}: invalid header name {raw_name:?} (letters, digits and \
                 !#$%&'*+-.^_`|~ only, no spaces)"
            ));
        }
        h.append(&name, &value);
    }
    if let Some(ct) = &args.content_type {
        check_header_value("--content-type", ct)?;
        h.set("content-type", ct);
    }
    Ok(Transport::Http(h))
}

fn summary(p: &Parsed<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let d = &p.decoded;
    writeln!(
        out,
        "encoding: {}",
        if d.encoding.is_empty() {
            "(unknown)"
        } else {
            &d.encoding
        }
    )?;
    let chosen = d
        .trail
        .chosen
        .as_ref()
        .map_or("none".into(), |(l, s)| format!("{l} ({})", s.as_str()));
    let rule = match d.trail.rfc3023.rule {
        "rfc8259" => "RFC 8259 (JSON)".to_owned(),
        r => format!("rule {r} of RFC 3023"),
    };
    writeln!(out, "decided:  {rule}, chosen {chosen}")?;
    for a in &d.trail.tried {
        let mark = if a.ok { "ok  " } else { "fail" };
        writeln!(
            out,
            "  {mark} {:<14} {:<9} {}",
            a.label,
            a.source.as_str(),
            a.detail.as_deref().unwrap_or("")
        )?;
    }
    let version = if p.version.is_empty() {
        "unknown"
    } else {
        &p.version
    };
    writeln!(out, "version:  {version}")?;
    writeln!(
        out,
        "title:    {}",
        p.feed.title.as_deref().unwrap_or("(none)")
    )?;
    writeln!(out, "entries:  {}", p.entries.len())?;
    let bozo: Vec<_> = p.bozo.iter().collect();
    if bozo.is_empty() {
        writeln!(out, "bozo:     no")?;
    } else {
        writeln!(out, "bozo:     {} problem(s)", bozo.len())?;
        for b in bozo {
            writeln!(out, "  - {b}")?;
        }
    }
    Ok(())
}

/// True for inputs the `http` feature fetches (`http://`, `https://`, `feed:`, `file:`).
fn is_url(input: &str) -> bool {
    ["http://", "https://", "feed:", "file:"]
        .iter()
        .any(|p| input.len() >= p.len() && input[..p.len()].eq_ignore_ascii_case(p))
}

fn parse_options(args: &Args) -> ParseOptions {
    ParseOptions::default()
        .sanitize_html(!args.no_sanitize)
        .resolve_relative_uris(!args.no_resolve_uris)
}

fn decoder(args: &Args) -> Decoder {
    let mut decoder = Decoder::new()
        .detector(!args.no_detector)
        .policy(match args.policy {
            PolicyArg::Recover => Policy::Recover,
            PolicyArg::Feedparser => Policy::FeedparserExact,
        });
    if let Some(tld) = &args.tld {
        decoder = decoder.tld(tld);
    }
    decoder
}

/// [`Job::exit_after`] when the input being run is not the last.
const NOT_LAST: u8 = u8::MAX;

/// What one input is processed with.
struct Job<'a> {
    args: &'a Args,
    transport: &'a Transport,
    /// More than one input: JSON objects carry `input`, summaries get a heading.
    many: bool,
    /// How many inputs run at a time ([`Args::threads`], read once). With one, the JSON
    /// goes straight to standard output as it is written, through the shared buffer
    /// (with more, see [`run_parallel`]).
    threads: usize,
    /// Set before the last input is run (sequential runs only): the exit status to end
    /// with once its result is printed (see [`Job::run`]); [`NOT_LAST`] otherwise.
    exit_after: std::sync::atomic::AtomicU8,
}

impl Job<'_> {
    /// The top-level keys every JSON object of `input` starts with.
    fn base(&self, input: &str) -> Map<String, Value> {
        let mut m = Map::new();
        if self.many {
            m.insert("input".into(), input.into());
        }
        m
    }

    fn heading(&self, input: &str, out: &mut dyn Write) -> std::io::Result<()> {
        if self.many && !self.args.json {
            writeln!(out, "==> {input} <==")?;
        }
        Ok(())
    }

    /// After the last input's result is printed (sequential runs): exits rather than
    /// free the result value by value (a tenth of a large feed's run time); the system
    /// takes the memory back at once.
    fn exit_if_last(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let status = self.exit_after.swap(NOT_LAST, Ordering::Relaxed);
        if status != NOT_LAST {
            out.flush()?;
            std::process::exit(i32::from(status));
        }
        Ok(())
    }

    /// Decodes, parses and prints one input into `out`, which comes back with the
    /// result. The result is `false` when the input could not be read (the error is
    /// printed); `Err` only when writing fails. `shared` is standard output's buffer
    /// when `out` writes to it (one input at a time): the JSON writer takes a handle on
    /// it. With `--jobs`, `out` is the input's own buffer, filled by the JSON writer
    /// itself (no second copy of it).
    fn run<W: Write + 'static>(
        &self,
        input: &str,
        mut out: W,
        shared: Option<&SharedOut>,
    ) -> std::io::Result<(bool, W)> {
        let decoder = decoder(self.args);
        let options = parse_options(self.args);
        if is_url(input) {
            let read = self.run_url(input, &decoder, &options, &mut out)?;
            return Ok((read, out));
        }
        match read_input(input) {
            Ok(bytes) if self.args.json => {
                // Each entry is written as soon as it is final and freed: neither the
                // model of all the entries nor their JSON is ever held at once.
                let base = self.base(input);
                if let Some(shared) = shared.filter(|_| self.threads == 1) {
                    // Written straight into the buffered standard output, after the
                    // other inputs' output: the JSON writer's many small writes stay
                    // inline, and no byte is copied through a buffer of its own.
                    let w = shared.take();
                    shared.put(parse_and_write(
                        &decoder,
                        &options,
                        bytes,
                        self.transport,
                        base,
                        w,
                    )?);
                } else {
                    out = parse_and_write(&decoder, &options, bytes, self.transport, base, out)?;
                }
                writeln!(out)?;
                self.exit_if_last(&mut out)?;
                Ok((true, out))
            }
            Ok(bytes) => {
                feed_decoder::parse_then(&decoder, &options, bytes, self.transport, |parsed| {
                    self.emit(input, Some(parsed), Map::new(), &mut out)?;
                    self.exit_if_last(&mut out)
                })?;
                Ok((true, out))
            }
            Err(e) => {
                self.failed(input, &e, &mut out)?;
                Ok((false, out))
            }
        }
    }

    #[cfg(feature = "http")]
    fn run_url(
        &self,
        input: &str,
        decoder: &Decoder,
        options: &ParseOptions,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        use feed_decoder::http::{FetchOptions, fetch_blocking};
        match fetch_blocking(input, &FetchOptions::default()) {
            Ok(fetched) => {
                let parsed = fetched.parse_with(decoder, options);
                self.emit(input, parsed.as_ref(), fetched.json_fields(), out)?;
                Ok(true)
            }
            Err(e) => {
                let e = InputError {
                    kind: e.kind(),
                    message: format!("cannot fetch {input}: {e}"),
                };
                self.failed(input, &e, out)?;
                Ok(false)
            }
        }
    }

    #[cfg(not(feature = "http"))]
    fn run_url(
        &self,
        input: &str,
        _decoder: &Decoder,
        _options: &ParseOptions,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        let e = InputError {
            kind: "unsupported-scheme",
            message: format!("{input} is a URL: build with `--features http` to fetch it"),
        };
        self.failed(input, &e, out)?;
        Ok(false)
    }

    /// Reports an input that gave no result: on standard error, and with `--json` as an
    /// object `{"input"?, "error", "message"}` on its own line.
    fn failed(&self, input: &str, e: &InputError, out: &mut dyn Write) -> std::io::Result<()> {
        warn(&e.message);
        if self.args.json {
            let mut m = self.base(input);
            m.insert("error".into(), e.kind.into());
            m.insert("message".into(), e.message.clone().into());
            write_value(&Value::Object(m), out)?;
            writeln!(out)?;
        }
        Ok(())
    }

    /// Prints a result: the JSON contract (with `extra` top-level keys from a fetch),
    /// the text, or the summary. `parsed` is `None` for a `304 Not Modified`.
    fn emit(
        &self,
        input: &str,
        parsed: Option<&Parsed<'_>>,
        extra: Map<String, Value>,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let mut top = self.base(input);
        top.extend(extra);
        if self.args.json {
            match parsed {
                Some(p) => {
                    // serde_json makes a write call per token: a concrete buffer takes
                    // them inline (through `dyn Write` each would be a call).
                    let mut buffered = BufWriter::with_capacity(1 << 16, &mut *out);
                    output::write_json(p, top, &mut buffered)?;
                    buffered.flush()?;
                }
                None => write_value(&output::not_modified_json(top), out)?,
            }
            return writeln!(out);
        }
        self.heading(input, out)?;
        match parsed {
            Some(p) if self.args.text => out.write_all(p.decoded.text.as_bytes())?,
            Some(p) => {
                for (k, v) in &top {
                    if matches!(k.as_str(), "href" | "status" | "etag" | "modified") {
                        writeln!(
                            out,
                            "{k}: {}",
                            v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                        )?;
                    }
                }
                summary(p, out)?;
            }
            None => writeln!(out, "status: 304 (not modified; nothing parsed)")?,
        }
        if self.many {
            writeln!(out)?;
        }
        Ok(())
    }
}

/// Writes a JSON value, keeping the writer's error kind.
fn write_value(v: &Value, out: &mut dyn Write) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, v).map_err(|e| match e.io_error_kind() {
        Some(kind) => std::io::Error::new(kind, e),
        None => std::io::Error::other(e),
    })
}

/// A message on standard error (which may be closed: then it is lost, quietly).
fn warn(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "feed-decoder: {message}");
}

/// Standard output's buffer, shared by everything that writes a result: the JSON writer
/// must own its writer, and with a handle on this one each input's output joins the
/// others' in order, without a flush (a system call) per input.
#[derive(Clone)]
struct SharedOut(std::rc::Rc<std::cell::RefCell<Stdout>>);

/// Buffered standard output (movable to the thread that writes with `--jobs`).
type Stdout = BufWriter<Box<dyn Write + Send>>;

impl SharedOut {
    /// The buffered standard output itself, for one input's JSON to be written
    /// straight into ([`SharedOut::put`] gives it back). Meanwhile the shared handle
    /// holds an empty buffer in front of nothing, which nobody writes to.
    fn take(&self) -> Stdout {
        let idle = BufWriter::with_capacity(0, Box::new(std::io::sink()) as Box<dyn Write + Send>);
        std::mem::replace(&mut *self.0.borrow_mut(), idle)
    }

    /// Gives back what [`SharedOut::take`] took.
    fn put(&self, w: Stdout) {
        *self.0.borrow_mut() = w;
    }
}

impl Write for SharedOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        // A block as long as the buffer goes straight through (`BufWriter` does that).
        self.0.borrow_mut().write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// Runs every input, writing to `out` in argument order. `Ok(true)` when every input
/// was read.
fn run_all(job: &Job<'_>, out: &SharedOut) -> std::io::Result<bool> {
    let inputs = &job.args.inputs;
    let jobs = job.threads;
    let mut all_read = true;
    if jobs == 1 {
        for (i, input) in inputs.iter().enumerate() {
            if i + 1 == inputs.len() {
                job.exit_after
                    .store(if all_read { 0 } else { 2 }, Ordering::Relaxed);
            }
            all_read &= job.run(input, out.clone(), Some(out))?.0;
        }
        return Ok(all_read);
    }
    run_parallel(job, out, jobs)
}

/// Where the inputs of a parallel run stand (see [`run_parallel`]).
struct Order {
    /// The oldest input not yet written.
    next: usize,
    /// Standard output; `None` while the thread of input `next` writes to it.
    out: Option<Stdout>,
    /// Inputs finished before `next`'s turn: their output and whether they were read.
    ready: std::collections::BTreeMap<usize, (Vec<u8>, bool)>,
    all_read: bool,
    /// The first write error; every thread stops at it.
    error: Option<std::io::Error>,
    /// Threads waiting for `next` to move on: a wake-up is a system call, made only for
    /// them.
    waiting: usize,
    /// A thread's panic (a bug: nothing in an input should cause one), raised again once
    /// every thread has stopped, as a sequential run would raise it.
    panic: Option<Box<dyn std::any::Any + Send>>,
    /// The bytes of the outputs in `ready`.
    held: usize,
}

/// Past this many bytes of finished outputs waiting for their turn, no thread starts
/// another input but the oldest unwritten one (which streams): a window of large feeds
/// on many threads cannot fill memory.
const HELD_BUDGET: usize = 64 << 20;

impl Order {
    /// Stops every thread after a panic (the others wait for a `next` that will not
    /// move on); the first panic is kept.
    fn stop(&mut self, panic: Box<dyn std::any::Any + Send>) {
        self.panic.get_or_insert(panic);
        self.error
            .get_or_insert_with(|| std::io::Error::other("a thread panicked"));
    }

    /// Writes the finished inputs whose turn has come, in order.
    fn drain(&mut self) {
        let Some(out) = self.out.as_mut() else {
            return;
        };
        while let Some((buf, read)) = self.ready.remove(&self.next) {
            if self.error.is_none()
                && let Err(e) = out.write_all(&buf)
            {
                self.error = Some(e);
            }
            self.held -= buf.len();
            self.all_read &= read;
            self.next += 1;
        }
    }
}

/// Runs the inputs on `jobs` threads, in argument order: each thread takes the next
/// input. The oldest input not yet written streams its JSON straight to standard
/// output as it is parsed, like a sequential run; an input that finishes before its
/// turn waits in a buffer of its own. A thread takes no input more than `4 × jobs`
/// past the oldest unwritten one, nor any but that one while more than
/// [`HELD_BUDGET`] bytes of outputs wait, so that only a few outputs are ever held.
fn run_parallel(job: &Job<'_>, shared: &SharedOut, jobs: usize) -> std::io::Result<bool> {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::{Condvar, Mutex, PoisonError, atomic::AtomicUsize};
    let inputs = &job.args.inputs;
    let window = jobs * 4;
    let order = Mutex::new(Order {
        next: 0,
        out: Some(shared.take()),
        ready: std::collections::BTreeMap::new(),
        all_read: true,
        error: None,
        waiting: 0,
        panic: None,
        held: 0,
    });
    // Signalled whenever `next` moves on (or a write fails).
    let turn = Condvar::new();
    let taken = AtomicUsize::new(0);
    let lock = || order.lock().unwrap_or_else(PoisonError::into_inner);
    let work = || {
        loop {
            let i = taken.fetch_add(1, Ordering::Relaxed);
            let Some(input) = inputs.get(i) else {
                return;
            };
            let mut o = lock();
            while (i >= o.next + window || (i != o.next && o.held > HELD_BUDGET))
                && o.error.is_none()
            {
                o.waiting += 1;
                o = turn.wait(o).unwrap_or_else(PoisonError::into_inner);
                o.waiting -= 1;
            }
            if o.error.is_some() {
                return;
            }
            if o.next == i
                && let Some(out) = o.out.take()
            {
                // This input's turn: straight to standard output.
                drop(o);
                let result = catch_unwind(AssertUnwindSafe(|| job.run(input, out, None)));
                let mut o = lock();
                match result {
                    Ok(Ok((read, out))) => {
                        o.out = Some(out);
                        o.all_read &= read;
                    }
                    Ok(Err(e)) => {
                        o.error.get_or_insert(e);
                    }
                    Err(panic) => {
                        o.stop(panic);
                        turn.notify_all();
                        return;
                    }
                }
                o.next += 1;
                o.drain();
                if o.waiting > 0 {
                    turn.notify_all();
                }
                continue;
            }
            drop(o);
            // Writing to a `Vec` cannot fail.
            let done = match catch_unwind(AssertUnwindSafe(|| job.run(input, Vec::new(), None))) {
                Ok(result) => {
                    result.map_or_else(|_| (Vec::new(), false), |(read, buf)| (buf, read))
                }
                Err(panic) => {
                    lock().stop(panic);
                    turn.notify_all();
                    return;
                }
            };
            let mut o = lock();
            o.held += done.0.len();
            o.ready.insert(i, done);
            let before = o.next;
            o.drain();
            if o.next != before && o.waiting > 0 {
                turn.notify_all();
            }
        }
    };
    // Plain scoped threads, this one among them: a work-stealing pool (rayon was
    // measured) spins while it waits for work, which cost 8 % more CPU time on 200 small
    // feeds than these threads that only ever block on `turn`.
    std::thread::scope(|s| {
        for _ in 1..jobs {
            // The main thread's stack size; a thread the system refuses is one fewer
            // (this thread works too, so the run always goes on).
            let _ = std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn_scoped(s, work);
        }
        work();
    });
    let o = order.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(panic) = o.panic {
        std::panic::resume_unwind(panic);
    }
    if let Some(out) = o.out {
        shared.put(out);
    }
    match o.error {
        Some(e) => Err(e),
        None => Ok(o.all_read),
    }
}

/// Standard output for the results. On Unix, a handle on the descriptor itself: our own
/// buffer already writes in large blocks, and `std::io::Stdout` would scan each block
/// again for its last line end (it is line-buffered). Elsewhere, or if the descriptor
/// cannot be duplicated, the usual handle (unlocked: with `--jobs` the buffer in front
/// of it moves between threads).
fn stdout() -> Box<dyn Write + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(std::io::stdout())
}

/// Large blocks (a big feed's bytes and text) in huge pages: see [`huge_pages`].
#[global_allocator]
static ALLOCATOR: huge_pages::HugePagesForLargeBlocks = huge_pages::HugePagesForLargeBlocks;

fn main() -> ExitCode {
    let args = Args::parse();
    let transport = match transport(&args) {
        Ok(t) => t,
        Err(e) => {
            warn(&e);
            return ExitCode::from(2);
        }
    };
    if !matches!(transport, Transport::Local) && args.inputs.iter().any(|i| is_url(i)) {
        warn(
            "--header and --content-type describe a response you already have; \
             they cannot be combined with a URL",
        );
        return ExitCode::from(2);
    }
    let job = Job {
        args: &args,
        transport: &transport,
        many: args.inputs.len() > 1,
        threads: args.threads(),
        exit_after: std::sync::atomic::AtomicU8::new(NOT_LAST),
    };
    let mut out = SharedOut(std::rc::Rc::new(std::cell::RefCell::new(
        BufWriter::with_capacity(1 << 16, stdout()),
    )));
    match run_all(&job, &out).and_then(|read| out.flush().map(|()| read)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        // A closed pipe (`| head`): stop quietly, as other tools do.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            warn(&format!("cannot write output: {e}"));
            ExitCode::from(2)
        }
    }
}
