//! The feed model: one shape for RSS 0.9x/1.0/2.0, Atom 0.3/1.0, CDF and JSON Feed 1.0/1.1,
//! keyed the way feedparser keys its result.
//!
//! [`Feed`] and [`Entry`] serialize to feedparser's canonical JSON keys (`title`,
//! `title_detail`, `links`, `summary_detail`, `content`, `author_detail`, `tags`,
//! `published_parsed`, …). A key feedparser would not have set is omitted; `null` stands
//! for Python's `None`. The common keys are typed fields; every other key feedparser sets
//! (`itunes_*`, `media_*`, `psc_chapters`, unknown namespaced elements, …) is kept in
//! `extra` and serialized alongside them. Aliases (`channel`, `items`, `guid`,
//! `description`) and computed keys (`enclosures`, `license`, `category`) are not
//! serialized; [`Entry::enclosures`] and friends compute them.
//!
//! JSON Feed maps onto the same keys ([`crate::jsonfeed`] has the table). The
//! Podcasting 2.0 namespace is one typed `podcast` object on the feed and on each entry
//! ([`Podcast`]): every element a list, so none is lost.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::bozo::Bozo;
use crate::json::PlainKey;
use crate::parse::dict::{Item, Map as DMap, Value as DValue};

mod itunes;
mod media;

pub use itunes::Itunes;
pub use media::{Media, MediaObject};

/// A text construct's details (feedparser's `*_detail` and `content` items).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Text {
    /// The media type: `text/plain`, `text/html`, `application/xhtml+xml`, …. (Shared:
    /// every detail of a feed mostly has one of a few.)
    #[serde(rename = "type")]
    pub content_type: Arc<str>,
    /// The `xml:lang` in effect (`null` when none); shared by the details it applies to.
    pub language: Option<Arc<str>>,
    /// The `xml:base` in effect (empty when none); shared by the details it applies to.
    pub base: Arc<str>,
    /// The text (markup for HTML and XHTML types, unsanitized). Shared with the plain
    /// field of a `*_detail` (`summary` and `summary_detail.value` are one string).
    pub value: Arc<str>,
    /// Atom `content/@src`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src: Option<String>,
}

/// A link (`links` items; enclosures have `rel` = `enclosure`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Link {
    /// The relation (`alternate`, `self`, `enclosure`, `license`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rel: Option<String>,
    /// The media type.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// The title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The length in bytes, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<String>,
    /// Any other attribute (`hreflang`, …).
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl Link {
    /// The typed field of a key of feedparser's link dictionary (`rel`, `type`, `href`,
    /// `title`, `length`); `None` for a key kept in `extra`.
    pub(crate) fn field_mut(&mut self, key: &str) -> Option<&mut Option<String>> {
        Some(match key {
            "rel" => &mut self.rel,
            "type" => &mut self.content_type,
            "href" => &mut self.href,
            "title" => &mut self.title,
            "length" => &mut self.length,
            _ => return None,
        })
    }

    /// [`Link::length`] read as a number of bytes (`None` when absent or not a
    /// non-negative integer; the text is kept as written in `length`).
    #[must_use]
    pub fn length_bytes(&self) -> Option<u64> {
        self.length.as_deref()?.trim().parse().ok()
    }
}

/// An enclosure: a [`Link`] whose `rel` is `enclosure` (`href`, `length`, `type`), as
/// [`Entry::enclosures`] returns them.
pub type Enclosure = Link;

/// A person (`author_detail`, `authors`, `contributors`, `publisher_detail`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Person {
    /// The name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The e-mail address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The home page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// An avatar image URL (JSON Feed `avatar`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// A category / tag / keyword.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Tag {
    /// The term.
    pub term: Option<String>,
    /// The scheme or domain.
    pub scheme: Option<String>,
    /// The human label.
    pub label: Option<String>,
}

