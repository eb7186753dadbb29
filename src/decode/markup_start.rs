//! Whether a decoded text can start a document: the one look at markup the decode stage
//! takes, so that a candidate encoding which decodes without error but yields no markup
//! at all is a failed candidate, not a winner.
//!
//! A label of the wrong width decodes without error more often than not: UTF-16 reads any
//! even number of ASCII-compatible bytes as CJK characters, and an ISO-8859 page reads
//! any bytes at all. The strict decoders cannot see that; the text can. A document in its
//! right encoding has markup within its first characters: a `<` followed by a name
//! (`<rss`, `<feed`), `?` (the XML declaration) or `!` (a comment, a DOCTYPE), after
//! at most some white space, a BOM, or some junk a server wrote before it. UTF-8 read as
//! UTF-16 has no `<` at all (U+003C would need a zero byte beside `3C`), and neither has
//! UTF-16 read as UTF-16 of the other byte order, nor ASCII read as EBCDIC.
//!
//! The look is bounded ([`WINDOW`] characters) and linear, and it judges nothing else:
//! a text with markup in its window passes whatever follows, and an empty or blank text
//! passes (every candidate reads it alike). Text read as bytes of a narrower encoding
//! (UTF-16 as windows-1252: `<\0r\0s\0s\0`) is the chain's U+0000 rule, not this one.

/// How many characters of a decoded text are searched for markup.
pub(crate) const WINDOW: usize = 4096;

/// Why `text` cannot start a document, as a sentence for the decision trail; `None` when
/// it can (markup within its first [`WINDOW`] characters, or no text but white space).
pub(crate) fn refusal(text: &str) -> Option<String> {
    let text = text.trim_start_matches('\u{FEFF}');
    // Markup in the first WINDOW bytes is within the first WINDOW characters: found
    // without counting characters (a document's markup mostly starts at its first byte).
    let head = &text.as_bytes()[..text.len().min(WINDOW)];
    if memchr::memchr_iter(b'<', head)
        .any(|at| text[at + 1..].chars().next().is_some_and(starts_markup))
    {
        return None;
    }
    let end = text
        .char_indices()
        .nth(WINDOW)
        .map_or(text.len(), |(i, _)| i);
    let window = &text[..end];
    if window.trim().is_empty() {
        return None;
    }
    let opens = memchr::memchr_iter(b'<', window.as_bytes())
        .any(|at| text[at + 1..].chars().next().is_some_and(starts_markup));
    if opens {
        return None;
    }
    let chars = if end == text.len() {
        format!("in its {} characters", window.chars().count())
    } else {
        format!("in its first {WINDOW} characters")
    };
    Some(format!(
        "the text cannot start a document: no markup (`<` and a name, `?` or `!`) {chars}"
    ))
}

/// Whether `c`, after a `<`, begins markup: an element name, a processing instruction
/// or a declaration (comment, DOCTYPE, CDATA).
fn starts_markup(c: char) -> bool {
    c.is_ascii_alphabetic()
        || matches!(c, '_' | ':' | '?' | '!')
        || !c.is_ascii() && c.is_alphabetic()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_in_their_own_encoding_start() {
        let starts = [
            "<rss version='2.0'/>",
            "<?xml version='1.0'?><feed/>",
            "\u{FEFF}<rss/>",
            " \r\n\t <rss/>",
            "<!-- generated --><rss/>",
            "<!DOCTYPE rss [<!ENTITY a 'b'>]><rss/>",
            "<:x/>",
            "<_x/>",
            "<новости/>",
            "<日本/>",
            "Warning: cannot modify header information in feed.php on line 3\n<?xml version='1.0'?>",
            "",
            "  \n ",
            "\u{FEFF}",
        ];
        for text in starts {
            assert_eq!(refusal(text), None, "{text:?}");
        }
    }

    #[test]
    fn text_without_markup_cannot_start() {
        let utf8_as_utf16: String = b"<?xml version=\"1.0\" encoding=\"utf-16\"?><rss/>\n"
            .chunks(2)
            .map(|p| char::from_u32(u32::from(u16::from_le_bytes([p[0], p[1]]))).unwrap_or('?'))
            .collect();
        let refused = [
            utf8_as_utf16.as_str(),
            "plain text, no markup",
            "a < b and c > d",
            "< rss>",
            "<1/>",
            "</>",
        ];
        for text in refused {
            let why = refusal(text).unwrap_or_else(|| panic!("{text:?} accepted"));
            assert!(why.contains("no markup"), "{why}");
        }
    }

    #[test]
    fn only_the_window_is_searched() {
        let late = format!("{}<rss/>", "x".repeat(WINDOW));
        assert!(
            refusal(&late)
                .is_some_and(|w| w.ends_with(&format!("in its first {WINDOW} characters")))
        );
        let just_in = format!("{}<rss/>", "é".repeat(WINDOW - 1));
        assert_eq!(refusal(&just_in), None);
        assert_eq!(
            refusal("abc")
                .as_deref()
                .map(|w| w.ends_with("in its 3 characters")),
            Some(true)
        );
    }
}
