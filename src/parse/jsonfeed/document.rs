//! Reading a JSON Feed document's text: the first JSON value checked exactly as reading
//! it into values would check it, without building it ([`read`]); a broken document cut
//! back to its last complete member and closed ([`repairs`]); the checked top-level
//! object's members as slices of the text ([`Document`]), and an array's elements handed
//! out one at a time ([`each_element`]), so that an item is only read into values when
//! its turn comes.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::bozo::{Bozo, BozoKind, Position};

/// The byte offset of serde_json's 1-based line and column in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut off = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(off) {
        off -= 1;
    }
    off
}

/// Deepest nesting [`repairs`] follows (serde_json's own limit is 128).
const REPAIR_DEPTH: usize = 128;

/// Ways to cut a broken document short before byte `end` and close it: the latest
/// points (at most 8) where a member or element had just ended or a container had just
/// opened, each with the closing brackets it needs. This scans brackets and strings
/// only; the result is parsed by serde_json like any document.
fn repairs(text: &str, end: usize) -> impl Iterator<Item = String> + '_ {
    let bytes = &text.as_bytes()[..end.min(text.len())];
    let mut stack: Vec<u8> = Vec::new();
    let mut cuts: Vec<(usize, String)> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let closers = |stack: &[u8]| -> String {
        stack
            .iter()
            .rev()
            .map(|&b| if b == b'{' { '}' } else { ']' })
            .collect()
    };
    let note = |cuts: &mut Vec<(usize, String)>, at: usize, stack: &[u8]| {
        if cuts.len() == 8 {
            cuts.remove(0);
        }
        cuts.push((at, closers(stack)));
    };
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                if stack.len() >= REPAIR_DEPTH {
                    cuts.clear();
                    break;
                }
                stack.push(b);
                note(&mut cuts, i + 1, &stack);
            }
            b'}' | b']' => {
                stack.pop();
                if !stack.is_empty() {
                    note(&mut cuts, i + 1, &stack);
                }
            }
            b',' if !stack.is_empty() => note(&mut cuts, i, &stack),
            _ => {}
        }
    }
    // Each candidate is built only when the one before it did not read: a copy of a
    // long document at a time, not eight.
    cuts.into_iter().rev().map(move |(at, close)| {
        let mut s = String::with_capacity(at + close.len());
        s.push_str(text[..at].trim_end());
        s.push_str(&close);
        s
    })
}

/// Reads the document: the first JSON value, with records for a syntax error (then the
/// longest readable repair is used) or trailing text. The value is only checked here,
/// not built ([`Checked`]): its text comes back (a slice of `text`, or the repaired
/// copy), to be read one member at a time ([`Document`]).
pub(super) fn read<'t>(text: &'t str, bozo: &mut Vec<Bozo>) -> Option<Cow<'t, str>> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Checked>();
    match stream.next() {
        Some(Ok(Checked)) => {
            let end = stream.byte_offset();
            let rest = &text[end..];
            if let Some(i) = rest.find(|c: char| !c.is_whitespace()) {
                bozo.push(
                    Bozo::new(
                        BozoKind::InvalidJson,
                        "extra data after the JSON document (ignored)",
                    )
                    .at(Position::in_text(text, end + i)),
                );
            }
            Some(Cow::Borrowed(
                text[..end].trim_start_matches([' ', '\t', '\n', '\r']),
            ))
        }
        None => {
            bozo.push(Bozo::new(BozoKind::InvalidJson, "empty JSON document"));
            None
        }
        Some(Err(e)) => {
            let off = offset_of(text, e.line(), e.column());
            bozo.push(
                Bozo::new(BozoKind::InvalidJson, format!("invalid JSON: {e}"))
                    .at(Position::in_text(text, off)),
            );
            repairs(text, off)
                .find(|doc| serde_json::from_str::<Checked>(doc).is_ok())
                .map(Cow::Owned)
        }
    }
}

/// A JSON value read and thrown away: the document is checked exactly as reading it
/// into a [`Value`] would check it (escapes and surrogates, numbers in range, nesting
/// at most serde_json's 128 levels), without building it. (serde_json's own `RawValue`
/// and `IgnoredAny` skip strings and numbers unchecked and set no depth limit.)
struct Checked;

impl<'de> serde::Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> serde::de::Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        while map.next_entry::<Checked, Checked>()?.is_some() {}
        Ok(Checked)
    }
}

/// A checked document's top-level object, each member still its raw text: the feed's
/// members are read into values, and the items one at a time as they are mapped, so
/// that a long feed is never held as one tree of values.
pub(super) struct Document<'d> {
    members: BTreeMap<String, &'d RawValue>,
}

impl<'d> Document<'d> {
    /// The top-level object of checked JSON text; else the name of what it is instead.
    pub(super) fn of(doc: &'d str) -> Result<Self, &'static str> {
        serde_json::from_str(doc)
            .map(|members| Document { members })
            .map_err(|_| raw_type_name(doc))
    }

    /// A member's value. (The document was checked, so it reads.)
    pub(super) fn value(raw: &RawValue) -> Value {
        serde_json::from_str(raw.get()).unwrap_or(Value::Null)
    }

    /// The `items` member, still its raw text.
    pub(super) fn items(&mut self) -> Option<&'d RawValue> {
        self.members.remove("items")
    }

    /// Every member but `items`, as values.
    pub(super) fn members(self) -> Map<String, Value> {
        self.members
            .into_iter()
            .map(|(k, raw)| {
                let v = Self::value(raw);
                (k, v)
            })
            .collect()
    }
}

/// Hands each element of a checked array's text to `each` (its index and raw text), in
/// order, as it is reached: the elements are never all held, not even as slices. `each`
/// returns `false` to stop. `Err` names what the text is when it is not an array.
pub(super) fn each_element<'d>(
    array: &'d str,
    each: impl FnMut(usize, &'d RawValue) -> bool,
) -> Result<(), &'static str> {
    struct Elements<F> {
        each: F,
        stopped: bool,
    }
    impl<'de, F: FnMut(usize, &'de RawValue) -> bool> serde::de::Visitor<'de> for &mut Elements<F> {
        type Value = ();

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an array")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut i = 0;
            while let Some(raw) = seq.next_element::<&'de RawValue>()? {
                if !(self.each)(i, raw) {
                    // Leaving the rest unread makes the array an error to serde_json,
                    // which `stopped` tells apart.
                    self.stopped = true;
                    return Ok(());
                }
                i += 1;
            }
            Ok(())
        }
    }
    let mut elements = Elements {
        each,
        stopped: false,
    };
    let mut de = serde_json::Deserializer::from_str(array);
    match serde::Deserializer::deserialize_seq(&mut de, &mut elements) {
        Ok(()) => Ok(()),
        Err(_) if elements.stopped => Ok(()),
        Err(_) => Err(raw_type_name(array)),
    }
}

/// [`super::type_name`] of a checked value's text, without reading it.
fn raw_type_name(raw: &str) -> &'static str {
    match raw.trim_start().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') | None => "null",
        Some(_) => "a number",
    }
}
