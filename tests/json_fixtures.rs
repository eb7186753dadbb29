//! Data-driven tests over `feeds/json/*.json`, each with a `NAME.expect` sidecar read
//! here with a small reader of our own:
//!
//! ```text
//! Tests: what the file checks
//! Content-Type: VALUE         optional: the file is an HTTP response with this type
//! Header: Name: value         optional, repeatable: another response header
//! Expect: PATH = VALUE        the value at PATH of the `--json` contract object
//! Expect: PATH absent
//! ```
//!
//! PATH is dotted with `[n]` indexes over the whole result (`version`, `bozo`,
//! `bozo_exceptions[0].type`, `encoding`, `decoding.chosen.source`, `feed.title`,
//! `entries[0].links[1].href`); VALUE is JSON or else a bare string.
//!
//! Every fixture is also re-encoded as UTF-16 and UTF-32 (with and without a byte order
//! mark) and must give the same feed, and is parsed truncated at every 7th byte.

use std::path::{Path, PathBuf};

use feed_decoder::{Headers, Transport, output::to_json, parse};
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/json")
}

fn fixtures() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("feeds/json")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    out.sort();
    assert!(out.len() >= 10, "found {} JSON fixtures", out.len());
    out
}

struct Sidecar {
    tests: String,
    headers: Vec<(String, String)>,
    expects: Vec<(String, Option<Value>)>,
}

fn sidecar(path: &Path) -> Sidecar {
    let text = std::fs::read_to_string(path.with_extension("expect")).expect("sidecar");
    let mut s = Sidecar {
        tests: String::new(),
        headers: Vec::new(),
        expects: Vec::new(),
    };
    for line in text.lines().map(str::trim) {
        if let Some(t) = line.strip_prefix("Tests:") {
            s.tests = t.trim().to_owned();
        } else if let Some(t) = line.strip_prefix("Content-Type:") {
            s.headers.push(("Content-Type".into(), t.trim().to_owned()));
        } else if let Some(h) = line.strip_prefix("Header:") {
            let (n, v) = h.split_once(':').expect("Header: Name: value");
            s.headers.push((n.trim().to_owned(), v.trim().to_owned()));
        } else if let Some(e) = line.strip_prefix("Expect:") {
            let e = e.trim();
            if let Some(p) = e.strip_suffix(" absent") {
                s.expects.push((p.trim().to_owned(), None));
            } else {
                let (p, v) = e.split_once(" = ").expect("PATH = VALUE");
                let v = v.trim();
                let v = serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_owned()));
                s.expects.push((p.trim().to_owned(), Some(v)));
            }
        }
    }
    s
}

