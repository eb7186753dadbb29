//! The fallback chain: the one place that knows the order in which encodings are tried.
//!
//! Candidates, de-duplicated by the decoder they resolve to:
//!
//! 1. the first choice — feedparser's RFC 3023 encoding ([`crate::rfc3023::feedparser`]);
//!    under [`Policy::Recover`] a byte order mark overrides it (the strict pass's rules
//!    1.3–1.7 and 2.2 report the conflict as an `EncodingMismatch` record);
//! 2. the declared encoding; 3. the encoding the first bytes prove (BOM or a
//!    UTF-16/UCS-4/EBCDIC family); 4. chardetng's guess (bounded prefix, only when it saw
//!    non-ASCII bytes or ISO-2022 escapes); 5. utf-8; 6. windows-1252; 7. iso-8859-2.
//!
//! Each is tried with a strict decoder. A candidate whose text contains U+0000 or ISO-2022
//! escape sequences (UTF-16 read as bytes, unlabelled ISO-2022-JP) does not win outright;
//! if every candidate that decodes has them, the one with the fewest wins. The winner is
//! compared with the first choice: a different label is a `CharacterEncodingOverride`.
//!
//! Under [`Policy::Recover`], a winning label is then checked against the bytes: a legacy
//! charset whose input is strictly valid UTF-8 with non-ASCII bytes is overridden to
//! UTF-8, and a legacy label whose script contradicts chardetng's guess (Cyrillic bytes
//! labelled Latin, Big5 labelled GB2312, EUC-JP labelled Shift_JIS) is overridden to the
//! guess. Both are recorded as `CharacterEncodingOverride` with source `evidence`.

use std::borrow::Cow;

use crate::bozo::{Bozo, BozoKind, Position};
use crate::charset::Charset;
use crate::decode::{Attempt, Decoded, Decoder, Policy, Source, Trail};
use crate::detect::{self, Script};
use crate::media_type::{self, MediaClass};
use crate::rfc3023::{self, Inputs};
use crate::sniff::{Family, Sniffed};
use crate::transport::Transport;

/// Non-ASCII bytes chardetng must have seen before a single-byte guess is tried, or
/// before any guess may contradict a label that decoded.
const MIN_EVIDENCE_BYTES: usize = 16;

/// How many "bad" characters (U+0000, ISO-2022 escapes) a decoded text has; 0 means it
/// may win.
fn bad_chars(text: &str) -> usize {
    let b = text.as_bytes();
    if memchr::memchr2(0, 0x1B, b).is_none() {
        return 0;
    }
    let nul = memchr::memchr_iter(0, b).count();
    let esc = memchr::memchr_iter(0x1B, b)
        .filter(|&i| matches!(b.get(i + 1), Some(b'$' | b'(' | b')')))
        .count();
    nul + esc
}

/// One step of the chain: a label from a source, or the (lazily run) detector.
enum Step {
    Label(String, Source),
    Detector,
}

/// The decoder a label names, with an unordered UTF-16/UTF-32 label given the byte order
/// the first bytes prove.
fn resolve(label: &str, proven: Option<Charset>) -> Option<Charset> {
    let c = Charset::for_label(label)?;
    Some(match proven {
        Some(p) => c.with_byte_order_of(p),
        None => c,
    })
}