/// The Podcasting 2.0 elements (`https://podcastindex.org/namespace/1.0`) of a channel
/// or an item: the `podcast` key of `feed` and of each entry.
///
/// The choice: one `podcast` object, keyed by the element's local name as the
/// specification spells it (`transcript`, `valueRecipient`, `alternateEnclosure`,
/// `liveItem`, …), each holding a **list** of [`PodcastElement`]s in document order,
/// whether the specification allows one element or many: nothing repeated is ever lost
/// (feedparser keeps only the last `podcast:valueRecipient`), and every key has one
/// shape. An element is its attributes (spec spelling: `feedGuid`, `startTime`,
/// `customKey`, …), its text as `content`, and its nested elements as lists under their
/// names (`value[0].valueRecipient`, `alternateEnclosure[0].source`,
/// `liveItem[0].title`; non-`podcast:` children keep the parser's key, e.g.
/// `enclosure`, `itunes_image`).
///
/// ```json
/// "podcast": {"season": [{"name": "Egypt", "content": "3"}],
///             "transcript": [{"url": "https://ex.org/1.vtt", "type": "text/vtt"},
///                            {"url": "https://ex.org/1.srt", "type": "application/srt"}]}
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Podcast(pub BTreeMap<String, Vec<PodcastElement>>);

impl Podcast {
    /// Every element named `name` (`transcript`, `person`, …), in document order.
    #[must_use]
    pub fn get(&self, name: &str) -> &[PodcastElement] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }

    /// The first element named `name` (for the elements the specification allows once:
    /// `guid`, `locked`, `season`, `episode`, `medium`, …).
    #[must_use]
    pub fn first(&self, name: &str) -> Option<&PodcastElement> {
        self.get(name).first()
    }

    /// The text of the first element named `name`.
    #[must_use]
    pub fn text(&self, name: &str) -> Option<&str> {
        self.first(name).and_then(PodcastElement::content)
    }
}

/// One `podcast:` element (or an element nested in one): attributes, text, children.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodcastElement {
    /// The attributes, by the specification's spelling.
    pub attrs: BTreeMap<String, String>,
    /// The text, trimmed (`None` when blank).
    pub content: Option<String>,
    /// Nested elements by name, each a list in document order.
    pub children: BTreeMap<String, Vec<PodcastElement>>,
}

impl PodcastElement {
    /// An attribute's value.
    #[must_use]
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }

    /// The text.
    #[must_use]
    pub fn content(&self) -> Option<&str> {
        self.content.as_deref()
    }

    /// The nested elements named `name`.
    #[must_use]
    pub fn children(&self, name: &str) -> &[PodcastElement] {
        self.children.get(name).map_or(&[], Vec::as_slice)
    }

    fn fits_v(v: &DValue) -> bool {
        v.as_object().is_some_and(|o| {
            o.iter().all(|(_, v)| match v {
                DValue::String(_) => true,
                DValue::Array(a) => a.iter().all(Self::fits_v),
                _ => false,
            })
        })
    }

    /// Builds the element from a value [`Self::fits_v`] accepted.
    fn from_fitting(v: DValue) -> Self {
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
                            a.into_iter().map(Self::from_fitting).collect(),
                        );
                    }
                    _ => {}
                }
            }
        }
        e
    }
}

impl FromV for Podcast {
    const DIRECT: bool = false;

    fn from_v(v: DValue) -> Result<Self, DValue> {
        let fits = v.as_object().is_some_and(|o| {
            o.iter().all(|(_, v)| {
                v.as_array()
                    .is_some_and(|a| a.iter().all(PodcastElement::fits_v))
            })
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
                    a.into_iter().map(PodcastElement::from_fitting).collect(),
                );
            }
        }
        Ok(p)
    }
}

/// A Python `time.struct_time` in UTC:
/// `[year, month, day, hour, minute, second, weekday (Mon=0), yearday, dst=0]`: how the
/// JSON contract writes a parsed date ([`crate::date::struct_time`]).
pub type StructTime = [i64; 9];

/// A literal key of the model as the JSON writers need it: held as written in JSON,
/// `"key":` (so that [`crate::json`]'s direct writer copies it in one write), with the
/// key itself a slice of it. Built with `jk!`; keys need no escape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonKey(&'static str);

