//! Where the builder stores what it reads: the typed model itself for the feed and the
//! entry being read, a dictionary for the objects the model keeps as JSON maps.
//!
//! A [`Record`] is a [`crate::model::Feed`] or [`crate::model::Entry`] filled in place:
//! each key feedparser stores goes straight into its typed field ([`Fields::put`], one
//! `match` on the key). Only two kinds of keys wait in the record's `rest` dictionary
//! until the record is final: keys the model has no field for (they end in `extra`), and
//! keys whose field is itself a JSON map (`image`, `textinput`, `where`, `source`,
//! `cloud`, `generator_detail`, `podcast`), which handlers build up element by element.
//! A value whose shape does not fit its field also waits there, exactly as feedparser
//! would have stored it, and the field stays empty; so does a person or a text detail
//! given as a plain object rather than as the model's `Person` or `Text` (handlers
//! change only the latter in place). What the JSON contract writes is what a dictionary
//! would have held: a test runs random sequences of handler operations on both.
//!
//! Values are still handed over as the builder's `super::dict::Value` (a key's text, a
//! detail, a list), since handlers are written against feedparser's keys and any
//! element of any namespace may store one; a typed key's value moves into its field
//! without a copy.
//!
//! [`Slots`] is the one interface the element handlers use, whatever the context: the
//! feed or an entry (a record), or a source, image or text input (a dictionary, which
//! the model keeps as a map).

use super::builder::Dict;
use super::dict::{Item, Key, Value};
use crate::model::{Entry, Feed, Link, Person, Tag, Text};

/// The typed fields of [`Feed`] and [`Entry`], by feedparser key (implemented in
/// `super::convert` from the model's field lists, one `match` per method).
pub(crate) trait Keys {
    /// Whether the key's field is filled in place (a typed field that is not a map).
    fn is_direct(key: &str) -> bool;
    /// Moves `v` into the key's field. `Err(v)` when the key is not filled in place or
    /// `v` does not fit the field (which is then emptied): `v` belongs in `rest`.
    fn put(&mut self, key: &str, v: Value) -> Result<(), Value>;
    /// Whether the key's field is set (a list: not empty).
    fn has(&self, key: &str) -> bool;
    /// Empties the key's field.
    fn clear(&mut self, key: &str);
    /// The key's field when it is a string.
    fn text(&self, key: &str) -> Option<&str>;
    /// Moves the keys of `rest` into their fields (a key already set is replaced); the
    /// other keys, and values that do not fit their field, go to `extra`. The emptied
    /// buffer of `rest` comes back in `spare` when every key moved.
    fn absorb(&mut self, rest: Dict, spare: &mut Option<Dict>);
}

/// The lists and persons [`Feed`] and [`Entry`] both have, which handlers change in
/// place.
pub(crate) trait Fields: Keys + Default + Clone {
    fn links_mut(&mut self) -> &mut Vec<Link>;
    fn tags_mut(&mut self) -> &mut Vec<Tag>;
    /// `authors` or `contributors`.
    fn persons(&self, key: &str) -> Option<&Vec<Person>>;
    fn persons_mut(&mut self, key: &str) -> Option<&mut Vec<Person>>;
    /// `author_detail` or `publisher_detail`.
    fn person_slot(&mut self, key: &str) -> Option<&mut Option<Box<Person>>>;
    fn person(&self, key: &str) -> Option<&Person>;
    /// `content` (entries only).
    fn content_mut(&mut self) -> Option<&mut Vec<Text>>;
}

