//! Repairs of text that went through the wrong charset, beside the registry that knows
//! the charsets: C1 control code points read as their windows-1252 meanings, and UTF-8
//! that was decoded as ISO-8859-1 or windows-1252 and encoded again ("double UTF-8",
//! `CafÃ©`). The parser applies them per value (feedparser does); the fallback chain undoes
//! double UTF-8 over a whole document.
//!
//! # When a value is repaired
//!
//! feedparser reads every value whose characters all fit in one byte and whose bytes
//! are UTF-8 as that UTF-8 ([`double_utf8_fixed`] without `marks`), silently, in every
//! document (its own tests expect no bozo for it). Text written that way on purpose (an
//! article about mojibake quoting `Ã©`) is rewritten too. The parser keeps that repair
//! but bounds it (`parse::ValueRepair`, chosen once per document):
//!
//! - Under `Policy::Recover` (the default) the repair also undoes windows-1252 marks
//!   (`Itâ€™s` → `It’s`, so that a feed's fields are repaired alike, never half), **unless**
//!   the document was decoded from Unicode bytes (UTF-8, UTF-16, UTF-32) and its text
//!   holds a run of non-ASCII characters that does not read as double UTF-8
//!   ([`holds_clean_non_ascii`]: `é` alone, `’`, `日本`; not a lone `Â` or `Ã` before a
//!   space, which double encoding leaves of a no-break space): that producer demonstrably
//!   writes non-ASCII text correctly, so a value that looks double-encoded is taken as
//!   written (a quotation of mojibake, or a value that came so from elsewhere) and left
//!   as published, by both repairs. A document whose every non-ASCII run reads as
//!   double UTF-8 was undone whole by the fallback chain already (with its own record).
//! - A repair feedparser does not make (the value needed a windows-1252 mark) is said:
//!   one `DoubleEncodedText` bozo record per field, with the number of values repaired
//!   and the first one before and after. feedparser's own Latin-1 repair stays silent, as
//!   in feedparser.
//! - `Policy::FeedparserExact`, and text given to the parser directly
//!   (`parse::parse_str`, `stream::FeedReader`, whose decoding is not known), keep
//!   feedparser's repair exactly: Latin-1 values only, in every document, silent.

/// The windows-1252 meaning of a C1 control code point, if it has one.
#[must_use]
pub fn cp1252(c: char) -> Option<char> {
    let mapped = match c as u32 {
        0x80 => '\u{20ac}',
        0x82 => '\u{201a}',
        0x83 => '\u{0192}',
        0x84 => '\u{201e}',
        0x85 => '\u{2026}',
        0x86 => '\u{2020}',
        0x87 => '\u{2021}',
        0x88 => '\u{02c6}',
        0x89 => '\u{2030}',
        0x8a => '\u{0160}',
        0x8b => '\u{2039}',
        0x8c => '\u{0152}',
        0x8e => '\u{017d}',
        0x91 => '\u{2018}',
        0x92 => '\u{2019}',
        0x93 => '\u{201c}',
        0x94 => '\u{201d}',
        0x95 => '\u{2022}',
        0x96 => '\u{2013}',
        0x97 => '\u{2014}',
        0x98 => '\u{02dc}',
        0x99 => '\u{2122}',
        0x9a => '\u{0161}',
        0x9b => '\u{203a}',
        0x9c => '\u{0153}',
        0x9e => '\u{017e}',
        0x9f => '\u{0178}',
        _ => return None,
    };
    Some(mapped)
}

/// Maps C1 control code points to their windows-1252 meanings (the five code points
/// windows-1252 leaves undefined stay as they are).
#[must_use]
pub fn map_cp1252(s: String) -> String {
    // U+0080..U+009F are `C2 80`..`C2 9F` in UTF-8.
    let b = s.as_bytes();
    if !memchr::memchr_iter(0xc2, b).any(|i| b.get(i + 1).is_some_and(|&c| c <= 0x9f)) {
        return s;
    }
    s.chars().map(|c| cp1252(c).unwrap_or(c)).collect()
}

