//! Parsing decoded text into the feed model. The parsers take text, never bytes (the
//! decoding is done, [`mod@crate::decode`]), and never fail: every problem becomes a bozo
//! record on the result.
//!
//! - `xml/`: RSS 0.9x/1.0/2.0, Atom 0.3/1.0 and CDF ([`parse_str`]): a strict quick-xml
//!   pass, then a lenient one where the markup is broken, driving one builder with
//!   feedparser's element handlers, one file per namespace.
//! - [`jsonfeed`]: JSON Feed 1.0 and 1.1 ([`jsonfeed::parse_json`]), mapped straight
//!   into the model.
//!
//! The format switch: the format of a body is decided on its bytes
//! ([`crate::decode::format::detect`]: the first character, then the media type); a body sent
//! to JSON that holds no JSON Feed at all (nothing readable, no version) but markup goes
//! on to the XML parser (`parse_json_or_markup`). Both parsers hand each entry over as
//! soon as it is final, into the result or to an entry sink (`EntrySink`, the JSON
//! writer's), and both take the same [`ParseOptions`].

pub mod jsonfeed;
pub(crate) mod xml;

/// feedparser's guess whether a plain text is really HTML (what the RSS and JSON Feed
/// readers ask of every plain value): a closing tag or an entity, every tag an
/// acceptable element (`policy`'s, else feedparser's), every entity an HTML one.
pub use xml::text::looks_like_html;

use std::rc::Rc;
use std::sync::Arc;

use crate::html::SanitizePolicy;
use crate::model::{Entry, ParsedFeed};

/// Options for [`parse_str`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Elements nested deeper than this are skipped (with their content) and a
    /// `LimitExceeded` record is added.
    ///
    /// Default: 512.
    pub max_depth: usize,
    /// At most this many entries are kept (the last one is overwritten beyond it) and a
    /// `LimitExceeded` record is added. An entry costs under 1 KB of memory before its
    /// text, so the default bounds a feed of empty entries to about 55 MB whatever its
    /// size, while a real feed (a few thousand entries at most) is never cut.
    ///
    /// Default: 50,000.
    pub max_entries: usize,
    /// The total number of bytes internal DTD entity references may expand to; beyond it
    /// references are left unexpanded and a `LimitExceeded` record is added.
    ///
    /// Default: 1 MiB (1,048,576).
    pub max_entity_expansion: usize,
    /// At most this many attributes (namespace declarations included) of one element are
    /// read; the rest are ignored and a `LimitExceeded` record is added. Real feeds use a
    /// handful; the limit keeps an element with a million attributes from costing a
    /// hundred bytes of memory per attribute.
    ///
    /// Default: 1,024.
    pub max_attributes: usize,
    /// At most this many keys of elements the model has no typed field for (unknown
    /// elements and the namespaced ones kept in `extra`, `itunes_*` included) are
    /// created in the whole document;
    /// beyond it such elements are skipped and a `LimitExceeded` record is added. Such a
    /// key costs about 200 bytes of memory against 15 bytes of input at least, so
    /// without it an entry made of a million `<eN>x</eN>` would cost far more than 3× its
    /// size. Real feeds hold a few per entry: the default allows five for each of
    /// [`ParseOptions::max_entries`]. Not applied by the streaming reader, which does not
    /// keep its entries.
    ///
    /// Default: 250,000.
    pub max_unknown_elements: usize,
    /// The language to assume before any `xml:lang` (e.g. from HTTP
    /// `Content-Language`).
    ///
    /// Default: `None`.
    pub base_language: Option<String>,
    /// The URI to resolve relative references against before any `xml:base` (e.g. the
    /// feed's URL or HTTP `Content-Location`).
    ///
    /// Default: `None`.
    pub base_uri: Option<String>,
    /// Sanitize every HTML value (feedparser's `sanitize_html`): unsafe elements,
    /// attributes, CSS and URI schemes are removed, see [`crate::html`].
    ///
    /// Default: `true`.
    pub sanitize_html: bool,
    /// Resolve relative URIs inside HTML values against `xml:base` and the document's
    /// base (feedparser's `resolve_relative_uris`), see [`crate::html`].
    ///
    /// Default: `true`.
    pub resolve_relative_uris: bool,
    /// The allow-lists HTML values are sanitized with, when not feedparser's (as a
    /// program changes feedparser's `_HTMLSanitizer` sets): every HTML value of the parse
    /// uses them, and so does the guess whether a plain RSS text is HTML (every tag of it
    /// must be on [`AllowList::Elements`](crate::html::AllowList::Elements)). See
    /// [`SanitizePolicy`] for what they decide and what stays enforced.
    ///
    /// Default: `None`, feedparser 6.0.14's lists, compiled in (the fastest path).
    pub sanitize_policy: Option<Arc<SanitizePolicy>>,
    /// Elements the calling program handles itself (feedparser's `_start_…`/`_end_…`
    /// methods a program adds to its parser class, by element key): an element of one of
    /// these keys that this crate reads no field from is not stored under its key; each
    /// of its start and end tags becomes a [`crate::HandlerCall`] in the result instead,
    /// for the program's handler to be called with (the Python package does).
    ///
    /// Default: `None`.
    pub handlers: Option<Arc<ElementHandlers>>,
    /// Namespaces the calling program gives a prefix of its own (feedparser's
    /// `_FeedParserMixin.namespaces[uri] = prefix`, as Usenet programs add
    /// `http://www.newznab.com/DTD/2010/feeds/attributes/` as `newznab`): an element or
    /// attribute of such a namespace is keyed by that prefix (`newznab_attr`, also for a
    /// document that binds the namespace to `nzb`), and the result's `namespaces` lists
    /// the namespace under it. A namespace this crate already knows keeps its own prefix.
    ///
    /// Default: `None`.
    pub namespaces: Option<Arc<ExtraNamespaces>>,
    /// The per-value repair of double UTF-8, set by [`crate::parse_with`] from the policy
    /// and the decoded document (see [`ValueRepair`]).
    pub(crate) value_repair: ValueRepair,
}

