//! The streaming reader against the full parser: the same entries from the repo's
//! fixtures in UTF-8, re-encoded in legacy charsets and UTF-16, fed in 1–7 byte reads;
//! `max_entries`; replacement of undecodable bytes; bounded memory on a generated feed.

use std::io::{self, Read};

use feed_decoder::model::{Entry, Feed};
use feed_decoder::parse::ParseOptions;
use feed_decoder::stream::{FeedReader, StreamEnd, StreamItem};
use feed_decoder::{BozoKind, Charset, Transport};

const FIXTURES: &[&str] = &[
    "feeds/parse/formats/rss20.xml",
    "feeds/parse/formats/rss10.xml",
    "feeds/parse/formats/rss090.xml",
    "feeds/parse/formats/atom10.xml",
    "feeds/parse/formats/atom03.xml",
    "feeds/parse/model/itunes.xml",
    "feeds/parse/model/media.xml",
    "feeds/parse/model/content_precedence.xml",
    "feeds/parse/model/atom_summary_content.xml",
    "feeds/parse/model/podcast_item.xml",
    "feeds/parse/model/namespaces.xml",
    "feeds/parse/model/lang_base.xml",
    "feeds/parse/model/xml_base_links.xml",
    "feeds/parse/model/source.xml",
    "feeds/parse/model/georss.xml",
];

/// A reader that returns 1, 2, … 7 bytes per read, in turn.
struct Trickle<'a> {
    data: &'a [u8],
    turn: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.turn = self.turn % 7 + 1;
        let n = self.turn.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

struct Streamed {
    first: Option<Feed>,
    entries: Vec<Entry>,
    end: StreamEnd,
}

fn stream(reader: impl Read, transport: &Transport, options: ParseOptions) -> Streamed {
    let mut first = None;
    let mut entries = Vec::new();
    let mut end = None;
    for (i, item) in FeedReader::new(reader, transport, options)
        .expect("prefix read")
        .enumerate()
    {
        match item {
            StreamItem::Feed(f) => {
                assert_eq!(i, 0, "the metadata comes first");
                first = Some(*f);
            }
            StreamItem::Entry(e) => entries.push(*e),
            StreamItem::End(e) => {
                assert!(end.is_none(), "one end");
                end = Some(*e);
            }
        }
    }
    Streamed {
        first,
        entries,
        end: end.expect("an End item"),
    }
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect(path)
}

/// The fixture's text with its XML declaration replaced by one naming `label`, encoded
/// in `charset` (`None` when a character does not fit).
fn reencode(text: &str, charset: Charset, label: &str) -> Option<Vec<u8>> {
    let body = match text.trim_start().strip_prefix("<?xml") {
        Some(rest) => &rest[rest.find("?>")? + 2..],
        None => text,
    };
    let doc = format!("<?xml version=\"1.0\" encoding=\"{label}\"?>{body}");
    charset.encode(&doc)
}

/// Streams `bytes` whole and in 1–7 byte reads, and checks both against the full parser.
fn same_as_full(name: &str, bytes: &[u8]) {
    let full = feed_decoder::parse(bytes, &Transport::Local);
    for trickle in [false, true] {
        let s = if trickle {
            stream(
                Trickle {
                    data: bytes,
                    turn: 0,
                },
                &Transport::Local,
                ParseOptions::default(),
            )
        } else {
            stream(bytes, &Transport::Local, ParseOptions::default())
        };
        assert!(!full.entries.is_empty(), "{name}: has entries");
        assert_eq!(s.entries, full.entries, "{name} (trickle: {trickle})");
        assert_eq!(s.end.feed, full.feed, "{name}: metadata");
        assert_eq!(s.end.version, full.version, "{name}: version");
        assert_eq!(s.end.encoding, full.decoded.encoding, "{name}: encoding");
        assert_eq!(s.end.entries, full.entries.len());
        assert!(s.first.is_some());
    }
}

#[test]
fn utf8_fixtures_give_the_full_parsers_entries() {
    for path in FIXTURES {
        same_as_full(path, &read(path));
    }
}

