//! Text helpers shared by both passes: entity tables, windows-1252 repair, HTML guessing,
//! base64, and the small pattern matchers feedparser expresses as regular expressions.

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

/// feedparser's repair of UTF-8 that was read as ISO-8859-1: when every character fits
/// in one byte and those bytes are valid UTF-8 (with at least one non-ASCII byte), the
/// UTF-8 reading wins.
#[must_use]
pub fn fix_double_utf8(s: String) -> String {
    // A character above U+00FF has a lead byte of C4 or more. The bytes can only be UTF-8
    // when the first non-ASCII character is a lead byte (U+00C2..U+00F4) followed by a
    // continuation byte (U+0080..U+00BF): checked before allocating.
    if s.is_ascii() || s.bytes().any(|b| b >= 0xc4) {
        return s;
    }
    let mut chars = s.chars().skip_while(char::is_ascii);
    match (chars.next(), chars.next()) {
        (Some('\u{c2}'..='\u{f4}'), Some('\u{80}'..='\u{bf}')) => {}
        _ => return s,
    }
    let bytes: Vec<u8> = s.chars().map(|c| c as u32 as u8).collect();
    match String::from_utf8(bytes) {
        Ok(fixed) => fixed,
        Err(_) => s,
    }
}

/// The per-value repair with windows-1252 semantics: a value whose every character is a
/// windows-1252 character (Latin-1 or one of its 0x80–0x9F marks, `€ ‚ … ’ “ ”` …) and
/// whose windows-1252 bytes are valid UTF-8 with at least one multi-byte sequence is
/// read as that UTF-8 (`Itâ€™s` → `It’s`), so fields holding those marks are repaired
/// like their Latin-1-only neighbours. Anything else is returned as it is.
#[must_use]
pub fn fix_double_utf8_1252(s: String) -> String {
    if s.is_ascii() {
        return s;
    }
    let mut bytes = Vec::with_capacity(s.len());
    for c in s.chars() {
        let byte = match u32::from(c) {
            n @ 0..=0xff => n as u8,
            _ => match windows_1252_byte(c) {
                Some(b) => b,
                None => return s,
            },
        };
        bytes.push(byte);
    }
    match String::from_utf8(bytes) {
        Ok(fixed) if !fixed.is_ascii() => fixed,
        _ => s,
    }
}

/// The windows-1252 byte (0x80–0x9F) of one of its marks.
fn windows_1252_byte(c: char) -> Option<u8> {
    (0x80u8..0xa0).find(|&b| cp1252(char::from(b)) == Some(c))
}

/// Trims XML whitespace (space, tab, CR, LF) only. Python's `str.strip()` also takes
/// U+0085, which a `&#133;` becomes before its windows-1252 remapping to `…`, and
/// U+00A0/U+3000, which are content.
#[must_use]
pub fn trim_xml(s: &str) -> &str {
    s.trim_matches([' ', '\t', '\r', '\n'])
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

/// Escapes `&`, `<` and `>` (and, when `quote`, `"`).
#[must_use]
pub fn xml_escape(s: &str, quote: bool) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s, quote);
    out
}

/// Appends `s` to `out` with `&`, `<` and `>` escaped.
pub fn xml_escape_into(out: &mut String, s: &str) {
    escape_into(out, s, false);
}

fn escape_into(out: &mut String, s: &str, quote: bool) {
    if !s.contains(['&', '<', '>', '"']) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quote => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// The replacement text of a predefined XML entity.
#[must_use]
pub fn xml_entity(name: &str) -> Option<&'static str> {
    Some(match name {
        "lt" => "<",
        "gt" => ">",
        "amp" => "&",
        "quot" => "\"",
        "apos" => "'",
        _ => return None,
    })
}

