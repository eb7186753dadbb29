//! Pure sniffers over the first bytes of a document: the byte order mark, the XML 1.0
//! Appendix F family, and the XML declaration read through that family.
//!
//! ## Byte order marks ([`bom`])
//!
//! | bytes         | charset      | note                                          |
//! |---------------|--------------|-----------------------------------------------|
//! | `00 00 FE FF` | UTF-32BE     | UCS-4, order 1234                             |
//! | `FF FE 00 00` | UTF-32LE     | UCS-4, order 4321 (checked before UTF-16LE)   |
//! | `00 00 FF FE` | UCS-4 2143   | unusual octet order                           |
//! | `FE FF 00 00` | UCS-4 3412   | unusual octet order (checked before UTF-16BE) |
//! | `FE FF`       | UTF-16BE     | not followed by `00 00`                       |
//! | `FF FE`       | UTF-16LE     | not followed by `00 00`                       |
//! | `EF BB BF`    | UTF-8        |                                               |
//!
//! ## First bytes without a BOM ([`family`], Appendix F.1)
//!
//! | bytes         | family                     |
//! |---------------|----------------------------|
//! | `00 00 00 3C` | UCS-4 big-endian (1234)    |
//! | `3C 00 00 00` | UCS-4 little-endian (4321) |
//! | `00 00 3C 00` | UCS-4 order 2143           |
//! | `00 3C 00 00` | UCS-4 order 3412           |
//! | `00 3C 00 3F` | UTF-16BE                   |
//! | `3C 00 3F 00` | UTF-16LE                   |
//! | `3C 3F 78 6D` | UTF-8, ASCII or another ASCII-compatible charset |
//! | `4C 6F A7 94` | EBCDIC (read as cp037)     |
//!
//! Anything else: no declaration can be read; the document is UTF-8 or corrupt (or, for
//! the loose guess of [`family_loose`], UTF-16 without a declaration, `00 xx 00 xx`).
//!
//! ## The XML declaration ([`declared_encoding`])
//!
//! Read through the family's charset, from at most [`DECL_SCAN_LIMIT`] bytes, so a
//! document whose `<?xml` never closes is not scanned to its end. The `encoding`
//! pseudo-attribute may sit on a later line, use single or double quotes and have
//! whitespace around `=`. Leading whitespace before `<?xml` is tolerated (real feeds
//! have it; feedparser then misses the declaration).

use crate::charset::Charset;

/// How many bytes the declaration reader looks at, at most.
pub const DECL_SCAN_LIMIT: usize = 1024;

/// The longest encoding label accepted from a declaration.
const MAX_LABEL: usize = 64;

/// The byte order mark at the start of `bytes`: its charset and its length.
///
/// 4-byte marks are checked before 2-byte ones, so `FF FE 00 00` is UTF-32LE.
#[must_use]
pub fn bom(bytes: &[u8]) -> Option<(Charset, usize)> {
    match bytes {
        [0x00, 0x00, 0xFE, 0xFF, ..] => Some((Charset::UTF_32BE, 4)),
        [0xFF, 0xFE, 0x00, 0x00, ..] => Some((Charset::UTF_32LE, 4)),
        [0x00, 0x00, 0xFF, 0xFE, ..] => Some((Charset::UCS_4_2143, 4)),
        [0xFE, 0xFF, 0x00, 0x00, ..] => Some((Charset::UCS_4_3412, 4)),
        [0xFE, 0xFF, ..] => Some((Charset::UTF_16BE, 2)),
        [0xFF, 0xFE, ..] => Some((Charset::UTF_16LE, 2)),
        [0xEF, 0xBB, 0xBF, ..] => Some((Charset::UTF_8, 3)),
        _ => None,
    }
}

