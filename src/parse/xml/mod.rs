//! RSS, Atom and CDF: decoded text into the feed model, by a strict quick-xml pass, then
//! — only when the markup is broken — one lenient pass with a tolerant tokenizer of our
//! own.
//!
//! quick-xml reads the markup; inside the root element, the strict pass takes text
//! runs, references and CDATA sections from the text itself and moves quick-xml past
//! them (`own_event`), because quick-xml checks every event for UTF-8 again, which a
//! `&str` needs no more and which was the largest single cost of a parse.
//!
//! Both passes drive the same builder (feedparser's element handlers and precedence
//! rules), so a well-formed and a broken rendering of the same feed give the same result.
//! A well-formedness failure becomes a [`crate::BozoKind::NotWellFormed`] record (JSON type
//! `SAXParseException`) with a line and column; the lenient pass then recovers what it can:
//! undefined HTML entities, bare `&`, mismatched and unclosed tags, unescaped HTML, junk
//! around the root element, truncation.
//!
//! The lenient pass does not start over: it goes on from where the strict pass stopped,
//! with the same driver, since everything before that point was well-formed and is
//! already in the model (a feed truncated near its end costs one parse, not two). The
//! result is what a lenient pass from the start gives (a test breaks feeds at every byte
//! in nine ways to check it), with one difference, on purpose: attribute values before
//! the break are normalized as XML says (a tab or line end reads as a space), as they are
//! when the same feed is not broken. An undeclared prefix hands over too: the declarations
//! its start tag had put into scope are taken back, and the lenient pass reads the tag
//! afresh. Only a document without a root element is read again from the start.
//!
//! Each entry leaves the builder as soon as it is final (the next one starts, or the
//! document ends): into the result, or to an entry sink (the JSON writer, which
//! writes it out and frees it).
//!
//! Safety: no DTD or external entity is ever fetched. Internal entity declarations are
//! honoured only in feedparser's "safe" form (plain text or one character reference),
//! which cannot nest, and their total expansion is bounded by
//! [`ParseOptions::max_entity_expansion`].
//!
//! # Layout
//!
//! ```text
//! xml/
//! ├── mod.rs          the two passes joined: strict, then lenient from where it stopped
//! ├── strict.rs       the strict pass: quick-xml with every check, events read from the
//! │                   text itself inside the root, plain text and reference runs ahead
//! ├── lenient.rs      the tolerant tokenizer of the second pass
//! ├── incremental.rs  the same driver over a `BufRead`, an entry at a time (`FeedReader`)
//! ├── events.rs       one quick-xml event routed to the builder (shared by the strict
//! │                   pass and the incremental reader), references read strictly
//! ├── driver.rs       the driver: start and end tags, open elements, depth, the hand-over
//! ├── names.rs        element names resolved once (`Name`: tag, handler key, namespace
//! │                   handlers), cached per scope and across feeds of one thread
//! ├── scopes.rs       namespace declarations in scope
//! ├── attrs.rs        a start tag's attributes, read strictly or leniently, made unique
//! ├── chars.rs        XML characters and names, checked on bytes
//! ├── doctype.rs      the DOCTYPE: `rss091n`, safe internal entities and their budget
//! ├── limits.rs       the limits of the options, each recorded once
//! ├── builder.rs      the shared machinery: the element stack, contexts (feed, entry,
//! │                   image, text input, source), push/pop of text with its content
//! │                   parameters, xml:base and xml:lang, inline XHTML
//! ├── core/           the core formats, whose elements have no prefix
//! │   ├── mod.rs      their start/end dispatch (one match each)
//! │   ├── rss.rs      RSS 0.9x, 1.0, 2.0: version, channel, item, image, guid, source …
//! │   ├── atom.rs     Atom 0.3, 1.0: feed, link, generator, person URIs
//! │   ├── cdf.rs      CDF: root channel, lastmod/href, abstract
//! │   └── constructs.rs  shared with the namespaces: persons, text constructs,
//! │                   content, dates, categories
//! ├── ns/             one module per namespace with handlers of its own
//! │   ├── mod.rs      URI → prefix (`canonical_prefix`) and the registration table
//! │   │               (prefix → handlers)
//! │   ├── dc.rs dcterms.rs itunes.rs media.rs georss.rs gml.rs psc.rs
//! │   ├── cc.rs       cc and creativeCommons
//! │   ├── admin.rs content.rs feedburner.rs xhtml.rs
//! │   ├── podcast.rs  Podcasting 2.0: captures its elements whole, before any handler
//! │   └── geo.rs      GeoJSON values of GeoRSS, GML and Podlove
//! ├── record.rs       where values are stored: the typed Feed and Entry filled in
//! │                   place (`Record`), and `Slots`, the one interface handlers store
//! │                   through, whatever the context
//! ├── convert.rs      a builder value moved into a typed field (`FromV`), and the
//! │                   model's `Keys`, generated from its field lists
//! ├── dict.rs         the dictionaries for what the model keeps as JSON maps (source,
//! │                   image, text input, `where`, media objects, unknown keys)
//! └── text.rs         value helpers (escapes, repairs, base64, HTML guess, e-mail)
//! ```
//!
//! The driver resolves each qualified name once to feedparser's key (`dc_creator`,
//! `title`) and, by the key's prefix, to its namespace's handlers; the builder calls them
//! on start and end tags and falls back to generic handling (attributes kept as an object,
//! or the text kept under the key) when they decline.
//!
//! **Where does a new namespace go?** Into `ns/NAME.rs`, with a
//! `pub(in crate::parse::xml) static HANDLERS` whose `start` and `end` match the keys
//! `NAME_*`, plus one line in `ns::TABLE` (and its URI in `ns::canonical_prefix` if it
//! is not there). A namespace whose elements are simple values (`sy`, `slash`, `wfw`)
//! needs no module: the generic handling keeps them. A namespace that must keep nested
//! elements to itself captures them before dispatch, as `ns/podcast.rs` does.
//!
//! Outside this module: HTML values (text constructs of type HTML or XHTML) are
//! sanitized and their URIs resolved by [`crate::html`], called from the builder's pop
//! of such a value. The builder fills the model in place: a key feedparser stores on the
//! feed or an entry goes straight into its typed field of [`crate::model::Feed`] or
//! [`crate::model::Entry`] (one `match` on the key, generated from the model's field
//! lists in `convert.rs`), text details, categories, links and persons are built as the
//! model's `Text`, `Tag`, `Link` and `Person`, and a text construct shares its string
//! with its details. Only what the model itself keeps as JSON (map-valued fields such as
//! `image` and `where`, and `extra`, the keys it has no field for) is built as a
//! dictionary first (`record.rs` says why).