macro_rules! fields {
    (
        $t:ty,
        |$s:ident| $content:expr,
        publisher: |$p:ident| $publisher:expr, |$q:ident| $publisher_ref:expr $(,)?
    ) => {
        impl Fields for $t {
            fn links_mut(&mut self) -> &mut Vec<Link> {
                &mut self.links
            }
            fn tags_mut(&mut self) -> &mut Vec<Tag> {
                &mut self.tags
            }
            fn persons(&self, key: &str) -> Option<&Vec<Person>> {
                match key {
                    "authors" => Some(&self.authors),
                    "contributors" => Some(&self.contributors),
                    _ => None,
                }
            }
            fn persons_mut(&mut self, key: &str) -> Option<&mut Vec<Person>> {
                match key {
                    "authors" => Some(&mut self.authors),
                    "contributors" => Some(&mut self.contributors),
                    _ => None,
                }
            }
            fn person_slot(&mut self, key: &str) -> Option<&mut Option<Box<Person>>> {
                match key {
                    "author_detail" => Some(&mut self.author_detail),
                    "publisher_detail" => {
                        let $p = self;
                        Some($publisher)
                    }
                    _ => None,
                }
            }
            fn person(&self, key: &str) -> Option<&Person> {
                match key {
                    "author_detail" => self.author_detail.as_deref(),
                    "publisher_detail" => {
                        let $q = self;
                        $publisher_ref
                    }
                    _ => None,
                }
            }
            fn content_mut(&mut self) -> Option<&mut Vec<Text>> {
                let $s = self;
                $content
            }
        }
    };
}

fields!(
    Feed,
    |_f| None,
    publisher: |f| &mut f.publisher_detail, |f| f.publisher_detail.as_deref(),
);
// An entry's publisher is among the fields few entries have (`Entry::more`).
fields!(
    Entry,
    |e| Some(&mut e.content),
    publisher: |e| &mut e.more_mut().publisher_detail, |e| e.more().publisher_detail.as_deref(),
);

/// The typed lists a record marks as present while still empty (feedparser's
/// dictionary holds them as `[]`, and so does the JSON contract).
const LIST_KEYS: [&str; 5] = ["links", "tags", "authors", "contributors", "content"];

/// A feed or entry being filled: its typed fields, and the keys that wait (see the
/// module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Record<M> {
    pub(crate) model: M,
    /// Keys without a field, map-valued keys, and values that do not fit their field.
    pub(crate) rest: Dict,
    /// Bit `i`: the list [`LIST_KEYS`]`[i]` was created, perhaps still empty.
    lists: u8,
}

fn list_bit(key: &str) -> u8 {
    match LIST_KEYS.iter().position(|k| *k == key) {
        Some(i) => 1 << i,
        None => 0,
    }
}

impl<M: Fields> Record<M> {
    /// A record whose `rest` reuses `spare`'s buffer when there is one.
    pub(crate) fn with_spare(spare: Option<Dict>) -> Self {
        Record {
            model: M::default(),
            rest: spare.unwrap_or_default(),
            lists: 0,
        }
    }

    /// The final model; `rest`'s emptied buffer comes back in `spare` when every key
    /// found its field.
    pub(crate) fn finish_reusing(mut self, spare: &mut Option<Dict>) -> M {
        for (i, key) in LIST_KEYS.iter().enumerate() {
            if self.lists & (1 << i) != 0 && !self.model.has(key) && !self.rest.contains_key(key) {
                // Created and left empty: `[]`, as the dictionary had it.
                self.rest
                    .insert(Key::Borrowed(key), Value::Array(Vec::new()));
            }
        }
        if self.rest.is_empty() {
            *spare = Some(self.rest);
        } else {
            self.model.absorb(self.rest, spare);
        }
        self.model
    }

    /// [`Record::finish_reusing`] without a buffer to hand back.
    pub(crate) fn finish(self) -> M {
        self.finish_reusing(&mut None)
    }

    /// The value that waits under `key`, when one does (a typed key's value that did not
    /// fit its field, for instance).
    fn waiting(&self, key: &str) -> Option<&Value> {
        if self.rest.is_empty() {
            None
        } else {
            self.rest.get(key)
        }
    }

    fn waiting_mut(&mut self, key: &str) -> Option<&mut Value> {
        if self.rest.is_empty() {
            None
        } else {
            self.rest.get_mut(key)
        }
    }
}

