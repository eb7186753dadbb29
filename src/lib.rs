//! # feed-decoder
//!
//! Turns feed bytes into correct Unicode text and a parsed feed, the way Python's
//! Universal Feed Parser (feedparser) does — and says exactly what was wrong on the way.
//!
//! ## The pipeline
//!
//! ```text
//! bytes + Transport ─► format ─► sniff ─► rfc3023 (strict pass) ─► chain ─► parse ─► Parsed
//! ```
//!
//! The decoding lives in [`mod@decode`], one module per step, driven by [`Decoder`]. The
//! transport is read once, into [`decode::TransportFacts`]; the parsers see only text and
//! options.
//!
//! 1. [`decode::format`]: XML or JSON, decided on the bytes (the body's first character,
//!    then the media type). A JSON body is decoded as RFC 8259 says
//!    ([`decode::format::decode_json`]) and read by [`parse::jsonfeed`]; the steps below
//!    are the XML pipeline's.
//! 2. [`decode::sniff`]: the byte order mark, the XML 1.0 Appendix F family of the first
//!    four bytes, and the XML declaration read through that family.
//! 3. [`decode::media_type`]: the HTTP `Content-Type`, classified as RFC 3023 sees it.
//! 4. [`decode::rfc3023`]: the strict algorithm (rules 1.0–1.7 for local bytes, 2.0–2.6
//!    for HTTP), extended to UTF-32/UCS-4 and EBCDIC, plus feedparser's
//!    reported-`encoding` rules.
//! 5. the fallback chain: the strict-pass encoding, the declared one, the sniffed one,
//!    chardetng's guess, UTF-8, windows-1252 and ISO-8859-2, each tried with a *strict*
//!    decoder from the [`charset`] registry. Problems become [`Bozo`] records.
//! 6. [`mod@parse`]: quick-xml over the decoded `&str`, strict first, lenient when broken,
//!    into the feedparser-shaped [`model`].
//! 7. [`html`]: every HTML value (of XML and JSON feeds alike) is sanitized and its
//!    relative URIs resolved in one linear pass, as feedparser does by default and safer
//!    ([`ParseOptions::sanitize_html`], [`ParseOptions::resolve_relative_uris`]), with
//!    feedparser's allow-lists or the caller's ([`ParseOptions::sanitize_policy`]).
//!
//! The result, [`Parsed`], is plain data; [`output`] writes it as the JSON contract of
//! `feed-decoder --json`.
//!
//! ## The map of modules
//!
//! Each stage is a folder (or a file) of `src/`, and uses only the stages below it; the
//! JSON contract knows nothing of the parsers. A test (`tests/layers.rs`) reads the
//! source and keeps it so, and keeps every file under 1,300 lines before its tests.
//!
//! ```text
//! bindings  src/main.rs (the CLI), src/bin/feed-crawler/ (the crawler)
//! services  stream.rs   FeedReader: an entry at a time from any Read, in bounded memory
//!           http/       fetch, crawl engine, refresh schedule (`http` feature)
//! api       lib.rs      Parsed; parse, parse_with, parse_owned, parse_then, parse_file,
//!                       parse_reader; parse_and_write (the one place that joins the
//!                       parsers and the JSON contract)
//! output    output/     the JSON contract: Contract, write_json, to_json; the model as
//!                       the contract writes it (fields.rs), the direct writer, the
//!                       JSON string writer
//! parse     parse/      ParseOptions, the format switch's JSON side;
//!                       xml/ (RSS, Atom, CDF: strict and lenient passes, builder, the
//!                       typed fill, one file per namespace), jsonfeed/ (JSON Feed)
//! html      html/       sanitize and resolve one HTML value at a time
//! decode    decode/     format, sniff, media_type, rfc3023, detect, chain: bytes to text
//!                       with the whole decision trail
//! model     model/      Feed, Entry (its rarer fields boxed in EntryMore), Text (its
//!                       type, language and base shared: TextMeta), Link, Person, Tag,
//!                       Podcast, Extra, the iTunes and Media RSS views:
//!                       plain data; the typed fields are listed once, with their
//!                       feedparser keys (model/fields.rs)
//! base      charset/ (the registry, facts as data), transport, bozo, date, url (Python's
//!           urljoin), entities (HTML's named references), pairs, bytes
//! ```
//!
//! ## The leniency promise
//!
//! Nothing here gives up on a feed. [`decode()`] and [`parse()`] never fail and never panic:
//! every problem becomes a [`Bozo`] record with a kind, a message and, where one exists, a
//! position, and a result always comes back. `Err` is reserved for I/O and transport.
//!
//! ## Example
//!
//! ```
//! use feed_decoder::{parse, Transport};
//!
//! // A feed that declares ISO-8859-1 but is served as text/xml without a charset:
//! // RFC 3023 says US-ASCII, the byte 0xE9 proves otherwise.
//! let bytes = b"<?xml version='1.0' encoding='iso-8859-1'?>\
//!               <rss version='2.0'><channel><title>Caf\xe9</title></channel></rss>";
//! let result = parse(bytes, &Transport::content_type("text/xml"));
//! assert_eq!(result.feed.title.as_deref(), Some("Café"));
//! assert_eq!(result.decoded.encoding, "iso-8859-1");
//! assert!(result.is_bozo()); // CharacterEncodingOverride: declared us-ascii by RFC 3023
//! ```
//!
//! ## Cargo features
//!
//! - `cli` (default): the `feed-decoder` command-line tool.
//! - `http`: fetch-and-decode with reqwest and rustls. Off by default; without it no HTTP
//!   or TLS code is compiled.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bozo;
mod bytes;
pub mod charset;
pub mod cookbook;
pub mod date;
pub mod decode;
mod entities;
pub mod html;
#[cfg(feature = "http")]
pub mod http;
pub mod model;
pub mod output;
mod pairs;
pub mod parse;
pub mod stream;
mod transport;
mod url;