/// Every parse fixture, the malformed ones too (whose full parse takes the lenient pass):
/// the same entries and the same final metadata.
#[test]
fn every_parse_fixture_gives_the_full_parsers_entries_and_metadata() {
    let mut n = 0;
    for dir in ["formats", "model", "malformed"] {
        let dir = format!("{}/feeds/parse/{dir}", env!("CARGO_MANIFEST_DIR"));
        for f in std::fs::read_dir(&dir).unwrap() {
            let path = f.unwrap().path();
            if path.extension().is_none_or(|e| e != "xml") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let full = feed_decoder::parse(&bytes, &Transport::Local);
            let s = stream(&bytes[..], &Transport::Local, ParseOptions::default());
            let name = path.display();
            assert_eq!(s.entries, full.entries, "{name}");
            assert_eq!(s.end.feed, full.feed, "{name}");
            assert_eq!(s.end.version, full.version, "{name}");
            // (Not the bozo records: the stream has no strict pass, see its docs.)
            n += 1;
        }
    }
    assert!(n >= 50, "{n} fixtures");
}

#[test]
fn legacy_and_utf16_encodings_give_the_full_parsers_entries() {
    let cases = [
        (Charset::for_label("windows-1251").unwrap(), "windows-1251"),
        (Charset::SHIFT_JIS, "shift_jis"),
        (Charset::UTF_16LE, "utf-16"),
        (Charset::UTF_16BE, "utf-16"),
    ];
    let mut done = 0;
    for path in FIXTURES {
        let text = String::from_utf8(read(path)).unwrap();
        for (cs, label) in cases {
            // Some text, in the script of the charset, in every entry title.
            let text = text.replace("<title>", "<title>Новости 日本 ").replace(
                "<title type=\"text\">",
                "<title type=\"text\">Новости 日本 ",
            );
            let Some(mut bytes) = reencode(&text, cs, label) else {
                continue;
            };
            if label == "utf-16" {
                let bom: &[u8] = if cs == Charset::UTF_16LE {
                    b"\xff\xfe"
                } else {
                    b"\xfe\xff"
                };
                bytes.splice(0..0, bom.iter().copied());
            }
            same_as_full(&format!("{path} as {}", cs.name()), &bytes);
            done += 1;
        }
    }
    // Every fixture fits in Shift_JIS and UTF-16; windows-1251 lacks 日本.
    assert!(done >= 3 * FIXTURES.len(), "{done} cases");
}

/// Feeds larger than the prefix, so that the encoding is chosen from a prefix cut inside
/// a character and the rest is transcoded in many chunks (and, trickled, many seams).
#[test]
fn large_feeds_in_multibyte_and_legacy_charsets_give_the_full_parsers_entries() {
    let cases = [
        (Charset::SHIFT_JIS, "shift_jis", "日本語のニュース"),
        (
            Charset::for_label("euc-jp").unwrap(),
            "euc-jp",
            "日本語のニュース",
        ),
        (
            Charset::for_label("windows-1251").unwrap(),
            "windows-1251",
            "Новости",
        ),
        (Charset::UTF_16LE, "utf-16le", "Новости 日本"),
        (
            Charset::for_label("utf-32be").unwrap(),
            "utf-32be",
            "Новости 日本",
        ),
        (Charset::UTF_8, "utf-8", "Новости 日本"),
    ];
    for (cs, label, word) in cases {
        let text = generated(1200).replace("Item ", &format!("{word} "));
        let bytes = reencode(&text, cs, label).unwrap();
        assert!(bytes.len() > feed_decoder::stream::PREFIX_LEN);
        same_as_full(label, &bytes);
    }
}

/// No label at all: chardetng's guess over the prefix decides, as in the full decoder.
#[test]
fn unlabelled_legacy_bytes_are_detected_from_the_prefix() {
    for (label, word) in [("koi8-r", "Новости дня"), ("shift_jis", "日本語のニュース")]
    {
        let text = generated(40).replace("Item ", &format!("{word} "));
        let bytes = Charset::for_label(label).unwrap().encode(&text).unwrap();
        let full = feed_decoder::parse(&bytes, &Transport::Local);
        let s = stream(&bytes[..], &Transport::Local, ParseOptions::default());
        assert_eq!(s.end.charset, Charset::for_label(label).unwrap());
        assert_eq!(s.entries, full.entries, "{label}");
        assert!(s.entries[0].title.as_deref().unwrap().starts_with(word));
    }
}

#[test]
fn a_shift_jis_fixture_streams_as_parsed() {
    let bytes = read("feeds/decode/guard_shift_jis.xml");
    let full = feed_decoder::parse(&bytes, &Transport::Local);
    let s = stream(&bytes[..], &Transport::Local, ParseOptions::default());
    assert_eq!(s.end.feed, full.feed);
    assert_eq!(s.entries, full.entries);
    assert_eq!(s.end.charset, Charset::SHIFT_JIS);
}

