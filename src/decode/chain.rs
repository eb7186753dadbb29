//! The fallback chain: the one place that knows the order in which encodings are tried.
//!
//! Candidates, de-duplicated by label and by the decoder they resolve to:
//!
//! 1. the first choice — feedparser's RFC 3023 encoding (`rfc3023::feedparser`);
//!    under [`Policy::Recover`] what the first bytes prove outranks it (a BOM always, a
//!    UTF-16/UCS-4/EBCDIC family when nothing is declared; the strict pass's rules
//!    1.3–1.7 and 2.2 report a conflict as an `EncodingMismatch` record);
//! 2. the declared encoding; 3. the encoding the first bytes prove (BOM or a
//!    UTF-16/UCS-4/EBCDIC family); 4. chardetng's guess (bounded prefix; a single-byte
//!    guess only from enough non-ASCII bytes); 5. utf-8; 6. windows-1252; 7. iso-8859-2.
//!
//! Each is tried with a strict decoder. A candidate whose text contains U+0000 or ISO-2022
//! escape sequences (UTF-16 read as bytes, unlabelled ISO-2022-JP) does not win outright;
//! if every candidate that decodes has them, the one with the fewest wins, recorded as
//! `CharacterEncodingUnknown`. A candidate whose text cannot start a document (no markup
//! in its first characters: UTF-8 read as UTF-16, one byte order read as the other, see
//! `markup_start`) fails too, whatever label named it; only when no candidate's text can
//! does the first that decoded win, as if none had been looked at. Otherwise a winner
//! other than the first choice is a `CharacterEncodingOverride` (saying why the first
//! choice's text was refused, when it was).
//!
//! Under [`Policy::Recover`] labels are checked against the bytes: before a legacy
//! ASCII-compatible label is decoded, input that is strictly valid UTF-8 with non-ASCII
//! bytes is read as UTF-8 instead; after a European single-byte label decoded (or failed
//! to), its reading is judged letter by letter against the other pages of its family
//! (`letters`: Polish ISO-8859-2 labelled ISO-8859-1, Greek windows-1253 labelled
//! ISO-8859-7): a label whose reading is natural text stands without consulting
//! chardetng, one that a sibling reads clearly better yields to it; otherwise a chardetng
//! guess whose script contradicts the label (Cyrillic bytes labelled Latin, Big5
//! labelled GB2312, EUC-JP labelled Shift_JIS) replaces it. Each is a
//! `CharacterEncodingOverride` with source `evidence`.
//!
//! Also under [`Policy::Recover`], a label whose strict decode fails is kept when the
//! failure is damage real feeds show (a `CharacterDecodingError` record says what was done
//! where): a character cut off by the end of the document, invalid UTF-16/UTF-32 units
//! under a proven byte order, runs of windows-1252 inside UTF-8. Text that was UTF-8
//! encoded twice is undone over the whole document or not at all.

use std::borrow::Cow;

use super::detect;
use super::letters::{self, Verdict};
use super::markup_start;
use super::media_type::MediaClass;
use super::mixed::Mixed;
use super::rfc3023::{self, Inputs, Rfc3023Outcome};
use super::sniff::{self, Family, Sniffed};
use super::transport_facts::TransportFacts;
use crate::bozo::{Bozo, BozoKind, Position};
use crate::charset::{Charset, DecodeError, Script, repair};

/// How the decoder treats labels that the bytes contradict.
///
/// Under both policies a candidate whose text would contain U+0000 or ISO-2022 escape
/// sequences does not win while a cleaner one exists (UTF-16 read as bytes, unlabelled
/// ISO-2022-JP), nor one whose text holds no markup in its first 4,096 characters while
/// another's does (UTF-8 or windows-1252 bytes labelled UTF-16, UTF-16 of one byte order
/// labelled with the other), and chardetng is consulted where feedparser consults
/// chardet.
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
    /// - a European single-byte label (Western, Central European, Turkish, Baltic, Greek,
    ///   Cyrillic) whose reading has marks of mojibake or words no language it serves
    ///   writes (`sparali¿owa³`, `’λλοι`, `Boðaz`, `Mańana`, `trčs`) is replaced by the
    ///   page of its family that reads the bytes as natural text, also in a few hundred
    ///   bytes, and also when the label could not decode the bytes at all; a label whose
    ///   reading is natural text stands, and then no detector is consulted;
    /// - mostly-UTF-8 bytes with a few stray legacy bytes are read as UTF-8, the strays as
    ///   windows-1252 (at least four valid multibyte sequences, under a quarter as many
    ///   invalid ones);
    /// - a legacy label whose script chardetng contradicts on enough text is replaced by
    ///   chardetng's guess (Cyrillic bytes labelled Latin, Big5 labelled GB2312, EUC-JP
    ///   labelled Shift_JIS; KOI8 vs windows-1251 vs CP866 on 64+ non-ASCII bytes, never
    ///   between pages with the same bytes for the Russian letters such as KOI8-R/KOI8-U
    ///   or windows-1251/KZ-1048/PT154; a
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

impl<'a> Decoded<'a> {
    /// The text, and the rest of the result with an empty text in its place (to hold the
    /// text another way, and put it back).
    pub(crate) fn take_text(self) -> (Cow<'a, str>, Decoded<'static>) {
        let rest = Decoded {
            text: Cow::Borrowed(""),
            encoding: self.encoding,
            charset: self.charset,
            bozo: self.bozo,
            trail: self.trail,
        };
        (self.text, rest)
    }

