//! The strict RFC 3023 pass (rules 1.0–1.7 for local bytes, 2.0–2.6 for HTTP), and
//! feedparser's reading of the same inputs.
//!
//! `strict` (crate-private, run by the chain) follows the algorithm rule by rule and names the rule that decided. Where
//! the rules assume only UTF-8 and UTF-16 ("IMPORTANT: … should be extended here"), it is
//! extended:
//!
//! | rule   | extension                                                                  |
//! |--------|----------------------------------------------------------------------------|
//! | `1.0`  | none: without a BOM and an encoding declaration the rule says UTF-8 even when the first bytes look like UTF-16/UCS-4/EBCDIC; the fallback chain, not the strict pass, reads such bytes in their family |
//! | `1.1`  | a declared `UTF-32`/`UCS-4` takes the byte order of a UCS-4 family, as `UTF-16` takes a UTF-16 one |
//! | `1.7`  | a UTF-32 / UCS-4 BOM: the first bytes and the declaration must agree with it, as in 1.5/1.6 |
//! | `2.2`  | a `charset=UTF-32BE`/`UTF-32LE` with a BOM is an ERROR, as for UTF-16 |
//! | `2.4`  | without a BOM, a declared `charset=UTF-16`/`UTF-32` takes the byte order of the first-bytes family (still an ERROR) |
//!
//! `feedparser` (crate-private) gives the encoding feedparser reports and tries first: text/xml without
//! charset → `us-ascii`; no transport → declaration or `utf-8`; HTTP without a
//! Content-Type → declaration or `iso-8859-1`; other `text/*` → charset or `us-ascii`;
//! other types → declaration or `utf-8` (with `NonXMLContentType`); `gb2312` → `gb18030`.

use super::media_type::MediaClass;
use super::sniff::{Family, Sniffed};
use crate::charset::Charset;

/// The outcome of the strict RFC 3023 pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfc3023Outcome {
    /// The encoding the rules chose, as a label (`None` when a rule said ERROR and gave
    /// none).
    pub encoding: Option<String>,
    /// The rule that decided (`"1.0"` … `"1.7"`, `"2.0"` … `"2.6"`; `"2.0/1.x"` when
    /// rule 2.0 hands over to the raw rules; rules 1.1, 1.7, 2.2 and 2.4 are extended to
    /// UTF-32/UCS-4, see [`crate::decode::rfc3023`]; `"rfc8259"` for a JSON body, which
    /// [`super::format::decode_json`] decodes by RFC 8259 instead).
    pub rule: &'static str,
    /// The rule's ERROR, when it gave one.
    pub error: Option<String>,
}

/// What the strict pass looks at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inputs<'a> {
    /// The BOM's charset.
    pub(crate) bom: Option<Charset>,
    /// The Appendix F family of the bytes after the BOM (XMLGuessEnc).
    pub(crate) guess: Option<Family>,
    /// The declared encoding (XMLEnc).
    pub(crate) declared: Option<&'a str>,
    /// The media class of the transport.
    pub(crate) class: MediaClass,
    /// The Content-Type charset (CTEnc).
    pub(crate) http_charset: Option<&'a str>,
}

impl<'a> Inputs<'a> {
    /// The inputs from sniffed bytes and a classified transport.
    #[must_use]
    pub(crate) fn new(
        sniffed: &'a Sniffed,
        class: MediaClass,
        http_charset: Option<&'a str>,
    ) -> Self {
        Inputs {
            bom: sniffed.bom.map(|(c, _)| c),
            guess: sniffed.family,
            declared: sniffed.declared.as_deref(),
            class,
            http_charset,
        }
    }
}

fn outcome(encoding: Option<&str>, rule: &'static str, error: Option<String>) -> Rfc3023Outcome {
    Rfc3023Outcome {
        encoding: encoding.map(str::to_owned),
        rule,
        error,
    }
}

fn is_utf16(c: Charset) -> bool {
    c == Charset::UTF_16BE || c == Charset::UTF_16LE
}

