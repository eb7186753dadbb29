//! Bozo records: every problem found in a feed, as data.
//!
//! feedparser sets a single `bozo` bit and keeps the last exception. This crate keeps every
//! problem, in the order found, each with a [`BozoKind`], a message a person understands
//! and, where one exists, a [`Position`]. [`BozoKind::feedparser_name`] gives the name of
//! the feedparser exception class that corresponds, which is what the JSON output reports.

use std::fmt;

/// What kind of problem a [`Bozo`] record describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BozoKind {
    /// The document was decoded with another encoding than the one the strict RFC 3023
    /// pass chose (feedparser's `CharacterEncodingOverride`).
    CharacterEncodingOverride,
    /// No candidate encoding decoded the document; the text is lossy UTF-8
    /// (feedparser's `CharacterEncodingUnknown`).
    CharacterEncodingUnknown,
    /// The HTTP media type is not an XML one, or an HTTP response had no Content-Type
    /// (feedparser's `NonXMLContentType`).
    NonXmlContentType,
    /// The strict RFC 3023 pass hit one of its ERROR rules (1.3–1.6, 2.2, 2.4, 2.6 and the
    /// UTF-32/EBCDIC extensions): the byte order mark, the first bytes, the XML declaration
    /// and the HTTP charset contradict each other.
    EncodingMismatch,
    /// The markup is not well-formed XML (feedparser reports xml.sax's
    /// `SAXParseException`). Carries a line and column.
    NotWellFormed,
    /// An element or attribute uses a namespace prefix that was never declared
    /// (feedparser's `UndeclaredNamespace`).
    UndeclaredNamespace,
    /// A resource limit was hit (document size, nesting depth, entity expansion); what
    /// was read up to that point is kept.
    LimitExceeded,
    /// A JSON body is not valid JSON (feedparser reports Python's `JSONDecodeError`).
    /// Carries a line and column; what could be read before the error is kept.
    InvalidJson,
    /// A JSON Feed document breaks the JSON Feed specification (missing or unknown
    /// `version`, a field of the wrong type, an attachment without `url`); the readable
    /// fields are kept.
    InvalidJsonFeed,
    /// The HTTP layer delivered a body it could not fully read or decompress; what was
    /// read is kept.
    Transport,
    /// The encoding was kept, but some bytes are not valid in it: a character cut off by
    /// the end of the document (a truncated download), invalid UTF-16/UTF-32 code units
    /// (replaced with U+FFFD), or runs of windows-1252 inside a UTF-8 document (read as
    /// windows-1252). The message says what was done and where.
    CharacterDecodingError,
    /// Text was UTF-8 encoded twice (its UTF-8 bytes read as windows-1252 and encoded
    /// again: `CafÃ©`, `â€™`) and was repaired: over the whole document (every such run
    /// undone), or in the values of one field (the message names it, with the count
    /// and the first value before and after; see `charset::repair` for when).
    DoubleEncoded,
    /// Content marked as base64 (Atom `mode="base64"` or a non-text type) that is not
    /// base64-encoded text; it is kept as published.
    InvalidBase64,
}

impl BozoKind {
    /// The name of the corresponding feedparser exception class, as `bozo_exception.type`
    /// reports it in the JSON output.
    #[must_use]
    pub fn feedparser_name(self) -> &'static str {
        match self {
            BozoKind::CharacterEncodingOverride => "CharacterEncodingOverride",
            BozoKind::CharacterEncodingUnknown => "CharacterEncodingUnknown",
            BozoKind::NonXmlContentType => "NonXMLContentType",
            BozoKind::EncodingMismatch => "CharacterEncodingMismatch",
            BozoKind::NotWellFormed => "SAXParseException",
            BozoKind::UndeclaredNamespace => "UndeclaredNamespace",
            BozoKind::LimitExceeded => "LimitExceeded",
            BozoKind::Transport => "TransportError",
            BozoKind::CharacterDecodingError => "CharacterDecodingError",
            BozoKind::DoubleEncoded => "DoubleEncodedText",
            BozoKind::InvalidBase64 => "InvalidBase64",
            BozoKind::InvalidJson => "JSONDecodeError",
            BozoKind::InvalidJsonFeed => "JSONFeedError",
        }
    }
}

impl BozoKind {
    /// Whether feedparser reports this kind of problem too, under the class
    /// [`BozoKind::feedparser_name`] names (an encoding or media type it overrides,
    /// markup its XML parser rejects, a body it cannot read): the kinds its
    /// `bozo_exception` can be. The others are this crate's own findings.
    #[must_use]
    pub fn is_feedparsers(self) -> bool {
        matches!(
            self,
            BozoKind::CharacterEncodingOverride
                | BozoKind::CharacterEncodingUnknown
                | BozoKind::NonXmlContentType
                | BozoKind::NotWellFormed
                | BozoKind::UndeclaredNamespace
                | BozoKind::InvalidJson
                | BozoKind::Transport
        )
    }
}

