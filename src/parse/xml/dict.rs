//! The builder's dictionaries: feedparser-shaped values like `serde_json::Value`, but
//! cheap to build, for what the model keeps as JSON (a source, image or text input, the
//! `where` and media objects, keys the model has no field for) while handlers build it
//! element by element, and as the values handed to the typed fields
//! (`super::record::Slots::insert`). An object is a small vector of pairs and its keys
//! are `&'static str` whenever they are literals. (JSON Feed does not use them: its
//! objects map straight into the model, [`crate::parse::jsonfeed`].)

use std::borrow::Cow;

/// A dictionary key: a literal or, for attribute names and unknown elements, a string.
pub(crate) type Key = Cow<'static, str>;

/// A feedparser value.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    /// A string held twice, as a text construct's value and as its `_detail`'s `value`
    /// (`summary` and `summary_detail`): one copy, shared, like the typed fields it
    /// moves into. Equal to the [`Value::String`] of the same text.
    Shared(std::sync::Arc<str>),
    /// A text construct's details (`title_detail`, a `content` item), built as the
    /// model's [`crate::model::Text`] directly rather than as a dictionary.
    Text(Box<crate::model::Text>),
    /// A person (`author_detail`, `authors` and `contributors` items …), built as the
    /// model's [`crate::model::Person`] directly.
    Person(Box<crate::model::Person>),
    Array(Vec<Value>),
    /// The `links` list, typed: its items move into [`crate::model::Entry::links`] and
    /// [`crate::model::Feed::links`] as they are (no box per item, no second list).
    Links(Vec<crate::model::Link>),
    /// The `tags` list, typed.
    Tags(Vec<crate::model::Tag>),
    /// A list of persons (`authors`, `contributors`), typed.
    Persons(Vec<crate::model::Person>),
    /// The `content` list, typed.
    Texts(Vec<crate::model::Text>),
    Object(Map),
    /// A parsed date (`*_parsed`): a Python `struct_time` (an array of nine integers)
    /// in JSON, kept as the date itself here.
    Date(chrono::DateTime<chrono::Utc>),
}

/// Maps with more keys than this get a hashed index of positions; smaller ones are
/// searched linearly, which is faster for the few dozen keys a feed dictionary holds.
const SMALL: usize = 32;

/// Pairs with unique keys in insertion order: a plain vector searched linearly while it
/// is small, with a hash table of positions beside it once it grows past [`SMALL`] keys,
/// so that a hostile input with endless distinct keys (element or attribute names) costs
/// linear time, not quadratic. The keys are stored once, in the vector.
#[derive(Clone)]
pub(crate) struct KeyedVec<V> {
    pairs: Vec<(Key, V)>,
    index: Option<Box<Index>>,
}

/// Positions in [`KeyedVec::pairs`], hashed by key (foldhash with a per-process random
/// seed, so that collisions cannot be crafted offline to make it quadratic again).
#[derive(Clone)]
struct Index {
    table: hashbrown::HashTable<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl Index {
    fn hash(&self, key: &str) -> u64 {
        use std::hash::BuildHasher;
        self.hasher.hash_one(key)
    }
}

impl<V> Default for KeyedVec<V> {
    fn default() -> Self {
        KeyedVec::new()
    }
}

impl<V: std::fmt::Debug> std::fmt::Debug for KeyedVec<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.pairs.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<V> KeyedVec<V> {
    pub(crate) fn new() -> Self {
        KeyedVec {
            pairs: Vec::new(),
            index: None,
        }
    }

    pub(crate) fn with_capacity(n: usize) -> Self {
        KeyedVec {
            pairs: Vec::with_capacity(n),
            index: None,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Inlined so that a literal key is compared in place (the common case: a small
    /// map and a known key); the indexed search stays out of line.
    #[inline]
    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            None => self.pairs.iter().position(|(k, _)| k == key),
            Some(ix) => self.indexed_position(ix, key),
        }
    }

    #[inline(never)]
    fn indexed_position(&self, ix: &Index, key: &str) -> Option<usize> {
        ix.table
            .find(ix.hash(key), |&i| self.pairs[i as usize].0 == key)
            .map(|&i| i as usize)
    }

    #[inline]
    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.position(key).map(|i| &self.pairs[i].1)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.position(key).map(|i| &mut self.pairs[i].1)
    }

