//! A start tag's attributes: read strictly (every name and value checked as XML 1.0
//! says, values normalised; the usual tag split without quick-xml's iterator) or
//! leniently (HTML style: valueless attributes, HTML entities), and made unique.

use std::borrow::Cow;
use std::collections::HashMap;

use super::chars::{check_text, is_xml_name};
use super::driver::Driver;
use super::events::Failure;
use super::limits::Limit;
use super::{Attr, Attrs, lenient, text};

/// Attributes with unique names: a later duplicate's value replaces the first one's (as
/// in a dict), which keeps its place. Linear in the number of attributes.
pub(super) fn dedup_attrs(attrs: Attrs<'_>) -> Attrs<'_> {
    const FEW: usize = 16;
    if attrs.len() <= FEW {
        let has_dup = attrs
            .iter()
            .enumerate()
            .any(|(i, (k, _))| attrs[..i].iter().any(|(dk, _)| dk == k));
        if !has_dup {
            return attrs;
        }
    }
    // For each attribute, the position of the first one with its name.
    let mut first_of: HashMap<&str, usize> = HashMap::with_capacity(attrs.len());
    let firsts: Vec<usize> = attrs
        .iter()
        .enumerate()
        .map(|(i, (k, _))| *first_of.entry(&**k).or_insert(i))
        .collect();
    if first_of.len() == attrs.len() {
        return attrs;
    }
    drop(first_of);
    let mut slots: Vec<Option<Attr<'_>>> = Vec::with_capacity(attrs.len());
    for ((k, v), first) in attrs.into_iter().zip(firsts) {
        if first == slots.len() {
            slots.push(Some((k, v)));
        } else {
            if let Some(slot) = &mut slots[first] {
                slot.1 = v;
            }
            slots.push(None);
        }
    }
    slots.into_iter().flatten().collect()
}

/// Unescapes an attribute value strictly (XML 1.0 attribute-value normalisation).
pub(super) fn strict_attr_value<'a>(
    raw: Cow<'a, str>,
    driver: &mut Driver<'_>,
) -> Result<Cow<'a, str>, String> {
    if !raw
        .bytes()
        .any(|b| matches!(b, b'&' | b'<' | b'\t' | b'\n' | b'\r'))
    {
        // Nothing to unescape or normalize: the value as written.
        return Ok(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest: &str = &raw;
    loop {
        let Some(i) = rest
            .bytes()
            .position(|b| matches!(b, b'&' | b'<' | b'\t' | b'\n' | b'\r'))
        else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..i]);
        let c = rest.as_bytes()[i];
        match c {
            b'<' => return Err("not well-formed (invalid token): '<' in an attribute value".into()),
            b'\r' => {
                out.push(' ');
                rest = rest[i + 1..].strip_prefix('\n').unwrap_or(&rest[i + 1..]);
                continue;
            }
            b'\t' | b'\n' => {
                out.push(' ');
                rest = &rest[i + 1..];
                continue;
            }
            _ => {}
        }
        let after = &rest[i + 1..];
        let Some(semi) = after.find(';') else {
            return Err("not well-formed (invalid token): bare '&' in an attribute value".into());
        };
        let name = &after[..semi];
        if name.starts_with('#') {
            match text::strict_char_ref(name) {
                Ok(c) => out.push(c),
                Err((what, _)) => return Err(format!("{what}: &{name};")),
            }
        } else if let Some(v) = text::xml_entity(name) {
            out.push_str(v);
        } else if let Some(v) = driver.entity(name) {
            out.push_str(&v);
        } else {
            return Err(format!("undefined entity: &{name};"));
        }
        rest = &after[semi + 1..];
    }
    Ok(Cow::Owned(out))
}