fn generated(n: usize) -> String {
    let mut s = String::from("<rss version=\"2.0\"><channel><title>Gen</title>");
    for i in 0..n {
        s.push_str(&format!(
            "<item><title>Item {i}</title><guid>g{i}</guid></item>"
        ));
    }
    s.push_str("<description>after the items</description></channel></rss>");
    s
}

#[test]
fn max_entries_stops_reading() {
    let xml = generated(10);
    let s = stream(
        xml.as_bytes(),
        &Transport::Local,
        ParseOptions::default().max_entries(3),
    );
    let titles: Vec<_> = s
        .entries
        .iter()
        .map(|e| e.title.as_deref().unwrap())
        .collect();
    assert_eq!(titles, ["Item 0", "Item 1", "Item 2"]);
    assert_eq!(s.end.entries, 3);
    let limit: Vec<_> = s
        .end
        .bozo
        .iter()
        .filter(|b| b.kind == BozoKind::LimitExceeded)
        .collect();
    assert_eq!(limit.len(), 1, "{:?}", s.end.bozo);
    assert!(limit[0].message.contains("max_entries"));
    // Reading stopped: what follows the items was never seen.
    assert_eq!(s.end.feed.subtitle, None);
    assert_eq!(s.end.feed.title.as_deref(), Some("Gen"));

    // Exactly as many entries as allowed: no record, and the metadata after them is read.
    let s = stream(
        generated(3).as_bytes(),
        &Transport::Local,
        ParseOptions::default().max_entries(3),
    );
    assert_eq!(s.entries.len(), 3);
    assert!(s.end.bozo.is_empty(), "{:?}", s.end.bozo);
    assert_eq!(s.end.feed.subtitle.as_deref(), Some("after the items"));
    // The early metadata did not have it.
    assert_eq!(s.first.unwrap().subtitle, None);
}

/// Entries written as empty elements start and end in one event, so the metadata is not
/// sent before them as usual; it still comes first (found by fuzzing: an only `<item/>`
/// came out before the feed).
#[test]
fn empty_element_entries_come_after_the_metadata() {
    for doc in [
        "<rss version='2.0'><channel><title>T</title><item/></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item/><item/></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item/><item><title>b</title></item>\
         </channel></rss>",
        "<feed xmlns='http://www.w3.org/2005/Atom'><title>T</title><entry/></feed>",
        "<rss version='2.0'><channel><title>T</title><item/>",
    ] {
        let full = feed_decoder::parse(doc.as_bytes(), &Transport::Local);
        for trickle in [false, true] {
            let s = if trickle {
                stream(
                    Trickle {
                        data: doc.as_bytes(),
                        turn: 0,
                    },
                    &Transport::Local,
                    ParseOptions::default(),
                )
            } else {
                stream(doc.as_bytes(), &Transport::Local, ParseOptions::default())
            };
            assert_eq!(
                s.first.expect("metadata").title.as_deref(),
                Some("T"),
                "{doc}"
            );
            assert_eq!(s.entries, full.entries, "{doc}");
            assert_eq!(s.end.entries, full.entries.len(), "{doc}");
        }
    }
}

#[test]
fn a_feed_without_entries_yields_its_metadata_then_the_end() {
    let s = stream(
        &b"<feed xmlns='http://www.w3.org/2005/Atom'><title>T</title></feed>"[..],
        &Transport::Local,
        ParseOptions::default(),
    );
    assert_eq!(s.first.unwrap().title.as_deref(), Some("T"));
    assert!(s.entries.is_empty());
    assert_eq!(s.end.version, "atom10");
}

