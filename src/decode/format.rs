//! The format switch: is a body XML (RSS, Atom, CDF) or JSON (JSON Feed)? And, for JSON,
//! the decoding RFC 8259 prescribes.
//!
//! [`detect`] is the one place that decides. The body speaks first, the media type second:
//!
//! | first non-space character (after the BOM / zero-byte sniff) | media type | format |
//! |---|---|---|
//! | `{` | any | JSON |
//! | `<` | any | XML |
//! | anything else, or none | `application/json`, `application/feed+json`, `*/*+json` | JSON |
//! | anything else, or none | any other, or none | XML |
//!
//! A body sent to JSON that turns out to be no JSON at all (nothing readable, no
//! version) but holds markup goes on to the XML pipeline ([`crate::parse_with`]).
//!
//! A JSON body is decoded by [`decode_json`] as RFC 8259 §8.1 says: UTF-8, unless a byte
//! order mark or the pattern of zero bytes in the first four (RFC 4627 §3) says UTF-16 or
//! UTF-32. A `charset` parameter has no meaning for JSON; one that names another
//! charset is recorded as a `CharacterEncodingOverride`. Bytes that are not valid in
//! the Unicode encoding found fall back to the declared charset, chardetng's guess and
//! windows-1252 (each an override), and to lossy UTF-8 (`CharacterEncodingUnknown`). A
//! fallback whose text cannot start a JSON text (windows-1252 bytes served as
//! `charset=utf-16` read as CJK characters) is passed over while another's can.

use std::borrow::Cow;

use super::{Attempt, Decoded, Decoder, Rfc3023Outcome, Source, Trail, TransportFacts};
use crate::bozo::{Bozo, BozoKind, Position};
use crate::charset::Charset;
use crate::transport::Transport;

/// The syntax a feed body is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// RSS, Atom, CDF: the XML pipeline.
    Xml,
    /// JSON Feed.
    Json,
}

/// How many whitespace units [`detect`] skips looking for the first character.
const SCAN_LIMIT: usize = 4096;

/// The Unicode encoding of a JSON text, from its byte order mark or, without one, from
/// the zero bytes among its first four (RFC 4627 §3): `00 00 00 xx` UTF-32BE,
/// `00 xx 00 xx` UTF-16BE, `xx 00 00 00` UTF-32LE, `xx 00 xx 00` (or `xx 00` alone)
/// UTF-16LE, else UTF-8. Returns the charset, the BOM's length and whether a BOM said so.
#[must_use]
pub fn json_encoding(bytes: &[u8]) -> (Charset, usize, bool) {
    if let Some((cs, len)) = super::sniff::bom(bytes) {
        return (cs, len, true);
    }
    let cs = match bytes {
        [0, 0, 0, b, ..] if *b != 0 => Charset::UTF_32BE,
        [0, b, 0, c, ..] if *b != 0 && *c != 0 => Charset::UTF_16BE,
        [0, b] if *b != 0 => Charset::UTF_16BE,
        [a, 0, 0, 0, ..] if *a != 0 => Charset::UTF_32LE,
        [a, 0, b, 0, ..] if *a != 0 && *b != 0 => Charset::UTF_16LE,
        [a, 0] if *a != 0 => Charset::UTF_16LE,
        _ => Charset::UTF_8,
    };
    (cs, 0, false)
}

/// The first character of the body that is not JSON/XML whitespace, read through the
/// Unicode encoding [`json_encoding`] finds (ASCII-compatible bytes otherwise).
fn first_char(bytes: &[u8]) -> Option<char> {
    let (cs, skip, _) = json_encoding(bytes);
    let body = &bytes[skip..];
    let (width, big) = if cs == Charset::UTF_16BE {
        (2, true)
    } else if cs == Charset::UTF_16LE {
        (2, false)
    } else if cs == Charset::UTF_32BE {
        (4, true)
    } else if cs == Charset::UTF_32LE {
        (4, false)
    } else {
        (1, false)
    };
    for unit in body.chunks_exact(width).take(SCAN_LIMIT) {
        let code = if big {
            unit.iter().fold(0u32, |a, &b| (a << 8) | u32::from(b))
        } else {
            unit.iter()
                .rev()
                .fold(0u32, |a, &b| (a << 8) | u32::from(b))
        };
        match code {
            0x20 | 0x09 | 0x0A | 0x0D => continue,
            c => return char::from_u32(c),
        }
    }
    None
}