fn strict_attrs<'a>(
    e: &'a quick_xml::events::BytesStart<'_>,
    driver: &mut Driver<'_>,
) -> Result<Attrs<'a>, String> {
    if !is_xml_name(e.name().as_ref()) {
        return Err(format!(
            "not well-formed (invalid token): bad element name `{}`",
            e.name().as_ref()
        ));
    }
    let raw = e.attributes_raw();
    if raw
        .bytes()
        .all(|c| matches!(c, b' ' | b'\r' | b'\n' | b'\t'))
    {
        // No attributes (most tags): nothing to split.
        return Ok(Vec::new());
    }
    let mut found = [("", ""); PLAIN_ATTRIBUTES];
    if let Some(n) = split_attributes(raw, &mut found) {
        let mut out = driver.attrs_with_capacity(n);
        for &(key, value) in &found[..n] {
            strict_attr(key, Cow::Borrowed(value), driver, &mut out)?;
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    let mut attrs = e.attributes();
    attrs.with_checks(true);
    for a in attrs {
        let a = a.map_err(|err| match err {
            quick_xml::events::attributes::AttrError::Duplicated(..) => {
                format!("duplicate attribute: {err}")
            }
            _ => format!("not well-formed (invalid token): {err}"),
        })?;
        strict_attr(a.key.0, a.value, driver, &mut out)?;
    }
    Ok(out)
}

/// One attribute of a start tag, checked strictly and added to `out` (unless past
/// [`crate::parse::ParseOptions::max_attributes`]).
fn strict_attr<'a>(
    key: &'a str,
    raw: Cow<'a, str>,
    driver: &mut Driver<'_>,
    out: &mut Attrs<'a>,
) -> Result<(), String> {
    if !is_xml_name(key) {
        return Err(format!(
            "not well-formed (invalid token): bad attribute name `{key}`"
        ));
    }
    if !driver.chars_checked {
        check_text(&raw)?;
    }
    let value = strict_attr_value(raw, driver)?;
    if out.len() == driver.options.max_attributes {
        // Still checked for well-formedness, no longer kept.
        driver.note_limit(Limit::Attributes);
        return Ok(());
    }
    out.push((Cow::Borrowed(key), value));
    Ok(())
}

/// The most attributes [`split_attributes`] reads; a tag with more goes to quick-xml.
pub(super) const PLAIN_ATTRIBUTES: usize = 16;

/// A start tag's attributes (`raw`: what follows its name) as quick-xml's iterator reads
/// them when it finds nothing wrong: each name up to `=` or whitespace, the raw value
/// between its quotes. `None` for anything else (an empty name, a missing `=` or quote, an
/// unclosed value, a name given twice, more than [`PLAIN_ATTRIBUTES`]), which quick-xml then
/// reads and words. Its iterator costs several hundred instructions per attribute and a
/// list of names per element; this reads the usual tag without either.
pub(super) fn split_attributes<'a>(
    raw: &'a str,
    found: &mut [(&'a str, &'a str); PLAIN_ATTRIBUTES],
) -> Option<usize> {
    let b = raw.as_bytes();
    let space = |c: u8| matches!(c, b' ' | b'\r' | b'\n' | b'\t');
    let skip_space = |mut i: usize| {
        while i < b.len() && space(b[i]) {
            i += 1;
        }
        i
    };
    let mut n = 0;
    let mut i = skip_space(0);
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i] != b'=' && !space(b[i]) {
            i += 1;
        }
        let key = &raw[start..i];
        i = skip_space(i);
        if key.is_empty() || b.get(i) != Some(&b'=') {
            return None;
        }
        i = skip_space(i + 1);
        let quote = *b.get(i).filter(|&&q| q == b'"' || q == b'\'')?;
        let from = i + 1;
        let len = memchr::memchr(quote, &b[from..])?;
        if n == found.len() || found[..n].iter().any(|&(k, _)| k == key) {
            return None;
        }
        found[n] = (key, &raw[from..from + len]);
        n += 1;
        i = skip_space(from + len + 1);
    }
    Some(n)
}

impl<'o> Driver<'o> {
    /// The attributes of a start tag: checked and normalised by the strict driver (the
    /// first problem fails the pass), read HTML-style by the lenient one.
    pub(super) fn quick_attrs<'a>(
        &mut self,
        e: &'a quick_xml::events::BytesStart<'_>,
    ) -> Result<Attrs<'a>, Failure> {
        if self.strict {
            return strict_attrs(e, self).map_err(Failure::Malformed);
        }
        let mut out = self.attrs_with_capacity(0);
        let mut attrs = e.html_attributes();
        attrs.with_checks(false);
        for a in attrs.flatten() {
            // A valueless attribute (HTML style) reads as empty.
            let value = lenient::decode_attr(&a.value, self);
            out.push((Cow::Borrowed(a.key.0), Cow::Owned(value)));
        }
        Ok(out)
    }
}