/// The element keys of [`ParseOptions::handlers`] (`newznab_attr`, lower-cased as the
/// parser keys elements): those with a start-tag handler and those with an end-tag one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ElementHandlers {
    /// Keys with a start-tag handler (`_start_newznab_attr`).
    pub start: Vec<String>,
    /// Keys with an end-tag handler (`_end_newznab_attr`).
    pub end: Vec<String>,
}

impl ElementHandlers {
    /// Whether `key` has a start-tag handler (`end == false`) or an end-tag one.
    pub(crate) fn has(&self, key: &str, end: bool) -> bool {
        let keys = if end { &self.end } else { &self.start };
        keys.iter().any(|k| k == key)
    }
}

/// The namespaces of [`ParseOptions::namespaces`]: URI → prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtraNamespaces {
    /// By URI as the parser compares namespaces (lower-cased), in the order given.
    prefixes: Vec<(String, String)>,
}

impl ExtraNamespaces {
    /// The namespaces of `(uri, prefix)` pairs (URIs compared without regard to case; of
    /// two pairs with one URI, the last counts, as in a Python `dict`).
    pub fn new<U: AsRef<str>, P: Into<String>>(pairs: impl IntoIterator<Item = (U, P)>) -> Self {
        let mut prefixes: Vec<(String, String)> = Vec::new();
        for (uri, prefix) in pairs {
            let key = xml::ns_key(uri.as_ref()).into_owned();
            let prefix = prefix.into();
            match prefixes.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = prefix,
                None => prefixes.push((key, prefix)),
            }
        }
        ExtraNamespaces { prefixes }
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.prefixes.is_empty()
    }

    /// The prefix of a namespace, by its URI as `xml::ns::ns_key` gives it.
    pub(crate) fn prefix(&self, uri_key: &str) -> Option<&str> {
        self.prefixes
            .iter()
            .find(|(k, _)| k == uri_key)
            .map(|(_, p)| p.as_str())
    }
}

/// What the parser does with a value that reads as UTF-8 encoded twice (`CafÃ©`): the
/// rule and why are in the docs of `charset::repair`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ValueRepair {
    /// feedparser's repair of Latin-1 values, silent as in feedparser
    /// (`Policy::FeedparserExact`, and text whose decoding is not known: [`parse_str`],
    /// the streaming reader).
    #[default]
    Latin1,
    /// The repair with windows-1252 marks too (`Itâ€™s`), so that a feed's fields are
    /// repaired alike; each field where a value needed the marks (a repair feedparser
    /// does not make) is named in a `DoubleEncodedText` record (`Policy::Recover`).
    Windows1252,
    /// No repair: under `Policy::Recover`, a document decoded from Unicode bytes whose
    /// text holds non-ASCII that does not read as double UTF-8 (its producer writes
    /// non-ASCII correctly, so a value that looks double-encoded is as intended).
    Off,
}

