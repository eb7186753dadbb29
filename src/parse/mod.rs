//! Parsing decoded text into the feed model: a strict quick-xml pass, then — only when
//! the markup is broken — one lenient pass with a tolerant tokenizer of our own.
//!
//! quick-xml reads the markup; inside the root element, the strict pass takes text
//! runs, references and CDATA sections from the text itself and moves quick-xml past
//! them (`own_event`), because quick-xml checks every event for UTF-8 again, which a
//! `&str` needs no more and which was the largest single cost of a parse.
//!
//! Both passes drive the same builder (feedparser's element handlers and precedence
//! rules), so a well-formed and a broken rendering of the same feed give the same result.
//! A well-formedness failure becomes a [`BozoKind::NotWellFormed`] record (JSON type
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
//! parse/
//! ├── mod.rs          the driver: strict quick-xml pass, namespace scopes, element names
//! │                   resolved once (`Name`: tag, handler key, namespace handlers), limits
//! ├── lenient.rs      the tolerant tokenizer of the second pass
//! ├── entities.rs     HTML and DTD entities
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
//! │   └── admin.rs content.rs feedburner.rs xhtml.rs
//! ├── podcast.rs      Podcasting 2.0: captures its elements whole, before any handler
//! ├── record.rs       where values are stored: the typed Feed and Entry filled in
//! │                   place (`Record`), and `Slots`, the one interface handlers store
//! │                   through, whatever the context
//! ├── convert.rs      a builder value moved into a typed field (`FromV`), and the
//! │                   model's `Keys`, generated from its field lists
//! ├── dict.rs         the dictionaries for what the model keeps as JSON maps (source,
//! │                   image, text input, `where`, media objects, unknown keys)
//! ├── text.rs url.rs geo.rs   value helpers (repairs, URI joining, GeoJSON)
//! ```
//!
//! The driver resolves each qualified name once to feedparser's key (`dc_creator`,
//! `title`) and, by the key's prefix, to its namespace's handlers; the builder calls them
//! on start and end tags and falls back to generic handling (attributes kept as an object,
//! or the text kept under the key) when they decline.
//!
//! **Where does a new namespace go?** Into `ns/NAME.rs`, with a
//! `pub(in crate::parse) static HANDLERS` whose `start` and `end` match the keys
//! `NAME_*`, plus one line in `ns::TABLE` (and its URI in `ns::canonical_prefix` if it
//! is not there). A namespace whose elements are simple values (`sy`, `slash`, `wfw`)
//! needs no module: the generic handling keeps them. A namespace that must keep nested
//! elements to itself captures them before dispatch, as `podcast.rs` does.
//!
//! Outside this module: HTML values (text constructs of type HTML or XHTML) are
//! sanitized and their URIs resolved by [`crate::html`], called from the builder's pop
//! of such a value; JSON Feed is not parsed here but mapped from serde_json by
//! [`crate::jsonfeed`] into the same model. The builder fills the model in place: a key
//! feedparser stores on the feed or an entry goes straight into its typed field of
//! [`crate::model::Feed`] or [`crate::model::Entry`] (one `match` on the key, generated
//! from the model's field lists in `convert.rs`), text details, categories, links and persons are built as the model's
//! `Text`, `Tag`, `Link` and `Person`, and a text construct shares its string with its
//! details. Only what the model itself keeps as JSON (map-valued fields such as `image`
//! and `where`, and `extra`, the keys it has no field for) is built as a dictionary
//! first (`record.rs` says why).

mod builder;
mod convert;
mod core;
pub(crate) mod dict;
pub(crate) mod entities;
pub(crate) mod geo;
mod lenient;
mod ns;
mod podcast;
pub(crate) mod record;
pub(crate) mod stream;
pub(crate) mod text;
pub(crate) mod url;

use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

use quick_xml::Reader;
use quick_xml::events::{BytesCData, BytesEnd, BytesRef, BytesStart, BytesText, Event};

use crate::bozo::{Bozo, BozoKind, Position};
use crate::model::{Entry, ParsedFeed};
use builder::Builder;
use ns::{canonical_prefix, ns_key};

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
    /// Set by [`crate::parse_with`] under [`crate::Policy::Recover`]: feedparser's
    /// per-value repair of UTF-8 read as ISO-8859-1 then also undoes windows-1252 marks
    /// (`â€™`), so that a feed's fields are repaired alike, never half.
    pub(crate) windows_1252_repair: bool,
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
            windows_1252_repair: false,
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
                (Some(loc), Some(url)) => Some(url::urljoin(url, loc)),
                (Some(loc), None) => Some(loc.to_owned()),
                (None, url) => url.map(str::to_owned),
            };
        }
        self
    }
}

/// What the DOCTYPE told us: feedparser's `rss091n` marker and the safe entities.
#[derive(Default)]
pub(crate) struct Doctype {
    version: Option<&'static str>,
    entities: HashMap<String, String>,
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Reads the prolog up to the root element: a Netscape DOCTYPE means `rss091n`; entity
/// declarations whose value is plain text or one character reference are kept.
fn scan_doctype(text: &str) -> Doctype {
    let b = text.as_bytes();
    let mut head_end = b.len();
    for i in 0..b.len().saturating_sub(1) {
        if b[i] == b'<'
            && (b[i + 1].is_ascii_alphanumeric() || b[i + 1] == b'_' || b[i + 1] >= 0x80)
        {
            head_end = i;
            break;
        }
    }
    let head = &text[..head_end];
    let mut dt = Doctype::default();
    let lower = head.to_ascii_lowercase();
    let mut doctypes = 0;
    let mut search = 0;
    let mut netscape = false;
    while let Some(i) = lower[search..].find("<!doctype") {
        let start = search + i;
        let end = lower[start..].find('>').map_or(lower.len(), |e| start + e);
        if doctypes == 0 && lower[start..end].contains("netscape") {
            netscape = true;
        }
        doctypes += 1;
        search = end.max(start + 1);
    }
    if netscape {
        dt.version = Some("rss091n");
    }
    if doctypes == 1 {
        let mut search = 0;
        while let Some(i) = head[search..].find("<!ENTITY") {
            let start = search + i + 8;
            let end = head[start..].find('>').map_or(head.len(), |e| start + e);
            if let Some((name, value)) = safe_entity(&head[start..end]) {
                dt.entities.entry(name).or_insert(value);
            }
            search = end;
        }
    }
    dt
}

/// `\s+(\w+)\s+"(&#\w+;|[^&"]*)"` over an entity declaration body.
fn safe_entity(body: &str) -> Option<(String, String)> {
    let b = body.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
        *i > s
    };
    if !ws(&mut i) {
        return None;
    }
    let s = i;
    while i < b.len() && is_word_byte(b[i]) {
        i += 1;
    }
    if i == s {
        return None;
    }
    let name = &body[s..i];
    if !ws(&mut i) || i >= b.len() || b[i] != b'"' {
        return None;
    }
    let rest = &body[i + 1..];
    let close = rest.find('"')?;
    let value = &rest[..close];
    if value.contains('&') {
        let inner = value.strip_prefix("&#")?.strip_suffix(';')?;
        if inner.is_empty() || !inner.bytes().all(is_word_byte) {
            return None;
        }
    }
    Some((name.to_owned(), value.to_owned()))
}

/// Expands a safe entity value (plain text or one character reference).
fn expand_safe(value: &str) -> String {
    if let Some(body) = value.strip_prefix('&').and_then(|v| v.strip_suffix(';'))
        && let Some(c) = text::char_ref(body)
    {
        return c.to_string();
    }
    value.to_owned()
}

/// An element name as the builder sees it: feedparser's tag (`prefix:local`, lower-cased)
/// and handler key (`prefix_local`), computed once per qualified name and namespace
/// scope.
pub(crate) struct Name {
    qname: Rc<str>,
    pub(crate) tag: Rc<str>,
    pub(crate) key: Rc<str>,
    pub(crate) ns: Option<&'static str>,
    /// The element handlers of the key's namespace ([`ns::handlers_for`]).
    pub(crate) handlers: &'static ns::Handlers,
    /// Where the local part of `tag` starts: after its first `:`, else 0.
    local_at: usize,
}

impl Name {
    /// The three strings share one allocation when they are equal (a lower-case name
    /// without a prefix, the usual case).
    fn new(qname: &str, tag: String, ns: Option<&'static str>) -> Rc<Name> {
        let tag: Rc<str> = tag.into();
        let key: Rc<str> = match tag.split_once(':') {
            Some((prefix, suffix)) if !prefix.is_empty() => format!("{prefix}_{suffix}").into(),
            Some((_, suffix)) => suffix.into(),
            None => tag.clone(),
        };
        let qname = if *qname == *tag {
            tag.clone()
        } else {
            qname.into()
        };
        let handlers = ns::handlers_for(&key);
        let local_at = tag.find(':').map_or(0, |i| i + 1);
        Rc::new(Name {
            qname,
            tag,
            key,
            ns,
            handlers,
            local_at,
        })
    }

    /// The part of `tag` before its first `:` (empty without one).
    pub(crate) fn prefix(&self) -> &str {
        &self.tag[..self.local_at.saturating_sub(1)]
    }

    /// The part of `tag` after its first `:` (all of it without one).
    pub(crate) fn local(&self) -> &str {
        &self.tag[self.local_at..]
    }
}

/// An attribute as the builder takes it: its lower-cased name and its value, borrowed
/// from the text when neither needed a change.
pub(crate) type Attr<'a> = (Cow<'a, str>, Cow<'a, str>);

/// The attributes of a start tag, in document order.
pub(crate) type Attrs<'a> = Vec<Attr<'a>>;

/// The most element names [`Driver`] keeps resolved.
const MAX_CACHED_NAMES: usize = 256;

/// Namespace bindings: each prefix in scope (`None`: the default namespace) and its URI.
type Bindings = Vec<(Option<Box<str>>, Box<str>)>;

/// Resolved element names by qualified name (foldhash, hashbrown's default: fast on
/// short names, seeded per process).
type NameCache = hashbrown::HashMap<Box<str>, Rc<Name>>;

/// The longest run of references and text [`Driver::text_run`] reads at once (its
/// buffer, reused, holds one run).
const MAX_RUN: usize = 1 << 16;

/// How many root scopes [`NAME_STASH`] keeps names for.
const STASHED_SCOPES: usize = 4;

/// The most namespace bindings a root scope kept in [`NAME_STASH`] may have.
const MAX_STASHED_BINDINGS: usize = 64;

