//! The charset registry: a label a feed may carry → a strict decoder.
//!
//! encoding_rs implements the WHATWG Encoding Standard, whose labels are not XML/IANA
//! labels: it maps `us-ascii` and `iso-8859-1` to windows-1252, `utf-16` to UTF-16LE, and
//! has no UTF-32 and no EBCDIC. Feeds are XML, so this module resolves labels the way XML
//! processors and Python's codecs do, and adds the charsets encoding_rs lacks.
//!
//! SKELETON: the basic set (encoding_rs, strict US-ASCII, ISO-8859-1, UTF-16/32). The
//! full registry (EBCDIC, DOS/Mac code pages, Python aliases, strict holes) replaces it.

use std::borrow::Cow;
use std::fmt;

use encoding_rs::Encoding;

/// A character encoding with a strict decoder. Cheap to copy and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Charset(Repr);

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Repr {
    Whatwg(&'static Encoding),
    Ascii,
    Latin1,
    /// UTF-16 whose byte order comes from a BOM, big-endian without one.
    Utf16,
    /// UTF-32 whose byte order comes from a BOM, big-endian without one.
    Utf32,
    Utf32Be,
    Utf32Le,
    Ucs4_2143,
    Ucs4_3412,
}

/// Where and why a strict decode failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset of the first byte that could not be decoded.
    pub offset: usize,
    /// That byte.
    pub byte: Option<u8>,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.byte {
            Some(b) => write!(f, "byte 0x{b:02X} at offset {}", self.offset),
            None => write!(f, "truncated sequence at offset {}", self.offset),
        }
    }
}

impl std::error::Error for DecodeError {}

impl Charset {
    /// UTF-8.
    pub const UTF_8: Charset = Charset(Repr::Whatwg(encoding_rs::UTF_8));
    /// UTF-16, big-endian.
    pub const UTF_16BE: Charset = Charset(Repr::Whatwg(encoding_rs::UTF_16BE));
    /// UTF-16, little-endian.
    pub const UTF_16LE: Charset = Charset(Repr::Whatwg(encoding_rs::UTF_16LE));
    /// UTF-16 with the byte order from a BOM (big-endian without one).
    pub const UTF_16: Charset = Charset(Repr::Utf16);
    /// UTF-32, big-endian.
    pub const UTF_32BE: Charset = Charset(Repr::Utf32Be);
    /// UTF-32, little-endian.
    pub const UTF_32LE: Charset = Charset(Repr::Utf32Le);
    /// UTF-32 with the byte order from a BOM (big-endian without one).
    pub const UTF_32: Charset = Charset(Repr::Utf32);
    /// UCS-4 in the unusual octet order 2143.
    pub const UCS_4_2143: Charset = Charset(Repr::Ucs4_2143);
    /// UCS-4 in the unusual octet order 3412.
    pub const UCS_4_3412: Charset = Charset(Repr::Ucs4_3412);
    /// Strict US-ASCII: bytes ≥ 0x80 are errors.
    pub const US_ASCII: Charset = Charset(Repr::Ascii);
    /// True ISO-8859-1 (0x80–0x9F are C1 controls, not windows-1252).
    pub const ISO_8859_1: Charset = Charset(Repr::Latin1);
    /// windows-1252.
    pub const WINDOWS_1252: Charset = Charset(Repr::Whatwg(encoding_rs::WINDOWS_1252));
    /// ISO-8859-2.
    pub const ISO_8859_2: Charset = Charset(Repr::Whatwg(encoding_rs::ISO_8859_2));

    /// Resolves a label the way XML processors and Python's codecs do (case-insensitive,
    /// surrounding whitespace ignored). `None` for unknown labels and for WHATWG
    /// "replacement" labels.
    #[must_use]
    pub fn for_label(label: &str) -> Option<Charset> {
        let l = label.trim().to_ascii_lowercase();
        Some(match l.as_str() {
            "us-ascii" | "ascii" | "ansi_x3.4-1968" | "646" => Charset::US_ASCII,
            "iso-8859-1" | "iso8859-1" | "latin1" | "latin-1" | "l1" => Charset::ISO_8859_1,
            "utf-16" | "utf16" | "u16" | "utf_16" | "ucs-2" | "iso-10646-ucs-2" | "csunicode" => {
                Charset::UTF_16
            }
            "utf-32" | "utf32" | "u32" | "utf_32" | "ucs-4" | "iso-10646-ucs-4" | "csucs4" => {
                Charset::UTF_32
            }
            "utf-32be" | "utf_32_be" => Charset::UTF_32BE,
            "utf-32le" | "utf_32_le" => Charset::UTF_32LE,
            _ => {
                let e = Encoding::for_label_no_replacement(l.as_bytes())?;
                Charset(Repr::Whatwg(e))
            }
        })
    }

    /// The charset for an encoding_rs encoding (e.g. a chardetng guess).
    #[must_use]
    pub fn for_encoding(encoding: &'static Encoding) -> Charset {
        Charset(Repr::Whatwg(encoding))
    }

