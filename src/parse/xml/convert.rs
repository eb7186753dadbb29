//! The builder's conversions: a builder value ([`Value`]) moved into a typed field of
//! the model, and the [`Keys`] impls of [`Feed`] and [`Entry`], generated from the
//! model's field lists (`crate::model::feed_fields`, `entry_fields`): each key goes into
//! its field by one `match`.
//!
//! A value moves without a copy when it has the field's shape ([`FromV`]); a value of
//! another shape comes back unchanged, to be kept in `extra` exactly as feedparser would
//! hold it, so nothing is lost. A list is checked item by item before it moves
//! ([`FitsV`]).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::dict::{Item, Map as DMap, Value as DValue};
use super::record::Keys;
use crate::model::{
    CompactString, Entry, Feed, Link, Person, Podcast, PodcastElement, StructTime, Tag, Text,
    entry_fields, feed_fields,
};

/// Expands a field list of the model into its [`Keys`] impl and its constructors from a
/// dictionary.
macro_rules! typed_keys {
    (
        $(#[$meta:meta])* $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $key:literal ),* $(,)?
        }
        lists { $( $(#[$lmeta:meta])* $lfield:ident : $lty:ty = $lkey:literal ),* $(,)? }
        dates { $( $(#[$dmeta:meta])* $dfield:ident / $dparsed:ident = $dkey:literal, $pkey:literal ),* $(,)? }
        $(
            more $more:ident { $( $(#[$mmeta:meta])* $mfield:ident : $mty:ty = $mkey:literal ),* $(,)? }
            more_dates { $( $(#[$mdmeta:meta])* $mdfield:ident / $mdparsed:ident = $mdkey:literal, $mpkey:literal ),* $(,)? }
        )?
    ) => {
        /// The builder fills the typed fields in place by key (`super::record`); the
        /// boxed ones (`more`) through the box, made when one of them is first put.
        impl Keys for $name {
            fn is_direct(key: &str) -> bool {
                match key {
                    $($key => <$ty as FromV>::DIRECT,)*
                    $($lkey => true,)*
                    $($dkey | $pkey => true,)*
                    $($($mkey => <$mty as FromV>::DIRECT,)*)?
                    $($($mdkey | $mpkey => true,)*)?
                    _ => false,
                }
            }

            fn put(&mut self, key: &str, v: DValue) -> Result<(), DValue> {
                match key {
                    $(
                        $key if <$ty as FromV>::DIRECT => match <$ty as FromV>::from_built(v) {
                            Ok(t) => {
                                self.$field = Some(t);
                                Ok(())
                            }
                            Err(v) => {
                                self.$field = None;
                                Err(v)
                            }
                        },
                    )*
                    $(
                        // (The record notes a list put empty: it is written `[]`.)
                        $lkey => match <$lty as Item>::take_list(v) {
                            Ok(list) => {
                                self.$lfield = list;
                                Ok(())
                            }
                            Err(v) => {
                                self.$lfield.clear();
                                Err(v)
                            }
                        },
                    )*
                    $(
                        $dkey => match CompactString::from_v(v) {
                            Ok(t) => {
                                self.$dfield = Some(t);
                                Ok(())
                            }
                            Err(v) => {
                                self.$dfield = None;
                                Err(v)
                            }
                        },
                        $pkey => match put_parsed_v(&mut self.$dparsed, v) {
                            None => Ok(()),
                            Some(v) => {
                                self.$dparsed = None;
                                Err(v)
                            }
                        },
                    )*
                    $(
                        $(
                            $mkey if <$mty as FromV>::DIRECT => {
                                match <$mty as FromV>::from_built(v) {
                                    Ok(t) => {
                                        self.more_mut().$mfield = Some(t);
                                        Ok(())
                                    }
                                    Err(v) => {
                                        self.clear($mkey);
                                        Err(v)
                                    }
                                }
                            }
                        )*
                        $(
                            $mdkey => match CompactString::from_v(v) {
                                Ok(t) => {
                                    self.more_mut().$mdfield = Some(t);
                                    Ok(())
                                }
                                Err(v) => {
                                    self.clear($mdkey);
                                    Err(v)
                                }
                            },
                            $mpkey => {
                                let mut parsed = None;
                                match put_parsed_v(&mut parsed, v) {
                                    None => {
                                        self.more_mut().$mdparsed = parsed;
                                        Ok(())
                                    }
                                    Some(v) => {
                                        self.clear($mpkey);
                                        Err(v)
                                    }
                                }
                            }
                        )*
                    )?
                    _ => Err(v),
                }
            }

            fn has(&self, key: &str) -> bool {
                match key {
                    $($key => self.$field.is_some(),)*
                    $($lkey => !self.$lfield.is_empty(),)*
                    $(
                        $dkey => self.$dfield.is_some(),
                        $pkey => self.$dparsed.is_some(),
                    )*
                    $(
                        $($mkey => self.more.as_deref().is_some_and(|m| m.$mfield.is_some()),)*
                        $(
                            $mdkey => self.more.as_deref().is_some_and(|m| m.$mdfield.is_some()),
                            $mpkey => self.more.as_deref().is_some_and(|m| m.$mdparsed.is_some()),
                        )*
                    )?
                    _ => false,
                }
            }

            fn clear(&mut self, key: &str) {
                match key {
                    $($key => self.$field = None,)*
                    $($lkey => self.$lfield.clear(),)*
                    $(
                        $dkey => self.$dfield = None,
                        $pkey => self.$dparsed = None,
                    )*
                    $(
                        // (No box is made to clear a field.)
                        $($mkey => if let Some(m) = self.more.as_deref_mut() {
                            m.$mfield = None;
                        },)*
                        $(
                            $mdkey => if let Some(m) = self.more.as_deref_mut() {
                                m.$mdfield = None;
                            },
                            $mpkey => if let Some(m) = self.more.as_deref_mut() {
                                m.$mdparsed = None;
                            },
                        )*
                    )?
                    _ => {}
                }
            }

            fn text(&self, key: &str) -> Option<&str> {
                match key {
                    $(
                        $key => self.$field.as_ref().and_then(FieldText::text),
                    )*
                    $($dkey => self.$dfield.as_deref(),)*
                    $(
                        $(
                            $mkey => self
                                .more
                                .as_deref()
                                .and_then(|m| m.$mfield.as_ref())
                                .and_then(FieldText::text),
                        )*
                        $($mdkey => self.more.as_deref().and_then(|m| m.$mdfield.as_deref()),)*
                    )?
                    _ => None,
                }
            }

            fn absorb(
                &mut self,
                d: DMap,
                spare: &mut Option<DMap>,
            ) {
                let out = self;
                let mut pairs = d.into_pairs();
                // Typed keys move into their fields; the others stay where they are, in
                // the same buffer (an entry may hold a million unknown elements).
                pairs.retain_mut(|(k, slot)| {
                    let v = std::mem::replace(slot, DValue::Null);
                    let back = match &**k {
                        $( $key => put_v(&mut out.$field, v), )*
                        $( $lkey => put_list(&mut out.$lfield, v), )*
                        $(
                            $dkey => put_v(&mut out.$dfield, v),
                            $pkey => put_parsed_v(&mut out.$dparsed, v),
                        )*
                        // The boxed fields: put into a slot of their own first, so that
                        // the box is made only for a value that fits.
                        $(
                            $(
                                $mkey => {
                                    let mut slot = None;
                                    let back = put_v(&mut slot, v);
                                    if slot.is_some() {
                                        out.more_mut().$mfield = slot;
                                    }
                                    back
                                }
                            )*
                            $(
                                $mdkey => {
                                    let mut slot = None;
                                    let back = put_v(&mut slot, v);
                                    if slot.is_some() {
                                        out.more_mut().$mdfield = slot;
                                    }
                                    back
                                }
                                $mpkey => {
                                    let mut slot = None;
                                    let back = put_parsed_v(&mut slot, v);
                                    if slot.is_some() {
                                        out.more_mut().$mdparsed = slot;
                                    }
                                    back
                                }
                            )*
                        )?
                        _ => Some(v),
                    };
                    match back {
                        Some(v) => {
                            *slot = v;
                            true
                        }
                        None => false,
                    }
                });
                if pairs.is_empty() {
                    *spare = Some(DMap::from_empty(pairs));
                } else {
                    // Built in one go from sorted pairs, the tree's nodes are full: half
                    // the memory of inserting a hundred thousand keys one by one.
                    let extra: crate::model::Extra = pairs
                        .into_iter()
                        .map(|(k, v)| (k.into_owned(), v.into_json()))
                        .collect();
                    if out.extra.is_empty() {
                        out.extra = extra;
                    } else {
                        out.extra.extend(extra);
                    }
                }
            }
        }

        impl $name {
            /// Builds the typed value from a feedparser-shaped dictionary. Keys whose
            /// value does not fit the typed field stay in `extra` unchanged.
            #[must_use]
            pub fn from_dict(d: Map<String, Value>) -> Self {
                Self::from_builder(DMap::from_json(d))
            }

            /// As [`Self::from_dict`], from the parser's own dictionary (no `serde_json`
            /// values but for the keys that stay in `extra`): one pass, each key
            /// dispatched to its field; a value that does not fit goes to `extra`.
            pub(crate) fn from_builder(d: DMap) -> Self {
                let mut out = $name::default();
                Keys::absorb(&mut out, d, &mut None);
                out
            }
        }
    };
}

feed_fields!(typed_keys);
entry_fields!(typed_keys);

/// Whether `key` has a typed field in [`Feed`] or [`Entry`], or is one of the fixed keys
/// of their nested objects (`image`, `textinput`, `source`). (A fixed set of names can
/// never grow with the input, which is what the parser's budget for other keys is for.)
pub(crate) fn is_typed_key(key: &str) -> bool {
    Entry::has_typed_key(key)
        || Feed::has_typed_key(key)
        || matches!(
            key,
            "href"
                | "url"
                | "width"
                | "height"
                | "name"
                | "description"
                | "link"
                | "title"
                | "value"
                | "type"
                | "email"
                | "uri"
        )
}

/// A typed field's value as a string, when it is one (the builder reads the strings it
/// stored back).
trait FieldText {
    fn text(&self) -> Option<&str> {
        None
    }
}

impl FieldText for CompactString {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl FieldText for Arc<str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl FieldText for bool {}
impl FieldText for Map<String, Value> {}
impl FieldText for Podcast {}
impl<T> FieldText for Box<T> {}

/// Moves a builder value into a typed field without copying; a value of another shape
/// comes back unchanged (`Err`), so nothing is lost.
trait FromV: Sized {
    /// Whether the builder fills a field of this type in place. A JSON map (`image`,
    /// `where`, `source` …) and the Podcasting 2.0 object are built as dictionaries
    /// while their elements are read, and move into the field once the record is final.
    const DIRECT: bool = true;

    fn from_v(v: DValue) -> Result<Self, DValue>;

    /// [`FromV::from_v`] into a box (a value the builder already boxed moves as it is).
    fn from_v_boxed(v: DValue) -> Result<Box<Self>, DValue> {
        Self::from_v(v).map(Box::new)
    }

    /// [`FromV::from_v`] for a value the builder is still filling in: only in the shape
    /// its handlers read and change in place (a `Person`, a `Text`, a typed list). Any
    /// other shape waits, as it is, until the record is final: handlers leave it alone,
    /// as they would leave it in a dictionary.
    fn from_built(v: DValue) -> Result<Self, DValue> {
        Self::from_v(v)
    }

    /// [`FromV::from_built`] into a box.
    fn from_built_boxed(v: DValue) -> Result<Box<Self>, DValue> {
        Self::from_built(v).map(Box::new)
    }
}

/// Kept inline up to 24 bytes, else the builder's string itself.
impl FromV for CompactString {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        match v {
            DValue::String(s) => Ok(s.into()),
            other => Err(other),
        }
    }
}

/// A text construct's plain value: moved when the builder shared it with the `_detail`,
/// copied once otherwise.
impl FromV for Arc<str> {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        match v {
            DValue::Shared(s) => Ok(s),
            DValue::String(s) => Ok(Arc::from(s)),
            other => Err(other),
        }
    }
}

impl FromV for bool {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        match v {
            DValue::Bool(b) => Ok(b),
            other => Err(other),
        }
    }
}

impl FromV for Map<String, Value> {
    const DIRECT: bool = false;

    fn from_v(v: DValue) -> Result<Self, DValue> {
        match v {
            DValue::Object(o) => Ok(o.into_json()),
            other => Err(other),
        }
    }
}

impl FromV for StructTime {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        let mut out = [0i64; 9];
        match v.as_array() {
            Some(a) if a.len() == 9 && a.iter().all(|x| matches!(x, DValue::Int(_))) => {
                for (slot, x) in out.iter_mut().zip(a) {
                    *slot = x.as_i64().unwrap_or_default();
                }
                Ok(out)
            }
            _ => Err(v),
        }
    }
}

/// A large, often absent value is boxed in [`Feed`] and [`Entry`], so that an entry
/// without it costs a pointer, not the value's size.
impl<T: FromV> FromV for Box<T> {
    const DIRECT: bool = T::DIRECT;

    fn from_v(v: DValue) -> Result<Self, DValue> {
        T::from_v_boxed(v)
    }

    fn from_built(v: DValue) -> Result<Self, DValue> {
        T::from_built_boxed(v)
    }
}

impl<T: FromV + FitsV + Item> FromV for Vec<T> {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        // The builder's typed list moves as it is.
        let v = match T::take_list(v) {
            Ok(items) => return Ok(items),
            Err(v) => v,
        };
        if !v.as_array().is_some_and(|a| a.iter().all(T::fits_v)) {
            return Err(v);
        }
        let DValue::Array(items) = v else {
            return Err(v);
        };
        // Exactly as many slots as items: `collect` over a filter would start at four.
        let mut out = Vec::with_capacity(items.len());
        out.extend(items.into_iter().filter_map(|x| T::from_v(x).ok()));
        Ok(out)
    }
}

/// Whether a list item has the item type's shape (checked before moving a list).
trait FitsV {
    fn fits_v(v: &DValue) -> bool;
}

fn opt_string_v(o: &DMap, k: &str) -> bool {
    o.get(k).is_none_or(DValue::is_string)
}

fn null_or_string_v(o: &DMap, k: &str) -> bool {
    o.get(k).is_none_or(|v| v.is_string() || v.is_null())
}

impl FitsV for Text {
    fn fits_v(v: &DValue) -> bool {
        if matches!(v, DValue::Text(_)) {
            return true;
        }
        v.as_object().is_some_and(|o| {
            ["type", "base", "value"]
                .iter()
                .all(|k| o.get(k).is_some_and(DValue::is_string))
                && null_or_string_v(o, "language")
                && opt_string_v(o, "src")
                && o.iter()
                    .all(|(k, _)| matches!(k, "type" | "language" | "base" | "value" | "src"))
        })
    }
}

impl FromV for Text {
    fn from_built(v: DValue) -> Result<Self, DValue> {
        match v {
            DValue::Text(t) => Ok(*t),
            other => Err(other),
        }
    }

    fn from_built_boxed(v: DValue) -> Result<Box<Self>, DValue> {
        match v {
            DValue::Text(t) => Ok(t),
            other => Err(other),
        }
    }

    fn from_v_boxed(v: DValue) -> Result<Box<Self>, DValue> {
        match v {
            DValue::Text(t) => Ok(t),
            other => Self::from_v(other).map(Box::new),
        }
    }

    fn from_v(v: DValue) -> Result<Self, DValue> {
        if let DValue::Text(t) = v {
            return Ok(*t);
        }
        if !Self::fits_v(&v) {
            return Err(v);
        }
        let DValue::Object(o) = v else {
            return Err(v);
        };
        let mut t = Text::default();
        for (k, v) in o.into_pairs() {
            let v = match v {
                DValue::Shared(v) if k == "value" => {
                    t.value = v;
                    continue;
                }
                DValue::String(v) => v,
                DValue::Shared(v) => v.to_string(),
                _ => continue,
            };
            match &*k {
                "type" => t.content_type = v.into(),
                "language" => t.language = Some(v.into()),
                "base" => t.base = v.into(),
                "value" => t.value = Arc::from(v),
                _ => t.src = Some(v),
            }
        }
        Ok(t)
    }
}

impl FitsV for Link {
    fn fits_v(v: &DValue) -> bool {
        v.as_object().is_some_and(|o| {
            ["rel", "type", "href", "title", "length"]
                .iter()
                .all(|k| opt_string_v(o, k))
        })
    }
}

impl FromV for Link {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        if !Self::fits_v(&v) {
            return Err(v);
        }
        let DValue::Object(o) = v else {
            return Err(v);
        };
        let mut l = Link::default();
        let mut others = Vec::new();
        for (k, v) in o.into_pairs() {
            let Some(field) = l.field_mut(&k) else {
                others.push((k.into_owned(), v.into_json()));
                continue;
            };
            if let DValue::String(v) = v {
                *field = Some(v.into());
            }
        }
        // At once: one sort (see `link_from_attrs`).
        l.extra.extend(others);
        Ok(l)
    }
}

impl FitsV for Person {
    fn fits_v(v: &DValue) -> bool {
        if matches!(v, DValue::Person(_)) {
            return true;
        }
        v.as_object().is_some_and(|o| {
            o.iter()
                .all(|(k, v)| matches!(k, "name" | "email" | "href" | "image") && v.is_string())
        })
    }
}

impl FromV for Person {
    fn from_built(v: DValue) -> Result<Self, DValue> {
        match v {
            DValue::Person(p) => Ok(*p),
            other => Err(other),
        }
    }

    fn from_built_boxed(v: DValue) -> Result<Box<Self>, DValue> {
        match v {
            DValue::Person(p) => Ok(p),
            other => Err(other),
        }
    }

    fn from_v_boxed(v: DValue) -> Result<Box<Self>, DValue> {
        match v {
            DValue::Person(p) => Ok(p),
            other => Self::from_v(other).map(Box::new),
        }
    }

    fn from_v(v: DValue) -> Result<Self, DValue> {
        if let DValue::Person(p) = v {
            return Ok(*p);
        }
        if !Self::fits_v(&v) {
            return Err(v);
        }
        let DValue::Object(o) = v else {
            return Err(v);
        };
        let mut p = Person::default();
        for (k, v) in o.into_pairs() {
            let DValue::String(v) = v else { continue };
            match &*k {
                "name" => p.name = Some(v.into()),
                "email" => p.email = Some(v.into()),
                "image" => p.image = Some(v.into()),
                _ => p.href = Some(v.into()),
            }
        }
        Ok(p)
    }
}

impl FitsV for Tag {
    fn fits_v(v: &DValue) -> bool {
        v.as_object().is_some_and(|o| {
            o.iter().all(|(k, v)| {
                matches!(k, "term" | "scheme" | "label") && (v.is_string() || v.is_null())
            })
        })
    }
}

impl FromV for Tag {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        if !Self::fits_v(&v) {
            return Err(v);
        }
        let DValue::Object(o) = v else {
            return Err(v);
        };
        let mut t = Tag::default();
        for (k, v) in o.into_pairs() {
            let DValue::String(v) = v else { continue };
            match &*k {
                "term" => t.term = Some(v.into()),
                "scheme" => t.scheme = Some(v.into()),
                _ => t.label = Some(v.into()),
            }
        }
        Ok(t)
    }
}

/// Moves a value into a typed field when its shape fits; otherwise hands it back (to be
/// kept in `extra` and serialized unchanged).
fn put_v<T: FromV>(field: &mut Option<T>, v: DValue) -> Option<DValue> {
    match T::from_v(v) {
        Ok(t) => {
            *field = Some(t);
            None
        }
        Err(v) => Some(v),
    }
}

/// As [`put_v`] for a list. An empty list stays behind (in `extra`), so that the JSON
/// contract still writes the `[]` feedparser has for it.
fn put_list<T: FromV + FitsV + Item>(field: &mut Vec<T>, v: DValue) -> Option<DValue> {
    match Vec::<T>::from_v(v) {
        Ok(list) if list.is_empty() => Some(DValue::Array(Vec::new())),
        Ok(list) => {
            *field = list;
            None
        }
        Err(v) => Some(v),
    }
}

/// As [`put_v`] for a `*_parsed` date: `null` is `Some(None)`; a `struct_time` array
/// (from [`Entry::from_dict`]) is read back into the date it stands for.
fn put_parsed_v(field: &mut Option<Option<DateTime<Utc>>>, v: DValue) -> Option<DValue> {
    match v {
        DValue::Null => *field = Some(None),
        DValue::Date(d) => *field = Some(Some(d)),
        other => match StructTime::from_v(other) {
            Ok(t) => match date_of_struct_time(&t) {
                Some(d) => *field = Some(Some(d)),
                None => return Some(DValue::from_json(serde_json::json!(t))),
            },
            Err(v) => return Some(v),
        },
    }
    None
}

/// The date a `struct_time` stands for, when it is one [`crate::date::struct_time`]
/// would write (weekday and day of year agreeing).
fn date_of_struct_time(t: &StructTime) -> Option<DateTime<Utc>> {
    let n = |i: usize| u32::try_from(t[i]).ok();
    let date = chrono::NaiveDate::from_ymd_opt(i32::try_from(t[0]).ok()?, n(1)?, n(2)?)?;
    let d = date.and_hms_opt(n(3)?, n(4)?, n(5)?)?.and_utc();
    (crate::date::struct_time(&d) == *t).then_some(d)
}

/// Whether a value has the shape of a [`PodcastElement`]: an object of strings
/// (attributes and `content`) and lists of elements (children).
fn fits_element(v: &DValue) -> bool {
    v.as_object().is_some_and(|o| {
        o.iter().all(|(_, v)| match v {
            DValue::String(_) => true,
            DValue::Array(a) => a.iter().all(fits_element),
            _ => false,
        })
    })
}

/// Builds the element from a value [`fits_element`] accepted.
fn element_from_fitting(v: DValue) -> PodcastElement {
    let mut e = PodcastElement::default();
    if let DValue::Object(o) = v {
        for (k, v) in o.into_pairs() {
            match v {
                DValue::String(s) if k == "content" => e.content = Some(s),
                DValue::String(s) => {
                    e.attrs.insert(k.into_owned(), s);
                }
                DValue::Array(a) => {
                    e.children.insert(
                        k.into_owned(),
                        a.into_iter().map(element_from_fitting).collect(),
                    );
                }
                _ => {}
            }
        }
    }
    e
}

impl FromV for Podcast {
    const DIRECT: bool = false;

    fn from_v(v: DValue) -> Result<Self, DValue> {
        let fits = v.as_object().is_some_and(|o| {
            o.iter()
                .all(|(_, v)| v.as_array().is_some_and(|a| a.iter().all(fits_element)))
        });
        if !fits {
            return Err(v);
        }
        let DValue::Object(o) = v else {
            return Err(v);
        };
        let mut p = Podcast::default();
        for (k, v) in o.into_pairs() {
            if let DValue::Array(a) = v {
                p.0.insert(
                    k.into_owned(),
                    a.into_iter().map(element_from_fitting).collect(),
                );
            }
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dict_round_trips_through_typed_fields() {
        let d = json!({
            "title": "T",
            "title_detail": {"type": "text/plain", "language": null, "base": "", "value": "T"},
            "published": "x",
            "published_parsed": null,
            "itunes_explicit": true,
            "links": [{"rel": "alternate", "type": "text/html", "href": "h", "hreflang": "en"}],
        });
        let Value::Object(m) = d.clone() else {
            unreachable!()
        };
        let e = Entry::from_dict(m);
        assert_eq!(e.title.as_deref(), Some("T"));
        assert_eq!(e.published_parsed, Some(None));
        assert_eq!(serde_json::to_value(&e).unwrap(), d);
    }

    #[test]
    fn typed_keys_count_against_no_budget() {
        for k in Entry::TYPED_KEYS.iter().chain(Feed::TYPED_KEYS) {
            assert!(is_typed_key(k), "{k}");
        }
        for k in ["", "titles", "Title", "itunes_author_x", "links_"] {
            assert!(!is_typed_key(k), "{k}");
        }
    }

    #[test]
    fn mistyped_value_stays_in_extra() {
        let Value::Object(m) = json!({"title": 5}) else {
            unreachable!()
        };
        let f = Feed::from_dict(m);
        assert!(f.title.is_none());
        assert_eq!(serde_json::to_value(&f).unwrap(), json!({"title": 5}));
    }
}