impl ValueRepair {
    /// The repair for a document decoded under `policy` (as `charset`, into `text`).
    pub(crate) fn for_document(
        policy: crate::decode::Policy,
        charset: Option<crate::charset::Charset>,
        text: &str,
    ) -> Self {
        if policy != crate::decode::Policy::Recover {
            return ValueRepair::Latin1;
        }
        let unicode = charset.is_some_and(|c| c == crate::charset::Charset::UTF_8 || c.is_wide());
        if unicode && crate::charset::repair::holds_clean_non_ascii(text) {
            ValueRepair::Off
        } else {
            ValueRepair::Windows1252
        }
    }
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_depth: 512,
            max_entries: 50_000,
            max_entity_expansion: 1 << 20,
            max_attributes: 1024,
            max_unknown_elements: 250_000,
            base_language: None,
            base_uri: None,
            sanitize_html: true,
            resolve_relative_uris: true,
            sanitize_policy: None,
            handlers: None,
            namespaces: None,
            value_repair: ValueRepair::default(),
        }
    }
}

impl ParseOptions {
    /// Sets [`ParseOptions::max_unknown_elements`].
    #[must_use]
    pub fn max_unknown_elements(mut self, n: usize) -> Self {
        self.max_unknown_elements = n;
        self
    }

    /// Sets [`ParseOptions::max_attributes`].
    #[must_use]
    pub fn max_attributes(mut self, n: usize) -> Self {
        self.max_attributes = n;
        self
    }

    /// Sets [`ParseOptions::max_depth`].
    #[must_use]
    pub fn max_depth(mut self, n: usize) -> Self {
        self.max_depth = n;
        self
    }

    /// Sets [`ParseOptions::max_entries`].
    #[must_use]
    pub fn max_entries(mut self, n: usize) -> Self {
        self.max_entries = n;
        self
    }

    /// Sets [`ParseOptions::max_entity_expansion`].
    #[must_use]
    pub fn max_entity_expansion(mut self, n: usize) -> Self {
        self.max_entity_expansion = n;
        self
    }

    /// Sets [`ParseOptions::base_uri`].
    #[must_use]
    pub fn base_uri(mut self, uri: Option<String>) -> Self {
        self.base_uri = uri;
        self
    }

    /// Sets [`ParseOptions::sanitize_html`].
    #[must_use]
    pub fn sanitize_html(mut self, on: bool) -> Self {
        self.sanitize_html = on;
        self
    }

    /// Sets [`ParseOptions::resolve_relative_uris`].
    #[must_use]
    pub fn resolve_relative_uris(mut self, on: bool) -> Self {
        self.resolve_relative_uris = on;
        self
    }

    /// Sets [`ParseOptions::sanitize_policy`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use feed_decoder::ParseOptions;
    /// use feed_decoder::html::{AllowList, SanitizePolicy};
    ///
    /// let policy = SanitizePolicy::new().allow(AllowList::Elements, ["iframe"]);
    /// let options = ParseOptions::default().sanitize_policy(Some(Arc::new(policy)));
    /// let feed = feed_decoder::parse::parse_str(
    ///     "<rss version='2.0'><channel><item><description>\
    ///      &lt;iframe src='https://example.com/v/1'>&lt;/iframe></description>\
    ///      </item></channel></rss>",
    ///     &options,
    /// );
    /// assert_eq!(
    ///     feed.entries[0].summary.as_deref(),
    ///     Some(r#"<iframe src="https://example.com/v/1"></iframe>"#)
    /// );
    /// ```
    #[must_use]
    pub fn sanitize_policy(mut self, policy: Option<Arc<SanitizePolicy>>) -> Self {
        self.sanitize_policy = policy;
        self
    }

    /// Sets [`ParseOptions::handlers`].
    #[must_use]
    pub fn handlers(mut self, handlers: Option<Arc<ElementHandlers>>) -> Self {
        self.handlers = handlers;
        self
    }

    /// Sets [`ParseOptions::namespaces`].
    #[must_use]
    pub fn namespaces(mut self, namespaces: Option<Arc<ExtraNamespaces>>) -> Self {
        self.namespaces = namespaces.filter(|n| !n.is_empty());
        self
    }

