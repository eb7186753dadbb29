//! The floor of feed decoding: what any decoder must do with a feed's bytes, and nothing
//! of this crate. The bytes are decoded with encoding_rs by the label they declare (the
//! HTTP charset, else the XML declaration's, else UTF-8; a byte order mark wins over
//! both, as encoding_rs decides), replacing what does not decode, and every quick-xml
//! event of the text is read to the end (`Reader::from_str` with its default checks;
//! nothing unescaped, no attribute read). A wrong label is followed as any decoder would
//! follow it: the text is then mojibake, and the walk reads it all the same.
//!
//! `examples/floor` runs it over files as a whole process; `benches/parse.rs` runs it in
//! process. Both divide our costs by it.

use std::borrow::Cow;

use encoding_rs::{CoderResult, Encoding, UTF_8};
use quick_xml::Reader;
use quick_xml::events::Event;

/// What one walk saw: counted so that no part of the work can be optimised away.
#[derive(Clone, Copy, Debug, Default)]
pub struct Walk {
    /// Events read (the final `Eof` not counted).
    pub events: usize,
    /// Bytes of the events' content (names, attributes, text, CDATA, comments …).
    pub bytes: usize,
    /// Errors quick-xml reported (ill-formed markup; the walk goes on after them).
    pub errors: usize,
}

impl std::ops::AddAssign for Walk {
    fn add_assign(&mut self, other: Walk) {
        self.events += other.events;
        self.bytes += other.bytes;
        self.errors += other.errors;
    }
}

/// Decodes `bytes` by their declared label (`charset`, an HTTP `charset` parameter, first)
/// and walks every event of the text.
pub fn floor(bytes: &[u8], charset: Option<&str>) -> Walk {
    walk(&decode(bytes, encoding(bytes, charset)))
}

/// Output bytes decoded at a time before they are appended to the text.
const CHUNK: usize = 64 << 10;

/// `bytes` decoded with `encoding` (a byte order mark wins), malformed sequences replaced:
/// borrowed when they are valid UTF-8, else decoded a chunk at a time into a text that
/// grows as it is written. `Encoding::decode` would cost more: it allocates for the worst
/// case (three times the input for a single-byte encoding) and maps every page of it,
/// 15–18% more CPU time on the 20 MiB legacy feeds of `benches/parse.rs` and 1.8 times
/// the memory, for 3% fewer instructions (this copies each chunk once).
pub fn decode<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> Cow<'a, str> {
    let (encoding, bom) = Encoding::for_bom(bytes).unwrap_or((encoding, 0));
    let bytes = &bytes[bom..];
    // encoding_rs's UTF-8 validation (SIMD) costs less than `std::str::from_utf8`'s.
    if encoding == UTF_8
        && let Some(text) = UTF_8.decode_without_bom_handling_and_without_replacement(bytes)
    {
        return text;
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(bytes.len());
    let mut chunk = "\0".repeat(CHUNK);
    let mut read = 0;
    loop {
        let (result, n, written, _) = decoder.decode_to_str(&bytes[read..], &mut chunk, true);
        read += n;
        text.push_str(&chunk[..written]);
        if result == CoderResult::InputEmpty {
            return Cow::Owned(text);
        }
    }
}

/// The encoding a decoder that trusts the labels uses: `charset` if encoding_rs knows
/// it, else the XML declaration's label (read as ASCII; a UTF-16 label read that way
/// means UTF-8, as encoding_rs's `output_encoding` says), else UTF-8. A byte order mark
/// overrides all of them when the text is decoded.
pub fn encoding(bytes: &[u8], charset: Option<&str>) -> &'static Encoding {
    charset
        .and_then(|label| Encoding::for_label(label.trim().as_bytes()))
        .or_else(|| {
            declared_label(bytes)
                .and_then(Encoding::for_label)
                .map(Encoding::output_encoding)
        })
        .unwrap_or(UTF_8)
}

/// The `encoding` pseudo-attribute of an XML declaration at the start of `bytes` (after a
/// UTF-8 byte order mark, if any), within its first 1,024 bytes.
pub fn declared_label(bytes: &[u8]) -> Option<&[u8]> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let head = &bytes[..bytes.len().min(1024)];
    let decl = head.strip_prefix(b"<?xml")?;
    let decl = &decl[..decl.windows(2).position(|w| w == b"?>")?];
    let at = decl.windows(8).position(|w| w == b"encoding")?;
    let rest = decl[at + 8..].trim_ascii_start().strip_prefix(b"=")?;
    let rest = rest.trim_ascii_start();
    let (&quote, rest) = rest.split_first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    Some(&rest[..rest.iter().position(|&b| b == quote)?])
}

/// Reads every event of `text` to its end, touching each event's content.
pub fn walk(text: &str) -> Walk {
    let mut reader = Reader::from_str(text);
    let mut seen = Walk::default();
    loop {
        let len = match reader.read_event() {
            Ok(Event::Eof) => return seen,
            Ok(Event::Start(e) | Event::Empty(e)) => e.len(),
            Ok(Event::End(e)) => e.len(),
            Ok(Event::Text(e) | Event::Comment(e) | Event::DocType(e)) => e.len(),
            Ok(Event::CData(e)) => e.len(),
            Ok(Event::Decl(e)) => e.len(),
            Ok(Event::PI(e)) => e.len(),
            Ok(Event::GeneralRef(e)) => e.len(),
            // Ill-formed markup: quick-xml has consumed it and goes on; a syntax error
            // ends the document (the next event is `Eof`).
            Err(_) => {
                seen.errors += 1;
                continue;
            }
        };
        seen.events += 1;
        seen.bytes += len;
    }
}