fn is_ucs4(c: Charset) -> bool {
    [
        Charset::UTF_32BE,
        Charset::UTF_32LE,
        Charset::UCS_4_2143,
        Charset::UCS_4_3412,
    ]
    .contains(&c)
}

/// True when `label` names the unordered form of the same width as `c`
/// (`UTF-16` for UTF-16BE/LE, `UTF-32`/`UCS-4` for the UCS-4 orders).
fn unordered_label_fits(label: &str, c: Charset) -> bool {
    match Charset::for_label(label) {
        Some(l) if l.byte_order_unspecified() => l.with_byte_order_of(c) == c,
        _ => false,
    }
}

fn family_charset(f: Option<Family>) -> Option<Charset> {
    f.and_then(Family::charset)
}

/// The raw algorithm (rules 1.0–1.7) with its extensions.
fn raw(i: &Inputs<'_>) -> Rfc3023Outcome {
    let guess = family_charset(i.guess);
    let Some(bom) = i.bom else {
        return match (i.guess, i.declared) {
            // Literally: no BOM and no declared encoding is UTF-8, whatever the first
            // bytes look like (the chain reads a UTF-16/UCS-4/EBCDIC family as such).
            (None, _) | (_, None) => outcome(Some("utf-8"), "1.0", None),
            (Some(f), Some(d)) => match guess {
                Some(g) if f.is_wide_or_ebcdic() && unordered_label_fits(d, g) => {
                    outcome(Some(g.name()), "1.1", None)
                }
                _ => outcome(Some(d), "1.2", None),
            },
        };
    };
    let decl_charset = i.declared.map(Charset::for_label);
    if bom == Charset::UTF_8 {
        if let Some(f) = i.guess.filter(|&f| f != Family::AsciiCompatible) {
            let e = format!(
                "byte order mark is UTF-8 but the first bytes are {}",
                f.name()
            );
            return outcome(Some("utf-8"), "1.3", Some(e));
        }
        if let (Some(d), Some(c)) = (i.declared, decl_charset)
            && c != Some(Charset::UTF_8)
        {
            let e = format!("byte order mark is UTF-8 but the declaration says {d}");
            return outcome(Some("utf-8"), "1.4", Some(e));
        }
        return outcome(Some("utf-8"), "1.4", None);
    }
    let (guess_rule, decl_rule) = if is_utf16(bom) {
        ("1.5", "1.6")
    } else {
        ("1.7", "1.7")
    };
    if let Some(g) = guess.filter(|&g| g != bom) {
        let e = format!(
            "byte order mark is {} but the first bytes are {}",
            bom.name(),
            g.name()
        );
        return outcome(Some(bom.name()), guess_rule, Some(e));
    }
    if let (Some(d), Some(c)) = (i.declared, decl_charset)
        && c != Some(bom)
        && !unordered_label_fits(d, bom)
    {
        let e = format!(
            "byte order mark is {} but the declaration says {d}",
            bom.name()
        );
        return outcome(Some(bom.name()), decl_rule, Some(e));
    }
    outcome(Some(bom.name()), decl_rule, None)
}

impl Rfc3023Outcome {
    fn with_rule(mut self, rule: &'static str) -> Self {
        self.rule = rule;
        self
    }
}