#[test]
fn undecodable_bytes_become_replacement_characters_with_a_record() {
    // Valid UTF-8 for the first 64 KiB (the encoding is chosen from it), then a stray
    // 0xFF in an entry title.
    let mut xml = generated(3000).into_bytes();
    assert!(xml.len() > 70_000);
    let at = xml.len() - 200;
    let at = at + xml[at..].windows(7).position(|w| w == b"<title>").unwrap() + 7;
    xml.insert(at, 0xff);
    let s = stream(&xml[..], &Transport::Local, ParseOptions::default());
    assert_eq!(s.end.encoding, "utf-8");
    let bad: Vec<_> = s
        .entries
        .iter()
        .filter(|e| e.title.as_deref().is_some_and(|t| t.contains('\u{FFFD}')))
        .collect();
    assert_eq!(bad.len(), 1);
    assert!(
        bad[0]
            .title
            .as_deref()
            .unwrap()
            .starts_with("\u{FFFD}Item ")
    );
    let rec: Vec<_> = s
        .end
        .bozo
        .iter()
        .filter(|b| b.kind == BozoKind::CharacterDecodingError)
        .collect();
    assert_eq!(rec.len(), 1, "{:?}", s.end.bozo);
    assert_eq!(s.entries.len(), 3000);
}

#[test]
fn an_http_charset_decides_as_in_the_full_decoder() {
    let text = generated(2).replace("Gen", "Привет");
    let bytes = Charset::for_label("koi8-r").unwrap().encode(&text).unwrap();
    let t = Transport::content_type("application/rss+xml; charset=koi8-r");
    let full = feed_decoder::parse(&bytes, &t);
    let s = stream(&bytes[..], &t, ParseOptions::default());
    assert_eq!(s.end.feed.title.as_deref(), Some("Привет"));
    assert_eq!(s.end.feed, full.feed);
    assert_eq!(s.entries, full.entries);
    assert_eq!(s.end.encoding, "koi8-r");
}

/// UTF-8 bytes declared (or served) as UTF-16 stream as the full parser reads them: the
/// UTF-16 reading has no markup, so the next candidate is used.
#[test]
fn a_wide_label_over_utf8_bytes_streams_as_utf8() {
    for (label, t) in [
        ("utf-16", Transport::Local),
        ("UTF-16LE", Transport::Local),
        (
            "ucs-2",
            Transport::content_type("application/rss+xml; charset=utf-16"),
        ),
    ] {
        let mut text = generated(3).replace("Gen", "Grüße aus Köln").replacen(
            "<rss",
            &format!("<?xml version=\"1.0\" encoding=\"{label}\"?>\n<rss"),
            1,
        );
        if text.len() % 2 == 1 {
            text.push('\n');
        }
        let full = feed_decoder::parse(text.as_bytes(), &t);
        let s = stream(text.as_bytes(), &t, ParseOptions::default());
        assert_eq!(full.decoded.encoding, "utf-8", "{label}");
        assert_eq!(s.end.encoding, "utf-8", "{label}");
        assert_eq!(
            s.end.feed.title.as_deref(),
            Some("Grüße aus Köln"),
            "{label}"
        );
        assert_eq!(s.end.feed, full.feed, "{label}");
        assert_eq!(s.entries, full.entries, "{label}");
        assert_eq!(s.entries.len(), 3, "{label}");
    }
}

#[test]
fn broken_markup_is_recovered_with_a_record() {
    let xml = b"<rss version='2.0'><channel><title>A &amp; B &eacute;</title>\
                <item><title>One<br></title></item><item><title>Two</title>";
    let s = stream(&xml[..], &Transport::Local, ParseOptions::default());
    assert_eq!(s.end.feed.title.as_deref(), Some("A & B é"));
    assert_eq!(s.entries.len(), 2, "the truncated last entry is kept");
    assert_eq!(s.entries[1].title.as_deref(), Some("Two"));
}

/// A reader that fails after `ok` bytes.
struct Failing<'a> {
    data: &'a [u8],
    ok: usize,
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ok == 0 {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionReset,
                "peer went away",
            ));
        }
        let n = buf.len().min(self.ok).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.ok -= n;
        Ok(n)
    }
}

#[test]
fn an_io_error_ends_the_stream_with_a_transport_record() {
    let xml = generated(3000);
    assert!(xml.len() > 100_000);
    // Within the prefix: `new` fails.
    let early = FeedReader::new(
        Failing {
            data: xml.as_bytes(),
            ok: 1000,
        },
        &Transport::Local,
        ParseOptions::default(),
    );
    assert_eq!(
        early.err().map(|e| e.kind()),
        Some(io::ErrorKind::ConnectionReset)
    );
    // After it: the entries read so far, then an end with a Transport record.
    let s = stream(
        Failing {
            data: xml.as_bytes(),
            ok: 90_000,
        },
        &Transport::Local,
        ParseOptions::default(),
    );
    assert!(
        s.entries.len() > 1000 && s.entries.len() < 3000,
        "{}",
        s.entries.len()
    );
    for (i, e) in s.entries.iter().enumerate().take(s.entries.len() - 1) {
        assert_eq!(e.title.as_deref(), Some(format!("Item {i}").as_str()));
    }
    let t: Vec<_> = s
        .end
        .bozo
        .iter()
        .filter(|b| b.kind == BozoKind::Transport)
        .collect();
    assert_eq!(t.len(), 1, "{:?}", s.end.bozo);
    assert!(t[0].message.contains("peer went away"));
}