/// The repair of a value holding UTF-8 that was read as ISO-8859-1 (or, with `marks`,
/// as windows-1252) and encoded again: `Some(the UTF-8 reading)` when every character
/// maps to one byte (Latin-1, C1 controls as their bytes; with `marks` also windows-1252's
/// 0x80–0x9F characters, `€ ‚ … ’ “ ”` …) and those bytes are UTF-8 with at least one
/// multi-byte sequence (`CafÃ©` → `Café`; `Itâ€™s` → `It’s` with `marks`); `None` when the
/// value is left as it is. Without `marks` this is feedparser's repair.
#[must_use]
pub fn double_utf8_fixed(s: &str, marks: bool) -> Option<String> {
    // The bytes can only be UTF-8 when the first non-ASCII character becomes a lead byte
    // (U+00C2..U+00F4) and the next one a continuation byte (U+0080..U+00BF, or a mark
    // taking a byte of 0x80–0x9F): checked before allocating, which rejects almost
    // every value that needs no repair (every text of a feed passes here).
    let first = first_non_ascii(s.as_bytes())?;
    let mut chars = s[first..].chars();
    match (chars.next(), chars.next()) {
        (Some('\u{c2}'..='\u{f4}'), Some(c))
            if matches!(c, '\u{80}'..='\u{bf}') || (marks && windows_1252_byte(c).is_some()) => {}
        _ => return None,
    }
    let mut bytes = Vec::with_capacity(s.len());
    for c in s.chars() {
        let byte = match u32::from(c) {
            n @ 0..=0xff => n as u8,
            _ if marks => windows_1252_byte(c)?,
            _ => return None,
        };
        bytes.push(byte);
    }
    String::from_utf8(bytes).ok()
}

/// Whether `text` holds a run of non-ASCII characters that does not read as double
/// UTF-8: a run whose windows-1252 bytes are not UTF-8 (`é` alone, `’`, `日本`, `Âge`).
/// Such a run is text its producer wrote correctly. A lone `Â` or `Ã` before a space is
/// not: it is what double encoding leaves of a no-break space or an `à` once their
/// second byte (0xA0) has become a plain space (`sats)Â through`, `voilÃ  tout`), so it
/// proves nothing either way. Stops at the first clean run (most documents: their
/// first run).
#[must_use]
pub(crate) fn holds_clean_non_ascii(text: &str) -> bool {
    let first = encoding_rs::Encoding::ascii_valid_up_to(text.as_bytes());
    let mut buf = Vec::new();
    runs(text, first).any(|(run, after)| {
        let remnant =
            matches!(run, "\u{c2}" | "\u{c3}") && (after.is_empty() || after.starts_with(' '));
        !remnant && undone(run, &mut buf).is_none()
    })
}

/// The position of the first byte of `b` above 0x7F, eight bytes at a time (every text
/// of a feed passes here).
fn first_non_ascii(b: &[u8]) -> Option<usize> {
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut words = b.chunks_exact(8);
    let mut at = 0;
    for w in &mut words {
        if u64::from_ne_bytes(w.try_into().expect("eight bytes")) & HIGH != 0 {
            break;
        }
        at += 8;
    }
    b[at..].iter().position(|c| !c.is_ascii()).map(|p| at + p)
}

/// The windows-1252 byte (0x80–0x9F) of one of its marks.
fn windows_1252_byte(c: char) -> Option<u8> {
    (0x80u8..0xa0).find(|&b| cp1252(char::from(b)) == Some(c))
}