    /// The same result owning its text (a copy only when the text was borrowed).
    #[must_use]
    pub fn into_owned(self) -> Decoded<'static> {
        let (text, mut rest) = self.take_text();
        rest.text = Cow::Owned(text.into_owned());
        rest
    }

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
        match sniff::declaration_span(&self.text) {
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

/// What the chain is told by the `Decoder` options (the module above this one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options<'o> {
    /// Whether chardetng is consulted.
    pub(crate) detector: bool,
    /// The top-level-domain hint for chardetng.
    pub(crate) tld: Option<&'o [u8]>,
    /// The policy for labels the bytes contradict.
    pub(crate) policy: Policy,
    /// How many bytes chardetng may look at.
    pub(crate) detector_prefix: usize,
}

/// Non-ASCII bytes chardetng must have seen before a single-byte guess is tried, or
/// before any guess may contradict a label that decoded.
const MIN_EVIDENCE_BYTES: usize = 16;

/// Non-ASCII bytes chardetng must have seen before it may replace one CJK label with
/// another.
const MIN_CJK_BYTES: usize = 64;

/// Non-ASCII bytes chardetng must have seen before it may replace one Cyrillic label
/// with another.
const MIN_CYRILLIC_BYTES: usize = 64;

/// Non-ASCII bytes chardetng must have seen before it may replace a Western label with
/// another Latin one.
const MIN_LATIN_BYTES: usize = 24;

/// Non-ASCII bytes after which chardetng stops being fed when it only has to confirm or
/// contradict a label at the level of scripts.
const CONTRADICTION_BYTES: usize = 128;

/// How many bytes the plausibility contest between single-byte readings looks at.
const PLAUSIBILITY_WINDOW: usize = 8 * 1024;

/// Non-ASCII bytes after which chardetng stops being fed when its guess is a candidate.
const CANDIDATE_BYTES: usize = 4096;

/// How many "bad" characters (U+0000, ISO-2022 escapes) a decoded text has; 0 means it
/// may win.
fn bad_chars(text: &str) -> usize {
    let b = text.as_bytes();
    if memchr::memchr2(0, 0x1B, b).is_none() {
        return 0;
    }
    let nul = memchr::memchr_iter(0, b).count();
    let esc = memchr::memchr_iter(0x1B, b)
        .filter(|&i| matches!(b.get(i + 1), Some(b'$' | b'(' | b')')))
        .count();
    nul + esc
}

/// One step of the chain: a label from a source, or the (lazily run) detector.
enum Step {
    Label(String, Source),
    Detector,
}

/// The decoder a label names, with an unordered UTF-16/UTF-32 label given the byte order
/// the first bytes prove.
fn resolve(label: &str, proven: Option<Charset>) -> Option<Charset> {
    let c = Charset::for_label(label)?;
    Some(match proven {
        Some(p) => c.with_byte_order_of(p),
        None => c,
    })
}

/// A decoded candidate.
struct Pick<'a> {
    label: String,
    source: Source,
    charset: Charset,
    text: Cow<'a, str>,
    /// What was done to bytes the charset could not decode, when anything was.
    repair: Option<Repair>,
}

/// Bytes a kept label could not decode, and what was done with them: a
/// `CharacterDecodingError` record.
struct Repair {
    message: String,
    /// Byte offset (in the whole input, BOM included) of the first such byte.
    offset: usize,
}

