//! The strict pass: quick-xml with every well-formedness check on, stopping at the first
//! failure (with what the lenient pass needs to go on from there). Inside the root
//! element, it reads events from the text itself ([`own_event`]) and takes plain text and
//! runs of references ahead of their events.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::events::{BytesCData, BytesEnd, BytesRef, BytesStart, BytesText, Event};

use super::chars::{first_non_xml_char, is_xml_space};
use super::doctype::Doctype;
use super::driver::Driver;
use super::events::{Failure, expat_error, undeclared};
use super::text;
use crate::bozo::BozoKind;
use crate::parse::{ParseOptions, SharedSink};

/// The longest run of references and text [`Driver::text_run`] reads at once (its
/// buffer, reused, holds one run).
pub(super) const MAX_RUN: usize = 1 << 16;

/// Where and why the strict pass stopped.
pub(super) struct Stopped<'o> {
    pub(super) message: String,
    /// Byte offset of the problem, for the bozo record.
    pub(super) offset: usize,
    pub(super) kind: BozoKind,
    /// The driver and the offset the lenient pass can go on from, when the failing
    /// construct left no trace in the driver's state (the event before it is complete,
    /// nothing of it was applied; an undeclared prefix takes back the declarations of its
    /// start tag first). `None` when there was no root element: the lenient pass then
    /// starts over.
    pub(super) resume: Option<(Box<Driver<'o>>, usize)>,
}