/// The strict pass: the encoding to try first, the rule that decided, and the rule's
/// ERROR if it gave one.
#[must_use]
pub(crate) fn strict(i: &Inputs<'_>) -> Rfc3023Outcome {
    match i.class {
        MediaClass::Local => raw(i),
        MediaClass::ApplicationXml | MediaClass::TextXml => {
            let Some(cs) = i.http_charset else {
                return if i.class == MediaClass::ApplicationXml {
                    let r = raw(i);
                    let rule = match r.rule {
                        "1.0" => "2.0/1.0",
                        "1.1" => "2.0/1.1",
                        "1.2" => "2.0/1.2",
                        "1.3" => "2.0/1.3",
                        "1.4" => "2.0/1.4",
                        "1.5" => "2.0/1.5",
                        "1.6" => "2.0/1.6",
                        _ => "2.0/1.7",
                    };
                    r.with_rule(rule)
                } else {
                    outcome(Some("us-ascii"), "2.1", None)
                };
            };
            let c = Charset::for_label(cs);
            if let (Some(c), Some(bom)) = (c, i.bom)
                && (is_utf16(c) || is_ucs4(c))
            {
                let e = format!(
                    "Content-Type charset {cs} forbids a byte order mark, but there is a {} one",
                    bom.name()
                );
                return outcome(Some(bom.name()), "2.2", Some(e));
            }
            if let Some(c) = c.filter(|c| c.byte_order_unspecified()) {
                if let Some(bom) = i.bom.filter(|&b| c.with_byte_order_of(b) == b) {
                    return outcome(Some(bom.name()), "2.3", None);
                }
                let by_family = family_charset(i.guess).map(|g| c.with_byte_order_of(g));
                let ordered = by_family.filter(|&o| is_utf16(o) || is_ucs4(o));
                let e = format!("Content-Type charset {cs} needs a byte order mark; there is none");
                return outcome(ordered.map(Charset::name), "2.4", Some(e));
            }
            outcome(Some(cs), "2.5", None)
        }
        MediaClass::Missing | MediaClass::OtherText | MediaClass::Other => {
            let e = match i.class {
                MediaClass::Missing => "no Content-Type: RFC 3023 defines no handling".to_owned(),
                _ => "not an XML media type: RFC 3023 defines no handling".to_owned(),
            };
            outcome(None, "2.6", Some(e))
        }
    }
}

/// feedparser's reading of the inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Feedparser {
    /// The encoding feedparser reports and tries first (`rfc3023_encoding`).
    pub(crate) encoding: String,
    /// The declared encoding as feedparser keeps it (`xml_encoding`): lower-cased,
    /// `utf-16`-style labels replaced by the sniffed byte order, `gb2312` → `gb18030`.
    pub(crate) declared: Option<String>,
    /// The encoding the first bytes prove (`bom_encoding`): a BOM, or a UTF-16/UCS-4/
    /// EBCDIC family.
    pub(crate) sniffed: Option<Charset>,
    /// True when the media type is not an acceptable XML type (`NonXMLContentType`).
    pub(crate) non_xml: bool,
}

/// Labels feedparser replaces by the sniffed byte order.
const UNORDERED: [&str; 14] = [
    "u16",
    "utf-16",
    "utf16",
    "utf_16",
    "u32",
    "utf-32",
    "utf32",
    "utf_32",
    "iso-10646-ucs-2",
    "iso-10646-ucs-4",
    "csucs4",
    "csunicode",
    "ucs-2",
    "ucs-4",
];

fn gb18030(label: String) -> String {
    if label.eq_ignore_ascii_case("gb2312") {
        "gb18030".to_owned()
    } else {
        label
    }
}