/// Resolves a character reference body (`#123` or `#x1F`, without `&` and `;`).
#[must_use]
pub fn char_ref(body: &str) -> Option<char> {
    let num = body.strip_prefix('#')?;
    let code = if let Some(hex) = num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
        u32::from_str_radix(hex, 16).ok()?
    } else {
        num.parse::<u32>().ok()?
    };
    if code == 0 {
        return None;
    }
    char::from_u32(code)
}

/// An HTML named entity (the HTML5 table), without `&` and `;`.
#[must_use]
pub fn html_entity(name: &str) -> Option<std::borrow::Cow<'static, str>> {
    if let Some(c) = super::entities::html4(name) {
        return Some(std::borrow::Cow::Owned(c.to_string()));
    }
    quick_xml::escape::resolve_html5_entity(name).map(std::borrow::Cow::Borrowed)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The run of word characters at the start of `s`.
fn word_prefix(s: &str) -> &str {
    let end = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
    &s[..end]
}

/// feedparser's guess whether plain RSS text is really HTML: it has a closing tag or an
/// entity, every tag is a common HTML element, every entity is an HTML one.
#[must_use]
pub fn looks_like_html(s: &str) -> bool {
    let mut has_close = false;
    let mut has_entity = false;
    // Closing tags `</word>` and every tag name `</?word`.
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        let (closing, name_part) = match after.strip_prefix('/') {
            Some(n) => (true, n),
            None => (false, after),
        };
        let name = word_prefix(name_part);
        if !name.is_empty() {
            if closing && name_part[name.len()..].starts_with('>') {
                has_close = true;
            }
            if !crate::html::is_acceptable_element(&name.to_lowercase()) {
                return false;
            }
        }
        rest = after;
    }
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        let after = &rest[i + 1..];
        let body = after.strip_prefix('#').unwrap_or(after);
        let name = word_prefix(body);
        if !name.is_empty() && body[name.len()..].starts_with(';') {
            has_entity = true;
            if !after.starts_with('#') && super::entities::html4(name).is_none() {
                return false;
            }
        }
        rest = after;
    }
    has_close || has_entity
}

