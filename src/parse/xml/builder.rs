//! The feed builder: a state machine fed with start/end/text events (from either pass)
//! that fills the feed model in place (`super::record`), following feedparser's element
//! handlers and precedence rules.
//!
//! This file is the shared machinery: the element stack and the text each element
//! collects, the contexts a value is stored in (feed, entry, image, text input, source),
//! push and pop with content parameters (type, base64, language, base), `xml:base` and
//! `xml:lang`, and inline XHTML. The element handlers live with their
//! format or namespace (`super::core`, `super::ns`); [`Builder::start`] and
//! [`Builder::end`] call the handlers registered for the element's namespace.

mod handlers;

use crate::parse::ValueRepair;
use crate::parse::xml::{Attr, Attrs};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use super::dict::{Key, Map, Value, jv};
use super::record::{Record, Slots};
use crate::model::{Entry, Feed, Link};

pub(super) use super::params::ContentParams;
use super::params::{SharedStrs, TextMetas};

use super::ns::{normalize_ns, prefix_for};
use super::text::{
    base64_utf8, lenient_quotes, looks_like_html, unsemicolon_refs, xml_escape, xml_escape_into,
};
use crate::charset::repair::{double_utf8_fixed, fix_c1_char_refs, map_cp1252};

/// A feedparser dictionary.
pub(crate) type Dict = Map;