thread_local! {
    /// The names the last feeds parsed on this thread resolved under their root's
    /// namespace bindings, with those bindings, most recent first. Feeds of one batch
    /// mostly come from a few generators that declare the same namespaces: a feed whose
    /// root binds the same URIs as one of these starts with its names instead of
    /// resolving each again. At most [`STASHED_SCOPES`] caches of at most
    /// [`MAX_CACHED_NAMES`] names each.
    static NAME_STASH: std::cell::RefCell<Vec<(Bindings, NameCache)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// One open element as the driver sees it.
struct Open {
    name: Rc<Name>,
    scopes: usize,
}

/// `s` lower-cased, reusing the string when it has nothing to lower.
pub(crate) fn lowercase_owned(mut s: String) -> String {
    if s.is_ascii() {
        s.make_ascii_lowercase();
        s
    } else {
        s.to_lowercase()
    }
}

/// [`lowercase_owned`] of a name or value that may be borrowed: it stays borrowed when it
/// has nothing to lower.
pub(crate) fn lowercase_cow(s: Cow<'_, str>) -> Cow<'_, str> {
    match s {
        Cow::Borrowed(b) => lowercase(b),
        Cow::Owned(o) => Cow::Owned(lowercase_owned(o)),
    }
}

/// `s` lower-cased, borrowed when it has nothing to lower.
pub(crate) fn lowercase(s: &str) -> Cow<'_, str> {
    if has_upper(s) {
        Cow::Owned(s.to_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether `s` may have something to lower: an ASCII capital or a non-ASCII character
/// (one pass over the bytes).
#[inline]
fn has_upper(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii())
}

/// [`lowercase_cow`] in place: nothing moves when there is nothing to lower (most
/// attribute names).
#[inline]
pub(crate) fn lower_in_place(s: &mut Cow<'_, str>) {
    if has_upper(s) {
        *s = lowercase_cow(std::mem::take(s));
    }
}

/// Namespace resolution and event routing shared by both passes.
pub(crate) struct Driver<'o> {
    builder: Builder,
    /// The namespace declarations in scope, innermost last.
    scopes: Scopes,
    /// Names already resolved in the current namespace scope (cleared when it changes).
    names: NameCache,
    open: Vec<Open>,
    /// The open elements deeper than [`SHALLOW`], counted by a hash of their name, so
    /// that an end tag matching none of them is known at once.
    deep: DeepNames,
    skipped_depth: usize,
    /// Borrowed by the whole-text passes; owned by the streaming reader, which outlives
    /// the options it was given.
    options: Cow<'o, ParseOptions>,
    strict: bool,
    /// The whole text is known to hold only XML characters (checked once, before the
    /// strict pass), so events need no character check of their own. False for the
    /// streaming reader, which never holds the whole text.
    chars_checked: bool,
    /// The whole text is known to hold no carriage return, so texts need no line-end
    /// normalisation and no search for one. False for the streaming reader.
    no_cr: bool,
    entities: HashMap<String, String>,
    /// The text of a run of text and references ([`Driver::text_run`]), reused.
    run: String,
    /// Where the last run [`Driver::text_run`] declined ends (an offset in the text).
    no_run_before: usize,
    expanded: usize,
    bozo: Vec<Bozo>,
    /// The [`Limit`]s already recorded, as bits.
    limits_noted: u8,
}

/// A limit of [`ParseOptions`] that the input reached.
#[derive(Clone, Copy)]
enum Limit {
    Depth = 1,
    EntityExpansion = 2,
    Attributes = 4,
}

impl Limit {
    fn message(self, o: &ParseOptions) -> String {
        match self {
            Limit::Depth => format!(
                "elements nested deeper than {} levels (ParseOptions::max_depth) were skipped \
                 with their content",
                o.max_depth
            ),
            Limit::Attributes => format!(
                "an element had more than {} attributes (ParseOptions::max_attributes); \
                 the rest were ignored",
                o.max_attributes
            ),
            Limit::EntityExpansion => format!(
                "internal entities expanded to more than {} bytes \
                 (ParseOptions::max_entity_expansion); references beyond it were left as written",
                o.max_entity_expansion
            ),
        }
    }
}

/// Open elements up to this depth are searched one by one when an end tag comes; the
/// deeper ones through [`DeepNames`].
const SHALLOW: usize = 32;

/// A counting filter of the names of the deep open elements (ASCII case folded, hashed
/// with a per-process random seed): a zero count means no deep element has the name.
#[derive(Default)]
struct DeepNames {
    counts: Vec<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl DeepNames {
    const BUCKETS: usize = 4096;

    fn bucket(&self, qname: &str) -> usize {
        use std::hash::{BuildHasher, Hasher};
        let mut h = self.hasher.build_hasher();
        for b in qname.bytes() {
            h.write_u8(b.to_ascii_lowercase());
        }
        (h.finish() % Self::BUCKETS as u64) as usize
    }

    fn add(&mut self, qname: &str) {
        if self.counts.is_empty() {
            self.counts = vec![0; Self::BUCKETS];
        }
        let b = self.bucket(qname);
        self.counts[b] += 1;
    }

    fn remove(&mut self, qname: &str) {
        let b = self.bucket(qname);
        if let Some(c) = self.counts.get_mut(b) {
            *c = c.saturating_sub(1);
        }
    }

    /// False only when no deep open element has this name.
    fn may_hold(&self, qname: &str) -> bool {
        self.counts.get(self.bucket(qname)).is_none_or(|&c| c > 0)
    }
}

/// Namespace declarations in scope: the order they were made (to undo them when their
/// element closes) and, per prefix, the stack of URIs bound to it, so that resolving a
/// prefix costs one hash lookup however many declarations are in scope.
#[derive(Default)]
struct Scopes {
    /// The prefix of each declaration, in document order (`None`: the default namespace).
    order: Vec<Option<Box<str>>>,
    default: Vec<String>,
    prefixed: HashMap<Box<str>, Vec<String>>,
}

impl Scopes {
    fn len(&self) -> usize {
        self.order.len()
    }

    fn push(&mut self, prefix: Option<&str>, uri: String) {
        match prefix {
            None => self.default.push(uri),
            Some(p) => self.prefixed.entry(p.into()).or_default().push(uri),
        }
        self.order.push(prefix.map(Into::into));
    }

    fn resolve(&self, prefix: Option<&str>) -> Option<&str> {
        match prefix {
            None => self.default.last(),
            Some(p) => self.prefixed.get(p).and_then(|s| s.last()),
        }
        .map(String::as_str)
    }

    /// Every prefix in scope (`None`: the default namespace) and the URI bound to it.
    fn bindings(&self) -> Bindings {
        let mut out: Bindings = self
            .prefixed
            .iter()
            .filter_map(|(p, stack)| Some((Some(p.clone()), stack.last()?.as_str().into())))
            .collect();
        if let Some(uri) = self.default.last() {
            out.push((None, uri.as_str().into()));
        }
        out
    }

    /// How many prefixes (and the default namespace) are bound.
    fn bound(&self) -> usize {
        self.prefixed.len() + usize::from(!self.default.is_empty())
    }

    /// Whether exactly `bindings` are in scope.
    fn binds(&self, bindings: &Bindings) -> bool {
        self.bound() == bindings.len()
            && bindings
                .iter()
                .all(|(p, uri)| self.resolve(p.as_deref()) == Some(&**uri))
    }

    /// Undoes the declarations made after the first `to`.
    fn truncate(&mut self, to: usize) {
        while self.order.len() > to {
            match self.order.pop().flatten() {
                None => {
                    self.default.pop();
                }
                Some(p) => {
                    if let Some(stack) = self.prefixed.get_mut(&p) {
                        stack.pop();
                        if stack.is_empty() {
                            self.prefixed.remove(&p);
                        }
                    }
                }
            }
        }
    }
}

/// Attributes with unique names: a later duplicate's value replaces the first one's (as
/// in a dict), which keeps its place. Linear in the number of attributes.
fn dedup_attrs(attrs: Attrs<'_>) -> Attrs<'_> {
    const FEW: usize = 16;
    if attrs.len() <= FEW {
        let has_dup = attrs
            .iter()
            .enumerate()
            .any(|(i, (k, _))| attrs[..i].iter().any(|(dk, _)| dk == k));
        if !has_dup {
            return attrs;
        }
    }
    // For each attribute, the position of the first one with its name.
    let mut first_of: HashMap<&str, usize> = HashMap::with_capacity(attrs.len());
    let firsts: Vec<usize> = attrs
        .iter()
        .enumerate()
        .map(|(i, (k, _))| *first_of.entry(&**k).or_insert(i))
        .collect();
    if first_of.len() == attrs.len() {
        return attrs;
    }
    drop(first_of);
    let mut slots: Vec<Option<Attr<'_>>> = Vec::with_capacity(attrs.len());
    for ((k, v), first) in attrs.into_iter().zip(firsts) {
        if first == slots.len() {
            slots.push(Some((k, v)));
        } else {
            if let Some(slot) = &mut slots[first] {
                slot.1 = v;
            }
            slots.push(None);
        }
    }
    slots.into_iter().flatten().collect()
}

/// An undeclared namespace prefix (strict pass only).
struct Undeclared(String);

impl<'o> Driver<'o> {
    fn new(
        options: Cow<'o, ParseOptions>,
        strict: bool,
        entities: HashMap<String, String>,
    ) -> Self {
        Driver {
            builder: Builder::new(
                options.base_language.clone(),
                options.base_uri.clone(),
                options.max_entries.max(1),
            )
            .html_options(options.sanitize_html, options.resolve_relative_uris)
            .windows_1252_repair(options.windows_1252_repair)
            .unknown_budget(options.max_unknown_elements),
            scopes: Scopes::default(),
            names: NameCache::default(),
            open: Vec::new(),
            deep: DeepNames::default(),
            skipped_depth: 0,
            options,
            strict,
            chars_checked: false,
            no_cr: false,
            entities,
            run: String::new(),
            no_run_before: 0,
            expanded: 0,
            bozo: Vec::new(),
            limits_noted: 0,
        }
    }

    fn resolve(&self, prefix: Option<&str>) -> Option<&str> {
        if prefix == Some("xml") {
            return Some("http://www.w3.org/XML/1998/namespace");
        }
        self.scopes.resolve(prefix)
    }

    /// Records a limit reached (once per limit).
    fn note_limit(&mut self, limit: Limit) {
        if self.limits_noted & limit as u8 == 0 {
            self.limits_noted |= limit as u8;
            let message = limit.message(&self.options);
            self.bozo.push(Bozo::new(BozoKind::LimitExceeded, message));
        }
    }

    /// Computes feedparser's tag for a qualified name in the current scope. `Err` holds
    /// an undeclared prefix.
    fn tag_for(&self, qname: &str) -> Result<(String, Option<&'static str>), String> {
        let (given, local) = match qname.split_once(':') {
            Some((p, l)) if !p.is_empty() => (Some(p), l),
            _ => (None, qname),
        };
        let uri = self.resolve(given);
        if given.is_some() && uri.is_none() {
            return Err(given.unwrap_or_default().to_owned());
        }
        let lower = ns_key(uri.unwrap_or(""));
        let mut tag = String::with_capacity(qname.len() + 8);
        match canonical_prefix(&lower) {
            Some(p) if !p.is_empty() => {
                tag.push_str(p);
                tag.make_ascii_lowercase();
                tag.push(':');
            }
            Some(_) => {}
            None => {
                if let Some(g) = given {
                    tag.push_str(&lowercase(g));
                    tag.push(':');
                }
            }
        }
        tag.push_str(&lowercase(local));
        let special = match uri {
            Some("http://www.w3.org/1998/Math/MathML") => {
                Some("http://www.w3.org/1998/Math/MathML")
            }
            Some("http://www.w3.org/2000/svg") => Some("http://www.w3.org/2000/svg"),
            _ => None,
        };
        Ok((tag, special))
    }

    /// The name of `qname` in the current scope, from the cache when possible.
    fn name_for(&mut self, qname: &str) -> Result<Rc<Name>, Undeclared> {
        if let Some(n) = self.names.get(qname) {
            return Ok(n.clone());
        }
        match self.tag_for(qname) {
            Ok((tag, ns)) => {
                let name = Name::new(qname, tag, ns);
                if self.names.len() >= MAX_CACHED_NAMES {
                    // Bounded, whatever the hash: a feed with endless distinct names (or
                    // crafted collisions) only loses the cache.
                    self.names.clear();
                }
                self.names.insert(qname.into(), name.clone());
                Ok(name)
            }
            Err(prefix) if self.strict => Err(Undeclared(prefix)),
            Err(_) => Ok(Name::new(qname, qname.to_lowercase(), None)),
        }
    }

    /// The attributes of an element that declares namespaces or has prefixed attribute
    /// names: declarations go into scope (xlink ones are kept), prefixed names of known
    /// namespaces are added under feedparser's prefix, every key is lower-cased.
    fn namespaced_attrs<'a>(
        &mut self,
        qname: &str,
        attrs: Attrs<'a>,
    ) -> Result<(Rc<Name>, Attrs<'a>), Undeclared> {
        let scopes_before = self.scopes.len();
        let mut plain = Vec::with_capacity(attrs.len());
        let mut xlink = Vec::new();
        for (k, v) in attrs {
            if k == "xmlns" {
                self.builder.track_namespace(None, &v);
                self.scopes.push(None, v.into_owned());
            } else if let Some(p) = k.strip_prefix("xmlns:") {
                self.builder.track_namespace(Some(p), &v);
                if v == "http://www.w3.org/1999/xlink" {
                    xlink.push((format!("xmlns:{}", p.to_lowercase()).into(), v.clone()));
                }
                self.scopes.push(Some(p), v.into_owned());
            } else {
                plain.push((k, v));
            }
        }
        if self.scopes.len() != scopes_before {
            self.names.clear();
            if scopes_before == 0 {
                self.reuse_names();
            }
        }
        let name = self.name_for(qname)?;
        let mut out = xlink;
        for (k, v) in plain {
            if let Some((p, local)) = k.split_once(':') {
                if let Some(uri) = self.resolve(Some(p)) {
                    let lower = ns_key(uri);
                    if let Some(c) = canonical_prefix(&lower).filter(|c| !c.is_empty()) {
                        out.push((format!("{c}:{local}").to_lowercase().into(), v.clone()));
                    }
                } else if self.strict && p != "xmlns" {
                    return Err(Undeclared(p.to_owned()));
                }
            }
            out.push((lowercase_cow(k), v));
        }
        Ok((name, out))
    }

    fn start(&mut self, qname: &str, attrs: Attrs<'_>) -> Result<(), Undeclared> {
        if self.skipped_depth > 0 || self.open.len() >= self.options.max_depth {
            self.skipped_depth += 1;
            self.note_limit(Limit::Depth);
            return Ok(());
        }
        let scopes_before = self.scopes.len();
        let (name, out) = if attrs.iter().any(|(k, _)| k == "xmlns" || k.contains(':')) {
            match self.namespaced_attrs(qname, attrs) {
                Ok(resolved) => resolved,
                Err(undeclared) => {
                    // The element's declarations leave scope again: the driver is as it
                    // was before this start tag, which the lenient pass reads afresh.
                    self.pop_scopes(scopes_before);
                    return Err(undeclared);
                }
            }
        } else {
            // No declarations and no prefixed names: only the keys change. A root that
            // declares nothing starts with the names of a recent such feed.
            if self.open.is_empty() && scopes_before == 0 && self.names.is_empty() {
                self.reuse_names();
            }
            let name = self.name_for(qname)?;
            let mut attrs = attrs;
            for (k, _) in &mut attrs {
                lower_in_place(k);
            }
            (name, attrs)
        };
        self.builder.start(&name, dedup_attrs(out));
        if self.open.len() >= SHALLOW {
            self.deep.add(&name.qname);
        }
        self.open.push(Open {
            name,
            scopes: scopes_before,
        });
        Ok(())
    }

    fn end(&mut self, qname: &str) {
        if self.skipped_depth > 0 {
            self.skipped_depth -= 1;
            return;
        }
        // The usual case (and the only one the strict pass lets through): the end tag
        // closes the innermost element, spelled the same.
        if self.open.last().is_some_and(|o| *o.name.qname == *qname) {
            self.pop_open();
            return;
        }
        // Only the shallow elements can match when no deep one has this name: an end
        // tag that matches nothing costs at most SHALLOW comparisons, however deep.
        let candidates = if self.open.len() > SHALLOW && !self.deep.may_hold(qname) {
            &self.open[..SHALLOW]
        } else {
            &self.open[..]
        };
        let Some(i) = candidates
            .iter()
            .rposition(|o| o.name.qname.eq_ignore_ascii_case(qname))
        else {
            // An end tag that closes nothing open is ignored.
            return;
        };
        // Elements left open inside it are closed first (innermost first).
        while self.open.len() > i {
            self.pop_open();
        }
    }

    fn pop_open(&mut self) {
        let Some(open) = self.open.pop() else {
            return;
        };
        if self.open.len() >= SHALLOW {
            self.deep.remove(&open.name.qname);
        }
        self.builder.end(&open.name);
        self.pop_scopes(open.scopes);
        if self.open.is_empty() && self.scopes.len() == 0 {
            // The root closed (one with declarations has stashed its names already).
            self.stash_names();
        }
    }

    /// Whether an HTML void element just started inside content (lenient pass: closed at
    /// once, since HTML never closes it).
    fn void_in_content(&self, name: &str) -> bool {
        self.builder.in_content()
            && matches!(
                name.to_ascii_lowercase().as_str(),
                "area"
                    | "br"
                    | "col"
                    | "embed"
                    | "hr"
                    | "img"
                    | "input"
                    | "param"
                    | "source"
                    | "track"
                    | "wbr"
            )
    }

    /// Closes every element still open (the lenient pass at the end of the text).
    fn close_all(&mut self) {
        self.skipped_depth = 0;
        while !self.open.is_empty() {
            self.pop_open();
        }
    }

    /// Drops the namespace declarations of a closed element.
    fn pop_scopes(&mut self, to: usize) {
        if self.scopes.len() > to {
            if to == 0 {
                self.stash_names();
            }
            self.scopes.truncate(to);
            self.names.clear();
        }
    }

    /// Keeps the names resolved under the root's declarations for the next feed this
    /// thread parses ([`NAME_STASH`]).
    fn stash_names(&mut self) {
        // A root with more declarations than any feed needs (a hostile one) is not
        // kept: the stash outlives the feed.
        if self.names.is_empty() || self.scopes.bound() > MAX_STASHED_BINDINGS {
            return;
        }
        let names = std::mem::take(&mut self.names);
        let bindings = self.scopes.bindings();
        NAME_STASH.with(|stash| {
            let mut stash = stash.borrow_mut();
            stash.retain(|(b, _)| *b != bindings);
            if stash.len() >= STASHED_SCOPES {
                stash.pop();
            }
            stash.insert(0, (bindings, names));
        });
    }

    /// Takes the names a recent feed resolved, when its root bound every prefix (and the
    /// default namespace) to what this root binds them to: a name is a function of the
    /// qualified name and the URI its prefix is bound to, nothing else.
    fn reuse_names(&mut self) {
        NAME_STASH.with(|stash| {
            let mut stash = stash.borrow_mut();
            if let Some(i) = stash.iter().position(|(b, _)| self.scopes.binds(b)) {
                self.names = stash.remove(i).1;
            }
        });
    }

    fn text(&mut self, s: &str, escape: bool) {
        if self.skipped_depth > 0 {
            return;
        }
        if !self.strict && s.contains('\r') {
            // XML line-end normalisation, which the strict pass gets from quick-xml.
            let normalized = s.replace("\r\n", "\n").replace('\r', "\n");
            self.builder.data(&normalized, escape);
        } else {
            self.builder.data(s, escape);
        }
    }

    /// Expands a DTD-declared entity within the budget; beyond it the reference stays
    /// as written (`&name;`, as text) and a `LimitExceeded` record is added. `None` when
    /// no such entity was declared.
    fn entity(&mut self, name: &str) -> Option<String> {
        let v = self.entities.get(name)?;
        let out = expand_safe(v);
        if self.expanded + out.len() > self.options.max_entity_expansion {
            self.note_limit(Limit::EntityExpansion);
            return Some(format!("&{name};"));
        }
        self.expanded += out.len();
        Some(out)
    }

    fn finish(self, version: Option<&str>, mut bozo: Vec<Bozo>) -> ParsedFeed {
        let Driver {
            builder, bozo: own, ..
        } = self;
        bozo.extend(own);
        if builder.not_base64 > 0 {
            let n = builder.not_base64;
            bozo.push(Bozo::new(
                BozoKind::InvalidBase64,
                format!(
                    "{n} content value(s) marked base64 are not base64 text; kept as published"
                ),
            ));
        }
        if builder.unknown_dropped > 0 {
            bozo.push(Bozo::new(
                BozoKind::LimitExceeded,
                format!(
                    "more than {} elements without a field in the model \
                     (ParseOptions::max_unknown_elements): {} more were skipped",
                    builder.unknown_limit, builder.unknown_dropped
                ),
            ));
        }
        if builder.entries_truncated {
            let max = builder.max_entries;
            bozo.push(Bozo::new(
                BozoKind::LimitExceeded,
                format!(
                    "more than {max} entries (ParseOptions::max_entries): the first {} and \
                     the last were kept, the others dropped",
                    max - 1
                ),
            ));
        }
        let version = version.map_or_else(|| builder.version.clone(), str::to_owned);
        // The per-entry bookkeeping is done with: freed before the model is built.
        let mut builder = builder;
        builder.property_depth = hashbrown::HashMap::new();
        for open in std::mem::take(&mut builder.entries) {
            builder.finalize(open.finish());
        }
        let feed = builder.feed.finish();
        let entries = builder.done;
        ParsedFeed {
            version,
            namespaces: builder.namespaces_in_use,
            feed,
            entries,
            bozo,
        }
    }
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// Unescapes an attribute value strictly (XML 1.0 attribute-value normalisation).
fn strict_attr_value<'a>(
    raw: Cow<'a, str>,
    driver: &mut Driver<'_>,
) -> Result<Cow<'a, str>, String> {
    if !raw
        .bytes()
        .any(|b| matches!(b, b'&' | b'<' | b'\t' | b'\n' | b'\r'))
    {
        // Nothing to unescape or normalize: the value as written.
        return Ok(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest: &str = &raw;
    loop {
        let Some(i) = rest
            .bytes()
            .position(|b| matches!(b, b'&' | b'<' | b'\t' | b'\n' | b'\r'))
        else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..i]);
        let c = rest.as_bytes()[i];
        match c {
            b'<' => return Err("not well-formed (invalid token): '<' in an attribute value".into()),
            b'\r' => {
                out.push(' ');
                rest = rest[i + 1..].strip_prefix('\n').unwrap_or(&rest[i + 1..]);
                continue;
            }
            b'\t' | b'\n' => {
                out.push(' ');
                rest = &rest[i + 1..];
                continue;
            }
            _ => {}
        }
        let after = &rest[i + 1..];
        let Some(semi) = after.find(';') else {
            return Err("not well-formed (invalid token): bare '&' in an attribute value".into());
        };
        let name = &after[..semi];
        if name.starts_with('#') {
            match text::char_ref(name).filter(|&c| is_xml_char(c)) {
                Some(c) => out.push(c),
                None => return Err(format!("reference to invalid character number: &{name};")),
            }
        } else if let Some(v) = text::xml_entity(name) {
            out.push_str(v);
        } else if let Some(v) = driver.entity(name) {
            out.push_str(&v);
        } else {
            return Err(format!("undefined entity: &{name};"));
        }
        rest = &after[semi + 1..];
    }
    Ok(Cow::Owned(out))
}

fn strict_attrs<'a>(
    e: &'a quick_xml::events::BytesStart<'_>,
    driver: &mut Driver<'_>,
) -> Result<Attrs<'a>, String> {
    if !is_xml_name(e.name().as_ref()) {
        return Err(format!(
            "not well-formed (invalid token): bad element name `{}`",
            e.name().as_ref()
        ));
    }
    let raw = e.attributes_raw();
    if raw
        .bytes()
        .all(|c| matches!(c, b' ' | b'\r' | b'\n' | b'\t'))
    {
        // No attributes (most tags): nothing to split.
        return Ok(Vec::new());
    }
    let mut found = [("", ""); PLAIN_ATTRIBUTES];
    if let Some(n) = split_attributes(raw, &mut found) {
        let mut out = Vec::with_capacity(n);
        for &(key, value) in &found[..n] {
            strict_attr(key, Cow::Borrowed(value), driver, &mut out)?;
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    let mut attrs = e.attributes();
    attrs.with_checks(true);
    for a in attrs {
        let a = a.map_err(|err| format!("not well-formed (invalid token): {err}"))?;
        strict_attr(a.key.0, a.value, driver, &mut out)?;
    }
    Ok(out)
}

/// One attribute of a start tag, checked strictly and added to `out` (unless past
/// [`ParseOptions::max_attributes`]).
fn strict_attr<'a>(
    key: &'a str,
    raw: Cow<'a, str>,
    driver: &mut Driver<'_>,
    out: &mut Attrs<'a>,
) -> Result<(), String> {
    if !is_xml_name(key) {
        return Err(format!(
            "not well-formed (invalid token): bad attribute name `{key}`"
        ));
    }
    if !driver.chars_checked {
        check_text(&raw)?;
    }
    let value = strict_attr_value(raw, driver)?;
    if out.len() == driver.options.max_attributes {
        // Still checked for well-formedness, no longer kept.
        driver.note_limit(Limit::Attributes);
        return Ok(());
    }
    out.push((Cow::Borrowed(key), value));
    Ok(())
}

/// The most attributes [`split_attributes`] reads; a tag with more goes to quick-xml.
const PLAIN_ATTRIBUTES: usize = 16;

/// A start tag's attributes (`raw`: what follows its name) as quick-xml's iterator reads
/// them when it finds nothing wrong: each name up to `=` or whitespace, the raw value
/// between its quotes. `None` for anything else (an empty name, a missing `=` or quote, an
/// unclosed value, a name given twice, more than [`PLAIN_ATTRIBUTES`]), which quick-xml then
/// reads and words. Its iterator costs several hundred instructions per attribute and a
/// list of names per element; this reads the usual tag without either.
fn split_attributes<'a>(
    raw: &'a str,
    found: &mut [(&'a str, &'a str); PLAIN_ATTRIBUTES],
) -> Option<usize> {
    let b = raw.as_bytes();
    let space = |c: u8| matches!(c, b' ' | b'\r' | b'\n' | b'\t');
    let skip_space = |mut i: usize| {
        while i < b.len() && space(b[i]) {
            i += 1;
        }
        i
    };
    let mut n = 0;
    let mut i = skip_space(0);
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i] != b'=' && !space(b[i]) {
            i += 1;
        }
        let key = &raw[start..i];
        i = skip_space(i);
        if key.is_empty() || b.get(i) != Some(&b'=') {
            return None;
        }
        i = skip_space(i + 1);
        let quote = *b.get(i).filter(|&&q| q == b'"' || q == b'\'')?;
        let from = i + 1;
        let len = memchr::memchr(quote, &b[from..])?;
        if n == found.len() || found[..n].iter().any(|&(k, _)| k == key) {
            return None;
        }
        found[n] = (key, &raw[from..from + len]);
        n += 1;
        i = skip_space(from + len + 1);
    }
    Some(n)
}