/// The encoding family guessed from the first four bytes (after any BOM), per XML 1.0
/// Appendix F.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Family {
    /// `<?xm` in ASCII: UTF-8, ASCII, ISO-8859-x, Shift_JIS, EUC … (the declaration says
    /// which).
    AsciiCompatible,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UCS-4 / UTF-32, big-endian.
    Ucs4Be,
    /// UCS-4 / UTF-32, little-endian.
    Ucs4Le,
    /// UCS-4, octet order 2143.
    Ucs4_2143,
    /// UCS-4, octet order 3412.
    Ucs4_3412,
    /// EBCDIC (some code page; the declaration says which).
    Ebcdic,
}

impl Family {
    /// The charset the declaration is read with (for EBCDIC: cp037, whose invariant
    /// characters cover every declaration).
    #[must_use]
    pub fn charset(self) -> Option<Charset> {
        match self {
            Family::AsciiCompatible => Some(Charset::UTF_8),
            Family::Utf16Be => Some(Charset::UTF_16BE),
            Family::Utf16Le => Some(Charset::UTF_16LE),
            Family::Ucs4Be => Some(Charset::UTF_32BE),
            Family::Ucs4Le => Some(Charset::UTF_32LE),
            Family::Ucs4_2143 => Some(Charset::UCS_4_2143),
            Family::Ucs4_3412 => Some(Charset::UCS_4_3412),
            Family::Ebcdic => Charset::for_label("cp037"),
        }
    }

    /// The name shown in the decision trail.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Family::AsciiCompatible => "utf-8",
            Family::Utf16Be => "utf-16be",
            Family::Utf16Le => "utf-16le",
            Family::Ucs4Be => "utf-32be",
            Family::Ucs4Le => "utf-32le",
            Family::Ucs4_2143 => "ucs-4-2143",
            Family::Ucs4_3412 => "ucs-4-3412",
            Family::Ebcdic => "cp037",
        }
    }

    /// True for the families whose byte order or code page the first bytes prove
    /// (everything but [`Family::AsciiCompatible`]).
    #[must_use]
    pub fn is_wide_or_ebcdic(self) -> bool {
        self != Family::AsciiCompatible
    }
}

/// The Appendix F family of `bytes` (which must not start with a BOM), or `None` when
/// the first four bytes match no row.
#[must_use]
pub fn family(bytes: &[u8]) -> Option<Family> {
    match bytes.get(..4)? {
        [0x00, 0x00, 0x00, 0x3C] => Some(Family::Ucs4Be),
        [0x3C, 0x00, 0x00, 0x00] => Some(Family::Ucs4Le),
        [0x00, 0x00, 0x3C, 0x00] => Some(Family::Ucs4_2143),
        [0x00, 0x3C, 0x00, 0x00] => Some(Family::Ucs4_3412),
        [0x00, 0x3C, 0x00, 0x3F] => Some(Family::Utf16Be),
        [0x3C, 0x00, 0x3F, 0x00] => Some(Family::Utf16Le),
        [0x3C, 0x3F, 0x78, 0x6D] => Some(Family::AsciiCompatible),
        [0x4C, 0x6F, 0xA7, 0x94] => Some(Family::Ebcdic),
        _ => None,
    }
}

/// [`family`], extended to documents without a declaration: a document whose first
/// eight bytes are ASCII characters interleaved with zero bytes (`00 3C 00 72 …`) is
/// UTF-16 or UTF-32 even though Appendix F has no row for it.
#[must_use]
pub fn family_loose(bytes: &[u8]) -> Option<Family> {
    if let Some(f) = family(bytes) {
        return Some(f);
    }
    let head = bytes.get(..8)?;
    let ascii = |b: u8| (0x09..0x80).contains(&b);
    let zeros = |idx: &[usize]| idx.iter().all(|&i| head[i] == 0);
    let chars = |idx: &[usize]| idx.iter().all(|&i| ascii(head[i]));
    if zeros(&[0, 1, 2, 4, 5, 6]) && chars(&[3, 7]) {
        Some(Family::Ucs4Be)
    } else if zeros(&[1, 2, 3, 5, 6, 7]) && chars(&[0, 4]) {
        Some(Family::Ucs4Le)
    } else if zeros(&[0, 2, 4, 6]) && chars(&[1, 3, 5, 7]) {
        Some(Family::Utf16Be)
    } else if zeros(&[1, 3, 5, 7]) && chars(&[0, 2, 4, 6]) {
        Some(Family::Utf16Le)
    } else if ebcdic_markup(bytes) {
        Some(Family::Ebcdic)
    } else {
        None
    }
}