impl JsonKey {
    /// The key (`key`).
    pub(crate) fn name(self) -> &'static str {
        &self.0[1..self.0.len() - 2]
    }

    /// The key as written before its value (`"key":`).
    pub(crate) fn quoted(self) -> &'static [u8] {
        self.0.as_bytes()
    }
}

/// The [`JsonKey`] of a literal key.
macro_rules! jk {
    ($key:expr) => {
        JsonKey(concat!("\"", $key, "\":"))
    };
}

/// Generates the typed fields, the conversion from feedparser's dictionary and the
/// serialization for [`Feed`] and [`Entry`].
macro_rules! model_struct {
    (
        $(#[$meta:meta])* $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $key:literal ),* $(,)?
        }
        lists { $( $(#[$lmeta:meta])* $lfield:ident : $lty:ty = $lkey:literal ),* $(,)? }
        dates { $( $(#[$dmeta:meta])* $dfield:ident / $dparsed:ident = $dkey:literal, $pkey:literal ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: Option<$ty>,
            )*
            $(
                $(#[$lmeta])*
                pub $lfield: Vec<$lty>,
            )*
            $(
                $(#[$dmeta])*
                pub $dfield: Option<String>,
                #[doc = concat!("`", $dkey, "_parsed`: the parsed date (UTC); `Some(None)` when the date did not parse. In JSON a Python `struct_time` (see [`StructTime`]) or `null`.")]
                pub $dparsed: Option<Option<DateTime<Utc>>>,
            )*
            /// Every other key feedparser sets, by its feedparser name.
            pub extra: BTreeMap<String, Value>,
        }

        impl $name {
            /// The keys with a typed field.
            pub(crate) const TYPED_KEYS: &[&str] = &[$($key,)* $($lkey,)* $($dkey, $pkey,)*];

            /// [`Self::TYPED_KEYS`] as the JSON writers write them.
            const JSON_KEYS: &[JsonKey] =
                &[$(jk!($key),)* $(jk!($lkey),)* $(jk!($dkey), jk!($pkey),)*];

            /// Whether `key` is one of [`Self::TYPED_KEYS`] (one `match`).
            pub(crate) fn has_typed_key(key: &str) -> bool {
                match key {
                    $($key => true,)*
                    $($lkey => true,)*
                    $($dkey | $pkey => true,)*
                    _ => false,
                }
            }

            $(
                #[doc = concat!("The `", $lkey, "` list as a slice (the field itself is a `Vec`).")]
                #[must_use]
                pub fn $lfield(&self) -> &[$lty] {
                    &self.$lfield
                }
            )*
        }

        impl $name {
            /// The present typed fields with their keys, in the keys' sorted order (the
            /// order the JSON contract writes them in, `extra` aside).
            pub(crate) fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
                // The present fields by their position in `TYPED_KEYS`, given in the
                // keys' sorted order (computed once): no sorting, no allocation.
                const N: usize = $name::TYPED_KEYS.len();
                static ORDER: std::sync::LazyLock<Vec<usize>> =
                    std::sync::LazyLock::new(|| sorted_positions($name::TYPED_KEYS));
                let mut slots: [Option<Field<'_>>; N] = [None; N];
                let mut at = 0;
                $(
                    slots[at] = self.$field.as_ref().map(AsField::field);
                    at += 1;
                )*
                $(
                    if !self.$lfield.is_empty() {
                        slots[at] = Some(self.$lfield.field());
                    }
                    at += 1;
                )*
                $(
                    slots[at] = self.$dfield.as_deref().map(Field::Str);
                    slots[at + 1] = self.$dparsed.as_ref().map(|d| Field::Date(d.as_ref()));
                    at += 2;
                )*
                debug_assert_eq!(at, N);
                ORDER
                    .iter()
                    .filter_map(move |&p| slots[p].map(|f| ($name::JSON_KEYS[p], f)))
            }
        }

        /// The builder fills the typed fields in place by key (`crate::parse::record`).
        impl crate::parse::record::Keys for $name {
            fn is_direct(key: &str) -> bool {
                match key {
                    $($key => <$ty as FromV>::DIRECT,)*
                    $($lkey => true,)*
                    $($dkey | $pkey => true,)*
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
                        $dkey => match String::from_v(v) {
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
                    _ => {}
                }
            }

            fn text(&self, key: &str) -> Option<&str> {
                match key {
                    $(
                        $key => match self.$field.as_ref().map(AsField::field) {
                            Some(Field::Str(s)) => Some(s),
                            _ => None,
                        },
                    )*
                    $($dkey => self.$dfield.as_deref(),)*
                    _ => None,
                }
            }

            fn absorb(
                &mut self,
                d: crate::parse::dict::Map,
                spare: &mut Option<crate::parse::dict::Map>,
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
                    *spare = Some(crate::parse::dict::Map::from_empty(pairs));
                } else {
                    // Built in one go from sorted pairs, the tree's nodes are full: half
                    // the memory of inserting a hundred thousand keys one by one.
                    let extra: BTreeMap<String, Value> = pairs
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

        /// Serialized as the JSON contract has it: feedparser's keys, sorted, with
        /// `extra` among them.
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                sorted(s, self.sorted_fields(), &self.extra)
            }
        }

        impl $name {
            /// Builds the typed value from a feedparser-shaped dictionary. Keys whose
            /// value does not fit the typed field stay in `extra` unchanged.
            #[must_use]
            pub fn from_dict(d: Map<String, Value>) -> Self {
                Self::from_builder(crate::parse::dict::Map::from_json(d))
            }

            /// As [`Self::from_dict`], from the parser's own dictionary (no `serde_json`
            /// values but for the keys that stay in `extra`): one pass, each key
            /// dispatched to its field; a value that does not fit goes to `extra`.
            pub(crate) fn from_builder(d: crate::parse::dict::Map) -> Self {
                let mut out = $name::default();
                crate::parse::record::Keys::absorb(&mut out, d, &mut None);
                out
            }

        }
    };
}

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

impl FromV for String {
    fn from_v(v: DValue) -> Result<Self, DValue> {
        match v {
            DValue::String(s) => Ok(s),
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
        for (k, v) in o.into_pairs() {
            let Some(field) = l.field_mut(&k) else {
                l.extra.insert(k.into_owned(), v.into_json());
                continue;
            };
            if let DValue::String(v) = v {
                *field = Some(v);
            }
        }
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
                "name" => p.name = Some(v),
                "email" => p.email = Some(v),
                "image" => p.image = Some(v),
                _ => p.href = Some(v),
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
                "term" => t.term = Some(v),
                "scheme" => t.scheme = Some(v),
                _ => t.label = Some(v),
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

model_struct! {
    /// Channel-level metadata (feedparser's `feed`).
    Feed {
        /// The title.
        title: Arc<str> = "title",
        /// The title's details.
        title_detail: Box<Text> = "title_detail",
        /// The main (alternate HTML) link.
        link: String = "link",
        /// The subtitle / tagline / description.
        subtitle: Arc<str> = "subtitle",
        /// The subtitle's details.
        subtitle_detail: Box<Text> = "subtitle_detail",
        /// Copyright / rights.
        rights: Arc<str> = "rights",
        /// The rights' details.
        rights_detail: Box<Text> = "rights_detail",
        /// Atom 0.3 `info`.
        info: Arc<str> = "info",
        /// The info's details.
        info_detail: Box<Text> = "info_detail",
        /// The identifier.
        id: String = "id",
        /// The author as one string.
        author: String = "author",
        /// The author's details.
        author_detail: Box<Person> = "author_detail",
        /// The publisher (webMaster, dc:publisher, itunes:owner) as one string.
        publisher: String = "publisher",
        /// The publisher's details.
        publisher_detail: Box<Person> = "publisher_detail",
        /// The language.
        language: String = "language",
        /// The generator's name.
        generator: String = "generator",
        /// The generator's details (`name`, `href`, `version`).
        generator_detail: Map<String, Value> = "generator_detail",
        /// RSS `docs`.
        docs: String = "docs",
        /// RSS `ttl`, as written.
        ttl: String = "ttl",
        /// Atom `icon`.
        icon: String = "icon",
        /// Atom `logo`.
        logo: String = "logo",
        /// The feed image (`title`, `href`, `link`, `width`, `height`, …).
        image: Map<String, Value> = "image",
        /// The text input (`title`, `name`, `link`, `description`).
        textinput: Map<String, Value> = "textinput",
        /// RSS `cloud` attributes.
        cloud: Map<String, Value> = "cloud",
        /// GeoRSS location (`type`, `coordinates`).
        location: Map<String, Value> = "where",
        /// The Podcasting 2.0 elements of the channel (see [`Podcast`]).
        podcast: Podcast = "podcast",
    }
    lists {
        /// Every link.
        links: Link = "links",
        /// Every author.
        authors: Person = "authors",
        /// Contributors.
        contributors: Person = "contributors",
        /// Categories, keywords.
        tags: Tag = "tags",
    }
    dates {
        /// The publication date, as written.
        published / published_parsed = "published", "published_parsed",
        /// The last-updated date, as written.
        updated / updated_parsed = "updated", "updated_parsed",
    }
}

model_struct! {
    /// One item / entry.
    Entry {
        /// The title.
        title: Arc<str> = "title",
        /// The title's details.
        title_detail: Box<Text> = "title_detail",
        /// The main (alternate HTML) link.
        link: String = "link",
        /// The summary / description.
        summary: Arc<str> = "summary",
        /// The summary's details.
        summary_detail: Box<Text> = "summary_detail",
        /// The identifier (guid, atom:id, rdf:about).
        id: String = "id",
        /// Whether the guid is the permalink.
        guidislink: bool = "guidislink",
        /// The author as one string.
        author: String = "author",
        /// The author's details.
        author_detail: Box<Person> = "author_detail",
        /// The publisher as one string.
        publisher: String = "publisher",
        /// The publisher's details.
        publisher_detail: Box<Person> = "publisher_detail",
        /// Rights.
        rights: Arc<str> = "rights",
        /// The rights' details.
        rights_detail: Box<Text> = "rights_detail",
        /// RSS `comments`.
        comments: String = "comments",
        /// The source feed (`title`, `href`, `links`, …).
        source: Map<String, Value> = "source",
        /// GeoRSS location (`type`, `coordinates`).
        location: Map<String, Value> = "where",
        /// The Podcasting 2.0 elements of the item (see [`Podcast`]).
        podcast: Podcast = "podcast",
    }
    lists {
        /// Every link (enclosures included, `rel` = `enclosure`).
        links: Link = "links",
        /// Full content (content:encoded, atom:content, xhtml:body, …).
        content: Text = "content",
        /// Every author.
        authors: Person = "authors",
        /// Contributors.
        contributors: Person = "contributors",
        /// Categories, keywords.
        tags: Tag = "tags",
    }
    dates {
        /// The publication date, as written.
        published / published_parsed = "published", "published_parsed",
        /// The last-updated date, as written.
        updated / updated_parsed = "updated", "updated_parsed",
        /// The creation date, as written.
        created / created_parsed = "created", "created_parsed",
        /// The expiration date, as written.
        expired / expired_parsed = "expired", "expired_parsed",
    }
}

/// The parsed date, or (for a model built by hand with only the text) the text parsed.
fn date(parsed: Option<Option<DateTime<Utc>>>, text: Option<&String>) -> Option<DateTime<Utc>> {
    match parsed {
        Some(d) => d,
        None => crate::date::parse_date(text?),
    }
}

impl Feed {
    /// The publication date.
    #[must_use]
    pub fn published_date(&self) -> Option<DateTime<Utc>> {
        date(self.published_parsed, self.published.as_ref())
    }

    /// The last-updated date.
    #[must_use]
    pub fn updated_date(&self) -> Option<DateTime<Utc>> {
        date(self.updated_parsed, self.updated.as_ref())
    }

    /// The best date the feed gives: published, else updated.
    #[must_use]
    pub fn best_date(&self) -> Option<DateTime<Utc>> {
        self.published_date().or_else(|| self.updated_date())
    }

    /// The iTunes podcast elements of the channel.
    #[must_use]
    pub fn itunes(&self) -> Itunes<'_> {
        Itunes {
            extra: &self.extra,
            image: self.image.as_ref(),
        }
    }
}

impl Entry {
    /// The publication date (`pubDate`, `dc:date`, `published`, `issued`, …).
    #[must_use]
    pub fn published_date(&self) -> Option<DateTime<Utc>> {
        date(self.published_parsed, self.published.as_ref())
    }

    /// The last-updated date (`updated`, `modified`, `dcterms:modified`, …).
    #[must_use]
    pub fn updated_date(&self) -> Option<DateTime<Utc>> {
        date(self.updated_parsed, self.updated.as_ref())
    }

    /// The creation date (`created`, `dcterms:created`).
    #[must_use]
    pub fn created_date(&self) -> Option<DateTime<Utc>> {
        date(self.created_parsed, self.created.as_ref())
    }

    /// The expiration date (`expirationDate`, `dcterms:valid` end, …).
    #[must_use]
    pub fn expired_date(&self) -> Option<DateTime<Utc>> {
        date(self.expired_parsed, self.expired.as_ref())
    }

    /// The date to sort or show the entry by: published, else updated, else created.
    #[must_use]
    pub fn best_date(&self) -> Option<DateTime<Utc>> {
        self.published_date()
            .or_else(|| self.updated_date())
            .or_else(|| self.created_date())
    }

    /// The full contents (empty when none).
    #[must_use]
    pub fn contents(&self) -> &[Text] {
        &self.content
    }

    /// The iTunes podcast elements of the item.
    #[must_use]
    pub fn itunes(&self) -> Itunes<'_> {
        Itunes {
            extra: &self.extra,
            image: self.extra.get("image").and_then(Value::as_object),
        }
    }

    /// The Media RSS elements of the item.
    #[must_use]
    pub fn media(&self) -> Media<'_> {
        Media { extra: &self.extra }
    }

    /// The enclosures: the links whose `rel` is `enclosure`.
    pub fn enclosures(&self) -> impl Iterator<Item = &Enclosure> {
        self.links()
            .iter()
            .filter(|l| l.rel.as_deref() == Some("enclosure"))
    }

    /// The license link's target (Creative Commons), if any.
    #[must_use]
    pub fn license(&self) -> Option<&str> {
        self.links()
            .iter()
            .find(|l| l.rel.as_deref() == Some("license") && l.href.is_some())
            .and_then(|l| l.href.as_deref())
    }
}

/// The result of parsing decoded text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedFeed {
    /// feedparser's version string (`rss20`, `atom10`, …; empty when unknown).
    pub version: String,
    /// Namespace prefixes as declared in the document (known namespaces under
    /// feedparser's prefix).
    pub namespaces: BTreeMap<String, String>,
    /// Channel-level metadata.
    pub feed: Feed,
    /// The entries, in document order.
    pub entries: Vec<Entry>,
    /// Markup problems, in the order found.
    pub bozo: Vec<Bozo>,
}

// ---------------------------------------------------------------------------------------
// Serialization: every struct writes its keys sorted, as the JSON contract has them (the
// bytes `serde_json::to_value` would give), straight from the model, with no
// intermediate `serde_json::Value`: a 100 MB value is never copied to be written.

/// A borrowed field value, one variant per field type of the model.
#[derive(Clone, Copy)]
pub(crate) enum Field<'a> {
    Str(&'a str),
    OptStr(Option<&'a str>),
    Bool(bool),
    Map(&'a Map<String, Value>),
    Text(&'a Text),
    Texts(&'a [Text]),
    Links(&'a [Link]),
    Person(&'a Person),
    People(&'a [Person]),
    Tags(&'a [Tag]),
    Podcast(&'a Podcast),
    Elements(&'a [PodcastElement]),
    Date(Option<&'a DateTime<Utc>>),
}

impl Serialize for Field<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Str(v) => v.serialize(s),
            Field::OptStr(v) => v.serialize(s),
            Field::Bool(v) => v.serialize(s),
            Field::Map(v) => v.serialize(s),
            Field::Text(v) => v.serialize(s),
            Field::Texts(v) => v.serialize(s),
            Field::Links(v) => v.serialize(s),
            Field::Person(v) => v.serialize(s),
            Field::People(v) => v.serialize(s),
            Field::Tags(v) => v.serialize(s),
            Field::Podcast(v) => v.serialize(s),
            Field::Elements(v) => v.serialize(s),
            Field::Date(Some(d)) => crate::date::struct_time(d).serialize(s),
            Field::Date(None) => s.serialize_none(),
        }
    }
}

/// The [`Field`] of a typed field's value.
trait AsField {
    fn field(&self) -> Field<'_>;
}

macro_rules! as_field {
    ($($ty:ty => $variant:ident),* $(,)?) => {
        $(impl AsField for $ty {
            fn field(&self) -> Field<'_> {
                Field::$variant(self)
            }
        })*
    };
}

as_field! {
    String => Str,
    Arc<str> => Str,
    Map<String, Value> => Map,
    Text => Text,
    Vec<Text> => Texts,
    Vec<Link> => Links,
    Person => Person,
    Vec<Person> => People,
    Vec<Tag> => Tags,
    Podcast => Podcast,
}

impl<T: AsField> AsField for Box<T> {
    fn field(&self) -> Field<'_> {
        (**self).field()
    }
}

impl AsField for bool {
    fn field(&self) -> Field<'_> {
        Field::Bool(*self)
    }
}

/// The positions of `keys` in the keys' sorted order.
fn sorted_positions(keys: &[&str]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_unstable_by_key(|&i| keys[i]);
    order
}

/// Writes `fields` (in sorted key order) and `extra` as one map, keys in sorted order (a
/// key in both is written once, from `fields`).
fn sorted<'a, S: serde::Serializer>(
    s: S,
    fields: impl IntoIterator<Item = (JsonKey, Field<'a>)>,
    extra: &BTreeMap<String, Value>,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut extra = extra.iter().peekable();
    let mut m = s.serialize_map(None)?;
    for (k, v) in fields {
        let k = k.name();
        while let Some((ek, ev)) = extra.next_if(|(ek, _)| ek.as_str() < k) {
            m.serialize_entry(ek, ev)?;
        }
        // The typed field wins over an `extra` entry of the same name.
        extra.next_if(|(ek, _)| ek.as_str() == k);
        m.serialize_entry(&PlainKey(k), &v)?;
    }
    for (ek, ev) in extra {
        m.serialize_entry(ek, ev)?;
    }
    m.end()
}

/// Writes `(key, value)` pairs given in sorted key order as a map (keys: the model's
/// literals as [`PlainKey`]s, or strings to escape).
fn in_order<'a, S: serde::Serializer, K: Serialize>(
    s: S,
    fields: impl IntoIterator<Item = (K, Field<'a>)>,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(None)?;
    for (k, v) in fields {
        m.serialize_entry(&k, &v)?;
    }
    m.end()
}

impl Text {
    /// The keys written and their values, in sorted key order.
    pub(crate) fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
        let src = self.src.as_deref().map(|v| (jk!("src"), Field::Str(v)));
        [
            Some((jk!("base"), Field::Str(&self.base))),
            Some((jk!("language"), Field::OptStr(self.language.as_deref()))),
            src,
            Some((jk!("type"), Field::Str(&self.content_type))),
            Some((jk!("value"), Field::Str(&self.value))),
        ]
        .into_iter()
        .flatten()
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        in_order(
            s,
            self.sorted_fields().map(|(k, v)| (PlainKey(k.name()), v)),
        )
    }
}

/// The present ones of `(key, value)` optional strings (keys in sorted order).
fn present<'a, const N: usize>(
    pairs: [(JsonKey, &'a Option<String>); N],
) -> impl Iterator<Item = (JsonKey, Field<'a>)> {
    pairs
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, Field::Str(v))))
}

impl Link {
    /// The typed keys written and their values, in sorted key order (`extra` aside).
    pub(crate) fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
        present([
            (jk!("href"), &self.href),
            (jk!("length"), &self.length),
            (jk!("rel"), &self.rel),
            (jk!("title"), &self.title),
            (jk!("type"), &self.content_type),
        ])
    }
}

impl Serialize for Link {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        sorted(s, self.sorted_fields(), &self.extra)
    }
}

impl Person {
    /// The keys written and their values, in sorted key order.
    pub(crate) fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
        present([
            (jk!("email"), &self.email),
            (jk!("href"), &self.href),
            (jk!("image"), &self.image),
            (jk!("name"), &self.name),
        ])
    }
}

impl Serialize for Person {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        in_order(
            s,
            self.sorted_fields().map(|(k, v)| (PlainKey(k.name()), v)),
        )
    }
}

impl Tag {
    /// The keys written and their values, in sorted key order.
    pub(crate) fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
        [
            (jk!("label"), Field::OptStr(self.label.as_deref())),
            (jk!("scheme"), Field::OptStr(self.scheme.as_deref())),
            (jk!("term"), Field::OptStr(self.term.as_deref())),
        ]
        .into_iter()
    }
}

impl Serialize for Tag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        in_order(
            s,
            self.sorted_fields().map(|(k, v)| (PlainKey(k.name()), v)),
        )
    }
}

impl Serialize for PodcastElement {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut f: Vec<(&str, Field<'_>)> = self
            .attrs
            .iter()
            .map(|(k, v)| (k.as_str(), Field::Str(v)))
            .collect();
        if let Some(c) = &self.content {
            f.push(("content", Field::Str(c)));
        }
        f.extend(
            self.children
                .iter()
                .map(|(k, v)| (k.as_str(), Field::Elements(v))),
        );
        f.sort_unstable_by(|a, b| a.0.cmp(b.0));
        in_order(s, f)
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
    fn keys_are_written_sorted_and_once() {
        let mut e = Entry {
            title: Some("typed".into()),
            links: vec![Link {
                href: Some("h".into()),
                ..Link::default()
            }],
            ..Entry::default()
        };
        e.extra.insert("title".into(), json!("from extra"));
        e.extra.insert("aa".into(), json!(1));
        e.extra.insert("m".into(), json!(2));
        e.extra.insert("zz".into(), json!(3));
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(
            text,
            r#"{"aa":1,"links":[{"href":"h"}],"m":2,"title":"typed","zz":3}"#
        );
        // Every typed key, present at once, comes out in sorted order.
        let keys: Vec<&str> = Entry::TYPED_KEYS.to_vec();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        let order: Vec<&str> = sorted_positions(Entry::TYPED_KEYS)
            .into_iter()
            .map(|i| keys[i])
            .collect();
        assert_eq!(order, sorted);
    }

    #[test]
    fn json_keys_are_the_typed_keys_quoted() {
        for (keys, json) in [
            (Entry::TYPED_KEYS, Entry::JSON_KEYS),
            (Feed::TYPED_KEYS, Feed::JSON_KEYS),
        ] {
            assert_eq!(keys.len(), json.len());
            for (k, j) in keys.iter().zip(json) {
                assert_eq!(j.name(), *k);
                assert_eq!(j.quoted(), format!("\"{k}\":").as_bytes());
            }
        }
    }

    #[test]
    fn the_typed_key_match_is_the_list_of_typed_keys() {
        for k in Entry::TYPED_KEYS {
            assert!(Entry::has_typed_key(k) && is_typed_key(k), "{k}");
        }
        for k in Feed::TYPED_KEYS {
            assert!(Feed::has_typed_key(k) && is_typed_key(k), "{k}");
        }
        for k in ["", "\0", "titles", "Title", "itunes_author_x", "links_"] {
            let listed = Entry::TYPED_KEYS.contains(&k) || Feed::TYPED_KEYS.contains(&k);
            assert!(
                !listed && !Entry::has_typed_key(k) && !Feed::has_typed_key(k),
                "{k}"
            );
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