#[test]
fn a_json_feed_is_not_streamed_and_says_so() {
    let s = stream(
        &br#"{"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": []}"#[..],
        &Transport::Local,
        ParseOptions::default(),
    );
    assert!(s.entries.is_empty());
    assert!(
        s.end.bozo.iter().any(|b| b.message.contains("JSON")),
        "{:?}",
        s.end.bozo
    );
}

/// A generated RSS feed of about `bytes` bytes, produced as it is read.
struct Generator {
    remaining: usize,
    next: usize,
    pending: Vec<u8>,
    at: usize,
    closed: bool,
}

impl Generator {
    fn new(bytes: usize) -> Self {
        Generator {
            remaining: bytes,
            next: 0,
            pending: b"<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel><title>Big</title>".to_vec(),
            at: 0,
            closed: false,
        }
    }
}

impl Read for Generator {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() {
            self.pending.clear();
            self.at = 0;
            if self.remaining > 0 {
                let i = self.next;
                self.next += 1;
                self.pending.extend_from_slice(
                    format!(
                        "<item><title>Entry {i} — caf\u{e9}</title><link>http://example.com/{i}</link>\
                         <description>&lt;p&gt;Body of entry {i}, some text to make it longer.&lt;/p&gt;</description>\
                         <guid>urn:{i}</guid><pubDate>Mon, 23 Nov 2026 20:00:00 GMT</pubDate></item>"
                    )
                    .as_bytes(),
                );
                self.remaining = self.remaining.saturating_sub(self.pending.len());
            } else if !self.closed {
                self.closed = true;
                self.pending.extend_from_slice(b"</channel></rss>");
            } else {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn count_streamed(bytes: usize) -> usize {
    let mut n = 0;
    // No entry limit: memory stays bounded without one.
    let options = ParseOptions::default().max_entries(usize::MAX);
    for item in FeedReader::new(Generator::new(bytes), &Transport::Local, options).unwrap() {
        match item {
            StreamItem::Entry(e) => {
                assert!(e.title.as_deref().unwrap().ends_with("café"));
                n += 1;
            }
            StreamItem::End(end) => assert!(end.bozo.is_empty(), "{:?}", end.bozo),
            _ => {}
        }
    }
    n
}

/// Streams `STREAM_MB` MB (default 200) from a generator and asserts that this process's
/// peak memory grew by less than 16 MiB. Ignored because VmHWM is per process: run it
/// alone (`cargo test --release --test stream -- --ignored --test-threads 1`), as the
/// next test does in a child process.
#[test]
#[ignore = "measures this process's peak memory: run it alone"]
fn streaming_in_bounded_memory() {
    let mb: usize = std::env::var("STREAM_MB").map_or(200, |v| v.parse().unwrap());
    let before = vm_hwm_kib().expect("/proc/self/status");
    let n = count_streamed(mb << 20);
    let after = vm_hwm_kib().expect("/proc/self/status");
    println!(
        "{mb} MB, {n} entries; VmHWM {before} KiB before, {after} KiB after (+{} KiB)",
        after - before
    );
    // About 250 bytes per generated entry.
    assert!(n > mb * 4000, "{n} entries");
    assert!(
        after - before < 16 * 1024,
        "peak grew {} KiB",
        after - before
    );
}

/// 20 MB streamed in a child process that runs the test above alone (this test binary,
/// filtered to it), so that its peak memory is its own.
#[test]
fn twenty_megabytes_stream_in_bounded_memory() {
    if vm_hwm_kib().is_none() {
        eprintln!("no /proc/self/status: skipped");
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "streaming_in_bounded_memory",
            "--test-threads",
            "1",
            "--nocapture",
        ])
        .env("STREAM_MB", "20")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("20 MB, "), "{stdout}");
    assert!(stdout.contains("1 passed"), "{stdout}");
}
