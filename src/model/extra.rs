//! [`Extra`]: the keys of a feed, an entry or a link that have no typed field.

use std::ops::{Deref, DerefMut, Index};

use litemap::LiteMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The keys of a feed, an entry or a link that have no typed field, by their feedparser
/// name, with the values they have in the JSON contract: a map kept sorted by key in one
/// vector (ICU4X's [`LiteMap`], whose methods it derefs to: `get`, `contains_key`,
/// `iter`, `insert`, `remove`, `extend` …), indexed by `&str`.
///
/// Most entries that have any such key have one or two (an author's `href`,
/// `wfw_commentrss`, `slash_comments`, an `itunes_duration`), where a `BTreeMap` gives
/// the first key a node of eleven slots, six hundred bytes. Lookups are binary searches;
/// iteration is in key order, as the JSON contract writes them. Many keys are best put
/// in with one `extend` (a single sort) rather than one `insert` each (which moves the
/// keys after it).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Extra(pub LiteMap<String, Value>);

impl Deref for Extra {
    type Target = LiteMap<String, Value>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for Extra {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// `extra["key"]`: the value under `key`; panics when there is none, as a map's index
/// does.
impl Index<&str> for Extra {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.0
            .get(key)
            .unwrap_or_else(|| panic!("no key {key:?} in extra"))
    }
}

/// Collected in key order; of two values under one key, the later is kept.
impl FromIterator<(String, Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

/// Of two values under one key, the later is kept (as `insert` does).
impl Extend<(String, Value)> for Extra {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a String, &'a Value);
    type IntoIter = <&'a LiteMap<String, Value> as IntoIterator>::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        (&self.0).into_iter()
    }
}

impl IntoIterator for Extra {
    type Item = (String, Value);
    type IntoIter = <LiteMap<String, Value> as IntoIterator>::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sorted_by_key_later_value_kept() {
        let mut e: Extra = [("b", 1), ("a", 2), ("b", 3)]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), json!(v)))
            .collect();
        assert_eq!(e.len(), 2);
        assert_eq!(e["b"], json!(3));
        e.extend([("0".to_owned(), json!(4)), ("a".to_owned(), json!(5))]);
        let keys: Vec<&str> = e.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["0", "a", "b"]);
        assert_eq!(e["a"], json!(5));
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"0":4,"a":5,"b":3}"#);
        let back: Extra = serde_json::from_str(r#"{"z":1,"y":2}"#).unwrap();
        assert_eq!(back.iter().next().map(|(k, _)| k.as_str()), Some("y"));
    }
}