/// EBCDIC markup without a declaration: optional EBCDIC white space (`40 05 15 25 0D`),
/// then `<` (`4C`) and either `?`/`!` or an element name of two or more EBCDIC name
/// characters ended by white space, `>` or `/` (`<rss ` is `4C 99 A2 A2 40`). No
/// ASCII-compatible XML document starts like that: `4C` is `L` there.
fn ebcdic_markup(bytes: &[u8]) -> bool {
    const SPACE: [u8; 5] = [0x40, 0x05, 0x15, 0x25, 0x0D];
    let name_char = |b: u8| {
        matches!(b, 0x81..=0x89 | 0x91..=0x99 | 0xA2..=0xA9 | 0xC1..=0xC9 | 0xD1..=0xD9
            | 0xE2..=0xE9 | 0xF0..=0xF9 | 0x7A | 0x60 | 0x6D)
    };
    let head = &bytes[..bytes.len().min(64)];
    let Some(lt) = head.iter().position(|b| !SPACE.contains(b)) else {
        return false;
    };
    match head.get(lt..) {
        Some([0x4C, 0x6F | 0x5A | 0x4F, ..]) => true,
        Some([0x4C, rest @ ..]) => {
            let name = rest.iter().take_while(|&&b| name_char(b)).count();
            name >= 2
                && rest
                    .get(name)
                    .is_some_and(|b| SPACE.contains(b) || matches!(b, 0x6E | 0x61))
        }
        _ => false,
    }
}

/// The `encoding` of the XML declaration at the start of `bytes` (after any BOM), read
/// through `charset`, lower-cased; `None` without a declaration or an `encoding`.
#[must_use]
pub fn declared_encoding(bytes: &[u8], charset: Charset) -> Option<String> {
    let mut head = &bytes[..bytes.len().min(DECL_SCAN_LIMIT)];
    if charset == Charset::UTF_8
        && let Some(end) = memchr::memmem::find(head, b"?>")
    {
        // Nothing past the first `?>` is read (the bytes of `?>` are never part of
        // another UTF-8 character), and decoding the rest of a legacy document's first
        // kilobyte as UTF-8, error by error, cost more than the rest of this function.
        head = &head[..end + 2];
    }
    // A prefix may end inside a character: decode lossily and look only at what decoded.
    let text = if charset.is_ebcdic() {
        // Letters, digits, `-`, `=`, `'` and `?` sit at the same bytes in every EBCDIC
        // code page; `"` does not (cp1026 has it at 0xFC): read both as `"`.
        let head: Vec<u8> = head
            .iter()
            .map(|&b| if b == 0xFC { 0x7F } else { b })
            .collect();
        std::borrow::Cow::Owned(charset.decode_lossy(&head).into_owned())
    } else {
        charset.decode_lossy(head)
    };
    encoding_in_declaration(&text).map(|s| s.to_ascii_lowercase())
}