/// Whether a media type (`type/subtype`, lower-cased) names JSON.
fn is_json_type(essence: &str) -> bool {
    matches!(essence, "application/json" | "application/feed+json") || essence.ends_with("+json")
}

/// Decides XML or JSON for a body and its transport (see the [module docs](self)).
#[must_use]
pub fn detect(bytes: &[u8], transport: &Transport) -> Format {
    detect_with_facts(bytes, &TransportFacts::of(transport))
}

/// [`detect`] for a transport read already.
pub(crate) fn detect_with_facts(bytes: &[u8], facts: &TransportFacts) -> Format {
    match first_char(bytes) {
        Some('{') => return Format::Json,
        Some('<') => return Format::Xml,
        _ => {}
    }
    match &facts.content_type {
        Some(ct) if is_json_type(&ct.essence) => Format::Json,
        _ => Format::Xml,
    }
}

/// The name of a JSON encoding as reported (`utf-8`, `utf-16le`, …).
fn label(cs: Charset) -> String {
    cs.name().to_ascii_lowercase()
}

/// Whether a declared charset label means the charset that was used (`utf-16` for
/// either byte order, `utf-32` likewise).
fn same_charset(declared: Charset, used: Charset) -> bool {
    declared == used
        || declared.byte_order_unspecified() && declared.with_byte_order_of(used) == used
}

/// Why a fallback's reading of a JSON body cannot be a JSON text, for the trail; `None`
/// when it can: its first character that is not white space (nor a BOM) begins a JSON
/// value, or there is none.
fn json_refusal(text: &str) -> Option<String> {
    let first = text
        .chars()
        .take(SCAN_LIMIT)
        .find(|c| !matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{FEFF}'))?;
    if matches!(first, '{' | '[' | '"' | '-' | '0'..='9' | 't' | 'f' | 'n') {
        return None;
    }
    Some(format!(
        "the text cannot start a JSON text: its first character is U+{:04X}",
        u32::from(first)
    ))
}

/// Decodes a JSON body as RFC 8259 says (see the [module docs](self)). Never fails.
pub fn decode_json<'a>(decoder: &Decoder, bytes: &'a [u8], transport: &Transport) -> Decoded<'a> {
    decode_json_with_facts(decoder, bytes, &TransportFacts::of(transport))
}

