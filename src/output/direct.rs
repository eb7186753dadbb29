//! The model's entries and feed written as the contract's JSON straight from their
//! fields, without `serde`: the bytes [`super::to_writer`] gives for the same value.
//!
//! Why not `serde`: an entry holds fifty-odd keys, and through `serde` each one goes
//! through a map serializer, a key serializer that must recognise a literal key, and a
//! value serializer, before a byte is written; on small feeds that plumbing cost about a
//! tenth of the whole run. Here the model's field lists ([`Field`], `sorted_fields`) are
//! matched once and written with plain writes. Values that are JSON already (`extra`,
//! maps, Podcasting 2.0 elements) still go through the `serde` writer. The tests check
//! that both give the same bytes, on every file of the corpus and on built values.

use std::io::Write;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::fields::{Field, JsonKey, SortedFields};
use super::writer::{to_writer, write_string};
use crate::model::{Entry, Feed, Link, Person, Tag, Text, TextMeta};

type Result = std::result::Result<(), serde_json::Error>;

fn io(e: std::io::Error) -> serde_json::Error {
    serde_json::Error::io(e)
}

/// Writes an entry as [`super::to_writer`] would.
pub(crate) fn entry<W: Write + ?Sized>(w: &mut W, e: &Entry) -> Result {
    map(w, e.sorted_fields(), &e.extra)
}

/// Writes the feed's metadata as [`super::to_writer`] would.
pub(crate) fn feed<W: Write + ?Sized>(w: &mut W, f: &Feed) -> Result {
    map(w, f.sorted_fields(), &f.extra)
}

/// A map of typed `fields` (keys sorted, literals that need no escape) merged with
/// `extra` in key order; a key in both is written once, from `fields`.
fn map<'a, W: Write + ?Sized>(
    w: &mut W,
    fields: impl Iterator<Item = (JsonKey, Field<'a>)>,
    extra: &crate::model::Extra,
) -> Result {
    let mut extra = extra.iter().peekable();
    let mut first = true;
    for (k, v) in fields {
        let name = k.name();
        while let Some((ek, ev)) = extra.next_if(|(ek, _)| ek.as_str() < name) {
            separator(w, &mut first)?;
            json_entry(w, ek, ev)?;
        }
        extra.next_if(|(ek, _)| ek.as_str() == name);
        member(w, &mut first, k)?;
        field(w, v)?;
    }
    for (ek, ev) in extra {
        separator(w, &mut first)?;
        json_entry(w, ek, ev)?;
    }
    close_object(w, first)
}

/// What comes before an object's member: `{` before its first, else `,`.
#[inline(always)]
fn separator<W: Write + ?Sized>(w: &mut W, first: &mut bool) -> Result {
    let sep: &[u8] = if std::mem::take(first) { b"{" } else { b"," };
    w.write_all(sep).map_err(io)
}

/// What comes before the value of a member of literal key `k`: `{"key":` for an object's
/// first member, else `,"key":` (one write).
#[inline(always)]
fn member<W: Write + ?Sized>(w: &mut W, first: &mut bool, k: JsonKey) -> Result {
    if std::mem::take(first) {
        w.write_all(b"{").map_err(io)?;
        w.write_all(k.quoted()).map_err(io)
    } else {
        w.write_all(k.after_comma()).map_err(io)
    }
}

/// Ends an object: `{}` when it has no member (`first` is still set).
fn close_object<W: Write + ?Sized>(w: &mut W, first: bool) -> Result {
    w.write_all(if first { b"{}" } else { b"}" }).map_err(io)
}

/// Ends a list: `empty` when nothing was written (`sep` is still the opening).
fn close<W: Write + ?Sized>(w: &mut W, sep: &[u8], empty: &[u8]) -> Result {
    if sep == b"," {
        w.write_all(&empty[1..]).map_err(io)
    } else {
        w.write_all(empty).map_err(io)
    }
}

/// `"key":value` for a key and value that are JSON already.
fn json_entry<W: Write + ?Sized>(w: &mut W, k: &str, v: &Value) -> Result {
    write_string(w, k).map_err(io)?;
    w.write_all(b":").map_err(io)?;
    to_writer(&mut *w, v)
}

/// A map of literal keys, in the order given.
fn plain<'a, W: Write + ?Sized>(
    w: &mut W,
    fields: impl Iterator<Item = (JsonKey, Field<'a>)>,
) -> Result {
    let mut first = true;
    for (k, v) in fields {
        member(w, &mut first, k)?;
        field(w, v)?;
    }
    close_object(w, first)
}

/// A list, each item written by `item`.
fn list<W: Write + ?Sized, T>(
    w: &mut W,
    items: &[T],
    item: impl Fn(&mut W, &T) -> Result,
) -> Result {
    let mut sep: &[u8] = b"[";
    for x in items {
        w.write_all(sep).map_err(io)?;
        sep = b",";
        item(w, x)?;
    }
    close(w, sep, b"[]")
}