/// The state of one run of the chain.
struct Chain<'d, 'a> {
    decoder: &'d Options<'d>,
    body: &'a [u8],
    proven: Option<Charset>,
    /// Length of the byte order mark before `body`.
    bom_len: usize,
    tried: Vec<Attempt>,
    seen_labels: Vec<String>,
    seen_charsets: Vec<Charset>,
    /// Each charset the chain decoded strictly, and whether that worked.
    strict: Vec<(Charset, bool)>,
    /// The decoded candidate with the fewest bad characters, and that count.
    least_bad: Option<(usize, Pick<'a>)>,
    /// The first candidate that decoded cleanly to a text that cannot start a document
    /// ([`markup_start::refusal`]); it wins only when no candidate's text can.
    unopened: Option<Pick<'a>>,
    /// Every candidate refused so, with the reason.
    unopened_why: Vec<(String, String)>,
    /// Whether the body is non-ASCII, strictly valid UTF-8 (computed once).
    utf8_evidence: Option<bool>,
    /// chardetng's guess and the non-ASCII bytes it saw (computed once).
    guess: Option<Option<(&'static encoding_rs::Encoding, usize)>>,
    /// The same on the smaller evidence budget (computed once).
    evidence_guess: Option<Option<(&'static encoding_rs::Encoding, usize)>>,
}

impl<'a> Chain<'_, 'a> {
    /// Whether `charset` decodes the body strictly: as the chain found when it tried it,
    /// else (a candidate set aside on evidence before decoding) found now.
    fn decodes(&self, charset: Charset) -> bool {
        self.strict
            .iter()
            .find(|(c, _)| *c == charset)
            .map_or_else(|| charset.decode_strict(self.body).is_ok(), |&(_, ok)| ok)
    }

    fn attempt(&mut self, label: &str, source: Source, ok: bool, detail: Option<String>) {
        self.tried.push(Attempt {
            label: label.to_owned(),
            source,
            ok,
            detail,
        });
    }

    fn utf8_evidence(&mut self) -> bool {
        let body = self.body;
        *self.utf8_evidence.get_or_insert_with(|| {
            !body.is_ascii() && encoding_rs::Encoding::utf8_valid_up_to(body) == body.len()
        })
    }

    fn guess(&mut self) -> Option<(&'static encoding_rs::Encoding, usize)> {
        let (body, d) = (self.body, self.decoder);
        *self
            .guess
            .get_or_insert_with(|| detect::guess(body, d.detector_prefix, CANDIDATE_BYTES, d.tld))
    }

    /// Tries one step; returns the pick when it wins outright.
    fn try_step(&mut self, step: Step) -> Option<Pick<'a>> {
        let (label, source, charset) = match step {
            Step::Detector => match self.guess() {
                // A single-byte guess from a handful of bytes is noise, not evidence.
                Some((e, n)) if n >= MIN_EVIDENCE_BYTES || !e.is_single_byte() => (
                    detect::chardet_name(e).to_owned(),
                    Source::Detector,
                    Some(Charset::for_encoding(e)),
                ),
                _ => return None,
            },
            Step::Label(label, source) => {
                let charset = resolve(&label, self.proven);
                (label, source, charset)
            }
        };
        if self.seen_labels.contains(&label) {
            return None;
        }
        self.seen_labels.push(label.clone());
        let Some(charset) = charset else {
            self.attempt(&label, source, false, Some("unknown encoding".into()));
            return None;
        };
        if self.seen_charsets.contains(&charset) {
            return None;
        }
        self.seen_charsets.push(charset);
        if self.decoder.policy == Policy::Recover
            && matches!(source, Source::Rfc3023 | Source::Declared)
            && charset.is_ascii_compatible()
            && charset != Charset::UTF_8
            && charset != Charset::US_ASCII // fails on non-ASCII by itself
            && self.utf8_evidence()
        {
            let why = "not used: the bytes are strictly valid UTF-8 with non-ASCII characters";
            self.attempt(&label, source, false, Some(why.into()));
            let text = Charset::UTF_8.decode_strict(self.body).ok()?;
            self.attempt(
                "utf-8",
                Source::Evidence,
                true,
                Some(format!(
                    "its non-ASCII bytes are all valid UTF-8, not {label}"
                )),
            );
            return Some(Pick {
                label: "utf-8".into(),
                source: Source::Evidence,
                charset: Charset::UTF_8,
                text,
                repair: None,
            });
        }
        let strict = charset.decode_strict(self.body);
        self.strict.push((charset, strict.is_ok()));
        let decoded = match strict {
            Ok(text) => Ok((text, None)),
            Err(e) => match self.recover(charset, &e) {
                Some((text, repair)) => Ok((text, Some(repair))),
                None => Err(e),
            },
        };
        match decoded {
            Err(e) => {
                self.attempt(&label, source, false, Some(e.to_string()));
                None
            }
            Ok((text, repair)) => match bad_chars(&text) {
                0 if let Some(why) = markup_start::refusal(&text) => {
                    self.attempt(&label, source, false, Some(why.clone()));
                    self.unopened_why.push((label.clone(), why));
                    if self.unopened.is_none() {
                        self.unopened = Some(Pick {
                            label,
                            source,
                            charset,
                            text,
                            repair,
                        });
                    }
                    None
                }
                0 => {
                    let detail = repair.as_ref().map(|r| r.message.clone());
                    self.attempt(&label, source, true, detail);
                    Some(Pick {
                        label,
                        source,
                        charset,
                        text,
                        repair,
                    })
                }
                bad => {
                    let why = format!("decodes to {bad} U+0000 or ISO-2022 escape characters");
                    self.attempt(&label, source, false, Some(why));
                    if self.least_bad.as_ref().is_none_or(|(b, _)| bad < *b) {
                        self.least_bad = Some((
                            bad,
                            Pick {
                                label,
                                source,
                                charset,
                                text,
                                repair,
                            },
                        ));
                    }
                    None
                }
            },
        }
    }

    /// Under [`Policy::Recover`], after `charset` failed its strict decode: a reading
    /// that keeps the label, when the failure is one real feeds show and the label is
    /// otherwise right. In order: the document ends inside a character (a truncated
    /// download; the partial character is dropped); a UTF-16/UTF-32 document whose byte
    /// order the first bytes prove holds invalid code units (each replaced by U+FFFD); a
    /// UTF-8 document holds runs of windows-1252 (read as windows-1252, the rest as
    /// UTF-8).
    fn recover(&mut self, charset: Charset, err: &DecodeError) -> Option<(Cow<'a, str>, Repair)> {
        if self.decoder.policy != Policy::Recover {
            return None;
        }
        let body = self.body;
        if let Some((text, end)) = truncated(charset, body, err) {
            let message = format!(
                "the document ends inside a {} character: its last {} byte(s), from offset {}, \
                 are dropped (a truncated download?)",
                charset.name(),
                body.len() - end,
                self.bom_len + end
            );
            return Some((
                text,
                Repair {
                    message,
                    offset: self.bom_len + end,
                },
            ));
        }
        if charset.is_wide() && self.proven.map(|p| charset.with_byte_order_of(p)) == Some(charset)
        {
            let (text, bad, first) = charset.decode_wide_replacing(body)?;
            let first = self.bom_len + first?;
            let message = format!(
                "{bad} invalid {} code unit(s) replaced with U+FFFD, the first at byte {first}",
                charset.name()
            );
            return Some((
                Cow::Owned(text),
                Repair {
                    message,
                    offset: first,
                },
            ));
        }
        if charset == Charset::UTF_8 {
            let mixed = Mixed::of(body, false)?;
            if !mixed.plausible(body) || self.cjk_guess_decodes() {
                return None;
            }
            let first = self.bom_len + mixed.ranges.first().map_or(body.len(), |r| r.0);
            let message = mixed.describe(self.bom_len);
            return Some((
                Cow::Owned(mixed.text),
                Repair {
                    message,
                    offset: first,
                },
            ));
        }
        None
    }

    /// Whether chardetng names a multi-byte legacy charset (Shift_JIS, EUC-KR, Big5, GBK
    /// …) that reads the whole body (a truncated last character allowed): such bytes
    /// form valid UTF-8 pairs by chance, and chardetng tells them apart from a UTF-8
    /// document with pasted windows-1252.
    fn cjk_guess_decodes(&mut self) -> bool {
        if !self.decoder.detector {
            return false;
        }
        let Some((g, _)) = self.guess() else {
            return false;
        };
        if g.is_single_byte() || g == encoding_rs::UTF_8 {
            return false;
        }
        let c = Charset::for_encoding(g);
        match c.decode_strict(self.body) {
            Ok(_) => true,
            Err(e) => truncated(c, self.body, &e).is_some(),
        }
    }

    /// [`detect::marks`] of `c`'s reading of the first [`PLAUSIBILITY_WINDOW`] bytes;
    /// `None` when that reading fails (a multi-byte charset cut mid-character) or has
    /// U+0000 or ISO-2022 escapes.
    fn window_marks(&self, c: Charset) -> Option<detect::Marks> {
        let text = self.window_text(c)?;
        // The parser reads ISO-8859-1's C1 controls as windows-1252: judge that text.
        (bad_chars(&text) == 0).then(|| detect::marks(&text, c == Charset::ISO_8859_1))
    }

    /// [`Chain::window_marks`] of the pick's charset, read once into `cell` (from the
    /// pick's text, [`Chain::pick_window`]).
    fn marks_once(
        &self,
        cell: &std::cell::OnceCell<Option<detect::Marks>>,
        pick: &Pick<'a>,
    ) -> Option<detect::Marks> {
        *cell.get_or_init(|| match self.pick_window(pick) {
            Some(text) => (bad_chars(text) == 0)
                .then(|| detect::marks(text, pick.charset == Charset::ISO_8859_1)),
            None => self.window_marks(pick.charset),
        })
    }

    /// [`Chain::window_text`] of the pick's own charset, cut from the text already
    /// decoded instead of decoding the window again, where the window's whole characters
    /// can be counted from its bytes ([`whole_chars`]); `None` elsewhere. The same text:
    /// each character comes from bytes of its own, and the window's last one, if cut,
    /// is dropped in both.
    fn pick_window<'p>(&self, pick: &'p Pick<'a>) -> Option<&'p str> {
        if pick.repair.is_some() {
            return None;
        }
        let chars = whole_chars(pick.charset, self.body, PLAUSIBILITY_WINDOW)?;
        Some(&pick.text[..char_boundary(&pick.text, chars)])
    }

    /// `c`'s reading of the first [`PLAUSIBILITY_WINDOW`] bytes (a character cut by the
    /// window's end dropped); `None` when it fails.
    fn window_text(&self, c: Charset) -> Option<Cow<'a, str>> {
        let window = &self.body[..self.body.len().min(PLAUSIBILITY_WINDOW)];
        match c.decode_strict(window) {
            Ok(text) => Some(text),
            Err(e) => truncated(c, window, &e).map(|(text, _)| text),
        }
    }

