//! The `feed-decoder` binary, run as a user runs it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_feed-decoder"))
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("feeds/decode")
        .join(name)
        .display()
        .to_string()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn json_contract_for_a_local_file() {
    let out = bin()
        .args(["--json", &fixture("evidence_cyrillic_declared_latin1.xml")])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["encoding"], "windows-1251");
    assert_eq!(v["bozo"], true);
    assert_eq!(v["bozo_exception"]["type"], "CharacterEncodingOverride");
    assert_eq!(v["version"], "rss20");
    assert!(
        v["feed"]["title"]
            .as_str()
            .unwrap()
            .starts_with("Новости дня")
    );
    assert_eq!(v["decoding"]["chosen"]["source"], "evidence");
    assert_eq!(v["decoding"]["media_class"], "local");
    assert!(v.get("headers").is_none(), "local bytes have no headers");
}

#[test]
fn headers_make_an_http_response() {
    let out = bin()
        .args([
            "--json",
            "--header",
            "ETag: \"x1\"",
            "--content-type",
            "text/xml",
        ])
        .arg(fixture("rule_2_1_text_xml_utf8_override.xml"))
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["decoding"]["rfc3023"]["rule"], "2.1");
    assert_eq!(v["encoding"], "utf-8");
    assert_eq!(v["etag"], "\"x1\"");
    assert_eq!(v["headers"]["content-type"], "text/xml");
}

#[test]
fn stdin_and_policy_flag() {
    let mut child = bin()
        .args(["--json", "--policy", "feedparser", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let bytes = std::fs::read(fixture("evidence_utf8_declared_latin1.xml")).unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let v = json(&child.wait_with_output().unwrap());
    assert_eq!(
        v["encoding"], "iso-8859-1",
        "feedparser policy keeps the label"
    );
    assert_eq!(v["bozo"], false);
}

#[test]
fn summary_and_text_modes() {
    let out = bin()
        .arg(fixture("rule_1_2_declared_koi8r.xml"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("encoding: koi8-r"), "{text}");
    assert!(text.contains("rule 1.2"), "{text}");
    let out = bin()
        .args(["--text", &fixture("rule_1_2_declared_koi8r.xml")])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("Новости дня")
    );
}

#[test]
fn unreadable_input_is_a_clear_error() {
    let out = bin()
        .args(["--json", "/no/such/feed.xml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read /no/such/feed.xml"), "{err}");
    assert!(out.stdout.is_empty());
    let out = bin()
        .args([
            "--header",
            "no colon here",
            &fixture("rule_1_0_no_declaration.xml"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Name: value"));
}

#[test]
fn json_feed_from_stdin_with_a_json_media_type() {
    let mut child = bin()
        .args(["--json", "--content-type", "application/feed+json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            br#"{"version": "https://jsonfeed.org/version/1.1", "title": "J",
                 "items": [{"id": "1", "url": "https://example.org/1"}]}"#,
        )
        .unwrap();
    let v = json(&child.wait_with_output().unwrap());
    assert_eq!(v["version"], "json11");
    assert_eq!(v["bozo"], false);
    assert_eq!(v["feed"]["title"], "J");
    assert_eq!(v["entries"][0]["link"], "https://example.org/1");
    assert_eq!(v["decoding"]["rfc3023"]["rule"], "rfc8259");
    assert_eq!(v["headers"]["content-type"], "application/feed+json");
}
