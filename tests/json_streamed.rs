//! `parse_and_write` (the entries written one by one as the parse makes them
//! final, as `feed-decoder --json` does) gives the object `output::write_json` gives over
//! the whole result, `entries` first, on every fixture and on the shapes where the parse
//! hands its entries over in unusual ways: an undeclared prefix, a broken tag, a cut,
//! a limit on entries, no entries at all, no root element, a JSON Feed, a legacy
//! charset.

use std::path::{Path, PathBuf};

use feed_decoder::{
    Decoder, Headers, ParseOptions, Transport, output, parse_and_write, parse_owned,
};
use serde_json::Map;

fn both(bytes: &[u8], transport: &Transport, options: &ParseOptions) -> (Vec<u8>, Vec<u8>) {
    let decoder = Decoder::default();
    let mut extra = Map::new();
    extra.insert("input".into(), "x.xml".into());
    let streamed = parse_and_write(
        &decoder,
        options,
        bytes.to_vec(),
        transport,
        extra.clone(),
        Vec::new(),
    )
    .expect("write to a Vec");
    let parsed = parse_owned(&decoder, options, bytes.to_vec(), transport);
    let mut whole = Vec::new();
    output::write_json(&parsed, extra, &mut whole).expect("write to a Vec");
    (streamed, whole)
}

fn assert_same(name: &str, bytes: &[u8], transport: &Transport, options: &ParseOptions) {
    let (streamed, whole) = both(bytes, transport, options);
    assert!(streamed.starts_with(b"{\"entries\":["), "{name}");
    let text = String::from_utf8_lossy(&streamed);
    let a: serde_json::Value =
        serde_json::from_slice(&streamed).unwrap_or_else(|e| panic!("{name}: {e}: {text}"));
    let b: serde_json::Value = serde_json::from_slice(&whole).expect("json");
    assert!(
        a == b,
        "{name}: streamed JSON differs\n streamed: {text}\n    whole: {}",
        String::from_utf8_lossy(&whole)
    );
    // The same bytes but for the place of `entries`.
    let mut sorted = Vec::new();
    output::to_writer(&mut sorted, &a).expect("write");
    assert_eq!(sorted, whole, "{name}");
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "xml" || e == "json") {
            out.push(path);
        }
    }
}

#[test]
fn every_fixture_streams_to_the_same_bytes() {
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds"),
        &mut all,
    );
    assert!(all.len() > 150, "fixtures found: {}", all.len());
    let http = Transport::Http(Headers::new().with("Content-Type", "application/rss+xml"));
    for path in &all {
        let bytes = std::fs::read(path).expect("read");
        let name = path.display().to_string();
        assert_same(&name, &bytes, &Transport::Local, &ParseOptions::default());
        assert_same(
            &name,
            &bytes,
            &http,
            &ParseOptions::default().max_entries(2),
        );
    }
}

fn items(n: usize, extra: &str) -> String {
    (0..n)
        .map(|i| format!("<item><title>Item {i}</title><description>&lt;b&gt;{i}&lt;/b&gt;</description>{extra}</item>"))
        .collect()
}

