//! Key–value pairs read like a map's entries.

/// Sorts `pairs` by key (stably) and keeps, of each run of equal keys, the value given
/// last, in place: what inserting them one by one into a map would leave, without the
/// map. HTML attributes (the last of duplicates wins) and the JSON contract's top-level
/// keys (an extra key replaces the result key of its name) are read this way.
pub(crate) fn sort_keep_last<K: Ord, V>(pairs: &mut Vec<(K, V)>) {
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    pairs.dedup_by(|later, kept| {
        if later.0 == kept.0 {
            std::mem::swap(&mut later.1, &mut kept.1);
            true
        } else {
            false
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_last_value_of_a_key_is_kept_as_a_map_keeps_it() {
        let mut next = crate::bytes::tests::below(0x1234_5678_9abc_def1);
        for _ in 0..2_000 {
            let pairs: Vec<(usize, usize)> = (0..next(12)).map(|i| (next(5), i)).collect();
            let map: std::collections::BTreeMap<usize, usize> = pairs.iter().copied().collect();
            let mut sorted = pairs.clone();
            super::sort_keep_last(&mut sorted);
            assert_eq!(sorted, map.into_iter().collect::<Vec<_>>(), "{pairs:?}");
        }
    }
}
