//! The lenient pass: a tolerant tokenizer that never fails. It reports tags exactly as
//! written (no invented closes), keeps bare `&` and unknown entities literally, resolves
//! numeric, XML, HTML5 and safe DTD entities, and skips comments, processing instructions
//! and declarations. A truncated construct at the end of the text is dropped.

use std::borrow::Cow;

use super::Attrs;
use super::driver::Driver;
use super::text::{char_ref, xml_entity};
use crate::entities::html_entity;

fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == ':'
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '_' | ':' | '-' | '.')
        || (c as u32) >= 0xb7 && !c.is_whitespace()
}

/// Decodes entities in `s` (attribute values): known ones resolved, others literal.
pub(super) fn decode_attr(s: &str, driver: &mut Driver<'_>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        match entity_at(after, driver) {
            Some((text, len, _)) => {
                out.push_str(&text);
                rest = &after[len..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Resolves an entity reference at the start of `s` (which starts with `&`): the text,
/// the length consumed, and whether it was recognised (unknown ones come back literally
/// as raw markup).
fn entity_at(s: &str, driver: &mut Driver<'_>) -> Option<(String, usize, bool)> {
    let body = &s[1..];
    let end = body
        .find(|c: char| !(c.is_alphanumeric() || c == '#' || c == '_' || c == '.' || c == '-'))?;
    if end == 0 || body.as_bytes()[end] != b';' {
        return None;
    }
    let name = &body[..end];
    let len = end + 2;
    if name.starts_with('#') {
        return char_ref(name).map(|c| (c.to_string(), len, true));
    }
    if let Some(v) = xml_entity(name) {
        return Some((v.to_owned(), len, true));
    }
    if let Some(v) = driver.entity(name) {
        return Some((v, len, true));
    }
    if let Some(v) = html_entity(name) {
        return Some((v.into_owned(), len, true));
    }
    Some((format!("&{name};"), len, false))
}

/// A reference `&name;` that a tokenizer (the streaming reader's quick-xml) has already
/// cut out, resolved as [`entity_at`] resolves it: the text and whether it was recognised
/// (an unknown one comes back as written, to be kept as raw markup).
pub(super) fn reference(name: &str, driver: &mut Driver<'_>) -> (String, bool) {
    let written = format!("&{name};");
    match entity_at(&written, driver) {
        Some((text, len, known)) if len == written.len() => (text, known),
        // Not a reference this pass would take (`&#xZZ;`): literal text.
        _ => (written, true),
    }
}

fn parse_attrs<'a>(s: &'a str, driver: &mut Driver<'_>) -> Attrs<'a> {
    let mut attrs = Vec::new();
    let mut rest = s;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if rest.is_empty() {
            break;
        }
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '/' || c == '"' || c == '\'')
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        if name.is_empty() {
            // A stray quote: skip one character.
            let mut chars = rest.chars();
            chars.next();
            rest = chars.as_str();
            continue;
        }
        let value;
        if let Some(after_eq) = rest.strip_prefix('=') {
            let after_eq = after_eq.trim_start();
            if let Some(q) = after_eq.chars().next().filter(|&c| c == '"' || c == '\'') {
                let inner = &after_eq[1..];
                let end = inner.find(q).unwrap_or(inner.len());
                value = decode_attr(&inner[..end], driver);
                rest = inner.get(end + 1..).unwrap_or("");
            } else {
                let end = after_eq.find(char::is_whitespace).unwrap_or(after_eq.len());
                value = decode_attr(&after_eq[..end], driver);
                rest = &after_eq[end..];
            }
        } else if name.contains(':') || name.starts_with("xmlns") {
            value = String::new();
        } else {
            value = name.to_owned();
        }
        if attrs.len() == driver.options.max_attributes {
            driver.note_limit(super::limits::Limit::Attributes);
            break;
        }
        attrs.push((Cow::Borrowed(name), Cow::Owned(value)));
    }
    attrs
}

/// Finds the end of a tag (`>` outside quotes); `None` when the text ends first. A quote
/// left open ends at the next `<` (the tag then ends at its first `>`), which keeps the
/// scan linear on hostile input.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote: Option<u8> = None;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) if b == b'<' => return Some(s[..i].find('>').unwrap_or(i)),
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'>' => return Some(i),
                // A new tag starts before this one closed: end it here.
                b'<' => return Some(i),
                _ => {}
            },
        }
    }
    if quote.is_some() { s.find('>') } else { None }
}

