//! The tokenizer's small readers: attribute values and their normalisation, the ends of
//! names, tags, comments, marked sections and declarations.

use super::*;

/// feedparser's attribute normalisation: names lower-cased, the last of duplicates
/// kept, `rel` and `type` values lower-cased, sorted by name.
pub(super) fn normalize_attrs(mut attrs: Vec<HAttr<'_>>) -> Vec<HAttr<'_>> {
    for (k, v) in &mut attrs {
        if k.bytes().any(|c| c.is_ascii_uppercase()) {
            *k = Cow::Owned(k.to_lowercase());
        }
        if matches!(&**k, "rel" | "type") && v.bytes().any(|c| c.is_ascii_uppercase() || c >= 0x80)
        {
            *v = Cow::Owned(v.to_lowercase());
        }
    }
    crate::pairs::sort_keep_last(&mut attrs);
    attrs
}

/// An attribute value as feedparser writes it: `<`, `>`, `"` escaped, and every `&` that
/// does not start a reference.
pub(super) fn push_attr_value(out: &mut String, v: &str) {
    let b = v.as_bytes();
    let mut copied = 0;
    let mut from = 0;
    // From one byte that may need an escape to the next (a URL has one or two `&`).
    while let Some(off) = crate::bytes::find4(*b"<>\"&", &b[from..]) {
        let i = from + off;
        from = i + 1;
        let rep = match b[i] {
            b'>' => "&gt;",
            b'<' => "&lt;",
            b'"' => "&quot;",
            _ if starts_reference(&v[i + 1..]) => continue,
            _ => "&amp;",
        };
        out.push_str(&v[copied..i]);
        out.push_str(rep);
        copied = i + 1;
    }
    out.push_str(&v[copied..]);
}

pub(super) fn escape_attr(v: &str) -> String {
    // Room for a few escapes (`&` → `&amp;` grows by four): no second allocation.
    let mut out = String::with_capacity(v.len() + 16);
    push_attr_value(&mut out, v);
    out
}

/// The length of the run of (hex) digits at the start of `s`.
pub(super) fn digit_run(s: &str, hex: bool) -> usize {
    s.bytes()
        .take_while(|c| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        })
        .count()
}

/// `#\d+;`, `#x[0-9a-fA-F]+;` or `\w+;` (after the `&`).
pub(super) fn starts_reference(s: &str) -> bool {
    if let Some(num) = s.strip_prefix('#') {
        let (digits, hex) = match num.strip_prefix('x') {
            Some(h) => (h, true),
            None => (num, false),
        };
        let len = digit_run(digits, hex);
        return len > 0 && digits[len..].starts_with(';');
    }
    let len = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
    len > 0 && s[len..].starts_with(';')
}

/// One attribute at `k` (feedparser's `attrfind`): `\s*name[$]?(\s*=\s*value)?`. Returns
/// the lower-cased name, the value (quotes removed, references normalised) and the end.
pub(super) fn attribute(raw: &str, k: usize) -> Option<(Cow<'_, str>, Cow<'_, str>, usize)> {
    let b = raw.as_bytes();
    let mut p = k + (raw[k..].len() - raw[k..].trim_start_matches(is_py_space).len());
    let name_start = p;
    if !b
        .get(p)
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
    {
        return None;
    }
    p += 1;
    while p < b.len() && (b[p].is_ascii_alphanumeric() || matches!(b[p], b'-' | b':' | b'.' | b'_'))
    {
        p += 1;
    }
    let name = &raw[name_start..p];
    if b.get(p) == Some(&b'$') {
        p += 1;
    }
    // (\s*=\s*(value))?
    let mut q = p + (raw[p..].len() - raw[p..].trim_start_matches(is_py_space).len());
    if b.get(q) != Some(&b'=') {
        return Some((lower(name), Cow::Borrowed(name), p));
    }
    q += 1;
    q += raw[q..].len() - raw[q..].trim_start_matches(is_py_space).len();
    let closing = match b.get(q) {
        Some(&quote @ (b'\'' | b'"')) => memchr::memchr(quote, &b[q + 1..]).map(|c| q + 1 + c),
        _ => None,
    };
    let (value, end) = match closing {
        Some(close) => (&raw[q + 1..close], close + 1),
        _ => {
            let mut e = q;
            while e < b.len()
                && (b[e].is_ascii_alphanumeric() || b"][-./,:;+*%?!&$()_#=~'\"@".contains(&b[e]))
            {
                e += 1;
            }
            let v = &raw[q..e];
            let quoted = |q: char| v.starts_with(q) && v.ends_with(q);
            let v = if quoted('\'') || quoted('"') {
                v.get(1..v.len() - 1).unwrap_or("")
            } else {
                v
            };
            (v, e)
        }
    };
    Some((lower(name), normalize_value_refs(value), end))
}

