//! The parse side of [`crate::stream`]: quick-xml events read from a `BufRead` of UTF-8
//! text, routed by the lenient [`Driver`] through [`Driver::quick_event`] (the step the
//! strict pass uses too) into the one builder, with each entry taken out of the builder
//! as soon as it is final.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::BufRead;

use quick_xml::Reader;
use quick_xml::events::Event;

use super::doctype::scan_doctype;
use super::driver::Driver;
use crate::bozo::{Bozo, BozoKind, Position};
use crate::model::{Entry, Feed, ParsedFeed};
use crate::parse::ParseOptions;

/// What the parser has to say next.
pub(crate) enum Next {
    /// The channel metadata read before the first entry (or all of it, without entries).
    Feed(Feed),
    /// One entry, final.
    Entry(Entry),
    /// The end: the whole metadata, version, namespaces and markup bozo records (its
    /// `entries` is empty: they were all handed out).
    End(ParsedFeed),
}

enum State {
    Reading,
    /// The input ended or a limit stopped it: the queued entries, then the metadata (if
    /// not handed out yet), then the end.
    Ending,
    Done,
}

/// Streams a feed's events into the builder.
pub(crate) struct StreamParser<R: BufRead> {
    reader: Reader<R>,
    buf: Vec<u8>,
    driver: Option<Driver<'static>>,
    doctype_version: Option<&'static str>,
    /// Final entries not handed out yet (at most a few: one closes, the next may start).
    pending: VecDeque<Entry>,
    handed_out: usize,
    max_entries: usize,
    feed_sent: bool,
    state: State,
    bozo: Vec<Bozo>,
    /// Tokenizer errors after the first (which is recorded with its position).
    more_errors: usize,
    last_error_at: Option<u64>,
}

impl<R: BufRead> StreamParser<R> {
    /// A parser over `text`; `prolog` is the start of the same text (at least up to the
    /// root element when it fits), read for the DOCTYPE's entities and version.
    pub(crate) fn new(text: R, options: ParseOptions, prolog: &str) -> Self {
        let dt = scan_doctype(prolog.strip_prefix('\u{feff}').unwrap_or(prolog));
        let max_entries = options.max_entries.max(1);
        // The stream hands its entries out: nothing accumulates, so no budget for keys.
        let options = options.max_unknown_elements(usize::MAX);
        let mut driver = Driver::new(Cow::Owned(options), false, dt.entities);
        // Entries leave the builder as they close; the limit is kept here instead.
        driver.builder.max_entries = usize::MAX;
        let mut reader = Reader::from_reader(text);
        {
            let cfg = reader.config_mut();
            cfg.check_end_names = false;
            cfg.check_comments = false;
            cfg.allow_dangling_amp = true;
            cfg.allow_unmatched_ends = true;
        }
        StreamParser {
            reader,
            buf: Vec::with_capacity(8 * 1024),
            driver: Some(driver),
            doctype_version: dt.version,
            pending: VecDeque::new(),
            handed_out: 0,
            max_entries,
            feed_sent: false,
            state: State::Reading,
            bozo: Vec::new(),
            more_errors: 0,
            last_error_at: None,
        }
    }

    /// The text source (to ask the transcoder what it found).
    pub(crate) fn source(&self) -> &R {
        self.reader.get_ref()
    }

    fn feed_snapshot(driver: &Driver<'_>) -> Feed {
        driver.builder.feed.clone().finish()
    }

    /// The next item, `None` after [`Next::End`].
    pub(crate) fn next_item(&mut self) -> Option<Next> {
        loop {
            match self.state {
                State::Done => return None,
                State::Ending => {
                    // The metadata first, even when the input ended with entries pending.
                    let driver = self.driver.as_ref()?;
                    if !self.feed_sent {
                        self.feed_sent = true;
                        return Some(Next::Feed(Self::feed_snapshot(driver)));
                    }
                    if let Some(e) = self.pending.pop_front() {
                        self.handed_out += 1;
                        return Some(Next::Entry(e));
                    }
                    self.state = State::Done;
                    let driver = self.driver.take()?;
                    let bozo = std::mem::take(&mut self.bozo);
                    let mut parsed = driver.finish(self.doctype_version, bozo);
                    if self.more_errors > 0
                        && let Some(first) = parsed
                            .bozo
                            .iter_mut()
                            .find(|b| b.kind == BozoKind::NotWellFormed)
                    {
                        first.message = format!(
                            "{} (and {} more markup errors)",
                            first.message, self.more_errors
                        );
                    }
                    parsed.entries.clear();
                    return Some(Next::End(parsed));
                }
                State::Reading => {
                    // Entries are handed out only after the metadata before them.
                    if self.feed_sent
                        && let Some(e) = self.pending.pop_front()
                    {
                        self.handed_out += 1;
                        return Some(Next::Entry(e));
                    }
                    if let Some(item) = self.step() {
                        return Some(item);
                    }
                }
            }
        }
    }