/// What the element handlers store into: a record or a dictionary, with the same
/// operations (a dictionary's semantics, typed fields underneath for a record).
pub(crate) enum Slots<'a> {
    Dict(&'a mut Dict),
    Feed(&'a mut Record<Feed>),
    Entry(&'a mut Record<Entry>),
}

/// A `match` on the context: `$dict` with `$d` bound to a dictionary, `$rec` with `$r`
/// bound to a record of either kind.
macro_rules! each {
    ($self:expr, $d:ident => $dict:expr, $r:ident => $rec:expr) => {
        match $self {
            Slots::Dict($d) => $dict,
            Slots::Feed($r) => $rec,
            Slots::Entry($r) => $rec,
        }
    };
}

impl<M: Fields> Record<M> {
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.model.has(key) || self.lists & list_bit(key) != 0 || self.waiting(key).is_some()
    }

    pub(crate) fn insert(&mut self, key: Key, v: Value) {
        match self.model.put(&key, v) {
            Ok(()) => {
                // A typed list is present from now on, even empty.
                self.lists |= list_bit(&key);
                if !self.rest.is_empty() {
                    self.rest.remove(&key);
                }
            }
            Err(v) => {
                // A typed list key now holds something else: no longer "created".
                self.lists &= !list_bit(&key);
                self.rest.insert(key, v);
            }
        }
    }

    pub(crate) fn remove(&mut self, key: &str) {
        self.model.clear(key);
        self.lists &= !list_bit(key);
        if !self.rest.is_empty() {
            self.rest.remove(key);
        }
    }

    fn get_str(&self, key: &str) -> Option<&str> {
        match self.waiting(key) {
            Some(v) => v.as_str(),
            None => self.model.text(key),
        }
    }

    /// A typed list, created when `create` (unless something else waits under its key).
    fn list<T>(
        &mut self,
        key: &str,
        create: bool,
        field: impl FnOnce(&mut M) -> Option<&mut Vec<T>>,
    ) -> Option<&mut Vec<T>>
    where
        T: Item,
    {
        if self.waiting(key).is_some() {
            return self.waiting_mut(key).and_then(Value::list_mut::<T>);
        }
        let bit = list_bit(key);
        let list = field(&mut self.model)?;
        if create {
            self.lists |= bit;
        } else if list.is_empty() && self.lists & bit == 0 {
            return None;
        }
        Some(list)
    }
}

impl<'a> Slots<'a> {
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        each!(self, d => d.contains_key(key), r => r.contains_key(key))
    }

    pub(crate) fn insert(&mut self, key: Key, v: Value) {
        each!(self, d => { d.insert(key, v); }, r => r.insert(key, v))
    }

    pub(crate) fn remove(&mut self, key: &str) {
        each!(self, d => { d.remove(key); }, r => r.remove(key))
    }

    /// The string under `key`.
    pub(crate) fn get_str(&self, key: &str) -> Option<&str> {
        each!(self, d => d.get(key).and_then(Value::as_str), r => r.get_str(key))
    }

    /// A copy of the value under `key` (of a typed field filled in place: its string).
    pub(crate) fn get_string_value(&self, key: &str) -> Option<Value> {
        each!(self, d => d.get(key).cloned(), r => match r.waiting(key) {
            Some(v) => Some(v.clone()),
            None => r.model.text(key).map(|s| Value::String(s.to_owned())),
        })
    }

    /// The value under a key that is never a typed field filled in place (an object the
    /// handlers build, or a key the model has no field for).
    pub(crate) fn value(&self, key: &str) -> Option<&Value> {
        each!(self, d => d.get(key), r => {
            debug_assert!(!is_direct(r, key), "{key} is a typed field");
            r.waiting(key)
        })
    }

    /// [`Slots::value`], mutably.
    pub(crate) fn value_mut(&mut self, key: &str) -> Option<&mut Value> {
        each!(self, d => d.get_mut(key), r => {
            debug_assert!(!is_direct(r, key), "{key} is a typed field");
            r.waiting_mut(key)
        })
    }

    /// [`Slots::value_mut`], inserting `default` when the key is absent.
    pub(crate) fn value_or_insert(self, key: Key, default: Value) -> &'a mut Value {
        each!(self, d => d.entry(key).or_insert(default), r => {
            debug_assert!(!is_direct(r, &key), "{key} is a typed field");
            r.rest.entry(key).or_insert(default)
        })
    }

    /// The `links` list, created when `create`; `None` when the key holds something
    /// else.
    pub(crate) fn links_mut(&mut self, create: bool) -> Option<&mut Vec<Link>> {
        each!(self, d => dict_list(d, "links", create),
              r => r.list("links", create, |m| Some(m.links_mut())))
    }

    /// The last of the `links`.
    pub(crate) fn last_link(&self) -> Option<&Link> {
        each!(self, d => d.get("links").and_then(Value::list::<Link>).and_then(|a| a.last()),
        r => match r.waiting("links") {
            Some(v) => v.list::<Link>().and_then(|a| a.last()),
            None => r.model.links().last(),
        })
    }

    /// The `tags` list, created when `create`.
    pub(crate) fn tags_mut(&mut self, create: bool) -> Option<&mut Vec<Tag>> {
        each!(self, d => dict_list(d, "tags", create),
              r => r.list("tags", create, |m| Some(m.tags_mut())))
    }

    /// `authors` or `contributors`, created when `create`.
    pub(crate) fn persons_mut(
        &mut self,
        key: &'static str,
        create: bool,
    ) -> Option<&mut Vec<Person>> {
        each!(self, d => dict_list(d, key, create),
              r => r.list(key, create, |m| m.persons_mut(key)))
    }

    /// `authors` or `contributors`, when present (not created).
    pub(crate) fn persons_existing_mut(&mut self, key: &str) -> Option<&mut Vec<Person>> {
        each!(self, d => d.get_mut(key).and_then(Value::list_mut::<Person>),
              r => r.list(key, false, |m| m.persons_mut(key)))
    }

    /// `authors` or `contributors`.
    pub(crate) fn persons(&self, key: &str) -> Option<&Vec<Person>> {
        each!(self, d => d.get(key).and_then(Value::list::<Person>),
        r => match r.waiting(key) {
            Some(v) => v.list::<Person>(),
            None => r.model.persons(key).filter(|p| !p.is_empty() || r.lists & list_bit(key) != 0),
        })
    }

    /// `author_detail` or `publisher_detail` (or, in a dictionary, any key holding a
    /// person), created empty when absent.
    pub(crate) fn person_mut(&mut self, key: Key) -> Option<&mut Person> {
        each!(self, d => match d.entry(key).or_insert_with(|| Value::Person(Box::default())) {
            Value::Person(p) => Some(&mut **p),
            _ => None,
        }, r => {
            if r.waiting(&key).is_some() {
                return match r.waiting_mut(&key) {
                    Some(Value::Person(p)) => Some(&mut **p),
                    _ => None,
                };
            }
            match r.model.person_slot(&key) {
                Some(slot) => Some(&mut **slot.get_or_insert_with(Box::default)),
                // Not a typed person: it waits like any other key.
                None => match r.rest.entry(key).or_insert_with(|| Value::Person(Box::default())) {
                    Value::Person(p) => Some(&mut **p),
                    _ => None,
                },
            }
        })
    }

    /// The person under `key`.
    pub(crate) fn person(&self, key: &str) -> Option<&Person> {
        fn held(v: Option<&Value>) -> Option<&Person> {
            match v {
                Some(Value::Person(p)) => Some(&**p),
                _ => None,
            }
        }
        each!(self, d => held(d.get(key)), r => match r.waiting(key) {
            Some(v) => held(Some(v)),
            None => r.model.person(key),
        })
    }

    /// Appends a content detail to `content`. A detail without a media type (a
    /// dictionary, not the model's `Text`) turns the typed list into a plain one first,
    /// so that it is kept as it is.
    pub(crate) fn push_content(&mut self, detail: Result<Text, Value>) {
        let d = match self {
            Slots::Entry(r) if r.waiting("content").is_none() => {
                match detail {
                    Ok(t) => {
                        r.lists |= list_bit("content");
                        if let Some(c) = r.model.content_mut() {
                            super::builder::push_sized(c, 1, t);
                        }
                    }
                    Err(dict) => {
                        // The typed items so far, then this one, as a plain list.
                        let items = r.model.content_mut().map(std::mem::take);
                        r.lists &= !list_bit("content");
                        let mut list: Vec<Value> = items
                            .unwrap_or_default()
                            .into_iter()
                            .map(|t| Value::Text(Box::new(t)))
                            .collect();
                        list.push(dict);
                        r.rest.insert(Key::Borrowed("content"), Value::Array(list));
                    }
                }
                return;
            }
            Slots::Entry(r) => &mut r.rest,
            Slots::Feed(r) => &mut r.rest,
            Slots::Dict(d) => &mut **d,
        };
        let list = d
            .entry(Key::Borrowed("content"))
            .or_insert_with(Text::empty_list);
        push_content_item(list, detail);
    }
}