/// feedparser's `rfc3023_encoding`, `xml_encoding` and `bom_encoding`.
#[must_use]
pub(crate) fn feedparser(
    sniffed: &Sniffed,
    class: MediaClass,
    http_charset: Option<&str>,
) -> Feedparser {
    let proven = sniffed.proven();
    let declared = sniffed.declared.clone().map(|d| match proven {
        Some(p) if UNORDERED.contains(&d.as_str()) => p.name().to_owned(),
        _ => d,
    });
    let http = http_charset.map(str::to_owned);
    let (encoding, non_xml) = match class {
        MediaClass::ApplicationXml => (
            http.or_else(|| declared.clone())
                .unwrap_or_else(|| "utf-8".into()),
            false,
        ),
        MediaClass::TextXml => (http.unwrap_or_else(|| "us-ascii".into()), false),
        MediaClass::OtherText => (http.unwrap_or_else(|| "us-ascii".into()), true),
        MediaClass::Missing => (
            declared.clone().unwrap_or_else(|| "iso-8859-1".into()),
            true,
        ),
        MediaClass::Other => (declared.clone().unwrap_or_else(|| "utf-8".into()), true),
        MediaClass::Local => (declared.clone().unwrap_or_else(|| "utf-8".into()), false),
    };
    Feedparser {
        encoding: gb18030(encoding),
        declared: declared.map(gb18030),
        sniffed: proven,
        non_xml,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(
        bom: Option<Charset>,
        guess: Option<Family>,
        declared: Option<&str>,
    ) -> Rfc3023Outcome {
        http(MediaClass::Local, None, bom, guess, declared)
    }

    fn http(
        class: MediaClass,
        cs: Option<&str>,
        bom: Option<Charset>,
        guess: Option<Family>,
        declared: Option<&str>,
    ) -> Rfc3023Outcome {
        strict(&Inputs {
            bom,
            guess,
            declared,
            class,
            http_charset: cs,
        })
    }

    fn check(o: Rfc3023Outcome, enc: Option<&str>, rule: &str, error: bool) {
        assert_eq!(
            (o.encoding.as_deref(), o.rule, o.error.is_some()),
            (enc, rule, error),
            "{o:?}"
        );
    }

    #[test]
    fn raw_rules() {
        use Family::*;
        let a = Some(AsciiCompatible);
        let (u8, u16le, u16be) = (Charset::UTF_8, Charset::UTF_16LE, Charset::UTF_16BE);
        let (u32le, u32be) = (Charset::UTF_32LE, Charset::UTF_32BE);
        type Row<'a> = (
            Option<Charset>,
            Option<Family>,
            Option<&'a str>,
            &'a str,
            &'a str,
            bool,
        );
        // (BOM, first-bytes family, declaration) → (encoding, rule, error?)
        #[rustfmt::skip]
        let rows: &[Row<'_>] = &[
            (None, None, None, "utf-8", "1.0", false),
            (None, a, None, "utf-8", "1.0", false),
            (None, None, Some("iso-8859-1"), "utf-8", "1.0", false),
            (None, Some(Utf16Le), Some("utf-16"), "utf-16le", "1.1", false),
            (None, Some(Utf16Be), Some("UTF-16"), "utf-16be", "1.1", false),
            (None, Some(Ucs4Be), Some("ucs-4"), "utf-32be", "1.1", false),
            (None, a, Some("iso-8859-1"), "iso-8859-1", "1.2", false),
            (None, Some(Utf16Le), Some("utf-16le"), "utf-16le", "1.2", false),
            (None, Some(Ebcdic), Some("cp500"), "cp500", "1.2", false),
            (None, Some(Utf16Be), None, "utf-8", "1.0", false),
            (None, Some(Ucs4Le), None, "utf-8", "1.0", false),
            (None, Some(Ebcdic), None, "utf-8", "1.0", false),
            (Some(u8), Some(Utf16Le), None, "utf-8", "1.3", true),
            (Some(u8), a, Some("iso-8859-1"), "utf-8", "1.4", true),
            (Some(u8), a, Some("utf-8"), "utf-8", "1.4", false),
            (Some(u16le), Some(Utf16Be), None, "utf-16le", "1.5", true),
            (Some(u16le), Some(Utf16Le), Some("utf-8"), "utf-16le", "1.6", true),
            (Some(u16le), Some(Utf16Le), Some("utf-16"), "utf-16le", "1.6", false),
            (Some(u16be), Some(Utf16Be), Some("utf-16be"), "utf-16be", "1.6", false),
            (Some(u32le), Some(Ucs4Le), Some("utf-32"), "utf-32le", "1.7", false),
            (Some(u32le), Some(Utf16Le), None, "utf-32le", "1.7", true),
            (Some(u32be), Some(Ucs4Be), Some("utf-8"), "utf-32be", "1.7", true),
        ];
        for &(bom, guess, declared, enc, rule, error) in rows {
            check(local(bom, guess, declared), Some(enc), rule, error);
        }
    }

    #[test]
    fn http_rules() {
        use MediaClass::*;
        let a = Some(Family::AsciiCompatible);
        let (u16le, u16be) = (Some(Charset::UTF_16LE), Some(Charset::UTF_16BE));
        let (u32le, u32be) = (Some(Charset::UTF_32LE), Some(Charset::UTF_32BE));
        type Row<'a> = (
            MediaClass,
            Option<&'a str>,
            Option<Charset>,
            Option<Family>,
            Option<&'a str>,
            Option<&'a str>,
            &'a str,
            bool,
        );
        // (class, charset, BOM, family, declaration) → (encoding, rule, error?)
        #[rustfmt::skip]
        let rows: &[Row<'_>] = &[
            (ApplicationXml, None, None, a, Some("iso-8859-1"), Some("iso-8859-1"), "2.0/1.2", false),
            (ApplicationXml, None, None, None, None, Some("utf-8"), "2.0/1.0", false),
            (TextXml, None, None, a, Some("iso-8859-1"), Some("us-ascii"), "2.1", false),
            (TextXml, Some("utf-16le"), u16le, None, None, Some("utf-16le"), "2.2", true),
            (ApplicationXml, Some("UTF-32BE"), u32be, None, None, Some("utf-32be"), "2.2", true),
            (TextXml, Some("utf-32le"), u32le, None, None, Some("utf-32le"), "2.2", true),
            (ApplicationXml, Some("utf-32"), u32le, None, None, Some("utf-32le"), "2.3", false),
            (ApplicationXml, Some("utf-16"), u16be, None, None, Some("utf-16be"), "2.3", false),
            (ApplicationXml, Some("utf-16"), None, Some(Family::Utf16Le), None, Some("utf-16le"), "2.4", true),
            (ApplicationXml, Some("utf-16"), None, a, None, None, "2.4", true),
            (TextXml, Some("windows-1252"), None, a, Some("utf-8"), Some("windows-1252"), "2.5", false),
            (OtherText, Some("utf-8"), None, a, None, None, "2.6", true),
            (Missing, None, None, a, Some("utf-8"), None, "2.6", true),
            (Other, None, None, a, None, None, "2.6", true),
        ];
        for &(class, cs, bom, guess, declared, enc, rule, error) in rows {
            check(http(class, cs, bom, guess, declared), enc, rule, error);
        }
    }

    #[test]
    fn feedparser_encoding_semantics() {
        use MediaClass::*;
        let doc = Sniffed::of(b"<?xml version='1.0' encoding='ISO-8859-1'?><rss/>");
        let fp = |class, cs| feedparser(&doc, class, cs);
        assert_eq!(fp(TextXml, None).encoding, "us-ascii");
        assert_eq!(fp(TextXml, Some("Windows-1252")).encoding, "Windows-1252");
        assert_eq!(fp(ApplicationXml, None).encoding, "iso-8859-1");
        assert_eq!(fp(Local, None).encoding, "iso-8859-1");
        assert_eq!(fp(Missing, None).encoding, "iso-8859-1");
        assert!(fp(Missing, None).non_xml);
        assert!(fp(OtherText, Some("utf-8")).non_xml);
        assert_eq!(fp(OtherText, None).encoding, "us-ascii");
        let bare = Sniffed::of(b"<rss/>");
        assert_eq!(feedparser(&bare, Local, None).encoding, "utf-8");
        assert_eq!(feedparser(&bare, Missing, None).encoding, "iso-8859-1");
        assert_eq!(feedparser(&bare, Other, None).encoding, "utf-8");
        let gb = Sniffed::of(b"<?xml version='1.0' encoding='gb2312'?><rss/>");
        assert_eq!(feedparser(&gb, Local, None).encoding, "gb18030");
        assert_eq!(
            feedparser(&gb, ApplicationXml, Some("GB2312")).encoding,
            "gb18030"
        );
        let u16: Vec<u8> = "<?xml version='1.0' encoding='utf-16'?><rss/>"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let s = Sniffed::of(&u16);
        assert_eq!(feedparser(&s, Local, None).encoding, "utf-16be");
    }
}
