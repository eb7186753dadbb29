//! A streaming reader for huge feeds: the metadata, then one entry at a time, in memory
//! bounded by the largest entry however long the feed is.
//!
//! [`FeedReader`] reads from any [`std::io::Read`]. It looks at the first
//! [`PREFIX_LEN`] bytes to choose the encoding, transcodes the rest to UTF-8 chunk by
//! chunk, tokenizes it with quick-xml and feeds the events to the same builder (the
//! element handlers and precedence rules of feedparser) that [`crate::parse()`] uses in
//! its lenient pass. Each entry leaves the builder as soon as its element closes. (One
//! thing that pass does the stream does not: in a document that is not well-formed,
//! text values decode `&quot;`, `&apos;` and `&#x2f;` once more, as feedparser's lenient
//! parser does; the stream hands entries out before it knows whether the document is.)
//!
//! The items come in this order:
//!
//! 1. [`StreamItem::Feed`]: the channel metadata read before the first entry (when the
//!    feed has no entries, all of it, just before the end);
//! 2. [`StreamItem::Entry`], once per entry, in document order, at most
//!    [`ParseOptions::max_entries`]: once one more entry starts, reading stops and a
//!    `LimitExceeded` record says so;
//! 3. [`StreamItem::End`]: what is only known at the end — the whole metadata (elements
//!    after the entries included), the version, the namespaces, the encoding and every
//!    bozo record.
//!
//! ```
//! use feed_decoder::Transport;
//! use feed_decoder::parse::ParseOptions;
//! use feed_decoder::stream::{FeedReader, StreamItem};
//!
//! let xml = "<rss version='2.0'><channel><title>News</title>\
//!            <item><title>One</title></item><item><title>Two</title></item>\
//!            <item><title>Three</title></item></channel></rss>";
//! let options = ParseOptions::default().max_entries(2);
//! let mut titles = Vec::new();
//! for item in FeedReader::new(xml.as_bytes(), &Transport::Local, options)? {
//!     match item {
//!         StreamItem::Feed(feed) => assert_eq!(feed.title.as_deref(), Some("News")),
//!         StreamItem::Entry(entry) => titles.push(entry.title.unwrap_or_default().to_string()),
//!         StreamItem::End(end) => {
//!             assert_eq!(end.version, "rss20");
//!             assert_eq!(end.entries, 2);
//!             assert!(end.bozo.iter().any(|b| b.kind == feed_decoder::BozoKind::LimitExceeded));
//!         }
//!     }
//! }
//! assert_eq!(titles, ["One", "Two"]);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Choosing the encoding
//!
//! From the first [`PREFIX_LEN`] bytes: the byte order mark, the XML 1.0 Appendix F
//! family, the XML declaration and the HTTP charset give, as in the full decoder, an
//! ordered list of candidates (the BOM's charset; the RFC 3023 / feedparser encoding;
//! the declared one; the sniffed one; chardetng's guess over the prefix; UTF-8,
//! windows-1252 and ISO-8859-2). The first whose strict decoder accepts the prefix and
//! whose text can start a document (markup within its first characters, as in the full
//! decoder: UTF-8 bytes labelled UTF-16 read as CJK text without a `<` cannot) is used
//! for the whole stream; when no candidate's text can, the first that decodes is. A
//! US-ASCII pick is read with the UTF-8 decoder, its superset, since a later non-ASCII
//! byte cannot make the choice again. There is no going back past the prefix: bytes further on that the
//! charset cannot decode become U+FFFD, with one `CharacterDecodingError` record giving
//! the offset of the first and the count of chunks affected.
//!
//! # When [`crate::parse()`] is the better choice
//!
//! The streaming reader trades the following for constant memory; use the full parser
//! when the feed fits in memory (any feed up to a few hundred MB) and any of it matters:
//!
//! - **The fallback chain.** The full decoder tries every candidate over the *whole*
//!   document, and under [`crate::Policy::Recover`] repairs what the
//!   evidence shows (valid UTF-8 under a legacy label, Cyrillic under a Latin label,
//!   stray windows-1252 bytes in UTF-8, text UTF-8 encoded twice, C1 controls). The
//!   stream decides once, from the prefix, and replaces what does not decode.
//! - **The strict pass.** The full parser first parses strictly and reports the first
//!   well-formedness error with its line and column as feedparser does
//!   (`SAXParseException`), then recovers. The stream only has the lenient reading: its
//!   `NotWellFormed` record (quick-xml's tokenizer errors) carries a byte offset in the
//!   UTF-8 text, and a well-formed feed may read slightly differently where the strict
//!   and lenient readings differ (an undeclared namespace prefix, HTML entities).
//! - **Metadata after the entries.** Channel elements written after the first entry
//!   (some RSS feeds put `<title>` last) are only in [`StreamEnd::feed`], not in the
//!   early [`StreamItem::Feed`].
//! - **The JSON contract and JSON Feed.** The stream yields model values, not the
//!   [`crate::output`] shape `feed-decoder --json` writes. It reads XML feeds only (a JSON
//!   body gives a bozo record saying so): a JSON Feed is read from its whole text, by
//!   [`crate::parse()`], which maps its items one at a time (the text, not the entries, is
//!   what it holds).
//! - **The `max_entries` policy.** The full parser keeps the first `max_entries - 1`
//!   entries and the last one; the stream keeps the first `max_entries` and stops.
//!
//! # Memory
//!
//! Constant in the length of the feed: a [`PREFIX_LEN`] input buffer, the decoded chunk,
//! quick-xml's buffer for one event, the builder's open elements and the entry being
//! built. One huge element (a 100 MB `<description>`) is held whole, as any reader that
//! hands out whole strings must.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Read};