pub use bozo::{Bozo, BozoKind, Position};
pub use charset::Charset;
pub use decode::{Attempt, Decoded, Decoder, Policy, Rfc3023Outcome, Source, Trail};
pub use model::{
    Enclosure, Entry, Feed, HandlerCall, HandlerContext, Itunes, Link, Media, ParsedFeed, Person,
    Tag, Text, TextMeta,
};
pub use parse::ParseOptions;
pub use stream::{FeedReader, StreamEnd, StreamItem};
pub use transport::{Headers, Transport};

#[cfg(feature = "http")]
pub use http::{FetchError, FetchOptions, Fetched, Fetcher, HttpInfo, fetch, fetch_blocking};

/// Decodes feed bytes with the default [`Decoder`].
#[must_use]
pub fn decode<'a>(bytes: &'a [u8], transport: &Transport) -> Decoded<'a> {
    Decoder::default().decode(bytes, transport)
}

/// A decoded and parsed feed: what [`parse()`] returns.
///
/// ```
/// let parsed = feed_decoder::parse(
///     b"<rss version='2.0'><channel><title>News</title>\
///       <item><title>First</title></item></channel></rss>",
///     &feed_decoder::Transport::Local,
/// );
/// assert_eq!(parsed.feed.title.as_deref(), Some("News"));
/// assert_eq!(parsed.entries[0].title.as_deref(), Some("First"));
/// assert_eq!(parsed.version, "rss20");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Parsed<'a> {
    /// Channel-level metadata (feedparser's `feed`).
    pub feed: Feed,
    /// The entries, in document order (feedparser's `entries`).
    pub entries: Vec<Entry>,
    /// Every problem found, in order: transport and decoding first (the records of
    /// [`Decoded::bozo`] too), then markup (feedparser's `bozo_exceptions`).
    pub bozo: Vec<Bozo>,
    /// feedparser's version string (`rss20`, `atom10`, `json11`, …; empty when unknown).
    pub version: String,
    /// Namespace prefixes as declared in the document (known namespaces under
    /// feedparser's prefix).
    pub namespaces: std::collections::BTreeMap<String, String>,
    /// The decoding result (text, encoding, the decoding records, trail).
    pub decoded: Decoded<'a>,
    /// The transport the bytes came with.
    pub transport: Transport,
    /// The elements of [`ParseOptions::handlers`] met, in document order (empty unless
    /// handlers were named).
    pub handler_calls: Vec<HandlerCall>,
}

