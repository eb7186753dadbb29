//! The public decoding API: [`Decoder`] (options) → [`Decoded`] (text, encoding, bozo
//! records and the whole decision [`Trail`]).

use std::borrow::Cow;

use crate::bozo::Bozo;
use crate::charset::Charset;
use crate::media_type::MediaClass;
use crate::transport::Transport;

/// How the decoder treats labels that the bytes contradict.
///
/// Under both policies a candidate whose text would contain U+0000 or ISO-2022 escape
/// sequences does not win while a cleaner one exists (UTF-16 read as bytes, unlabelled
/// ISO-2022-JP), and chardetng is consulted where feedparser consults chardet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// feedparser's chain plus recovery from evidence. Each rule below that fires is a
    /// `CharacterEncodingOverride` record and an `evidence` step in the [`Trail`]:
    ///
    /// - a byte order mark outranks a contradicting declaration or HTTP charset, and a
    ///   UTF-16/UCS-4/EBCDIC first-bytes family outranks the UTF-8 default when nothing
    ///   is declared;
    /// - bytes that are strictly valid UTF-8 with non-ASCII characters are read as UTF-8
    ///   whatever legacy charset they are labelled with;
    /// - mostly-UTF-8 bytes with a few stray legacy bytes are read as UTF-8, the strays as
    ///   windows-1252 (at least four valid multibyte sequences, under a quarter as many
    ///   invalid ones);
    /// - a legacy label whose script chardetng contradicts on enough text is replaced by
    ///   chardetng's guess (Cyrillic bytes labelled Latin, Big5 labelled GB2312, EUC-JP
    ///   labelled Shift_JIS; KOI8 vs windows-1251 vs CP866 on 64+ non-ASCII bytes; a
    ///   Western default label on Central European, Turkish, Baltic or Vietnamese text on
    ///   24+), never for a reading with more marks of mojibake;
    /// - among single-byte readings (chardetng's guess; ISO-8859-15 and Mac Roman for a
    ///   windows-1252/ISO-8859-1 pick; the euro twin of an EBCDIC page) one with clearly
    ///   fewer marks of mojibake (symbols inside words, stray capitals, words mixing
    ///   scripts, `¤`, C1 controls) replaces the pick. A correct label whose text shows no
    ///   such marks is never replaced;
    /// - damaged bytes keep the document's label, with a `CharacterDecodingError` record
    ///   saying what was done where: a character cut off by the end of the document (a
    ///   truncated download, in any multi-byte charset) is dropped; invalid UTF-16/UTF-32
    ///   code units, where the first bytes prove the byte order, become U+FFFD; a UTF-8
    ///   document's runs of invalid bytes are read as windows-1252 (at any share, given
    ///   three plausible UTF-8 sequences and short runs that chardetng does not take for
    ///   a CJK charset);
    /// - text UTF-8 encoded twice (`CafÃ©`, `â€™`) is undone over the whole document when
    ///   every non-ASCII run reads so, otherwise left as published (`DoubleEncodedText`);
    /// - an ISO 8859 label on bytes in 0x80–0x9F reads as its Windows sibling; a Korean or
    ///   Japanese label whose reading is natural text of its script is never replaced.
    #[default]
    Recover,
    /// feedparser's behaviour exactly: the first candidate that decodes wins, even when
    /// the result is mojibake.
    FeedparserExact,
}

/// Where a candidate encoding came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// The strict RFC 3023 pass.
    Rfc3023,
    /// RFC 8259's rule for a JSON body: UTF-8 (no BOM or zero-byte pattern says
    /// otherwise).
    Rfc8259,
    /// The XML declaration's `encoding`.
    Declared,
    /// The byte order mark or the Appendix F first-bytes sniff.
    Sniffed,
    /// chardetng's guess.
    Detector,
    /// Evidence in the bytes (strict UTF-8 validity of the non-ASCII runs, ISO-2022
    /// escapes) overriding a label that decodes but is wrong ([`Policy::Recover`]).
    Evidence,
    /// A fixed fallback (utf-8, windows-1252, iso-8859-2).
    Fallback,
}

impl Source {
    /// The name used in the JSON trail.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Rfc3023 => "rfc3023",
            Source::Rfc8259 => "rfc8259",
            Source::Declared => "declared",
            Source::Sniffed => "sniffed",
            Source::Detector => "detector",
            Source::Evidence => "evidence",
            Source::Fallback => "fallback",
        }
    }
}

/// The outcome of the strict RFC 3023 pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfc3023Outcome {
    /// The encoding the rules chose, as a label (`None` when a rule said ERROR and gave
    /// none).
    pub encoding: Option<String>,
    /// The rule that decided (`"1.0"` … `"1.7"`, `"2.0"` … `"2.6"`; `"2.0/1.x"` when
    /// rule 2.0 hands over to the raw rules; rules 1.1, 1.7, 2.2 and 2.4 are extended to
    /// UTF-32/UCS-4, see [`crate::rfc3023`]; `"rfc8259"` for a JSON body, which
    /// [`crate::format::decode_json`] decodes by RFC 8259 instead).
    pub rule: &'static str,
    /// The rule's ERROR, when it gave one.
    pub error: Option<String>,
}

