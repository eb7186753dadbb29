//! Text helpers shared by both passes: XML escapes and references, HTML guessing,
//! base64, the small pattern matchers feedparser expresses as regular expressions, and
//! the account of the values the double-UTF-8 repair changed.

use crate::bozo::{Bozo, BozoKind};

/// Trims what Python's `str.strip()` trims, as feedparser trims every value (XML
/// whitespace, U+00A0, U+3000, the other Unicode spaces, U+001C–U+001F), but U+0085,
/// which a `&#133;` becomes before its windows-1252 remapping to `…`: a trailing
/// ellipsis written so stays.
#[must_use]
pub fn trim_value(s: &str) -> &str {
    s.trim_matches(|c: char| c != '\u{85}' && is_py_space(c))
}

/// What Python's `str.isspace()` (and so `str.strip()`) takes for whitespace: Unicode
/// whitespace and the separators U+001C–U+001F.
pub(crate) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
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

/// A character reference body as XML writes it (`#123` or `#x1F`: decimal digits, or a
/// lowercase `x` and hexadecimal digits), resolved to a character XML allows. `Err`
/// names expat's words for what is wrong and where expat places it, in bytes past the
/// reference's `&`: a body not so written is not well-formed at its first wrong
/// character; a number that is no XML character is a "reference to invalid character
/// number" at the `&`.
pub(super) fn strict_char_ref(body: &str) -> Result<char, (&'static str, usize)> {
    const SYNTAX: &str = "not well-formed (invalid token)";
    let Some(num) = body.strip_prefix('#') else {
        return Err((SYNTAX, 1));
    };
    let (digits, radix, skip) = match num.strip_prefix('x') {
        Some(hex) => (hex, 16, 2),
        None => (num, 10, 1),
    };
    if let Some(bad) = digits.bytes().position(|b| !char::from(b).is_digit(radix)) {
        return Err((SYNTAX, 1 + skip + bad));
    }
    if digits.is_empty() {
        return Err((SYNTAX, 1 + skip));
    }
    u32::from_str_radix(digits, radix)
        .ok()
        .and_then(char::from_u32)
        .filter(|&c| c != '\0' && super::chars::is_xml_char(c))
        .ok_or(("reference to invalid character number", 0))
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
/// entity, every tag is a common HTML element, every entity is an HTML one. feedparser
/// knows HTML 4's names only; HTML5's count too (`Za&zdot;` is HTML as `Caf&eacute;` is),
/// so that the value is typed, and rendered, as the HTML it is. The elements are the
/// sanitizer's acceptable ones: `policy`'s when given, else feedparser's.
#[must_use]
pub fn looks_like_html(s: &str, policy: Option<&crate::html::SanitizePolicy>) -> bool {
    if memchr::memchr2(b'<', b'&', s.as_bytes()).is_none() {
        // Neither a tag nor an entity (most titles): one search instead of two.
        return false;
    }
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
            let name = name.to_lowercase();
            let acceptable = match policy {
                None => crate::html::is_acceptable_element(&name),
                Some(p) => p.contains(crate::html::AllowList::Elements, &name),
            };
            if !acceptable {
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
            if !after.starts_with('#')
                && crate::entities::html4(name).is_none()
                && crate::entities::html5(name).is_none()
            {
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

/// What feedparser's lenient parser makes of the text `s` of a construct whose media
/// type does not end in `xml` (HTML and plain text): `&quot;`, `&apos;` and `&#x2f;`
/// (`&#x2F;`) decoded once more than the document says. That parser keeps the XML
/// references of its raw text and undoes them afterwards, one after the other, `&amp;`
/// before these three: so `&amp;quot;` in the document (HTML text `&quot;`, a quote) ends
/// up as `"`, where every other reference (`&amp;lt;`, `&amp;#34;`) keeps the one
/// decoding the document asks for. In HTML text a quote and `&quot;` read the same; a
/// plain-text title double-escaped by its publisher (`Say &amp;quot;hi&amp;quot;`)
/// reads `Say "hi"`, as the publisher meant.
#[must_use]
pub(super) fn lenient_quotes(s: String) -> String {
    // Python's `str.replace`, in its order: each replacement runs over the whole text
    // (left to right, without overlap), as Rust's does.
    const STEPS: [(&str, &str); 4] = [
        ("&quot;", "\""),
        ("&apos;", "'"),
        ("&#x2f;", "/"),
        ("&#x2F;", "/"),
    ];
    if !s.contains('&') {
        return s;
    }
    STEPS.iter().fold(s, |s, (from, to)| {
        if s.contains(from) {
            s.replace(from, to)
        } else {
            s
        }
    })
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

/// The values the per-value double-UTF-8 repair changed (`crate::charset::repair`), by
/// field: one `DoubleEncodedText` record each at the end of the parse. At most
/// [`Repaired::FIELDS`] fields are named (element names are the document's own); values
/// of others are counted together.
#[derive(Debug, Default)]
pub(super) struct Repaired {
    fields: Vec<RepairedField>,
    others: usize,
}

#[derive(Debug)]
struct RepairedField {
    name: String,
    in_entry: bool,
    count: usize,
    /// The first value, before and after (shortened).
    before: String,
    after: String,
}

impl Repaired {
    /// Fields named in records; any further ones are counted together.
    const FIELDS: usize = 16;
    /// Characters of a value shown in a record.
    const SHOWN: usize = 60;

    /// Notes that the value of `name` (in an entry, or in the feed) was repaired.
    pub(super) fn note(&mut self, name: &str, in_entry: bool, before: &str, after: &str) {
        if let Some(f) = self
            .fields
            .iter_mut()
            .find(|f| f.in_entry == in_entry && f.name == name)
        {
            f.count += 1;
        } else if self.fields.len() < Self::FIELDS {
            self.fields.push(RepairedField {
                name: name.to_owned(),
                in_entry,
                count: 1,
                before: shown(before, Self::SHOWN),
                after: shown(after, Self::SHOWN),
            });
        } else {
            self.others += 1;
        }
    }

    /// The records, in the order the fields were first repaired: [`Bozo::judged`], as
    /// feedparser reports no repair (it makes the Latin-1 ones silently).
    pub(super) fn records(&self) -> impl Iterator<Item = Bozo> + '_ {
        let named = self.fields.iter().map(|f| {
            let place = if f.in_entry { "entries" } else { "the feed" };
            Bozo::new(
                BozoKind::DoubleEncoded,
                format!(
                    "{} in {place}: {} value(s) read as UTF-8 encoded twice and repaired \
                     (the first: {:?} became {:?})",
                    f.name, f.count, f.before, f.after
                ),
            )
            .judged()
        });
        let others = (self.others > 0).then(|| {
            Bozo::new(
                BozoKind::DoubleEncoded,
                format!(
                    "{} more value(s) of other fields read as UTF-8 encoded twice and repaired",
                    self.others
                ),
            )
            .judged()
        });
        named.chain(others)
    }
}

/// `s` cut to its first `max` characters (an ellipsis added when cut).
fn shown(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &s[..end]),
        None => s.to_owned(),
    }
}

/// The part of an inline XHTML text feedparser keeps, as byte bounds: the whitespace-only
/// pieces at both ends dropped, then a `div` that wraps all the rest. `marks` are where
/// each piece starts (at least two; a tag or a run of text each). Pieces are read by
/// their index, with no list of them: a text may have millions.
pub(super) fn xhtml_unwrapped(text: &str, marks: &[usize]) -> (usize, usize) {
    let end_of = |i: usize| marks.get(i + 1).copied().unwrap_or(text.len());
    let piece = |i: usize| &text[marks[i]..end_of(i)];
    let mut last = marks.len();
    while last > 1 && piece(last - 1).trim().is_empty() {
        last -= 1;
    }
    let first = (0..last)
        .position(|i| !piece(i).trim().is_empty())
        .unwrap_or(0)
        .min(last - 1);
    let (head, tail) = (piece(first), piece(last - 1));
    if last - first >= 2 && (head == "<div>" || head.starts_with("<div ")) && tail == "</div>" {
        // The div wraps the rest unless it closes before the last piece.
        let mut depth = 0i64;
        for i in first..last - 1 {
            let p = piece(i);
            if p.starts_with("</") {
                depth -= 1;
                if depth == 0 {
                    return (marks[first], end_of(last - 1));
                }
            } else if p.starts_with('<') && !p.ends_with("/>") {
                depth += 1;
            }
        }
        return (end_of(first), marks[last - 1]);
    }
    (marks[first], end_of(last - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_quotes_replace_in_pythons_order() {
        for (s, want) in [
            ("", ""),
            ("no references", "no references"),
            ("&quot;&apos;&#x2f;&#x2F;&#X2F;&#34;", "\"'//&#X2F;&#34;"),
            ("&amp;quot; &quot;quot;", "&amp;quot; \"quot;"),
            ("&&quot;;", "&\";"),
        ] {
            assert_eq!(lenient_quotes(s.to_owned()), want, "{s}");
        }
    }

    #[test]
    fn html_guess() {
        assert!(looks_like_html("<b>bold</b>", None));
        assert!(looks_like_html("a &amp; b", None));
        assert!(!looks_like_html("a < b", None));
        assert!(!looks_like_html("<foo>x</foo>", None));
        assert!(!looks_like_html("plain", None));
        assert!(looks_like_html("Caf&eacute;", None));
        assert!(looks_like_html("Za&zdot;&oacute;&lstrok;&cacute;", None));
        assert!(looks_like_html("<b>&Vcy;</b> &AMP;", None));
        assert!(!looks_like_html("a &bogus; b", None));
        assert!(!looks_like_html("&Vcy; &bogus;", None));
        assert!(!looks_like_html("&VCY;", None));
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

    #[test]
    fn xhtml_unwrapped_drops_blank_ends_and_a_wrapping_div() {
        let cut = |pieces: &[&str]| {
            let text: String = pieces.concat();
            let mut marks = Vec::new();
            let mut at = 0;
            for p in pieces {
                marks.push(at);
                at += p.len();
            }
            let (lo, hi) = super::xhtml_unwrapped(&text, &marks);
            text[lo..hi].to_owned()
        };
        assert_eq!(cut(&["\n ", "<div>", "a", "</div>", " "]), "a");
        assert_eq!(
            cut(&["<div class=\"x\">", "<b>", "a", "</b>", "</div>"]),
            "<b>a</b>"
        );
        // A div that closes early wraps nothing: both are kept.
        assert_eq!(
            cut(&["<div>", "a", "</div>", "<div>", "b", "</div>"]),
            "<div>a</div><div>b</div>"
        );
        assert_eq!(cut(&["<p>", "a", "</p>"]), "<p>a</p>");
        assert_eq!(cut(&[" ", "\t"]), " ");
    }
}