/// [`decode_json`] for a transport read already.
pub(crate) fn decode_json_with_facts<'a>(
    decoder: &Decoder,
    bytes: &'a [u8],
    facts: &TransportFacts,
) -> Decoded<'a> {
    let media_class = facts.media_class;
    let http_charset = facts.charset().map(str::to_owned);
    let (cs, skip, by_bom) = json_encoding(bytes);
    let body = &bytes[skip..];
    let mut trail = Trail {
        bom: by_bom.then(|| cs.name()),
        sniffed: (!by_bom && cs != Charset::UTF_8).then(|| cs.name()),
        declared: None,
        http_charset: http_charset.clone(),
        media_type: facts.content_type.as_ref().map(|c| c.essence.clone()),
        media_class,
        rfc3023: Rfc3023Outcome {
            encoding: Some(label(cs)),
            rule: "rfc8259",
            error: None,
        },
        tried: Vec::new(),
        chosen: None,
    };
    let mut bozo = Vec::new();
    let first_source = if by_bom || cs != Charset::UTF_8 {
        Source::Sniffed
    } else {
        Source::Rfc8259
    };
    let first_error = match cs.decode_strict(body) {
        Ok(text) => {
            trail.tried.push(Attempt {
                label: label(cs),
                source: first_source,
                ok: true,
                detail: None,
            });
            trail.chosen = Some((label(cs), first_source));
            if let Some(declared) = &http_charset {
                let agrees = Charset::for_label(declared).is_some_and(|d| same_charset(d, cs));
                if !agrees {
                    bozo.push(Bozo::new(
                        BozoKind::CharacterEncodingOverride,
                        format!(
                            "document declared as {declared}, but parsed as {} (RFC 8259: \
                             JSON is Unicode, the charset parameter has no meaning)",
                            label(cs)
                        ),
                    ));
                }
            }
            return Decoded {
                text,
                encoding: label(cs),
                charset: Some(cs),
                bozo,
                trail,
            };
        }
        Err(e) => e,
    };
    let detail = match first_error.byte {
        Some(b) => format!("byte 0x{b:02X} at offset {}", first_error.offset + skip),
        None => format!("truncated sequence at offset {}", first_error.offset + skip),
    };
    trail.tried.push(Attempt {
        label: label(cs),
        source: first_source,
        ok: false,
        detail: Some(detail.clone()),
    });
    // Not valid in the Unicode encoding RFC 8259 asks for: the declared charset, the
    // detector's guess, windows-1252.
    let mut candidates: Vec<(String, Charset, Source)> = Vec::new();
    if let Some(d) = &http_charset
        && let Some(c) = Charset::for_label(d)
    {
        candidates.push((d.to_ascii_lowercase(), c, Source::Declared));
    }
    if decoder.detector
        && let Some((guess, _)) = super::detect::guess(
            body,
            decoder.detector_prefix,
            usize::MAX,
            decoder.tld.as_deref(),
        )
    {
        let c = Charset::for_encoding(guess);
        candidates.push((
            super::detect::chardet_name(guess).to_ascii_lowercase(),
            c,
            Source::Detector,
        ));
    }
    candidates.push((
        "windows-1252".into(),
        Charset::for_label("windows-1252").unwrap_or(Charset::UTF_8),
        Source::Fallback,
    ));
    let mut seen = vec![cs];
    // The first candidate that decodes to a text that cannot start a JSON text (a
    // windows-1252 body served as UTF-16 reads as CJK text); it wins only when no
    // candidate's text can.
    let mut unopened = None;
    let mut winner = None;
    for (name, c, source) in candidates {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        match c.decode_strict(body) {
            Ok(text) => match json_refusal(&text) {
                None => {
                    trail.tried.push(Attempt {
                        label: name.clone(),
                        source,
                        ok: true,
                        detail: None,
                    });
                    winner = Some((name, c, source, text));
                    break;
                }
                Some(why) => {
                    trail.tried.push(Attempt {
                        label: name.clone(),
                        source,
                        ok: false,
                        detail: Some(why),
                    });
                    if unopened.is_none() {
                        unopened = Some((name, c, source, text));
                    }
                }
            },
            Err(e) => trail.tried.push(Attempt {
                label: name,
                source,
                ok: false,
                detail: Some(match e.byte {
                    Some(b) => format!("byte 0x{b:02X} at offset {}", e.offset + skip),
                    None => format!("truncated sequence at offset {}", e.offset + skip),
                }),
            }),
        }
    }
    if winner.is_none()
        && let Some(pick) = unopened
    {
        if let Some(t) = trail.tried.iter_mut().find(|t| t.label == pick.0) {
            t.ok = true;
            if let Some(d) = &mut t.detail {
                d.push_str("; kept: no candidate's text can");
            }
        }
        winner = Some(pick);
    }
    if let Some((name, c, source, text)) = winner {
        trail.chosen = Some((name.clone(), source));
        bozo.push(
            Bozo::new(
                BozoKind::CharacterEncodingOverride,
                format!(
                    "JSON is not valid {} ({detail}); parsed as {name}",
                    label(cs)
                ),
            )
            .at(Position::at_offset(first_error.offset + skip)),
        );
        return Decoded {
            text: Cow::Owned(text.into_owned()),
            encoding: name,
            charset: Some(c),
            bozo,
            trail,
        };
    }
    bozo.push(Bozo::new(
        BozoKind::CharacterEncodingUnknown,
        format!(
            "JSON is not valid {} ({detail}) nor any fallback; read as lossy UTF-8",
            label(cs)
        ),
    ));
    Decoded {
        text: Cow::Owned(cs.decode_lossy(body).into_owned()),
        encoding: String::new(),
        charset: None,
        bozo,
        trail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf32be(s: &str) -> Vec<u8> {
        s.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect()
    }

    #[test]
    fn zero_byte_patterns() {
        assert_eq!(json_encoding(b"{}").0, Charset::UTF_8);
        assert_eq!(json_encoding(&utf16le("{}")).0, Charset::UTF_16LE);
        assert_eq!(json_encoding(&utf32be("{}")).0, Charset::UTF_32BE);
        let be16: Vec<u8> = "{}".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(json_encoding(&be16).0, Charset::UTF_16BE);
        let le32: Vec<u8> = "{}"
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect();
        assert_eq!(json_encoding(&le32).0, Charset::UTF_32LE);
        assert_eq!(json_encoding(b"\xEF\xBB\xBF{}"), (Charset::UTF_8, 3, true));
    }

    #[test]
    fn body_outranks_media_type() {
        let json = Transport::content_type("application/feed+json");
        let xml = Transport::content_type("application/rss+xml");
        assert_eq!(
            detect(b"  \n{\"version\": 1}", &Transport::Local),
            Format::Json
        );
        assert_eq!(detect(b"{}", &xml), Format::Json);
        assert_eq!(detect(b"<rss/>", &json), Format::Xml);
        assert_eq!(detect(b"", &json), Format::Json);
        assert_eq!(detect(b"garbage", &json), Format::Json);
        assert_eq!(detect(b"garbage", &xml), Format::Xml);
        assert_eq!(detect(b"", &Transport::Local), Format::Xml);
        assert_eq!(
            detect(&utf16le("\u{feff} {}"), &Transport::Local),
            Format::Json
        );
        assert_eq!(detect(&utf32be("\n{}"), &Transport::Local), Format::Json);
        assert_eq!(
            detect(b"x", &Transport::content_type("application/vnd.api+json")),
            Format::Json
        );
    }

    #[test]
    fn utf16_json_is_decoded_without_override() {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(utf16le("{\"title\": \"caf\u{e9}\"}"));
        let d = decode_json(&Decoder::new(), &bytes, &Transport::Local);
        assert_eq!(d.text, "{\"title\": \"caf\u{e9}\"}");
        assert_eq!(d.encoding, "utf-16le");
        assert!(d.bozo.is_empty(), "{:?}", d.bozo);
        assert_eq!(d.trail.bom, Some(Charset::UTF_16LE.name()));
    }

    #[test]
    fn declared_legacy_charset_is_an_override() {
        let t = Transport::content_type("application/feed+json; charset=iso-8859-1");
        let d = decode_json(&Decoder::new(), "{\"t\": \"é\"}".as_bytes(), &t);
        assert_eq!(d.encoding, "utf-8");
        assert_eq!(d.text, "{\"t\": \"é\"}");
        assert_eq!(d.bozo.len(), 1);
        assert_eq!(d.bozo[0].kind, BozoKind::CharacterEncodingOverride);
        let ok = Transport::content_type("application/json; charset=UTF-8");
        assert!(decode_json(&Decoder::new(), b"{}", &ok).bozo.is_empty());
    }

    #[test]
    fn a_declared_charset_whose_text_cannot_be_json_is_passed_over() {
        // windows-1252 bytes (not UTF-8) served as UTF-16: UTF-16 reads them as CJK text.
        let body = b"{\"title\": \"Caf\xe9 cr\xe8me \xe0 Paris\"} ";
        assert!(Charset::UTF_16LE.decode_strict(body).is_ok());
        assert!(Charset::UTF_16BE.decode_strict(body).is_ok());
        for cs in ["utf-16", "UTF-16LE", "utf-16be", "ucs-2"] {
            let t = Transport::content_type(&format!("application/feed+json; charset={cs}"));
            let d = decode_json(&Decoder::new(), body, &t);
            assert_eq!(d.text, "{\"title\": \"Café crème à Paris\"} ", "{cs}");
            assert_eq!(d.encoding, "windows-1252", "{cs}");
            let refused = &d.trail.tried[1];
            assert_eq!(
                (refused.label.as_str(), refused.ok),
                (cs.to_ascii_lowercase().as_str(), false)
            );
            assert!(
                refused
                    .detail
                    .as_deref()
                    .unwrap()
                    .starts_with("the text cannot start a JSON text"),
                "{refused:?}"
            );
        }
        // No candidate's text can start one: the first that decoded, as before.
        let t = Transport::content_type("application/json; charset=iso-8859-1");
        let d = decode_json(&Decoder::new(), b"caf\xe9", &t);
        assert_eq!(
            (d.text.as_ref(), d.encoding.as_str()),
            ("café", "iso-8859-1")
        );
        assert!(d.trail.tried[1].ok);
    }

    #[test]
    fn invalid_utf8_falls_back_to_the_declared_charset() {
        let t = Transport::content_type("application/json; charset=iso-8859-1");
        let d = decode_json(&Decoder::new(), b"{\"t\": \"caf\xe9\"}", &t);
        assert_eq!(d.text, "{\"t\": \"café\"}");
        assert_eq!(d.encoding, "iso-8859-1");
        assert_eq!(d.trail.tried.len(), 2);
        assert!(!d.trail.tried[0].ok);
        assert_eq!(d.bozo[0].kind, BozoKind::CharacterEncodingOverride);
        let d = decode_json(&Decoder::new(), b"{\"t\": \"caf\xe9\"}", &Transport::Local);
        assert!(d.text.contains("café"), "{}", d.text);
        assert!(!d.bozo.is_empty());
    }
}