/// A (simplified) XML `Name`: a letter, `_`, `:` or non-ASCII first, then name characters.
fn is_xml_name(s: &str) -> bool {
    /// For each byte: 2 when it may start an ASCII name, 1 when it may only continue
    /// one, 0 otherwise (non-ASCII bytes take the slow path below).
    const NAME: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut c = 0;
        while c < 128 {
            let b = c as u8;
            if b.is_ascii_alphabetic() || b == b'_' || b == b':' {
                t[c] = 2;
            } else if b.is_ascii_digit() || b == b'-' || b == b'.' {
                t[c] = 1;
            }
            c += 1;
        }
        t
    };
    if let [first, rest @ ..] = s.as_bytes() {
        // One pass: a non-ASCII byte is 0 in the table, so an ASCII name is accepted
        // here and any other goes on to the character test.
        if NAME[usize::from(*first)] == 2 && rest.iter().all(|&c| NAME[usize::from(c)] != 0) {
            return true;
        }
        if s.is_ascii() {
            return false;
        }
    }
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':' || !c.is_ascii())
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | ':') || !c.is_ascii())
}

/// The first character of `s` that XML 1.0 does not allow. Works on bytes: the only
/// excluded characters a `str` can hold are the C0 controls other than tab, newline and
/// carriage return (one byte each) and U+FFFE/U+FFFF (`EF BF BE`/`EF BF BF`), so 32-byte
/// blocks free of both kinds of byte are skipped without decoding.
fn first_non_xml_char(s: &str) -> Option<char> {
    scan_text(s, false).0
}