/// Replaces `&name;` (name of `[A-Za-z0-9_]`) with `&name`, as feedparser does to links.
#[must_use]
pub fn unsemicolon_refs(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..=i]);
        let after = &rest[i + 1..];
        let n = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if n > 0 && after[n..].starts_with(';') {
            out.push_str(&after[..n]);
            rest = &after[n + 1..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Decodes base64 content (`mode="base64"`, or an Atom content type that is not text)
/// to UTF-8 text. Stricter than Python's `base64.decodebytes`, which skips any character
/// outside the alphabet and so turns plain text into garbage: only whitespace may sit
/// between the characters of the alphabet, `=` only at the end, the length must be a
/// whole number of quads, and the bytes must be UTF-8 text without control characters
/// (tab, LF and CR aside). `None` otherwise: the caller keeps the value as published.
#[must_use]
pub fn base64_utf8(s: &str) -> Option<String> {
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut count = 0usize;
    let mut pad = 0usize;
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            b' ' | b'\t' | b'\n' | b'\r' => continue,
            _ => return None,
        };
        if pad > 0 {
            return None; // data after padding
        }
        count += 1;
        bits = (bits << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    if count == 0 || pad > 2 || !(count + pad).is_multiple_of(4) {
        return None;
    }
    let text = String::from_utf8(out).ok()?;
    let controls = text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'));
    (!controls).then_some(text)
}

/// Finds an e-mail address the way feedparser's author pattern does; returns its byte
/// range.
#[must_use]
pub fn find_email(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let local = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'+');
    let label = |c: u8| c.is_ascii_alphanumeric() || c == b'-';
    let mut start = 0;
    while start < b.len() {
        if !local(b[start]) {
            start += 1;
            continue;
        }
        let mut at = start;
        while at < b.len() && local(b[at]) {
            at += 1;
        }
        if at < b.len()
            && b[at] == b'@'
            && let Some(end) = match_domain(b, at + 1, label)
        {
            let mut end = end;
            if end < b.len() && b[end] == b']' {
                end += 1;
            }
            if s[end..].starts_with("?subject=") {
                let mut e = end + 9;
                while e < b.len() && !b[e].is_ascii_whitespace() {
                    e += 1;
                }
                if e > end + 9 {
                    end = e;
                }
            }
            return Some((start, end));
        }
        // Any later start inside this run reaches the same '@' with a shorter local part:
        // the regex would have matched at `start` already, so skip the run.
        start = at.max(start + 1);
    }
    None
}

fn match_domain(b: &[u8], from: usize, label: impl Fn(u8) -> bool) -> Option<usize> {
    // Positions just after each "label." group, greedily.
    let mut ends = Vec::new();
    let mut i = from;
    loop {
        let mut j = i;
        while j < b.len() && label(b[j]) {
            j += 1;
        }
        if j > i && j < b.len() && b[j] == b'.' {
            ends.push(j + 1);
            i = j + 1;
        } else {
            break;
        }
    }
    for &e in ends.iter().rev() {
        let letters = b[e..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        if letters >= 2 {
            return Some(e + letters.min(4));
        }
        let digits = b[e..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits >= 1 {
            return Some(e + digits.min(3));
        }
    }
    None
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
    fn double_utf8_is_repaired() {
        assert_eq!(fix_double_utf8("caf\u{c3}\u{a9}".into()), "café");
        assert_eq!(fix_double_utf8("café".into()), "café");
        assert_eq!(
            fix_double_utf8("It\u{e2}\u{20ac}\u{2122}s".into()),
            "It\u{e2}\u{20ac}\u{2122}s"
        );
        assert_eq!(
            fix_double_utf8_1252("It\u{e2}\u{20ac}\u{2122}s".into()),
            "It\u{2019}s"
        );
        assert_eq!(
            fix_double_utf8_1252("Caf\u{c3}\u{a9} \u{e2}\u{20ac}\u{201c}".into()),
            "Café \u{2013}"
        );
        assert_eq!(fix_double_utf8_1252("café – plain".into()), "café – plain");
        assert_eq!(fix_double_utf8_1252("€5".into()), "€5");
    }

    #[test]
    fn html_guess() {
        assert!(looks_like_html("<b>bold</b>"));
        assert!(looks_like_html("a &amp; b"));
        assert!(!looks_like_html("a < b"));
        assert!(!looks_like_html("<foo>x</foo>"));
        assert!(!looks_like_html("plain"));
    }

    #[test]
    fn email_pattern() {
        let s = "Example editor (me@example.com)";
        let (a, b) = find_email(s).unwrap();
        assert_eq!(&s[a..b], "me@example.com");
        assert!(find_email("no address here").is_none());
    }

    #[test]
    fn base64_roundtrip() {
        assert_eq!(base64_utf8("aGVsbG8=").as_deref(), Some("hello"));
        assert_eq!(
            base64_utf8("aGVs\n bG8g\r\nd29y bGQ=").as_deref(),
            Some("hello world")
        );
        assert_eq!(base64_utf8("Q2Fmw6k=").as_deref(), Some("Café"));
    }

    #[test]
    fn text_that_is_not_base64_is_refused() {
        // Python's decodebytes skips the spaces and punctuation and returns garbage.
        for text in [
            "Hello world, this is plain text.",
            "Plain text without punctuation but with spaces",
            "abcd efgh",    // a whole number of quads: decodes to control bytes
            "aGVsbG8=aGk=", // data after padding
            "aGVsbG8",      // not a whole number of quads
            "",
            "   ",
        ] {
            assert_eq!(base64_utf8(text), None, "{text:?}");
        }
    }

    #[test]
    fn link_refs() {
        assert_eq!(unsemicolon_refs("a?x=1&b;=2"), "a?x=1&b=2");
    }
}
