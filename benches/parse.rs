//! Decode + parse throughput against two baselines, on generated (deterministic) feeds:
//!
//! - `*/feed-decoder`: `feed_decoder::parse(bytes, &Transport::Local)` (decode + parse,
//!   HTML values sanitized and their URIs resolved, the defaults);
//! - `*/feed-decoder-raw`: the same with sanitizing and resolution off — aim: the
//!   defaults cost at most 1.3× this;
//! - `*/scan`: a bare quick-xml event scan of the already-decoded text (every event read
//!   to EOF, text and CDATA content taken, names touched) — aim: feed-decoder ≤ 2× this;
//! - `*/feed-rs`: `feed_rs::parser::parse` over the same bytes — aim: feed-decoder faster.
//!
//! Inputs: a ~20 MB RSS 2.0 feed in UTF-8 and windows-1252, a ~20 MB Atom 1.0 feed in
//! UTF-8 and windows-1251, two ~20 MB feeds whose label is wrong (the fallback chain:
//! UTF-8 declared us-ascii, windows-1251 declared UTF-8; aim ≤ 3× the scan), a ~20 MB
//! RSS feed truncated near its end (broken markup: the lenient pass takes over where the
//! strict one stopped; aim ≤ 3× the scan), and 50 small feeds (2–20 KB, RSS and Atom,
//! UTF-8) measured as one batch.
//!
//! `python3 tools/parse_ratios.py` prints the ratios of the medians after a run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use feed_decoder::Transport;
use quick_xml::Reader;
use quick_xml::events::Event;

const LARGE: usize = 20 << 20;

/// A tiny deterministic generator (xorshift) so the feeds vary without randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }

    /// A sentence of `n` words from `words`.
    fn sentence(&mut self, words: &[&str], n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(self.pick(words));
        }
        s
    }
}

/// Words that windows-1252 can encode (accents, curly quotes, dashes, euro).
const LATIN: &[&str] = &[
    "Grüße",
    "aus",
    "Köln",
    "déjà",
    "vu",
    "“quoted”",
    "façade",
    "naïve",
    "coûte",
    "5 €",
    "–",
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "lazy",
    "dog",
    "news",
    "today",
    "Zürich",
    "señor",
    "l’été",
];

/// Words that windows-1251 can encode.
const CYRILLIC: &[&str] = &[
    "Новости",
    "дня",
    "сегодня",
    "в",
    "Москве",
    "погода",
    "ясная",
    "и",
    "тёплая",
    "«цитата»",
    "—",
    "рынок",
    "акции",
    "выросли",
    "на",
    "5%",
    "news",
    "update",
];

const DAYS: &[&str] = &["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS: &[&str] = &[
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An RSS 2.0 feed of about `size` bytes of text, declared as `label`.
fn rss(label: &str, words: &[&str], size: usize, seed: u64) -> String {
    let mut r = Rng(seed);
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"{label}\"?>\n\
         <rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
         xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" \
         xmlns:atom=\"http://www.w3.org/2005/Atom\">\n<channel>\n\
         <title>{}</title>\n<link>http://example.com/</link>\n\
         <description>{}</description>\n<language>en-us</language>\n\
         <atom:link href=\"http://example.com/feed.xml\" rel=\"self\" type=\"application/rss+xml\"/>\n\
         <lastBuildDate>Mon, 06 Sep 2010 16:45:00 +0000</lastBuildDate>\n",
        r.sentence(words, 4),
        r.sentence(words, 12)
    );
    let mut i = 0u64;
    while s.len() < size {
        let title = r.sentence(words, 6);
        let para1 = r.sentence(words, 30);
        let para2 = r.sentence(words, 20);
        let html = format!(
            "<p>{para1} <a href=\"http://example.com/{i}?a=1&b=2\">link</a></p>\n<p><em>{para2}</em></p>"
        );
        s.push_str(&format!(
            "<item>\n<title>{title}</title>\n\
             <link>http://example.com/posts/{i}.html</link>\n\
             <guid isPermaLink=\"false\">urn:uuid:{i:08x}-0000-4000-8000-{:012x}</guid>\n\
             <pubDate>{}, {:02} {} 20{:02} {:02}:{:02}:{:02} +0000</pubDate>\n\
             <dc:creator>{}</dc:creator>\n\
             <category>{}</category>\n<category domain=\"http://example.com/tags\">{}</category>\n\
             <description>{}</description>\n\
             <content:encoded><![CDATA[{html}\n<p>{}</p>]]></content:encoded>\n\
             <enclosure url=\"http://example.com/media/{i}.mp3\" length=\"{}\" type=\"audio/mpeg\"/>\n\
             </item>\n",
            r.next() & 0xffff_ffff_ffff,
            r.pick(DAYS),
            1 + r.next() % 28,
            r.pick(MONTHS),
            10 + r.next() % 15,
            r.next() % 24,
            r.next() % 60,
            r.next() % 60,
            r.sentence(words, 2),
            r.pick(words),
            r.pick(words),
            escape(&html),
            r.sentence(words, 25),
            1000 + r.next() % 10_000_000,
        ));
        i += 1;
    }
    s.push_str("</channel>\n</rss>\n");
    s
}