    /// Whether `c`'s reading of the window is natural Korean or Japanese text
    /// ([`detect::cjk_plausible`]); `None` when that cannot be told.
    fn cjk_plausible(&self, c: Charset) -> Option<bool> {
        let script = c.script();
        if !matches!(script, Script::Korean | Script::Japanese) {
            return None;
        }
        detect::cjk_plausible(&self.window_text(c)?, script)
    }

    /// [`Chain::cjk_plausible`] of the pick's charset, on [`Chain::pick_window`] where
    /// there is one.
    fn pick_cjk_plausible(&self, pick: &Pick<'a>) -> Option<bool> {
        let script = pick.charset.script();
        if !matches!(script, Script::Korean | Script::Japanese) {
            return None;
        }
        match self.pick_window(pick) {
            Some(text) => detect::cjk_plausible(text, script),
            None => self.cjk_plausible(pick.charset),
        }
    }

    /// chardetng's guess on a smaller budget, when it only confirms or contradicts.
    fn evidence_guess(&mut self) -> Option<(&'static encoding_rs::Encoding, usize)> {
        let (body, d) = (self.body, self.decoder);
        *self.evidence_guess.get_or_insert_with(|| {
            detect::guess(body, d.detector_prefix, CONTRADICTION_BYTES, d.tld)
        })
    }

