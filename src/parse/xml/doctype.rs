//! What the prolog's DOCTYPE declares: feedparser's `rss091n` marker for a Netscape
//! DOCTYPE, and the internal entities it honours (only in feedparser's "safe" form, plain
//! text or one character reference, which cannot nest), expanded within
//! [`crate::parse::ParseOptions::max_entity_expansion`]. No DTD or external entity is ever fetched.

use std::collections::HashMap;

use super::driver::Driver;
use super::limits::Limit;
use super::text;

/// What the DOCTYPE told us: feedparser's `rss091n` marker and the safe entities.
#[derive(Default)]
pub(crate) struct Doctype {
    pub(super) version: Option<&'static str>,
    pub(super) entities: HashMap<String, String>,
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Reads the prolog up to the root element: a Netscape DOCTYPE means `rss091n`; entity
/// declarations whose value is plain text or one character reference are kept.
pub(super) fn scan_doctype(text: &str) -> Doctype {
    let b = text.as_bytes();
    let mut head_end = b.len();
    for i in 0..b.len().saturating_sub(1) {
        if b[i] == b'<'
            && (b[i + 1].is_ascii_alphanumeric() || b[i + 1] == b'_' || b[i + 1] >= 0x80)
        {
            head_end = i;
            break;
        }
    }
    let head = &text[..head_end];
    let mut dt = Doctype::default();
    let lower = head.to_ascii_lowercase();
    let mut doctypes = 0;
    let mut search = 0;
    let mut netscape = false;
    while let Some(i) = lower[search..].find("<!doctype") {
        let start = search + i;
        let end = lower[start..].find('>').map_or(lower.len(), |e| start + e);
        if doctypes == 0 && lower[start..end].contains("netscape") {
            netscape = true;
        }
        doctypes += 1;
        search = end.max(start + 1);
    }
    if netscape {
        dt.version = Some("rss091n");
    }
    if doctypes == 1 {
        let mut search = 0;
        while let Some(i) = head[search..].find("<!ENTITY") {
            let start = search + i + 8;
            let end = head[start..].find('>').map_or(head.len(), |e| start + e);
            if let Some((name, value)) = safe_entity(&head[start..end]) {
                dt.entities.entry(name).or_insert(value);
            }
            search = end;
        }
    }
    dt
}

/// `\s+(\w+)\s+"(&#\w+;|[^&"]*)"` over an entity declaration body.
fn safe_entity(body: &str) -> Option<(String, String)> {
    let b = body.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
        *i > s
    };
    if !ws(&mut i) {
        return None;
    }
    let s = i;
    while i < b.len() && is_word_byte(b[i]) {
        i += 1;
    }
    if i == s {
        return None;
    }
    let name = &body[s..i];
    if !ws(&mut i) || i >= b.len() || b[i] != b'"' {
        return None;
    }
    let rest = &body[i + 1..];
    let close = rest.find('"')?;
    let value = &rest[..close];
    if value.contains('&') {
        let inner = value.strip_prefix("&#")?.strip_suffix(';')?;
        if inner.is_empty() || !inner.bytes().all(is_word_byte) {
            return None;
        }
    }
    Some((name.to_owned(), value.to_owned()))
}

/// Expands a safe entity value (plain text or one character reference).
fn expand_safe(value: &str) -> String {
    if let Some(body) = value.strip_prefix('&').and_then(|v| v.strip_suffix(';'))
        && let Some(c) = text::char_ref(body)
    {
        return c.to_string();
    }
    value.to_owned()
}

impl<'o> Driver<'o> {
    /// Expands a DTD-declared entity within the budget; beyond it the reference stays
    /// as written (`&name;`, as text) and a `LimitExceeded` record is added. `None` when
    /// no such entity was declared.
    pub(super) fn entity(&mut self, name: &str) -> Option<String> {
        let v = self.entities.get(name)?;
        let out = expand_safe(v);
        if self.expanded + out.len() > self.options.max_entity_expansion {
            self.note_limit(Limit::EntityExpansion);
            return Some(format!("&{name};"));
        }
        self.expanded += out.len();
        Some(out)
    }
}
