//! The decoder end to end: the chain as `Decoder` runs it.

use std::borrow::Cow;

use super::*;
use crate::Headers;
use crate::bozo::BozoKind;
use crate::charset::Charset;

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
    let bytes = "<?xml version='1.0' encoding='utf-8'?><rss><title>café</title></rss>".as_bytes();
    let d = Decoder::default().decode(bytes, &Transport::Local);
    assert!(matches!(d.text, Cow::Borrowed(_)));
    assert_eq!(d.encoding, "utf-8");
    assert!(d.bozo.is_empty());
}

#[test]
fn text_xml_without_charset_is_us_ascii_then_overridden() {
    let bytes =
        "<?xml version='1.0' encoding='utf-8'?><feed><title>Iñtërnâtiônàlizætiøn</title></feed>"
            .as_bytes();
    let d = dec(bytes, &Transport::content_type("text/xml"));
    assert_eq!(d.trail.rfc3023.rule, "2.1");
    assert_eq!(d.encoding, "utf-8");
    assert_eq!(kinds(&d), [BozoKind::CharacterEncodingOverride]);
    assert_eq!(d.trail.tried[0].label, "us-ascii");
    assert!(!d.trail.tried[0].ok);
    assert!(d.text.contains("Iñtërnâtiônàlizætiøn"));
    // us-ascii does not decode these bytes: feedparser overrides it too.
    assert!(!d.bozo[0].judged);
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
    // iso-8859-1 decodes any bytes: feedparser would have kept it, and says nothing.
    assert!(d.bozo[0].judged);
    let exact = Decoder::new()
        .policy(Policy::FeedparserExact)
        .decode(bytes, &Transport::Local);
    assert_eq!(exact.encoding, "iso-8859-1");
    assert!(exact.text.contains("GrÃ¶Ã\u{9f}e"), "{}", exact.text);
    assert!(exact.bozo.is_empty());
}

#[test]
fn mostly_utf8_with_stray_cp1252_bytes_is_recovered() {
    // 15 valid multibyte sequences, 3 stray windows-1252 bytes.
    let utf8 = "Grüße aus Köln, Zürich, Genf und Málaga. ".repeat(3);
    let mut bytes = format!("<rss><title>{utf8}").into_bytes();
    bytes.extend_from_slice(b"caf\xe9 \x93quoted\x94</title></rss>");
    let d = dec(&bytes, &Transport::Local);
    assert_eq!(
        d.text,
        format!("<rss><title>{utf8}café “quoted”</title></rss>")
    );
    // The document's own UTF-8 is kept: no override, a record of what was read how.
    assert_eq!(d.encoding, "utf-8");
    assert_eq!(d.trail.chosen.as_ref().unwrap().1, Source::Rfc3023);
    assert_eq!(kinds(&d), [BozoKind::CharacterDecodingError]);
    let at = bytes.iter().position(|&b| b == 0xE9).unwrap();
    assert_eq!(d.bozo[0].position.unwrap().offset, Some(at as u64));
    assert!(
        d.bozo[0].message.starts_with("3 run(s)"),
        "{}",
        d.bozo[0].message
    );
    // Declared as a legacy charset, it takes clearly more UTF-8 than not.
    let declared = [
        b"<?xml version='1.0' encoding='iso-8859-1'?>".as_slice(),
        &bytes,
    ]
    .concat();
    let d = dec(&declared, &Transport::Local);
    assert!(
        d.text.ends_with("café “quoted”</title></rss>"),
        "{}",
        d.text
    );
    assert_eq!(d.trail.chosen.as_ref().unwrap().1, Source::Evidence);
    assert_eq!(kinds(&d), [BozoKind::CharacterEncodingOverride]);
    // Too little evidence (feedparser's line-noise case): stays with the fallback.
    let noise = b"<rss><description>\xe2\x80\x99<>\xe2\x80\x9d\xa9</description></rss>";
    assert_eq!(dec(noise, &Transport::Local).encoding, "iso-8859-2");
    let exact = Decoder::new()
        .policy(Policy::FeedparserExact)
        .decode(&bytes, &Transport::Local);
    assert!(
        exact.encoding.eq_ignore_ascii_case("windows-1252"),
        "{}",
        exact.encoding
    );
}

