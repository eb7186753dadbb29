//! Data-driven tests over `feeds/decode/`: each `NAME.xml` has a sidecar `NAME.expect`
//! (written by `tools/gen_decode_fixtures.py`) whose `Key: value` lines this harness
//! reads with its own small reader, never with the code under test.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use feed_decoder::{Decoder, Headers, Policy, Transport, parse::ParseOptions};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/decode")
}

/// One sidecar: its `Key: value` lines, `Header` repeatable.
struct Expect {
    fields: Vec<(String, String)>,
}

impl Expect {
    fn read(path: &Path) -> Expect {
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fields = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let (k, v) = l
                    .split_once(": ")
                    .unwrap_or_else(|| panic!("{}: bad line {l:?}", path.display()));
                (k.to_owned(), v.to_owned())
            })
            .collect();
        Expect { fields }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn all(&self, key: &str) -> impl Iterator<Item = &str> {
        self.fields
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn fixtures() -> Vec<(String, Vec<u8>, Expect)> {
    let dir = fixture_dir();
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("feeds/decode exists")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".expect").map(str::to_owned))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let bytes =
                fs::read(dir.join(format!("{n}.xml"))).unwrap_or_else(|e| panic!("{n}.xml: {e}"));
            let expect = Expect::read(&dir.join(format!("{n}.expect")));
            (n, bytes, expect)
        })
        .collect()
}

fn check(name: &str, bytes: &[u8], e: &Expect) -> Vec<String> {
    let transport = match e.get("Transport") {
        Some("http") => Transport::Http(
            e.all("Header")
                .map(|h| {
                    let (n, v) = h.split_once(':').expect("Header: Name: value");
                    (n.trim().to_owned(), v.trim().to_owned())
                })
                .collect::<Headers>(),
        ),
        Some("local") | None => Transport::Local,
        Some(other) => return vec![format!("{name}: unknown Transport {other}")],
    };
    let policy = match e.get("Policy") {
        Some("feedparser") => Policy::FeedparserExact,
        _ => Policy::Recover,
    };
    let parsed = feed_decoder::parse_with(
        &Decoder::new().policy(policy),
        &ParseOptions::default(),
        bytes,
        &transport,
    );
    let d = &parsed.decoded;
    let mut errors = Vec::new();
    let mut compare = |what: &str, want: Option<&str>, got: &str| {
        if let Some(want) = want
            && want != got
        {
            errors.push(format!("{name}: {what}: want {want:?}, got {got:?}"));
        }
    };
    compare("Encoding", e.get("Encoding"), &d.encoding);
    compare("Rule", e.get("Rule"), d.trail.rfc3023.rule);
    let rule_error = if d.trail.rfc3023.error.is_some() {
        "yes"
    } else {
        "no"
    };
    compare("Rule-error", e.get("Rule-error"), rule_error);
    let kinds: Vec<&str> = d.bozo.iter().map(|b| b.kind.feedparser_name()).collect();
    let kinds = if kinds.is_empty() {
        "none".to_owned()
    } else {
        kinds.join(", ")
    };
    compare("Bozo", e.get("Bozo"), &kinds);
    if let Some(want) = e.get("Text-contains")
        && !d.text.contains(want)
    {
        compare("Text-contains", Some(want), "(not in the decoded text)");
    }
    let source = d.trail.chosen.as_ref().map_or("none", |(_, s)| s.as_str());
    compare("Source", e.get("Source"), source);
    compare(
        "Title",
        e.get("Title"),
        parsed.feed.title.as_deref().unwrap_or("(none)"),
    );
    errors
}

#[test]
fn every_fixture_meets_its_expectation() {
    let all = fixtures();
    assert!(
        all.len() >= 40,
        "only {} fixtures found in {}",
        all.len(),
        fixture_dir().display()
    );
    let errors: Vec<String> = all.iter().flat_map(|(n, b, e)| check(n, b, e)).collect();
    assert!(
        errors.is_empty(),
        "{} mismatches:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn every_rule_and_bozo_kind_has_a_fixture() {
    let all = fixtures();
    let rules: BTreeSet<&str> = all.iter().filter_map(|(_, _, e)| e.get("Rule")).collect();
    for rule in [
        "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "2.0/1.2", "2.1", "2.2", "2.3",
        "2.4", "2.5", "2.6",
    ] {
        assert!(rules.contains(rule), "no fixture for rule {rule}");
    }
    let bozo: BTreeSet<&str> = all
        .iter()
        .filter_map(|(_, _, e)| e.get("Bozo"))
        .flat_map(|b| b.split(", "))
        .collect();
    for kind in [
        "CharacterEncodingOverride",
        "CharacterEncodingUnknown",
        "NonXMLContentType",
        "CharacterEncodingMismatch",
        "CharacterDecodingError",
        "DoubleEncodedText",
    ] {
        assert!(bozo.contains(kind), "no fixture for bozo kind {kind}");
    }
}

#[test]
fn every_xml_has_a_sidecar() {
    for entry in fs::read_dir(fixture_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "xml") {
            assert!(
                path.with_extension("expect").exists(),
                "{} has no .expect",
                path.display()
            );
        }
    }
}

/// The result must not depend on where the input sits in memory or on a tail being
/// present: every fixture decodes to the same encoding whether or not it is copied, and
/// every prefix of every fixture decodes without panicking.
#[test]
fn prefixes_never_panic_and_copies_agree() {
    for (name, bytes, _) in fixtures() {
        let whole = feed_decoder::decode(&bytes, &Transport::Local);
        let copy = bytes.clone();
        assert_eq!(
            feed_decoder::decode(&copy, &Transport::Local).encoding,
            whole.encoding,
            "{name}"
        );
        for cut in (0..bytes.len()).step_by(7) {
            let d = feed_decoder::decode(&bytes[..cut], &Transport::Local);
            assert!(d.charset.is_some() || d.is_bozo(), "{name} cut at {cut}");
        }
    }
}