/// The record feedparser's single `bozo_exception` stands for: the last of the kinds
/// feedparser reports ([`BozoKind::is_feedparsers`]) that is not [`Bozo::judged`], so
/// that a problem only this crate finds (text repaired after the markup was read, say)
/// does not hide the one feedparser names; else the last record not judged; else the
/// last record.
#[must_use]
pub fn reported(records: &[Bozo]) -> Option<&Bozo> {
    records
        .iter()
        .rev()
        .find(|r| r.kind.is_feedparsers() && !r.judged)
        .or_else(|| records.iter().rev().find(|r| !r.judged))
        .or_else(|| records.last())
}

impl fmt::Display for BozoKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.feedparser_name())
    }
}

/// Where in the input a problem was found.
///
/// `line` and `column` are 1-based and count characters of the decoded text; `offset` is a
/// 0-based byte offset, into the raw bytes for decoding problems and into the decoded text
/// for markup problems (see the record's kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// 1-based line, when known.
    pub line: Option<u64>,
    /// 1-based column (in characters), when known.
    pub column: Option<u64>,
    /// 0-based byte offset, when known.
    pub offset: Option<u64>,
}

impl Position {
    /// A position known only as a byte offset.
    #[must_use]
    pub fn at_offset(offset: usize) -> Self {
        Position {
            line: None,
            column: None,
            offset: Some(offset as u64),
        }
    }

    /// The line and column of byte `offset` in `text` (1-based; the column counts chars).
    #[must_use]
    pub fn in_text(text: &str, offset: usize) -> Self {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = count_newlines(before.as_bytes()) as u64 + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() as u64 + 1;
        Position {
            line: Some(line),
            column: Some(column),
            offset: Some(offset as u64),
        }
    }
}

/// The number of `\n` bytes in `b`, 64 bytes at a time (a sum of 64 flags fits a `u8`,
/// which vectorizes; a filtered count does not, and a document's whole text may be
/// counted when its problem is at the end).
fn count_newlines(b: &[u8]) -> usize {
    let mut chunks = b.chunks_exact(64);
    let mut n = 0;
    for chunk in &mut chunks {
        n += usize::from(chunk.iter().fold(0u8, |acc, &c| acc + u8::from(c == b'\n')));
    }
    n + chunks.remainder().iter().filter(|&&c| c == b'\n').count()
}

/// One problem found in a feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bozo {
    /// What kind of problem.
    pub kind: BozoKind,
    /// A message a person understands.
    pub message: String,
    /// Where, when known.
    pub position: Option<Position>,
    /// A finding of this crate's judgement that feedparser, which makes no such
    /// judgement, would not report: an encoding override decided on evidence although
    /// the overridden encoding decodes the document without error (feedparser keeps
    /// that encoding and says nothing), text found UTF-8 encoded twice and repaired,
    /// content marked base64 that is not (kept as published, as feedparser does). The
    /// document is still described by the record; a program written for feedparser's
    /// single flag is not told the feed is broken (the Python package's `bozo` leaves
    /// such records out).
    pub judged: bool,
}

impl Bozo {
    /// A record without a position.
    #[must_use]
    pub fn new(kind: BozoKind, message: impl Into<String>) -> Self {
        Bozo {
            kind,
            message: message.into(),
            position: None,
            judged: false,
        }
    }

    /// The same record, marked [`Bozo::judged`].
    #[must_use]
    pub fn judged(mut self) -> Self {
        self.judged = true;
        self
    }

    /// The same record with a position.
    #[must_use]
    pub fn at(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }
}

impl fmt::Display for Bozo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)?;
        if let Some(p) = self.position {
            match (p.line, p.column, p.offset) {
                (Some(l), Some(c), _) => write!(f, " (line {l}, column {c})")?,
                (_, _, Some(o)) => write!(f, " (byte {o})")?,
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newlines_are_counted_across_chunk_boundaries() {
        let mut next = crate::bytes::tests::below(0x0123_4567_89ab_cdef);
        for _ in 0..300 {
            let len = next(300);
            let b: Vec<u8> = (0..len).map(|_| b"a\n\n\r\xc3"[next(5)]).collect();
            let naive = b.iter().filter(|&&c| c == b'\n').count();
            assert_eq!(count_newlines(&b), naive, "{b:?}");
        }
        // A chunk of nothing but newlines (the most a chunk's sum holds).
        assert_eq!(count_newlines(&[b'\n'; 200]), 200);
    }

    #[test]
    fn position_in_text_counts_lines_and_chars() {
        let text = "ab\ncdé\nfg";
        let p = Position::in_text(text, text.find('f').unwrap());
        assert_eq!((p.line, p.column), (Some(3), Some(1)));
        let p = Position::in_text(text, text.find('é').unwrap() + 2);
        assert_eq!((p.line, p.column), (Some(2), Some(4)));
        // An offset inside a character snaps back to its start.
        let p = Position::in_text(text, text.find('é').unwrap() + 1);
        assert_eq!((p.line, p.column), (Some(2), Some(3)));
    }

    #[test]
    fn display_names_kind_and_position() {
        let b = Bozo::new(BozoKind::NotWellFormed, "mismatched tag").at(Position {
            line: Some(3),
            column: Some(7),
            offset: None,
        });
        assert_eq!(
            b.to_string(),
            "SAXParseException: mismatched tag (line 3, column 7)"
        );
    }
}