#[test]
fn ebcdic_line_ends_become_line_feeds() {
    let cp037 = Charset::for_label("cp037").unwrap();
    let bytes = cp037
        .encode("<?xml version='1.0' encoding='cp037'?>\u{85}<rss>\u{85}<title>x</title></rss>")
        .unwrap();
    let d = dec(&bytes, &Transport::Local);
    assert_eq!(d.encoding, "cp037");
    assert_eq!(
        d.text,
        "<?xml version='1.0' encoding='cp037'?>\n<rss>\n<title>x</title></rss>"
    );
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

/// A Kazakh feed labelled KZ-1048 (or PT154) keeps its label: chardetng calls the bytes
/// windows-1251, but the registry knows both are Cyrillic pages with the Russian letters
/// at the same bytes, so that is no contradiction. (When these pages counted as Latin,
/// the label was overridden and `Қ`, `ң`, `ә` came out as `Ќ`, `ѕ`, `ј`.)
#[test]
fn kazakh_cyrillic_labels_are_not_contradicted_by_windows_1251() {
    let text = "Қазақстан Республикасының астанасы — Астана қаласы. Әлемдегі ең үлкен \
                құрлықтағы ел. Қала өсіп келеді, әр жыл сайын жаңа үйлер салынады. "
        .repeat(2);
    for label in ["kz1048", "ptcp154"] {
        let charset = Charset::for_label(label).unwrap();
        let doc = format!(
            "<?xml version='1.0' encoding='{label}'?><rss><channel><title>{text}</title></channel></rss>"
        );
        let bytes = charset.encode(&doc).unwrap();
        let d = dec(&bytes, &Transport::Local);
        assert_eq!(d.encoding, label);
        assert!(d.bozo.is_empty(), "{label}: {:?}", d.bozo);
        assert!(d.text.contains(&text), "{label}: {}", d.text);
    }
}

/// The same Kazakh bytes labelled windows-1252 are still a contradiction (Cyrillic bytes
/// labelled Latin): the registry's scripts did not make the chain blind.
#[test]
fn cyrillic_bytes_labelled_western_are_still_overridden() {
    let text = "Новости дня: в Москве открылась новая выставка современного искусства. ".repeat(3);
    let cp1251 = Charset::for_label("windows-1251").unwrap();
    let doc = format!(
        "<?xml version='1.0' encoding='windows-1252'?><rss><channel><title>{text}</title></channel></rss>"
    );
    let d = dec(&cp1251.encode(&doc).unwrap(), &Transport::Local);
    assert_eq!(d.encoding, "windows-1251");
    assert_eq!(kinds(&d), [BozoKind::CharacterEncodingOverride]);
    assert!(d.text.contains(&text));
}

/// A feed declaring UTF-16 whose bytes are UTF-8 without a BOM: UTF-16 decodes them (an
/// even number of bytes) into CJK text without a single `<`. That candidate is refused,
/// the strict pass's answer stays in the trail, and the feed is read as UTF-8.
#[test]
fn a_wide_label_over_utf8_bytes_is_a_failed_candidate() {
    let doc =
        "<?xml version=\"1.0\" encoding=\"utf-16\"?>\n<rss><title>Grüße aus Köln</title></rss>";
    let bytes = [
        doc.as_bytes(),
        if doc.len().is_multiple_of(2) {
            b""
        } else {
            b"\n"
        },
    ]
    .concat();
    assert!(
        Charset::for_label("utf-16")
            .unwrap()
            .decode_strict(&bytes)
            .is_ok()
    );
    for policy in [Policy::Recover, Policy::FeedparserExact] {
        let d = Decoder::new()
            .policy(policy)
            .decode(&bytes, &Transport::Local);
        assert_eq!(d.encoding, "utf-8", "{policy:?}: {:?}", d.trail.tried);
        assert!(d.text.starts_with(doc));
        assert_eq!(
            (d.trail.rfc3023.encoding.as_deref(), d.trail.rfc3023.rule),
            (Some("utf-16"), "1.2")
        );
        let refused = &d.trail.tried[0];
        assert_eq!((refused.label.as_str(), refused.ok), ("utf-16", false));
        assert!(
            refused
                .detail
                .as_deref()
                .unwrap()
                .starts_with("the text cannot start a document"),
            "{refused:?}"
        );
        assert_eq!(kinds(&d), [BozoKind::CharacterEncodingOverride]);
        assert!(
            d.bozo[0]
                .message
                .starts_with("document declared as utf-16, but parsed as utf-8 (read as utf-16, "),
            "{}",
            d.bozo[0].message
        );
    }
    // The same through an HTTP charset (rule 2.4: an ERROR, and no byte order to take).
    let http = Transport::content_type("application/rss+xml; charset=UTF-16");
    let plain = doc.replace(" encoding=\"utf-16\"", "");
    let d = dec(plain.as_bytes(), &http);
    assert_eq!(d.encoding, "utf-8", "{:?}", d.trail.tried);
    assert_eq!(d.trail.rfc3023.rule, "2.4");
    assert_eq!(
        kinds(&d),
        [
            BozoKind::EncodingMismatch,
            BozoKind::CharacterEncodingOverride
        ]
    );
}

/// UTF-16 of one byte order labelled with the other reads as text without markup; the
/// byte order the first bytes prove is taken instead.
#[test]
fn utf16_labelled_with_the_other_byte_order_is_read_in_its_own() {
    let doc = "<?xml version='1.0' encoding='utf-16le'?><rss><title>Ελληνικά</title></rss>";
    let be: Vec<u8> = doc.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let d = dec(&be, &Transport::Local);
    assert_eq!(d.encoding, "utf-16be", "{:?}", d.trail.tried);
    assert_eq!(d.text, doc);
    assert_eq!(kinds(&d), [BozoKind::CharacterEncodingOverride]);
}

/// When no candidate's text can start a document (plain text, an error message), the
/// first that decoded wins as before, with no record beyond what it had.
#[test]
fn text_without_markup_in_any_encoding_keeps_the_first_candidate() {
    let d = dec(b"Service temporarily unavailable", &Transport::Local);
    assert_eq!(d.encoding, "utf-8");
    assert!(d.bozo.is_empty(), "{:?}", d.bozo);
    assert_eq!(d.trail.chosen, Some(("utf-8".into(), Source::Rfc3023)));
    assert!(d.trail.tried[0].ok);
    assert!(
        d.trail.tried[0]
            .detail
            .as_deref()
            .unwrap()
            .ends_with("kept: no candidate's text can"),
        "{:?}",
        d.trail.tried
    );
    // Nothing to judge: an empty or blank body is no refusal.
    let blank = dec(b" \n", &Transport::Local);
    assert_eq!(blank.trail.tried.len(), 1);
    assert_eq!(blank.trail.tried[0].detail, None);
}

/// The plausibility window cut from a decoded text (`chain::whole_chars` and
/// `chain::char_boundary`) is the window decoded on its own, its cut last character
/// dropped, in every charset it is counted for, at every window length over texts whose
/// characters take one, two and three bytes.
#[test]
fn window_cut_from_the_text_is_the_window_decoded() {
    use super::chain::{char_boundary, whole_chars};
    let texts = [
        "Ascii <b>then</b> 日本語のテキスト、ｶﾀｶﾅ and 한국어 텍스트 end",
        "Новости дня: Київ і світ, «цитата» — конец",
        "Новости дня: Київ і світ, ґанок - конец",
        "Ça coûte 5 € déjà; Zürich Grüße señor",
        "東京都は新しい交通計画を発表し、市民は駅の周辺で行われる工事について説明会に参加しました",
        "한국어 뉴스: 서울에서 새로운 전시회가 열렸습니다 (2024년) <p>끝</p>",
        &"Ça coûte 5 € déjà; Zürich Grüße señor. ".repeat(5),
        &"Новости дня: Київ і світ. ".repeat(6),
    ];
    let charsets = [
        "shift_jis",
        "euc-jp",
        "euc-kr",
        "windows-1252",
        "windows-1251",
        "koi8-u",
        "iso-8859-1",
    ];
    let mut checked = 0;
    for label in charsets {
        let before = checked;
        let c = Charset::for_label(label).unwrap();
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        for text in texts {
            let (bytes, _, unmappable) = encoding.encode(text);
            if unmappable {
                continue;
            }
            let whole = c.decode_strict(&bytes).unwrap();
            for window in 0..=bytes.len() + 2 {
                let Some(chars) = whole_chars(c, &bytes, window) else {
                    panic!("{label}: not counted");
                };
                let cut = &whole[..char_boundary(&whole, chars)];
                let end = window.min(bytes.len());
                // The window on its own: the longest prefix that decodes.
                let alone = (0..=end)
                    .rev()
                    .find_map(|e| c.decode_strict(&bytes[..e]).ok())
                    .unwrap();
                assert_eq!(cut, alone, "{label}, window {window}: {text}");
                checked += 1;
            }
        }
        assert!(checked > before, "{label}: no text to check");
    }
    assert!(checked > 250, "{checked}");
    assert_eq!(whole_chars(Charset::UTF_8, b"abc", 2), None);
}

/// `chain::char_boundary` is where `char_indices` puts character number `n`, on texts
/// longer than the blocks it counts at once, at every `n` and past the end.
#[test]
fn char_boundary_is_where_the_nth_character_starts() {
    use super::chain::char_boundary;
    let pieces = ["a", "é", "€", "日本", "😀", " <p>", "Ж", "\u{80}"];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..200 {
        let mut text = String::new();
        while text.len() < 300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push_str(pieces[(state % pieces.len() as u64) as usize]);
        }
        let count = text.chars().count();
        for n in 0..=count + 2 {
            let want = text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
            assert_eq!(char_boundary(&text, n), want, "{n}: {text}");
        }
    }
    assert_eq!(char_boundary("", 0), 0);
    assert_eq!(char_boundary("", 3), 0);
}
