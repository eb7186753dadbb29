//! The model as the contract writes it: every typed field in its key's sorted order,
//! borrowed ([`Field`]), with the key as written in JSON ([`JsonKey`]), and the model's
//! `Serialize` impls built on that view.
//!
//! Every struct writes its keys sorted, as the contract has them (the bytes
//! `serde_json::to_value` would give), straight from the model, with no intermediate
//! `serde_json::Value`: a 100 MB value is never copied to be written. The direct writer
//! ([`super::direct`]) writes the same view without `serde`.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Map, Value};

use super::writer::PlainKey;
use crate::model::{
    CompactString, Entry, Feed, Link, Person, Podcast, PodcastElement, Tag, Text, entry_fields,
    feed_fields,
};

/// A literal key of the model as the JSON writers need it: held as written in JSON after
/// another member, `,"key":` (so that the direct writer copies the separator and the key
/// in one write), with `"key":` and the key itself slices of it. Built with `jk!`; keys
/// need no escape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonKey(&'static str);

impl JsonKey {
    /// The key (`key`).
    pub(crate) fn name(self) -> &'static str {
        &self.0[2..self.0.len() - 2]
    }

    /// The key as written before its value, first in its object (`"key":`).
    pub(crate) fn quoted(self) -> &'static [u8] {
        &self.0.as_bytes()[1..]
    }

    /// The key as written before its value after another member (`,"key":`).
    pub(crate) fn after_comma(self) -> &'static [u8] {
        self.0.as_bytes()
    }
}

/// The [`JsonKey`] of a literal key.
macro_rules! jk {
    ($key:expr) => {
        JsonKey(concat!(",\"", $key, "\":"))
    };
}

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

/// A model struct's typed fields as the contract writes them.
pub(crate) trait SortedFields {
    /// The present typed fields with their keys, in the keys' sorted order (`extra`
    /// aside, for the structs that have one).
    fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)>;
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
    CompactString => Str,
    std::sync::Arc<str> => Str,
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

/// Expands a field list of the model (`crate::model::feed_fields` and `entry_fields`)
/// into its keys as written in JSON, its sorted view and its `Serialize` impl.
macro_rules! contract_view {
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
        impl JsonKeys for $name {
            /// `TYPED_KEYS` as the JSON writers write them.
            const JSON_KEYS: &[JsonKey] = &[
                $(jk!($key),)* $(jk!($lkey),)* $(jk!($dkey), jk!($pkey),)*
                $($(jk!($mkey),)* $(jk!($mdkey), jk!($mpkey),)*)?
            ];
        }

        impl SortedFields for $name {
            fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
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
                $(
                    // The boxed fields: their slots stay empty when there is no box.
                    if let Some(more) = self.more.as_deref() {
                        let mut at = at;
                        $(
                            slots[at] = more.$mfield.as_ref().map(AsField::field);
                            at += 1;
                        )*
                        $(
                            slots[at] = more.$mdfield.as_deref().map(Field::Str);
                            slots[at + 1] =
                                more.$mdparsed.as_ref().map(|d| Field::Date(d.as_ref()));
                            at += 2;
                        )*
                        debug_assert_eq!(at, N);
                    }
                    at = N;
                )?
                debug_assert_eq!(at, N);
                ORDER
                    .iter()
                    .filter_map(move |&p| slots[p].map(|f| (<$name as JsonKeys>::JSON_KEYS[p], f)))
            }
        }

        /// Serialized as the JSON contract has it: feedparser's keys, sorted, with
        /// `extra` among them.
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                sorted(s, self.sorted_fields(), &self.extra)
            }
        }
    };
}

/// The typed keys of [`Feed`] and [`Entry`] as written in JSON, in the order of
/// their `TYPED_KEYS`.
trait JsonKeys {
    const JSON_KEYS: &[JsonKey];
}

feed_fields!(contract_view);
entry_fields!(contract_view);

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

/// Writes `fields` (in sorted key order) and `extra` as one map, keys in sorted order (a
/// key in both is written once, from `fields`).
fn sorted<'a, S: serde::Serializer>(
    s: S,
    fields: impl IntoIterator<Item = (JsonKey, Field<'a>)>,
    extra: &crate::model::Extra,
) -> Result<S::Ok, S::Error> {
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
    let mut m = s.serialize_map(None)?;
    for (k, v) in fields {
        m.serialize_entry(&k, &v)?;
    }
    m.end()
}

impl SortedFields for Text {
    fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
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
    pairs: [(JsonKey, &'a Option<CompactString>); N],
) -> impl Iterator<Item = (JsonKey, Field<'a>)> {
    pairs
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, Field::Str(v))))
}

impl SortedFields for Link {
    /// The typed keys written and their values, in sorted key order (`extra` aside).
    fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
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

impl SortedFields for Person {
    fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
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

impl SortedFields for Tag {
    fn sorted_fields(&self) -> impl Iterator<Item = (JsonKey, Field<'_>)> {
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

/// Element names as keys, each holding a list of elements.
impl Serialize for Podcast {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
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
}