/// A text construct's details: its media type, language and base (and `src`), written
/// before its `value`, are one [`TextMeta`] shared by most texts of a feed, so their
/// bytes (`{"base":…,"language":…,"type":…,"value":`) are kept for the last few metas
/// this thread wrote and copied out at once.
fn text<W: Write + ?Sized>(w: &mut W, t: &Text) -> Result {
    META_PREFIXES.with(|cache| -> Result {
        let mut cache = cache.borrow_mut();
        let meta = t.meta();
        let slot = match cache.iter().position(|(m, _)| Arc::ptr_eq(m, meta)) {
            Some(i) => i,
            None => {
                let mut bytes = Vec::with_capacity(64);
                let mut first = true;
                // Every field, `value` last (`sorted_fields` is sorted), without its value.
                for (k, v) in t.sorted_fields() {
                    member(&mut bytes, &mut first, k)?;
                    if k.name() != "value" {
                        field(&mut bytes, v)?;
                    }
                }
                if bytes.len() > MAX_CACHED {
                    // A meta this long (a hostile `xml:base`) is not kept past the parse.
                    return w.write_all(&bytes).map_err(io);
                }
                // The oldest slot makes room (the cache holds a reference, so that no other
                // meta can take a cached one's address while it is cached).
                if cache.len() == META_SLOTS {
                    cache.remove(0);
                }
                cache.push((Arc::clone(meta), bytes));
                cache.len() - 1
            }
        };
        w.write_all(&cache[slot].1).map_err(io)
    })?;
    write_string(w, &t.value).map_err(io)?;
    w.write_all(b"}").map_err(io)
}

/// How many metas [`text`] keeps the bytes of (a feed's texts mostly use one to three:
/// plain-text titles, HTML summaries and contents).
const META_SLOTS: usize = 4;

