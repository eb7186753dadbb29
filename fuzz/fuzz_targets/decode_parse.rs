//! Bytes × Content-Type through the whole pipeline: decode, parse, serialise (our JSON
//! writer's bytes checked against serde_json's); and the same bytes through the
//! streaming reader ([`FeedReader`]), read a few bytes at a time.
//!
//! The first input byte picks the transport: local bytes, an HTTP response without a
//! Content-Type, one of a set of media types (with or without a charset), or — when its
//! top bit is set — a Content-Type taken from the input's first line. JSON bodies are
//! covered twice: the JSON media types route any body to the JSON Feed reader, and a
//! selector with bits `0x30` set wraps the body into a JSON Feed item (so that mutations
//! reach the mapping, not only the syntax check).
#![no_main]

use feed_decoder::{
    Decoder, FeedReader, Headers, Policy, StreamItem, Transport, decode::format, output, parse::ParseOptions,
};
use libfuzzer_sys::fuzz_target;

const TYPES: &[&str] = &[
    "text/xml",
    "application/xml",
    "application/rss+xml; charset=utf-8",
    "application/atom+xml; charset='utf-16'",
    "text/xml; charset=us-ascii",
    "text/plain",
    "text/html; charset=windows-1251",
    "application/octet-stream",
    "application/xml; charset=utf-16be",
    "text/xml; charset=\"shift_jis\"",
    "application/xml; charset=ebcdic-cp-us",
    "text/xml;charset = bogus",
    "application/feed+json",
    "application/json; charset=iso-8859-1",
    "application/feed+json; charset=utf-16",
];

/// A reader handing out at most `step` bytes per call (1–8), to reach the streaming
/// reader's refills at every offset.
struct Trickle<'a> {
    rest: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

/// The frame the `0x30` selectors put a body into.
const JSON_HEAD: &[u8] = br#"{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [{"id": 1, "#;
const JSON_TAIL: &[u8] = b"}]}";

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let (transport, body) = match selector {
        0 => (Transport::Local, rest),
        1 => (Transport::Http(Headers::new().with("etag", "x")), rest),
        s if s & 0x80 != 0 => {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let ct = String::from_utf8_lossy(&rest[..end]).into_owned();
            (Transport::content_type(&ct), &rest[(end + 1).min(rest.len())..])
        }
        s => (Transport::content_type(TYPES[usize::from(s) % TYPES.len()]), rest),
    };
    let framed;
    let body = if selector & 0x30 == 0x30 {
        framed = [JSON_HEAD, body, JSON_TAIL].concat();
        &framed[..]
    } else {
        body
    };
    let policy = if selector & 0x40 != 0 { Policy::FeedparserExact } else { Policy::Recover };
    let decoder = Decoder::new().policy(policy);
    let parsed = feed_decoder::parse_with(&decoder, &ParseOptions::default(), body, &transport);
    // Invariants: an encoding is named whenever a charset was used, and every record
    // serialises.
    assert_eq!(parsed.decoded.charset.is_some(), !parsed.decoded.encoding.is_empty());
    let value = output::to_json(&parsed);
    assert!(value.get("decoding").is_some());
    // The fast JSON writer gives serde_json's bytes.
    let mut ours = Vec::new();
    output::to_writer(&mut ours, &parsed).expect("writes");
    assert_eq!(ours, serde_json::to_vec(&parsed).expect("writes"));
    // A body read as JSON reports a JSON Feed version or none, unless it was no JSON at
    // all but markup (served as JSON), which goes on to the XML parser by design.
    // The streaming reader: the feed first, entries (no more than the limit), one end.
    let max_entries = 64;
    let trickle = Trickle { rest: body, step: usize::from(selector % 8) + 1 };
    let options = ParseOptions::default().max_entries(max_entries);
    let reader = FeedReader::new(trickle, &transport, options).expect("reading a slice");
    let items: Vec<StreamItem> = reader.collect();
    assert!(matches!(items.first(), Some(StreamItem::Feed(_))));
    assert!(matches!(items.last(), Some(StreamItem::End(_))));
    let entries = items.iter().filter(|i| matches!(i, StreamItem::Entry(_))).count();
    assert_eq!(entries + 2, items.len());
    assert!(entries <= max_entries);
    if let Some(StreamItem::End(end)) = items.last() {
        assert_eq!(end.entries, entries);
    }
    if format::detect(body, &transport) == format::Format::Json {
        let v = &parsed.version;
        assert!(
            v.is_empty() || v.starts_with("json") || body.contains(&b'<'),
            "{v}"
        );
    }
});