    /// Appends a pair whose key is not present; returns its position.
    #[inline]
    fn push_new(&mut self, key: Key, value: V) -> usize {
        let i = self.pairs.len();
        self.pairs.push((key, value));
        if self.index.is_some() || i >= SMALL {
            self.index_last();
        }
        i
    }

    /// Adds the last pair to the index, building the index when the map just grew past
    /// [`SMALL`].
    #[inline(never)]
    fn index_last(&mut self) {
        let Some(ix) = &mut self.index else {
            self.build_index();
            return;
        };
        let i = self.pairs.len() - 1;
        let h = ix.hash(&self.pairs[i].0);
        let pairs = &self.pairs;
        let hasher = &ix.hasher;
        ix.table.insert_unique(h, i as u32, |&j| {
            use std::hash::BuildHasher;
            hasher.hash_one(&*pairs[j as usize].0)
        });
    }

    fn build_index(&mut self) {
        let hasher = hashbrown::DefaultHashBuilder::default();
        let mut table = hashbrown::HashTable::with_capacity(self.pairs.len() * 2);
        for (i, (k, _)) in self.pairs.iter().enumerate() {
            use std::hash::BuildHasher;
            let h = hasher.hash_one(&**k);
            table.insert_unique(h, i as u32, |&j| {
                hasher.hash_one(&*self.pairs[j as usize].0)
            });
        }
        self.index = Some(Box::new(Index { table, hasher }));
    }

    /// Sets `key` to `value`; returns the value it replaces.
    #[inline]
    pub(crate) fn insert(&mut self, key: Key, value: V) -> Option<V> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.pairs[i].1, value)),
            None => {
                self.push_new(key, value);
                None
            }
        }
    }

    /// Removes `key` (the last pair takes its place).
    pub(crate) fn remove(&mut self, key: &str) -> Option<V> {
        let i = self.position(key)?;
        let last = self.pairs.len() - 1;
        if let Some(ix) = &mut self.index {
            let h = ix.hash(key);
            if let Ok(e) = ix.table.find_entry(h, |&j| j as usize == i) {
                e.remove();
            }
            if i != last {
                let h = ix.hash(&self.pairs[last].0);
                if let Some(j) = ix.table.find_mut(h, |&j| j as usize == last) {
                    *j = i as u32;
                }
            }
        }
        Some(self.pairs.swap_remove(i).1)
    }

    /// The value for `key`, inserted with `f` when absent.
    #[inline]
    pub(crate) fn get_or_insert_with(&mut self, key: Key, f: impl FnOnce() -> V) -> &mut V {
        let i = match self.position(&key) {
            Some(i) => i,
            None => self.push_new(key, f()),
        };
        &mut self.pairs[i].1
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.pairs.iter().map(|(k, v)| (&**k, v))
    }

    /// The pairs, in insertion order.
    pub(crate) fn into_pairs(self) -> Vec<(Key, V)> {
        self.pairs
    }
}

/// A feedparser dictionary (keys are unique; order carries no meaning).
#[derive(Clone, Debug, Default)]
pub(crate) struct Map(KeyedVec<Value>);

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.0.len() == other.0.len() && self.0.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Map {
    pub(crate) fn new() -> Map {
        Map(KeyedVec::new())
    }

    pub(crate) fn with_capacity(n: usize) -> Map {
        Map(KeyedVec::with_capacity(n))
    }

    #[inline]
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.get_mut(key)
    }

    #[inline]
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.0.position(key).is_some()
    }

    #[inline]
    pub(crate) fn insert(&mut self, key: Key, value: Value) -> Option<Value> {
        self.0.insert(key, value)
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<Value> {
        self.0.remove(key)
    }

    pub(crate) fn entry(&mut self, key: Key) -> Entry<'_> {
        Entry { map: self, key }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn extend(&mut self, other: Map) {
        for (k, v) in other.0.into_pairs() {
            self.insert(k, v);
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter()
    }

    /// The pairs, for the typed model.
    pub(crate) fn into_pairs(self) -> Vec<(Key, Value)> {
        self.0.into_pairs()
    }

    /// An empty dictionary in an emptied buffer of pairs (its capacity reused).
    pub(crate) fn from_empty(mut pairs: Vec<(Key, Value)>) -> Map {
        pairs.clear();
        Map(KeyedVec { pairs, index: None })
    }

    /// The same dictionary as a `serde_json` map.
    pub(crate) fn into_json(self) -> serde_json::Map<String, serde_json::Value> {
        self.into_pairs()
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_json()))
            .collect()
    }

    /// A `serde_json` map as a dictionary.
    pub(crate) fn from_json(m: serde_json::Map<String, serde_json::Value>) -> Map {
        let mut out = Map::with_capacity(m.len());
        for (k, v) in m {
            out.insert(Key::Owned(k), Value::from_json(v));
        }
        out
    }
}