/// In markup, rewrites character references to C1 code points (`&#146;`) as references
/// to their windows-1252 meanings (`&#x2019;`), as feedparser's HTML processing does.
#[must_use]
pub fn fix_c1_char_refs(s: String) -> String {
    if !s.contains("&#") {
        return s;
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(i) = rest.find("&#") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let end = after.find(';').filter(|&e| e > 0 && e <= 8);
        let mapped = end.and_then(|e| {
            let body = &after[..e];
            let code = match body.strip_prefix(['x', 'X']) {
                Some(h) => u32::from_str_radix(h, 16).ok()?,
                None => body.parse::<u32>().ok()?,
            };
            cp1252(char::from_u32(code)?)
        });
        match (mapped, end) {
            (Some(c), Some(e)) => {
                out.push_str(&format!("&#x{:x};", c as u32));
                rest = &after[e + 1..];
            }
            _ => {
                out.push_str("&#");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Non-ASCII runs that must read as double-encoded UTF-8 before a document is undone.
const MIN_DOUBLE_RUNS: usize = 2;

/// The windows-1252 byte of `c` (C1 controls standing for the five undefined bytes
/// included), if it has one.
fn cp1252_byte(c: char) -> Option<u8> {
    let v = c as u32;
    if (0x80..=0xFF).contains(&v) {
        // U+0080–U+009F pass through as the bytes windows-1252 leaves undefined (the
        // defined ones map to other characters, which a decoder would have produced).
        return u8::try_from(v).ok();
    }
    // The characters windows-1252 puts at 0x80–0x9F (U+0000 where it has none).
    const HIGH: [u16; 32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
        0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ];
    let v = u16::try_from(v).ok().filter(|&v| v != 0)?;
    HIGH.iter()
        .position(|&h| h == v)
        .and_then(|i| u8::try_from(0x80 + i).ok())
}

/// Double UTF-8 over a whole document: `text` with every run of non-ASCII characters replaced by the UTF-8 those characters'
/// windows-1252 bytes spell, with the number of runs and the byte offset of the first;
/// `None` unless at least [`MIN_DOUBLE_RUNS`] runs do and every run does (a document is
/// undone whole or left as published). Stops at the first run that does not.
pub(crate) fn undo_double_utf8(text: &str) -> Option<(String, usize, usize)> {
    let bytes = text.as_bytes();
    let first = encoding_rs::Encoding::ascii_valid_up_to(bytes);
    if first == bytes.len() {
        return None;
    }
    // Checked first without building anything: almost every document fails at its first
    // run, and one that does not is rebuilt in a second pass.
    let runs = double_runs(text, first, |_, _| {})?;
    if runs < MIN_DOUBLE_RUNS {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first]);
    double_runs(text, first, |fixed, ascii| {
        out.push_str(fixed);
        out.push_str(ascii);
    })?;
    Some((out, runs, first))
}

/// Walks the runs of non-ASCII characters of `text` from byte `at` (where one starts):
/// `each(undone run, the ASCII after it)`; the number of runs, or `None` at the first
/// run whose windows-1252 bytes are not UTF-8.
fn double_runs(text: &str, at: usize, mut each: impl FnMut(&str, &str)) -> Option<usize> {
    let mut count = 0;
    let mut buf = Vec::new();
    for (run, after) in runs(text, at) {
        each(undone(run, &mut buf)?, after);
        count += 1;
    }
    Some(count)
}

/// The runs of non-ASCII characters of `text` from byte `at` (where one starts), each
/// with the ASCII text after it (empty at the end of `text`).
fn runs(text: &str, mut at: usize) -> impl Iterator<Item = (&str, &str)> {
    let bytes = text.as_bytes();
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let end = bytes[at..]
            .iter()
            .position(|&b| b < 0x80)
            .map_or(bytes.len(), |k| at + k);
        let next = bytes[end..]
            .iter()
            .position(|&b| b >= 0x80)
            .map_or(bytes.len(), |k| end + k);
        let run = (&text[at..end], &text[end..next]);
        at = next;
        Some(run)
    })
}

/// The UTF-8 that a run's windows-1252 bytes spell (written into `buf`), if they are
/// UTF-8.
fn undone<'b>(run: &str, buf: &'b mut Vec<u8>) -> Option<&'b str> {
    buf.clear();
    for c in run.chars() {
        buf.push(cp1252_byte(c)?);
    }
    std::str::from_utf8(buf).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp1252_maps_c1_and_keeps_undefined() {
        assert_eq!(map_cp1252("a\u{92}b\u{81}".into()), "a\u{2019}b\u{81}");
    }

    #[test]
    fn c1_char_refs_in_markup() {
        assert_eq!(
            fix_c1_char_refs("don&#146;t &#160; &#x92;".into()),
            "don&#x2019;t &#160; &#x2019;"
        );
    }

    #[test]
    fn first_non_ascii_is_found_at_every_offset() {
        for len in 0..40 {
            let ascii = "a".repeat(len);
            assert_eq!(first_non_ascii(ascii.as_bytes()), None);
            for at in 0..len {
                let mut s = ascii.clone().into_bytes();
                s[at] = 0xc3;
                assert_eq!(first_non_ascii(&s), Some(at), "{len} {at}");
                s[len - 1] = 0x80;
                assert_eq!(first_non_ascii(&s), Some(at), "{len} {at}");
            }
        }
    }

    #[test]
    fn double_utf8_is_repaired() {
        let latin1 = |s: &str| double_utf8_fixed(s, false);
        let marks = |s: &str| double_utf8_fixed(s, true);
        assert_eq!(latin1("caf\u{c3}\u{a9}").as_deref(), Some("café"));
        assert_eq!(latin1("café"), None);
        assert_eq!(latin1("plain"), None);
        assert_eq!(latin1("It\u{e2}\u{20ac}\u{2122}s"), None);
        assert_eq!(
            marks("It\u{e2}\u{20ac}\u{2122}s").as_deref(),
            Some("It\u{2019}s")
        );
        assert_eq!(
            marks("Caf\u{c3}\u{a9} \u{e2}\u{20ac}\u{201c}").as_deref(),
            Some("Café \u{2013}")
        );
        assert_eq!(marks("café – plain"), None);
        assert_eq!(marks("€5"), None);
        // C1 controls stand for their bytes in both.
        assert_eq!(latin1("\u{c3}\u{89}t\u{c3}\u{a9}").as_deref(), Some("Été"));
    }

    /// Every value that is some text's UTF-8 read as windows-1252 is repaired to that
    /// text (with `marks`; without, when no byte of it is a windows-1252 mark), and a
    /// value holding its own correct non-ASCII is never changed.
    #[test]
    fn double_utf8_round_trips_and_clean_text_stays() {
        let texts = [
            "Café",
            "Grüße",
            "naïve – “quoted” it’s",
            "Ærøskøbing €5",
            "Ελλάδα",
            "Москва",
            "日本語",
            "a\u{a0}b",
        ];
        for text in texts {
            let double: String = text
                .bytes()
                .map(|b| crate::charset::repair::cp1252(char::from(b)).unwrap_or(char::from(b)))
                .collect();
            assert_eq!(
                double_utf8_fixed(&double, true).as_deref(),
                Some(text),
                "{double:?}"
            );
            let latin1: String = text.bytes().map(char::from).collect();
            assert_eq!(
                double_utf8_fixed(&latin1, false).as_deref(),
                Some(text),
                "{latin1:?}"
            );
            assert_eq!(double_utf8_fixed(text, true), None, "{text:?}");
            assert!(holds_clean_non_ascii(&format!(
                "<t>{text}</t> <u>{double}</u>"
            )));
            assert!(!holds_clean_non_ascii(&format!(
                "<t>{double}</t> <u>{double}</u>"
            )));
        }
        assert!(!holds_clean_non_ascii("all ASCII"));
        // What double encoding leaves of a no-break space or an `à` whose 0xA0 became a
        // space is no evidence of a clean producer; the same letters inside a word are.
        assert!(!holds_clean_non_ascii(
            "Caf\u{c3}\u{a9} sats)\u{c2} through"
        ));
        assert!(!holds_clean_non_ascii(
            "voil\u{c3} tout, Caf\u{c3}\u{a9} \u{c2}"
        ));
        assert!(holds_clean_non_ascii("Caf\u{c3}\u{a9} \u{c2}ge"));
        assert!(holds_clean_non_ascii("Caf\u{c3}\u{a9} \u{c2}, x"));
    }
}

#[cfg(test)]
mod document_tests {
    use super::*;

    #[test]
    fn double_utf8_is_undone_over_the_whole_document_or_not_at_all() {
        let (fixed, runs, first) =
            undo_double_utf8("<t>Caf\u{c3}\u{a9} and It\u{e2}\u{20ac}\u{2122}s</t>").unwrap();
        assert_eq!(fixed, "<t>Café and It’s</t>");
        assert_eq!((runs, first), (2, 6));
        // One run that does not read so leaves the whole document as published.
        assert_eq!(
            undo_double_utf8("Caf\u{c3}\u{a9}, It\u{e2}\u{20ac}\u{2122}s, café"),
            None
        );
        // A single run is too little evidence.
        assert_eq!(undo_double_utf8("Caf\u{c3}\u{a9}"), None);
    }
}
