//! Data-driven tests over `feeds/parse/**.xml`.
//!
//! Each fixture starts with an XML comment holding `Tests:` (what it checks) and
//! `Expect:` lines, read here with a small reader of our own:
//!
//! ```text
//! Expect: PATH = VALUE     the JSON value at PATH equals VALUE
//! Expect: PATH absent      PATH does not exist
//! ```
//!
//! PATH is dotted over the result JSON (`version`, `bozo` (bool), `bozo_kind`,
//! `bozo_line`, `bozo_column`, `namespaces.dc`, `feed.title`, `entries[0].links[1].href`);
//! VALUE is JSON (`true`, `3`, `null`, `[1,2]`, `"text"`) or else a bare string.
//! Fixtures under `malformed/` must also produce a positioned `SAXParseException`-type
//! record and still recover a non-empty feed or entry list.

use std::path::{Path, PathBuf};

use feed_decoder::parse::{ParseOptions, parse_str};
use serde_json::{Value, json};

fn fixtures() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("fixture dir")
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "xml") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/parse"),
        &mut out,
    );
    assert!(
        out.len() >= 30,
        "expected the fixture set, found {} files",
        out.len()
    );
    out
}

fn result_json(text: &str) -> Value {
    let r = parse_str(text, &ParseOptions::default());
    let first = r.bozo.first();
    json!({
        "version": r.version,
        "bozo": !r.bozo.is_empty(),
        "bozo_kind": first.map(|b| b.kind.feedparser_name()),
        "bozo_line": first.and_then(|b| b.position).and_then(|p| p.line),
        "bozo_column": first.and_then(|b| b.position).and_then(|p| p.column),
        "namespaces": r.namespaces,
        "feed": r.feed,
        "entries": r.entries,
    })
}

/// Follows a dotted path with `[n]` indexes.
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
            let n: usize = idx.trim_end_matches(']').parse().ok()?;
            cur = cur.get(n)?;
        }
    }
    Some(cur)
}

enum Expect {
    Equals(String, Value),
    Absent(String),
}

fn expectations(text: &str) -> (String, Vec<Expect>) {
    let start = text.find("<!--").expect("a leading comment");
    let end = text[start..].find("-->").expect("a closed comment") + start;
    let comment = &text[start + 4..end];
    let mut tests = String::new();
    let mut out = Vec::new();
    for line in comment.lines().map(str::trim) {
        if let Some(t) = line.strip_prefix("Tests:") {
            tests = t.trim().to_owned();
        } else if let Some(e) = line.strip_prefix("Expect:") {
            let e = e.trim();
            if let Some(path) = e.strip_suffix(" absent") {
                out.push(Expect::Absent(path.trim().to_owned()));
            } else {
                let (path, value) = e.split_once('=').expect("PATH = VALUE");
                let value = value.trim();
                let v =
                    serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
                out.push(Expect::Equals(path.trim().to_owned(), v));
            }
        }
    }
    (tests, out)
}

#[test]
fn fixtures_meet_their_expectations() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 fixture");
        let (tests, expects) = expectations(&text);
        let name = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(&path)
            .display()
            .to_string();
        assert!(!tests.is_empty(), "{name}: no Tests: line");
        assert!(!expects.is_empty(), "{name}: no Expect: line");
        let got = result_json(&text);
        for e in &expects {
            checked += 1;
            match e {
                Expect::Equals(p, want) => {
                    let actual = lookup(&got, p);
                    if actual != Some(want) {
                        failures.push(format!("{name}: {p}: want {want}, got {actual:?}"));
                    }
                }
                Expect::Absent(p) => {
                    if let Some(v) = lookup(&got, p) {
                        failures.push(format!("{name}: {p}: want absent, got {v}"));
                    }
                }
            }
        }
        if name.contains("malformed") {
            if got["bozo_line"].is_null() || got["bozo_column"].is_null() {
                failures.push(format!(
                    "{name}: malformed fixture without a positioned bozo record"
                ));
            }
            let recovered = got["feed"].as_object().is_some_and(|f| !f.is_empty())
                || got["entries"].as_array().is_some_and(|e| !e.is_empty());
            if !recovered {
                failures.push(format!("{name}: nothing recovered"));
            }
        }
    }
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "{} failed expectation(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_version_string_has_a_fixture() {
    let mut seen = std::collections::BTreeSet::new();
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 fixture");
        seen.insert(parse_str(&text, &ParseOptions::default()).version);
    }
    for v in [
        "rss090", "rss091n", "rss091u", "rss092", "rss093", "rss094", "rss10", "rss20", "rss",
        "atom03", "atom10", "atom", "cdf", "",
    ] {
        assert!(seen.contains(v), "no fixture parses as version {v:?}");
    }
}

#[test]
fn truncations_never_panic() {
    let options = ParseOptions::default();
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 fixture");
        let mut cut = 0;
        while cut < text.len() {
            let mut end = cut;
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let r = parse_str(&text[..end], &options);
            // A truncated document is either empty-ish or flagged; either way a result.
            let _ = serde_json::to_string(&r.feed).expect("serializable");
            cut += 7;
        }
    }
}

#[test]
fn the_harness_can_fail() {
    let text = "<!--\nTests: harness self-check\nExpect: feed.title = nope\n-->\n<rss><channel><title>yes</title></channel></rss>";
    let (_, expects) = expectations(text);
    let got = result_json(text);
    let Expect::Equals(p, want) = &expects[0] else {
        panic!("parsed as absent")
    };
    assert_ne!(lookup(&got, p), Some(want));
}
