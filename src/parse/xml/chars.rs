//! XML 1.0's characters and names, checked on bytes where it pays: the whole-text
//! character check runs once before the strict pass, 32 bytes at a time.

pub(super) fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// A (simplified) XML `Name`: a letter, `_`, `:` or non-ASCII first, then name characters.
pub(super) fn is_xml_name(s: &str) -> bool {
    /// For each byte: 2 when it may start an ASCII name, 1 when it may only continue
    /// one, 0 otherwise (non-ASCII bytes take the slow path below).
    const NAME: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut c = 0;
        while c < 128 {
            let b = c as u8;
            if b.is_ascii_alphabetic() || b == b'_' || b == b':' {
                t[c] = 2;
            } else if b.is_ascii_digit() || b == b'-' || b == b'.' {
                t[c] = 1;
            }
            c += 1;
        }
        t
    };
    if let [first, rest @ ..] = s.as_bytes() {
        // One pass: a non-ASCII byte is 0 in the table, so an ASCII name is accepted
        // here and any other goes on to the character test.
        if NAME[usize::from(*first)] == 2 && rest.iter().all(|&c| NAME[usize::from(c)] != 0) {
            return true;
        }
        if s.is_ascii() {
            return false;
        }
    }
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':' || !c.is_ascii())
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | ':') || !c.is_ascii())
}

/// The first character of `s` that XML 1.0 does not allow. Works on bytes: the only
/// excluded characters a `str` can hold are the C0 controls other than tab, newline and
/// carriage return (one byte each) and U+FFFE/U+FFFF (`EF BF BE`/`EF BF BF`), so 32-byte
/// blocks free of both kinds of byte are skipped without decoding.
pub(super) fn first_non_xml_char(s: &str) -> Option<char> {
    scan_text(s, false).0
}

/// [`first_non_xml_char`], and (when `cdata_end`) whether `s` holds `]]>`, in one pass:
/// `]` joins the suspect bytes, so the usual block free of all three costs one test.
pub(super) fn scan_text(s: &str, cdata_end: bool) -> (Option<char>, bool) {
    // Branch-free so that the block test vectorizes.
    let bracket = if cdata_end { b']' } else { 0 };
    // (Without `cdata_end`, `bracket` is NUL, a suspect byte anyway.)
    let suspect = |c: u8| {
        (c < 0x20) & (c != b'\t') & (c != b'\n') & (c != b'\r') | (c == 0xef) | (c == bracket)
    };
    let any = |block: &[u8]| block.iter().fold(0u8, |acc, &c| acc | u8::from(suspect(c))) != 0;
    let b = s.as_bytes();
    let mut end_seen = false;
    let mut exact = |from: usize, to: usize| {
        for j in from..to {
            let c = b[j];
            if c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r') {
                return Some(char::from(c));
            }
            if c == 0xef && b.get(j + 1) == Some(&0xbf) && matches!(b.get(j + 2), Some(0xbe | 0xbf))
            {
                return s[j..].chars().next();
            }
            if cdata_end && c == b']' && b[j..].starts_with(b"]]>") {
                end_seen = true;
            }
        }
        None
    };
    let mut blocks = b.chunks_exact(32);
    let mut at = 0;
    for block in &mut blocks {
        if any(block)
            && let Some(c) = exact(at, at + 32)
        {
            return (Some(c), end_seen);
        }
        at += 32;
    }
    if any(blocks.remainder()) {
        return (exact(at, b.len()), end_seen);
    }
    (None, end_seen)
}

/// Whether `s` holds `]]>`: a search for `]` (absent from almost every text), each hit
/// checked in place.
pub(super) fn holds_cdata_end(s: &str) -> bool {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr(b']', &b[from..]) {
        if b[from + i..].starts_with(b"]]>") {
            return true;
        }
        from += i + 1;
    }
    false
}

/// The strict pass's message for `]]>` in character data.
pub(super) const CDATA_END_IN_TEXT: &str = "not well-formed (invalid token): `]]>` in text";

pub(super) fn check_text(s: &str) -> Result<(), String> {
    match first_non_xml_char(s) {
        Some(c) => Err(invalid_char(c)),
        None => Ok(()),
    }
}

pub(super) fn invalid_char(c: char) -> String {
    format!(
        "not well-formed (invalid token): character U+{:04X}",
        c as u32
    )
}

/// quick-xml's whitespace (XML's `S`).
pub(super) fn is_xml_space(c: u8) -> bool {
    matches!(c, b' ' | b'\r' | b'\n' | b'\t')
}