use crate::bozo::{Bozo, BozoKind, Position};
use crate::charset::Charset;
use crate::decode::media_type::MediaClass;
use crate::decode::rfc3023::{self, Inputs};
use crate::decode::sniff::Sniffed;
use crate::model::{Entry, Feed};
use crate::parse::ParseOptions;
use crate::parse::xml::incremental::{Next, StreamParser};
use crate::transport::Transport;

/// How many bytes the encoding is chosen from, and the size of the input buffer.
pub const PREFIX_LEN: usize = 64 * 1024;

/// One item of a [`FeedReader`]. Exhaustive on purpose: these three are the protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamItem {
    /// The channel metadata known when the first entry starts (all of it, when there are
    /// no entries). Always the first item.
    Feed(Box<Feed>),
    /// One entry, in document order.
    Entry(Box<Entry>),
    /// The last item: what is only known at the end.
    End(Box<StreamEnd>),
}

/// What a [`FeedReader`] learnt by the end of the feed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StreamEnd {
    /// The whole channel metadata, elements after the entries included.
    pub feed: Feed,
    /// feedparser's version string (`rss20`, `atom10`, …; empty when unknown).
    pub version: String,
    /// Namespace prefixes as declared in the document.
    pub namespaces: BTreeMap<String, String>,
    /// The encoding as feedparser would report it: the label chosen from the prefix.
    pub encoding: String,
    /// The charset the stream was decoded with.
    pub charset: Charset,
    /// How many entries were handed out.
    pub entries: usize,
    /// Every problem: decoding first, then markup (and a `Transport` record when reading
    /// the input failed part way; what was read until then was parsed).
    pub bozo: Vec<Bozo>,
}

/// Reads a feed from a [`Read`] and yields its metadata, then its entries one at a
/// time, then a [`StreamEnd`]; see the [module docs](self).
pub struct FeedReader<R: Read> {
    parser: StreamParser<Utf8Reader<R>>,
    encoding: String,
    charset: Charset,
    decode_bozo: Vec<Bozo>,
    entries: usize,
}