fn lookup<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    for part in path.split('.') {
        let (key, indexes) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            cur = cur.get(key)?;
        }
        for idx in indexes.split('[').filter(|s| !s.is_empty()) {
            cur = cur.get(idx.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(cur)
}

fn transport(s: &Sidecar) -> Transport {
    if s.headers.is_empty() {
        return Transport::Local;
    }
    let mut h = Headers::new();
    for (n, v) in &s.headers {
        h = h.with(n, v);
    }
    Transport::Http(h)
}

#[test]
fn fixtures_meet_their_expectations() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let s = sidecar(&path);
        assert!(!s.tests.is_empty(), "{name}: no Tests: line");
        assert!(!s.expects.is_empty(), "{name}: no Expect: line");
        let bytes = std::fs::read(&path).unwrap();
        let got = to_json(&parse(&bytes, &transport(&s)));
        for (p, want) in &s.expects {
            checked += 1;
            let actual = lookup(&got, p);
            if actual != want.as_ref() {
                failures.push(format!("{name}: {p}: want {want:?}, got {actual:?}"));
            }
        }
    }
    assert!(checked > 50);
    assert!(
        failures.is_empty(),
        "{} failed expectation(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every field of JSON Feed 1.0 and 1.1 appears in some fixture, and none of them is
/// left unmapped (kept raw under its own or a `json_` name).
#[test]
fn every_specification_field_has_a_fixture_and_a_mapping() {
    const FEED: &[&str] = &[
        "version",
        "title",
        "home_page_url",
        "feed_url",
        "description",
        "user_comment",
        "next_url",
        "icon",
        "favicon",
        "author",
        "authors",
        "language",
        "expired",
        "hubs",
        "items",
    ];
    const ITEM: &[&str] = &[
        "id",
        "url",
        "external_url",
        "title",
        "content_html",
        "content_text",
        "summary",
        "image",
        "banner_image",
        "date_published",
        "date_modified",
        "author",
        "authors",
        "tags",
        "language",
        "attachments",
    ];
    const ATTACHMENT: &[&str] = &[
        "url",
        "mime_type",
        "title",
        "size_in_bytes",
        "duration_in_seconds",
    ];
    const AUTHOR: &[&str] = &["name", "url", "avatar"];
    let mut seen = std::collections::BTreeSet::new();
    for path in fixtures() {
        let Ok(doc) = serde_json::from_slice::<Value>(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        let Some(feed) = doc.as_object() else {
            continue;
        };
        for k in feed.keys() {
            seen.insert(format!("feed.{k}"));
        }
        let authors = |v: &Value, seen: &mut std::collections::BTreeSet<String>| {
            for a in v
                .as_array()
                .into_iter()
                .flatten()
                .chain(v.is_object().then_some(v))
            {
                for k in a.as_object().into_iter().flat_map(|o| o.keys()) {
                    seen.insert(format!("author.{k}"));
                }
            }
        };
        authors(&doc["author"], &mut seen);
        authors(&doc["authors"], &mut seen);
        for item in doc["items"].as_array().into_iter().flatten() {
            for k in item.as_object().into_iter().flat_map(|o| o.keys()) {
                seen.insert(format!("item.{k}"));
            }
            authors(&item["author"], &mut seen);
            authors(&item["authors"], &mut seen);
            for a in item["attachments"].as_array().into_iter().flatten() {
                for k in a.as_object().into_iter().flat_map(|o| o.keys()) {
                    seen.insert(format!("attachment.{k}"));
                }
            }
        }
        // Nothing of the specification is kept raw: raw keys are extensions only.
        let got = to_json(&parse(&std::fs::read(&path).unwrap(), &Transport::Local));
        let raw = |o: &Value| -> Vec<String> {
            o.as_object()
                .into_iter()
                .flat_map(|o| o.keys())
                .filter(|k| FEED.contains(&k.as_str()) || ITEM.contains(&k.as_str()))
                .filter(|k| !MAPPED_SAME_NAME.contains(&k.as_str()))
                .cloned()
                .collect()
        };
        const MAPPED_SAME_NAME: &[&str] = &[
            "title",
            "icon",
            "authors",
            "author",
            "language",
            "id",
            "summary",
            "image",
            "tags",
            "hubs",
            "banner_image",
        ];
        assert!(
            raw(&got["feed"]).is_empty(),
            "{path:?}: {:?}",
            raw(&got["feed"])
        );
        for e in got["entries"].as_array().into_iter().flatten() {
            assert!(raw(e).is_empty(), "{path:?}: {:?}", raw(e));
        }
    }
    let want = FEED
        .iter()
        .map(|k| format!("feed.{k}"))
        .chain(ITEM.iter().map(|k| format!("item.{k}")))
        .chain(ATTACHMENT.iter().map(|k| format!("attachment.{k}")))
        .chain(AUTHOR.iter().map(|k| format!("author.{k}")));
    for k in want {
        assert!(seen.contains(&k), "no fixture has {k}");
    }
}

fn encode(text: &str, unit: usize, big: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let s = if bom {
        format!("\u{feff}{text}")
    } else {
        text.to_owned()
    };
    if unit == 2 {
        for u in s.encode_utf16() {
            out.extend(if big {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            });
        }
    } else {
        for c in s.chars() {
            let c = u32::from(c);
            out.extend(if big {
                c.to_be_bytes()
            } else {
                c.to_le_bytes()
            });
        }
    }
    out
}

#[test]
fn utf16_and_utf32_give_the_same_feed() {
    for path in fixtures() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // not UTF-8 on purpose
        };
        if !text.trim_start().starts_with('{') {
            continue;
        }
        let want = to_json(&parse(text.as_bytes(), &Transport::Local));
        for (unit, big, bom) in [
            (2, false, true),
            (2, true, false),
            (2, false, false),
            (4, true, true),
            (4, false, false),
        ] {
            let bytes = encode(&text, unit, big, bom);
            let got = to_json(&parse(&bytes, &Transport::Local));
            let case = format!("{path:?} as {unit}-byte units, big-endian {big}, BOM {bom}");
            assert_eq!(got["feed"], want["feed"], "{case}");
            assert_eq!(got["entries"], want["entries"], "{case}");
            assert_eq!(got["version"], want["version"], "{case}");
            assert_eq!(got["bozo"], want["bozo"], "{case}");
            let enc = got["encoding"].as_str().unwrap();
            assert!(
                enc.starts_with(if unit == 2 { "utf-16" } else { "utf-32" }),
                "{case}: {enc}"
            );
        }
    }
}

#[test]
fn truncations_never_panic() {
    for path in fixtures() {
        let bytes = std::fs::read(&path).unwrap();
        for cut in (0..bytes.len()).step_by(7) {
            for t in [
                Transport::Local,
                Transport::content_type("application/feed+json"),
            ] {
                let v = to_json(&parse(&bytes[..cut], &t));
                assert!(v.get("decoding").is_some());
            }
        }
    }
}

/// Seeded mutations (byte changes, JSON punctuation inserted, spans cut or doubled) of
/// every fixture: a result always comes back and serializes.
#[test]
fn mutations_never_panic() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n.max(1)
    };
    const PUNCT: &[u8] = b"{}[]\",:\\0\x00\xff<";
    for path in fixtures() {
        let original = std::fs::read(&path).unwrap();
        for _ in 0..150 {
            let mut b = original.clone();
            for _ in 0..1 + next(4) {
                let at = next(b.len());
                match next(4) {
                    0 => b[at] = PUNCT[next(PUNCT.len())],
                    1 => b.insert(at, PUNCT[next(PUNCT.len())]),
                    2 => {
                        let end = (at + next(40)).min(b.len());
                        b.drain(at..end);
                    }
                    _ => {
                        let end = (at + next(40)).min(b.len());
                        let span = b[at..end].to_vec();
                        b.splice(at..at, span);
                    }
                }
                if b.is_empty() {
                    break;
                }
            }
            let v = to_json(&parse(
                &b,
                &Transport::content_type("application/feed+json"),
            ));
            assert!(v["entries"].is_array());
        }
    }
}