/// One candidate the chain tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The label as the source gave it.
    pub label: String,
    /// Where it came from.
    pub source: Source,
    /// Whether it decoded.
    pub ok: bool,
    /// Why it failed (`byte 0xE9 at offset 120`, `unknown encoding`, …) or what it
    /// proved.
    pub detail: Option<String>,
}

/// Everything the decoder looked at and decided, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trail {
    /// The byte order mark found, as a charset name.
    pub bom: Option<&'static str>,
    /// The Appendix F family sniffed from the first bytes.
    pub sniffed: Option<&'static str>,
    /// The XML declaration's `encoding`, lower-cased as feedparser reports it.
    pub declared: Option<String>,
    /// The `charset` parameter of the HTTP Content-Type.
    pub http_charset: Option<String>,
    /// The HTTP media type (`type/subtype`, lower-cased), if any.
    pub media_type: Option<String>,
    /// The class of that media type.
    pub media_class: MediaClass,
    /// The strict pass.
    pub rfc3023: Rfc3023Outcome,
    /// Every candidate tried, in order.
    pub tried: Vec<Attempt>,
    /// The winning label and its source (`None` when nothing decoded).
    pub chosen: Option<(String, Source)>,
}

/// Decoded text and everything learned while decoding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text: borrowed from the input when the input was already valid UTF-8 (after
    /// its BOM). The XML declaration is left as it was (its `encoding` no longer
    /// describes the text; [`Decoded::to_utf8_document`] rewrites it).
    pub text: Cow<'a, str>,
    /// The encoding as feedparser reports it: the label that decoded (`us-ascii`,
    /// `iso-8859-1`, `gb18030`, `Big5` …); empty when nothing decoded.
    pub encoding: String,
    /// The charset actually used (`None` when nothing decoded and the text is lossy UTF-8).
    pub charset: Option<Charset>,
    /// Encoding problems, in the order found.
    pub bozo: Vec<Bozo>,
    /// The decision trail.
    pub trail: Trail,
}

/// Options for decoding; [`Decoder::default`] is what [`crate::decode`] uses.
///
/// ```
/// use feed_decoder::{Decoder, Policy, Transport};
/// let decoder = Decoder::new().detector(true).tld("jp").policy(Policy::Recover);
/// let decoded = decoder.decode(b"<rss><channel><title>caf\xc3\xa9</title></channel></rss>", &Transport::Local);
/// assert_eq!(decoded.encoding, "utf-8");
/// assert!(decoded.text.contains("café"));
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct Decoder {
    pub(crate) detector: bool,
    pub(crate) tld: Option<Vec<u8>>,
    pub(crate) policy: Policy,
    pub(crate) detector_prefix: usize,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder {
            detector: true,
            tld: None,
            policy: Policy::Recover,
            detector_prefix: 64 * 1024,
        }
    }
}

impl Decoder {
    /// The default options (detector on, no TLD hint, [`Policy::Recover`], 64 KiB
    /// detector prefix).
    pub fn new() -> Self {
        Decoder::default()
    }

    /// Whether chardetng is consulted in the fallback chain. Default: `true`.
    pub fn detector(mut self, on: bool) -> Self {
        self.detector = on;
        self
    }

    /// A top-level-domain hint for chardetng (`"jp"`, `"ru"`, …), e.g. from the feed's
    /// URL. Case and a leading dot are ignored; anything that is not a plain ASCII label
    /// is dropped (chardetng would panic on it). Default: none.
    pub fn tld(mut self, tld: &str) -> Self {
        let t = tld.trim().trim_start_matches('.').to_ascii_lowercase();
        self.tld = (!t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
            .then(|| t.into_bytes());
        self
    }

    /// The policy for labels that decode but are contradicted by the bytes. Default:
    /// [`Policy::Recover`].
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// How many bytes chardetng may look at (at least 1 KiB). Default: 64 KiB.
    pub fn detector_prefix(mut self, bytes: usize) -> Self {
        self.detector_prefix = bytes.max(1024);
        self
    }

    /// Decodes `bytes` that arrived by `transport`. Never fails: problems are bozo
    /// records, and when no candidate decodes the text is lossy UTF-8.
    pub fn decode<'a>(&self, bytes: &'a [u8], transport: &Transport) -> Decoded<'a> {
        crate::chain::run(self, bytes, transport)
    }
}

impl Decoded<'_> {
    /// True when any problem was recorded.
    #[must_use]
    pub fn is_bozo(&self) -> bool {
        !self.bozo.is_empty()
    }

    /// The text as a standalone UTF-8 XML document: the XML declaration (if any) is
    /// rewritten to say `encoding='utf-8'`, so that another XML processor reading these
    /// bytes will not re-decode them with the original label.
    #[must_use]
    pub fn to_utf8_document(&self) -> String {
        match crate::sniff::declaration_span(&self.text) {
            Some(end) => {
                let mut s = String::with_capacity(self.text.len() + 8);
                s.push_str("<?xml version='1.0' encoding='utf-8'?>");
                s.push_str(&self.text[end..]);
                s
            }
            None => self.text.clone().into_owned(),
        }
    }
}