/// sgmllib's reference pass over an attribute value, as feedparser configures it:
/// `&#123` gains its `;`, everything else stays as written.
pub(super) fn normalize_value_refs(v: &str) -> Cow<'_, str> {
    if !v.contains("&#") {
        return Cow::Borrowed(v);
    }
    let b = v.as_bytes();
    let mut out = String::with_capacity(v.len() + 4);
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'&', &b[i..]) {
        let amp = i + off;
        if b.get(amp + 1) == Some(&b'#') {
            let mut e = amp + 2;
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            if e > amp + 2 && b.get(e) != Some(&b';') {
                out.push_str(&v[copied..e]);
                out.push(';');
                copied = e;
            }
            i = e.max(amp + 1);
        } else {
            i = amp + 1;
        }
    }
    out.push_str(&v[copied..]);
    Cow::Owned(out)
}

/// End of a short-tag name `[a-zA-Z][-.a-zA-Z0-9]*` starting at `k` (its first letter
/// already checked by the caller, or `<>`).
pub(super) fn short_name_end(b: &[u8], k: usize) -> usize {
    if !b.get(k).is_some_and(u8::is_ascii_alphabetic) {
        return k;
    }
    let mut e = k + 1;
    while e < b.len() && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'-' | b'.')) {
        e += 1;
    }
    e
}

/// Where a name of lower-case letters and digits that starts at `from` ends, when a
/// `>` follows it at once (the tags written `<name>` and `</name>`).
pub(super) fn plain_name_end(raw: &str, from: usize) -> Option<usize> {
    let b = raw.as_bytes();
    let len = b[from..]
        .iter()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .count();
    (len > 0 && b.get(from + len) == Some(&b'>')).then_some(from + len)
}

/// feedparser's `endbracket` from `k`: the `<` or `>` that ends a tag. Quoted strings
/// are skipped when what follows them fits an attribute list; otherwise the first
/// bracket on the same line counts. `None`: no end (the rest is text).
pub(super) fn end_bracket(raw: &str, k: usize) -> Option<usize> {
    let b = raw.as_bytes();
    let mut p = k;
    let first = loop {
        let Some(&c) = b.get(p) else {
            break None;
        };
        match c {
            b'<' | b'>' => break Some(p),
            b'"' | b'\'' => {
                let Some(close) = memchr::memchr(c, &b[p + 1..]) else {
                    break None;
                };
                let after = p + 1 + close + 1;
                if quote_follow_ok(raw, after) {
                    p = after;
                } else {
                    break None;
                }
            }
            _ => p += 1,
        }
    };
    first.or_else(|| {
        let line = memchr::memchr3(b'<', b'>', b'\n', &b[k..])?;
        matches!(b[k + line], b'<' | b'>').then_some(k + line)
    })
}

/// `(?=>|/|\s|\w+=)` at `p`.
pub(super) fn quote_follow_ok(raw: &str, p: usize) -> bool {
    let rest = &raw[p..];
    match rest.chars().next() {
        Some('>' | '/') => true,
        Some(c) if is_py_space(c) => true,
        Some(c) if is_word(c) => {
            let len = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
            rest[len..].starts_with('=')
        }
        _ => false,
    }
}

/// `--\s*>` from `from`: the end of the comment text and the end of the close.
pub(super) fn find_comment_close(raw: &str, from: usize) -> Option<(usize, usize)> {
    let mut search = from;
    while let Some(off) = raw[search..].find("--") {
        let dash = search + off;
        let after = &raw[dash + 2..];
        let spaces = after.len() - after.trim_start_matches(is_py_space).len();
        if after[spaces..].starts_with('>') {
            return Some((dash, dash + 2 + spaces + 1));
        }
        search = dash + 1;
    }
    None
}

/// A comment text a browser reads back as one whole comment.
pub(super) fn comment_is_safe(text: &str) -> bool {
    !text.starts_with('>')
        && !text.starts_with("->")
        && !text.contains("-->")
        && !text.contains("--!>")
        && !text.ends_with("<!-")
        && !text.ends_with("--!")
}

/// `]]>` (`]\s*]\s*>`) or `]>` (`]\s*>`) from `from`, the end of the match.
pub(super) fn find_section_close(raw: &str, from: usize, double: bool) -> Option<usize> {
    let skip = |s: &str| s.len() - s.trim_start_matches(is_py_space).len();
    let mut search = from;
    while let Some(off) = raw[search..].find(']') {
        let p = search + off + 1;
        let mut q = p + skip(&raw[p..]);
        if double {
            if raw[q..].starts_with(']') {
                q += 1;
                q += skip(&raw[q..]);
                if raw[q..].starts_with('>') {
                    return Some(q + 1);
                }
            }
        } else if raw[q..].starts_with('>') {
            return Some(q + 1);
        }
        search = p;
    }
    None
}

/// A declaration name `[a-zA-Z][-_.a-zA-Z0-9:]*\s*` at `k`: its length; `None` if there
/// is none; `Some(0)` when it runs to the end of the value (incomplete).
pub(super) fn decl_name_len(raw: &str, k: usize) -> Option<usize> {
    let b = raw.as_bytes();
    if !b.get(k).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut e = k + 1;
    while e < b.len() && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'-' | b'_' | b'.' | b':'))
    {
        e += 1;
    }
    e += raw[e..].len() - raw[e..].trim_start_matches(is_py_space).len();
    Some(if e < b.len() { e - k } else { 0 })
}