/// An Atom 1.0 feed of about `size` bytes of text, declared as `label`.
fn atom(label: &str, words: &[&str], size: usize, seed: u64) -> String {
    let mut r = Rng(seed);
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"{label}\"?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">\n\
         <title>{}</title>\n<subtitle>{}</subtitle>\n\
         <link href=\"http://example.com/\"/>\n\
         <link rel=\"self\" href=\"http://example.com/atom.xml\"/>\n\
         <id>urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6</id>\n\
         <updated>2010-09-06T16:45:00Z</updated>\n\
         <author><name>{}</name><email>editor@example.com</email></author>\n",
        r.sentence(words, 4),
        r.sentence(words, 12),
        r.sentence(words, 2),
    );
    let mut i = 0u64;
    while s.len() < size {
        let para1 = r.sentence(words, 30);
        let para2 = r.sentence(words, 20);
        let html = format!(
            "<p>{para1} <a href=\"http://example.com/{i}?a=1&b=2\">link</a></p>\n<p><em>{para2}</em></p>"
        );
        let date = format!(
            "20{:02}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            10 + r.next() % 15,
            1 + r.next() % 12,
            1 + r.next() % 28,
            r.next() % 24,
            r.next() % 60,
            r.next() % 60
        );
        s.push_str(&format!(
            "<entry>\n<title>{}</title>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"http://example.com/posts/{i}.html\"/>\n\
             <link rel=\"enclosure\" type=\"audio/mpeg\" length=\"{}\" href=\"http://example.com/media/{i}.mp3\"/>\n\
             <id>urn:uuid:{i:08x}-0000-4000-8000-{:012x}</id>\n\
             <updated>{date}</updated>\n<published>{date}</published>\n\
             <author><name>{}</name><uri>http://example.com/~{}</uri></author>\n\
             <category term=\"{}\" scheme=\"http://example.com/tags\"/>\n<category term=\"{}\"/>\n\
             <summary type=\"html\">{}</summary>\n\
             <content type=\"html\"><![CDATA[{html}\n<p>{}</p>]]></content>\n\
             </entry>\n",
            r.sentence(words, 6),
            1000 + r.next() % 10_000_000,
            r.next() & 0xffff_ffff_ffff,
            r.sentence(words, 2),
            i % 97,
            r.pick(words),
            r.pick(words),
            escape(&html),
            r.sentence(words, 25),
        ));
        i += 1;
    }
    s.push_str("</feed>\n");
    s
}

/// The bare scan: every event to EOF, text and CDATA content taken, names touched.
fn scan(text: &str) -> usize {
    let mut reader = Reader::from_str(text);
    let mut n = 0usize;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => n += e.name().as_ref().len(),
            Ok(Event::End(e)) => n += e.name().as_ref().len(),
            Ok(Event::Text(t)) => n += t.xml_content(quick_xml::XmlVersion::Implicit1_0).len(),
            Ok(Event::CData(c)) => {
                n += c.xml_content(quick_xml::XmlVersion::Implicit1_0).len();
            }
            Ok(Event::GeneralRef(r)) => n += r.len(),
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => n += 1,
        }
    }
    n
}

fn ours(bytes: &[u8]) -> usize {
    let p = feed_decoder::parse(bytes, &Transport::Local);
    p.entries.len() + p.decoded.text.len()
}

/// Decode + parse with sanitizing and URI resolution off (the cost of the HTML filter is
/// `feed-decoder` over this).
fn ours_raw(bytes: &[u8]) -> usize {
    let options = feed_decoder::parse::ParseOptions::default()
        .sanitize_html(false)
        .resolve_relative_uris(false);
    let p = feed_decoder::parse_with(
        &feed_decoder::Decoder::default(),
        &options,
        bytes,
        &Transport::Local,
    );
    p.entries.len() + p.decoded.text.len()
}