impl<R: Read> FeedReader<R> {
    /// Reads the first [`PREFIX_LEN`] bytes of `reader` and chooses the encoding (from
    /// them and the `transport`'s Content-Type). For an HTTP transport, the response's
    /// `Content-Language` and `Content-Location` fill `options`' base language and base
    /// URI where unset, as in [`crate::parse_with`].
    ///
    /// # Errors
    ///
    /// An I/O error while reading that prefix. (Later I/O errors end the stream with a
    /// `Transport` bozo record.)
    pub fn new(mut reader: R, transport: &Transport, options: ParseOptions) -> io::Result<Self> {
        let facts = crate::decode::TransportFacts::of(transport);
        let options = options.with_http_context(&facts, None);
        let mut prefix = Vec::with_capacity(PREFIX_LEN);
        let eof = read_up_to(&mut reader, &mut prefix, PREFIX_LEN)?;
        let mut choice = choose(&prefix, &facts, eof);
        if crate::decode::format::detect(&prefix, transport) == crate::decode::format::Format::Json
        {
            choice.bozo.push(Bozo::new(
                BozoKind::NotWellFormed,
                "the body is JSON: FeedReader reads XML feeds only, use feed_decoder::parse \
                 for a JSON Feed",
            ));
        }
        let mut text = Utf8Reader::new(reader, prefix, &choice, eof);
        let prolog = String::from_utf8_lossy(text.fill_buf()?).into_owned();
        let parser = StreamParser::new(text, options, &prolog);
        Ok(FeedReader {
            parser,
            encoding: choice.label,
            charset: choice.charset,
            decode_bozo: choice.bozo,
            entries: 0,
        })
    }

    /// The encoding chosen from the prefix, as feedparser would report it.
    #[must_use]
    pub fn encoding(&self) -> &str {
        &self.encoding
    }

    /// The charset the stream is decoded with.
    #[must_use]
    pub fn charset(&self) -> Charset {
        self.charset
    }
}

impl<R: Read> Iterator for FeedReader<R> {
    type Item = StreamItem;

    fn next(&mut self) -> Option<StreamItem> {
        Some(match self.parser.next_item()? {
            Next::Feed(f) => StreamItem::Feed(Box::new(f)),
            Next::Entry(e) => {
                self.entries += 1;
                StreamItem::Entry(Box::new(e))
            }
            Next::End(parsed) => {
                let mut bozo = std::mem::take(&mut self.decode_bozo);
                bozo.extend(self.parser.source().bozo());
                bozo.extend(parsed.bozo);
                StreamItem::End(Box::new(StreamEnd {
                    feed: parsed.feed,
                    version: parsed.version,
                    namespaces: parsed.namespaces,
                    encoding: self.encoding.clone(),
                    charset: self.charset,
                    entries: self.entries,
                    bozo,
                }))
            }
        })
    }
}

/// Reads until `buf` holds `limit` bytes or the input ends; true at the end.
fn read_up_to(reader: &mut impl Read, buf: &mut Vec<u8>, limit: usize) -> io::Result<bool> {
    let mut filled = buf.len();
    buf.resize(limit.max(filled), 0);
    let result = loop {
        if filled >= limit {
            break Ok(false);
        }
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break Ok(true),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => break Err(e),
        }
    };
    buf.truncate(filled);
    result
}

