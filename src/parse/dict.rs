//! The builder's dictionaries: feedparser-shaped values like `serde_json::Value`, but
//! cheap to build. An object is a small vector of pairs (feed dictionaries hold a few
//! dozen keys at most) and its keys are `&'static str` whenever they are literals, so
//! building an entry allocates only for the text it holds. The typed model is filled from
//! these directly (`Entry::from_builder`); only keys the model does not type are turned
//! into `serde_json` values.

use std::borrow::Cow;

/// A dictionary key: a literal or, for attribute names and unknown elements, a string.
pub(crate) type Key = Cow<'static, str>;

/// A feedparser value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    Array(Vec<Value>),
    Object(Map),
    /// A parsed date (`*_parsed`): a Python `struct_time`, an array of nine integers in
    /// JSON, kept flat here.
    Time([i64; 9]),
}

/// A feedparser dictionary (keys are unique; order carries no meaning).
#[derive(Clone, Debug, Default)]
pub(crate) struct Map(Vec<(Key, Value)>);

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.0.len() == other.0.len() && self.0.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Map {
    pub(crate) fn new() -> Map {
        Map(Vec::new())
    }

    pub(crate) fn with_capacity(n: usize) -> Map {
        Map(Vec::with_capacity(n))
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.0.iter().position(|(k, _)| k == key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    pub(crate) fn insert(&mut self, key: Key, value: Value) -> Option<Value> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<Value> {
        self.position(key).map(|i| self.0.swap_remove(i).1)
    }

    pub(crate) fn entry(&mut self, key: Key) -> Entry<'_> {
        Entry { map: self, key }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn extend(&mut self, other: Map) {
        for (k, v) in other.0 {
            self.insert(k, v);
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (&**k, v))
    }

    /// The pairs, for the typed model.
    pub(crate) fn into_pairs(self) -> Vec<(Key, Value)> {
        self.0
    }

    /// The same dictionary as a `serde_json` map.
    pub(crate) fn into_json(self) -> serde_json::Map<String, serde_json::Value> {
        self.0
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_json()))
            .collect()
    }

    /// A `serde_json` map as a dictionary.
    pub(crate) fn from_json(m: serde_json::Map<String, serde_json::Value>) -> Map {
        Map(m
            .into_iter()
            .map(|(k, v)| (Key::Owned(k), Value::from_json(v)))
            .collect())
    }
}

/// A slot of [`Map::entry`].
pub(crate) struct Entry<'a> {
    map: &'a mut Map,
    key: Key,
}

impl<'a> Entry<'a> {
    pub(crate) fn or_insert_with(self, f: impl FnOnce() -> Value) -> &'a mut Value {
        let i = match self.map.position(&self.key) {
            Some(i) => i,
            None => {
                self.map.0.push((self.key, f()));
                self.map.0.len() - 1
            }
        };
        &mut self.map.0[i].1
    }

    pub(crate) fn or_insert(self, v: Value) -> &'a mut Value {
        self.or_insert_with(|| v)
    }
}

impl Value {
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
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

    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub(crate) fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// An object's value for `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
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
            Value::Array(a) => a.into_iter().map(Value::into_json).collect(),
            Value::Object(o) => serde_json::Value::Object(o.into_json()),
            Value::Time(t) => t.iter().map(|&n| serde_json::Value::from(n)).collect(),
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

impl From<[i64; 9]> for Value {
    fn from(a: [i64; 9]) -> Value {
        Value::Time(a)
    }
}

/// `json!` for [`Value`]: `jv!({})`, `jv!([])`, `jv!([{}])`, `jv!({"k": expr, …})`,
/// `jv!([expr, …])`, `jv!(expr)`.
macro_rules! jv {
    ({}) => {
        $crate::parse::dict::Value::Object($crate::parse::dict::Map::new())
    };
    ([]) => {
        $crate::parse::dict::Value::Array(Vec::new())
    };
    ([{}]) => {
        $crate::parse::dict::Value::Array(vec![jv!({})])
    };
    ({ $($k:literal : $v:expr),* $(,)? }) => {{
        let mut m = $crate::parse::dict::Map::with_capacity([$($k),*].len());
        $( m.insert($k.into(), $crate::parse::dict::Value::from($v)); )*
        $crate::parse::dict::Value::Object(m)
    }};
    ([ $($v:expr),* $(,)? ]) => {
        $crate::parse::dict::Value::Array(vec![$($crate::parse::dict::Value::from($v)),*])
    };
    ($v:expr) => {
        $crate::parse::dict::Value::from($v)
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
        assert_eq!(jv!({"k": "v"}).get("k").and_then(Value::as_str), Some("v"));
    }
}