thread_local! {
    /// The last metas [`text`] wrote on this thread, with their bytes.
    static META_PREFIXES: std::cell::RefCell<Vec<(Arc<TextMeta>, Vec<u8>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn link<W: Write + ?Sized>(w: &mut W, l: &Link) -> Result {
    map(w, l.sorted_fields(), &l.extra)
}

/// A person: the last one this thread wrote is kept with its bytes, since a person
/// mostly comes twice in a row (`author_detail`, then the same first of `authors`).
fn person<W: Write + ?Sized>(w: &mut W, p: &Person) -> Result {
    LAST_PERSON.with(|last| {
        last.borrow_mut()
            .write(w, p, Person::clone, |bytes| plain(bytes, p.sorted_fields()))
    })
}

/// A `struct_time` (nine integers): the last date written is kept with its bytes (an
/// Atom entry's `published` and `updated` are often one date).
fn struct_time<W: Write + ?Sized>(w: &mut W, d: &DateTime<Utc>) -> Result {
    LAST_DATE.with(|last| {
        last.borrow_mut().write(
            w,
            d,
            |d| *d,
            |bytes| {
                let mut buf = itoa::Buffer::new();
                for (i, n) in crate::date::struct_time(d).into_iter().enumerate() {
                    bytes.push(if i == 0 { b'[' } else { b',' });
                    bytes.extend_from_slice(buf.format(n).as_bytes());
                }
                bytes.push(b']');
                Ok(())
            },
        )
    })
}

/// The most bytes of a value's JSON the caches here keep (longer ones are written each
/// time, and not held by the thread after the parse).
const MAX_CACHED: usize = 1024;

/// The last value of a kind written on this thread, with its JSON.
struct Last<K> {
    value: Option<K>,
    bytes: Vec<u8>,
}

impl<K: PartialEq> Last<K> {
    const EMPTY: Self = Last {
        value: None,
        bytes: Vec::new(),
    };

    /// Writes `value`'s JSON: the kept bytes when it is the last value written, else
    /// `render`'s, kept with `keep(value)` unless longer than [`MAX_CACHED`].
    fn write<W: Write + ?Sized>(
        &mut self,
        w: &mut W,
        value: &K,
        keep: impl FnOnce(&K) -> K,
        render: impl FnOnce(&mut Vec<u8>) -> Result,
    ) -> Result {
        if self.value.as_ref() != Some(value) {
            self.bytes.clear();
            render(&mut self.bytes)?;
            if self.bytes.len() > MAX_CACHED {
                self.value = None;
                let written = w.write_all(&self.bytes).map_err(io);
                self.bytes = Vec::new();
                return written;
            }
            self.value = Some(keep(value));
        }
        w.write_all(&self.bytes).map_err(io)
    }
}

thread_local! {
    /// The last person [`person`] wrote on this thread.
    static LAST_PERSON: std::cell::RefCell<Last<Person>> =
        const { std::cell::RefCell::new(Last::EMPTY) };
    /// The last date [`struct_time`] wrote on this thread.
    static LAST_DATE: std::cell::RefCell<Last<DateTime<Utc>>> =
        const { std::cell::RefCell::new(Last::EMPTY) };
}

fn tag<W: Write + ?Sized>(w: &mut W, t: &Tag) -> Result {
    plain(w, t.sorted_fields())
}

fn field<W: Write + ?Sized>(w: &mut W, f: Field<'_>) -> Result {
    match f {
        Field::Str(s) | Field::OptStr(Some(s)) => write_string(w, s).map_err(io),
        Field::OptStr(None) | Field::Date(None) => w.write_all(b"null").map_err(io),
        Field::Bool(b) => w.write_all(if b { b"true" } else { b"false" }).map_err(io),
        Field::Map(m) => to_writer(&mut *w, m),
        Field::Text(t) => text(w, t),
        Field::Texts(ts) => list(w, ts, |w, t| text(w, t)),
        Field::Links(ls) => list(w, ls, |w, l| link(w, l)),
        Field::Person(p) => person(w, p),
        Field::People(ps) => list(w, ps, |w, p| person(w, p)),
        Field::Tags(ts) => list(w, ts, |w, t| tag(w, t)),
        Field::Podcast(p) => to_writer(&mut *w, p),
        Field::Elements(e) => to_writer(&mut *w, e),
        Field::Date(Some(d)) => struct_time(w, d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    /// The bytes of both writers for `e`.
    fn both(e: &Entry) -> (Vec<u8>, Vec<u8>) {
        let mut direct = Vec::new();
        entry(&mut direct, e).unwrap();
        (direct, serde_json::to_vec(e).unwrap())
    }

    #[test]
    fn built_values_are_written_as_serde_json_writes_them() {
        let text = |v: &str| {
            Text::new(
                TextMeta {
                    content_type: "text/html".into(),
                    language: Some("en".into()),
                    base: "http://x/\"q\"".into(),
                    src: None,
                },
                v.into(),
            )
        };
        let long = "<p>\u{1} \"quoted\" \\ \u{7f} é\n</p>".repeat(20);
        let mut e = Entry {
            title: Some("t\u{0}\u{1f}\t".into()),
            title_detail: Some(Box::new(text("t"))),
            summary: Some(long.as_str().into()),
            summary_detail: Some(Box::new(text(&long))),
            guidislink: Some(false),
            content: vec![text(&long), {
                let mut t = text("");
                t.src = Some("s".into());
                t.language = None;
                t
            }],
            links: vec![
                Link::default(),
                Link {
                    href: Some("h".into()),
                    length: Some("12".into()),
                    rel: Some("enclosure".into()),
                    title: Some("τ".into()),
                    content_type: Some("audio/mpeg".into()),
                    extra: [
                        ("a".to_owned(), json!(1)),
                        ("href".to_owned(), json!("dropped")),
                        ("hreflang".to_owned(), json!("en")),
                        ("zz".to_owned(), json!([null, {"k": 1.5}])),
                    ]
                    .into_iter()
                    .collect(),
                },
            ],
            authors: vec![
                Person::default(),
                Person {
                    name: Some("n".into()),
                    email: Some("e".into()),
                    href: Some("h".into()),
                    image: Some("i".into()),
                },
            ],
            tags: vec![
                Tag::default(),
                Tag {
                    term: Some("t".into()),
                    scheme: None,
                    label: Some("\"l\"".into()),
                },
            ],
            published: Some("p".into()),
            published_parsed: Some(crate::date::parse_date("Fri, 08 Mar 2023 21:34:39 +0000")),
            updated_parsed: Some(None),
            ..Entry::default()
        };
        e.extra.insert(String::new(), json!(0));
        e.extra.insert("a\"b".into(), json!({"x": [1, "y"]}));
        e.extra.insert("title".into(), json!("typed field wins"));
        e.extra.insert("zzz".into(), json!(-1));
        let (direct, serde) = both(&e);
        assert_eq!(
            String::from_utf8_lossy(&direct),
            String::from_utf8_lossy(&serde)
        );
        // Empty lists and maps.
        let (direct, serde) = both(&Entry::default());
        assert_eq!(direct, serde);
        assert_eq!(direct, b"{}");
        let mut f = Feed::default();
        f.extra.insert("k".into(), json!({}));
        let mut direct = Vec::new();
        feed(&mut direct, &f).unwrap();
        assert_eq!(direct, serde_json::to_vec(&f).unwrap());
    }

    #[test]
    fn texts_of_many_metas_are_written_as_serde_json_writes_them() {
        // More metas than the cache of their bytes holds, in turn and again, some with a
        // `src`, equal metas in distinct allocations, and metas freed and made anew (an
        // address may come back with another meta: the cache must not trust it).
        let meta = |i: usize| TextMeta {
            content_type: ["text/plain", "text/html", "application/xhtml+xml"][i % 3].into(),
            language: i.is_multiple_of(2).then(|| format!("l\"{i}").into()),
            // Some too long to keep (written each time instead).
            base: format!(
                "http://b/{}{}",
                i % 5,
                "x".repeat(if i % 7 == 6 { 2000 } else { 0 })
            )
            .into(),
            src: (i % 4 == 3).then(|| format!("s{i}")),
        };
        let shared: Vec<std::sync::Arc<TextMeta>> =
            (0..7).map(|i| std::sync::Arc::new(meta(i))).collect();
        for round in 0..40 {
            let mut e = Entry::default();
            let i = (round * 5) % 7;
            e.title_detail = Some(Box::new(Text::shared(
                std::sync::Arc::clone(&shared[i]),
                format!("v{round}\n").into(),
            )));
            // A fresh meta each round, dropped with the entry.
            e.summary_detail = Some(Box::new(Text::new(meta(round), "s".into())));
            e.content = vec![
                Text::shared(std::sync::Arc::clone(&shared[(i + 1) % 7]), "c".into()),
                Text::new(meta(round + 1), "d".into()),
            ];
            let (direct, serde) = both(&e);
            assert_eq!(
                String::from_utf8_lossy(&direct),
                String::from_utf8_lossy(&serde)
            );
        }
        // A meta too long to keep is not held once written.
        let e = Entry {
            title_detail: Some(Box::new(Text::new(meta(6), "t".into()))),
            ..Entry::default()
        };
        let _ = both(&e);
        META_PREFIXES.with(|c| assert!(c.borrow().iter().all(|(m, _)| m.base.len() < 100)));
    }

    #[test]
    fn people_and_dates_written_again_or_anew_are_written_as_serde_json_writes_them() {
        let person = |i: usize| Person {
            name: Some(
                format!(
                    "name {}{}",
                    i % 3,
                    "n".repeat(if i % 6 == 5 { 1500 } else { 0 })
                )
                .into(),
            ),
            email: i.is_multiple_of(2).then(|| "e@x".into()),
            href: i
                .is_multiple_of(5)
                .then(|| format!("http://example.org/a/very/long/home/{i}").into()),
            image: None,
        };
        let date = |i: usize| {
            crate::date::parse_date(&format!("2024-03-{:02}T0{}:00:00Z", 1 + i % 4, i % 3))
        };
        for i in 0..30 {
            let e = Entry {
                author_detail: Some(Box::new(person(i))),
                authors: vec![person(i), person(i + 1), person(i + 1)],
                contributors: vec![person(i * 7)],
                published_parsed: Some(date(i)),
                updated_parsed: Some(date(i / 2)),
                ..Entry::default()
            };
            let (direct, serde) = both(&e);
            assert_eq!(
                String::from_utf8_lossy(&direct),
                String::from_utf8_lossy(&serde)
            );
        }
        // A person too long to keep is not held once written.
        let e = Entry {
            author_detail: Some(Box::new(person(5))),
            ..Entry::default()
        };
        let _ = both(&e);
        LAST_PERSON
            .with(|l| assert!(l.borrow().value.is_none() && l.borrow().bytes.capacity() == 0));
    }

    #[test]
    fn every_corpus_entry_and_feed_is_written_as_serde_json_writes_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        let mut files = Vec::new();
        let mut dirs = vec![
            root.clone(),
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds"),
        ];
        while let Some(d) = dirs.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else {
                    files.push(p);
                }
            }
        }
        // feedparser's corpus when `../shared` is beside the repository; ours always.
        let shared = root.is_dir();
        assert!(files.len() > 100, "no corpus found");
        let (mut entries, mut keys) = (0, 0);
        for p in &files {
            let bytes = std::fs::read(p).unwrap();
            let parsed = crate::parse(&bytes, &crate::Transport::Local);
            let mut direct = Vec::new();
            feed(&mut direct, &parsed.feed).unwrap();
            assert_eq!(
                direct,
                serde_json::to_vec(&parsed.feed).unwrap(),
                "{}",
                p.display()
            );
            for e in &parsed.entries {
                let (direct, serde) = both(e);
                assert_eq!(direct, serde, "{}", p.display());
                entries += 1;
                keys += e.sorted_fields().count() + e.extra.len();
            }
        }
        assert!(
            entries > if shared { 1000 } else { 100 } && keys > 2 * entries,
            "{entries} entries, {keys} keys"
        );
    }
}