    /// Under [`Policy::Recover`], after a pick: a better reading of the same bytes when
    /// the evidence is strong, recorded in the trail. In order: mostly-UTF-8 input with
    /// stray legacy bytes; chardetng contradicting a label's script; a reading with
    /// clearly fewer marks of mojibake.
    fn reconsider(&mut self, pick: &Pick<'a>) -> Option<Pick<'a>> {
        // Every rule below is about a legacy charset; Unicode picks are what they are.
        if !pick.charset.is_single_byte() && !pick.charset.is_ascii_compatible()
            || pick.charset == Charset::UTF_8
        {
            return None;
        }
        let legacy = pick.charset.is_single_byte() && pick.charset.is_ascii_compatible();
        let labelled = matches!(pick.source, Source::Rfc3023 | Source::Declared);
        // A label's reading against the other pages of its family, letter by letter (a
        // label that could not even decode the bytes too: its family is still the hint).
        let judged = if labelled {
            legacy.then_some(pick.charset)
        } else {
            self.failed_label()
        };
        let letters = judged.and_then(|c| letters::judge(self.body, c));
        // A label whose reading is natural text stands: no detector is consulted (and
        // UTF-8 read through a legacy page is never natural text: `Ã©`, `Ð½`).
        if matches!(letters, Some(Verdict::Plausible)) {
            return None;
        }
        let mixed = legacy
            .then(|| Mixed::of(self.body, true))
            .flatten()
            // A label the document gave yields only to clearly more UTF-8 than not.
            .filter(|m| m.points >= 4 && m.runs * 4 < m.points && m.plausible(self.body));
        // The label's own marks, read only by the rules that need them (a Japanese or
        // Korean label whose text is natural never does: its window's marks cost more
        // than the rest of the decision).
        let mine = std::cell::OnceCell::new();
        let (charset, text, why) = if let Some(m) = mixed {
            let why = format!(
                "{} points of valid UTF-8 against {} invalid runs: {}",
                m.points,
                m.runs,
                m.describe(self.bom_len)
            );
            (Charset::UTF_8, Cow::Owned(m.text), why)
        } else if let Some(Verdict::Better(better)) = &letters
            && let Some(label) = judged
            && let Some(c) = self.tie_break(&better.candidates)
            && c != pick.charset
            // An ISO label's Windows sibling on bytes 0x80-0x9F: the next rule says so.
            && !(label.sibling() == Some(c) && c.has_c1_text() && has_c1_bytes(self.body))
        {
            let why = better.why(label, c);
            (c, c.decode_strict(self.body).ok()?, why)
        } else if let Some(w) = pick.charset.sibling().filter(|w| w.has_c1_text())
            && pick.charset != Charset::ISO_8859_1 // the parser reads its C1 as windows-1252
            && matches!(pick.source, Source::Rfc3023 | Source::Declared)
            && has_c1_bytes(self.body)
            && let Ok(text) = w.decode_strict(self.body)
        {
            let why = format!(
                "bytes 0x80-0x9F are control characters in {}, text in its Windows sibling",
                pick.charset.name()
            );
            (w, text, why)
        } else if matches!(pick.source, Source::Rfc3023 | Source::Declared)
            // A Korean or Japanese label whose reading is natural text of its script
            // stands, whatever chardetng says about a few dozen bytes.
            && self.pick_cjk_plausible(pick) != Some(true)
            && (pick.charset.is_western()
                || pick.charset.sibling().is_some_and(|s| s.script() == Script::Latin)
                || self
                    .marks_once(&mine, pick)
                    .is_none_or(detect::Marks::suspicious))
            && let Some((c, why)) = self.contradiction(pick.charset)
            // Never trade a reading for one with more marks of mojibake (marks judge
            // alphabetic text; between two CJK charsets chardetng's frequencies decide).
            && (cjk(pick.charset.script()) && cjk(c.script())
                || self
                    .marks_once(&mine, pick)
                    .zip(self.window_marks(c))
                    .is_none_or(|(m, t)| t.anomalies <= m.anomalies))
        {
            (c, c.decode_strict(self.body).ok()?, why)
        } else if pick.charset.is_single_byte()
            && let Some(mine) = self.marks_once(&mine, pick)
            && let Some((c, why)) = self.more_plausible(
                pick.charset,
                mine.anomalies,
                matches!(pick.source, Source::Rfc3023 | Source::Declared),
            )
        {
            (c, c.decode_strict(self.body).ok()?, why)
        } else {
            return None;
        };
        if bad_chars(&text) != 0 {
            return None;
        }
        let label = if charset == Charset::UTF_8 {
            "utf-8"
        } else {
            charset.name()
        };
        self.attempt(
            label,
            Source::Evidence,
            true,
            Some(format!("{why}; overrides {}", pick.label)),
        );
        Some(Pick {
            label: label.to_owned(),
            source: Source::Evidence,
            charset,
            text,
            repair: None,
        })
    }

    /// The document's label when it could not decode the bytes (the chain went on to a
    /// detector's guess or a fallback).
    fn failed_label(&self) -> Option<Charset> {
        let first = self.tried.first()?;
        (matches!(first.source, Source::Rfc3023 | Source::Declared) && !first.ok)
            .then(|| resolve(&first.label, self.proven))
            .flatten()
    }

    /// One of the pages [`letters::judge`] found equally better than a label: chardetng's
    /// guess when it is one of them, otherwise the first.
    fn tie_break(&mut self, candidates: &[Charset]) -> Option<Charset> {
        if candidates.len() > 1
            && self.decoder.detector
            && let Some((g, _)) = self.evidence_guess()
            && let Some(&c) = candidates.iter().find(|&&c| c == Charset::for_encoding(g))
        {
            return Some(c);
        }
        candidates.first().copied()
    }

    /// A single-byte reading of the bytes with clearly fewer marks of mojibake
    /// ([`detect::Marks::anomalies`]) than `chosen`'s `mine`, over the first
    /// [`PLAUSIBILITY_WINDOW`] bytes. Alternatives: chardetng's guess; for windows-1252/ISO-8859-1 also
    /// ISO-8859-15 and Mac Roman, which chardetng never guesses; for an EBCDIC page its
    /// euro twin; for a label (`labelled`), its sibling
    /// ([`Charset::sibling`]). A correct label whose
    /// text shows no such marks is never replaced.
    fn more_plausible(
        &mut self,
        chosen: Charset,
        mine: usize,
        labelled: bool,
    ) -> Option<(Charset, String)> {
        let score = |chain: &Self, c: Charset| chain.window_marks(c).map(|m| m.anomalies);
        if mine == 0 {
            return None;
        }
        let mut alternatives = Vec::new();
        if self.decoder.detector
            && let Some((g, seen)) = self.evidence_guess()
            && seen >= MIN_EVIDENCE_BYTES
            && g.is_single_byte()
        {
            alternatives.push((Charset::for_encoding(g), true));
        }
        if let Some(twin) = chosen.euro_twin() {
            alternatives.push((twin, false));
        }
        // A label's sibling (not a fallback's: feedparser's last resort stays as is).
        if labelled && let Some(sibling) = chosen.sibling() {
            alternatives.push((sibling, false));
        }
        if chosen == Charset::WINDOWS_1252 || chosen == Charset::ISO_8859_1 {
            alternatives.extend(
                ["iso-8859-15", "macintosh"]
                    .into_iter()
                    .filter_map(Charset::for_label)
                    .map(|c| (c, false)),
            );
        }
        let (best, _, theirs) = alternatives
            .into_iter()
            // The parser reads ISO-8859-1's C1 controls as windows-1252 already.
            .filter(|&(c, _)| {
                c != chosen && !(chosen == Charset::ISO_8859_1 && c == Charset::WINDOWS_1252)
            })
            .filter_map(|(c, detected)| Some((c, detected, score(self, c)?)))
            .min_by_key(|&(_, detected, n)| (n, !detected))?;
        let clearly = theirs == 0 || (mine >= 2 && theirs * 3 <= mine);
        clearly.then(|| {
            (
                best,
                format!(
                    "{mine} marks of mojibake read as {}, {theirs} as {}",
                    chosen.name(),
                    best.name()
                ),
            )
        })
    }

    /// After a legacy label decoded: chardetng's guess, when it contradicts the label's
    /// script strongly enough to replace it.
    fn contradiction(&mut self, chosen: Charset) -> Option<(Charset, String)> {
        if !self.decoder.detector || !chosen.is_ascii_compatible() || chosen == Charset::UTF_8 {
            return None;
        }
        let (g, seen) = self.evidence_guess()?;
        let guessed = Charset::for_encoding(g);
        if seen < MIN_EVIDENCE_BYTES || guessed == chosen || g == encoding_rs::UTF_8 {
            return None;
        }
        let (a, b) = (chosen.script(), guessed.script());
        // The reading chardetng proposes must itself be natural text where that can be
        // told (Korean mostly Hangul, Japanese with kana).
        if self.cjk_plausible(guessed) == Some(false) {
            return None;
        }
        let contradicts = match (a, b) {
            // Unicode and unknown charsets have no script to contradict.
            (Script::Other | Script::Unicode, _) | (_, Script::Other | Script::Unicode) => false,
            // One CJK charset for another: two-byte codes overlap, so short texts
            // decode either way; only plenty of text is evidence.
            (x, y) if cjk(x) && cjk(y) && seen < MIN_CJK_BYTES => false,
            // Japanese encodings share a script but not a byte structure.
            (Script::Japanese, Script::Japanese) => true,
            // KOI8 vs windows-1251 vs CP866: chardetng tells them apart by letter case
            // patterns, given more text than a script-level contradiction needs. Pages
            // with the Russian letters at the same bytes (chardetng knows one of each
            // layout) are no contradiction: the label may be the one with more letters.
            (Script::Cyrillic, Script::Cyrillic) => {
                seen >= MIN_CYRILLIC_BYTES && !chosen.reads_russian_like(guessed)
            }
            // A Western default label (what a CMS writes when nobody chose) on Central
            // European, Turkish, Baltic or Vietnamese text: chardetng names those pages
            // reliably from a few dozen accented letters and never for Western prose.
            (Script::Latin, Script::Latin) => {
                seen >= MIN_LATIN_BYTES
                    && (chosen.is_western() && !guessed.is_western()
                        // windows-1250 for ISO-8859-2 or back: only where they differ.
                        || chosen.sibling() == Some(guessed)
                            && self.window_text(chosen) != self.window_text(guessed))
            }
            _ => a != b,
        };
        contradicts.then(|| {
            (
                guessed,
                format!(
                    "chardetng reads its bytes as {} ({b:?}), not {a:?}",
                    guessed.name()
                ),
            )
        })
    }
}

/// The Chinese, Japanese and Korean scripts (whose multi-byte charsets overlap).
fn cjk(s: Script) -> bool {
    matches!(
        s,
        Script::Japanese | Script::Korean | Script::ChineseSimplified | Script::ChineseTraditional
    )
}

/// Whether `body` has a byte in 0x80–0x9F (C1 controls in an ISO 8859 part).
fn has_c1_bytes(body: &[u8]) -> bool {
    body.iter().any(|&b| (0x80..=0x9F).contains(&b))
}

/// The longest sequence a charset can leave unfinished at the end of a document: four
/// bytes of GB18030 or UCS-4 less one, a UTF-16 high surrogate and an odd byte.
const MAX_PARTIAL: usize = 3;

/// How many whole characters of `c` the first `window` bytes of `body` hold, counted
/// from the bytes alone: for single-byte pages (a byte, a character) and for Shift_JIS,
/// EUC-JP and EUC-KR, whose first byte of a character tells its length; `None` for the
/// other charsets. Only for bytes `c` decodes without error.
pub(super) fn whole_chars(c: Charset, body: &[u8], window: usize) -> Option<usize> {
    let end = window.min(body.len());
    if c.is_single_byte() {
        return Some(end);
    }
    let width: fn(u8) -> usize = if c == Charset::SHIFT_JIS {
        |b| {
            if matches!(b, 0x81..=0x9F | 0xE0..=0xFC) {
                2
            } else {
                1
            }
        }
    } else if c == Charset::for_encoding(encoding_rs::EUC_JP) {
        |b| match b {
            0x8F => 3,
            0x8E | 0xA1..=0xFE => 2,
            _ => 1,
        }
    } else if c == Charset::for_encoding(encoding_rs::EUC_KR) {
        |b| if matches!(b, 0x81..=0xFE) { 2 } else { 1 }
    } else {
        return None;
    };
    let (mut at, mut chars) = (0, 0);
    while at < end {
        if body[at] < 0x80 {
            let ascii = encoding_rs::Encoding::ascii_valid_up_to(&body[at..end]);
            at += ascii;
            chars += ascii;
            continue;
        }
        let next = at + width(body[at]);
        if next > end {
            break;
        }
        at = next;
        chars += 1;
    }
    Some(chars)
}

/// The byte offset in `s` of its character number `n` (its length when it has no more).
pub(super) fn char_boundary(s: &str, n: usize) -> usize {
    // A character starts at every byte that is not a continuation byte (0x80-0xBF):
    // whole blocks are counted at once while the n-th character lies beyond them.
    const BLOCK: usize = 64;
    let starts = |b: &[u8]| b.iter().filter(|&&c| (c as i8) >= -0x40).count();
    let b = s.as_bytes();
    let (mut at, mut chars) = (0, 0);
    while let Some(block) = b.get(at..at + BLOCK) {
        let here = starts(block);
        if chars + here > n {
            break;
        }
        chars += here;
        at += BLOCK;
    }
    while let Some(&c) = b.get(at) {
        if (c as i8) >= -0x40 {
            if chars == n {
                return at;
            }
            chars += 1;
        }
        at += 1;
    }
    s.len()
}

/// `charset`'s reading of `body` without the incomplete character at its very end, and
/// where that character starts, when `err` (the strict decode's failure) is exactly that:
/// the input ends inside a multi-byte sequence and everything before it decodes.
fn truncated<'a>(
    charset: Charset,
    body: &'a [u8],
    err: &DecodeError,
) -> Option<(Cow<'a, str>, usize)> {
    if err.byte.is_some() || err.offset >= body.len() || body.len() - err.offset > MAX_PARTIAL {
        return None;
    }
    let text = charset.decode_strict(&body[..err.offset]).ok()?;
    Some((text, err.offset))
}