fn feed_rs(bytes: &[u8]) -> usize {
    feed_rs::parser::parse(bytes).map_or(0, |f| f.entries.len())
}

fn large(c: &mut Criterion, group: &str, bytes: &[u8]) {
    // `PARSE_BENCH_DUMP=dir` writes the inputs out (for profiling) instead of measuring.
    if let Some(dir) = std::env::var_os("PARSE_BENCH_DUMP") {
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{group}.xml")),
            bytes,
        )
        .expect("dump");
        return;
    }
    let text = feed_decoder::decode(bytes, &Transport::Local)
        .text
        .into_owned();
    let mut g = c.benchmark_group(group);
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("feed-decoder", |b| b.iter(|| ours(black_box(bytes))));
    g.bench_function("feed-decoder-raw", |b| {
        b.iter(|| ours_raw(black_box(bytes)))
    });
    g.bench_function("scan", |b| b.iter(|| scan(black_box(&text))));
    g.bench_function("feed-rs", |b| b.iter(|| feed_rs(black_box(bytes))));
    g.finish();
}

fn bench(c: &mut Criterion) {
    let rss_utf8 = rss("utf-8", LATIN, LARGE, 1).into_bytes();
    large(c, "rss-utf8", &rss_utf8);
    drop(rss_utf8);
    let rss_1252 = encoding_rs::WINDOWS_1252
        .encode(&rss("windows-1252", LATIN, LARGE, 2))
        .0
        .into_owned();
    large(c, "rss-windows1252", &rss_1252);
    drop(rss_1252);
    let atom_utf8 = atom("utf-8", LATIN, LARGE, 3).into_bytes();
    large(c, "atom-utf8", &atom_utf8);
    drop(atom_utf8);
    let atom_1251 = encoding_rs::WINDOWS_1251
        .encode(&atom("windows-1251", CYRILLIC, LARGE, 4))
        .0
        .into_owned();
    large(c, "atom-windows1251", &atom_1251);
    drop(atom_1251);

    // The fallback path: the label is wrong, the strict pass fails and the chain finds
    // the encoding (aim: feed-decoder <= 3x the scan). UTF-8 declared us-ascii, and
    // windows-1251 bytes declared UTF-8 (chardetng's guess decides).
    let ascii_declared = rss("us-ascii", LATIN, LARGE, 5).into_bytes();
    large(c, "fallback-utf8-as-ascii", &ascii_declared);
    drop(ascii_declared);
    let cyrillic_as_utf8 = encoding_rs::WINDOWS_1251
        .encode(&atom("utf-8", CYRILLIC, LARGE, 6))
        .0
        .into_owned();
    large(c, "fallback-1251-as-utf8", &cyrillic_as_utf8);
    drop(cyrillic_as_utf8);

    // Broken markup: an RSS feed cut off 100 bytes before its end, so that the strict
    // pass fails at the very end and the lenient pass takes over there.
    let mut truncated = rss("utf-8", LATIN, LARGE, 7).into_bytes();
    truncated.truncate(truncated.len() - 100);
    large(c, "truncated-rss", &truncated);
    drop(truncated);

    // 50 small feeds, 2–20 KB, alternating RSS and Atom.
    let small: Vec<Vec<u8>> = (0..50u64)
        .map(|i| {
            let size = 2048 + (i as usize * 18 * 1024) / 49;
            if i % 2 == 0 {
                rss("utf-8", LATIN, size, 100 + i).into_bytes()
            } else {
                atom("utf-8", LATIN, size, 100 + i).into_bytes()
            }
        })
        .collect();
    if let Some(dir) = std::env::var_os("PARSE_BENCH_DUMP") {
        for (i, f) in small.iter().enumerate() {
            std::fs::write(
                std::path::Path::new(&dir).join(format!("small-{i:02}.xml")),
                f,
            )
            .expect("dump");
        }
        return;
    }
    let texts: Vec<String> = small
        .iter()
        .map(|b| feed_decoder::decode(b, &Transport::Local).text.into_owned())
        .collect();
    let total: usize = small.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("small");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(total as u64));
    g.bench_function("feed-decoder", |b| {
        b.iter(|| small.iter().map(|f| ours(black_box(f))).sum::<usize>())
    });
    g.bench_function("scan", |b| {
        b.iter(|| texts.iter().map(|t| scan(black_box(t))).sum::<usize>())
    });
    g.bench_function("feed-rs", |b| {
        b.iter(|| small.iter().map(|f| feed_rs(black_box(f))).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