/// The `encoding` pseudo-attribute of an XML declaration at the start of `text`
/// (leading whitespace allowed), as written.
#[must_use]
pub fn encoding_in_declaration(text: &str) -> Option<&str> {
    let decl = text.trim_start_matches([' ', '\t', '\r', '\n']);
    let rest = decl.strip_prefix("<?xml")?;
    if !rest.starts_with([' ', '\t', '\r', '\n']) {
        return None;
    }
    let end = rest.find("?>").unwrap_or(rest.len());
    let mut attrs = &rest[..end];
    // Walk the pseudo-attributes: name, optional spaces, '=', optional spaces, quoted value.
    loop {
        attrs = attrs.trim_start_matches([' ', '\t', '\r', '\n']);
        let name_len =
            attrs.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))?;
        if name_len == 0 {
            return None;
        }
        let (name, after) = attrs.split_at(name_len);
        let after = after
            .trim_start_matches([' ', '\t', '\r', '\n'])
            .strip_prefix('=')?;
        let after = after.trim_start_matches([' ', '\t', '\r', '\n']);
        let quote = after.chars().next().filter(|&q| q == '"' || q == '\'')?;
        let value_and_more = &after[1..];
        let close = value_and_more.find(quote)?;
        let value = &value_and_more[..close];
        if name == "encoding" {
            let value = value.trim();
            let ok = !value.is_empty()
                && value.len() <= MAX_LABEL
                && value
                    .bytes()
                    .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>');
            return ok.then_some(value);
        }
        attrs = &value_and_more[close + 1..];
    }
}

/// The byte offset just past the XML declaration at the start of `text` (leading
/// whitespace allowed), if there is a complete one within [`DECL_SCAN_LIMIT`] bytes.
#[must_use]
pub fn declaration_span(text: &str) -> Option<usize> {
    let lead = text.len() - text.trim_start_matches([' ', '\t', '\r', '\n']).len();
    let rest = &text[lead..];
    if !rest.starts_with("<?xml") || !rest[5..].starts_with([' ', '\t', '\r', '\n', '?']) {
        return None;
    }
    let window = &rest.as_bytes()[..rest.len().min(DECL_SCAN_LIMIT)];
    window
        .windows(2)
        .position(|w| w == b"?>")
        .map(|i| lead + i + 2)
}

/// Everything the sniffers learned from the first bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// The byte order mark and its length.
    pub bom: Option<(Charset, usize)>,
    /// The Appendix F family of the bytes after the BOM (strict table).
    pub family: Option<Family>,
    /// The family including the loose UTF-16/UTF-32 guess for declaration-less documents.
    pub family_loose: Option<Family>,
    /// The declared encoding, lower-cased.
    pub declared: Option<String>,
}