/// The first choice, against which an override is judged. Under Recover, what the first
/// bytes prove outranks a label that contradicts them: a BOM always, a UTF-16/UCS-4/
/// EBCDIC family when there is no declaration to say otherwise.
fn first_choice(
    policy: Policy,
    sniffed: &Sniffed,
    fp: &rfc3023::Feedparser,
    class: MediaClass,
) -> String {
    if policy == Policy::FeedparserExact {
        return fp.encoding.clone();
    }
    match (sniffed.bom, sniffed.family_loose) {
        (Some((bom, _)), _) if resolve(&fp.encoding, sniffed.proven()) != Some(bom) => {
            bom.name().to_owned()
        }
        (None, Some(f))
            if f.is_wide_or_ebcdic()
                && fp.declared.is_none()
                && !matches!(class, MediaClass::TextXml | MediaClass::OtherText) =>
        {
            f.name().to_owned()
        }
        _ => fp.encoding.clone(),
    }
}

/// The records due before any decoding: the strict pass's ERROR and NonXMLContentType.
pub(crate) fn upfront_bozo(
    strict: &Rfc3023Outcome,
    fp: &rfc3023::Feedparser,
    facts: &TransportFacts,
) -> Vec<Bozo> {
    let mut bozo = Vec::new();
    if let Some(err) = &strict.error
        && strict.rule != "2.6"
    {
        bozo.push(Bozo::new(
            BozoKind::EncodingMismatch,
            format!("RFC 3023 rule {}: {err}", strict.rule),
        ));
    }
    if fp.non_xml {
        let msg = match (&facts.content_type, &facts.content_type_header) {
            (Some(_), Some(raw)) => format!("{raw} is not an XML media type"),
            _ => "no Content-type specified".to_owned(),
        };
        bozo.push(Bozo::new(BozoKind::NonXmlContentType, msg));
    }
    bozo
}