    /// The canonical lower-case name (`utf-8`, `utf-16be`, `windows-1252`, `cp037` …).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self.0 {
            Repr::Whatwg(e) if e == encoding_rs::UTF_8 => "utf-8",
            Repr::Whatwg(e) if e == encoding_rs::UTF_16BE => "utf-16be",
            Repr::Whatwg(e) if e == encoding_rs::UTF_16LE => "utf-16le",
            Repr::Whatwg(e) => e.name(),
            Repr::Ascii => "us-ascii",
            Repr::Latin1 => "iso-8859-1",
            Repr::Utf16 => "utf-16",
            Repr::Utf32 => "utf-32",
            Repr::Utf32Be => "utf-32be",
            Repr::Utf32Le => "utf-32le",
            Repr::Ucs4_2143 => "ucs-4-2143",
            Repr::Ucs4_3412 => "ucs-4-3412",
        }
    }

    /// True for UTF-16 and UTF-32 labels that do not fix the byte order.
    #[must_use]
    pub fn byte_order_unspecified(self) -> bool {
        matches!(self.0, Repr::Utf16 | Repr::Utf32)
    }

    /// An unordered UTF-16/UTF-32 resolved with the byte order of `family` (a sniffed
    /// charset of the same width); any other charset is returned unchanged.
    #[must_use]
    pub fn with_byte_order_of(self, family: Charset) -> Charset {
        match (self.0, family) {
            (Repr::Utf16, f) if f == Charset::UTF_16BE || f == Charset::UTF_16LE => f,
            (Repr::Utf32, f) if f == Charset::UTF_32BE || f == Charset::UTF_32LE => f,
            (Repr::Utf32, f) if f == Charset::UCS_4_2143 || f == Charset::UCS_4_3412 => f,
            _ => self,
        }
    }

    /// True when ASCII bytes mean ASCII characters (so an ASCII scan of the bytes is
    /// meaningful).
    #[must_use]
    pub fn is_ascii_compatible(self) -> bool {
        match self.0 {
            Repr::Whatwg(e) => e.is_ascii_compatible(),
            Repr::Ascii | Repr::Latin1 => true,
            _ => false,
        }
    }

    /// Decodes `bytes` (after any BOM) without replacement: the first undecodable byte is
    /// an error. Borrows when the bytes are already valid UTF-8 and the charset is
    /// ASCII-compatible in a way that makes them identical.
    pub fn decode_strict(self, bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
        match self.0 {
            Repr::Whatwg(e) => {
                if e == encoding_rs::UTF_8 {
                    return std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|err| {
                        DecodeError { offset: err.valid_up_to(), byte: bytes.get(err.valid_up_to()).copied() }
                    });
                }
                e.decode_without_bom_handling_and_without_replacement(bytes).ok_or_else(|| {
                    // Locate the first error with a replacing decode.
                    let (text, _) = e.decode_without_bom_handling(bytes);
                    let chars = text.find('\u{FFFD}').unwrap_or(0);
                    let _ = chars;
                    DecodeError { offset: 0, byte: None }
                })
            }
            Repr::Ascii => match bytes.iter().position(|&b| b >= 0x80) {
                Some(i) => Err(DecodeError { offset: i, byte: Some(bytes[i]) }),
                None => Ok(Cow::Borrowed(std::str::from_utf8(bytes).expect("ASCII is UTF-8"))),
            },
            Repr::Latin1 => Ok(match std::str::from_utf8(bytes) {
                Ok(s) if s.is_ascii() => Cow::Borrowed(s),
                _ => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
            }),
            Repr::Utf16 => match bytes {
                [0xFF, 0xFE, rest @ ..] => Charset::UTF_16LE.decode_strict(rest),
                [0xFE, 0xFF, rest @ ..] => Charset::UTF_16BE.decode_strict(rest),
                _ => Charset::UTF_16BE.decode_strict(bytes),
            },
            Repr::Utf32 => match bytes {
                [0xFF, 0xFE, 0, 0, rest @ ..] => Charset::UTF_32LE.decode_strict(rest),
                [0, 0, 0xFE, 0xFF, rest @ ..] => Charset::UTF_32BE.decode_strict(rest),
                _ => Charset::UTF_32BE.decode_strict(bytes),
            },
            Repr::Utf32Be => decode_ucs4(bytes, [0, 1, 2, 3]),
            Repr::Utf32Le => decode_ucs4(bytes, [3, 2, 1, 0]),
            Repr::Ucs4_2143 => decode_ucs4(bytes, [1, 0, 3, 2]),
            Repr::Ucs4_3412 => decode_ucs4(bytes, [2, 3, 0, 1]),
        }
    }

    /// Decodes `bytes`, replacing undecodable sequences with U+FFFD.
    #[must_use]
    pub fn decode_lossy(self, bytes: &[u8]) -> Cow<'_, str> {
        match self.0 {
            Repr::Whatwg(e) => e.decode_without_bom_handling(bytes).0,
            _ => match self.decode_strict(bytes) {
                Ok(t) => t,
                Err(_) => String::from_utf8_lossy(bytes),
            },
        }
    }
}

/// Decodes 4-byte units; `order[i]` is the significance rank of byte `i` (0 = most).
fn decode_ucs4(bytes: &[u8], order: [usize; 4]) -> Result<Cow<'static, str>, DecodeError> {
    let mut out = String::with_capacity(bytes.len() / 4);
    for (i, unit) in bytes.chunks(4).enumerate() {
        if unit.len() < 4 {
            return Err(DecodeError { offset: i * 4, byte: None });
        }
        let mut v: u32 = 0;
        for (j, &b) in unit.iter().enumerate() {
            v |= u32::from(b) << (8 * (3 - order[j]));
        }
        match char::from_u32(v) {
            Some(c) => out.push(c),
            None => return Err(DecodeError { offset: i * 4, byte: Some(unit[0]) }),
        }
    }
    Ok(Cow::Owned(out))
}

impl fmt::Debug for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Charset({})", self.name())
    }
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