impl<'a> Parsed<'a> {
    /// Joins the decoding and the parse of one document.
    fn new(decoded: Decoded<'a>, parsed: ParsedFeed, transport: &Transport) -> Self {
        let ParsedFeed {
            version,
            namespaces,
            feed,
            entries,
            bozo: markup,
            handler_calls,
        } = parsed;
        let mut bozo = decoded.bozo.clone();
        bozo.extend(markup);
        Parsed {
            feed,
            entries,
            bozo,
            version,
            namespaces,
            decoded,
            transport: transport.clone(),
            handler_calls,
        }
    }

    /// True when any problem was recorded (feedparser's `bozo`).
    #[must_use]
    pub fn is_bozo(&self) -> bool {
        !self.bozo.is_empty()
    }

    /// The result without its borrow of the input bytes (the decoded text is copied
    /// when it was borrowed), e.g. to return it from the function that read the bytes:
    ///
    /// ```
    /// fn load(path: &std::path::Path) -> std::io::Result<feed_decoder::Parsed<'static>> {
    ///     let bytes = std::fs::read(path)?;
    ///     Ok(feed_decoder::parse(&bytes, &feed_decoder::Transport::Local).into_owned())
    /// }
    /// # let _ = load;
    /// ```
    #[must_use]
    pub fn into_owned(self) -> Parsed<'static> {
        Parsed {
            feed: self.feed,
            entries: self.entries,
            bozo: self.bozo,
            version: self.version,
            namespaces: self.namespaces,
            decoded: self.decoded.into_owned(),
            transport: self.transport,
            handler_calls: self.handler_calls,
        }
    }
}

/// The JSON contract's object (`feed-decoder --json`, see [`output`]), written straight
/// from the model.
impl serde::Serialize for Parsed<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        output::Contract::new(self, serde_json::Map::new()).serialize(s)
    }
}

/// Reads and parses a feed file (no HTTP headers: [`Transport::Local`]).
///
/// # Errors
///
/// The file's I/O error. Problems in the feed itself are [`Bozo`] records.
pub fn parse_file(path: impl AsRef<std::path::Path>) -> std::io::Result<Parsed<'static>> {
    let bytes = std::fs::read(path)?;
    Ok(parse_owned(
        &Decoder::default(),
        &parse::ParseOptions::default(),
        bytes,
        &Transport::Local,
    ))
}

/// Reads a feed to its end and parses it, with the transport it came with.
///
/// # Errors
///
/// The reader's I/O error.
pub fn parse_reader(
    mut reader: impl std::io::Read,
    transport: &Transport,
) -> std::io::Result<Parsed<'static>> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(parse_owned(
        &Decoder::default(),
        &parse::ParseOptions::default(),
        bytes,
        transport,
    ))
}

/// Decodes and parses feed bytes with the default options.
#[must_use]
pub fn parse<'a>(bytes: &'a [u8], transport: &Transport) -> Parsed<'a> {
    parse_with(
        &Decoder::default(),
        &parse::ParseOptions::default(),
        bytes,
        transport,
    )
}

/// Decodes and parses feed bytes with the given options. For an HTTP transport the
/// response's `Content-Language` and `Content-Location` fill the options' base language
/// and base URI where they are not set ([`parse::ParseOptions::with_http_context`]).
#[must_use]
pub fn parse_with<'a>(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    bytes: &'a [u8],
    transport: &Transport,
) -> Parsed<'a> {
    parse_from(decoder, options, bytes, transport, None)
}

/// [`parse_with`] for a body fetched from `url` (the base URI when nothing else gives
/// one). The transport is read here, once, into [`decode::TransportFacts`]: decoding
/// and parsing take what they need from that, never from the headers.
pub(crate) fn parse_from<'a>(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    bytes: &'a [u8],
    transport: &Transport,
    url: Option<&str>,
) -> Parsed<'a> {
    let (facts, mut adjusted) = prepare(decoder, options, transport, url);
    if let Some(parsed) = parse_json_body(decoder, &adjusted, bytes, transport, &facts, None) {
        return parsed;
    }
    let decoded = decoder.decode_with_facts(bytes, &facts);
    adjusted.value_repair =
        parse::ValueRepair::for_document(decoder.policy, decoded.charset, &decoded.text);
    let feed = parse::parse_str(&decoded.text, &adjusted);
    Parsed::new(decoded, feed, transport)
}