fn is_direct<M: Fields>(_: &Record<M>, key: &str) -> bool {
    M::is_direct(key)
}

/// A typed list in a dictionary, created when `create`.
fn dict_list<'d, T: Item>(
    d: &'d mut Dict,
    key: &'static str,
    create: bool,
) -> Option<&'d mut Vec<T>> {
    if create {
        d.entry(Key::Borrowed(key))
            .or_insert_with(T::empty_list)
            .list_mut::<T>()
    } else {
        d.get_mut(key).and_then(Value::list_mut::<T>)
    }
}

/// Appends a content detail to a `content` value (see [`Slots::push_content`]).
fn push_content_item(list: &mut Value, detail: Result<Text, Value>) {
    let detail = match detail {
        Ok(t) => match list.list_mut::<Text>() {
            Some(texts) => return texts.push(t),
            None => Value::Text(Box::new(t)),
        },
        Err(dict) => dict,
    };
    if let Some(texts) = list.list_mut::<Text>() {
        let items = std::mem::take(texts);
        *list = Value::Array(
            items
                .into_iter()
                .map(|t| Value::Text(Box::new(t)))
                .collect(),
        );
    }
    if let Some(a) = list.as_array_mut() {
        a.push(detail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TextMeta;
    use std::sync::Arc;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    const KEYS: &[&str] = &[
        "title",
        "title_detail",
        "link",
        "links",
        "summary",
        "summary_detail",
        "id",
        "guidislink",
        "author",
        "author_detail",
        "publisher",
        "publisher_detail",
        "rights",
        "comments",
        "source",
        "where",
        "podcast",
        "content",
        "authors",
        "contributors",
        "tags",
        "published",
        "published_parsed",
        "updated_parsed",
        "media_content",
        "x_y",
    ];

    fn value(rng: &mut Rng) -> Value {
        let text = |rng: &mut Rng| {
            Text::new(
                TextMeta {
                    content_type: "text/html".into(),
                    ..TextMeta::default()
                },
                ["a", "", "<b>"][rng.below(3)].into(),
            )
        };
        match rng.below(13) {
            0 => Value::String(["s", "", "http://e/"][rng.below(3)].into()),
            1 => Value::Shared(Arc::from("shared")),
            2 => Value::Null,
            3 => Value::Bool(rng.below(2) == 0),
            4 => Value::Int(7),
            5 => Value::Person(Box::new(Person {
                name: Some("n".into()),
                ..Person::default()
            })),
            6 => Value::Text(Box::new(text(rng))),
            7 => {
                let mut o = Dict::new();
                o.insert("href".into(), Value::String("h".into()));
                Value::Object(o)
            }
            8 => Value::Links(vec![Link {
                href: Some("l".into()),
                ..Link::default()
            }]),
            9 => Value::Array(vec![Value::String("a".into())]),
            10 => Value::Date(crate::date::parse_date("2020-01-02T03:04:05Z").expect("date")),
            11 => Value::Texts(vec![text(rng)]),
            _ => Value::Tags(Vec::new()),
        }
    }

    /// One handler-like operation, applied the same way to any context.
    fn op(rng: &mut Rng, s: &mut Slots<'_>) {
        let key = KEYS[rng.below(KEYS.len())];
        match rng.below(12) {
            0..=3 => s.insert(Key::Borrowed(key), value(rng)),
            4 => s.remove(key),
            5 => {
                let create = rng.below(2) == 0;
                if let Some(l) = s.links_mut(create) {
                    l.push(Link {
                        rel: Some("alternate".into()),
                        ..Link::default()
                    });
                }
            }
            6 => {
                if let Some(t) = s.tags_mut(rng.below(2) == 0) {
                    t.push(Tag {
                        term: Some("t".into()),
                        ..Tag::default()
                    });
                }
            }
            7 => {
                let list = ["authors", "contributors"][rng.below(2)];
                if let Some(p) = s.persons_mut(list, rng.below(2) == 0) {
                    p.push(Person::default());
                } else if let Some(p) = s.persons_existing_mut(list).and_then(|p| p.last_mut()) {
                    p.email = Some("e".into());
                }
            }
            8 => {
                let key = ["author_detail", "publisher_detail"][rng.below(2)];
                if let Some(p) = s.person_mut(Key::Borrowed(key)) {
                    p.href = Some("h".into());
                }
            }
            9 => {
                let detail = if rng.below(3) == 0 {
                    Err(Value::Object(Dict::new()))
                } else {
                    Ok(Text::new(TextMeta::default(), "c".into()))
                };
                s.push_content(detail);
            }
            10 => {
                let seen = (
                    s.contains_key(key),
                    s.get_str(key).map(str::to_owned),
                    s.last_link().cloned(),
                    s.persons("authors").map(Vec::len),
                    s.person("author_detail").cloned(),
                );
                // Reading changes nothing; the readings themselves are compared below.
                s.insert(Key::Borrowed("x_seen"), Value::String(format!("{seen:?}")));
            }
            _ => {
                if let Some(Value::Object(o)) = s.value_mut("where") {
                    o.insert("type".into(), Value::String("Point".into()));
                } else {
                    s.insert(Key::Borrowed("where"), Value::Object(Dict::new()));
                }
            }
        }
    }

    #[test]
    fn a_record_ends_as_the_dictionary_it_replaces() {
        // The same operations on a dictionary (converted at the end, as the builder
        // once did) and on a record (filled in place) give the same entry.
        for seed in 1..3000u64 {
            let (mut a, mut b) = (Rng(seed), Rng(seed));
            let mut dict = Dict::new();
            let mut record = Record::<Entry>::default();
            for _ in 0..1 + seed as usize % 24 {
                op(&mut a, &mut Slots::Dict(&mut dict));
                op(&mut b, &mut Slots::Entry(&mut record));
            }
            let from_dict = serde_json::to_string(&Entry::from_builder(dict)).expect("json");
            let from_record = serde_json::to_string(&record.finish()).expect("json");
            assert_eq!(from_record, from_dict, "seed {seed}");
        }
    }

    #[test]
    fn typed_keys_are_filled_in_place_and_nothing_waits() {
        let mut r = Record::<Entry>::default();
        let mut s = Slots::Entry(&mut r);
        s.insert("title".into(), Value::String("T".into()));
        s.insert("guidislink".into(), Value::Bool(true));
        s.links_mut(true).expect("links").push(Link::default());
        s.person_mut("author_detail".into()).expect("person").name = Some("n".into());
        assert!(r.rest.is_empty(), "{:?}", r.rest);
        assert_eq!(r.model.title.as_deref(), Some("T"));
        assert_eq!(r.model.guidislink, Some(true));
        assert_eq!(r.model.links.len(), 1);
        // A map-valued key and an unknown key wait; a value of the wrong shape waits
        // and empties the field.
        let mut s = Slots::Entry(&mut r);
        s.insert("where".into(), Value::Object(Dict::new()));
        s.insert("itunes_block".into(), Value::Int(1));
        s.insert("title".into(), Value::Int(5));
        assert_eq!(r.rest.iter().count(), 3);
        assert!(r.model.title.is_none());
        let e = r.finish();
        assert_eq!(e.extra.get("title"), Some(&serde_json::json!(5)));
        assert!(e.more().location.is_some());
    }
}