/// Runs the tolerant tokenizer over `text`, driving `driver` (a fresh one, or the strict
/// pass's where it stopped, which reads on as a lenient one from here: its events are no
/// longer checked as the strict pass checks them, line ends are normalised here, and the
/// builder reads text values as feedparser's lenient parser does).
pub(crate) fn run(text: &str, driver: &mut Driver<'_>) {
    driver.strict = false;
    driver.no_cr = false;
    driver.builder.lenient = true;
    let mut i = 0;
    let len = text.len();
    while i < len {
        let rest = &text[i..];
        let Some(j) = rest.find(['<', '&']) else {
            driver.text(rest, true);
            break;
        };
        if j > 0 {
            driver.text(&rest[..j], true);
        }
        i += j;
        let rest = &text[i..];
        if rest.starts_with('&') {
            match entity_at(rest, driver) {
                Some((t, n, known)) => {
                    driver.text(&t, known);
                    i += n;
                }
                None => {
                    driver.text("&", true);
                    i += 1;
                }
            }
            continue;
        }
        // rest starts with '<'
        if let Some(r) = rest.strip_prefix("<!--") {
            i += 4 + r.find("-->").map_or(r.len(), |e| e + 3);
            continue;
        }
        if let Some(r) = rest.strip_prefix("<![CDATA[") {
            let end = r.find("]]>").unwrap_or(r.len());
            driver.text(&r[..end], true);
            i += 9 + (end + 3).min(r.len());
            continue;
        }
        if rest.starts_with("<!") {
            // Declarations; a DOCTYPE may carry an internal subset in brackets.
            let b = rest.as_bytes();
            let mut k = 2;
            let mut bracket = 0i32;
            while k < b.len() {
                match b[k] {
                    b'[' => bracket += 1,
                    b']' => bracket -= 1,
                    b'>' if bracket <= 0 => break,
                    _ => {}
                }
                k += 1;
            }
            i += (k + 1).min(rest.len());
            continue;
        }
        if let Some(r) = rest.strip_prefix("<?") {
            i += 2 + r.find('>').map_or(r.len(), |e| e + 1);
            continue;
        }
        if let Some(r) = rest.strip_prefix("</") {
            let name_len = r.find(|c: char| !is_name_char(c)).unwrap_or(r.len());
            if name_len > 0 && r[..name_len].starts_with(is_name_start) {
                let Some(end) = tag_end(r) else { break };
                driver.end(&r[..name_len]);
                i += 2 + end + usize::from(r.as_bytes()[end] == b'>');
                continue;
            }
            driver.text("<", true);
            i += 1;
            continue;
        }
        let r = &rest[1..];
        if r.starts_with(is_name_start) {
            let name_len = r.find(|c: char| !is_name_char(c)).unwrap_or(r.len());
            let Some(end) = tag_end(r) else { break };
            let name = &r[..name_len];
            let inner = &r[name_len..end];
            let self_closing = inner.trim_end().ends_with('/');
            let attrs = parse_attrs(inner, driver);
            let _ = driver.start(name, attrs);
            if self_closing || driver.void_in_content(name) {
                driver.end(name);
            }
            i += 1 + end + usize::from(r.as_bytes()[end] == b'>');
            continue;
        }
        driver.text("<", true);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_str_lenient;
    use crate::parse::ParseOptions;

    fn title(text: &str) -> Option<String> {
        parse_str_lenient(text, &ParseOptions::default())
            .feed
            .title
            .map(|t| t.to_string())
    }

    #[test]
    fn entities_known_unknown_and_bare() {
        assert_eq!(
            title("<rss><channel><title>a&eacute;&#233;&#xE9;</title></channel></rss>").as_deref(),
            Some("aééé")
        );
        assert_eq!(
            title("<rss><channel><title>a &zork; b</title></channel></rss>").as_deref(),
            Some("a &zork; b")
        );
        assert_eq!(
            title("<rss><channel><title>a & b &c</title></channel></rss>").as_deref(),
            Some("a & b &c")
        );
    }

    #[test]
    fn comments_pis_doctype_and_cdata() {
        let t = "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e 'v'>]><!-- c --><rss><channel><title><![CDATA[<x>]]>y</title></channel></rss>";
        assert_eq!(title(t).as_deref(), Some("<x>y"));
    }

    #[test]
    fn unquoted_and_valueless_attributes() {
        let r = parse_str_lenient(
            "<feed xmlns='http://www.w3.org/2005/Atom'><link href=http://a/ rel=alternate></feed>",
            &ParseOptions::default(),
        );
        assert_eq!(r.feed.link.as_deref(), Some("http://a/"));
    }

    #[test]
    fn unbalanced_quote_does_not_swallow_the_document() {
        let r = parse_str_lenient(
            "<rss><channel><title>T</title><item><link href=\"x>L</link><title>A</title></item></channel></rss>",
            &ParseOptions::default(),
        );
        assert_eq!(r.feed.title.as_deref(), Some("T"));
        assert_eq!(r.entries[0].title.as_deref(), Some("A"));
    }

    #[test]
    fn line_ends_are_normalised() {
        let r = parse_str_lenient(
            "<rss><channel><item><description>a\r\nb\rc</description></item>&",
            &ParseOptions::default(),
        );
        assert_eq!(r.entries[0].summary.as_deref(), Some("a\nb\nc"));
    }

    #[test]
    fn stray_lt_and_truncated_tag() {
        assert_eq!(
            title("<rss><channel><title>1 < 2</title></channel><ite").as_deref(),
            Some("1 < 2")
        );
    }

    #[test]
    fn unmatched_end_tags_are_ignored_and_open_ones_closed() {
        let r = parse_str_lenient(
            "<rss><channel><item><title>A</bogus></item><item><title>B",
            &ParseOptions::default(),
        );
        assert_eq!(r.entries.len(), 2);
        assert_eq!(r.entries[0].title.as_deref(), Some("A"));
        assert_eq!(r.entries[1].title.as_deref(), Some("B"));
    }
}