/// A slot of [`Map::entry`].
pub(crate) struct Entry<'a> {
    map: &'a mut Map,
    key: Key,
}

impl<'a> Entry<'a> {
    #[inline]
    pub(crate) fn or_insert_with(self, f: impl FnOnce() -> Value) -> &'a mut Value {
        self.map.0.get_or_insert_with(self.key, f)
    }

    pub(crate) fn or_insert(self, v: Value) -> &'a mut Value {
        self.or_insert_with(|| v)
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Links(a), Value::Links(b)) => a == b,
            (Value::Tags(a), Value::Tags(b)) => a == b,
            (Value::Persons(a), Value::Persons(b)) => a == b,
            (Value::Texts(a), Value::Texts(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            (Value::Date(a), Value::Date(b)) => a == b,
            (Value::Text(a), Value::Text(b)) => a == b,
            (Value::Person(a), Value::Person(b)) => a == b,
            (a, b) => a.as_str().is_some_and(|a| b.as_str() == Some(a)),
        }
    }
}

impl Value {
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            Value::Shared(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    pub(crate) fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub(crate) fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// A typed list's items (`links`, `tags`, `authors`, `content` …).
    pub(crate) fn list<T: Item>(&self) -> Option<&Vec<T>> {
        T::list(self)
    }

    /// A typed list's items, mutably.
    pub(crate) fn list_mut<T: Item>(&mut self) -> Option<&mut Vec<T>> {
        T::list_mut(self)
    }

    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub(crate) fn is_string(&self) -> bool {
        matches!(self, Value::String(_) | Value::Shared(_))
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// An object's value for `key`, mutably.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_object_mut()?.get_mut(key)
    }

    /// The same value as `serde_json` has it.
    pub(crate) fn into_json(self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => b.into(),
            Value::Int(n) => n.into(),
            Value::Float(f) => {
                serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into)
            }
            Value::String(s) => s.into(),
            Value::Shared(s) => serde_json::Value::String(s.to_string()),
            Value::Array(a) => a.into_iter().map(Value::into_json).collect(),
            Value::Links(a) => serde_json::to_value(a).unwrap_or(serde_json::Value::Null),
            Value::Tags(a) => serde_json::to_value(a).unwrap_or(serde_json::Value::Null),
            Value::Persons(a) => serde_json::to_value(a).unwrap_or(serde_json::Value::Null),
            Value::Texts(a) => serde_json::to_value(a).unwrap_or(serde_json::Value::Null),
            Value::Object(o) => serde_json::Value::Object(o.into_json()),
            Value::Text(t) => serde_json::to_value(&*t).unwrap_or(serde_json::Value::Null),
            Value::Person(p) => serde_json::to_value(&*p).unwrap_or(serde_json::Value::Null),
            Value::Date(d) => crate::date::struct_time(&d)
                .iter()
                .map(|&n| serde_json::Value::from(n))
                .collect(),
        }
    }

    /// A `serde_json` value as a dictionary value.
    pub(crate) fn from_json(v: serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) if !n.is_f64() => Value::Int(i),
                (_, Some(f)) => Value::Float(f),
                _ => Value::Null,
            },
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(a) => {
                Value::Array(a.into_iter().map(Value::from_json).collect())
            }
            serde_json::Value::Object(o) => Value::Object(Map::from_json(o)),
        }
    }
}

/// A model type kept in a typed list variant of [`Value`]: built in place by the
/// builder and moved into the model's `Vec` as it is.
pub(crate) trait Item: Sized {
    /// The items, when `v` is a list of this type.
    fn list(v: &Value) -> Option<&Vec<Self>>;
    /// The items, mutably, when `v` is a list of this type.
    fn list_mut(v: &mut Value) -> Option<&mut Vec<Self>>;
    /// The items, moved out, when `v` is a list of this type; else `v` unchanged.
    fn take_list(v: Value) -> Result<Vec<Self>, Value>;
    /// A new, empty list of this type (`links`, `tags`, `authors`, `content` …).
    fn empty_list() -> Value;
}

