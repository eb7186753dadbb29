//! One quick-xml event routed to the builder: the step the strict pass and the
//! incremental reader share, and the strict reading of references.

use std::borrow::Cow;

use quick_xml::events::{BytesText, Event};

use super::chars::{CDATA_END_IN_TEXT, check_text, holds_cdata_end, invalid_char, scan_text};
use super::driver::{Driver, Undeclared};
use super::{lenient, text};
use crate::bozo::BozoKind;

/// Why the strict pass stops at an event.
pub(super) enum Failure {
    /// Not well-formed: the message.
    Malformed(String),
    /// Not well-formed, this many bytes past the event's start: the message.
    MalformedAt(String, usize),
    /// An undeclared namespace prefix.
    Undeclared(Undeclared),
}

impl Failure {
    /// The strict pass's error at byte offset `pos`.
    pub(super) fn at(self, pos: usize) -> (String, usize, BozoKind) {
        match self {
            Failure::Malformed(m) => (m, pos, BozoKind::NotWellFormed),
            Failure::MalformedAt(m, past) => (m, pos + past, BozoKind::NotWellFormed),
            Failure::Undeclared(u) => undeclared(u, pos),
        }
    }
}

/// The record of an undeclared namespace prefix at byte offset `pos`: expat's name for
/// it ("unbound prefix", the message feedparser reports), then feedparser's own words.
pub(super) fn undeclared(f: Undeclared, pos: usize) -> (String, usize, BozoKind) {
    (
        format!(
            "unbound prefix: '{}' is not associated with a namespace",
            f.0
        ),
        pos,
        BozoKind::UndeclaredNamespace,
    )
}

/// A quick-xml error as the strict pass reports it: the name Python's XML parser
/// (expat, which feedparser uses) gives the problem, then quick-xml's own words for it
/// ("mismatched tag: expected `</title>`, but `</channel>` was found"), so that programs
/// matching feedparser's messages (`"mismatched tag" in str(exc)`) still match; and the
/// offset to report for an error found at `at` in `text`, where expat reports it: an
/// end tag closing the wrong element at its name, a stray one after the root element
/// past its `<`.
pub(super) fn expat_error(e: &quick_xml::Error, text: &str, at: usize) -> (String, usize) {
    use quick_xml::Error as E;
    use quick_xml::errors::{IllFormedError as I, SyntaxError as S};
    let end_tag = text.as_bytes().get(at..at + 2) == Some(b"</");
    let (name, at) = match e {
        E::IllFormed(I::MismatchedEndTag { .. }) => {
            ("mismatched tag", at + 2 * usize::from(end_tag))
        }
        // Inside the root element every end tag closes an open element: this one comes
        // after the root.
        E::IllFormed(I::UnmatchedEndTag(_)) => {
            ("not well-formed (invalid token)", at + usize::from(end_tag))
        }
        E::IllFormed(I::MissingEndTag(_)) => ("no element found", at),
        E::IllFormed(I::MissingDeclVersion(_) | I::UnknownVersion)
        | E::Syntax(S::UnclosedXmlDecl) => ("XML declaration not well-formed", at),
        E::Syntax(S::UnclosedCData) => ("unclosed CDATA section", at),
        E::IllFormed(I::UnclosedReference) => reference_stop(text, at),
        E::Syntax(_) => ("unclosed token", at),
        E::InvalidAttr(quick_xml::events::attributes::AttrError::Duplicated(..)) => {
            ("duplicate attribute", at)
        }
        E::Escape(_) => ("undefined entity", at),
        E::Namespace(_) => ("unbound prefix", at),
        E::Io(_) => return (e.to_string(), at),
        _ => ("not well-formed (invalid token)", at),
    };
    // quick-xml's words without its own heading ("ill-formed document: ", "syntax
    // error: "), which the name replaces.
    let detail = match e {
        E::IllFormed(I::UnclosedReference) => "a reference `;` does not close".to_owned(),
        E::IllFormed(inner) => inner.to_string(),
        E::Syntax(inner) => inner.to_string(),
        E::InvalidAttr(inner) => inner.to_string(),
        other => other.to_string(),
    };
    (format!("{name}: {detail}"), at)
}

