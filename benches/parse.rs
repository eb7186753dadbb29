//! Decode + parse throughput against the floor and feed-rs, on generated (deterministic)
//! feeds:
//!
//! - `*/feed-decoder`: `feed_decoder::parse(bytes, &Transport::Local)` (decode + parse,
//!   HTML values sanitized and their URIs resolved, the defaults);
//! - `*/feed-decoder-raw`: the same with sanitizing and resolution off — aim: the
//!   defaults cost at most 1.3× this;
//! - `*/floor`: what any decoder must do (`examples/floor/walk.rs`, nothing of this
//!   crate): the bytes decoded with encoding_rs by their declared label (lossy, as
//!   declared even where the label is wrong) and every quick-xml event of the text read
//!   to the end, nothing unescaped — aim: feed-decoder ≤ 2× this (≤ 2.5× on the
//!   `fallback-*` inputs, ≤ 3× on `truncated-rss`);
//! - `*/feed-rs`: `feed_rs::parser::parse` over the same bytes — aim: feed-decoder faster.
//!
//! Inputs, each about 20 MiB as bytes: RSS 2.0 in UTF-8, windows-1252, windows-1251 and
//! Shift_JIS; Atom 1.0 in UTF-8, windows-1251 and Shift_JIS; two feeds whose label is
//! wrong (the fallback chain: UTF-8 declared us-ascii, windows-1251 declared UTF-8); an
//! RSS feed truncated near its end (broken markup: the lenient pass takes over where the
//! strict one stopped); and 200 small feeds (5–50 KB, log-uniform, RSS and Atom, half
//! UTF-8 and half windows-1252, windows-1251 or Shift_JIS) measured as one batch in one
//! thread.
//!
//! `python3 tools/parse_ratios.py` prints the ratios of the medians after a run.
//! `PARSE_BENCH_DUMP=DIR cargo bench --bench parse` writes the inputs to DIR instead of
//! measuring (for `tools/parse_ratios.py --processes` and profilers).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use encoding_rs::{Encoding, SHIFT_JIS, UTF_8, WINDOWS_1251, WINDOWS_1252};
use feed_decoder::Transport;

/// The floor, shared with the `floor` example (which reads every count it keeps).
#[allow(dead_code)]
#[path = "../examples/floor/walk.rs"]
mod walk;

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

/// Words that Shift_JIS can encode.
const JAPANESE: &[&str] = &[
    "ニュース",
    "今日",
    "東京",
    "の",
    "天気",
    "は",
    "晴れ",
    "です",
    "。",
    "株価",
    "が",
    "上昇",
    "「引用」",
    "経済",
    "、",
    "５％",
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

/// The text encoded, every character mappable.
fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{} cannot encode the words", encoding.name());
    bytes.into_owned()
}

/// A feed from `make` (which writes about `size` bytes of UTF-8 text) of about `target`
/// bytes once encoded in `encoding`: the text's size is scaled by what the encoding does
/// to a 256 KiB sample of the same feed.
fn encoded(encoding: &'static Encoding, target: usize, make: impl Fn(usize) -> String) -> Vec<u8> {
    let sample = make(256 << 10);
    let scale = sample.len() as f64 / encode(encoding, &sample).len() as f64;
    encode(encoding, &make((target as f64 * scale) as usize))
}

/// The feed formats.
#[derive(Clone, Copy)]
enum Format {
    Rss,
    Atom,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Rss => "rss",
            Format::Atom => "atom",
        }
    }

    /// A feed of about `target` bytes written as `charset` says.
    fn feed(self, charset: Charset, target: usize, seed: u64) -> Vec<u8> {
        let Charset { words, label, .. } = charset;
        encoded(charset.encoding, target, |size| match self {
            Format::Rss => rss(label, words, size, seed),
            Format::Atom => atom(label, words, size, seed),
        })
    }
}

/// How a feed is written: its encoding, the label it declares, the words of its text
/// (ones the encoding can write), and the encoding's name in file names.
#[derive(Clone, Copy)]
struct Charset {
    encoding: &'static Encoding,
    label: &'static str,
    words: &'static [&'static str],
    name: &'static str,
}

impl Charset {
    fn utf8(words: &'static [&'static str]) -> Charset {
        Charset {
            encoding: UTF_8,
            label: "utf-8",
            words,
            name: "utf8",
        }
    }

    fn windows_1252() -> Charset {
        Charset {
            encoding: WINDOWS_1252,
            label: "windows-1252",
            words: LATIN,
            name: "windows1252",
        }
    }

    fn windows_1251() -> Charset {
        Charset {
            encoding: WINDOWS_1251,
            label: "windows-1251",
            words: CYRILLIC,
            name: "windows1251",
        }
    }

    fn shift_jis() -> Charset {
        Charset {
            encoding: SHIFT_JIS,
            label: "Shift_JIS",
            words: JAPANESE,
            name: "shiftjis",
        }
    }

    /// The same feed declared as `label`.
    fn declared(self, label: &'static str) -> Charset {
        Charset { label, ..self }
    }
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
    g.bench_function("floor", |b| {
        b.iter(|| walk::floor(black_box(bytes), None).bytes)
    });
    g.bench_function("feed-rs", |b| b.iter(|| feed_rs(black_box(bytes))));
    g.finish();
}