#[test]
fn unusual_handovers_stream_to_the_same_bytes() {
    let cases = [
        // The strict pass stops at an undeclared prefix after three entries went out,
        // and the lenient pass reads the document again from the start.
        (
            "restart",
            format!("<rss version='2.0'><channel><title>T</title>{}<item><x:y>1</x:y></item>{}</channel></rss>", items(3, ""), items(2, "")),
        ),
        // The strict pass stops at a broken tag and the lenient one goes on from there.
        (
            "handover",
            format!("<rss version='2.0'><channel>{}<item><title>a &amp b</title></item>{}</channel></rss>", items(3, ""), items(2, "")),
        ),
        // Cut off in the middle of an entry.
        ("truncated", format!("<rss version='2.0'><channel>{}<item><title>cut", items(4, ""))),
        ("empty", "<rss version='2.0'><channel><title>No entries</title></channel></rss>".to_owned()),
        ("no root", "   ".to_owned()),
        (
            "atom",
            format!(
                "<feed xmlns='http://www.w3.org/2005/Atom'><title>A</title>{}</feed>",
                (0..5).map(|i| format!("<entry><title>E{i}</title><summary type='html'>&lt;i&gt;s&lt;/i&gt;</summary></entry>")).collect::<String>()
            ),
        ),
        (
            "json feed",
            r#"{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[{"id":"1","content_text":"a"},{"id":"2","content_html":"<p>b</p>"}]}"#.to_owned(),
        ),
    ];
    for (name, text) in &cases {
        for options in [
            ParseOptions::default(),
            ParseOptions::default().max_entries(2),
        ] {
            assert_same(name, text.as_bytes(), &Transport::Local, &options);
        }
    }
    // The strict pass stopped at the undeclared prefix and no entry was written twice.
    let (streamed, _) = both(
        cases[0].1.as_bytes(),
        &Transport::Local,
        &ParseOptions::default(),
    );
    let v: serde_json::Value = serde_json::from_slice(&streamed).expect("json");
    assert_eq!(v["entries"].as_array().map(Vec::len), Some(6));
    assert_eq!(v["bozo_exception"]["type"], "UndeclaredNamespace", "{v}");
    // A legacy charset, decoded before the parse.
    let mut latin = b"<?xml version='1.0' encoding='windows-1252'?><rss><channel>".to_vec();
    latin.extend(items(3, "<category>caf\u{e9}</category>").bytes());
    latin.extend(b"<item><title>\xe9t\xe9</title></item></channel></rss>");
    assert_same(
        "windows-1252",
        &latin,
        &Transport::Local,
        &ParseOptions::default(),
    );
}

#[test]
fn every_entry_count_streams_to_the_same_bytes() {
    // Every count of entries up to a few dozen, each also cut off inside the next entry
    // and limited to about half of them.
    for n in 0..=35 {
        let rss = format!(
            "<rss version='2.0'><channel><title>T</title>{}</channel></rss>",
            items(n, "")
        );
        assert_same(
            &format!("{n} entries"),
            rss.as_bytes(),
            &Transport::Local,
            &ParseOptions::default(),
        );
        let cut = format!(
            "<rss version='2.0'><channel>{}<item><title>cut",
            items(n, "")
        );
        assert_same(
            &format!("{n} entries, cut"),
            cut.as_bytes(),
            &Transport::Local,
            &ParseOptions::default(),
        );
        assert_same(
            &format!("{n} entries, limit"),
            rss.as_bytes(),
            &Transport::Local,
            &ParseOptions::default().max_entries(n / 2 + 1),
        );
    }
}

/// A writer that takes `room` bytes, then fails; `written` counts what it took.
struct Full {
    room: usize,
    written: usize,
}

impl std::io::Write for Full {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.room == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "closed",
            ));
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        self.written += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_writer_gives_its_error_back() {
    let rss = format!(
        "<rss version='2.0'><channel><title>T</title>{}</channel></rss>",
        items(30, "")
    );
    let write = |out| {
        parse_and_write(
            &Decoder::default(),
            &ParseOptions::default(),
            rss.as_bytes().to_vec(),
            &Transport::Local,
            Map::new(),
            out,
        )
    };
    let whole = write(Full {
        room: usize::MAX,
        written: 0,
    });
    assert!(whole.is_ok(), "{:?}", whole.as_ref().err());
    let len = whole.map_or(0, |full| full.written);
    // Failing at the start, inside the entries, and inside the keys after them.
    for room in [0, 1, 40, len / 3, len / 2, len - 2] {
        let err = write(Full { room, written: 0 })
            .err()
            .unwrap_or_else(|| panic!("room {room} of {len}: no error"));
        assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe, "room {room}");
    }
}