/// The strict pass: the driver, or where and why it stopped on the first
/// well-formedness failure.
pub(super) fn strict_pass<'o>(
    text: &str,
    options: &'o ParseOptions,
    dt: &Doctype,
    sink: Option<&SharedSink>,
) -> Result<Driver<'o>, Stopped<'o>> {
    let mut driver = Driver::new(Cow::Borrowed(options), true, dt.entities.clone());
    driver.builder.sink = sink.cloned();
    // One scan of the whole text instead of one per text, CDATA section and attribute
    // value. When it finds a non-XML character, the events are checked one by one, so
    // that the failure is reported where it is.
    driver.chars_checked = first_non_xml_char(text).is_none();
    driver.no_cr = memchr::memchr(b'\r', text.as_bytes()).is_none();
    let mut reader = Reader::from_str(text);
    {
        let cfg = reader.config_mut();
        cfg.check_end_names = true;
        cfg.check_comments = true;
        cfg.allow_dangling_amp = false;
        cfg.allow_unmatched_ends = false;
    }
    let mut seen_root = false;
    let mut depth = 0usize;
    // A stop at `offset` from which the lenient pass goes on at `from` with this driver.
    let stop = |driver, message: String, offset: usize, from: usize| Stopped {
        message,
        offset,
        kind: BozoKind::NotWellFormed,
        resume: Some((Box::new(driver), from)),
    };
    let mut own_open = OwnOpen::default();
    loop {
        let pos = reader.buffer_position() as usize;
        if depth > 0 {
            let at = text.len() - reader.stream().get_ref().len();
            let rest = &text[at..];
            let taken = match rest.as_bytes().first() {
                None | Some(b'<') => None,
                Some(b'&') => driver.text_run(rest, at),
                Some(b' ' | b'\n' | b'\r' | b'\t') => driver
                    .skip_whitespace(rest.as_bytes())
                    .or_else(|| driver.plain_text(rest)),
                Some(_) => driver.plain_text(rest),
            };
            if let Some(len) = taken {
                std::io::BufRead::consume(&mut reader.stream(), len);
                continue;
            }
        }
        let own = if depth > 0 {
            own_event(text, &mut reader, &mut own_open)
        } else {
            None
        };
        let ev = match own {
            Some(Own::Error(e)) => {
                let (message, at) = expat_error(&e, text, pos);
                return Err(stop(driver, message, at, pos));
            }
            // The event quick-xml would give, without its UTF-8 check of text the
            // decoder already checked.
            Some(Own::Event(ev, len)) => {
                let at = text.len() - reader.stream().get_ref().len();
                std::io::BufRead::consume(&mut reader.stream(), len);
                if matches!(ev, Event::Start(_) | Event::Empty(_) | Event::End(_)) {
                    // Tags go on below, as quick-xml's do.
                    ev
                } else {
                    if matches!(ev, Event::GeneralRef(_))
                        && driver.skipped_depth == 0
                        && driver.builder.text_room_small()
                    {
                        // The element's text runs to the next `<` at most (references
                        // only shrink it): room for it at once.
                        let rest = &text.as_bytes()[at..];
                        driver
                            .builder
                            .reserve_text(memchr::memchr(b'<', rest).unwrap_or(rest.len()));
                    }
                    let done = match &ev {
                        Event::Text(t) => driver.text_event(t, true),
                        _ => driver.quick_event(ev),
                    };
                    if let Err(f) = done {
                        let (m, at, _) = f.at(pos);
                        return Err(stop(driver, m, at, pos));
                    }
                    continue;
                }
            }
            None => match reader.read_event() {
                Ok(ev) => ev,
                Err(e) => {
                    let (message, at) = expat_error(&e, text, reader.error_position() as usize);
                    return Err(stop(driver, message, at, pos));
                }
            },
        };
        match ev {
            Event::Start(_) | Event::Empty(_) if depth == 0 && seen_root => {
                return Err(stop(driver, "junk after document element".into(), pos, pos));
            }
            Event::Start(_) | Event::Empty(_) | Event::End(_) => {
                if matches!(ev, Event::Start(_)) {
                    seen_root = true;
                    depth += 1;
                } else if matches!(ev, Event::Empty(_)) {
                    seen_root = true;
                } else {
                    depth = depth.saturating_sub(1);
                }
                if let Err(f) = driver.quick_event(ev) {
                    return Err(match f {
                        Failure::Malformed(m) | Failure::MalformedAt(m, _) => {
                            stop(driver, m, pos, pos)
                        }
                        // Nothing of the start tag was applied (its declarations were
                        // taken back): the lenient pass reads it from its `<`.
                        Failure::Undeclared(u) => {
                            let (message, offset, kind) = undeclared(u, pos);
                            Stopped {
                                kind,
                                ..stop(driver, message, offset, pos)
                            }
                        }
                    });
                }
            }
            Event::Text(ref t) if depth == 0 => {
                let raw: &str = t;
                if let Some(k) = raw.find(|c: char| !matches!(c, ' ' | '\t' | '\r' | '\n')) {
                    let m = if seen_root {
                        "junk after document element"
                    } else {
                        "syntax error"
                    };
                    return Err(stop(driver, m.into(), pos + k, pos));
                }
            }
            Event::CData(_) | Event::GeneralRef(_) if depth == 0 => {
                return Err(stop(driver, "junk after document element".into(), pos, pos));
            }
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                if let Err(f) = driver.quick_event(ev) {
                    // Text is checked before any of it is applied.
                    let (m, at, _) = f.at(pos);
                    return Err(stop(driver, m, at, pos));
                }
            }
            Event::Eof => {
                if !seen_root {
                    return Err(Stopped {
                        message: "no element found".into(),
                        offset: text.len(),
                        kind: BozoKind::NotWellFormed,
                        resume: None,
                    });
                }
                if depth > 0 {
                    let m = "no element found: unclosed element at end of document";
                    return Err(stop(driver, m.into(), text.len(), text.len()));
                }
                break;
            }
            Event::Decl(_) if pos > 0 => {
                let m = "XML or text declaration not at start of entity";
                return Err(stop(driver, m.into(), pos, pos));
            }
            Event::DocType(_) if seen_root => {
                let m = "syntax error: DOCTYPE after the root element";
                return Err(stop(driver, m.into(), pos, pos));
            }
            // XML names are case-sensitive: `<!doctype html>` (an HTML page) is not a
            // document type declaration, though quick-xml reads one in any case.
            Event::DocType(_)
                if !text
                    .as_bytes()
                    .get(pos..)
                    .is_some_and(|b| b.starts_with(b"<!DOCTYPE")) =>
            {
                let m = "syntax error: `<!DOCTYPE` must be written in capitals";
                return Err(stop(driver, m.into(), pos, pos));
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    Ok(driver)
}

/// The next event inside the root element, read from `text` itself, with the number of
/// bytes it spans; `None` for comments, processing instructions, the root's end tag and
/// whatever quick-xml would report as a syntax error, which quick-xml reads.
///
/// quick-xml's slice reader checks every event for UTF-8 with `str::from_utf8`, although
/// the text it reads from is a `&str` already: a third of a bare scan's time, and the
/// largest single cost of a parse. So the strict pass takes text, references, CDATA
/// sections and tags from `text` and advances quick-xml past them with
/// [`Reader::stream`]. The events are exactly the ones quick-xml would give: text up to
/// the next `<` or `&` (not trimmed), a reference's name up to its `;`, a CDATA
/// section's content up to its `]]>`, a tag up to the first `>` outside quotes (an
/// empty-element tag when a `/` comes before it), an end tag's name without trailing
/// whitespace.
///
/// Only in quick-xml's text state, which this is: its previous event was markup or a
/// reference, so the next byte is neither `<` nor `&` only where text starts. quick-xml
/// keeps the names of the elements it opened to check end tags; those opened here are
/// kept in `open` instead, and an end tag is checked against them with quick-xml's error
/// (quick-xml itself then only ever has the root open, whose end tag it reads).
pub(super) fn own_event<'t>(
    text: &'t str,
    reader: &mut Reader<&[u8]>,
    open: &mut OwnOpen,
) -> Option<Own<'t>> {
    let rest = text.get(text.len() - reader.stream().get_ref().len()..)?;
    let b = rest.as_bytes();
    let event = |ev, len| Some(Own::Event(ev, len));
    match b.first()? {
        b'<' => match b.get(1)? {
            b'!' => {
                let body = b.strip_prefix(b"<![CDATA[")?;
                // One searcher for the process: building one per section costs more
                // than the search in a short one.
                static CDATA_END: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
                    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"]]>"));
                let end = CDATA_END.find(body)?;
                let content = &rest[9..9 + end];
                event(Event::CData(BytesCData::new(content)), 9 + end + 3)
            }
            b'?' => None,
            b'/' => {
                let gt = tag_end(b)?;
                let content = &rest[2..gt];
                // Trailing whitespace is not part of the name (quick-xml's default).
                let name = &content[..content
                    .bytes()
                    .rposition(|c| !is_xml_space(c))
                    .map_or(0, |i| i + 1)];
                // An element quick-xml opened (the root) is closed by quick-xml.
                let start = *open.starts.last()?;
                let expected = &open.names[start..];
                if name != expected {
                    return Some(Own::Error(quick_xml::Error::IllFormed(
                        quick_xml::errors::IllFormedError::MismatchedEndTag {
                            expected: expected.to_owned(),
                            found: name.to_owned(),
                        },
                    )));
                }
                open.names.truncate(start);
                open.starts.pop();
                event(Event::End(BytesEnd::new(name)), gt + 1)
            }
            _ => {
                let gt = tag_end(b)?;
                let content = &rest[1..gt];
                let name_len = |c: &str| c.bytes().position(is_xml_space).unwrap_or(c.len());
                if let Some(inner) = content.strip_suffix('/') {
                    let ev = BytesStart::from_content(inner, name_len(inner));
                    return event(Event::Empty(ev), gt + 1);
                }
                let n = name_len(content);
                open.starts.push(open.names.len());
                open.names.push_str(&content[..n]);
                event(Event::Start(BytesStart::from_content(content, n)), gt + 1)
            }
        },
        b'&' => {
            // A reference closed by `;` before any `&` or `<`; quick-xml words the
            // error of any other.
            let i = crate::bytes::find3(b';', b'&', b'<', &b[1..])?;
            if b[1 + i] != b';' {
                return None;
            }
            event(Event::GeneralRef(BytesRef::new(&rest[1..1 + i])), i + 2)
        }
        _ => {
            // The search for the end also finds `]]>`: a text holding it is left to
            // quick-xml, and [`Driver::quick_event`] stops the strict pass on it (so
            // quick-xml reads no text of ours after its own). The others need no
            // such check.
            let mut n = 0;
            loop {
                n += crate::bytes::find3(b'<', b'&', b']', &b[n..]).unwrap_or(b.len() - n);
                if b.get(n) != Some(&b']') {
                    break;
                }
                if b[n..].starts_with(b"]]>") {
                    return None;
                }
                n += 1;
            }
            event(Event::Text(BytesText::from_escaped(&rest[..n])), n)
        }
    }
}

