//! `feed-decoder`: decode and parse a feed, print a summary or the JSON contract.
//!
//! ```text
//! feed-decoder [--json] [--header 'Name: value']... [--content-type V] FILE|-
//! ```
//!
//! Without `--header`/`--content-type` the input has no transport metadata (local bytes);
//! with them it is an HTTP response with those headers. With the `http` feature the input
//! may also be a URL, fetched with conditional-GET-ready headers, decompression and a
//! size cap; the JSON then carries `href`, `status`, `etag`, `modified` and `headers`.

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use feed_decoder::{Decoder, Headers, Parsed, Policy, Transport, json, parse::ParseOptions};
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
    /// A file path, `-` for standard input, or (with the `http` feature) an http(s),
    /// feed: or file: URL.
    input: String,
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

fn read_input(input: &str) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    let result = if input == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT + 1)
            .read_to_end(&mut buf)
    } else {
        std::fs::File::open(input).and_then(|f| f.take(MAX_INPUT + 1).read_to_end(&mut buf))
    };
    result.map_err(|e| format!("cannot read {input}: {e}"))?;
    if buf.len() as u64 > MAX_INPUT {
        return Err(format!("{input} is larger than {MAX_INPUT} bytes"));
    }
    Ok(buf)
}

fn transport(args: &Args) -> Result<Transport, String> {
    if args.headers.is_empty() && args.content_type.is_none() {
        return Ok(Transport::Local);
    }
    let mut h = Headers::new();
    for line in &args.headers {
        let (name, value) = Headers::parse_line(line)
            .ok_or_else(|| format!("--header needs 'Name: value', got {line:?}"))?;
        h.append(&name, &value);
    }
    if let Some(ct) = &args.content_type {
        h.set("content-type", ct);
    }
    Ok(Transport::Http(h))
}

fn summary(p: &Parsed<'_>, out: &mut impl Write) -> std::io::Result<()> {
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
    let version = if p.feed.version.is_empty() {
        "unknown"
    } else {
        &p.feed.version
    };
    writeln!(out, "version:  {version}")?;
    writeln!(
        out,
        "title:    {}",
        p.feed.feed.title.as_deref().unwrap_or("(none)")
    )?;
    writeln!(out, "entries:  {}", p.feed.entries.len())?;
    let bozo: Vec<_> = p.bozo().collect();
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

/// Prints a result: the JSON contract (with `extra` top-level keys from a fetch), the
/// text, or the summary. `parsed` is `None` for a `304 Not Modified`.
fn emit(args: &Args, parsed: Option<&Parsed<'_>>, extra: Map<String, Value>) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = match parsed {
        _ if args.json => {
            let mut v = match parsed {
                Some(p) => json::to_json(p),
                None => serde_json::json!({"bozo": false, "bozo_exceptions": [], "encoding": "",
                    "version": "", "namespaces": {}, "feed": {}, "entries": []}),
            };
            if let Value::Object(m) = &mut v {
                m.extend(extra);
            }
            serde_json::to_writer(&mut out, &v)
                .map_err(std::io::Error::other)
                .and_then(|()| writeln!(out))
        }
        Some(p) if args.text => out.write_all(p.decoded.text.as_bytes()),
        Some(p) => {
            for (k, v) in &extra {
                if matches!(k.as_str(), "href" | "status" | "etag" | "modified") {
                    let _ = writeln!(
                        out,
                        "{k}: {}",
                        v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                    );
                }
            }
            summary(p, &mut out)
        }
        None => writeln!(out, "status: 304 (not modified; nothing parsed)"),
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write output: {e}"))
        }
        _ => Ok(()),
    }
}

#[cfg(feature = "http")]
fn run_url(args: &Args, decoder: &Decoder) -> Result<(), String> {
    use feed_decoder::http::{FetchOptions, fetch_blocking};
    let fetched = fetch_blocking(&args.input, &FetchOptions::default())
        .map_err(|e| format!("cannot fetch {}: {e}", args.input))?;
    let parsed = fetched.parse_with(decoder, &parse_options(args));
    emit(args, parsed.as_ref(), fetched.json_fields())
}

#[cfg(not(feature = "http"))]
fn run_url(args: &Args, _decoder: &Decoder) -> Result<(), String> {
    Err(format!(
        "{} is a URL: build with `--features http` to fetch it",
        args.input
    ))
}

fn run(args: &Args) -> Result<(), String> {
    let decoder = decoder(args);
    if is_url(&args.input) {
        if !args.headers.is_empty() || args.content_type.is_some() {
            return Err(
                "--header and --content-type describe a response you already have; \
                        they cannot be combined with a URL"
                    .into(),
            );
        }
        return run_url(args, &decoder);
    }
    let bytes = read_input(&args.input)?;
    let transport = transport(args)?;
    let parsed = feed_decoder::parse_with(&decoder, &parse_options(args), &bytes, &transport);
    emit(args, Some(&parsed), Map::new())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("feed-decoder: {e}");
            ExitCode::from(2)
        }
    }
}