/// Runs the whole decoding pipeline.
pub(crate) fn run<'a>(
    decoder: &Options<'_>,
    bytes: &'a [u8],
    facts: &TransportFacts,
) -> Decoded<'a> {
    let sniffed = Sniffed::of(bytes);
    let class = facts.media_class;
    let http_charset = facts.charset();
    let strict = rfc3023::strict(&Inputs::new(&sniffed, class, http_charset));
    let fp = rfc3023::feedparser(&sniffed, class, http_charset);
    let mut bozo = upfront_bozo(&strict, &fp, facts);
    let first = first_choice(decoder.policy, &sniffed, &fp, class);

    let mut steps = vec![Step::Label(first.clone(), Source::Rfc3023)];
    if let Some(d) = &fp.declared {
        steps.push(Step::Label(d.clone(), Source::Declared));
    }
    if let Some(p) = fp.sniffed {
        steps.push(Step::Label(p.name().to_owned(), Source::Sniffed));
    }
    if decoder.detector {
        steps.push(Step::Detector);
    }
    for f in ["utf-8", "windows-1252", "iso-8859-2"] {
        steps.push(Step::Label(f.to_owned(), Source::Fallback));
    }

    let mut chain = Chain {
        decoder,
        body: &bytes[sniffed.bom.map_or(0, |(_, n)| n)..],
        proven: sniffed.proven(),
        bom_len: sniffed.bom.map_or(0, |(_, n)| n),
        tried: Vec::new(),
        seen_labels: Vec::new(),
        seen_charsets: Vec::new(),
        strict: Vec::new(),
        least_bad: None,
        unopened: None,
        unopened_why: Vec::new(),
        utf8_evidence: None,
        guess: None,
        evidence_guess: None,
    };
    let mut winner = steps.into_iter().find_map(|step| chain.try_step(step));
    // No candidate's text can start a document: the first that decoded cleanly wins, as
    // if none had been looked at for markup.
    if winner.is_none()
        && let Some(pick) = chain.unopened.take()
    {
        if let Some(t) = chain.tried.iter_mut().find(|t| t.label == pick.label) {
            t.ok = true;
            if let Some(d) = &mut t.detail {
                d.push_str("; kept: no candidate's text can");
            }
        }
        winner = Some(pick);
    }

    if decoder.policy == Policy::Recover
        && let Some(pick) = &winner
        && let Some(better) = chain.reconsider(pick)
    {
        winner = Some(better);
    }

    // EBCDIC ends lines with NEL (U+0085), which XML 1.0 does not know as a line end.
    if let Some(pick) = &mut winner
        && pick.charset.is_ebcdic()
        && pick.text.contains('\u{85}')
    {
        pick.text = Cow::Owned(pick.text.replace('\u{85}', "\n"));
    }

    // Text that was UTF-8 encoded twice, undone over the whole document or not at all.
    let mut double = None;
    if decoder.policy == Policy::Recover
        && let Some(pick) = &mut winner
        && let Some((fixed, runs, first)) = repair::undo_double_utf8(&pick.text)
    {
        let at = Position::in_text(&pick.text, first);
        pick.text = Cow::Owned(fixed);
        let msg = format!(
            "the text was UTF-8 encoded twice (read as windows-1252 and encoded again): \
             all {runs} such runs are undone"
        );
        double = Some(Bozo::new(BozoKind::DoubleEncoded, msg).at(at).judged());
    }

    let (pick, unknown) = match (winner, chain.least_bad.take()) {
        (Some(p), _) => (Some(p), false),
        (None, Some((_, p))) => (Some(p), true),
        (None, None) => (None, false),
    };
    let (text, encoding, charset, chosen) = match pick {
        Some(Pick {
            label,
            source,
            charset,
            text,
            repair,
        }) => {
            if let Some(r) = repair {
                bozo.push(
                    Bozo::new(BozoKind::CharacterDecodingError, r.message)
                        .at(Position::at_offset(r.offset)),
                );
            }
            if unknown {
                if let Some(t) = chain.tried.iter_mut().rev().find(|t| t.label == label) {
                    t.ok = true;
                }
                let at = Position::in_text(
                    &text,
                    memchr::memchr2(0, 0x1B, text.as_bytes()).unwrap_or(0),
                );
                let msg = format!(
                    "document encoding unknown: no candidate decoded to well-formed characters; \
                     the least bad, {label}, gives {} U+0000 or ISO-2022 escape characters",
                    bad_chars(&text)
                );
                bozo.push(Bozo::new(BozoKind::CharacterEncodingUnknown, msg).at(at));
            } else if label != first || source == Source::Evidence {
                let mut msg = format!("document declared as {first}, but parsed as {label}");
                if source == Source::Evidence
                    && let Some(why) = chain.tried.last().and_then(|t| t.detail.as_ref())
                {
                    msg.push_str(&format!(" ({why})"));
                } else if let Some(why) = chain
                    .unopened_why
                    .iter()
                    .find_map(|(l, why)| (*l == first).then_some(why))
                {
                    msg.push_str(&format!(" (read as {first}, {why})"));
                }
                let record = Bozo::new(BozoKind::CharacterEncodingOverride, msg);
                // Overruled although it decodes (on evidence, a detector's or a letter
                // judge's reading): feedparser, which moves on only when a decoding
                // fails, would have kept it.
                let decodes = Charset::for_label(&first).is_some_and(|c| chain.decodes(c));
                bozo.push(if decodes { record.judged() } else { record });
            }
            (text, label.clone(), Some(charset), Some((label, source)))
        }
        // Unreachable while iso-8859-2 (which maps every byte) closes the chain; kept so
        // that a registry change cannot turn into a panic.
        None => {
            let msg = format!(
                "document encoding unknown, I tried {first} and every fallback but nothing worked"
            );
            bozo.push(Bozo::new(BozoKind::CharacterEncodingUnknown, msg));
            (
                String::from_utf8_lossy(chain.body),
                String::new(),
                None,
                None,
            )
        }
    };

    bozo.extend(double);

    let trail = Trail {
        bom: sniffed.bom.map(|(c, _)| c.name()),
        sniffed: sniffed.family_loose.map(Family::name),
        declared: sniffed.declared.clone(),
        http_charset: http_charset.map(str::to_owned),
        media_type: facts
            .content_type
            .as_ref()
            .map(|c| c.essence.clone())
            .filter(|e| !e.is_empty()),
        media_class: class,
        rfc3023: strict,
        tried: chain.tried,
        chosen,
    };
    Decoded {
        text,
        encoding,
        charset,
        bozo,
        trail,
    }
}
