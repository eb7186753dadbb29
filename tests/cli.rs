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
    assert_eq!(
        v["headers"],
        serde_json::json!({}),
        "local bytes: empty headers"
    );
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
    // With --json the failure is also a JSON object: kind and message, no `input` key
    // for a single input.
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["error"], "not-found");
    assert!(v["message"].as_str().unwrap().contains("/no/such/feed.xml"));
    assert!(v.get("input").is_none());
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

#[test]
fn invalid_header_names_and_values_are_refused() {
    let feed = fixture("rule_1_0_no_declaration.xml");
    for args in [
        vec!["--header", "Content Type: text/xml"],
        vec!["--header", ": text/xml"],
        vec!["--header", "X-A: b\r\nContent-Type: text/plain"],
        vec!["--header", "X-A: b\nc"],
        vec!["--content-type", "text/xml\ncharset=koi8-r"],
    ] {
        let out = bin().args(&args).arg(&feed).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("invalid header name")
                || err.contains("line break")
                || err.contains("Name: value"),
            "{args:?}: {err}"
        );
    }
    let ok = bin()
        .args([
            "--json",
            "--header",
            "X-Custom_1.a: v v",
            "--header",
            "ETag: \"e\"",
        ])
        .arg(&feed)
        .output()
        .unwrap();
    assert_eq!(json(&ok)["etag"], "\"e\"");
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn many_inputs_give_json_lines_in_argument_order() {
    let a = fixture("evidence_cyrillic_declared_latin1.xml");
    let b = fixture("rule_1_2_declared_koi8r.xml");
    let missing = "/no/such/feed.xml".to_owned();
    let inputs = [a.clone(), missing.clone(), b.clone(), a.clone()];
    let out = bin().arg("--json").args(&inputs).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "one input could not be read");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    for (line, input) in lines.iter().zip(&inputs) {
        assert_eq!(line["input"], input.as_str());
    }
    assert_eq!(lines[0]["encoding"], "windows-1251");
    assert_eq!(lines[1]["error"], "not-found");
    assert!(lines[1].get("feed").is_none());
    assert_eq!(lines[2]["encoding"], "koi8-r");
    // Each object is the single-input object plus `input`.
    let single = json(&bin().args(["--json", &b]).output().unwrap());
    let mut with_input = single.clone();
    with_input["input"] = b.as_str().into();
    assert_eq!(lines[2], with_input);
    // In parallel: the same bytes.
    let parallel = bin()
        .args(["--json", "--jobs", "3"])
        .args(&inputs)
        .output()
        .unwrap();
    assert_eq!(parallel.status.code(), Some(2));
    assert_eq!(parallel.stdout, out.stdout);
    // All readable: status 0.
    let fine = bin().args(["--json", "-j", "2", &a, &b]).output().unwrap();
    assert!(fine.status.success());
    assert_eq!(json_lines(&fine).len(), 2);
    // Summaries get a heading per input.
    let text = bin().args([&a, &b]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains(&format!("==> {b} <==")), "{text}");
    assert_eq!(text.matches("encoding:").count(), 2);
}

/// A feed big enough that its JSON fills any pipe buffer.
fn big_feed(dir: &Path) -> String {
    let mut body = String::from("<rss version='2.0'><channel><title>t</title>");
    for i in 0..20_000 {
        body.push_str(&format!(
            "<item><title>Item {i}</title><description>text {i}</description></item>"
        ));
    }
    body.push_str("</channel></rss>");
    let path = dir.join("big.xml");
    std::fs::write(&path, body).unwrap();
    path.display().to_string()
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = std::env::temp_dir().join(format!("feed-decoder-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = big_feed(&dir);
    for close_stderr in [false, true] {
        // `| head -c 10`, with standard error open and closed (`2>&-`).
        // Sequential, and on threads (the first input streams, the others wait in
        // buffers when the pipe closes), by default one per CPU.
        for jobs in ["--jobs 1", "--jobs 2", ""] {
            let script = format!(
                "\"$0\" --json {jobs} \"$1\" \"$1\" \"$1\" {} | head -c 10 >/dev/null; echo \"status ${{PIPESTATUS[0]}}\"",
                if close_stderr { "2>&-" } else { "" }
            );
            let out = Command::new("bash")
                .args(["-c", &script, env!("CARGO_BIN_EXE_feed-decoder"), &big])
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stdout.trim() == "status 0" || stdout.trim() == "status 141",
                "stderr closed: {close_stderr}: {stdout} {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
            assert!(stderr.is_empty(), "quiet: {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parallel_runs_write_what_a_sequential_run_writes() {
    // A slow input (its JSON larger than any buffer) among quick ones and missing ones:
    // the quick ones finish out of turn and wait; the order and the bytes stay those of
    // a sequential run, and so does the exit status.
    let dir = std::env::temp_dir().join(format!("feed-decoder-par-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = big_feed(&dir);
    let a = fixture("evidence_cyrillic_declared_latin1.xml");
    let b = fixture("rule_1_2_declared_koi8r.xml");
    let missing = "/no/such/feed.xml".to_owned();
    let mut inputs = Vec::new();
    for i in 0..12 {
        inputs.push(if i % 4 == 0 { big.clone() } else { a.clone() });
        inputs.push(b.clone());
        if i % 5 == 2 {
            inputs.push(missing.clone());
        }
    }
    let sequential = bin()
        .args(["--json", "--jobs", "1"])
        .args(&inputs)
        .output()
        .unwrap();
    assert_eq!(sequential.status.code(), Some(2));
    assert_eq!(json_lines(&sequential).len(), inputs.len());
    // `""`: the default, one thread per CPU.
    for jobs in ["2", "3", "8", ""] {
        let mut cmd = bin();
        cmd.arg("--json");
        if !jobs.is_empty() {
            cmd.args(["--jobs", jobs]);
        }
        let parallel = cmd.args(&inputs).output().unwrap();
        assert_eq!(parallel.status.code(), Some(2), "--jobs {jobs}");
        assert!(
            parallel.stdout == sequential.stdout,
            "--jobs {jobs}: other bytes"
        );
    }
    let readable: Vec<&String> = inputs.iter().filter(|i| **i != missing).collect();
    let fine = bin()
        .args(["--json", "-j", "2"])
        .args(&readable)
        .output()
        .unwrap();
    assert!(fine.status.success());
    assert_eq!(json_lines(&fine).len(), readable.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "http")]
#[test]
fn a_fetch_failure_is_a_json_object_too() {
    // Nothing listens on port 1 of the loopback address.
    let out = bin()
        .args(["--json", "http://127.0.0.1:1/feed.xml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(
        matches!(v["error"].as_str(), Some("refused" | "connect")),
        "{v}"
    );
    assert!(
        v["message"].as_str().unwrap().contains("127.0.0.1:1"),
        "{v}"
    );
}