/// [`first_non_xml_char`], and (when `cdata_end`) whether `s` holds `]]>`, in one pass:
/// `]` joins the suspect bytes, so the usual block free of all three costs one test.
fn scan_text(s: &str, cdata_end: bool) -> (Option<char>, bool) {
    // Branch-free so that the block test vectorizes.
    let bracket = if cdata_end { b']' } else { 0 };
    // (Without `cdata_end`, `bracket` is NUL, a suspect byte anyway.)
    let suspect = |c: u8| {
        (c < 0x20) & (c != b'\t') & (c != b'\n') & (c != b'\r') | (c == 0xef) | (c == bracket)
    };
    let any = |block: &[u8]| block.iter().fold(0u8, |acc, &c| acc | u8::from(suspect(c))) != 0;
    let b = s.as_bytes();
    let mut end_seen = false;
    let mut exact = |from: usize, to: usize| {
        for j in from..to {
            let c = b[j];
            if c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r') {
                return Some(char::from(c));
            }
            if c == 0xef && b.get(j + 1) == Some(&0xbf) && matches!(b.get(j + 2), Some(0xbe | 0xbf))
            {
                return s[j..].chars().next();
            }
            if cdata_end && c == b']' && b[j..].starts_with(b"]]>") {
                end_seen = true;
            }
        }
        None
    };
    let mut blocks = b.chunks_exact(32);
    let mut at = 0;
    for block in &mut blocks {
        if any(block)
            && let Some(c) = exact(at, at + 32)
        {
            return (Some(c), end_seen);
        }
        at += 32;
    }
    if any(blocks.remainder()) {
        return (exact(at, b.len()), end_seen);
    }
    (None, end_seen)
}

/// Whether `s` holds `]]>`: a search for `]` (absent from almost every text), each hit
/// checked in place.
fn holds_cdata_end(s: &str) -> bool {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr(b']', &b[from..]) {
        if b[from + i..].starts_with(b"]]>") {
            return true;
        }
        from += i + 1;
    }
    false
}

/// The strict pass's message for `]]>` in character data.
const CDATA_END_IN_TEXT: &str = "not well-formed (invalid token): `]]>` in text";

fn check_text(s: &str) -> Result<(), String> {
    match first_non_xml_char(s) {
        Some(c) => Err(invalid_char(c)),
        None => Ok(()),
    }
}

fn invalid_char(c: char) -> String {
    format!(
        "not well-formed (invalid token): character U+{:04X}",
        c as u32
    )
}

/// Why the strict pass stops at an event.
enum Failure {
    /// Not well-formed: the message.
    Malformed(String),
    /// An undeclared namespace prefix.
    Undeclared(Undeclared),
}

impl Failure {
    /// The strict pass's error at byte offset `pos`.
    fn at(self, pos: usize) -> (String, usize, BozoKind) {
        match self {
            Failure::Malformed(m) => (m, pos, BozoKind::NotWellFormed),
            Failure::Undeclared(u) => undeclared(u, pos),
        }
    }
}

