//! Bytes × Content-Type through the whole pipeline: decode, parse, serialise.
//!
//! The first input byte picks the transport: local bytes, an HTTP response without a
//! Content-Type, one of a set of media types (with or without a charset), or — when its
//! top bit is set — a Content-Type taken from the input's first line. JSON bodies are
//! covered twice: the JSON media types route any body to the JSON Feed reader, and a
//! selector with bits `0x30` set wraps the body into a JSON Feed item (so that mutations
//! reach the mapping, not only the syntax check).
#![no_main]

use feed_decoder::{Decoder, Headers, Policy, Transport, format, json, parse::ParseOptions};
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
    let value = json::to_json(&parsed);
    assert!(value.get("decoding").is_some());
    // A body read as JSON reports a JSON Feed version or none, unless it was no JSON at
    // all but markup (served as JSON), which goes on to the XML parser by design.
    if format::detect(body, &transport) == format::Format::Json {
        let v = &parsed.version;
        assert!(
            v.is_empty() || v.starts_with("json") || body.contains(&b'<'),
            "{v}"
        );
    }
});