impl Sniffed {
    /// Sniffs `bytes`: BOM, family, then the declaration read through the BOM's charset
    /// or the family's.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Self {
        let bom = bom(bytes);
        let body = &bytes[bom.map_or(0, |(_, n)| n)..];
        let family = family(body);
        let family_loose = family_loose(body);
        let reader = bom
            .map(|(c, _)| c)
            .or_else(|| family_loose.and_then(Family::charset));
        let declared = declared_encoding(body, reader.unwrap_or(Charset::UTF_8));
        Sniffed {
            bom,
            family,
            family_loose,
            declared,
        }
    }

    /// The charset the first bytes prove: the BOM's, else a non-ASCII family's.
    #[must_use]
    pub fn proven(&self) -> Option<Charset> {
        self.bom.map(|(c, _)| c).or_else(|| {
            self.family_loose
                .filter(|f| f.is_wide_or_ebcdic())
                .and_then(Family::charset)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_byte_boms_win_over_two_byte_ones() {
        assert_eq!(
            bom(b"\xFF\xFE\x00\x00<\x00\x00\x00"),
            Some((Charset::UTF_32LE, 4))
        );
        assert_eq!(bom(b"\xFF\xFE<\x00"), Some((Charset::UTF_16LE, 2)));
        assert_eq!(bom(b"\xFE\xFF\x00\x00"), Some((Charset::UCS_4_3412, 4)));
        assert_eq!(bom(b"\xFE\xFF\x00<"), Some((Charset::UTF_16BE, 2)));
        assert_eq!(bom(b"\x00\x00\xFE\xFF"), Some((Charset::UTF_32BE, 4)));
        assert_eq!(bom(b"\x00\x00\xFF\xFE"), Some((Charset::UCS_4_2143, 4)));
        assert_eq!(bom(b"\xEF\xBB\xBF<"), Some((Charset::UTF_8, 3)));
        assert_eq!(bom(b"\xEF\xBB"), None);
        assert_eq!(bom(b""), None);
    }

    #[test]
    fn appendix_f_rows() {
        let rows: [(&[u8], Option<Family>); 10] = [
            (b"\x00\x00\x00\x3C", Some(Family::Ucs4Be)),
            (b"\x3C\x00\x00\x00", Some(Family::Ucs4Le)),
            (b"\x00\x00\x3C\x00", Some(Family::Ucs4_2143)),
            (b"\x00\x3C\x00\x00", Some(Family::Ucs4_3412)),
            (b"\x00\x3C\x00\x3F", Some(Family::Utf16Be)),
            (b"\x3C\x00\x3F\x00", Some(Family::Utf16Le)),
            (b"\x3C\x3F\x78\x6D", Some(Family::AsciiCompatible)),
            (b"\x4C\x6F\xA7\x94", Some(Family::Ebcdic)),
            (b"<rss", None),
            (b"<?", None),
        ];
        for (bytes, want) in rows {
            assert_eq!(family(bytes), want, "{bytes:02X?}");
        }
    }

    #[test]
    fn loose_family_finds_declarationless_utf16_and_utf32() {
        assert_eq!(
            family_loose(
                &"<rss>"
                    .encode_utf16()
                    .flat_map(u16::to_be_bytes)
                    .collect::<Vec<_>>()
            ),
            Some(Family::Utf16Be)
        );
        assert_eq!(
            family_loose(
                &"<rss>"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes)
                    .collect::<Vec<_>>()
            ),
            Some(Family::Utf16Le)
        );
        let be32: Vec<u8> = "<rs"
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        assert_eq!(family_loose(&be32), Some(Family::Ucs4Be));
        let le32: Vec<u8> = "<rs"
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        assert_eq!(family_loose(&le32), Some(Family::Ucs4Le));
        assert_eq!(family_loose(b"<rss version"), None);
        let cp037 = Charset::for_label("cp037").unwrap();
        let ebcdic = cp037.encode("\n  <rss version='2.0'>").unwrap();
        assert_eq!(family(&ebcdic), None);
        assert_eq!(family_loose(&ebcdic), Some(Family::Ebcdic));
        assert_eq!(
            family_loose(&cp037.encode("<feed xmlns='x'>").unwrap()),
            Some(Family::Ebcdic)
        );
        assert_eq!(family_loose(b"L\xe9on <rss>"), None);
        assert_eq!(family_loose(b"L\xe9\xe8 <rss>"), None);
        assert_eq!(family_loose(b"Lyon"), None);
    }

    #[test]
    fn declaration_forms() {
        let cases: [(&str, Option<&str>); 11] = [
            (
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss/>",
                Some("ISO-8859-1"),
            ),
            ("<?xml version='1.0' encoding='utf-8'?>", Some("utf-8")),
            (
                "<?xml version='1.0'\n   encoding = \"koi8-r\" ?>",
                Some("koi8-r"),
            ),
            (
                "<?xml\tversion='1.0'\r\nencoding=\t'x'\nstandalone='yes'?>",
                Some("x"),
            ),
            ("  \n<?xml version='1.0' encoding='big5'?>", Some("big5")),
            ("<?xml version='1.0'?><x encoding='no'/>", None),
            ("<?xml version='1.0' encoding=utf-8?>", None),
            ("<?xml version='1.0' encoding='utf-8\"?>", None),
            ("<?xml-stylesheet href='x' encoding='utf-8'?>", None),
            ("<rss encoding='utf-8'>", None),
            ("<?xml version='1.0' encoding=''?>", None),
        ];
        for (text, want) in cases {
            assert_eq!(encoding_in_declaration(text), want, "{text:?}");
        }
    }

    #[test]
    fn unterminated_declaration_is_bounded() {
        let mut doc = b"<?xml version='1.0' ".to_vec();
        doc.extend(std::iter::repeat_n(b' ', 10 * DECL_SCAN_LIMIT));
        doc.extend(b"encoding='koi8-r'?>");
        assert_eq!(declared_encoding(&doc, Charset::UTF_8), None);
        assert_eq!(declaration_span(std::str::from_utf8(&doc).unwrap()), None);
    }

    #[test]
    fn the_declaration_is_read_the_same_up_to_its_end_only() {
        // What follows the first `?>` (here windows-1252 and Shift_JIS bytes, or a second
        // declaration) changes nothing: the same answer as reading the whole kilobyte.
        let whole = |bytes: &[u8]| {
            let text = Charset::UTF_8.decode_lossy(&bytes[..bytes.len().min(DECL_SCAN_LIMIT)]);
            encoding_in_declaration(&text).map(str::to_ascii_lowercase)
        };
        let tails: [&[u8]; 4] = [
            b"<rss>caf\xe9 \xe0 \x93quoted\x94</rss>",
            b"<rss>\x83\x3f\x3e\x8c\x8e</rss>",
            b"<?xml version='1.0' encoding='koi8-r'?>",
            b"",
        ];
        let heads: [&[u8]; 6] = [
            b"<?xml version='1.0' encoding='Windows-1252'?>",
            b"  <?xml version=\"1.0\" encoding=\"shift_jis\" ?>",
            b"<?xml version='1.0'?>",
            b"<?>",
            b"<?xml encoding='iso-8859-1'",
            b"<rss encoding='utf-8'>",
        ];
        for head in heads {
            for tail in tails {
                let doc = [head, tail].concat();
                assert_eq!(
                    declared_encoding(&doc, Charset::UTF_8),
                    whole(&doc),
                    "{doc:?}"
                );
            }
        }
    }

    #[test]
    fn declaration_read_through_utf16_and_utf32() {
        let decl = "<?xml version='1.0' encoding='UTF-16'?><rss/>";
        let le: Vec<u8> = decl.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let s = Sniffed::of(&le);
        assert_eq!(s.family, Some(Family::Utf16Le));
        assert_eq!(s.declared.as_deref(), Some("utf-16"));
        let be32: Vec<u8> = decl
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        let s = Sniffed::of(&be32);
        assert_eq!(s.family, Some(Family::Ucs4Be));
        assert_eq!(s.declared.as_deref(), Some("utf-16"));
        assert_eq!(s.proven(), Some(Charset::UTF_32BE));
    }

    #[test]
    fn ebcdic_declarations_read_in_any_code_page() {
        for label in [
            "cp037", "cp500", "cp1047", "cp1140", "cp273", "cp875", "cp1026",
        ] {
            let c = Charset::for_label(label).unwrap();
            for q in ['"', '\''] {
                let decl = format!("<?xml version={q}1.0{q} encoding={q}{label}{q}?><rss/>");
                let bytes = c.encode(&decl).unwrap();
                let s = Sniffed::of(&bytes);
                assert_eq!(s.family, Some(Family::Ebcdic), "{label}");
                assert_eq!(s.declared.as_deref(), Some(label), "{label} with {q}");
            }
        }
    }

    #[test]
    fn declaration_span_covers_the_declaration() {
        let t = "<?xml version='1.0' encoding='latin1'?>\n<rss/>";
        assert_eq!(&t[declaration_span(t).unwrap()..], "\n<rss/>");
        assert_eq!(declaration_span("<rss/>"), None);
        assert_eq!(declaration_span("<?xml-stylesheet?>"), None);
    }
}