/// The JSON side of the format switch (XML or JSON Feed, `decode::format::detect`), with the
/// options [`prepare`] gave: `None` when the body is for the XML parser, being no JSON
/// or no JSON value at all but holding markup (it then gave the sink no entry). Each
/// format decodes and parses its own way.
fn parse_json_body<'a>(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    bytes: &'a [u8],
    transport: &Transport,
    facts: &decode::TransportFacts,
    sink: Option<&parse::SharedSink>,
) -> Option<Parsed<'a>> {
    if decode::format::detect_with_facts(bytes, facts) != decode::format::Format::Json {
        return None;
    }
    let decoded = decode::format::decode_json_with_facts(decoder, bytes, facts);
    let feed = parse::parse_json_or_markup(&decoded.text, options, sink)?;
    Some(Parsed::new(decoded, feed, transport))
}

/// The transport read once, and the options it completes.
fn prepare(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    transport: &Transport,
    url: Option<&str>,
) -> (decode::TransportFacts, parse::ParseOptions) {
    let facts = decode::TransportFacts::of(transport);
    let mut adjusted = options.clone().with_http_context(&facts, url);
    // The per-value double-UTF-8 repair of the policy; once the text is decoded,
    // `ValueRepair::for_document` may turn it off.
    adjusted.value_repair = parse::ValueRepair::for_document(decoder.policy, None, "");
    (facts, adjusted)
}

/// [`parse_with`] taking the bytes by value, for the smallest peak memory: the text is
/// held once while the model is built. When the bytes are valid UTF-8 they become the
/// text without a copy; when they are decoded from another charset they are freed
/// before parsing starts. The result owns everything ([`Parsed<'static>`]).
///
/// ```
/// use feed_decoder::{Decoder, ParseOptions, Transport, parse_owned};
/// let bytes = b"<?xml version='1.0' encoding='windows-1251'?><rss><channel><title>\xcd\xee\xe2\xee\xf1\xf2\xe8</title></channel></rss>".to_vec();
/// let parsed = parse_owned(&Decoder::default(), &ParseOptions::default(), bytes, &Transport::Local);
/// assert_eq!(parsed.feed.title.as_deref(), Some("Новости"));
/// ```
#[must_use]
pub fn parse_owned(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    bytes: Vec<u8>,
    transport: &Transport,
) -> Parsed<'static> {
    let (facts, mut adjusted) = prepare(decoder, options, transport, None);
    if let Some(parsed) = parse_json_body(decoder, &adjusted, &bytes, transport, &facts, None) {
        return parsed.into_owned();
    }
    let (text, mut decoded) = decoder.decode_with_facts(&bytes, &facts).take_text();
    adjusted.value_repair =
        parse::ValueRepair::for_document(decoder.policy, decoded.charset, &text);
    let text = match text {
        std::borrow::Cow::Owned(text) => {
            drop(bytes);
            text
        }
        std::borrow::Cow::Borrowed(b) => {
            // A slice of the input (after its byte order mark): keep that part of the
            // buffer itself as the text.
            let base = bytes.as_ptr() as usize;
            let start = (b.as_ptr() as usize).wrapping_sub(base);
            match start.checked_add(b.len()) {
                Some(end) if start <= bytes.len() && end <= bytes.len() => {
                    let mut bytes = bytes;
                    bytes.truncate(end);
                    bytes.drain(..start);
                    String::from_utf8(bytes)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
                }
                _ => b.to_owned(),
            }
        }
    };
    let feed = parse::parse_str(&text, &adjusted);
    decoded.text = std::borrow::Cow::Owned(text);
    Parsed::new(decoded, feed, transport)
}