mod attrs;
mod builder;
mod chars;
mod convert;
mod core;
pub(crate) mod dict;
mod doctype;
mod driver;
mod events;
pub(crate) mod incremental;
mod lenient;
mod limits;
mod names;
mod ns;

/// How the parser compares namespace URIs (for [`crate::parse::ExtraNamespaces`]).
pub(crate) use ns::ns_key;
mod params;
pub(crate) mod record;
mod scopes;
mod strict;
pub(crate) mod text;

use std::borrow::Cow;
use std::rc::Rc;

use crate::bozo::{Bozo, Position};
use crate::model::ParsedFeed;
use crate::parse::{ParseOptions, SharedSink};
use doctype::scan_doctype;
use driver::Driver;
use strict::strict_pass;

/// An attribute as the builder takes it: its lower-cased name and its value, borrowed
/// from the text when neither needed a change.
pub(crate) type Attr<'a> = (Cow<'a, str>, Cow<'a, str>);

/// The attributes of a start tag, in document order.
pub(crate) type Attrs<'a> = Vec<Attr<'a>>;

/// Parses decoded XML feed text ([`crate::parse::parse_str`]), the entries going to `sink`
/// (when given) rather than into the result.
pub(crate) fn parse_into(
    text: &str,
    options: &ParseOptions,
    sink: Option<&SharedSink>,
) -> ParsedFeed {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skipped = text.len() - body.len();
    let dt = scan_doctype(body);
    match strict_pass(body, options, &dt, sink) {
        Ok(driver) => driver.finish(dt.version, Vec::new()),
        Err(stopped) => {
            let at = Position::in_text(text, stopped.offset + skipped);
            let record = Bozo::new(stopped.kind, stopped.message).at(at);
            // The lenient pass goes on where the strict one stopped (everything before
            // was well-formed and is already in the driver), else starts over.
            let resumed = stopped
                .resume
                .and_then(|(driver, from)| Some((driver, body.get(from..)?)));
            let mut driver = match resumed {
                Some((mut driver, rest)) => {
                    lenient::run(rest, &mut driver);
                    *driver
                }
                None => {
                    let mut driver =
                        Driver::new(Cow::Borrowed(options), false, dt.entities.clone());
                    if let Some(sink) = sink {
                        sink.borrow_mut().restart();
                        driver.builder.sink = Some(Rc::clone(sink));
                    }
                    lenient::run(body, &mut driver);
                    driver
                }
            };
            driver.close_all();
            driver.finish(dt.version, vec![record])
        }
    }
}

/// Runs only the lenient pass, as if the strict pass had failed (no bozo record is added
/// for that). Useful to compare both passes and to test recovery.
#[must_use]
#[cfg(test)]
pub(crate) fn parse_str_lenient(text: &str, options: &ParseOptions) -> ParsedFeed {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let dt = scan_doctype(body);
    let mut driver = Driver::new(Cow::Borrowed(options), false, dt.entities.clone());
    lenient::run(body, &mut driver);
    driver.close_all();
    driver.finish(dt.version, Vec::new())
}

#[cfg(test)]
mod tests;
