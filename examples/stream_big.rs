//! Streams a huge generated RSS feed through [`feed_decoder::FeedReader`] and prints the
//! entry count, the time and the process's peak memory (VmHWM). The feed is generated as
//! it is read and never held in memory, so the peak is the reader's own.
//!
//! `cargo run --release --example stream_big -- [MB] [CHARSET]` (default 1024 MB of
//! UTF-8; CHARSET is any registry label, e.g. `windows-1251`, `shift_jis`, `utf-16le`).
//! With a path as the only argument, streams that file instead.

use std::io::{self, Read};

use feed_decoder::parse::ParseOptions;
use feed_decoder::{Charset, FeedReader, StreamItem, Transport};

/// Non-ASCII words the charset can encode.
fn word(charset: Charset) -> &'static str {
    if charset.encode("日本").is_some() {
        "日本語のニュース"
    } else {
        "Новости дня"
    }
}

/// A feed of about `remaining` bytes, produced item by item as it is read.
struct Generator {
    charset: Charset,
    remaining: usize,
    next: usize,
    pending: Vec<u8>,
    at: usize,
    closed: bool,
}

impl Generator {
    fn new(bytes: usize, charset: Charset) -> Self {
        let head = format!(
            "<?xml version='1.0' encoding='{}'?><rss version='2.0'><channel>\
             <title>{}</title><link>http://example.com/</link>",
            charset.name(),
            word(charset)
        );
        let mut pending = charset.encode(&head).expect("encodable");
        if charset == Charset::UTF_16LE {
            pending.splice(0..0, [0xff, 0xfe]);
        }
        Generator {
            charset,
            remaining: bytes,
            next: 0,
            pending,
            at: 0,
            closed: false,
        }
    }

    fn item(&self, i: usize) -> String {
        let word = word(self.charset);
        format!(
            "<item><title>{word} {i}</title><link>http://example.com/{i}</link>\
             <description>&lt;p&gt;{word}: the body of entry {i}, with &lt;b&gt;some&lt;/b&gt; \
             markup and a few more words to make it a realistic size.&lt;/p&gt;</description>\
             <guid isPermaLink='false'>urn:entry:{i}</guid>\
             <pubDate>Mon, 23 Nov 2026 20:00:00 GMT</pubDate><category>news</category></item>"
        )
    }
}

impl Read for Generator {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() {
            self.pending.clear();
            self.at = 0;
            let text = if self.remaining > 0 {
                let s = self.item(self.next);
                self.next += 1;
                s
            } else if !self.closed {
                self.closed = true;
                "</channel></rss>".to_owned()
            } else {
                return Ok(0);
            };
            self.pending = self.charset.encode(&text).expect("encodable");
            self.remaining = self.remaining.saturating_sub(self.pending.len());
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn vm_hwm() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| "unknown".into())
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = ParseOptions::default().max_entries(usize::MAX);
    let start = std::time::Instant::now();
    let (reader, input): (Box<dyn Read>, String) = match args.first() {
        Some(path) if args.len() == 1 && std::path::Path::new(path).is_file() => (
            Box::new(io::BufReader::new(std::fs::File::open(path)?)),
            path.clone(),
        ),
        _ => {
            let mb: usize = args.first().map_or(1024, |s| s.parse().expect("MB"));
            let label = args.get(1).map_or("utf-8", String::as_str);
            let charset = Charset::for_label(label).expect("a known charset label");
            (
                Box::new(Generator::new(mb << 20, charset)),
                format!("{mb} MB generated in {}", charset.name()),
            )
        }
    };
    let mut entries = 0usize;
    let mut text_bytes = 0usize;
    for item in FeedReader::new(reader, &Transport::Local, options)? {
        match item {
            StreamItem::Entry(e) => {
                entries += 1;
                text_bytes += e.title.as_deref().map_or(0, str::len);
            }
            StreamItem::End(end) => {
                println!(
                    "{input}: {entries} entries ({text_bytes} bytes of titles), version {}, \
                     encoding {}, {} bozo record(s){}",
                    end.version,
                    end.encoding,
                    end.bozo.len(),
                    end.bozo
                        .first()
                        .map_or(String::new(), |b| format!(" (first: {})", b.message)),
                );
            }
            _ => {}
        }
    }
    println!("{:.1?}, peak RSS (VmHWM) {}", start.elapsed(), vm_hwm());
    Ok(())
}