/// The 200 small feeds: sizes log-uniform in 5–50 KB (as bytes), RSS and Atom, the even
/// ones UTF-8 and the odd ones windows-1252, windows-1251 or Shift_JIS, each with words of
/// its script (the UTF-8 ones cycle through the same three scripts). Named
/// `small-NNN-FORMAT-ENCODING`.
fn small_feeds() -> Vec<(String, Vec<u8>)> {
    let legacy = [
        Charset::windows_1252(),
        Charset::windows_1251(),
        Charset::shift_jis(),
    ];
    let mut sizes = Rng(0x5eed);
    (0..200u64)
        .map(|i| {
            let pair = i / 2;
            let script = legacy[(pair % 3) as usize];
            let format = if (pair / 3) % 2 == 0 {
                Format::Rss
            } else {
                Format::Atom
            };
            let charset = if i % 2 == 0 {
                Charset::utf8(script.words)
            } else {
                script
            };
            // 5 KB × 10^u, u uniform in [0, 1).
            let u = (sizes.next() >> 11) as f64 / (1u64 << 53) as f64;
            let size = (5000.0 * 10f64.powf(u)) as usize;
            (
                format!("small-{i:03}-{}-{}", format.name(), charset.name),
                format.feed(charset, size, 100 + i),
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let inputs = [
        ("rss-utf8", Format::Rss, Charset::utf8(LATIN), 1),
        ("rss-windows1252", Format::Rss, Charset::windows_1252(), 2),
        ("rss-windows1251", Format::Rss, Charset::windows_1251(), 8),
        ("rss-shiftjis", Format::Rss, Charset::shift_jis(), 9),
        ("atom-utf8", Format::Atom, Charset::utf8(LATIN), 3),
        ("atom-windows1251", Format::Atom, Charset::windows_1251(), 4),
        ("atom-shiftjis", Format::Atom, Charset::shift_jis(), 10),
    ];
    for (group, format, charset, seed) in inputs {
        let bytes = format.feed(charset, LARGE, seed);
        large(c, group, &bytes);
    }

    // The fallback path: the label is wrong, the strict pass fails and the chain finds
    // the encoding (the floor decodes by the wrong label, as declared). UTF-8 declared
    // us-ascii, and windows-1251 bytes declared UTF-8 (chardetng's guess decides).
    let ascii_declared = Format::Rss.feed(Charset::utf8(LATIN).declared("us-ascii"), LARGE, 5);
    large(c, "fallback-utf8-as-ascii", &ascii_declared);
    drop(ascii_declared);
    let cyrillic_as_utf8 = Format::Atom.feed(Charset::windows_1251().declared("utf-8"), LARGE, 6);
    large(c, "fallback-1251-as-utf8", &cyrillic_as_utf8);
    drop(cyrillic_as_utf8);

    // Broken markup: an RSS feed cut off 100 bytes before its end, so that the strict
    // pass fails at the very end and the lenient pass takes over there.
    let mut truncated = Format::Rss.feed(Charset::utf8(LATIN), LARGE, 7);
    truncated.truncate(truncated.len() - 100);
    large(c, "truncated-rss", &truncated);
    drop(truncated);

    let small = small_feeds();
    if let Some(dir) = std::env::var_os("PARSE_BENCH_DUMP") {
        for (name, bytes) in &small {
            std::fs::write(
                std::path::Path::new(&dir).join(format!("{name}.xml")),
                bytes,
            )
            .expect("dump");
        }
        return;
    }
    let total: usize = small.iter().map(|(_, b)| b.len()).sum();
    let mut g = c.benchmark_group("small");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(total as u64));
    g.bench_function("feed-decoder", |b| {
        b.iter(|| small.iter().map(|(_, f)| ours(black_box(f))).sum::<usize>())
    });
    g.bench_function("floor", |b| {
        b.iter(|| {
            small
                .iter()
                .map(|(_, f)| walk::floor(black_box(f), None).bytes)
                .sum::<usize>()
        })
    });
    g.bench_function("feed-rs", |b| {
        b.iter(|| {
            small
                .iter()
                .map(|(_, f)| feed_rs(black_box(f)))
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