/// Runs the whole decoding pipeline.
pub(crate) fn run<'a>(decoder: &Decoder, bytes: &'a [u8], transport: &Transport) -> Decoded<'a> {
    let sniffed = Sniffed::of(bytes);
    let (content_type, class) = media_type::classify(transport);
    let http_charset = content_type.as_ref().and_then(|c| c.charset.as_deref());
    let strict = rfc3023::strict(&Inputs::new(&sniffed, class, http_charset));
    let fp = rfc3023::feedparser(&sniffed, class, http_charset);
    let body = &bytes[sniffed.bom.map_or(0, |(_, n)| n)..];
    let proven = sniffed.proven();

    let mut bozo = Vec::new();
    if let Some(err) = &strict.error
        && strict.rule != "2.6"
    {
        bozo.push(Bozo::new(
            BozoKind::EncodingMismatch,
            format!("RFC 3023 rule {}: {err}", strict.rule),
        ));
    }
    if fp.non_xml {
        let msg = match content_type.as_ref() {
            Some(_) => format!(
                "{} is not an XML media type",
                transport
                    .headers()
                    .and_then(|h| h.get("content-type"))
                    .unwrap_or_default()
            ),
            None => "no Content-type specified".to_owned(),
        };
        bozo.push(Bozo::new(BozoKind::NonXmlContentType, msg));
    }

    // The first choice, against which an override is judged. Under Recover, what the
    // first bytes prove outranks a label that contradicts them: a BOM always, a
    // UTF-16/UCS-4/EBCDIC family when there is no declaration to say otherwise.
    let first = match decoder.policy {
        Policy::Recover => match (sniffed.bom, sniffed.family_loose) {
            (Some((bom, _)), _) if resolve(&fp.encoding, proven) != Some(bom) => {
                bom.name().to_owned()
            }
            (None, Some(f))
                if f.is_wide_or_ebcdic()
                    && fp.declared.is_none()
                    && !matches!(class, MediaClass::TextXml | MediaClass::OtherText) =>
            {
                f.name().to_owned()
            }
            _ => fp.encoding.clone(),
        },
        Policy::FeedparserExact => fp.encoding.clone(),
    };
    let mut steps = vec![Step::Label(first.clone(), Source::Rfc3023)];
    if let Some(d) = &fp.declared {
        steps.push(Step::Label(d.clone(), Source::Declared));
    }
    if let Some(p) = fp.sniffed {
        steps.push(Step::Label(p.name().to_owned(), Source::Sniffed));
    }
    if decoder.detector {
        steps.push(Step::Detector);
    }
    for f in ["utf-8", "windows-1252", "iso-8859-2"] {
        steps.push(Step::Label(f.to_owned(), Source::Fallback));
    }

    let mut guess: Option<Option<(&'static encoding_rs::Encoding, usize)>> = None;
    let mut guess_of = |decoder: &Decoder| {
        *guess.get_or_insert_with(|| {
            detect::guess(body, decoder.detector_prefix, decoder.tld.as_deref())
        })
    };

    let mut tried: Vec<Attempt> = Vec::new();
    let mut seen_charsets: Vec<Charset> = Vec::new();
    let mut seen_labels: Vec<String> = Vec::new();
    let mut winner: Option<(String, Source, Charset, Cow<'a, str>)> = None;
    let mut fallback: Option<(usize, String, Source, Charset, Cow<'a, str>)> = None;

    for step in steps {
        let (label, source, charset) = match step {
            Step::Detector => match guess_of(decoder) {
                // A single-byte guess from a handful of bytes is noise, not evidence.
                Some((e, n)) if n >= MIN_EVIDENCE_BYTES || !e.is_single_byte() => (
                    detect::chardet_name(e).to_owned(),
                    Source::Detector,
                    Some(Charset::for_encoding(e)),
                ),
                _ => continue,
            },
            Step::Label(label, source) => {
                let charset = resolve(&label, proven);
                (label, source, charset)
            }
        };
        if seen_labels.contains(&label) {
            continue;
        }
        seen_labels.push(label.clone());
        let Some(charset) = charset else {
            tried.push(Attempt {
                label,
                source,
                ok: false,
                detail: Some("unknown encoding".into()),
            });
            continue;
        };
        if seen_charsets.contains(&charset) {
            continue;
        }
        seen_charsets.push(charset);
        match charset.decode_strict(body) {
            Err(e) => tried.push(Attempt {
                label,
                source,
                ok: false,
                detail: Some(e.to_string()),
            }),
            Ok(text) => {
                let bad = bad_chars(&text);
                if bad == 0 {
                    tried.push(Attempt {
                        label: label.clone(),
                        source,
                        ok: true,
                        detail: None,
                    });
                    winner = Some((label, source, charset, text));
                    break;
                }
                tried.push(Attempt {
                    label: label.clone(),
                    source,
                    ok: false,
                    detail: Some(format!(
                        "decodes to {bad} U+0000 or ISO-2022 escape characters"
                    )),
                });
                if fallback.as_ref().is_none_or(|f| bad < f.0) {
                    fallback = Some((bad, label, source, charset, text));
                }
            }
        }
    }
    // Nothing decoded to clean characters: the least bad text wins, as CharacterEncodingUnknown.
    let mut unknown = None;
    if winner.is_none()
        && let Some((bad, label, source, charset, text)) = fallback
    {
        if let Some(t) = tried.iter_mut().rev().find(|t| t.label == label) {
            t.ok = true;
        }
        let at = memchr::memchr2(0, 0x1B, text.as_bytes()).unwrap_or(0);
        unknown = Some((bad, Position::in_text(&text, at)));
        winner = Some((label, source, charset, text));
    }

    if decoder.policy == Policy::Recover
        && let Some((label, source, charset, _)) = &winner
        && matches!(source, Source::Rfc3023 | Source::Declared)
        && let Some((c, why)) = evidence(decoder, body, *charset, &mut guess_of)
        && let Ok(text) = c.decode_strict(body)
        && bad_chars(&text) == 0
    {
        let new_label = if c == Charset::UTF_8 {
            "utf-8".to_owned()
        } else {
            c.name().to_owned()
        };
        tried.push(Attempt {
            label: new_label.clone(),
            source: Source::Evidence,
            ok: true,
            detail: Some(format!("{why}; overrides {label}")),
        });
        winner = Some((new_label, Source::Evidence, c, text));
    }

    let (text, encoding, charset, chosen) = match winner {
        Some((label, source, charset, text)) => {
            if let Some((bad, at)) = unknown {
                let msg = format!(
                    "document encoding unknown: no candidate decoded to well-formed characters; \
                     the least bad, {label}, gives {bad} U+0000 or ISO-2022 escape characters"
                );
                bozo.push(Bozo::new(BozoKind::CharacterEncodingUnknown, msg).at(at));
            } else if label != first {
                let mut msg = format!("document declared as {first}, but parsed as {label}");
                if let Some(why) = tried
                    .last()
                    .filter(|t| t.source == Source::Evidence)
                    .and_then(|t| t.detail.as_ref())
                {
                    msg.push_str(&format!(" ({why})"));
                }
                bozo.push(Bozo::new(BozoKind::CharacterEncodingOverride, msg));
            }
            (text, label.clone(), Some(charset), Some((label, source)))
        }
        // Unreachable while iso-8859-2 (which maps every byte) closes the chain; kept so
        // that a registry change cannot turn into a panic.
        None => {
            let msg = format!(
                "document encoding unknown, I tried {first} and every fallback but nothing worked"
            );
            bozo.push(Bozo::new(BozoKind::CharacterEncodingUnknown, msg));
            (String::from_utf8_lossy(body), String::new(), None, None)
        }
    };

    let trail = Trail {
        bom: sniffed.bom.map(|(c, _)| c.name()),
        sniffed: sniffed.family_loose.map(Family::name),
        declared: sniffed.declared.clone(),
        http_charset: http_charset.map(str::to_owned),
        media_type: content_type.map(|c| c.essence).filter(|e| !e.is_empty()),
        media_class: class,
        rfc3023: strict,
        tried,
        chosen,
    };
    Decoded {
        text,
        encoding,
        charset,
        bozo,
        trail,
    }
}

/// Evidence in the bytes that a label which decoded is wrong: the charset they prove and
/// why.
fn evidence(
    decoder: &Decoder,
    body: &[u8],
    chosen: Charset,
    guess_of: &mut impl FnMut(&Decoder) -> Option<(&'static encoding_rs::Encoding, usize)>,
) -> Option<(Charset, String)> {
    if !chosen.is_ascii_compatible() || chosen == Charset::UTF_8 {
        return None;
    }
    let non_ascii = body.iter().filter(|&&b| b >= 0x80).count();
    if non_ascii > 0 && std::str::from_utf8(body).is_ok() {
        return Some((
            Charset::UTF_8,
            format!("its {non_ascii} non-ASCII bytes are all valid UTF-8"),
        ));
    }
    if !decoder.detector {
        return None;
    }
    let (g, seen) = guess_of(decoder)?;
    let guessed = Charset::for_encoding(g);
    if seen < MIN_EVIDENCE_BYTES || guessed == chosen || g == encoding_rs::UTF_8 {
        return None;
    }
    let (a, b) = (detect::script(chosen), detect::script(guessed));
    let contradicts = match (a, b) {
        (Script::Other, _) | (_, Script::Other) => false,
        (Script::Japanese, Script::Japanese) => true,
        _ => a != b,
    };
    contradicts.then(|| {
        (
            guessed,
            format!(
                "chardetng reads its bytes as {} ({b:?}), not {a:?}",
                guessed.name()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Headers;

    fn dec(bytes: &[u8], t: &Transport) -> Decoded<'static> {
        let d = Decoder::default().decode(bytes, t);
        Decoded {
            text: Cow::Owned(d.text.into_owned()),
            ..d
        }
    }

    fn kinds(d: &Decoded<'_>) -> Vec<BozoKind> {
        d.bozo.iter().map(|b| b.kind).collect()
    }

    #[test]
    fn valid_utf8_is_borrowed() {
        let bytes =
            "<?xml version='1.0' encoding='utf-8'?><rss><title>café</title></rss>".as_bytes();
        let d = Decoder::default().decode(bytes, &Transport::Local);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!(d.encoding, "utf-8");
        assert!(d.bozo.is_empty());
    }

    #[test]
    fn text_xml_without_charset_is_us_ascii_then_overridden() {
        let bytes = "<?xml version='1.0' encoding='utf-8'?><feed><title>Iñtërnâtiônàlizætiøn</title></feed>".as_bytes();
        let d = dec(bytes, &Transport::content_type("text/xml"));
        assert_eq!(d.trail.rfc3023.rule, "2.1");
        assert_eq!(d.encoding, "utf-8");
        assert_eq!(kinds(&d), [BozoKind::CharacterEncodingOverride]);
        assert_eq!(d.trail.tried[0].label, "us-ascii");
        assert!(!d.trail.tried[0].ok);
        assert!(d.text.contains("Iñtërnâtiônàlizætiøn"));
    }

    #[test]
    fn missing_content_type_defaults_to_latin1_and_flags_non_xml() {
        let d = dec(
            b"<rss><title>caf\xe9</title></rss>",
            &Transport::Http(Headers::new().with("etag", "1")),
        );
        assert_eq!(d.encoding, "iso-8859-1");
        assert_eq!(kinds(&d), [BozoKind::NonXmlContentType]);
        assert!(d.text.contains("café"));
    }

    #[test]
    fn utf8_declared_latin1_is_recovered_only_under_recover() {
        let bytes =
            "<?xml version='1.0' encoding='iso-8859-1'?><rss><title>Größe</title></rss>".as_bytes();
        let d = dec(bytes, &Transport::Local);
        assert_eq!(d.encoding, "utf-8");
        assert!(d.text.contains("Größe"));
        assert_eq!(kinds(&d), [BozoKind::CharacterEncodingOverride]);
        assert_eq!(d.trail.chosen.as_ref().unwrap().1, Source::Evidence);
        let exact = Decoder::new()
            .policy(Policy::FeedparserExact)
            .decode(bytes, &Transport::Local);
        assert_eq!(exact.encoding, "iso-8859-1");
        assert!(exact.text.contains("GrÃ¶Ã\u{9f}e"), "{}", exact.text);
        assert!(exact.bozo.is_empty());
    }

    #[test]
    fn nothing_decodes_cleanly_picks_fewest_bad_characters() {
        // UTF-16LE without BOM or declaration, starting with a space: no family row fits.
        let bytes: Vec<u8> = "\u{feff}"
            .encode_utf16()
            .skip(1)
            .chain(" x".encode_utf16())
            .flat_map(u16::to_le_bytes)
            .collect();
        let d = dec(&bytes, &Transport::Local);
        assert!(d.charset.is_some());
        assert_eq!(kinds(&d), [BozoKind::CharacterEncodingUnknown]);
        let at = d.bozo[0].position.unwrap();
        assert_eq!((at.line, at.column), (Some(1), Some(2)));
    }
}