struct Elem {
    name: Cow<'static, str>,
    expecting_text: bool,
    /// Its text is never read (an item's or entry's: the whitespace between its
    /// children), so none is kept.
    discard: bool,
    /// The text collected so far (one buffer per element).
    text: String,
    /// Where each piece of inline XHTML starts in `text` (recorded only in XHTML mode,
    /// where feedparser's wrapper-`div` removal looks at pieces).
    marks: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Ctx {
    Source,
    Image,
    TextInput,
    Entry,
    Feed,
}

/// The builder state (feedparser's parser mixin, as data).
pub(crate) struct Builder {
    /// Base64 content values that were not base64 text (kept as published).
    pub(super) not_base64: usize,
    /// Set while the elements left open at the end of the text are closed: one cut off
    /// before any text of its own stores nothing (see [`Builder::pop_impl`]).
    pub(super) closing_at_end: bool,
    /// The feed's metadata, filled in place.
    pub(super) feed: Record<Feed>,
    /// The entry being built (at most one: an entry is final once the next one starts,
    /// since only the last entry is ever written to), filled in place.
    pub(super) entries: Vec<Record<Entry>>,
    /// The final entries, converted as soon as they are final (while still in cache, and
    /// so that their dictionaries' memory is reused for the next entry).
    pub(super) done: Vec<crate::model::Entry>,
    /// The last final entry's `rest` dictionary, emptied, for the next entry.
    pub(super) spare_entry: Option<Dict>,
    /// Where final entries go instead of [`Builder::done`], when set.
    pub(super) sink: Option<super::SharedSink>,
    /// How many final entries went to [`Builder::sink`].
    sunk: usize,
    pub(super) version: String,
    pub(super) namespaces_in_use: BTreeMap<String, String>,
    pub(super) infeed: bool,
    pub(super) inentry: bool,
    incontent: u32,
    pub(super) intextinput: bool,
    pub(super) inimage: bool,
    pub(super) inauthor: bool,
    pub(super) incontributor: bool,
    pub(super) inpublisher: bool,
    pub(super) insource: bool,
    pub(super) sourcedata: Dict,
    pub(super) cp: ContentParams,
    pub(super) summary_key: Option<&'static str>,
    stack: Vec<Elem>,
    /// Where the open entry's `item` element sits in `stack`.
    item_at: usize,
    /// Elements entries left on `stack` (see [`Builder::end_item_element`]).
    left_behind: usize,
    basestack: Vec<Rc<str>>,
    langstack: Vec<Option<Rc<str>>>,
    baseuri: Rc<str>,
    pub(super) lang: Option<Rc<str>>,
    /// The `Arc` copies of content parameters that text details share.
    shared: SharedStrs,
    /// The details texts share (see [`TextMetas`]).
    metas: TextMetas,
    pub(super) svg_ok: u32,
    pub(super) title_depth: i64,
    pub(super) depth: i64,
    pub(super) has_content: bool,
    /// Depth at which each key of the current entry was stored (feedparser's
    /// `property_depth_map`, for the last entry only), by the key's 64-bit hash (seeded
    /// per process): no copy of each key, which matters when an entry holds a million
    /// distinct elements; two keys of one entry sharing a hash is a 2^-64 event.
    pub(super) property_depth: hashbrown::HashMap<u64, i64>,
    /// The hasher of [`Builder::property_depth`]'s keys.
    key_hasher: hashbrown::DefaultHashBuilder,
    pub(super) guidislink: bool,
    pub(super) psc_chapters_flag: bool,
    /// The text of the last element popped with [`Builder::pop_borrowed`].
    pub(super) popped: String,
    /// The last date text parsed and its value.
    pub(super) last_date: Option<(String, Value)>,
    pub(super) ingeometry: super::ns::gml::Geom,
    /// The `podcast:` elements being read (`super::ns::podcast`).
    pub(super) podcast: super::ns::podcast::State,
    /// Limits: maximum number of entries kept.
    pub(super) max_entries: usize,
    /// Set when `max_entries` was hit.
    pub(super) entries_truncated: bool,
    /// `ParseOptions::max_unknown_elements`, and what is left of it.
    pub(super) unknown_limit: usize,
    unknown_left: usize,
    /// Unknown elements skipped once the budget was spent.
    pub(super) unknown_dropped: usize,
    /// Sanitize HTML values ([`crate::parse::ParseOptions::sanitize_html`]).
    pub(super) sanitize_html: bool,
    /// Resolve URIs inside HTML values
    /// ([`crate::parse::ParseOptions::resolve_relative_uris`]).
    resolve_uris: bool,
    /// The allow-lists of the sanitizer and of the guess whether text is HTML
    /// ([`crate::parse::ParseOptions::sanitize_policy`]).
    sanitize_policy: Option<std::sync::Arc<crate::html::SanitizePolicy>>,
    /// The per-value double-UTF-8 repair ([`crate::parse::ParseOptions`]).
    pub(super) value_repair: ValueRepair,
    /// Set by the lenient pass where it starts reading (feedparser reads a document
    /// that is not well-formed with its lenient parser, whose text values differ in one
    /// way this builder follows: [`lenient_quotes`]).
    pub(super) lenient: bool,
    /// The values that repair changed.
    pub(super) repaired: super::text::Repaired,
    /// The elements the program handles itself
    /// ([`crate::parse::ParseOptions::handlers`]).
    pub(super) handlers: Option<std::sync::Arc<crate::parse::ElementHandlers>>,
    /// The calls recorded for them, in document order.
    pub(super) handler_calls: Vec<crate::model::HandlerCall>,
}

pub(super) fn getattr<'a>(attrs: &'a [Attr<'_>], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| &**v)
}

pub(super) fn attrs_dict(attrs: &[Attr<'_>]) -> Dict {
    let mut d = Dict::with_capacity(attrs.len() + 2);
    for (k, v) in attrs {
        d.insert(k.to_string().into(), jstr(&**v));
    }
    d
}

/// A link's attributes as the model's [`Link`]: each attribute under its own name, as in
/// feedparser's dictionary of them, with `url` (else `uri`) taken as the `href` when it
/// is not empty (as [`enforce_href`] does to a dictionary). The attributes are taken out
/// of `attrs`, whose room the caller keeps.
pub(super) fn link_from_attrs(attrs: &mut Attrs<'_>) -> Link {
    let mut l = Link::default();
    let (mut url, mut uri): (Option<crate::model::CompactString>, _) = (None, None);
    // The other attributes, put in `extra` at once: one sort, where inserting them one
    // by one into the sorted vector would move it for each (an element may have
    // thousands).
    let mut others = Vec::new();
    for (k, v) in attrs.drain(..) {
        let field = match &*k {
            "url" => &mut url,
            "uri" => &mut uri,
            key => match l.field_mut(key) {
                Some(field) => field,
                None => {
                    others.push((k.into_owned(), serde_json::Value::String(v.into_owned())));
                    continue;
                }
            },
        };
        *field = Some(v.into());
    }
    l.extra.extend(others);
    match url.as_ref().or(uri.as_ref()) {
        Some(h) if !h.is_empty() => l.href = url.or(uri),
        _ => {
            for (k, v) in [("url", url), ("uri", uri)] {
                if let Some(v) = v {
                    l.extra
                        .insert(k.to_owned(), serde_json::Value::String(v.into_string()));
                }
            }
        }
    }
    l
}

/// Appends `link` to the context's `links` (unless that key holds something else).
pub(super) fn push_link(ctx: &mut Slots<'_>, link: Link) {
    if let Some(a) = ctx.links_mut(true) {
        push_sized(a, 1, link);
    }
}

/// Appends `item` to `list`, which is given room for `first` items when it has none and
/// then grows by one item at a time up to [`EXACT_UP_TO`]: the model's lists mostly hold
/// one to three (an entry's alternate and enclosure links, one author, one content, a
/// few tags), where a `Vec`'s first push makes room for four (13 MB of spare room in the
/// result of a 20 MiB feed) and its fifth for eight. A longer list grows as a `Vec` does.
pub(super) fn push_sized<T>(list: &mut Vec<T>, first: usize, item: T) {
    if list.capacity() == 0 {
        list.reserve_exact(first);
    } else if list.len() == list.capacity() && list.len() < EXACT_UP_TO {
        list.reserve_exact(1);
    }
    list.push(item);
}

/// Up to how many items a list grows one item at a time (each growth a reallocation:
/// cheap while the list is short, quadratic if it went on).
const EXACT_UP_TO: usize = 4;

/// Sets the `href` of the context's last link, when there is one.
fn set_last_link_href(ctx: &mut Slots<'_>, href: String) {
    if let Some(l) = ctx.links_mut(false).and_then(|a| a.last_mut()) {
        l.href = Some(href.into());
    }
}

pub(super) fn map_content_type(t: &str) -> Cow<'_, str> {
    if matches!(t, "text/html" | "text/plain" | "application/xhtml+xml") {
        // The usual values (every text's pop asks), already final.
        return Cow::Borrowed(t);
    }
    let t = super::names::lowercase(t);
    match &*t {
        "text" | "plain" => "text/plain".into(),
        "html" => "text/html".into(),
        "xhtml" => "application/xhtml+xml".into(),
        _ => t,
    }
}

pub(super) fn is_html_type(t: &str) -> bool {
    t == "text/html" || t == "application/xhtml+xml"
}

pub(super) fn enforce_href(d: &mut Dict) {
    if !d.contains_key("url") && !d.contains_key("uri") {
        // `href` would be reinserted as it is.
        return;
    }
    let href = d
        .get("url")
        .or_else(|| d.get("uri"))
        .or_else(|| d.get("href"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(h) = href
        && !h.is_empty()
    {
        d.remove("url");
        d.remove("uri");
        d.insert("href".into(), jstr(h));
    }
}

pub(super) fn date_value(s: &str) -> Value {
    match crate::date::parse_date(s) {
        Some(dt) => Value::Date(dt),
        None => Value::Null,
    }
}

/// A JSON string, moving an owned `String` in (`json!` would copy it).
pub(super) fn jstr(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

pub(super) fn str_of(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
}

impl Builder {
    /// Sets the budget of keys for elements the model has no field for.
    pub(crate) fn unknown_budget(mut self, n: usize) -> Self {
        self.unknown_limit = n;
        self.unknown_left = n;
        self
    }

    /// Whether a key may be stored: always when it is there already or has a typed
    /// field in the model; a new key without one spends one of the budget, and when
    /// none is left it is counted as skipped.
    fn key_allowed(&mut self, key: &Key, exists: bool) -> bool {
        exists || super::convert::is_typed_key(key) || self.spend_unknown()
    }

    /// Spends one of the budget of keys without a field: `false` (counted as skipped)
    /// when none is left.
    fn spend_unknown(&mut self) -> bool {
        if self.unknown_left == 0 {
            self.unknown_dropped += 1;
            return false;
        }
        self.unknown_left -= 1;
        true
    }

    /// Whether `key` is a new unknown key past the budget: it cannot be stored.
    fn over_budget(&self, key: &str, exists: bool) -> bool {
        !exists && self.unknown_left == 0 && !super::convert::is_typed_key(key)
    }

    pub(crate) fn new(lang: Option<String>, base: Option<String>, max_entries: usize) -> Self {
        let mut feed = Record::<Feed>::default();
        if let Some(l) = &lang {
            Slots::Feed(&mut feed).insert("language".into(), jv!(l.replace('_', "-")));
        }
        Builder {
            not_base64: 0,
            closing_at_end: false,
            feed,
            entries: Vec::new(),
            done: Vec::new(),
            spare_entry: None,
            sink: None,
            sunk: 0,
            version: String::new(),
            namespaces_in_use: BTreeMap::new(),
            infeed: false,
            inentry: false,
            incontent: 0,
            intextinput: false,
            inimage: false,
            inauthor: false,
            incontributor: false,
            inpublisher: false,
            insource: false,
            sourcedata: Dict::new(),
            cp: ContentParams::default(),
            summary_key: None,
            stack: Vec::new(),
            item_at: 0,
            left_behind: 0,
            basestack: Vec::new(),
            langstack: Vec::new(),
            baseuri: base.unwrap_or_default().into(),
            lang: lang.map(Rc::from),
            shared: SharedStrs::default(),
            metas: TextMetas::default(),
            svg_ok: 0,
            title_depth: -1,
            depth: 0,
            has_content: false,
            property_depth: hashbrown::HashMap::new(),
            key_hasher: hashbrown::DefaultHashBuilder::default(),
            guidislink: false,
            psc_chapters_flag: false,
            popped: String::new(),
            last_date: None,
            ingeometry: super::ns::gml::Geom::None,
            podcast: Default::default(),
            max_entries,
            entries_truncated: false,
            unknown_limit: usize::MAX,
            unknown_left: usize::MAX,
            unknown_dropped: 0,
            sanitize_html: true,
            resolve_uris: true,
            sanitize_policy: None,
            value_repair: ValueRepair::default(),
            lenient: false,
            repaired: super::text::Repaired::default(),
            handlers: None,
            handler_calls: Vec::new(),
        }
    }

    /// Sets the per-value double-UTF-8 repair.
    pub(crate) fn value_repair(mut self, repair: ValueRepair) -> Self {
        self.value_repair = repair;
        self
    }

    /// Sets what happens to HTML values: sanitizing (with `policy`'s allow-lists when
    /// given) and relative-URI resolution.
    pub(crate) fn html_options(
        mut self,
        sanitize: bool,
        resolve: bool,
        policy: Option<std::sync::Arc<crate::html::SanitizePolicy>>,
    ) -> Self {
        self.sanitize_html = sanitize;
        self.resolve_uris = resolve;
        self.sanitize_policy = policy;
        self
    }

    /// Records a namespace declaration (prefix `None` for the default namespace), under
    /// the prefix feedparser keys it by (`extra`: the program's namespaces).
    pub(crate) fn track_namespace(
        &mut self,
        prefix: Option<&str>,
        uri: &str,
        extra: Option<&crate::parse::ExtraNamespaces>,
    ) {
        if uri.is_empty() {
            return;
        }
        let lower = uri.to_lowercase();
        if self.version.is_empty() {
            if prefix.is_none() && lower == "http://my.netscape.com/rdf/simple/0.9/" {
                self.version = "rss090".into();
            } else if lower == "http://purl.org/rss/1.0/" {
                self.version = "rss10".into();
            } else if lower == "http://www.w3.org/2005/atom" {
                self.version = "atom10".into();
            } else if prefix.is_none() && lower == "http://purl.org/net/rss1.1#" {
                // RSS 1.1's root is a `Channel` in this namespace (not CDF's).
                self.version = "rss11".into();
            }
        }
        let (uri, lower) = normalize_ns(uri);
        match prefix_for(&lower, extra) {
            Some(p) => {
                self.namespaces_in_use.insert(p.to_owned(), uri);
            }
            None => {
                self.namespaces_in_use
                    .insert(prefix.unwrap_or("").to_owned(), uri);
            }
        }
    }

    pub(super) fn ctx_kind(&self) -> Ctx {
        if self.insource {
            Ctx::Source
        } else if self.inimage && self.feed.rest.get("image").is_some_and(Value::is_object) {
            Ctx::Image
        } else if self.intextinput {
            Ctx::TextInput
        } else if self.inentry && !self.entries.is_empty() {
            Ctx::Entry
        } else {
            Ctx::Feed
        }
    }

    /// Where values go now: the entry or the feed (typed, filled in place), or the
    /// source, image or text input (dictionaries, maps in the model).
    pub(super) fn ctx(&mut self) -> Slots<'_> {
        match self.ctx_kind() {
            Ctx::Source => Slots::Dict(&mut self.sourcedata),
            Ctx::Image => Slots::Dict(
                self.feed
                    .rest
                    .get_mut("image")
                    .and_then(Value::as_object_mut)
                    .expect("image"),
            ),
            Ctx::TextInput => {
                let v = self
                    .feed
                    .rest
                    .entry("textinput".into())
                    .or_insert_with(|| jv!({}));
                if !v.is_object() {
                    *v = jv!({});
                }
                Slots::Dict(v.as_object_mut().expect("object"))
            }
            Ctx::Entry => Slots::Entry(self.entries.last_mut().expect("entry")),
            Ctx::Feed => Slots::Feed(&mut self.feed),
        }
    }

    /// Whether the current context holds `key` (as `self.ctx().contains_key(key)`, without
    /// creating a missing text-input dictionary).
    pub(super) fn ctx_has(&self, key: &str) -> bool {
        let d = match self.ctx_kind() {
            Ctx::Source => Some(&self.sourcedata),
            Ctx::Image => self.feed.rest.get("image").and_then(Value::as_object),
            Ctx::TextInput => self.feed.rest.get("textinput").and_then(Value::as_object),
            Ctx::Entry => return self.entries.last().is_some_and(|e| e.contains_key(key)),
            Ctx::Feed => return self.feed.contains_key(key),
        };
        d.is_some_and(|d| d.contains_key(key))
    }

    pub(super) fn save(&mut self, key: impl Into<Key>, value: Value, overwrite: bool) {
        let key = key.into();
        let mut ctx = self.ctx();
        if overwrite || !ctx.contains_key(&key) {
            ctx.insert(key, value);
        }
    }

    pub(super) fn push(&mut self, name: impl Into<Cow<'static, str>>, expecting_text: bool) {
        self.push_elem(name.into(), expecting_text, false);
    }

    /// [`Builder::push`] for an element whose text is never read (its popped value is
    /// ignored): an item or entry, whose text is the whitespace between its children.
    pub(super) fn push_discarding_text(&mut self, name: &'static str) {
        self.push_elem(name.into(), false, true);
    }

    fn push_elem(&mut self, name: Cow<'static, str>, expecting_text: bool, discard: bool) {
        self.stack.push(Elem {
            name,
            expecting_text,
            discard,
            text: String::new(),
            marks: Vec::new(),
        });
    }

    /// An entry's `item` element, pushed when the entry starts.
    pub(super) fn push_item_element(&mut self) {
        self.item_at = self.stack.len();
        self.push_discarding_text("item");
    }

    /// Pops an entry's `item` element. feedparser's `content` start pushes `content`
    /// twice and its end pops one, so after an Atom entry with content the entry's own
    /// pop fails and both stay on the stack, with every entry adding two more. They
    /// are kept as feedparser keeps them (a later end tag of the same name pops them),
    /// up to [`Self::MAX_LEFT_BEHIND`] elements; past that, what an entry leaves goes:
    /// a feed of a million one-line entries must not hold two million elements.
    pub(super) fn end_item_element(&mut self) {
        if self.pop_unused("item", true).is_some() {
            return;
        }
        let at = self.item_at;
        if self.stack.get(at).is_none_or(|e| e.name != "item") {
            return;
        }
        let left = self.stack.len() - at;
        if self.left_behind + left > Self::MAX_LEFT_BEHIND {
            self.stack.truncate(at);
        } else {
            self.left_behind += left;
        }
    }

    /// The most elements entries leave on the stack (see [`Self::end_item_element`]).
    pub(super) const MAX_LEFT_BEHIND: usize = 1024;

    /// How many elements are on the stack.
    #[cfg(test)]
    pub(super) fn stack_len(&self) -> usize {
        self.stack.len()
    }

    /// Whether text here goes nowhere: outside every element the builder keeps text for,
    /// or in one whose text is never read, and outside `podcast:` elements.
    pub(crate) fn discards_text(&self) -> bool {
        !self.podcast.reading() && self.stack.last().is_none_or(|e| e.discard)
    }

    /// Text content (`escape`: escape it when inside inline XHTML).
    pub(crate) fn data(&mut self, text: &str, escape: bool) {
        if super::ns::podcast::text(self, text) {
            return;
        }
        let xhtml = self.in_xhtml();
        let Some(top) = self.stack.last_mut().filter(|top| !top.discard) else {
            return;
        };
        if xhtml {
            if top.marks.is_empty() && !top.text.is_empty() {
                top.marks.push(0);
            }
            top.marks.push(top.text.len());
        }
        if top.text.capacity() == 0 {
            // Most texts come in several pieces (whitespace between child elements,
            // text between references): start with room for a few, not the first one
            // only, to save the early reallocations.
            top.text.reserve(text.len().max(32));
        }
        if escape && xhtml {
            xml_escape_into(&mut top.text, text);
        } else {
            top.text.push_str(text);
        }
    }

    /// Gives the text of the innermost element room for `len` bytes. The strict pass
    /// calls it at a reference (when [`Builder::text_room_small`]) with the length of
    /// the text up to the next `<`: escaped markup comes in many pieces (text,
    /// reference, text …), which would otherwise grow the buffer by doubling, one
    /// reallocation at a time.
    pub(crate) fn reserve_text(&mut self, len: usize) {
        if let Some(top) = self.stack.last_mut()
            && len > top.text.capacity()
        {
            top.text.reserve(len - top.text.len());
        }
    }

    /// Whether the text of the innermost element has room for less than a reference's
    /// worth of text ([`Builder::reserve_text`] is worth calling).
    pub(crate) fn text_room_small(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|top| top.text.capacity() < 64)
    }

    fn base_and_lang(&mut self, tag: &str, attrs: &[Attr<'_>]) {
        let base = getattr(attrs, "xml:base").or_else(|| getattr(attrs, "base"));
        if let Some(b) = base.filter(|b| !b.is_empty()) {
            self.baseuri = crate::url::urljoin(&self.baseuri, b).into();
        }
        let lang = match getattr(attrs, "xml:lang").or_else(|| getattr(attrs, "lang")) {
            Some("") => None,
            Some(l) => Some(Rc::from(l)),
            None => self.lang.clone(),
        };
        if let Some(l) = &lang
            && matches!(tag, "feed" | "rss" | "rdf:rdf")
        {
            self.feed
                .insert("language".into(), jv!(l.replace('_', "-")));
        }
        self.lang = lang.clone();
        self.basestack.push(self.baseuri.clone());
        self.langstack.push(lang);
    }

    fn strattrs(attrs: &[Attr<'_>]) -> String {
        let mut s = String::new();
        for (k, v) in attrs {
            s.push(' ');
            s.push_str(k);
            s.push_str("=\"");
            s.push_str(&xml_escape(v, true));
            s.push('"');
        }
        s
    }

    /// An entry that is final: to the sink when there is one, else to [`Builder::done`].
    pub(super) fn finalize(&mut self, entry: crate::model::Entry) {
        match &self.sink {
            Some(sink) => {
                sink.borrow_mut().entry(entry);
                self.sunk += 1;
            }
            None => self.done.push(entry),
        }
    }

    /// How many entries are final (kept in [`Builder::done`] or sent to the sink).
    pub(super) fn final_count(&self) -> usize {
        self.done.len() + self.sunk
    }

    /// Takes out the oldest entry that is final (its element closed, or a later entry
    /// started), for the streaming reader; `None` while the only entry is still open.
    pub(crate) fn take_final_entry(&mut self) -> Option<crate::model::Entry> {
        if !self.done.is_empty() {
            return Some(self.done.remove(0));
        }
        if self.inentry {
            return None;
        }
        self.entries.pop().map(Record::finish)
    }

    /// A start tag. `tag` is `prefix:local` (feedparser's canonical prefix when the
    /// namespace is known) or `local`, lower-cased; attribute names are lower-cased.
    /// The attributes are the caller's: they may be changed here, and the caller reuses
    /// the list's room for the next start tag.
    pub(crate) fn start(&mut self, name: &super::names::Name, attrs: &mut Attrs<'_>) {
        let (tag, key, ns) = (&*name.tag, &*name.key, name.ns);
        self.depth += 1;
        for (k, v) in attrs.iter_mut() {
            if k == "rel" || k == "type" {
                super::names::lower_in_place(v);
            }
        }
        self.base_and_lang(tag, attrs);

        if self.incontent > 0 && !self.cp.ty_or("xml").ends_with("xml") {
            if tag == "xhtml:div" || tag == "div" {
                return;
            }
            self.cp.ty = Some("application/xhtml+xml".into());
        }
        if self.incontent > 0 && self.in_xhtml() {
            let local = name.local();
            if let Some(ns) = ns
                && ((local == "math" && ns == "http://www.w3.org/1998/Math/MathML")
                    || (local == "svg" && ns == "http://www.w3.org/2000/svg"))
            {
                attrs.retain(|(k, _)| k != "xmlns");
                attrs.push(("xmlns".into(), ns.to_owned().into()));
            }
            if local == "svg" {
                self.svg_ok += 1;
            }
            let close = if crate::html::is_void(local) {
                " /"
            } else {
                ""
            };
            let s = format!("<{local}{}{close}>", Self::strattrs(attrs));
            self.data(&s, false);
            return;
        }

        if super::ns::podcast::start(self, key, attrs) {
            return;
        }
        let prefix = name.prefix();
        if prefix.is_empty() && !matches!(tag, "title" | "link" | "description" | "name") {
            self.intextinput = false;
        }
        if prefix.is_empty()
            && !matches!(
                tag,
                "title" | "link" | "description" | "url" | "href" | "width" | "height"
            )
        {
            self.inimage = false;
        }
        // The element's namespace handlers (looked up once per name, `super::ns`).
        if !(name.handlers.start)(self, key, attrs) {
            if self.handlers.is_some() && self.program_start(key, attrs) {
                // The program's handler takes the element over.
            } else if attrs.is_empty() {
                self.push(key.to_owned(), true);
            } else {
                let k: Key = fp_key(key).to_owned().into();
                let exists = self.ctx().contains_key(&k);
                if self.key_allowed(&k, exists) {
                    let d = attrs_dict(attrs);
                    self.ctx().insert(k, Value::Object(d));
                }
            }
        }
    }

    /// An end tag, named as for [`Builder::start`]; `tagged`: written in the text (else
    /// the element is closed implicitly, and inside markup content no end tag is written
    /// for it).
    pub(crate) fn end(&mut self, name: &super::names::Name, tagged: bool) {
        let (tag, key) = (&*name.tag, &*name.key);
        let suffix = name.local();
        if suffix == "svg" && self.svg_ok > 0 {
            self.svg_ok -= 1;
        }
        let handled = super::ns::podcast::end(self)
            || (self.svg_ok == 0 && (name.handlers.end)(self, key))
            || (self.handlers.is_some() && self.program_end(key));
        if !handled {
            self.pop_unused(key, true);
        }
        let mut emitted = false;
        if self.incontent > 0 && !self.cp.ty_or("xml").ends_with("xml") {
            if tag == "xhtml:div" || tag == "div" {
                emitted = true;
            } else {
                self.cp.ty = Some("application/xhtml+xml".into());
            }
        }
        if tagged && !emitted && self.incontent > 0 && self.in_xhtml() {
            let local = tag.rsplit(':').next().unwrap_or(tag);
            if !crate::html::is_void(local) {
                self.data(&format!("</{local}>"), false);
            }
        }
        if !self.basestack.is_empty() {
            self.basestack.pop();
            if let Some(b) = self.basestack.last()
                && !b.is_empty()
            {
                self.baseuri = b.clone();
            }
        }
        if !self.langstack.is_empty() {
            self.langstack.pop();
            if let Some(l) = self.langstack.last() {
                self.lang = l.clone();
            }
        }
        self.depth -= 1;
    }

    pub(super) fn pop(&mut self, element: &str, strip: bool) -> Option<String> {
        self.pop_impl(element, strip, Want::Owned)
            .map(|(text, _)| text)
    }

    /// [`Builder::pop`] for a caller that only reads the value: it is left in
    /// [`Builder::popped`] (a buffer reused from one element to the next) instead of
    /// being copied into a new string.
    pub(super) fn pop_borrowed(&mut self, element: &str, strip: bool) -> Option<bool> {
        self.popped.clear();
        let (output, nonempty) = self.pop_impl(element, strip, Want::Borrowed)?;
        if !output.is_empty() {
            // Not stored: the text itself came back.
            self.popped = output;
        }
        Some(nonempty)
    }

    /// [`Builder::pop`] for a caller that ignores the value or needs only to know
    /// whether it is non-empty: the text moves into the entry instead of being copied
    /// once more for the caller.
    pub(super) fn pop_unused(&mut self, element: &str, strip: bool) -> Option<bool> {
        self.pop_impl(element, strip, Want::Unused)
            .map(|(_, nonempty)| nonempty)
    }

    /// `want`: whether the caller uses the value; when not, the value returned may be
    /// emptied.
    /// Pops `element`: its text, processed and stored where feedparser stores it, and
    /// whether that text is non-empty. With `want` false the text itself is not kept for
    /// the caller (an empty string comes back), so the last copy stored takes it.
    fn pop_impl(&mut self, element: &str, strip: bool, want: Want) -> Option<(String, bool)> {
        // The last copy stored takes the text itself when the caller has no use for it
        // (or only reads it: a copy goes to the reused buffer).
        let last_use = |output: &mut String, popped: &mut String| match want {
            Want::Owned => output.clone(),
            Want::Unused => std::mem::take(output),
            Want::Borrowed => {
                popped.push_str(output);
                std::mem::take(output)
            }
        };
        if self.stack.last().is_none_or(|e| e.name != element) {
            return None;
        }
        let Elem {
            name: element,
            expecting_text,
            text,
            marks,
            ..
        } = self.stack.pop()?;
        if self.closing_at_end && expecting_text && super::text::trim_value(&text).is_empty() {
            // The end of the text cut the element off before any text of its own (a
            // truncated download ending in `<title>`): it has no value, where an empty
            // one would say the feed gave one; feedparser keeps nothing of it either.
            return None;
        }
        let (mut lo, mut hi) = (0, text.len());
        if self.version == "atom10" && self.in_xhtml() && marks.len() > 1 {
            (lo, hi) = super::text::xhtml_unwrapped(&text, &marks);
        }
        if strip {
            let inner = &text[lo..hi];
            let trimmed = super::text::trim_value(inner);
            lo += trimmed.as_ptr() as usize - inner.as_ptr() as usize;
            hi = lo + trimmed.len();
        }
        // Reuse the buffer: no copy when nothing is cut.
        let mut output = text;
        output.truncate(hi);
        output.drain(..lo);
        if !expecting_text {
            let nonempty = !output.is_empty();
            return Some((output, nonempty));
        }
        if self.cp.base64 {
            match base64_utf8(&output) {
                Some(decoded) => output = decoded,
                None => self.not_base64 += usize::from(!output.trim().is_empty()),
            }
        }
        // URI-valued elements are resolved against xml:base (identity without one).
        if !output.is_empty()
            && !self.baseuri.is_empty()
            && matches!(
                &*element,
                "comments"
                    | "docs"
                    | "href"
                    | "icon"
                    | "id"
                    | "link"
                    | "logo"
                    | "url"
                    | "wfw_comment"
                    | "wfw_commentrss"
            )
            && (element != "id" || self.guidislink)
        {
            output = self.resolve_uri(&output);
        }
        // What feedparser's lenient parser, reading a document that is not well-formed,
        // decodes once more (see `lenient_quotes`); not base64 content, as there.
        if self.lenient && !self.cp.base64 && !self.cp.ty_or("xml").ends_with("xml") {
            output = lenient_quotes(output);
        }
        if !self.version.starts_with("atom")
            && self.cp.ty.as_deref() == Some("text/plain")
            && looks_like_html(&output, self.sanitize_policy.as_deref())
        {
            self.cp.ty = Some("text/html".into());
        }
        self.cp.base64 = false;
        let marks = self.value_repair == ValueRepair::Windows1252;
        if self.value_repair != ValueRepair::Off
            && let Some(fixed) = double_utf8_fixed(&output, marks)
        {
            // feedparser makes the Latin-1 repair silently (its own tests expect no
            // bozo); one that needed a windows-1252 mark is this crate's, and said.
            if marks && output.chars().any(|c| u32::from(c) > 0xff) {
                self.repaired.note(&element, self.inentry, &output, &fixed);
            }
            output = fixed;
        }
        output = map_cp1252(output);
        let htmlish = is_html_type(&map_content_type(self.cp.ty_or("text/html")));
        if htmlish
            && matches!(
                &*element,
                "content"
                    | "copyright"
                    | "description"
                    | "info"
                    | "rights"
                    | "subtitle"
                    | "summary"
                    | "tagline"
                    | "title"
            )
        {
            output = if self.sanitize_html || self.resolve_uris {
                // One pass that resolves against the innermost base and sanitizes.
                let markup = if self.in_xhtml() {
                    crate::html::Markup::Xhtml
                } else {
                    crate::html::Markup::Html
                };
                let filtered = crate::html::HtmlFilter::new()
                    .sanitize(self.sanitize_html)
                    .resolve(self.resolve_uris)
                    .base(Some(&self.baseuri))
                    .markup(markup)
                    .policy(self.sanitize_policy.as_deref())
                    .apply(&output);
                match filtered {
                    Cow::Borrowed(b) if b.len() == output.len() => output,
                    other => other.into_owned(),
                }
            } else {
                fix_c1_char_refs(output)
            };
        }
        // A long text keeps no slack from the buffer it grew in (a 100 MB value would
        // otherwise hold a 128 MiB allocation).
        if output.capacity() - output.len() > 4096 {
            output.shrink_to_fit();
        }
        let nonempty = !output.is_empty();

        if matches!(&*element, "category" | "tags" | "itunes_keywords") {
            return Some((output, nonempty));
        }
        if element == "title" && -1 < self.title_depth && self.title_depth <= self.depth {
            return Some((output, nonempty));
        }
        if self.inentry && !self.insource && !self.entries.is_empty() {
            if element == "content" {
                let detail = self
                    .cp
                    .detail_unboxed(&mut self.metas, last_use(&mut output, &mut self.popped));
                self.ctx().push_content(detail);
            } else if element == "link" {
                if !self.inimage {
                    let fixed = if output.contains('&') {
                        unsemicolon_refs(&output.replace("&amp;", "&"))
                    } else {
                        last_use(&mut output, &mut self.popped)
                    };
                    let mut e = Slots::Entry(self.entries.last_mut().expect("entry"));
                    // Better than feedparser: a link element's text becomes the entry's
                    // `link` only when it is an alternate link (or the first link).
                    let rel = e.last_link().and_then(|l| l.rel.as_deref());
                    let as_link = rel.is_none_or(|r| r == "alternate") || !e.contains_key("link");
                    if fixed.is_empty() {
                        if as_link {
                            e.insert("link".into(), jstr(fixed));
                        }
                    } else {
                        if as_link {
                            e.insert("link".into(), jstr(&fixed));
                        }
                        set_last_link_href(&mut e, fixed);
                    }
                }
            } else {
                let key = if element == "description" {
                    Key::Borrowed("summary")
                } else {
                    fp_key_of(&element)
                };
                let idx = self.entries.len() - 1;
                let depth = self.depth;
                let exists = self.entries[idx].contains_key(&key);
                if self.incontent == 0 && self.over_budget(&key, exists) {
                    // Past the budget of unknown keys this one cannot be stored, so its
                    // depth need not be recorded (a hostile feed's million distinct
                    // names would fill the map for nothing). Each such element counts as
                    // dropped, even one deeper than an earlier one of its name.
                    self.unknown_dropped += 1;
                    return Some((output, nonempty));
                }
                let hash = std::hash::BuildHasher::hash_one(&self.key_hasher, &*key);
                let store = match self.property_depth.entry(hash) {
                    hashbrown::hash_map::Entry::Occupied(mut d) => {
                        let keep = depth <= *d.get();
                        if keep {
                            d.insert(depth);
                        }
                        keep
                    }
                    hashbrown::hash_map::Entry::Vacant(v) => {
                        v.insert(depth);
                        true
                    }
                };
                let store = store && self.key_allowed(&key, exists);
                let detailed = self.incontent > 0;
                if store && detailed {
                    // `summary` and `summary_detail.value`: one string, shared.
                    let shared = share(&mut output, want, &mut self.popped);
                    let dk = detail_key(&key);
                    let detail = self.cp.detail_shared(&mut self.metas, Arc::clone(&shared));
                    let e = &mut self.entries[idx];
                    e.insert(key, Value::Shared(shared));
                    e.insert(dk, detail);
                } else if store {
                    self.entries[idx].insert(key, jstr(last_use(&mut output, &mut self.popped)));
                } else if detailed {
                    let detail = self
                        .cp
                        .detail(&mut self.metas, last_use(&mut output, &mut self.popped));
                    self.entries[idx].insert(detail_key(&key), detail);
                }
            }
        } else if self.infeed || self.insource {
            let key = if element == "description" {
                Key::Borrowed("subtitle")
            } else {
                fp_key_of(&element)
            };
            let exists = self.ctx().contains_key(&key);
            if !self.key_allowed(&key, exists) {
                return Some((output, nonempty));
            }
            let detail = (self.incontent > 0).then(|| share(&mut output, want, &mut self.popped));
            let mut ctx = self.ctx();
            if key == "link" {
                let fixed = unsemicolon_refs(&output);
                ctx.insert("link".into(), jstr(&fixed));
                set_last_link_href(&mut ctx, fixed);
            } else {
                match detail {
                    Some(shared) => {
                        let dk = detail_key(&key);
                        ctx.insert(key, Value::Shared(Arc::clone(&shared)));
                        let d = self.cp.detail_shared(&mut self.metas, shared);
                        self.ctx().insert(dk, d);
                    }
                    None => {
                        let value = last_use(&mut output, &mut self.popped);
                        self.ctx().insert(key, jstr(value));
                    }
                }
            }
        }
        Some((output, nonempty))
    }

    pub(super) fn push_content(
        &mut self,
        tag: &'static str,
        attrs: &[Attr<'_>],
        default: &str,
        expecting: bool,
    ) {
        self.incontent += 1;
        if let Some(l) = &self.lang
            && l.contains('_')
        {
            self.lang = Some(l.replace('_', "-").into());
        }
        let ty = map_content_type(getattr(attrs, "type").unwrap_or(default));
        let base64 = getattr(attrs, "mode") == Some("base64")
            || !(ty.starts_with("text/") || ty.ends_with("+xml") || ty.ends_with("/xml"));
        self.cp = ContentParams {
            ty: Some(self.shared.get(&ty)),
            language: self.lang.as_deref().map(|l| self.shared.get(l)),
            base: self.shared.get(&self.baseuri),
            src: None,
            base64,
        };
        self.push(tag, expecting);
    }

    pub(super) fn pop_content(&mut self, tag: &str) -> Option<String> {
        let v = self.pop(tag, true);
        self.incontent = self.incontent.saturating_sub(1);
        self.cp = ContentParams::default();
        v
    }

    /// [`Builder::pop_content`] for a caller that needs only to know whether the value
    /// is non-empty.
    pub(super) fn pop_content_unused(&mut self, tag: &str) -> Option<bool> {
        let nonempty = self.pop_unused(tag, true);
        self.incontent = self.incontent.saturating_sub(1);
        self.cp = ContentParams::default();
        nonempty
    }

    pub(super) fn resolve_uri(&self, uri: &str) -> String {
        crate::url::urljoin(&self.baseuri, uri)
    }

    /// `*uri = self.resolve_uri(uri)`, without a copy when there is no base and nothing
    /// to trim.
    pub(super) fn resolve_in_place(&self, uri: &mut crate::model::CompactString) {
        if self.baseuri.is_empty() {
            let trimmed = uri.trim();
            if trimmed.len() != uri.len() {
                *uri = trimmed.into();
            }
        } else {
            *uri = self.resolve_uri(uri).into();
        }
    }

    pub(super) fn data_raw(&mut self, s: &str) {
        if let Some(top) = self.stack.last_mut() {
            top.text = s.to_owned();
            top.marks.clear();
        }
    }
}

impl Builder {
    /// Whether text goes into inline XHTML (escaped, each piece marked).
    pub(crate) fn in_xhtml(&self) -> bool {
        self.cp.ty.as_deref() == Some("application/xhtml+xml")
    }

    /// Whether the builder is inside a text construct or content element.
    pub(crate) fn in_content(&self) -> bool {
        self.incontent > 0
    }
}

/// feedparser's dictionaries store some keys under another name (`url` as `href`,
/// `guid` as `id`, `modified` as `updated`, …).
/// [`fp_key`] of an element name, without copying a literal.
#[allow(clippy::ptr_arg)] // The `Cow` is what tells a literal from a copy.
fn fp_key_of(name: &Cow<'static, str>) -> Key {
    match name {
        Cow::Borrowed(n) => Key::Borrowed(fp_key(n)),
        Cow::Owned(n) => Key::Owned(fp_key(n).to_owned()),
    }
}

fn fp_key(key: &str) -> &str {
    match key {
        "channel" => "feed",
        "items" => "entries",
        "guid" => "id",
        "date" | "modified" => "updated",
        "date_parsed" | "modified_parsed" => "updated_parsed",
        "description" => "summary",
        "description_detail" => "summary_detail",
        "url" => "href",
        "issued" => "published",
        "issued_parsed" => "published_parsed",
        "copyright" => "rights",
        "copyright_detail" => "rights_detail",
        "tagline" => "subtitle",
        "tagline_detail" => "subtitle_detail",
        k => k,
    }
}

/// `fp_key("{key}_detail")` (without formatting for the usual keys).
pub(super) fn detail_key(key: &str) -> Cow<'static, str> {
    match key {
        "title" => "title_detail".into(),
        "summary" | "description" => "summary_detail".into(),
        "subtitle" | "tagline" => "subtitle_detail".into(),
        "rights" | "copyright" => "rights_detail".into(),
        "info" => "info_detail".into(),
        "author" => "author_detail".into(),
        "publisher" => "publisher_detail".into(),
        _ => fp_key(&format!("{key}_detail")).to_owned().into(),
    }
}

/// Python's `str.strip()` (Unicode whitespace).
pub(crate) fn trim_py(s: &str) -> &str {
    s.trim_matches(super::text::is_py_space)
}

pub(super) fn parse_py_int(s: &str) -> Option<i64> {
    let t = trim_py(s).replace('_', "");
    t.parse::<i64>().ok()
}

/// The text of a value stored twice (a key and its `_detail`'s `value`) as one shared
/// string. The caller's copy is kept only when it wants the text back (`want`).
fn share(output: &mut String, want: Want, popped: &mut String) -> Arc<str> {
    let shared = Arc::from(output.as_str());
    match want {
        Want::Owned => {}
        Want::Unused => *output = String::new(),
        Want::Borrowed => {
            popped.push_str(output);
            *output = String::new();
        }
    }
    shared
}

/// What the caller of [`Builder::pop_impl`] does with the text.
#[derive(Clone, Copy)]
enum Want {
    /// Keeps it: a copy comes back.
    Owned,
    /// Reads it: it is left in [`Builder::popped`].
    Borrowed,
    /// Has no use for it: an empty string may come back.
    Unused,
}

#[cfg(test)]
mod tests {
    use crate::parse::{ParseOptions, parse_str};
    use serde_json::json;

    fn entry(text: &str) -> serde_json::Value {
        let r = parse_str(text, &ParseOptions::default());
        serde_json::to_value(&r.entries[0]).unwrap()
    }

    #[test]
    fn text_details_share_their_base_language_and_type() {
        let r = parse_str(
            "<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://example.com/a/' \
             xml:lang='de'><entry><title>t1</title><summary type='html'>s1</summary></entry>\
             <entry><title>t2</title><summary type='html'>s2</summary></entry>\
             <entry xml:base='http://other.example/'><title>t3</title></entry></feed>",
            &ParseOptions::default(),
        );
        let e = &r.entries;
        let t1 = e[0].title_detail.as_ref().unwrap();
        let s1 = e[0].summary_detail.as_ref().unwrap();
        let t2 = e[1].title_detail.as_ref().unwrap();
        let s2 = e[1].summary_detail.as_ref().unwrap();
        let t3 = e[2].title_detail.as_ref().unwrap();
        assert_eq!(&*t1.base, "http://example.com/a/");
        assert_eq!(t1.language.as_deref(), Some("de"));
        assert_eq!(
            (&*t1.content_type, &*s1.content_type),
            ("text/plain", "text/html")
        );
        // One copy of each string for all the details that have it.
        assert!(std::sync::Arc::ptr_eq(&t1.base, &s2.base));
        assert!(std::sync::Arc::ptr_eq(
            t1.language.as_ref().unwrap(),
            s2.language.as_ref().unwrap()
        ));
        assert!(std::sync::Arc::ptr_eq(&t1.content_type, &t2.content_type));
        assert!(std::sync::Arc::ptr_eq(&s1.content_type, &s2.content_type));
        assert_eq!(&*t3.base, "http://other.example/");
        // Texts with the same details share them whole, across entries.
        assert!(std::sync::Arc::ptr_eq(t1.meta(), t2.meta()));
        assert!(std::sync::Arc::ptr_eq(s1.meta(), s2.meta()));
        assert!(!std::sync::Arc::ptr_eq(t1.meta(), s1.meta()));
        assert!(!std::sync::Arc::ptr_eq(t1.meta(), t3.meta()));
    }

    #[test]
    fn description_after_content_encoded_becomes_summary() {
        let e = entry(
            "<rss xmlns:content='http://purl.org/rss/1.0/modules/content/'><channel><item><description>d</description><content:encoded>c</content:encoded></item></channel></rss>",
        );
        assert_eq!(e["summary"], "d");
        assert_eq!(e["content"][0]["value"], "c");
    }

    #[test]
    fn links_are_typed_with_every_attribute_kept() {
        let e = entry(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
             <link url='http://e/u' uri='http://e/i' hreflang='de' length='12'/>\
             <link url='' href='http://e/h'/>\
             <link rel='self' title='t'/></entry></feed>",
        );
        // `url` wins over `uri` and `href`, and both leave the dictionary.
        assert_eq!(
            e["links"][0],
            json!({"href": "http://e/u", "hreflang": "de", "length": "12", "rel": "alternate",
                   "type": "text/html"})
        );
        // An empty `url` is kept as written, and `href` stays.
        assert_eq!(
            e["links"][1],
            json!({"href": "http://e/h", "rel": "alternate", "type": "text/html", "url": ""})
        );
        assert_eq!(
            e["links"][2],
            json!({"rel": "self", "title": "t", "type": "application/atom+xml"})
        );
        let r = parse_str(
            "<rss><channel><item><enclosure url='http://e/a.mp3' length='7' type='audio/mpeg'/>\
             </item></channel></rss>",
            &ParseOptions::default(),
        );
        let l = &r.entries[0].links[0];
        assert_eq!(l.rel.as_deref(), Some("enclosure"));
        assert_eq!(l.href.as_deref(), Some("http://e/a.mp3"));
        assert_eq!(l.length_bytes(), Some(7));
        assert!(l.extra.is_empty(), "{:?}", l.extra);
    }

    #[test]
    fn persons_are_typed_and_an_empty_name_still_counts() {
        let text = "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
                    <author><name></name><email>e@x.org</email></author>\
                    <contributor><name>C</name><uri>http://c/</uri></contributor>\
                    <author>Plain Name (p@x.org)</author></entry></feed>";
        let e = entry(text);
        assert_eq!(e["author"], "Plain Name (p@x.org)");
        assert_eq!(e["author_detail"], json!({"email": "e@x.org", "name": ""}));
        assert_eq!(
            e["authors"],
            json!([{"email": "e@x.org", "name": ""}, {"email": "p@x.org", "name": "Plain Name"}])
        );
        assert_eq!(
            e["contributors"],
            json!([{"href": "http://c/", "name": "C"}])
        );
        let r = parse_str(text, &ParseOptions::default());
        let a = r.entries[0]
            .author_detail
            .as_deref()
            .expect("typed author_detail");
        assert_eq!(a.name.as_deref(), Some(""));
        // (feedparser also leaves the last `uri` under `href`, which stays in `extra`.)
        let extra = &r.entries[0].extra;
        assert!(
            ["authors", "author_detail", "contributors"]
                .iter()
                .all(|k| !extra.contains_key(*k)),
            "{extra:?}"
        );
        assert_eq!(
            r.entries[0].contributors[0].href.as_deref(),
            Some("http://c/")
        );
    }

    #[test]
    fn second_summary_becomes_content() {
        let e = entry(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry><summary>a</summary><summary>b</summary></entry></feed>",
        );
        assert_eq!(e["summary"], "a");
        assert_eq!(e["content"][0]["value"], "b");
    }

    #[test]
    fn content_without_a_media_type_is_kept_in_order_beside_typed_content() {
        // The inner `content` ends the content parameters, so the outer one's detail
        // has no media type: the typed list becomes a plain one, and nothing is lost.
        let text = "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
            <content type='html'>a<content>b</content>c</content><content>d</content>\
            </entry></feed>";
        let r = parse_str(text, &ParseOptions::default());
        assert!(r.entries[0].content.is_empty(), "not the model's shape");
        let e = serde_json::to_value(&r.entries[0]).unwrap();
        assert_eq!(
            e["content"],
            json!([
                {"base": "", "language": null, "type": "application/xhtml+xml", "value": "ab"},
                {"base": "", "language": null, "value": "c"},
                {"base": "", "language": null, "type": "text/plain", "value": "d"},
            ])
        );
        // Typed content alone moves into the model's list.
        let r = parse_str(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry><content>x</content>\
             <content type='html'>y</content></entry></feed>",
            &ParseOptions::default(),
        );
        let values: Vec<&str> = r.entries[0].content.iter().map(|t| &*t.value).collect();
        assert_eq!(values, ["x", "y"]);
    }

    #[test]
    fn guid_permalink_becomes_link() {
        let e =
            entry("<rss><channel><item><guid>http://example.com/p</guid></item></channel></rss>");
        assert_eq!(e["link"], "http://example.com/p");
        assert_eq!(e["guidislink"], true);
    }

    #[test]
    fn xhtml_text_is_serialized_and_escaped() {
        let r = parse_str(
            "<feed xmlns='http://www.w3.org/2005/Atom'><title type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'>a &lt; <b class='x'>b</b><br/></div></title></feed>",
            &ParseOptions::default(),
        );
        assert_eq!(
            r.feed.title.as_deref(),
            Some("a &lt; <b class=\"x\">b</b><br />")
        );
    }

    #[test]
    fn contributors_and_authors() {
        let e = entry(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry><author><name>A</name><uri>http://a/</uri></author><contributor><name>C</name></contributor></entry></feed>",
        );
        assert_eq!(e["author"], "A");
        assert_eq!(
            e["author_detail"],
            json!({"name": "A", "href": "http://a/"})
        );
        assert_eq!(e["contributors"], json!([{"name": "C"}]));
    }
}