macro_rules! typed_list {
    ($($t:ty => $variant:ident),* $(,)?) => {$(
        impl Item for $t {
            fn list(v: &Value) -> Option<&Vec<Self>> {
                match v {
                    Value::$variant(a) => Some(a),
                    _ => None,
                }
            }

            fn list_mut(v: &mut Value) -> Option<&mut Vec<Self>> {
                match v {
                    Value::$variant(a) => Some(a),
                    _ => None,
                }
            }

            fn take_list(v: Value) -> Result<Vec<Self>, Value> {
                match v {
                    Value::$variant(a) => Ok(a),
                    other => Err(other),
                }
            }

            fn empty_list() -> Value {
                Value::$variant(Vec::new())
            }
        }
    )*};
}

typed_list! {
    crate::model::Link => Links,
    crate::model::Tag => Tags,
    crate::model::Person => Persons,
    crate::model::Text => Texts,
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Value {
        Value::String(s.clone())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(a: Vec<T>) -> Value {
        Value::Array(a.into_iter().map(Into::into).collect())
    }
}

impl From<chrono::DateTime<chrono::Utc>> for Value {
    fn from(d: chrono::DateTime<chrono::Utc>) -> Value {
        Value::Date(d)
    }
}

/// `json!` for [`Value`]: `jv!({})`, `jv!([])`, `jv!([{}])`, `jv!({"k": expr, …})`,
/// `jv!([expr, …])`, `jv!(expr)`.
macro_rules! jv {
    ({}) => {
        $crate::parse::xml::dict::Value::Object($crate::parse::xml::dict::Map::new())
    };
    ([]) => {
        $crate::parse::xml::dict::Value::Array(Vec::new())
    };
    ([{}]) => {
        $crate::parse::xml::dict::Value::Array(vec![jv!({})])
    };
    ({ $($k:literal : $v:expr),* $(,)? }) => {{
        let mut m = $crate::parse::xml::dict::Map::with_capacity([$($k),*].len());
        $( m.insert($k.into(), $crate::parse::xml::dict::Value::from($v)); )*
        $crate::parse::xml::dict::Value::Object(m)
    }};
    ([ $($v:expr),* $(,)? ]) => {
        $crate::parse::xml::dict::Value::Array(vec![$($crate::parse::xml::dict::Value::from($v)),*])
    };
    ($v:expr) => {
        $crate::parse::xml::dict::Value::from($v)
    };
}
pub(crate) use jv;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_compare_as_sets_and_round_trip_through_json() {
        let mut a = Map::new();
        a.insert("x".into(), jv!(1i64));
        a.insert(Key::Owned("y".into()), jv!("s"));
        let mut b = Map::new();
        b.insert("y".into(), jv!("s"));
        b.insert("x".into(), jv!(1i64));
        assert_eq!(a, b);
        assert_eq!(a.insert("x".into(), Value::Null), Some(Value::Int(1)));
        assert_ne!(a, b);
        let j = serde_json::json!({"a": [1, 2.5, null, true], "b": {"c": "d"}});
        assert_eq!(Value::from_json(j.clone()).into_json(), j);
        assert_eq!(
            jv!({"k": "v"})
                .as_object()
                .and_then(|o| o.get("k"))
                .and_then(Value::as_str),
            Some("v")
        );
    }
}

#[cfg(test)]
mod keyed_tests {
    use super::*;
    use std::collections::HashMap;

    /// Inserts, overwrites and removes across the small/indexed boundary and checks every
    /// key against a `HashMap` after each step.
    #[test]
    fn indexed_map_agrees_with_a_hash_map() {
        let mut m: KeyedVec<u32> = KeyedVec::new();
        let mut reference: HashMap<String, u32> = HashMap::new();
        let mut x: u32 = 7;
        for step in 0..3000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let key = format!("k{}", (x >> 8) % 200);
            if x.is_multiple_of(5) {
                assert_eq!(m.remove(&key), reference.remove(&key), "step {step}");
            } else {
                assert_eq!(
                    m.insert(Key::Owned(key.clone()), step),
                    reference.insert(key, step),
                    "step {step}"
                );
            }
            assert_eq!(m.len(), reference.len());
            if step % 97 == 0 {
                for (k, v) in &reference {
                    assert_eq!(m.get(k), Some(v), "step {step} key {k}");
                }
                assert_eq!(m.get("absent"), None);
            }
        }
        assert!(m.index.is_some(), "the map grew past SMALL");
    }
}