/// Appends what one read into `scratch` gives; true at the end of the input.
fn read_some(reader: &mut impl Read, buf: &mut Vec<u8>, scratch: &mut [u8]) -> io::Result<bool> {
    loop {
        match reader.read(scratch) {
            Ok(n) => {
                buf.extend_from_slice(&scratch[..n]);
                return Ok(n == 0);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The encoding chosen from the prefix.
struct Choice {
    label: String,
    charset: Charset,
    bom_len: usize,
    bozo: Vec<Bozo>,
}

/// A label's charset, an unordered UTF-16/UTF-32 given the proven byte order (or
/// big-endian).
fn resolve(label: &str, proven: Option<Charset>) -> Option<Charset> {
    let c = Charset::for_label(label)?;
    let c = proven.map_or(c, |p| c.with_byte_order_of(p));
    Some(if c == Charset::UTF_16 {
        Charset::UTF_16BE
    } else if c == Charset::UTF_32 {
        Charset::UTF_32BE
    } else {
        c
    })
}

/// Chooses the encoding from the first bytes; see the module docs.
fn choose(prefix: &[u8], facts: &crate::decode::TransportFacts, eof: bool) -> Choice {
    let sniffed = Sniffed::of(prefix);
    let class = facts.media_class;
    let http_charset = facts.charset();
    let strict = rfc3023::strict(&Inputs::new(&sniffed, class, http_charset));
    let fp = rfc3023::feedparser(&sniffed, class, http_charset);
    let mut bozo = crate::decode::upfront_bozo(&strict, &fp, facts);

    let bom_len = sniffed.bom.map_or(0, |(_, n)| n);
    let proven = sniffed.proven();
    let mut labels: Vec<String> = Vec::new();
    if let Some((bom, _)) = sniffed.bom {
        labels.push(bom.name().to_owned());
    }
    if let Some(f) = sniffed.family_loose
        && f.is_wide_or_ebcdic()
        && fp.declared.is_none()
        && !matches!(class, MediaClass::TextXml | MediaClass::OtherText)
    {
        labels.push(f.name().to_owned());
    }
    labels.push(fp.encoding.clone());
    labels.extend(fp.declared.clone());
    labels.extend(fp.sniffed.map(|c| c.name().to_owned()));
    let first = labels[0].clone();

    let body = &prefix[bom_len..];
    // Up to a unit boundary a little before the end, where a character may be cut off.
    let tested = if eof {
        body
    } else {
        let cut = body.len() - body.len() % 4;
        &body[..cut.saturating_sub(4)]
    };
    // Whether `cs` reads the prefix (a character cut by its end allowed) and, when
    // `opening`, to a text that can start a document (as in the full decoder's chain,
    // UTF-8 read as UTF-16 cannot).
    let reads = |cs: Charset, opening: bool| {
        let text = match cs.decode_strict(tested) {
            Ok(text) => text,
            Err(e) if e.byte.is_none() && !eof => match cs.decode_strict(&tested[..e.offset]) {
                Ok(text) => text,
                Err(_) => return false,
            },
            Err(_) => return false,
        };
        !opening || crate::decode::markup_start::refusal(&text).is_none()
    };
    let labelled = |labels: &[String], opening: bool| {
        labels.iter().find_map(|label| {
            let cs = resolve(label, proven)?;
            reads(cs, opening).then(|| (label.clone(), cs))
        })
    };
    // chardetng's guess over the prefix, where the full decoder consults it (after the
    // labels, before the fixed fallbacks); a single-byte guess from a handful of bytes
    // is noise.
    let guess = std::cell::OnceCell::new();
    let detected = |opening: bool| {
        let (e, n) =
            (*guess.get_or_init(|| crate::decode::detect::guess(tested, PREFIX_LEN, 4096, None)))?;
        let cs = Charset::for_encoding(e);
        ((n >= 16 || !e.is_single_byte()) && reads(cs, opening))
            .then(|| (crate::decode::detect::chardet_name(e).to_owned(), cs))
    };
    let fallbacks = ["utf-8", "windows-1252", "iso-8859-2"].map(str::to_owned);
    // First a candidate whose text can start a document; when none can, the first that
    // reads the prefix at all.
    let pick = [true, false].into_iter().find_map(|opening| {
        labelled(&labels, opening)
            .or_else(|| detected(opening))
            .or_else(|| labelled(&fallbacks, opening))
    });
    let (label, charset) = pick.unwrap_or_else(|| {
        bozo.push(Bozo::new(
            BozoKind::CharacterEncodingUnknown,
            "no candidate decodes the first bytes: read as UTF-8 with replacement",
        ));
        ("utf-8".to_owned(), Charset::UTF_8)
    });
    if label != first {
        bozo.push(Bozo::new(
            BozoKind::CharacterEncodingOverride,
            format!("document declared as {first}, but parsed as {label}"),
        ));
    }
    // US-ASCII is read as UTF-8, which decodes every ASCII byte the same and does not
    // turn a later non-ASCII character into U+FFFD.
    let charset = if charset == Charset::US_ASCII {
        Charset::UTF_8
    } else {
        charset
    };
    Choice {
        label,
        charset,
        bom_len,
        bozo,
    }
}

/// How a charset is decoded chunk by chunk.
enum Transcode {
    /// encoding_rs's streaming decoder (UTF-8, UTF-16 and the CJK charsets), which keeps
    /// a sequence cut by a chunk boundary for the next chunk.
    Streaming(encoding_rs::Decoder),
    /// The registry's own decoder over whole units (one byte for the single-byte code
    /// pages, four for UTF-32/UCS-4).
    Units(Charset, usize),
}

impl Transcode {
    fn for_charset(cs: Charset) -> Transcode {
        if cs.is_single_byte() {
            return Transcode::Units(cs, 1);
        }
        if let Some(e) = encoding_rs::Encoding::for_label(cs.name().as_bytes())
            && !e.is_single_byte()
            && Charset::for_encoding(e) == cs
        {
            return Transcode::Streaming(e.new_decoder_without_bom_handling());
        }
        // UTF-32 and UCS-4 (the only other charsets the registry has).
        Transcode::Units(cs, 4)
    }
}

/// Bytes of the input per read.
const CHUNK: usize = PREFIX_LEN;

/// The input transcoded to UTF-8, a chunk at a time.
struct Utf8Reader<R> {
    inner: R,
    transcode: Transcode,
    ebcdic: bool,
    /// Input bytes not decoded yet.
    raw: Vec<u8>,
    /// Where the input is read into (zeroed once).
    scratch: Box<[u8]>,
    /// The decoded chunk and how much of it was consumed.
    out: String,
    pos: usize,
    eof: bool,
    finished: bool,
    /// Input bytes before `raw`.
    consumed: u64,
    /// Chunks with undecodable bytes, and the input offset of the first such byte (or of
    /// its chunk, for the streaming decoders).
    bad_chunks: usize,
    first_bad: Option<u64>,
}

impl<R: Read> Utf8Reader<R> {
    fn new(inner: R, mut prefix: Vec<u8>, choice: &Choice, eof: bool) -> Self {
        prefix.drain(..choice.bom_len);
        Utf8Reader {
            inner,
            transcode: Transcode::for_charset(choice.charset),
            ebcdic: choice.charset.is_ebcdic(),
            raw: prefix,
            scratch: vec![0; CHUNK].into_boxed_slice(),
            out: String::new(),
            pos: 0,
            eof,
            finished: false,
            consumed: choice.bom_len as u64,
            bad_chunks: 0,
            first_bad: None,
        }
    }

    /// The decoding problem, if any, as a bozo record.
    fn bozo(&self) -> Option<Bozo> {
        let first = self.first_bad?;
        Some(
            Bozo::new(
                BozoKind::CharacterDecodingError,
                format!(
                    "bytes the charset cannot decode were replaced by U+FFFD, from byte \
                     {first} on ({} chunk(s) of {CHUNK} bytes affected)",
                    self.bad_chunks
                ),
            )
            .at(Position::at_offset(
                usize::try_from(first).unwrap_or(usize::MAX),
            )),
        )
    }

    fn note_bad(&mut self, at: u64) {
        self.bad_chunks += 1;
        self.first_bad.get_or_insert(at);
    }

    /// Decodes the next chunk into `out` (reading input first unless the prefix is still
    /// waiting).
    fn refill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.pos = 0;
        if self.raw.is_empty() || !matches!(self.transcode, Transcode::Streaming(_)) {
            // A unit decoder's carry is < 4 bytes. One read: an item is handed out as
            // soon as its bytes have arrived.
            if !self.eof && self.raw.len() < 8 {
                self.eof = read_some(&mut self.inner, &mut self.raw, &mut self.scratch)?;
            }
        }
        let last = self.eof;
        match &mut self.transcode {
            Transcode::Streaming(d) => {
                let need = d
                    .max_utf8_buffer_length(self.raw.len())
                    .unwrap_or(usize::MAX);
                self.out.reserve(need);
                let (_, read, replaced) = d.decode_to_string(&self.raw, &mut self.out, last);
                let at = self.consumed;
                self.consumed += read as u64;
                self.raw.drain(..read);
                if replaced {
                    self.note_bad(at);
                }
            }
            Transcode::Units(cs, unit) => {
                let (cs, unit) = (*cs, *unit);
                let n = if last {
                    self.raw.len()
                } else {
                    self.raw.len() - self.raw.len() % unit
                };
                match cs.decode_strict(&self.raw[..n]) {
                    Ok(t) => self.out.push_str(&t),
                    Err(e) => {
                        self.out.push_str(&cs.decode_lossy(&self.raw[..n]));
                        let at = self.consumed + e.offset as u64;
                        self.note_bad(at);
                    }
                }
                self.consumed += n as u64;
                self.raw.drain(..n);
            }
        }
        if self.ebcdic && self.out.contains('\u{85}') {
            // EBCDIC ends lines with NEL, which XML 1.0 does not know as a line end.
            self.out = self.out.replace('\u{85}', "\n");
        }
        if last && self.raw.is_empty() {
            self.finished = true;
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf8Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Utf8Reader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.out.len() && !self.finished {
            self.refill()?;
        }
        Ok(&self.out.as_bytes()[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.out.len());
    }
}