    /// Sets [`ParseOptions::base_language`].
    #[must_use]
    pub fn base_language(mut self, lang: Option<String>) -> Self {
        self.base_language = lang;
        self
    }

    /// Fills what the transport says about the body, where not set already: the base
    /// language from `Content-Language`, the base URI from `Content-Location` (resolved
    /// against `url`) or else `url`, the URL the body was fetched from. The transport is
    /// read once, at the API boundary ([`crate::decode::TransportFacts::of`]); the parser
    /// never sees headers.
    #[must_use]
    pub fn with_http_context(
        mut self,
        facts: &crate::decode::TransportFacts,
        url: Option<&str>,
    ) -> Self {
        if self.base_language.is_none() {
            self.base_language.clone_from(&facts.content_language);
        }
        if self.base_uri.is_none() {
            self.base_uri = match (facts.content_location.as_deref(), url) {
                (Some(loc), Some(url)) => Some(crate::url::urljoin(url, loc)),
                (Some(loc), None) => Some(loc.to_owned()),
                (None, url) => url.map(str::to_owned),
            };
        }
        self
    }
}

/// Receives each entry as soon as it is final (the next one started, or the document
/// ended), instead of the result's `entries`: the JSON writer serializes it and lets it
/// go, so that memory holds the entries' JSON rather than their model.
pub(crate) trait EntrySink {
    /// The next entry, in document order.
    fn entry(&mut self, entry: Entry);
    /// The parse starts over from the beginning (the strict pass stopped where the
    /// lenient one cannot take over): the entries received so far are void.
    fn restart(&mut self);
}

/// An [`EntrySink`] as the builder holds it (the parse may hand it from the strict
/// pass's driver to the lenient one's).
pub(crate) type SharedSink = Rc<std::cell::RefCell<dyn EntrySink>>;

/// Parses decoded XML feed text (RSS, Atom, CDF). Never fails: problems become bozo
/// records.
#[must_use]
pub fn parse_str(text: &str, options: &ParseOptions) -> ParsedFeed {
    parse_str_into(text, options, None)
}

/// [`parse_str`], the entries going to `sink` (when given) rather than into the result.
pub(crate) fn parse_str_into(
    text: &str,
    options: &ParseOptions,
    sink: Option<&SharedSink>,
) -> ParsedFeed {
    xml::parse_into(text, options, sink)
}

/// The JSON side of the format switch, on the decoded text of a body the switch sent to
/// JSON: its JSON Feed, or `None` when it is no JSON Feed (no version) and no JSON
/// value at all but holds markup, which then goes to the XML parser (having given the
/// sink no entry, the sink starts over).
pub(crate) fn parse_json_or_markup(
    text: &str,
    options: &ParseOptions,
    sink: Option<&SharedSink>,
) -> Option<ParsedFeed> {
    let feed = jsonfeed::parse_json_into(text, options, sink);
    if !feed.version.is_empty() || !text.contains('<') {
        return Some(feed);
    }
    if let Some(sink) = sink {
        sink.borrow_mut().restart();
    }
    None
}

#[cfg(test)]
mod http_context_tests {
    use super::ParseOptions;
    use crate::decode::TransportFacts;
    use crate::{Headers, Transport};

    #[test]
    fn http_context_fills_only_what_is_unset() {
        let h = TransportFacts::of(&Transport::Http(
            Headers::new()
                .with("Content-Language", "fr")
                .with("Content-Location", "feeds/a.xml"),
        ));
        let o = ParseOptions::default().with_http_context(&h, Some("http://example.com/x/y.xml"));
        assert_eq!(o.base_language.as_deref(), Some("fr"));
        assert_eq!(
            o.base_uri.as_deref(),
            Some("http://example.com/x/feeds/a.xml")
        );
        let set = ParseOptions::default()
            .base_uri(Some("http://b/".into()))
            .with_http_context(&h, None);
        assert_eq!(set.base_uri.as_deref(), Some("http://b/"));
        let bare = ParseOptions::default()
            .with_http_context(&TransportFacts::of(&Transport::Local), Some("http://c/f"));
        assert_eq!(
            (bare.base_language, bare.base_uri.as_deref()),
            (None, Some("http://c/f"))
        );
    }
}