/// [`parse_owned`] for a result that is used and dropped (printed, stored, counted): the
/// result is handed to `f` instead of returned, so the text never needs to be owned. A
/// UTF-8 input is parsed where it lies (no copy, and no second UTF-8 validation, which
/// [`parse_owned`] needs to turn the bytes into a `String`); bytes decoded from another
/// charset are freed before parsing starts. The command-line tool reads every file
/// this way.
///
/// ```
/// use feed_decoder::{Decoder, ParseOptions, Transport, parse_then};
/// let bytes = b"<rss><channel><item><title>a</title></item></channel></rss>".to_vec();
/// let titles = parse_then(&Decoder::default(), &ParseOptions::default(), bytes, &Transport::Local, |p| {
///     p.entries.iter().filter_map(|e| e.title.as_deref().map(String::from)).collect::<Vec<_>>()
/// });
/// assert_eq!(titles, ["a"]);
/// ```
pub fn parse_then<R>(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    bytes: Vec<u8>,
    transport: &Transport,
    f: impl FnOnce(&Parsed<'_>) -> R,
) -> R {
    parse_then_into(decoder, options, bytes, transport, None, f)
}

/// [`parse_then`], the entries going to `sink` (when given) as soon as each is final,
/// rather than into the result.
pub(crate) fn parse_then_into<R>(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    bytes: Vec<u8>,
    transport: &Transport,
    sink: Option<&parse::SharedSink>,
    f: impl FnOnce(&Parsed<'_>) -> R,
) -> R {
    let (facts, mut adjusted) = prepare(decoder, options, transport, None);
    if let Some(parsed) = parse_json_body(decoder, &adjusted, &bytes, transport, &facts, sink) {
        return f(&parsed);
    }
    let (text, mut decoded) = decoder.decode_with_facts(&bytes, &facts).take_text();
    adjusted.value_repair =
        parse::ValueRepair::for_document(decoder.policy, decoded.charset, &text);
    match text {
        std::borrow::Cow::Owned(text) => {
            drop(bytes);
            let feed = parse::parse_str_into(&text, &adjusted, sink);
            decoded.text = std::borrow::Cow::Owned(text);
            f(&Parsed::new(decoded, feed, transport))
        }
        std::borrow::Cow::Borrowed(text) => {
            let feed = parse::parse_str_into(text, &adjusted, sink);
            let decoded = Decoded {
                text: std::borrow::Cow::Borrowed(text),
                ..decoded
            };
            f(&Parsed::new(decoded, feed, transport))
        }
    }
}

/// Decodes and parses `bytes` (as [`parse_owned`] does) and writes the JSON contract's
/// object ([`output`]) to `out`, entry by entry as the parse goes: each entry is written
/// as soon as it is final and then freed, so that memory holds the input and one entry,
/// never the model of all the entries nor their JSON. `feed-decoder --json` writes every
/// file this way.
///
/// The object is the one [`output::write_json`] writes, with one difference in key
/// order: `entries` comes first (the other keys, whose values are only known at the end
/// of the parse, follow in sorted order). `out` is taken by value and given back.
///
/// ```
/// use feed_decoder::{Decoder, ParseOptions, Transport, output, parse_and_write};
/// let bytes = b"<rss version='2.0'><channel><title>T</title>\
///               <item><title>a</title></item><item><title>b</title></item></channel></rss>";
/// let out = parse_and_write(&Decoder::default(), &ParseOptions::default(),
///     bytes.to_vec(), &Transport::Local, serde_json::Map::new(), Vec::new())?;
/// assert!(out.starts_with(b"{\"entries\":[{"));
/// let streamed: serde_json::Value = serde_json::from_slice(&out)?;
/// let whole = output::to_json(&feed_decoder::parse(bytes, &Transport::Local));
/// assert_eq!(streamed, whole);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The writer's error.
pub fn parse_and_write<W: std::io::Write + 'static>(
    decoder: &Decoder,
    options: &parse::ParseOptions,
    bytes: Vec<u8>,
    transport: &Transport,
    extra: serde_json::Map<String, serde_json::Value>,
    out: W,
) -> std::io::Result<W> {
    let sink = std::rc::Rc::new(std::cell::RefCell::new(output::EntriesOut::start(out)?));
    let shared: parse::SharedSink = sink.clone();
    parse_then_into(
        decoder,
        options,
        bytes,
        transport,
        Some(&shared),
        |parsed| sink.borrow_mut().finish(parsed, extra),
    )
}

/// The parser hands [`parse_and_write`]'s writer each entry as soon as it is final.
impl<W: std::io::Write> parse::EntrySink for output::EntriesOut<W> {
    fn entry(&mut self, entry: Entry) {
        output::EntriesOut::entry(self, &entry);
    }

    /// Only a document without a root element starts over, and it has given no entry
    /// yet (a start tag hands over instead: [`mod@parse`]'s strict pass).
    fn restart(&mut self) {
        debug_assert_eq!(self.count(), 0, "entries were written before a restart");
    }
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