/// The index of the `>` that closes the tag starting at `b[0]` (`<`), as quick-xml finds
/// it: the first one outside single- or double-quoted values. `None` at the end of the
/// text (quick-xml reports which construct was left open).
pub(super) fn tag_end(b: &[u8]) -> Option<usize> {
    let mut quote = None;
    for i in memchr::memchr3_iter(b'>', b'\'', b'"', b) {
        match (quote, b[i]) {
            (None, b'>') => return Some(i),
            (None, q) => quote = Some(q),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    None
}

/// The names of the elements the strict pass opened itself (every one inside the root),
/// innermost last, kept as quick-xml keeps its own: [`own_event`] checks end tags
/// against them.
#[derive(Default)]
pub(super) struct OwnOpen {
    pub(super) names: String,
    pub(super) starts: Vec<usize>,
}

/// What [`own_event`] read.
pub(super) enum Own<'t> {
    /// An event, and the number of bytes it spans.
    Event(Event<'t>, usize),
    /// An end tag that does not close the innermost element: quick-xml's error for it.
    Error(quick_xml::Error),
}

impl<'o> Driver<'o> {
    /// References and text up to the next `<` (`rest` starts at a reference inside an
    /// element), as one piece of text: the bytes taken, or `None` to read them event by
    /// event. Escaped markup (an HTML summary in RSS or Atom) is mostly references, and
    /// each event costs more than the characters it holds; read as one run, the element's
    /// text gets one call. Only the plain case is taken: in the strict pass over a text
    /// whose characters and line ends were checked once, outside skipped elements and
    /// inline XHTML (which keeps each piece), a run whose references are all predefined
    /// or character references. Anything else (`]`, a custom entity, a reference that is
    /// not well-formed) goes event by event, which reports it where it is.
    pub(super) fn text_run(&mut self, rest: &str, at: usize) -> Option<usize> {
        // A run declined once is read event by event to its end: not looked at again
        // at each of its references (which would be quadratic in its length).
        if at < self.no_run_before
            || !self.reads_ahead()
            || self.skipped_depth > 0
            || self.builder.in_xhtml()
        {
            return None;
        }
        let b = rest.as_bytes();
        // From a reference (the text before the first one is an event of its own).
        if b.first() != Some(&b'&') {
            return None;
        }
        let Some(end) = memchr::memchr(b'<', b) else {
            self.no_run_before = at + b.len();
            return None;
        };
        #[cfg(test)]
        super::tests::RUN_BYTES_SEEN.set(super::tests::RUN_BYTES_SEEN.get() + end);
        let run = &b[..end];
        // A long run goes event by event: its text is not held twice.
        if end > MAX_RUN || memchr::memchr(b']', run).is_some() {
            self.no_run_before = at + end;
            return None;
        }
        let mut amp = 0;
        let mut out = std::mem::take(&mut self.run);
        out.clear();
        let mut copied = 0;
        let decoded = loop {
            out.push_str(&rest[copied..amp]);
            let body = amp + 1;
            // The name ends at `;`; an `&` first is not well-formed.
            let Some(semi) = memchr::memchr2(b';', b'&', &run[body..]).map(|k| body + k) else {
                break false;
            };
            if run[semi] != b';' {
                break false;
            }
            let name = &rest[body..semi];
            if name.starts_with('#') {
                match text::strict_char_ref(name) {
                    Ok(c) => out.push(c),
                    Err(_) => break false,
                }
            } else if let Some(v) = text::xml_entity(name) {
                out.push_str(v);
            } else {
                break false;
            }
            copied = semi + 1;
            match memchr::memchr(b'&', &run[copied..]) {
                Some(k) => amp = copied + k,
                None => {
                    out.push_str(&rest[copied..end]);
                    break true;
                }
            }
        };
        if decoded {
            self.text(&out, true);
        } else {
            self.no_run_before = at + end;
        }
        self.run = out;
        decoded.then_some(end)
    }

    /// Whether text may be taken ahead of its events ([`Driver::text_run`],
    /// [`Driver::plain_text`]): in the strict pass, over a text whose characters and line
    /// ends were checked once (and, in tests, unless event by event is asked for).
    fn reads_ahead(&self) -> bool {
        #[cfg(test)]
        if super::tests::EVENT_BY_EVENT.get() {
            return false;
        }
        self.strict && self.chars_checked && self.no_cr
    }

    /// Text up to the next `<` without references, `]` or anything else to look at,
    /// handed to the builder at once (the bytes taken), rather than as an event: an
    /// element's usual text. `None` where the event-by-event reading has work to do.
    fn plain_text(&mut self, rest: &str) -> Option<usize> {
        if !self.reads_ahead() {
            return None;
        }
        let n = crate::bytes::find3(b'<', b'&', b']', rest.as_bytes())?;
        if rest.as_bytes()[n] != b'<' {
            return None;
        }
        self.text(&rest[..n], true);
        Some(n)
    }

    /// Whitespace up to the next `<` where text goes nowhere (between the children of a
    /// channel, feed, item or entry): the bytes to skip, or `None` to read it as text.
    /// Such text is one event per line break of a feed, which the builder would drop.
    fn skip_whitespace(&self, rest: &[u8]) -> Option<usize> {
        #[cfg(test)]
        if super::tests::EVENT_BY_EVENT.get() {
            return None;
        }
        if !self.builder.discards_text() {
            return None;
        }
        let n = rest
            .iter()
            .position(|&c| !matches!(c, b' ' | b'\n' | b'\r' | b'\t'))?;
        (rest[n] == b'<').then_some(n)
    }
}