/// Where expat stops in a reference no `;` closes (`&b=2`, `&#12 `), `at` its `&`: at
/// the first character that cannot go on with it, "not well-formed (invalid token)";
/// when the text ends first, an "unclosed token" at the `&`.
fn reference_stop(text: &str, at: usize) -> (&'static str, usize) {
    let Some(body) = text.get(at..).and_then(|r| r.strip_prefix('&')) else {
        return ("unclosed token", at);
    };
    let mut chars = body.char_indices().peekable();
    let number = chars.next_if(|&(_, c)| c == '#').is_some();
    let hex = number && chars.next_if(|&(_, c)| c == 'x').is_some();
    for (i, c) in chars {
        let goes_on = match (number, hex) {
            (true, true) => c.is_ascii_hexdigit(),
            (true, false) => c.is_ascii_digit(),
            _ => c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | ':') || !c.is_ascii(),
        };
        if !goes_on {
            return ("not well-formed (invalid token)", at + 1 + i);
        }
    }
    ("unclosed token", at)
}

impl<'o> Driver<'o> {
    /// Routes one quick-xml event inside the document to the builder: the step the strict
    /// pass and the streaming reader ([`stream`]) share. A strict driver checks
    /// well-formedness (names, attribute values, characters, references) and fails on the
    /// first problem; a lenient one never fails and reads attributes and references as
    /// the lenient pass does (HTML entities resolved, unknown ones kept as written,
    /// valueless attributes read as empty, HTML void elements closed inside content).
    /// Prolog events (declaration, DOCTYPE, comments, PIs) are ignored.
    pub(super) fn quick_event(&mut self, ev: Event<'_>) -> Result<(), Failure> {
        match ev {
            Event::Start(e) => {
                let attrs = self.quick_attrs(&e)?;
                let name = e.name();
                self.start(name.as_ref(), attrs)
                    .map_err(Failure::Undeclared)?;
                if !self.strict && self.void_in_content(name.as_ref()) {
                    self.end(name.as_ref());
                }
            }
            Event::Empty(e) => {
                let attrs = self.quick_attrs(&e)?;
                let name = e.name();
                self.start(name.as_ref(), attrs)
                    .map_err(Failure::Undeclared)?;
                self.end(name.as_ref());
            }
            Event::End(e) => self.end(e.name().as_ref()),
            Event::Text(t) => self.text_event(&t, false)?,
            Event::CData(c) => {
                let raw: &str = &c;
                let s = if !self.no_cr && memchr::memchr(b'\r', raw.as_bytes()).is_some() {
                    c.xml_content(quick_xml::XmlVersion::Implicit1_0)
                } else {
                    Cow::Borrowed(raw)
                };
                if self.strict && !self.chars_checked {
                    check_text(&s).map_err(Failure::Malformed)?;
                }
                self.text(&s, true);
            }
            Event::GeneralRef(r) => {
                let name = r.into_inner();
                if self.strict {
                    self.strict_ref(&name)?;
                } else {
                    let (text, known) = lenient::reference(&name, self);
                    self.text(&text, known);
                }
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) | Event::Eof => {}
        }
        Ok(())
    }

    /// A text event. `no_cdata_end`: the text is known to hold no `]]>` ([`own_event`]
    /// looked for it while finding the text's end), so it needs no search of its own.
    pub(super) fn text_event(
        &mut self,
        t: &BytesText<'_>,
        no_cdata_end: bool,
    ) -> Result<(), Failure> {
        // Line ends normalized as XML 1.0 says; a text without a carriage return (almost
        // every one) is taken as it is, without that second pass.
        let raw: &str = t;
        let s = if !self.no_cr && memchr::memchr(b'\r', raw.as_bytes()).is_some() {
            t.xml_content(quick_xml::XmlVersion::Implicit1_0)
        } else {
            Cow::Borrowed(raw)
        };
        if self.strict && self.chars_checked {
            if !no_cdata_end && holds_cdata_end(&s) {
                return Err(Failure::Malformed(CDATA_END_IN_TEXT.into()));
            }
        } else if self.strict {
            match scan_text(&s, true) {
                (Some(c), _) => return Err(Failure::Malformed(invalid_char(c))),
                (None, true) => {
                    return Err(Failure::Malformed(CDATA_END_IN_TEXT.into()));
                }
                (None, false) => {}
            }
        }
        self.text(&s, true);
        Ok(())
    }

    /// A reference in text, resolved strictly.
    fn strict_ref(&mut self, name: &str) -> Result<(), Failure> {
        if name.starts_with('#') {
            match text::strict_char_ref(name) {
                Ok(c) => self.text(c.encode_utf8(&mut [0; 4]), true),
                Err((what, past)) => {
                    return Err(Failure::MalformedAt(format!("{what}: &{name};"), past));
                }
            }
        } else if let Some(v) = text::xml_entity(name) {
            self.text(v, true);
        } else if let Some(v) = self.entity(name) {
            self.text(&v, true);
        } else {
            return Err(Failure::Malformed(format!("undefined entity: &{name};")));
        }
        Ok(())
    }
}