impl Driver<'_> {
    /// Routes one quick-xml event inside the document to the builder: the step the strict
    /// pass and the streaming reader ([`stream`]) share. A strict driver checks
    /// well-formedness (names, attribute values, characters, references) and fails on the
    /// first problem; a lenient one never fails and reads attributes and references as
    /// the lenient pass does (HTML entities resolved, unknown ones kept as written,
    /// valueless attributes read as empty, HTML void elements closed inside content).
    /// Prolog events (declaration, DOCTYPE, comments, PIs) are ignored.
    fn quick_event(&mut self, ev: Event<'_>) -> Result<(), Failure> {
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
                    self.strict_ref(&name).map_err(Failure::Malformed)?;
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
    fn text_event(&mut self, t: &BytesText<'_>, no_cdata_end: bool) -> Result<(), Failure> {
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

    fn quick_attrs<'a>(
        &mut self,
        e: &'a quick_xml::events::BytesStart<'_>,
    ) -> Result<Attrs<'a>, Failure> {
        if self.strict {
            return strict_attrs(e, self).map_err(Failure::Malformed);
        }
        let mut out = Vec::new();
        let mut attrs = e.html_attributes();
        attrs.with_checks(false);
        for a in attrs.flatten() {
            // A valueless attribute (HTML style) reads as empty.
            let value = lenient::decode_attr(&a.value, self);
            out.push((Cow::Borrowed(a.key.0), Cow::Owned(value)));
        }
        Ok(out)
    }

    /// References and text up to the next `<` (`rest` starts at a reference inside an
    /// element), as one piece of text: the bytes taken, or `None` to read them event by
    /// event. Escaped markup (an HTML summary in RSS or Atom) is mostly references, and
    /// each event costs more than the characters it holds; read as one run, the element's
    /// text gets one call. Only the plain case is taken: in the strict pass over a text
    /// whose characters and line ends were checked once, outside skipped elements and
    /// inline XHTML (which keeps each piece), a run whose references are all predefined
    /// or character references. Anything else (`]`, a custom entity, a reference that is
    /// not well-formed) goes event by event, which reports it where it is.
    fn text_run(&mut self, rest: &str, at: usize) -> Option<usize> {
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
        tests::RUN_BYTES_SEEN.set(tests::RUN_BYTES_SEEN.get() + end);
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
                match text::char_ref(name).filter(|&c| is_xml_char(c)) {
                    Some(c) => out.push(c),
                    None => break false,
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
        if tests::EVENT_BY_EVENT.get() {
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
        if tests::EVENT_BY_EVENT.get() {
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

    /// A reference in text, resolved strictly.
    fn strict_ref(&mut self, name: &str) -> Result<(), String> {
        if name.starts_with('#') {
            match text::char_ref(name).filter(|&c| is_xml_char(c)) {
                Some(c) => self.text(c.encode_utf8(&mut [0; 4]), true),
                None => return Err(format!("reference to invalid character number: &{name};")),
            }
        } else if let Some(v) = text::xml_entity(name) {
            self.text(v, true);
        } else if let Some(v) = self.entity(name) {
            self.text(&v, true);
        } else {
            return Err(format!("undefined entity: &{name};"));
        }
        Ok(())
    }
}

/// Where and why the strict pass stopped.
struct Stopped<'o> {
    message: String,
    /// Byte offset of the problem, for the bozo record.
    offset: usize,
    kind: BozoKind,
    /// The driver and the offset the lenient pass can go on from, when the failing
    /// construct left no trace in the driver's state (the event before it is complete,
    /// nothing of it was applied; an undeclared prefix takes back the declarations of its
    /// start tag first). `None` when there was no root element: the lenient pass then
    /// starts over.
    resume: Option<(Box<Driver<'o>>, usize)>,
}

/// The strict pass: the driver, or where and why it stopped on the first
/// well-formedness failure.
fn strict_pass<'o>(
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
            Some(Own::Error(e)) => return Err(stop(driver, e.to_string(), pos, pos)),
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
                    let at = reader.error_position() as usize;
                    return Err(stop(driver, e.to_string(), at, pos));
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
                        Failure::Malformed(m) => stop(driver, m, pos, pos),
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
fn own_event<'t>(text: &'t str, reader: &mut Reader<&[u8]>, open: &mut OwnOpen) -> Option<Own<'t>> {
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

/// quick-xml's whitespace (XML's `S`).
fn is_xml_space(c: u8) -> bool {
    matches!(c, b' ' | b'\r' | b'\n' | b'\t')
}

/// The index of the `>` that closes the tag starting at `b[0]` (`<`), as quick-xml finds
/// it: the first one outside single- or double-quoted values. `None` at the end of the
/// text (quick-xml reports which construct was left open).
fn tag_end(b: &[u8]) -> Option<usize> {
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
struct OwnOpen {
    names: String,
    starts: Vec<usize>,
}

/// What [`own_event`] read.
enum Own<'t> {
    /// An event, and the number of bytes it spans.
    Event(Event<'t>, usize),
    /// An end tag that does not close the innermost element: quick-xml's error for it.
    Error(quick_xml::Error),
}

fn undeclared(f: Undeclared, pos: usize) -> (String, usize, BozoKind) {
    (
        format!("'{}' is not associated with a namespace", f.0),
        pos,
        BozoKind::UndeclaredNamespace,
    )
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

/// Parses decoded feed text. Never fails: problems become bozo records.
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
                    driver.strict = false;
                    // The lenient pass normalises line ends itself.
                    driver.no_cr = false;
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

#[cfg(test)]
mod tests {
    #[test]
    fn both_passes_agree_on_a_well_formed_feed() {
        let rss = "<rss version='2.0'><channel><title>T</title><link>http://e/</link>\
                   <item><title>a</title><pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate>\
                   <enclosure url='http://e/a.mp3' length='10' type='audio/mpeg'/></item>\
                   </channel></rss>";
        let strict = parse_str(rss, &ParseOptions::default());
        let lenient = parse_str_lenient(rss, &ParseOptions::default());
        assert!(strict.bozo.is_empty());
        assert_eq!(strict.feed, lenient.feed);
        assert_eq!(strict.entries, lenient.entries);
    }

    use super::*;

    thread_local! {
        /// Reads text and references event by event ([`Driver::text_run`] declines).
        pub(super) static EVENT_BY_EVENT: std::cell::Cell<bool> =
            const { std::cell::Cell::new(false) };
        /// The bytes [`Driver::text_run`] looked through for a run's end.
        pub(super) static RUN_BYTES_SEEN: std::cell::Cell<usize> =
            const { std::cell::Cell::new(0) };
    }

    #[test]
    fn a_declined_run_is_not_looked_through_again_at_each_reference() {
        // Runs declined for their length, for a `]` at their end, for a custom entity at
        // their end: each reference of a declined run would look through the rest of it
        // again, quadratic in its length.
        let refs = "&lt;b&gt;".repeat(3 * MAX_RUN / 9);
        let dtd = "<!DOCTYPE rss [<!ENTITY c \"C\">]>";
        for tail in ["", "]", "&c;"] {
            let text = format!(
                "{dtd}<rss><channel><title>{refs}{tail}</title><description>&lt;i&gt;\
                 </description></channel></rss>"
            );
            RUN_BYTES_SEEN.set(0);
            let r = parse_str(&text, &ParseOptions::default());
            let title = r.feed.title.as_deref().unwrap_or_default();
            assert!(title.starts_with("<b><b>"), "{}", &title[..20]);
            assert!(title.ends_with(if tail == "&c;" { "C" } else { ">" }) || tail == "]");
            let seen = RUN_BYTES_SEEN.get();
            assert!(
                seen <= 2 * text.len(),
                "{seen} bytes looked through for {}",
                text.len()
            );
        }
    }

    #[test]
    fn runs_of_references_read_as_event_by_event() {
        // Pieces of text: references well-formed and not, predefined, character and
        // custom, `]`, line ends, non-ASCII, nothing.
        const PIECES: &[&str] = &[
            "a",
            " ",
            "\n",
            "é",
            "&lt;",
            "&gt;",
            "&amp;",
            "&quot;",
            "&apos;",
            "&#38;",
            "&#x3C;",
            "&#X41;",
            "&#0;",
            "&#xD800;",
            "&#1;",
            "&#;",
            "&custom;",
            "&nope;",
            "&;",
            "&lt",
            "&",
            "]",
            "]]>",
            "&amp;&amp;",
            "&#128512;",
        ];
        let mut next = crate::bytes::tests::below(0x1234_5678_9abc_def1);
        let doctype = "<!DOCTYPE rss [<!ENTITY custom \"C&amp;D\">]>";
        for _ in 0..3_000 {
            let mut run =
                || -> String { (0..next(8)).map(|_| PIECES[next(PIECES.len())]).collect() };
            let (a, b, c) = (run(), run(), run());
            // Between elements: whitespace (skipped where text goes nowhere), or text.
            const GAPS: &[&str] = &["", " ", "\n", "\n\t  ", "\r\n", "x", " &amp; "];
            let mut gap = || GAPS[next(GAPS.len())];
            // `~` marks a gap.
            let marked = format!(
                "{doctype}<rss version='2.0' xmlns:podcast='https://podcastindex.org/namespace/1.0'>\
                 ~<channel>~<title>{a}</title>~<description>{b}</description>~<item>~\
                 <title>x{c}</title>~<description>{c}<b>{a}</b></description>~<author>~\
                 <name>n</name>~</author>~<podcast:person>p<podcast:img/>~<podcast:img/>~q\
                 </podcast:person>~</item>~<item>~</item>~</channel>~</rss>"
            );
            let rss: String = marked
                .split('~')
                .enumerate()
                .map(|(i, part)| {
                    if i == 0 {
                        part.to_owned()
                    } else {
                        format!("{}{part}", gap())
                    }
                })
                .collect();
            // Inline XHTML keeps each piece: never read as a run.
            let atom = format!(
                "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
                 <title type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'>{a}<b>{b}</b>\
                 </div></title><summary type='html'>{c}</summary>\
                 <content type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'>{b}</div>\
                 </content></entry></feed>"
            );
            for text in [rss, atom] {
                let read = |by_event: bool| {
                    EVENT_BY_EVENT.set(by_event);
                    let r = parse_str(&text, &ParseOptions::default());
                    EVENT_BY_EVENT.set(false);
                    (
                        serde_json::to_value(&r.feed).expect("json"),
                        serde_json::to_value(&r.entries).expect("json"),
                        r.bozo
                            .iter()
                            .map(|b| (b.message.clone(), format!("{:?}", b.position)))
                            .collect::<Vec<_>>(),
                    )
                };
                assert_eq!(read(false), read(true), "{text}");
            }
        }
    }

    #[test]
    fn names_of_one_feed_serve_the_next_only_under_the_same_bindings() {
        // Prefix `x` bound to Dublin Core: `x:creator` is the author.
        let dc = "<rss xmlns:x='http://purl.org/dc/elements/1.1/'><channel><item>\
                  <x:creator>A</x:creator></item></channel></rss>";
        // The same prefix bound elsewhere: an element of its own.
        let other = "<rss xmlns:x='http://example.com/x'><channel><item>\
                     <x:creator>B</x:creator></item></channel></rss>";
        // Extra binding: not the same scope either.
        let more = "<rss xmlns:x='http://purl.org/dc/elements/1.1/' \
                    xmlns:y='http://example.com/y'><channel><item><x:creator>C</x:creator>\
                    <y:a>D</y:a></item></channel></rss>";
        // No declaration at the root: an undeclared prefix (lenient pass), and the
        // prefix declared on the item only.
        let none = "<rss><channel><item><x:creator>E</x:creator><title>t</title></item>\
                    </channel></rss>";
        let nested = "<rss><channel><item xmlns:x='http://purl.org/dc/elements/1.1/'>\
                      <x:creator>F</x:creator><title>u</title></item></channel></rss>";
        let feeds = [dc, other, more, none, nested];
        let entry = |text: &str| {
            let r = parse_str(text, &ParseOptions::default());
            let mut v = serde_json::to_value(&r.entries[0]).expect("json");
            v["bozo"] = r.bozo.len().into();
            v
        };
        // Each feed parsed alone, on a thread of its own (no stash).
        let alone: Vec<serde_json::Value> = feeds
            .iter()
            .map(|t| {
                let t = (*t).to_owned();
                std::thread::spawn(move || entry(&t))
                    .join()
                    .expect("thread")
            })
            .collect();
        assert_eq!(alone[0]["author"], "A");
        assert_eq!(alone[1]["x_creator"], "B");
        assert!(alone[1].get("author").is_none());
        assert_eq!(alone[2]["y_a"], "D");
        assert_eq!(alone[3]["bozo"], 1);
        assert!(alone[3].get("author").is_none());
        assert_eq!(alone[4]["author"], "F");
        assert_eq!(alone[4]["bozo"], 0);
        // One after the other on this thread, in every order: the same results.
        for order in [
            [0, 1, 2, 3, 4],
            [1, 0, 2, 4, 3],
            [3, 4, 2, 0, 1],
            [4, 3, 0, 2, 1],
            [0, 3, 4, 1, 2],
        ] {
            for _ in 0..2 {
                for &i in &order {
                    assert_eq!(entry(feeds[i]), alone[i], "feed {i}");
                }
            }
        }
        // A root without declarations keeps its names for the next such feed.
        entry(none);
        assert!(NAME_STASH.with(|s| {
            s.borrow()
                .first()
                .is_some_and(|(b, n)| b.is_empty() && !n.is_empty())
        }));
        // A feed with the same bindings as a recent one starts with its names; the
        // stash stays bounded.
        entry(dc);
        let first = NAME_STASH.with(|s| s.borrow().first().map(|(_, n)| n.len()));
        assert!(first.is_some_and(|n| n > 0));
        for i in 0..10 {
            let t = format!("<rss xmlns:z{i}='http://example.com/{i}'><channel/></rss>");
            entry_or_none(&t);
        }
        NAME_STASH.with(|s| assert_eq!(s.borrow().len(), STASHED_SCOPES));
        // A root with more declarations than that is not kept.
        let many: String = (0..=MAX_STASHED_BINDINGS)
            .map(|i| format!(" xmlns:p{i}='http://example.com/many/{i}'"))
            .collect();
        entry(&format!(
            "<rss{many}><channel><item><title>t</title></item></channel></rss>"
        ));
        NAME_STASH.with(|s| {
            assert!(
                s.borrow()
                    .iter()
                    .all(|(b, _)| b.len() <= MAX_STASHED_BINDINGS)
            );
        });
    }

    fn entry_or_none(text: &str) {
        let r = parse_str(text, &ParseOptions::default());
        assert!(r.entries.is_empty());
    }

    #[test]
    fn xml_names_are_checked_as_by_characters() {
        // The definition the byte table shortcuts: by characters, any non-ASCII one
        // allowed.
        let by_chars = |s: &str| {
            let mut chars = s.chars();
            chars
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':' || !c.is_ascii())
                && chars.all(|c| {
                    c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | ':') || !c.is_ascii()
                })
        };
        let mut next = crate::bytes::tests::below(0x5851_f42d_4c95_7f2d);
        const PIECES: &[&str] = &[
            "a", "Z", "_", ":", "-", ".", "0", "9", "é", "中", " ", "=", "&", "\u{7f}", "\u{a0}",
            "/",
        ];
        for _ in 0..20_000 {
            let len = next(6);
            let s: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
            assert_eq!(is_xml_name(&s), by_chars(&s), "{s:?}");
        }
    }

    #[test]
    fn safe_entities_are_read() {
        let dt = scan_doctype(
            "<!DOCTYPE rss [\n<!ENTITY foo \"bar\">\n<!ENTITY c \"&#169;\">\n<!ENTITY x \"&a;&b;\">]>\n<rss/>",
        );
        assert_eq!(dt.entities.get("foo").map(String::as_str), Some("bar"));
        assert_eq!(dt.entities.get("c").map(String::as_str), Some("&#169;"));
        assert!(!dt.entities.contains_key("x"));
    }

    #[test]
    fn netscape_doctype_is_rss091n() {
        let dt = scan_doctype(
            "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"x\"><rss/>",
        );
        assert_eq!(dt.version, Some("rss091n"));
    }

    #[test]
    fn strict_then_lenient() {
        let ok = parse_str(
            "<rss version='2.0'><channel><title>t</title></channel></rss>",
            &ParseOptions::default(),
        );
        assert!(ok.bozo.is_empty());
        assert_eq!(ok.version, "rss20");
        assert_eq!(ok.feed.title.as_deref(), Some("t"));
        let bad = parse_str(
            "<rss version='2.0'><channel><title>a&nbsp;b</title></channel></rss>",
            &ParseOptions::default(),
        );
        assert_eq!(bad.bozo.len(), 1);
        assert_eq!(bad.bozo[0].kind, BozoKind::NotWellFormed);
        assert_eq!(bad.feed.title.as_deref(), Some("a\u{a0}b"));
    }

    #[test]
    fn line_ends_in_text_and_cdata_read_as_newlines() {
        let rss = "<rss version='2.0'><channel><title>a\r\nb\rc\nd</title>\
                   <description><![CDATA[x\r\ny\rz]]></description></channel></rss>";
        let r = parse_str(rss, &ParseOptions::default().sanitize_html(false));
        assert!(r.bozo.is_empty());
        assert_eq!(r.feed.title.as_deref(), Some("a\nb\nc\nd"));
        assert_eq!(r.feed.subtitle.as_deref(), Some("x\ny\nz"));
    }

    #[test]
    fn inline_xhtml_writes_void_elements_as_the_sanitizer_does() {
        let atom = "<feed xmlns='http://www.w3.org/2005/Atom'><entry><content type='xhtml'>\
                    <div xmlns='http://www.w3.org/1999/xhtml'><p>a<br/>b<command/>c<hr></hr>\
                    </p></div></content></entry></feed>";
        let options = ParseOptions::default().sanitize_html(false);
        let r = parse_str(atom, &options);
        assert_eq!(
            &*r.entries[0].content[0].value,
            "<p>a<br />b<command />c<hr /></p>"
        );
    }

    #[test]
    fn strict_pass_rejects_what_expat_rejects() {
        for bad in [
            "<rss><1a/></rss>",
            "<rss>]]></rss>",
            "<rss a='\u{1}'/>",
            "<rss>\u{c}</rss>",
            "<rss/><x/>",
            "text<rss/>",
            "<rss>",
        ] {
            let r = parse_str(bad, &ParseOptions::default());
            assert!(
                r.bozo
                    .iter()
                    .any(|b| b.kind == BozoKind::NotWellFormed && b.position.is_some()),
                "{bad:?} passed the strict pass"
            );
        }
    }

    #[test]
    fn non_xml_chars_are_found_by_bytes() {
        for s in [
            "",
            "plain",
            "tab\tnl\ncr\r",
            "日本語 ＡＢ \u{fffd}",
            &"x".repeat(100),
        ] {
            assert_eq!(first_non_xml_char(s), None, "{s:?}");
        }
        let long = format!("{}\u{c}", "y".repeat(70));
        for (s, c) in [
            ("a\u{1}b", '\u{1}'),
            ("\u{1f}", '\u{1f}'),
            ("ab\u{fffe}", '\u{fffe}'),
            ("\u{ff21}\u{ffff}", '\u{ffff}'),
            (long.as_str(), '\u{c}'),
        ] {
            assert_eq!(first_non_xml_char(s), Some(c), "{s:?}");
            assert_eq!(s.chars().find(|&c| !is_xml_char(c)), Some(c));
        }
    }

    #[test]
    fn cdata_end_is_found_in_the_same_pass() {
        let pad = "z".repeat(30);
        for (s, end) in [
            ("a]]>b".to_owned(), true),
            ("a]] >b".to_owned(), false),
            ("]]".to_owned(), false),
            // Across a 32-byte block boundary.
            (format!("{pad}]]>"), true),
            (format!("{}]]>", "z".repeat(31)), true),
            (format!("{pad}x]"), false),
        ] {
            assert_eq!(scan_text(&s, true), (None, end), "{s:?}");
            assert_eq!(scan_text(&s, false), (None, false), "{s:?}");
            assert_eq!(s.contains("]]>"), end);
            assert_eq!(holds_cdata_end(&s), end, "{s:?}");
        }
        // An invalid character is reported first, wherever the `]]>` is.
        assert_eq!(scan_text("]]>\u{1}", true).0, Some('\u{1}'));
        assert_eq!(scan_text("\u{1}]]>", true).0, Some('\u{1}'));
    }

    /// The strict pass's stop (message and offset) on `text`.
    fn strict_stop(text: &str) -> Option<(String, usize)> {
        let dt = scan_doctype(text);
        strict_pass(text, &ParseOptions::default(), &dt, None)
            .err()
            .map(|s| (s.message, s.offset))
    }

    #[test]
    fn whole_text_character_check_stops_where_the_event_checks_do() {
        // `]]>` in text is caught whether or not the whole text passed its character
        // check; a non-XML character anywhere makes every event check itself, so the
        // stop is where the character is (text, CDATA, attribute value).
        let end = "<rss><channel><title>a ]]> b</title></channel></rss>";
        let (m, at) = strict_stop(end).expect("`]]>` in text must stop the strict pass");
        assert!(m.contains("]]>"), "{m}");
        assert!(at <= end.find("]]>").unwrap(), "{at}");
        for (text, bad) in [
            (
                "<rss><channel><title>a\u{1}b</title></channel></rss>",
                "\u{1}",
            ),
            (
                "<rss><channel><title><![CDATA[x\u{b}]]></title></channel></rss>",
                "\u{b}",
            ),
            (
                "<rss><channel><link href=\"a\u{1f}\"/></channel></rss>",
                "\u{1f}",
            ),
            (
                "<rss><channel><title>x\u{fffe}</title></channel></rss>",
                "\u{fffe}",
            ),
        ] {
            assert!(first_non_xml_char(text).is_some());
            let (m, at) = strict_stop(text).unwrap_or_else(|| panic!("{text:?} passed"));
            assert!(m.contains("U+"), "{text:?}: {m}");
            assert!(at <= text.find(bad).unwrap(), "{text:?}: {at}");
            // The same document without the character passes.
            assert_eq!(strict_stop(&text.replace(bad, "")), None, "{text:?}");
        }
    }

    /// The events of `text` with their positions, as quick-xml reads them (`own` false)
    /// or with text and CDATA inside the root taken by [`own_event`] (`own` true), as
    /// the strict pass reads them; up to the first error, or the first text holding
    /// `]]>` inside the root, where the strict pass stops.
    fn event_trail(text: &str, own: bool) -> Vec<String> {
        let mut reader = Reader::from_str(text);
        reader.config_mut().check_end_names = true;
        reader.config_mut().check_comments = true;
        let mut depth = 0usize;
        let mut trail = Vec::new();
        let mut open = OwnOpen::default();
        loop {
            let pos = reader.buffer_position();
            let mine = if own && depth > 0 {
                own_event(text, &mut reader, &mut open)
            } else {
                None
            };
            let read = match mine {
                Some(Own::Event(ev, len)) => {
                    std::io::BufRead::consume(&mut reader.stream(), len);
                    Ok(ev)
                }
                // Reported where quick-xml reports it: at the tag's `<`.
                Some(Own::Error(e)) => Err((pos, e)),
                None => reader
                    .read_event()
                    .map_err(|e| (reader.error_position(), e)),
            };
            match read {
                Ok(Event::Eof) => break,
                Ok(ev) => {
                    match ev {
                        Event::Start(_) => depth += 1,
                        Event::End(_) => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    let stops = depth > 0 && matches!(&ev, Event::Text(t) if holds_cdata_end(t));
                    trail.push(format!("{pos} {ev:?}"));
                    if stops {
                        return trail;
                    }
                }
                Err((at, e)) => {
                    // The strict pass stops here (where quick-xml is left does not
                    // matter).
                    trail.push(format!("{at} error {e}"));
                    return trail;
                }
            }
        }
        trail.push(format!("end {}", reader.buffer_position()));
        trail
    }

    #[test]
    fn a_names_prefix_and_local_part_split_at_its_first_colon() {
        for (tag, prefix, local) in [
            ("title", "", "title"),
            ("dc:creator", "dc", "creator"),
            (":odd", "", "odd"),
            ("a:b:c", "a", "b:c"),
            ("trailing:", "trailing", ""),
        ] {
            let name = Name::new(tag, tag.to_owned(), None);
            assert_eq!((name.prefix(), name.local()), (prefix, local), "{tag}");
        }
    }

    #[test]
    fn own_text_and_cdata_events_are_quick_xmls() {
        // Pieces that make up random documents: text (with multi-byte characters, line
        // ends, stray `]]>` and `>`), references (good, dangling), CDATA (closed and not),
        // comments, PIs, elements, and a few broken constructs.
        const PIECES: &[&str] = &[
            "plain text ",
            "Köln – € 日本 ",
            "\r\nline\rends\n",
            "a ]]> b",
            "x ] y ]]z ]",
            " > ",
            "&amp;",
            "&#x41;",
            "&unknown;",
            "& ",
            "&amp",
            "<![CDATA[raw <b>&amp;</b> ]] ]]>",
            "<![CDATA[]]>",
            "<![CDATA[never closed",
            "<!-- comment -->",
            "<!-- bad -- comment -->",
            "<?pi data?>",
            "<x>",
            "</x>",
            "<y a='1'/>",
            "<z>text</z>",
            "</wrong>",
            "<",
            "<![CDAT",
            // Tags as quick-xml reads them: quoted `>`, spaces, odd names, unclosed.
            "<q a='>' b=\"'>\">",
            "</q  \n>",
            "<x/ >",
            "<x\n/>",
            "< x>",
            "<>",
            "</>",
            "</x a='>'>",
            "<u a=\"never closed>",
            "<u a='never closed>",
            "<a:b xmlns:a='urn:a'>",
            "</a:b>",
            "<?pi?>",
        ];
        let mut next = crate::bytes::tests::below(0x9e37_79b9_7f4a_7c15_u64);
        let mut docs: Vec<String> = vec![
            "<rss>text<![CDATA[c]]>&amp;tail</rss>".into(),
            "\u{feff}<rss>x</rss>".into(),
            "<a>unclosed text".into(),
            "<a><![CDATA[x]]></a>junk".into(),
        ];
        for _ in 0..3000 {
            let mut d = String::from("<root>");
            for _ in 0..next(12) {
                d.push_str(PIECES[next(PIECES.len())]);
            }
            if next(4) > 0 {
                d.push_str("</root>");
            }
            docs.push(d);
        }
        for d in &docs {
            assert_eq!(event_trail(d, true), event_trail(d, false), "{d:?}");
        }
        // The strict pass takes these events for its own: it reads text, CDATA and
        // their errors where it did before.
        let r = parse_str(
            "<rss><channel><title>a &amp; b</title><description><![CDATA[<p>x</p>]]>\
             </description></channel></rss>",
            &ParseOptions::default(),
        );
        assert!(r.bozo.is_empty(), "{:?}", r.bozo);
        assert_eq!(r.feed.title.as_deref(), Some("a & b"));
        assert_eq!(r.feed.subtitle.as_deref(), Some("<p>x</p>"));
    }

    #[test]
    fn duplicate_attributes_stop_the_strict_pass_in_quick_xmls_words() {
        for (count, dup_of, at) in [
            (2, 0, 1),
            (16, 3, 15),
            (17, 0, 16),
            (40, 5, 30),
            (40, 20, 39),
        ] {
            let mut tag = String::from("<rss");
            for i in 0..count {
                let name = if i == at { dup_of } else { i };
                tag.push_str(&format!(" a{name}=\"{i}\""));
            }
            tag.push('>');
            // quick-xml's own check, on the same tag.
            let mut reader = Reader::from_str(&tag);
            let Ok(Event::Start(e)) = reader.read_event() else {
                panic!("{tag}")
            };
            let err = e
                .attributes()
                .find_map(Result::err)
                .expect("quick-xml finds the duplicate");
            let text = format!("{tag}</rss>");
            let (m, _) = strict_stop(&text).unwrap_or_else(|| panic!("{text} passed"));
            assert_eq!(
                m,
                format!("not well-formed (invalid token): {err}"),
                "{text}"
            );
            // Without the duplicate, the same tag passes.
            let unique = text.replacen(&format!(" a{dup_of}=\"{at}\""), " zz=\"\"", 1);
            assert_eq!(strict_stop(&unique), None, "{unique}");
        }
    }

    #[test]
    fn split_attributes_reads_as_quick_xml_or_declines() {
        // Pieces of attribute lists, well-formed and not: names (repeated, odd, empty),
        // `=` with and without whitespace, both quotes, unclosed and missing values,
        // values holding the other quote, `>`, `&`, whitespace and multi-byte text.
        const PIECES: &[&str] = &[
            " a=\"1\"",
            " b='2'",
            "\tc = \"x y\"",
            "\n\rd=\"it's\"",
            " e='say \"hi\"'",
            " a=\"again\"",
            " f=\"&amp;\"",
            " g=\"Köln €\"",
            " h=\"\"",
            "i=\"no space\"",
            " j",
            " k=",
            " l=\"open",
            " m=bare",
            " =\"v\"",
            " n\"=\"1\"",
            " xml:lang=\"en\"",
            "  ",
            " o=\"a>b\"",
            " p =\t'q'",
        ];
        let mut next = crate::bytes::tests::below(0x2545_f491_4f6c_dd1d_u64);
        let mut agreed = 0;
        for round in 0..5000 {
            let count = if round % 50 == 0 { 20 } else { next(6) };
            let raw: String = (0..count).map(|_| PIECES[next(PIECES.len())]).collect();
            let content = format!("t{raw}");
            let e = quick_xml::events::BytesStart::from_content(content.as_str(), 1);
            let mut attrs = e.attributes();
            attrs.with_checks(true);
            let quick: Result<Vec<(String, String)>, _> = attrs
                .map(|a| a.map(|a| (a.key.0.to_owned(), a.value.into_owned())))
                .collect();
            let mut found = [("", ""); PLAIN_ATTRIBUTES];
            if let Some(n) = split_attributes(e.attributes_raw(), &mut found) {
                let ours: Vec<(String, String)> = found[..n]
                    .iter()
                    .map(|&(k, v)| (k.to_owned(), v.to_owned()))
                    .collect();
                assert_eq!(quick.as_ref().ok(), Some(&ours), "{raw:?}");
                agreed += 1;
            }
        }
        // Most lists are read here, not all declined.
        assert!(agreed > 1000, "{agreed}");
        // quick-xml words what this declines.
        let text = "<rss a='1' a='2'><channel/></rss>";
        let (m, _) = strict_stop(text).expect("duplicate attribute");
        assert!(m.contains("not well-formed"), "{m}");
    }

    #[test]
    fn attribute_values_are_borrowed_only_when_unchanged() {
        let mut d = Driver::new(Cow::Owned(ParseOptions::default()), true, HashMap::new());
        let v = strict_attr_value(Cow::Borrowed("http://e/a?b=1"), &mut d).unwrap();
        assert!(matches!(v, Cow::Borrowed("http://e/a?b=1")));
        for (raw, want) in [
            ("a&amp;b", "a&b"),
            ("a\tb\nc\r\nd", "a b c d"),
            ("&#x41;&lt;", "A<"),
        ] {
            let v = strict_attr_value(Cow::Borrowed(raw), &mut d).unwrap();
            assert!(matches!(v, Cow::Owned(_)), "{raw:?}");
            assert_eq!(v, want);
        }
        assert!(strict_attr_value(Cow::Borrowed("a<b"), &mut d).is_err());
        assert!(strict_attr_value(Cow::Borrowed("a&b"), &mut d).is_err());
        // Upper-case names are lowered, lower-case ones stay borrowed.
        assert!(matches!(
            lowercase_cow(Cow::Borrowed("href")),
            Cow::Borrowed("href")
        ));
        assert_eq!(lowercase_cow(Cow::Borrowed("HRef")), "href");
        assert_eq!(lowercase_cow(Cow::Borrowed("ÄB")), "äb");
    }

    #[test]
    fn entry_limit_overwrites_the_last_entry() {
        let text = "<rss><channel><item><title>A</title></item><item><title>B</title></item>\
                    <item><title>C</title></item></channel></rss>";
        let r = parse_str(text, &ParseOptions::default().max_entries(2));
        let titles: Vec<_> = r.entries.iter().map(|e| e.title.as_deref()).collect();
        assert_eq!(titles, [Some("A"), Some("C")]);
        assert!(r.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
        let one = parse_str(text, &ParseOptions::default().max_entries(1));
        assert_eq!(one.entries.len(), 1);
        assert_eq!(one.entries[0].title.as_deref(), Some("C"));
    }

    #[test]
    fn depth_limit() {
        let deep = format!("<rss>{}{}</rss>", "<a>".repeat(50), "</a>".repeat(50));
        let r = parse_str(&deep, &ParseOptions::default().max_depth(10));
        assert!(r.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
    }

    #[test]
    fn known_elements_never_spend_the_unknown_element_budget() {
        let rss = "<rss version='2.0' xmlns:dc='http://purl.org/dc/elements/1.1/' \
                   xmlns:content='http://purl.org/rss/1.0/modules/content/'><channel>\
                   <title>T</title><link>http://e/</link><description>d</description>\
                   <language>en</language><ttl>5</ttl><image><url>http://e/i</url></image>\
                   <item><title>a</title><link>http://e/1</link><description>x</description>\
                   <pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate><guid>g</guid>\
                   <author>a@e (A)</author><category>c</category><comments>http://e/c</comments>\
                   <enclosure url='http://e/a.mp3' length='1' type='audio/mpeg'/>\
                   <dc:creator>D</dc:creator><content:encoded>&lt;p&gt;c</content:encoded>\
                   </item></channel></rss>";
        let atom = "<feed xmlns='http://www.w3.org/2005/Atom'><title>T</title><id>i</id>\
                    <updated>2004-01-01T00:00:00Z</updated><entry><title>a</title><id>e</id>\
                    <link href='http://e/1'/><summary>s</summary><content>c</content>\
                    <author><name>A</name></author><published>2004-01-01T00:00:00Z</published>\
                    <category term='t'/></entry></feed>";
        for doc in [rss, atom] {
            let full = parse_str(doc, &ParseOptions::default());
            let none = parse_str(doc, &ParseOptions::default().max_unknown_elements(0));
            assert!(none.bozo.is_empty(), "{:?}", none.bozo);
            assert_eq!(none.feed, full.feed);
            assert_eq!(none.entries, full.entries);
        }
    }

    #[test]
    fn unknown_elements_beyond_the_budget_are_skipped_and_counted() {
        let children: String = (0..5).map(|i| format!("<e{i}>x</e{i}>")).collect();
        for broken in ["", "<x>&bogus;</x>"] {
            let doc = format!(
                "<rss version='2.0'><channel>{broken}<title>t</title><c0 a='1'/>\
                 <item><title>a</title>{children}<e0>again</e0></item></channel></rss>"
            );
            // The broken variant's <x> is an unknown element of the channel too.
            let budget = if broken.is_empty() { 3 } else { 4 };
            let r = parse_str(&doc, &ParseOptions::default().max_unknown_elements(budget));
            // The channel's c0 (attributes only) and the item's e0, e1 are kept; e2..e4
            // are skipped; a repeated e0 is no new key.
            assert!(r.feed.extra.contains_key("c0"), "{broken}");
            let e = &r.entries[0];
            assert_eq!(e.title.as_deref(), Some("a"));
            assert_eq!(
                e.extra.get("e0"),
                Some(&serde_json::json!("again")),
                "{broken}"
            );
            assert!(e.extra.contains_key("e1"));
            assert!(!e.extra.contains_key("e2") && !e.extra.contains_key("e4"));
            let limit: Vec<_> = r
                .bozo
                .iter()
                .filter(|b| b.kind == BozoKind::LimitExceeded)
                .collect();
            assert_eq!(limit.len(), 1, "{broken}: {:?}", r.bozo);
            assert!(
                limit[0].message.contains("3 more were skipped"),
                "{}",
                limit[0].message
            );
        }
    }

    #[test]
    fn attribute_limit_keeps_the_first_ones_in_both_passes() {
        // The enclosure's url comes first and is kept; 40 more attributes, then a
        // type that lies beyond the limit of 8.
        let many: String = (0..40).map(|i| format!(" a{i}='v'")).collect();
        for broken in ["", "<x>&bogus;</x>"] {
            let feed = format!(
                "<rss version='2.0'><channel>{broken}<item><enclosure url='http://e/a.mp3'\
                 {many} type='audio/mpeg'/></item></channel></rss>"
            );
            let r = parse_str(&feed, &ParseOptions::default().max_attributes(8));
            let limits: Vec<_> = r
                .bozo
                .iter()
                .filter(|b| b.kind == BozoKind::LimitExceeded)
                .collect();
            assert_eq!(limits.len(), 1, "{broken}: {:?}", r.bozo);
            assert!(limits[0].message.contains("more than 8 attributes"));
            let links = &r.entries[0].links;
            assert_eq!(links[0].href.as_deref(), Some("http://e/a.mp3"), "{broken}");
            assert_eq!(links[0].content_type, None, "{broken}");
            // The default keeps them all.
            let r = parse_str(&feed, &ParseOptions::default());
            let links = &r.entries[0].links;
            assert_eq!(links[0].content_type.as_deref(), Some("audio/mpeg"));
        }
    }
}

#[cfg(test)]
mod handover_tests {
    use super::*;

    /// Well-formed feeds with the constructs a hand-over must carry: namespaces, inline
    /// XHTML, CDATA, references, `xml:base`, line ends in text.
    const FEEDS: &[&str] = &[
        "<?xml version='1.0'?>\n<rss version='2.0' xmlns:dc='http://purl.org/dc/elements/1.1/'\n\
         xmlns:content='http://purl.org/rss/1.0/modules/content/'><channel>\n\
         <title>T &amp; U</title><link>http://e/</link><description>d</description>\n\
         <item><title>a&#233;</title><link>http://e/1</link><dc:creator>Ann</dc:creator>\n\
         <description>&lt;p&gt;x &lt;a href=\"/r\"&gt;l&lt;/a&gt;&lt;/p&gt;</description>\n\
         <content:encoded><![CDATA[<p>c <b>b</b></p>]]></content:encoded>\n\
         <enclosure url='http://e/a.mp3' length='10' type='audio/mpeg'/>\n\
         <category domain='http://e/t'>k</category></item>\n\
         <item><title>b</title><guid isPermaLink='true'>http://e/2</guid></item>\n\
         </channel></rss>\n",
        "<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://e/b/' xml:lang='en'>\n\
         <title type='html'>&lt;b&gt;T&lt;/b&gt;</title><id>urn:f</id>\n\
         <entry><title>e1</title><id>urn:1</id><link href='x'/>\n\
         <content type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'><p>h <a href='y'>y</a>\n\
         </p></div></content><author><name>N</name></author>\n\
         <updated>2004-01-01T00:00:00Z</updated></entry>\n\
         <entry><title type='text'>e2</title><summary>s\r\nt</summary>\n\
         <category term='c' label='L M'/></entry></feed>",
    ];

    /// Ways of breaking a feed at byte `at`.
    fn broken(feed: &str, at: usize) -> Vec<String> {
        let (a, b) = feed.split_at(at);
        vec![
            a.to_owned(),
            format!("{a}&nbsp;{b}"),
            format!("{a}<{b}"),
            format!("{a}&{b}"),
            format!("{a}</nope>{b}"),
            format!("{a}<x a='1' a='2'/>{b}"),
            format!("{a}\u{1}{b}"),
            format!("{a}<?xml version='1.0'?>{b}"),
            format!("{a}<u:x/>{b}"),
        ]
    }

    /// An undeclared prefix on a start tag that declares others: its declarations are
    /// taken back before the lenient pass reads the tag again.
    fn undeclared(feed: &str, at: usize) -> Vec<String> {
        let (a, b) = feed.split_at(at);
        vec![
            format!("{a}<u:x xmlns:v='urn:v' xmlns='urn:w' v:a='1'>{b}"),
            format!("{a}<x xmlns:dc='urn:other' u:a='1'/><dc:creator>c</dc:creator>{b}"),
            format!("{a}<u:x xmlns='urn:w'/><title>t</title><dc:creator>c</dc:creator>{b}"),
        ]
    }

    fn assert_same_reading(text: &str, options: &ParseOptions) {
        let handed = parse_str(text, options);
        let fresh = parse_str_lenient(text, options);
        assert_eq!(handed.feed, fresh.feed, "{text:?}");
        assert_eq!(handed.entries, fresh.entries, "{text:?}");
        assert_eq!(handed.version, fresh.version, "{text:?}");
        assert_eq!(handed.namespaces, fresh.namespaces, "{text:?}");
    }

    /// Going on from where the strict pass stopped gives what the lenient pass gives from
    /// the start, whatever the break and wherever it is.
    #[test]
    fn the_lenient_pass_resumes_where_the_strict_pass_stopped() {
        let options = ParseOptions::default();
        let (mut resumed, mut undeclared_resumed) = (0, 0);
        for feed in FEEDS {
            assert!(parse_str(feed, &options).bozo.is_empty(), "{feed}");
            for at in (0..=feed.len()).filter(|&i| feed.is_char_boundary(i)) {
                for text in broken(feed, at) {
                    let body = text.as_str();
                    let dt = scan_doctype(body);
                    if let Err(s) = strict_pass(body, &options, &dt, None) {
                        resumed += usize::from(s.resume.is_some());
                    }
                    assert_same_reading(body, &options);
                }
                for text in undeclared(feed, at) {
                    let body = text.as_str();
                    let dt = scan_doctype(body);
                    // Where the insertion falls inside a processing instruction or a
                    // comment the document is well-formed: nothing is handed over.
                    if let Err(s) = strict_pass(body, &options, &dt, None) {
                        undeclared_resumed += usize::from(
                            s.resume.is_some() && s.kind == BozoKind::UndeclaredNamespace,
                        );
                        assert_same_reading(body, &options);
                    }
                }
            }
        }
        assert!(resumed > 1000, "{resumed}");
        assert!(undeclared_resumed > 300, "{undeclared_resumed}");
    }

    /// The one difference from a lenient pass from the start: attribute values read
    /// before the break are normalized as XML says.
    #[test]
    fn attribute_values_before_the_break_are_normalized() {
        let text = "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
                    <category term='c' label='L\nM'/></entry><entry>&nbsp;</entry></feed>";
        let options = ParseOptions::default();
        let handed = parse_str(text, &options);
        assert_eq!(handed.bozo.len(), 1);
        assert_eq!(handed.entries.len(), 2);
        assert_eq!(handed.entries[0].tags[0].label.as_deref(), Some("L M"));
        let fresh = parse_str_lenient(text, &options);
        assert_eq!(fresh.entries[0].tags[0].label.as_deref(), Some("L\nM"));
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    fn attrs(names: &[&str]) -> Attrs<'static> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| ((*n).to_owned().into(), i.to_string().into()))
            .collect()
    }

    #[test]
    fn later_duplicate_attributes_win_in_the_first_place() {
        for n in [3usize, 40] {
            let mut names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
            names.push("a1".into());
            names.push("b".into());
            names.push("a0".into());
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let out = dedup_attrs(attrs(&refs));
            assert_eq!(out.len(), n + 1, "n = {n}");
            assert_eq!(out[0], ("a0".into(), (n + 2).to_string().into()));
            assert_eq!(out[1], ("a1".into(), n.to_string().into()));
            assert_eq!(out[n], ("b".into(), (n + 1).to_string().into()));
            let unique = attrs(&refs[..n]);
            assert_eq!(dedup_attrs(unique.clone()), unique);
        }
    }

    fn limit_messages(r: &ParsedFeed) -> Vec<&str> {
        r.bozo
            .iter()
            .filter(|b| b.kind == BozoKind::LimitExceeded)
            .map(|b| b.message.as_str())
            .collect()
    }

    #[test]
    fn an_exhausted_entity_budget_is_a_limit_not_an_undefined_entity() {
        let refs = "&e;".repeat(10);
        let text = format!(
            "<!DOCTYPE rss [<!ENTITY e \"abcd\">]><rss version='2.0'><channel>\
             <title>{refs}</title><item><title a='{refs}'>x</title></item></channel></rss>"
        );
        let r = parse_str(&text, &ParseOptions::default().max_entity_expansion(20));
        assert!(
            !r.bozo.iter().any(|b| b.kind == BozoKind::NotWellFormed),
            "{:?}",
            r.bozo
        );
        let limits = limit_messages(&r);
        assert_eq!(limits.len(), 1, "{limits:?}");
        assert!(limits[0].contains("max_entity_expansion"), "{}", limits[0]);
        assert!(limits[0].contains("20 bytes"), "{}", limits[0]);
        assert_eq!(
            r.feed.title.as_deref(),
            Some("abcdabcdabcdabcdabcd&e;&e;&e;&e;&e;")
        );
        // The same in the lenient pass.
        let broken = text.replace("<item>", "<item>&nbsp;<x>");
        let r = parse_str(&broken, &ParseOptions::default().max_entity_expansion(20));
        assert!(limit_messages(&r)[0].contains("max_entity_expansion"));
        assert_eq!(
            r.feed.title.as_deref(),
            Some("abcdabcdabcdabcdabcd&e;&e;&e;&e;&e;")
        );
    }

    #[test]
    fn every_limit_reached_is_recorded_once_with_its_name() {
        let text = format!(
            "<!DOCTYPE rss [<!ENTITY e \"abcd\">]><rss version='2.0'><channel>\
             <title>&e;&e;</title>{}{}{}</channel></rss>",
            "<item><a><b><c><d>deep</d></c></b></a></item>".repeat(3),
            "<item/>".repeat(5),
            "<item><title>last</title></item>"
        );
        let o = ParseOptions::default()
            .max_entity_expansion(5)
            .max_depth(5)
            .max_entries(4);
        let r = parse_str(&text, &o);
        let limits = limit_messages(&r);
        assert_eq!(limits.len(), 3, "{limits:?}");
        for name in ["max_depth", "max_entity_expansion", "max_entries"] {
            assert!(
                limits.iter().any(|m| m.contains(name)),
                "{name}: {limits:?}"
            );
        }
        assert!(limits.iter().any(|m| m.contains("more than 4 entries")));
        assert_eq!(r.entries.len(), 4);
        assert_eq!(r.entries[3].title.as_deref(), Some("last"));
    }

    #[test]
    fn scopes_shadow_and_unwind() {
        let mut s = Scopes::default();
        s.push(None, "d0".into());
        s.push(Some("a"), "a0".into());
        let mark = s.len();
        s.push(Some("a"), "a1".into());
        s.push(None, "d1".into());
        s.push(Some("b"), "b0".into());
        assert_eq!(s.resolve(Some("a")), Some("a1"));
        assert_eq!(s.resolve(None), Some("d1"));
        s.truncate(mark);
        assert_eq!(s.resolve(Some("a")), Some("a0"));
        assert_eq!(s.resolve(None), Some("d0"));
        assert_eq!(s.resolve(Some("b")), None);
        assert!(s.prefixed.len() == 1);
    }
}
