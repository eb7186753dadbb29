//! # feed-decoder
//!
//! Turns feed bytes into correct Unicode text and a parsed feed, the way Python's
//! Universal Feed Parser (feedparser) does — and says exactly what was wrong on the way.
//!
//! ## The pipeline
//!
//! ```text
//! bytes + Transport ─► sniff ─► rfc3023 (strict pass) ─► chain ─► parse ─► Parsed
//! ```
//!
//! 1. [`sniff`]: the byte order mark, the XML 1.0 Appendix F family of the first four
//!    bytes, and the XML declaration read through that family.
//! 2. [`media_type`]: the HTTP `Content-Type`, classified as RFC 3023 sees it.
//! 3. [`rfc3023`]: the strict algorithm (rules 1.0–1.7 for local bytes, 2.0–2.6 for HTTP),
//!    extended to UTF-32/UCS-4 and EBCDIC, plus feedparser's reported-`encoding` rules.
//! 4. the fallback chain: the strict-pass encoding, the declared one, the sniffed one,
//!    chardetng's guess, UTF-8, windows-1252 and ISO-8859-2, each tried with a *strict*
//!    decoder from the [`charset`] registry. Problems become [`Bozo`] records.
//! 5. [`mod@parse`]: quick-xml over the decoded `&str`, strict first, lenient when broken,
//!    into the feedparser-shaped [`model`].
//! 6. [`html`]: every HTML value (of XML and JSON feeds alike) is sanitized and its
//!    relative URIs resolved in one linear pass, as feedparser does by default and safer
//!    ([`parse::ParseOptions::sanitize_html`], [`parse::ParseOptions::resolve_relative_uris`]).
//!
//! Before all this, [`format::detect`] decides XML or JSON (the body's first character,
//! then the media type); a JSON Feed is decoded as RFC 8259 says
//! ([`format::decode_json`]), parsed with serde_json and mapped into the same model
//! ([`jsonfeed`]).
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
//! assert_eq!(result.feed.feed.title.as_deref(), Some("Café"));
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
mod chain;
pub mod charset;
pub mod date;
mod decode;
mod detect;
pub mod format;
pub mod html;
#[cfg(feature = "http")]
pub mod http;
pub mod json;
pub mod jsonfeed;
pub mod media_type;
pub mod model;
pub mod parse;
pub mod rfc3023;
pub mod sniff;
pub mod stream;
mod transport;

pub use bozo::{Bozo, BozoKind, Position};
pub use charset::Charset;
pub use decode::{Attempt, Decoded, Decoder, Policy, Rfc3023Outcome, Source, Trail};
pub use model::ParsedFeed;
pub use stream::{FeedReader, StreamEnd, StreamItem};
pub use transport::{Headers, Transport};

#[cfg(feature = "http")]
pub use http::{FetchError, FetchOptions, Fetched, Fetcher, HttpInfo, fetch, fetch_blocking};

/// Decodes feed bytes with the default [`Decoder`].
#[must_use]
pub fn decode<'a>(bytes: &'a [u8], transport: &Transport) -> Decoded<'a> {
    Decoder::default().decode(bytes, transport)
}

/// A decoded and parsed feed.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<'a> {
    /// The decoding result (text, encoding, encoding bozo records, trail).
    pub decoded: Decoded<'a>,
    /// The parsed feed (with its markup bozo records).
    pub feed: ParsedFeed,
    /// The transport the bytes came with.
    pub transport: Transport,
}

impl Parsed<'_> {
    /// Every bozo record: decoding problems first, then markup problems.
    pub fn bozo(&self) -> impl Iterator<Item = &Bozo> {
        self.decoded.bozo.iter().chain(self.feed.bozo.iter())
    }

    /// True when any problem was recorded.
    #[must_use]
    pub fn is_bozo(&self) -> bool {
        self.bozo().next().is_some()
    }
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
    let mut adjusted = match transport {
        Transport::Http(headers) => options.clone().with_http_context(headers, None),
        _ => options.clone(),
    };
    // Under Recover, every field gets the same double-UTF-8 repair (windows-1252 marks
    // included); under FeedparserExact, feedparser's Latin-1-only repair.
    adjusted.windows_1252_repair = decoder.policy == Policy::Recover;
    let options = &adjusted;
    // The format switch (XML or JSON Feed) is `format::detect`; each format decodes and
    // parses its own way. A body that is no JSON at all but holds markup goes on to XML.
    if format::detect(bytes, transport) == format::Format::Json {
        let decoded = format::decode_json(decoder, bytes, transport);
        let feed = jsonfeed::parse_json(&decoded.text, options);
        if !feed.version.is_empty() || !decoded.text.contains('<') {
            return Parsed {
                decoded,
                feed,
                transport: transport.clone(),
            };
        }
    }
    let decoded = decoder.decode(bytes, transport);
    let feed = parse::parse_str(&decoded.text, options);
    Parsed {
        decoded,
        feed,
        transport: transport.clone(),
    }
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