    /// Reads one event; returns the metadata when the first entry has just started.
    fn step(&mut self) -> Option<Next> {
        let driver = self.driver.as_mut()?;
        self.buf.clear();
        let pos = self.reader.buffer_position();
        match self.reader.read_event_into(&mut self.buf) {
            Ok(Event::Eof) => {
                // What is still open closes, as in the lenient pass (a truncated feed).
                driver.close_all();
                Self::collect(driver, &mut self.pending);
                self.state = State::Ending;
                None
            }
            Ok(ev) => {
                let _ = driver.quick_event(ev);
                Self::collect(driver, &mut self.pending);
                // An entry still in the builder is open (the final ones were taken).
                let started = !driver.builder.entries.is_empty();
                let seen = self.handed_out + self.pending.len() + driver.builder.entries.len();
                if seen > self.max_entries {
                    // More entries than allowed have started: drop the extra ones and
                    // stop reading. (Closing what is open would write its elements to
                    // the feed, so nothing is closed.)
                    driver.builder.entries.clear();
                    self.pending
                        .truncate(self.max_entries.saturating_sub(self.handed_out));
                    let max = self.max_entries;
                    self.bozo.push(Bozo::new(
                        BozoKind::LimitExceeded,
                        format!(
                            "more than {max} entries (ParseOptions::max_entries): the stream \
                             stopped after the first {max}, the rest was not read"
                        ),
                    ));
                    self.state = State::Ending;
                }
                if !self.feed_sent && started {
                    self.feed_sent = true;
                    return Some(Next::Feed(Self::feed_snapshot(driver)));
                }
                None
            }
            Err(quick_xml::Error::Io(e)) => {
                // What was read is kept and closed, as for a truncated feed.
                self.bozo.push(Bozo::new(
                    BozoKind::Transport,
                    format!("reading the feed failed part way: {e}"),
                ));
                driver.close_all();
                Self::collect(driver, &mut self.pending);
                self.state = State::Ending;
                None
            }
            Err(e) => {
                if matches!(
                    e,
                    quick_xml::Error::Syntax(quick_xml::errors::SyntaxError::UnclosedCData)
                ) {
                    // As in the lenient pass, a CDATA section cut off by the end of the
                    // input keeps its text.
                    let raw = String::from_utf8_lossy(&self.buf);
                    if let Some(i) = raw.find("[CDATA[") {
                        let text = raw[i + 7..].to_owned();
                        driver.text(&text, true);
                    }
                }
                let at = self.reader.buffer_position();
                if self.last_error_at.is_none() {
                    let offset = usize::try_from(pos).unwrap_or(usize::MAX);
                    // The stream's text is not at hand here: the offset stays where the
                    // reader stopped.
                    let (message, _) = super::events::expat_error(&e, "", offset);
                    self.bozo.push(
                        Bozo::new(BozoKind::NotWellFormed, message).at(Position::at_offset(offset)),
                    );
                } else {
                    self.more_errors += 1;
                }
                if self.last_error_at == Some(at) {
                    // No progress since the last error: the tokenizer is stuck.
                    driver.close_all();
                    Self::collect(driver, &mut self.pending);
                    self.state = State::Ending;
                }
                self.last_error_at = Some(at);
                None
            }
        }
    }

    fn collect(driver: &mut Driver<'_>, pending: &mut VecDeque<Entry>) {
        while let Some(e) = driver.builder.take_final_entry() {
            pending.push_back(e);
        }
    }
}
