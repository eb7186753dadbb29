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
///
/// An empty map is one pointer (most records have no such key): the map is boxed when
/// its first key is put in, through `DerefMut`.
#[derive(Clone, Default)]
pub struct Extra(Option<Box<LiteMap<String, Value>>>);

/// What an `Extra` without a box reads as.
static EMPTY: LiteMap<String, Value> = LiteMap::new_vec();

impl Extra {
    /// The map, boxed when it holds a key, its vector cut to its length: a map built by
    /// pushing gets room for four pairs at its first (224 bytes where an entry's one
    /// author `href` needs 56).
    fn from_map(map: LiteMap<String, Value>) -> Self {
        if map.is_empty() {
            return Self(None);
        }
        let mut pairs = map.into_tuple_vec();
        pairs.shrink_to_fit();
        // Still sorted, without duplicates: the same pairs in the same order.
        Self(Some(Box::new(LiteMap::from_sorted_store_unchecked(pairs))))
    }
}

impl Deref for Extra {
    type Target = LiteMap<String, Value>;

    fn deref(&self) -> &Self::Target {
        self.0.as_deref().unwrap_or(&EMPTY)
    }
}

/// Makes the box when there is none.
impl DerefMut for Extra {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.0.get_or_insert_with(Box::default)
    }
}

/// Equal when they hold the same keys and values (an emptied box equals none).
impl PartialEq for Extra {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Extra {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Extra {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        LiteMap::deserialize(d).map(Self::from_map)
    }
}

/// `extra["key"]`: the value under `key`; panics when there is none, as a map's index
/// does.
impl Index<&str> for Extra {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.get(key)
            .unwrap_or_else(|| panic!("no key {key:?} in extra"))
    }
}

/// Collected in key order; of two values under one key, the later is kept.
impl FromIterator<(String, Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Self::from_map(iter.into_iter().collect())
    }
}

/// Of two values under one key, the later is kept (as `insert` does). Nothing to put
/// in makes no box.
impl Extend<(String, Value)> for Extra {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        let mut iter = iter.into_iter().peekable();
        if iter.peek().is_some() {
            (**self).extend(iter);
        }
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a String, &'a Value);
    type IntoIter = <&'a LiteMap<String, Value> as IntoIterator>::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        (&**self).into_iter()
    }
}

impl IntoIterator for Extra {
    type Item = (String, Value);
    type IntoIter = <LiteMap<String, Value> as IntoIterator>::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.0.map(|m| *m).unwrap_or_default().into_iter()
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

    #[test]
    fn a_collected_map_has_room_for_its_keys_only() {
        for n in 1..6 {
            let e: Extra = (0..n).rev().map(|i| (format!("k{i}"), json!(i))).collect();
            let map = e.0.as_deref().expect("boxed");
            assert_eq!(map.len(), n);
            assert_eq!(map.clone().into_tuple_vec().len(), n);
            // The box's own vector: no spare room for later pushes.
            let pairs = e.0.unwrap().into_tuple_vec();
            assert_eq!(pairs.capacity(), n, "{n} keys");
            let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            assert_eq!(keys, sorted);
        }
    }

    #[test]
    fn empty_is_one_pointer_and_equal_however_made() {
        assert_eq!(std::mem::size_of::<Extra>(), std::mem::size_of::<usize>());
        let none = Extra::default();
        assert!(none.is_empty() && none.get("x").is_none());
        let mut emptied = Extra::default();
        emptied.insert("k".to_owned(), json!(1));
        emptied.remove("k");
        assert_eq!(emptied, none);
        let mut nothing = Extra::default();
        nothing.extend(std::iter::empty());
        assert!(nothing.0.is_none());
        let collected: Extra = std::iter::empty().collect();
        assert!(collected.0.is_none());
        assert_eq!(format!("{:?}", emptied), "{}");
        assert_eq!(none.into_iter().count(), 0);
    }
}
