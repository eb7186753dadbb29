//! The feed builder: a state machine fed with start/end/text events (from either pass)
//! that fills feedparser-shaped dictionaries, following feedparser's element handlers and
//! precedence rules.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::dict::{Key, Map, Value, jv};

use super::geo;
use super::text::{
    base64_utf8, find_email, fix_c1_char_refs, fix_double_utf8, looks_like_html, map_cp1252,
    unsemicolon_refs, xml_escape, xml_escape_into,
};

/// A feedparser dictionary.
pub(crate) type Dict = Map;

/// Known namespace URIs (lower-cased) and the prefix feedparser gives them.
pub(crate) fn canonical_prefix(uri_lower: &str) -> Option<&'static str> {
    Some(match uri_lower {
        ""
        | "http://backend.userland.com/rss"
        | "http://blogs.law.harvard.edu/tech/rss"
        | "http://purl.org/rss/1.0/"
        | "http://my.netscape.com/rdf/simple/0.9/"
        | "http://example.com/newformat#"
        | "http://example.com/necho"
        | "http://purl.org/echo/"
        | "uri/of/echo/namespace#"
        | "http://purl.org/pie/"
        | "http://purl.org/atom/ns#"
        | "http://www.w3.org/2005/atom"
        | "http://purl.org/rss/1.0/modules/rss091#" => "",
        "http://webns.net/mvcb/" => "admin",
        "http://purl.org/rss/1.0/modules/aggregation/" => "ag",
        "http://purl.org/rss/1.0/modules/annotate/" => "annotate",
        "http://media.tangent.org/rss/1.0/" => "audio",
        "http://backend.userland.com/blogchannelmodule" => "blogChannel",
        "http://creativecommons.org/ns#license" | "http://web.resource.org/cc/" => "cc",
        "http://cyber.law.harvard.edu/rss/creativecommonsrssmodule.html"
        | "http://backend.userland.com/creativecommonsrssmodule" => "creativeCommons",
        "http://purl.org/rss/1.0/modules/company" => "co",
        "http://purl.org/rss/1.0/modules/content/" => "content",
        "http://my.theinfo.org/changed/1.0/rss/" => "cp",
        "http://purl.org/dc/elements/1.1/" => "dc",
        "http://purl.org/dc/terms/" => "dcterms",
        "http://purl.org/rss/1.0/modules/email/" => "email",
        "http://purl.org/rss/1.0/modules/event/" => "ev",
        "http://rssnamespace.org/feedburner/ext/1.0" => "feedburner",
        "http://freshmeat.net/rss/fm/" => "fm",
        "http://xmlns.com/foaf/0.1/" => "foaf",
        "http://www.w3.org/2003/01/geo/wgs84_pos#" => "geo",
        "http://www.georss.org/georss" => "georss",
        "http://www.opengis.net/gml" => "gml",
        "http://postneo.com/icbm/" => "icbm",
        "http://purl.org/rss/1.0/modules/image/" => "image",
        "http://www.itunes.com/dtds/podcast-1.0.dtd"
        | "http://example.com/dtds/podcast-1.0.dtd" => "itunes",
        "http://purl.org/rss/1.0/modules/link/" => "l",
        "http://search.yahoo.com/mrss" | "http://search.yahoo.com/mrss/" => "media",
        "http://madskills.com/public/xml/rss/module/pingback/" => "pingback",
        "http://prismstandard.org/namespaces/1.2/basic/" => "prism",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#" => "rdf",
        "http://www.w3.org/2000/01/rdf-schema#" => "rdfs",
        "http://purl.org/rss/1.0/modules/reference/" => "ref",
        "http://purl.org/rss/1.0/modules/richequiv/" => "reqv",
        "http://purl.org/rss/1.0/modules/search/" => "search",
        "http://purl.org/rss/1.0/modules/slash/" => "slash",
        "http://schemas.xmlsoap.org/soap/envelope/" => "soap",
        "http://purl.org/rss/1.0/modules/servicestatus/" => "ss",
        "http://hacks.benhammersley.com/rss/streaming/" => "str",
        "http://purl.org/rss/1.0/modules/subscription/" => "sub",
        "http://purl.org/rss/1.0/modules/syndication/" => "sy",
        "http://schemas.pocketsoap.com/rss/mydescmodule/" => "szf",
        "http://purl.org/rss/1.0/modules/taxonomy/" => "taxo",
        "http://purl.org/rss/1.0/modules/threading/" => "thr",
        "http://purl.org/rss/1.0/modules/textinput/" => "ti",
        "http://madskills.com/public/xml/rss/module/trackback/" => "trackback",
        "http://wellformedweb.org/commentapi/" => "wfw",
        "http://purl.org/rss/1.0/modules/wiki/" => "wiki",
        "http://www.w3.org/1999/xhtml" => "xhtml",
        "http://www.w3.org/1999/xlink" => "xlink",
        "http://www.w3.org/xml/1998/namespace" => "xml",
        "http://podlove.org/simple-chapters" => "psc",
        "https://podcastindex.org/namespace/1.0"
        | "http://podcastindex.org/namespace/1.0"
        | "https://podcastindex.org/namespace/1.0/"
        | "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md" => {
            "podcast"
        }
        _ => return None,
    })
}

/// Normalises a namespace URI the way feedparser does (any backend.userland.com/rss URI
/// is one namespace).
/// The lower-cased, normalised form of a namespace URI used to look up its prefix
/// (allocates only when the URI needs changing).
pub(crate) fn ns_key(uri: &str) -> std::borrow::Cow<'_, str> {
    if uri.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) {
        let lower = uri.to_lowercase();
        if lower.contains("backend.userland.com/rss") {
            return "http://backend.userland.com/rss".into();
        }
        return lower.into();
    }
    if uri.contains("backend.userland.com/rss") {
        return "http://backend.userland.com/rss".into();
    }
    uri.into()
}

pub(crate) fn normalize_ns(uri: &str) -> (String, String) {
    let lower = uri.to_lowercase();
    if lower.contains("backend.userland.com/rss") {
        let u = "http://backend.userland.com/rss".to_owned();
        return (u.clone(), u);
    }
    (uri.to_owned(), lower)
}

#[derive(Default, Clone)]
struct ContentParams {
    ty: Option<String>,
    language: Option<String>,
    base: String,
    src: Option<String>,
    base64: bool,
}

impl ContentParams {
    fn ty_or<'a>(&'a self, default: &'a str) -> &'a str {
        self.ty.as_deref().unwrap_or(default)
    }

    fn detail(&self, value: String) -> Value {
        let mut d = Dict::with_capacity(5);
        if let Some(t) = &self.ty {
            d.insert("type".into(), jstr(t));
        }
        d.insert(
            "language".into(),
            self.language.as_ref().map_or(Value::Null, jstr),
        );
        d.insert("base".into(), jv!(&self.base));
        if let Some(s) = &self.src {
            d.insert("src".into(), jv!(s));
        }
        d.insert("value".into(), Value::String(value));
        Value::Object(d)
    }
}

struct Elem {
    name: Cow<'static, str>,
    expecting_text: bool,
    /// The text collected so far (one buffer per element).
    text: String,
    /// Where each piece of inline XHTML starts in `text` (recorded only in XHTML mode,
    /// where feedparser's wrapper-`div` removal looks at pieces).
    marks: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq)]
enum Geom {
    None,
    Point,
    LineString,
    Polygon,
}

#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    Source,
    Image,
    TextInput,
    Entry,
    Feed,
}

/// The builder state (feedparser's parser mixin, as data).
pub(crate) struct Builder {
    /// Base64 content values that were not base64 text (kept as published).
    pub not_base64: usize,
    pub feed: Dict,
    /// The entry being built (at most one: an entry is final once the next one starts,
    /// since only the last entry is ever written to).
    pub entries: Vec<Dict>,
    /// The final entries, converted as soon as they are final (while still in cache, and
    /// so that their dictionaries' memory is reused for the next entry).
    pub done: Vec<crate::model::Entry>,
    pub version: String,
    pub namespaces_in_use: BTreeMap<String, String>,
    infeed: bool,
    inentry: bool,
    incontent: u32,
    intextinput: bool,
    inimage: bool,
    inauthor: bool,
    incontributor: bool,
    inpublisher: bool,
    insource: bool,
    sourcedata: Dict,
    cp: ContentParams,
    summary_key: Option<&'static str>,
    stack: Vec<Elem>,
    basestack: Vec<Rc<str>>,
    langstack: Vec<Option<Rc<str>>>,
    baseuri: Rc<str>,
    lang: Option<Rc<str>>,
    svg_ok: u32,
    title_depth: i64,
    depth: i64,
    has_content: bool,
    /// Depth at which each key of the current entry was stored (feedparser's
    /// `property_depth_map`, for the last entry only), by the key's 64-bit hash (seeded
    /// per process): no copy of each key, which matters when an entry holds a million
    /// distinct elements; two keys of one entry sharing a hash is a 2^-64 event.
    property_depth: hashbrown::HashMap<u64, i64>,
    /// The hasher of [`Builder::property_depth`]'s keys.
    key_hasher: hashbrown::DefaultHashBuilder,
    guidislink: bool,
    psc_chapters_flag: bool,
    /// The last date text parsed and its value.
    last_date: Option<(String, Value)>,
    ingeometry: Geom,
    /// The `podcast:` elements being read (`super::podcast`).
    pub(super) podcast: super::podcast::State,
    /// Limits: maximum number of entries kept.
    pub max_entries: usize,
    /// Set when `max_entries` was hit.
    pub entries_truncated: bool,
    /// Sanitize HTML values ([`crate::parse::ParseOptions::sanitize_html`]).
    sanitize_html: bool,
    /// Resolve URIs inside HTML values
    /// ([`crate::parse::ParseOptions::resolve_relative_uris`]).
    resolve_uris: bool,
    /// The per-value double-UTF-8 repair with windows-1252 semantics
    /// ([`crate::parse::ParseOptions`], set under `Policy::Recover`).
    windows_1252_repair: bool,
}

fn getattr<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn attrs_dict(attrs: &[(String, String)]) -> Dict {
    let mut d = Dict::with_capacity(attrs.len() + 2);
    for (k, v) in attrs {
        d.insert(k.clone().into(), jstr(v));
    }
    d
}

/// [`attrs_dict`], moving the strings in.
fn attrs_dict_owned(attrs: Vec<(String, String)>) -> Dict {
    let mut d = Dict::with_capacity(attrs.len() + 2);
    for (k, v) in attrs {
        d.insert(k.into(), Value::String(v));
    }
    d
}

fn map_content_type(t: &str) -> Cow<'_, str> {
    let t = super::lowercase(t);
    match &*t {
        "text" | "plain" => "text/plain".into(),
        "html" => "text/html".into(),
        "xhtml" => "application/xhtml+xml".into(),
        _ => t,
    }
}

fn is_html_type(t: &str) -> bool {
    t == "text/html" || t == "application/xhtml+xml"
}

fn enforce_href(d: &mut Dict) {
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

fn date_value(s: &str) -> Value {
    match crate::date::parse_date(s) {
        Some(dt) => Value::Date(dt),
        None => Value::Null,
    }
}

/// A JSON string, moving an owned `String` in (`json!` would copy it).
fn jstr(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

fn str_of(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
}

impl Builder {
    pub(crate) fn new(lang: Option<String>, base: Option<String>, max_entries: usize) -> Self {
        let mut feed = Dict::new();
        if let Some(l) = &lang {
            feed.insert("language".into(), jv!(l.replace('_', "-")));
        }
        Builder {
            not_base64: 0,
            feed,
            entries: Vec::new(),
            done: Vec::new(),
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
            basestack: Vec::new(),
            langstack: Vec::new(),
            baseuri: base.unwrap_or_default().into(),
            lang: lang.map(Rc::from),
            svg_ok: 0,
            title_depth: -1,
            depth: 0,
            has_content: false,
            property_depth: hashbrown::HashMap::new(),
            key_hasher: hashbrown::DefaultHashBuilder::default(),
            guidislink: false,
            psc_chapters_flag: false,
            last_date: None,
            ingeometry: Geom::None,
            podcast: Default::default(),
            max_entries,
            entries_truncated: false,
            sanitize_html: true,
            resolve_uris: true,
            windows_1252_repair: false,
        }
    }

    /// Sets whether the per-value double-UTF-8 repair also undoes windows-1252 marks.
    pub(crate) fn windows_1252_repair(mut self, on: bool) -> Self {
        self.windows_1252_repair = on;
        self
    }

    /// Sets what happens to HTML values: sanitizing and relative-URI resolution.
    pub(crate) fn html_options(mut self, sanitize: bool, resolve: bool) -> Self {
        self.sanitize_html = sanitize;
        self.resolve_uris = resolve;
        self
    }

    /// Records a namespace declaration (prefix `None` for the default namespace).
    pub(crate) fn track_namespace(&mut self, prefix: Option<&str>, uri: &str) {
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
        match canonical_prefix(&lower) {
            Some(p) => {
                self.namespaces_in_use.insert(p.to_owned(), uri);
            }
            None => {
                self.namespaces_in_use
                    .insert(prefix.unwrap_or("").to_owned(), uri);
            }
        }
    }

    fn ctx_kind(&self) -> Ctx {
        if self.insource {
            Ctx::Source
        } else if self.inimage && self.feed.get("image").is_some_and(Value::is_object) {
            Ctx::Image
        } else if self.intextinput {
            Ctx::TextInput
        } else if self.inentry && !self.entries.is_empty() {
            Ctx::Entry
        } else {
            Ctx::Feed
        }
    }

    /// Stores the element's attributes under `key` in the current context, unless an
    /// earlier element of the same kind did (feedparser keeps the first).
    fn keep_first(&mut self, key: &'static str, attrs: &[(String, String)]) {
        let d = attrs_dict(attrs);
        self.ctx().entry(key.into()).or_insert(Value::Object(d));
    }

    /// Pops the text of `element` and, when not blank, stores it as `content` in the
    /// attributes kept under `key` (the object itself, or the last one of a list).
    fn content_of(&mut self, element: &str, key: &'static str) {
        let Some(text) = self.pop(element, true).filter(|t| !t.trim().is_empty()) else {
            return;
        };
        let target = match self.ctx().get_mut(key) {
            Some(Value::Array(list)) => list.last_mut(),
            other => other,
        };
        if let Some(o) = target.and_then(Value::as_object_mut) {
            o.insert("content".into(), jstr(text));
        }
    }

    /// Appends the element's attributes to the list under `key` in the current context.
    fn append_attrs(&mut self, key: &'static str, attrs: &[(String, String)]) {
        let d = attrs_dict(attrs);
        let list = self.ctx().entry(key.into()).or_insert_with(|| jv!([]));
        if let Some(a) = list.as_array_mut() {
            a.push(Value::Object(d));
        }
    }

    pub(super) fn ctx(&mut self) -> &mut Dict {
        match self.ctx_kind() {
            Ctx::Source => &mut self.sourcedata,
            Ctx::Image => self
                .feed
                .get_mut("image")
                .and_then(Value::as_object_mut)
                .expect("image"),
            Ctx::TextInput => {
                let v = self
                    .feed
                    .entry("textinput".into())
                    .or_insert_with(|| jv!({}));
                if !v.is_object() {
                    *v = jv!({});
                }
                v.as_object_mut().expect("object")
            }
            Ctx::Entry => self.entries.last_mut().expect("entry"),
            Ctx::Feed => &mut self.feed,
        }
    }

    /// Whether the current context holds `key` (as `self.ctx().contains_key(key)`, without
    /// creating a missing text-input dictionary).
    fn ctx_has(&self, key: &str) -> bool {
        let d = match self.ctx_kind() {
            Ctx::Source => Some(&self.sourcedata),
            Ctx::Image => self.feed.get("image").and_then(Value::as_object),
            Ctx::TextInput => self.feed.get("textinput").and_then(Value::as_object),
            Ctx::Entry => self.entries.last(),
            Ctx::Feed => Some(&self.feed),
        };
        d.is_some_and(|d| d.contains_key(key))
    }

    fn save(&mut self, key: impl Into<Key>, value: Value, overwrite: bool) {
        let key = key.into();
        let ctx = self.ctx();
        if overwrite || !ctx.contains_key(&key) {
            ctx.insert(key, value);
        }
    }

    fn push(&mut self, name: impl Into<Cow<'static, str>>, expecting_text: bool) {
        self.stack.push(Elem {
            name: name.into(),
            expecting_text,
            text: String::new(),
            marks: Vec::new(),
        });
    }

    /// Text content (`escape`: escape it when inside inline XHTML).
    pub(crate) fn data(&mut self, text: &str, escape: bool) {
        if super::podcast::text(self, text) {
            return;
        }
        let xhtml = self.cp.ty.as_deref() == Some("application/xhtml+xml");
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        if xhtml {
            if top.marks.is_empty() && !top.text.is_empty() {
                top.marks.push(0);
            }
            top.marks.push(top.text.len());
        }
        if escape && xhtml {
            xml_escape_into(&mut top.text, text);
        } else {
            top.text.push_str(text);
        }
    }

    fn base_and_lang(&mut self, tag: &str, attrs: &[(String, String)]) {
        let base = getattr(attrs, "xml:base").or_else(|| getattr(attrs, "base"));
        if let Some(b) = base.filter(|b| !b.is_empty()) {
            self.baseuri = super::url::urljoin(&self.baseuri, b).into();
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

    fn strattrs(attrs: &[(String, String)]) -> String {
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

    /// Takes out the oldest entry that is final (its element closed, or a later entry
    /// started), for the streaming reader; `None` while the only entry is still open.
    pub(crate) fn take_final_entry(&mut self) -> Option<crate::model::Entry> {
        if !self.done.is_empty() {
            return Some(self.done.remove(0));
        }
        if self.inentry {
            return None;
        }
        self.entries.pop().map(crate::model::Entry::from_builder)
    }

    /// A start tag. `tag` is `prefix:local` (feedparser's canonical prefix when the
    /// namespace is known) or `local`, lower-cased; attribute names are lower-cased.
    pub(crate) fn start(&mut self, name: &super::Name, mut attrs: Vec<(String, String)>) {
        let (tag, key, ns) = (&*name.tag, &*name.key, name.ns);
        self.depth += 1;
        for (k, v) in &mut attrs {
            if k == "rel" || k == "type" {
                *v = super::lowercase_owned(std::mem::take(v));
            }
        }
        self.base_and_lang(tag, &attrs);

        if self.incontent > 0 && !self.cp.ty_or("xml").ends_with("xml") {
            if tag == "xhtml:div" || tag == "div" {
                return;
            }
            self.cp.ty = Some("application/xhtml+xml".into());
        }
        if self.incontent > 0 && self.cp.ty.as_deref() == Some("application/xhtml+xml") {
            let local = tag.split_once(':').map_or(tag, |(_, l)| l);
            if let Some(ns) = ns
                && ((local == "math" && ns == "http://www.w3.org/1998/Math/MathML")
                    || (local == "svg" && ns == "http://www.w3.org/2000/svg"))
            {
                attrs.retain(|(k, _)| k != "xmlns");
                attrs.push(("xmlns".into(), ns.to_owned()));
            }
            if local == "svg" {
                self.svg_ok += 1;
            }
            let close = if is_void(local) { " /" } else { "" };
            let s = format!("<{local}{}{close}>", Self::strattrs(&attrs));
            self.data(&s, false);
            return;
        }

        if super::podcast::start(self, key, &attrs) {
            return;
        }
        let prefix = tag.split_once(':').map_or("", |(p, _)| p);
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
        if !self.start_handler(key, &mut attrs) {
            if attrs.is_empty() {
                self.push(key.to_owned(), true);
            } else {
                let d = attrs_dict(&attrs);
                self.ctx()
                    .insert(fp_key(key).to_owned().into(), Value::Object(d));
            }
        }
    }

    /// An end tag, named as for [`Builder::start`].
    pub(crate) fn end(&mut self, name: &super::Name) {
        let (tag, key) = (&*name.tag, &*name.key);
        let suffix = tag.split_once(':').map_or(tag, |(_, s)| s);
        if suffix == "svg" && self.svg_ok > 0 {
            self.svg_ok -= 1;
        }
        if !super::podcast::end(self) && (self.svg_ok > 0 || !self.end_handler(key)) {
            self.pop(key, true);
        }
        let mut emitted = false;
        if self.incontent > 0 && !self.cp.ty_or("xml").ends_with("xml") {
            if tag == "xhtml:div" || tag == "div" {
                emitted = true;
            } else {
                self.cp.ty = Some("application/xhtml+xml".into());
            }
        }
        if !emitted && self.incontent > 0 && self.cp.ty.as_deref() == Some("application/xhtml+xml")
        {
            let local = tag.rsplit(':').next().unwrap_or(tag);
            if !is_void(local) {
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

    fn pop(&mut self, element: &str, strip: bool) -> Option<String> {
        self.pop_impl(element, strip, true).map(|(text, _)| text)
    }

    /// [`Builder::pop`] for a caller that ignores the value: the text moves into the
    /// entry instead of being copied once more for the caller.
    fn pop_unused(&mut self, element: &str, strip: bool) -> Option<bool> {
        self.pop_impl(element, strip, false)
            .map(|(_, nonempty)| nonempty)
    }

    /// `want`: whether the caller uses the value; when not, the value returned may be
    /// emptied.
    /// Pops `element`: its text, processed and stored where feedparser stores it, and
    /// whether that text is non-empty. With `want` false the text itself is not kept for
    /// the caller (an empty string comes back), so the last copy stored takes it.
    fn pop_impl(&mut self, element: &str, strip: bool, want: bool) -> Option<(String, bool)> {
        // The last copy stored takes the text itself when the caller has no use for it.
        let last_use = |output: &mut String| {
            if want {
                output.clone()
            } else {
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
        } = self.stack.pop()?;
        let (mut lo, mut hi) = (0, text.len());
        if self.version == "atom10"
            && self.cp.ty_or("text") == "application/xhtml+xml"
            && marks.len() > 1
        {
            // feedparser drops whitespace-only pieces at both ends, then a wrapping div.
            let mut bounds: Vec<(usize, usize)> = marks
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, marks.get(i + 1).copied().unwrap_or(text.len())))
                .collect();
            let piece = |b: &(usize, usize)| &text[b.0..b.1];
            while bounds.len() > 1 && bounds.last().is_some_and(|b| piece(b).trim().is_empty()) {
                bounds.pop();
            }
            let first = bounds
                .iter()
                .position(|b| !piece(b).trim().is_empty())
                .unwrap_or(0)
                .min(bounds.len() - 1);
            let bounds = &bounds[first..];
            let (head, tail) = (
                piece(&bounds[0]),
                bounds.last().map(piece).unwrap_or_default(),
            );
            let mut keep = (bounds[0].0, bounds[bounds.len() - 1].1);
            if bounds.len() >= 2
                && (head == "<div>" || head.starts_with("<div "))
                && tail == "</div>"
            {
                let mut depth = 0i64;
                let mut closed_early = false;
                for b in &bounds[..bounds.len() - 1] {
                    let p = piece(b);
                    if p.starts_with("</") {
                        depth -= 1;
                        if depth == 0 {
                            closed_early = true;
                            break;
                        }
                    } else if p.starts_with('<') && !p.ends_with("/>") {
                        depth += 1;
                    }
                }
                if !closed_early {
                    keep = (bounds[0].1, bounds[bounds.len() - 1].0);
                }
            }
            (lo, hi) = keep;
        }
        if strip {
            let inner = &text[lo..hi];
            let trimmed = super::text::trim_xml(inner);
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
        if !self.version.starts_with("atom")
            && self.cp.ty.as_deref() == Some("text/plain")
            && looks_like_html(&output)
        {
            self.cp.ty = Some("text/html".into());
        }
        self.cp.base64 = false;
        output = map_cp1252(if self.windows_1252_repair {
            crate::parse::text::fix_double_utf8_1252(output)
        } else {
            fix_double_utf8(output)
        });
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
                let markup = if self.cp.ty.as_deref() == Some("application/xhtml+xml") {
                    crate::html::Markup::Xhtml
                } else {
                    crate::html::Markup::Html
                };
                let filtered = crate::html::HtmlFilter::new()
                    .sanitize(self.sanitize_html)
                    .resolve(self.resolve_uris)
                    .base(Some(&self.baseuri))
                    .markup(markup)
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
                let detail = self.cp.detail(last_use(&mut output));
                let ctx = self.ctx();
                let list = ctx.entry("content".into()).or_insert_with(|| jv!([]));
                if let Some(a) = list.as_array_mut() {
                    a.push(detail);
                }
            } else if element == "link" {
                if !self.inimage {
                    let fixed = if output.contains('&') {
                        unsemicolon_refs(&output.replace("&amp;", "&"))
                    } else {
                        output.clone()
                    };
                    let e = self.entries.last_mut().expect("entry");
                    // Better than feedparser: a link element's text becomes the entry's
                    // `link` only when it is an alternate link (or the first link).
                    let rel = e
                        .get("links")
                        .and_then(Value::as_array)
                        .and_then(|a| a.last())
                        .and_then(|l| l.get("rel"))
                        .and_then(Value::as_str);
                    if rel.is_none_or(|r| r == "alternate") || !e.contains_key("link") {
                        e.insert("link".into(), jstr(&fixed));
                    }
                    if !fixed.is_empty()
                        && let Some(l) = e
                            .get_mut("links")
                            .and_then(Value::as_array_mut)
                            .and_then(|a| a.last_mut())
                            .and_then(Value::as_object_mut)
                    {
                        l.insert("href".into(), jstr(fixed));
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
                let detailed = self.incontent > 0;
                if store {
                    let v = if detailed {
                        output.clone()
                    } else {
                        last_use(&mut output)
                    };
                    let dk = detailed.then(|| detail_key(&key));
                    self.entries[idx].insert(key, jstr(v));
                    if let Some(dk) = dk {
                        let detail = self.cp.detail(last_use(&mut output));
                        self.entries[idx].insert(dk, detail);
                    }
                } else if detailed {
                    let detail = self.cp.detail(last_use(&mut output));
                    self.entries[idx].insert(detail_key(&key), detail);
                }
            }
        } else if self.infeed || self.insource {
            let key = if element == "description" {
                Key::Borrowed("subtitle")
            } else {
                fp_key_of(&element)
            };
            let detail = (self.incontent > 0).then(|| self.cp.detail(last_use(&mut output)));
            let ctx = self.ctx();
            if key == "link" {
                let fixed = unsemicolon_refs(&output);
                ctx.insert("link".into(), jstr(&fixed));
                if let Some(l) = ctx
                    .get_mut("links")
                    .and_then(Value::as_array_mut)
                    .and_then(|a| a.last_mut())
                    .and_then(Value::as_object_mut)
                {
                    l.insert("href".into(), jstr(fixed));
                }
            } else {
                match detail {
                    Some(d) => {
                        let dk = detail_key(&key);
                        let value = d
                            .get("value")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned();
                        ctx.insert(key, jstr(value));
                        ctx.insert(dk, d);
                    }
                    None => {
                        ctx.insert(key, jstr(last_use(&mut output)));
                    }
                }
            }
        }
        Some((output, nonempty))
    }

    fn push_content(
        &mut self,
        tag: &'static str,
        attrs: &[(String, String)],
        default: &str,
        expecting: bool,
    ) {
        self.incontent += 1;
        if let Some(l) = &self.lang
            && l.contains('_')
        {
            self.lang = Some(l.replace('_', "-").into());
        }
        let ty = map_content_type(getattr(attrs, "type").unwrap_or(default)).into_owned();
        let base64 = getattr(attrs, "mode") == Some("base64")
            || !(ty.starts_with("text/") || ty.ends_with("+xml") || ty.ends_with("/xml"));
        self.cp = ContentParams {
            ty: Some(ty),
            language: self.lang.as_deref().map(str::to_owned),
            base: self.baseuri.to_string(),
            src: None,
            base64,
        };
        self.push(tag, expecting);
    }

    fn pop_content(&mut self, tag: &str) -> Option<String> {
        let v = self.pop(tag, true);
        self.incontent = self.incontent.saturating_sub(1);
        self.cp = ContentParams::default();
        v
    }

    /// [`Builder::pop_content`] for a caller that needs only to know whether the value
    /// is non-empty.
    fn pop_content_unused(&mut self, tag: &str) -> Option<bool> {
        let nonempty = self.pop_unused(tag, true);
        self.incontent = self.incontent.saturating_sub(1);
        self.cp = ContentParams::default();
        nonempty
    }

    fn save_author(&mut self, key: &'static str, value: &str, prefix: &str) {
        let detail_key = detail_key(prefix);
        {
            let ctx = self.ctx();
            let d = ctx.entry(detail_key.clone()).or_insert_with(|| jv!({}));
            if let Some(o) = d.as_object_mut() {
                o.insert(key.into(), jstr(value));
            }
        }
        if prefix != "author" {
            // Better than feedparser, which files a publisher's name and e-mail into the
            // last *author* too: the publisher string is built from its own details.
            let ctx = self.ctx();
            let d = ctx.get(&detail_key).and_then(Value::as_object);
            let name = d
                .and_then(|d| str_of(d.get("name")))
                .filter(|s| !s.is_empty());
            let email = d
                .and_then(|d| str_of(d.get("email")))
                .filter(|s| !s.is_empty());
            let v = match (name, email) {
                (Some(n), Some(e)) => format!("{n} ({e})"),
                (Some(n), None) => n.to_owned(),
                (None, Some(e)) => e.to_owned(),
                (None, None) => return,
            };
            ctx.insert(prefix.to_owned().into(), jstr(v));
            return;
        }
        self.sync_author_detail("author");
        let ctx = self.ctx();
        let authors = ctx.entry("authors".into()).or_insert_with(|| jv!([{}]));
        if let Some(a) = authors.as_array_mut() {
            if a.is_empty() {
                a.push(jv!({}));
            }
            if let Some(o) = a.last_mut().and_then(Value::as_object_mut) {
                o.insert(key.into(), jstr(value));
            }
        }
    }

    fn save_contributor(&mut self, key: &'static str, value: &str) {
        let ctx = self.ctx();
        let c = ctx
            .entry("contributors".into())
            .or_insert_with(|| jv!([{}]));
        if let Some(a) = c.as_array_mut() {
            if a.is_empty() {
                a.push(jv!({}));
            }
            if let Some(o) = a.last_mut().and_then(Value::as_object_mut) {
                o.insert(key.into(), jstr(value));
            }
        }
    }

    fn sync_author_detail(&mut self, key: &'static str) {
        let plural: Cow<'static, str> = match key {
            "author" => "authors".into(),
            "publisher" => "publishers".into(),
            _ => format!("{key}s").into(),
        };
        let plural = &*plural;
        let detail_key = detail_key(key);
        let ctx = self.ctx();
        let last = ctx
            .get(plural)
            .and_then(Value::as_array)
            .and_then(|a| a.last());
        let from_list = matches!(last, Some(Value::Object(_)));
        if let Some(Value::Object(detail)) = last
            && !detail.is_empty()
        {
            let name = str_of(detail.get("name")).filter(|s| !s.is_empty());
            let email = str_of(detail.get("email")).filter(|s| !s.is_empty());
            let v = match (name, email) {
                (Some(n), Some(e)) => Some(format!("{n} ({e})")),
                (Some(n), None) => Some(n.to_owned()),
                (None, Some(e)) => Some(e.to_owned()),
                (None, None) => None,
            };
            if let Some(v) = v {
                ctx.insert(key.into(), jstr(v));
            }
            return;
        }
        let Some(mut author) = str_of(ctx.get(key))
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
        else {
            return;
        };
        let mut email = None;
        if let Some((a, b)) = find_email(&author) {
            let e = author[a..b].to_owned();
            author = author.replace(&e, "");
            author = author
                .replace("()", "")
                .replace("<>", "")
                .replace("&lt;&gt;", "");
            author = trim_py(&author).to_owned();
            if author.starts_with('(') {
                author.remove(0);
            }
            if author.ends_with(')') {
                author.pop();
            }
            author = trim_py(&author).to_owned();
            email = Some(e);
        }
        let mut detail = Dict::new();
        if !author.is_empty() {
            detail.insert("name".into(), jv!(&author));
        }
        if let Some(e) = &email {
            detail.insert("email".into(), jstr(e));
        }
        if author.is_empty() && email.is_none() {
            return;
        }
        let had_detail = ctx.contains_key(&detail_key);
        if !had_detail {
            ctx.insert(detail_key, Value::Object(detail.clone()));
        }
        if from_list
            && let Some(last) = ctx
                .get_mut(plural)
                .and_then(Value::as_array_mut)
                .and_then(|a| a.last_mut())
        {
            *last = Value::Object(detail);
        }
    }

    fn add_tag(&mut self, term: Option<&str>, scheme: Option<&str>, label: Option<&str>) {
        let ctx = self.ctx();
        let tags = ctx.entry("tags".into()).or_insert_with(|| jv!([]));
        let empty = |s: Option<&str>| s.is_none_or(str::is_empty);
        if empty(term) && empty(scheme) && empty(label) {
            return;
        }
        let opt = |s: Option<&str>| s.map_or(Value::Null, |s| jv!(s));
        let value = jv!({"term": opt(term), "scheme": opt(scheme), "label": opt(label)});
        // Duplicates are skipped as feedparser does; past 1000 tags the check is dropped to
        // keep hostile input linear.
        if let Some(a) = tags.as_array_mut()
            && (a.len() > 1000 || !a.contains(&value))
        {
            a.push(value);
        }
    }

    fn start_author(&mut self) {
        self.inauthor = true;
        self.push("author", true);
        let ctx = self.ctx();
        let a = ctx.entry("authors".into()).or_insert_with(|| jv!([]));
        if let Some(a) = a.as_array_mut() {
            a.push(jv!({}));
        }
    }

    fn end_author(&mut self) {
        self.pop("author", true);
        self.inauthor = false;
        self.sync_author_detail("author");
    }

    fn start_link(&mut self, attrs: Vec<(String, String)>) {
        let mut d = attrs_dict_owned(attrs);
        if !d.contains_key("rel") {
            d.insert("rel".into(), jv!("alternate"));
        }
        if !d.contains_key("type") {
            let t = if str_of(d.get("rel")) == Some("self") {
                "application/atom+xml"
            } else {
                "text/html"
            };
            d.insert("type".into(), jstr(t));
        }
        enforce_href(&mut d);
        if let Some(Value::String(h)) = d.get_mut("href") {
            self.resolve_in_place(h);
        }
        let expecting = self.infeed || self.inentry || self.insource;
        let skip = self.inentry && self.inimage;
        let alternate_html = str_of(d.get("rel")) == Some("alternate")
            && is_html_type(&map_content_type(str_of(d.get("type")).unwrap_or("")));
        let href = str_of(d.get("href")).map(|h| alternate_html.then(|| h.to_owned()));
        let ctx = self.ctx();
        let links = ctx.entry("links".into()).or_insert_with(|| jv!([]));
        if !skip && let Some(a) = links.as_array_mut() {
            a.push(Value::Object(d));
        }
        match href {
            Some(Some(h)) => {
                ctx.insert("link".into(), jstr(h));
            }
            Some(None) => {}
            None => self.push("link", expecting),
        }
    }

    fn resolve_uri(&self, uri: &str) -> String {
        super::url::urljoin(&self.baseuri, uri)
    }

    /// `*uri = self.resolve_uri(uri)`, without a copy when there is no base and nothing
    /// to trim.
    fn resolve_in_place(&self, uri: &mut String) {
        if self.baseuri.is_empty() {
            let trimmed = uri.trim();
            if trimmed.len() != uri.len() {
                *uri = trimmed.to_owned();
            }
        } else {
            *uri = self.resolve_uri(uri);
        }
    }

    fn start_content(&mut self, attrs: &[(String, String)]) {
        self.has_content = true;
        self.push_content("content", attrs, "text/plain", true);
        if let Some(src) = getattr(attrs, "src").filter(|s| !s.is_empty()) {
            self.cp.src = Some(self.resolve_uri(src));
        }
        self.push("content", true);
    }

    fn end_content(&mut self) {
        let ty = map_content_type(self.cp.ty_or(""));
        let copy = ty == "text/plain" || is_html_type(&ty);
        // The value is copied to `summary` only when there is none yet.
        if copy && !self.ctx_has("summary") {
            if let Some(v) = self.pop_content("content") {
                self.save("summary", jstr(v), false);
            }
        } else {
            self.pop_content_unused("content");
        }
    }

    fn start_description(&mut self, attrs: &[(String, String)], default: &str) {
        let has_summary = self.ctx().contains_key("summary");
        if has_summary && !self.has_content {
            self.summary_key = Some("content");
            self.start_content(attrs);
        } else {
            let e = self.infeed || self.inentry || self.insource;
            self.push_content("description", attrs, default, e);
        }
    }

    fn end_description(&mut self) {
        if self.summary_key == Some("content") {
            self.end_content();
        } else {
            self.pop_content_unused("description");
        }
        self.summary_key = None;
    }

    fn start_summary(&mut self, attrs: &[(String, String)]) {
        let has_summary = self.ctx().contains_key("summary");
        if has_summary && !self.has_content {
            self.summary_key = Some("content");
            self.start_content(attrs);
        } else {
            self.summary_key = Some("summary");
            self.push_content("summary", attrs, "text/plain", true);
        }
    }

    fn end_summary(&mut self) {
        if self.summary_key == Some("content") {
            self.end_content();
        } else {
            let k = self.summary_key.unwrap_or("summary");
            self.pop_content_unused(k);
        }
        self.summary_key = None;
    }

    fn start_title(&mut self, attrs: &[(String, String)]) {
        let e = self.infeed || self.inentry || self.insource;
        self.push_content("title", attrs, "text/plain", e);
    }

    fn end_title(&mut self) {
        if self.svg_ok > 0 {
            return;
        }
        if self.pop_content_unused("title") == Some(true) {
            self.title_depth = self.depth;
        }
    }

    fn start_category(&mut self, attrs: &[(String, String)]) {
        let term = getattr(attrs, "term");
        let scheme = getattr(attrs, "scheme").or_else(|| getattr(attrs, "domain"));
        let label = getattr(attrs, "label");
        self.add_tag(term, scheme, label);
        self.push("category", true);
    }

    fn end_category(&mut self) {
        let Some(value) = self.pop("category", true).filter(|v| !v.is_empty()) else {
            return;
        };
        let ctx = self.ctx();
        let last_term_empty = ctx
            .get("tags")
            .and_then(Value::as_array)
            .and_then(|a| a.last())
            .map(|t| {
                t.get("term")
                    .is_none_or(|v| v.as_str().is_none_or(str::is_empty))
            });
        if last_term_empty == Some(true) {
            if let Some(t) = ctx
                .get_mut("tags")
                .and_then(Value::as_array_mut)
                .and_then(|a| a.last_mut())
                .and_then(Value::as_object_mut)
            {
                t.insert("term".into(), jstr(value));
            }
        } else {
            self.add_tag(Some(&value), None, None);
        }
    }

    fn start_date(&mut self, key: &'static str) {
        self.push(key, true);
    }

    fn end_date(&mut self, key: &str) {
        let v = self.pop(key, true).unwrap_or_default();
        let parsed_key: Cow<'static, str> = match key {
            "published" => "published_parsed".into(),
            "updated" => "updated_parsed".into(),
            "created" => "created_parsed".into(),
            "expired" => "expired_parsed".into(),
            _ => format!("{key}_parsed").into(),
        };
        // Atom entries often carry the same date twice (published, updated).
        let parsed = match &self.last_date {
            Some((text, parsed)) if *text == v => parsed.clone(),
            _ => {
                let parsed = date_value(&v);
                self.last_date = Some((v, parsed.clone()));
                parsed
            }
        };
        self.save(parsed_key, parsed, true);
    }

    fn cdf_common(&mut self, attrs: &[(String, String)]) {
        if let Some(lm) = getattr(attrs, "lastmod") {
            self.push("updated", true);
            self.data_raw(lm);
            self.end_date("updated");
        }
        if let Some(href) = getattr(attrs, "href") {
            self.start_link(Vec::new());
            self.data_raw(href);
            self.pop("link", true);
        }
    }

    fn data_raw(&mut self, s: &str) {
        if let Some(top) = self.stack.last_mut() {
            top.text = s.to_owned();
            top.marks.clear();
        }
    }

    fn start_geom(&mut self) {
        self.push("geometry", false);
        self.ctx().insert("where".into(), jv!({}));
    }

    fn save_where(&mut self, geometry: serde_json::Map<String, serde_json::Value>) {
        let geometry = Map::from_json(geometry);
        let ctx = self.ctx();
        let w = ctx.entry("where".into()).or_insert_with(|| jv!({}));
        if let Some(o) = w.as_object_mut() {
            o.extend(geometry);
        }
    }

    fn parse_srs(&mut self, attrs: &[(String, String)]) {
        let name = getattr(attrs, "srsname").map_or(Value::Null, |s| jv!(s));
        let dim = getattr(attrs, "srsdimension")
            .unwrap_or("2")
            .trim()
            .parse::<i64>()
            .unwrap_or(2);
        let ctx = self.ctx();
        let w = ctx.entry("where".into()).or_insert_with(|| jv!({}));
        if let Some(o) = w.as_object_mut() {
            o.insert("srsName".into(), name);
            o.insert("srsDimension".into(), jv!(dim));
        }
    }

    fn gml_pos(&mut self, list: bool) {
        let this = self.pop("pos", true).unwrap_or_default();
        let ctx = self.ctx();
        let w = ctx.get("where").and_then(Value::as_object);
        let srs = w.and_then(|w| str_of(w.get("srsName"))).map(str::to_owned);
        let dims = w
            .and_then(|w| w.get("srsDimension"))
            .and_then(Value::as_i64)
            .unwrap_or(2);
        let mut swap = true;
        if let Some(s) = srs.filter(|s| s.contains("EPSG"))
            && let Ok(epsg) = s.rsplit(':').next().unwrap_or("").parse::<u32>()
        {
            swap = geo::is_geographic(epsg);
        }
        let g = if list {
            match self.ingeometry {
                Geom::LineString => geo::line(&this, swap, dims),
                Geom::Polygon => geo::line(&this, swap, dims).map(|mut l| {
                    let ring = l.remove("coordinates").unwrap_or(serde_json::Value::Null);
                    let mut d = serde_json::Map::new();
                    d.insert("type".into(), serde_json::json!("Polygon"));
                    d.insert("coordinates".into(), serde_json::json!([ring]));
                    d
                }),
                _ => None,
            }
        } else {
            geo::point(&this, swap, dims)
        };
        if let Some(g) = g {
            self.save_where(g);
        }
    }

    /// Calls feedparser's `_start_<key>` handler; false when there is none.
    /// A handler that keeps the attributes as a dictionary may take them (`attrs` is not
    /// read once a handler has run).
    fn start_handler(&mut self, key: &str, attrs: &mut Vec<(String, String)>) -> bool {
        match key {
            "rss" => {
                if self.version.is_empty() || !self.version.starts_with("rss") {
                    let v = getattr(attrs, "version").unwrap_or("");
                    self.version = match v {
                        "0.91" => "rss091u",
                        "0.92" => "rss092",
                        "0.93" => "rss093",
                        "0.94" => "rss094",
                        v if v.starts_with("2.") => "rss20",
                        _ => "rss",
                    }
                    .into();
                }
            }
            "channel" => {
                // A root-level channel is CDF (feedparser 6 reports "" there; older
                // versions and its documentation say "cdf").
                if self.version.is_empty() && self.depth == 1 {
                    self.version = "cdf".into();
                }
                self.infeed = true;
                self.cdf_common(attrs);
            }
            "feed" => {
                self.infeed = true;
                if self.version.is_empty() {
                    self.version = match getattr(attrs, "version") {
                        Some("0.1") => "atom01",
                        Some("0.2") => "atom02",
                        Some("0.3") => "atom03",
                        _ => "atom",
                    }
                    .into();
                }
            }
            "image" => {
                if !self.inentry {
                    self.ctx().entry("image".into()).or_insert_with(|| jv!({}));
                }
                self.inimage = true;
                self.title_depth = -1;
                self.push("image", false);
            }
            "textinput" => {
                self.ctx()
                    .entry("textinput".into())
                    .or_insert_with(|| jv!({}));
                self.intextinput = true;
                self.title_depth = -1;
                self.push("textinput", false);
            }
            "author" | "managingeditor" | "dc_author" | "dc_creator" | "itunes_author" => {
                self.start_author();
            }
            "contributor" => {
                self.incontributor = true;
                let ctx = self.ctx();
                let c = ctx.entry("contributors".into()).or_insert_with(|| jv!([]));
                if let Some(a) = c.as_array_mut() {
                    a.push(jv!({}));
                }
                self.push("contributor", false);
            }
            "dc_contributor" => {
                self.incontributor = true;
                let ctx = self.ctx();
                let c = ctx.entry("contributors".into()).or_insert_with(|| jv!([]));
                if let Some(a) = c.as_array_mut() {
                    a.push(jv!({}));
                }
                self.push("name", false);
            }
            "name" | "itunes_name" => self.push("name", false),
            "width" => self.push("width", false),
            "height" => self.push("height", false),
            "url" | "homepage" | "uri" => self.push("href", true),
            "email" | "itunes_email" => self.push("email", false),
            "subtitle" | "tagline" | "itunes_subtitle" => {
                self.push_content("subtitle", attrs, "text/plain", true);
            }
            "rights" | "copyright" | "dc_rights" => {
                self.push_content("rights", attrs, "text/plain", true);
            }
            "item" | "entry" => {
                if self.done.len() + self.entries.len() >= self.max_entries {
                    self.entries_truncated = true;
                    if self.entries.pop().is_none() {
                        self.done.pop();
                    }
                }
                if let Some(prev) = self.entries.pop() {
                    self.done.push(crate::model::Entry::from_builder(prev));
                }
                self.entries.push(Dict::with_capacity(24));
                self.property_depth.clear();
                self.push("item", false);
                self.inentry = true;
                self.guidislink = false;
                self.title_depth = -1;
                if let Some(id) = getattr(attrs, "rdf:about") {
                    let id = id.to_owned();
                    self.ctx().insert("id".into(), jstr(id));
                }
                self.cdf_common(attrs);
            }
            "language" | "dc_language" => self.push("language", true),
            "webmaster" | "dc_publisher" => self.push("publisher", true),
            "published" | "issued" | "pubdate" | "dcterms_issued" => self.start_date("published"),
            "updated" | "modified" | "lastbuilddate" | "dc_date" | "dcterms_modified" => {
                self.start_date("updated");
            }
            "created" | "dcterms_created" => self.start_date("created"),
            "expirationdate" => self.start_date("expired"),
            "dcterms_valid" => self.push("validity", true),
            "category" | "keywords" | "dc_subject" => self.start_category(attrs),
            "media_category" => {
                let mut a = attrs.to_vec();
                if getattr(&a, "scheme").is_none() {
                    a.push((
                        "scheme".into(),
                        "http://search.yahoo.com/mrss/category_schema".into(),
                    ));
                }
                self.start_category(&a);
            }
            "itunes_category" => {
                self.add_tag(getattr(attrs, "text"), Some("http://www.itunes.com/"), None);
                self.push("category", true);
            }
            "tags" => self.push("tags", true),
            "cloud" => {
                let d = attrs_dict(attrs);
                self.ctx().insert("cloud".into(), Value::Object(d));
            }
            "link" => self.start_link(std::mem::take(attrs)),
            "guid" | "id" => {
                self.guidislink = getattr(attrs, "ispermalink").unwrap_or("true") == "true";
                self.push("id", true);
            }
            "title" | "dc_title" | "media_title" => {
                if self.svg_ok > 0 {
                    return false;
                }
                self.start_title(attrs);
            }
            "description" | "dc_description" | "media_description" => {
                self.start_description(attrs, "text/html");
            }
            "abstract" => {
                let e = self.infeed || self.inentry || self.insource;
                self.push_content("description", attrs, "text/plain", e);
            }
            "info" | "feedburner_browserfriendly" => {
                self.push_content("info", attrs, "text/plain", true);
            }
            "generator" => {
                let mut d = attrs_dict(attrs);
                if !d.is_empty() {
                    enforce_href(&mut d);
                    if let Some(h) = str_of(d.get("href")).map(str::to_owned) {
                        let r = self.resolve_uri(&h);
                        d.insert("href".into(), jstr(r));
                    }
                }
                self.ctx()
                    .insert("generator_detail".into(), Value::Object(d));
                self.push("generator", true);
            }
            "summary" | "itunes_summary" => self.start_summary(attrs),
            "enclosure" => {
                let mut d = attrs_dict_owned(std::mem::take(attrs));
                enforce_href(&mut d);
                d.insert("rel".into(), jv!("enclosure"));
                let ctx = self.ctx();
                let l = ctx.entry("links".into()).or_insert_with(|| jv!([]));
                if let Some(a) = l.as_array_mut() {
                    a.push(Value::Object(d));
                }
            }
            "source" => {
                if let Some(u) = getattr(attrs, "url") {
                    self.sourcedata.insert("href".into(), jstr(u));
                }
                self.push("source", true);
                self.insource = true;
                self.title_depth = -1;
            }
            "content" => self.start_content(attrs),
            "body" | "xhtml_body" => {
                self.push_content("content", attrs, "application/xhtml+xml", true);
            }
            "content_encoded" | "fullitem" => {
                self.has_content = true;
                self.push_content("content", attrs, "text/html", true);
            }
            "newlocation" => self.push("newlocation", true),
            "itunes_owner" => {
                self.inpublisher = true;
                self.push("publisher", false);
            }
            "itunes_image" | "itunes_link" => {
                self.push("itunes_image", false);
                let href = getattr(attrs, "href")
                    .filter(|s| !s.is_empty())
                    .or_else(|| getattr(attrs, "url").filter(|s| !s.is_empty()));
                if let Some(h) = href {
                    let h = h.to_owned();
                    self.ctx().insert("image".into(), jv!({"href": h}));
                }
            }
            "media_group" => {}
            "media_rating" => {
                self.keep_first("media_rating", attrs);
                self.push("rating", true);
            }
            "media_credit" => {
                self.append_attrs("media_credit", attrs);
                self.push("credit", true);
            }
            "media_restriction" => {
                self.keep_first("media_restriction", attrs);
                self.push("restriction", true);
            }
            "media_license" => {
                self.keep_first("media_license", attrs);
                self.push("license", true);
            }
            "media_content" => self.append_attrs("media_content", attrs),
            "media_thumbnail" => {
                self.push("url", true);
                self.append_attrs("media_thumbnail", attrs);
            }
            "media_player" => {
                self.push("media_player", false);
                let d = attrs_dict(attrs);
                self.ctx().insert("media_player".into(), Value::Object(d));
            }
            "psc_chapters" => {
                let ctx = self.ctx();
                if !ctx.contains_key("psc_chapters") {
                    let mut d = attrs_dict(attrs);
                    d.insert("chapters".into(), jv!([]));
                    ctx.insert("psc_chapters".into(), Value::Object(d));
                    self.psc_chapters_flag = true;
                }
            }
            "psc_chapter" => {
                if self.psc_chapters_flag {
                    let mut d = attrs_dict(attrs);
                    let start = getattr(attrs, "start").unwrap_or("");
                    d.insert(
                        "start_parsed".into(),
                        Value::from_json(geo::psc_start(start)),
                    );
                    if let Some(a) = self
                        .ctx()
                        .get_mut("psc_chapters")
                        .and_then(|p| p.get_mut("chapters"))
                        .and_then(Value::as_array_mut)
                    {
                        a.push(Value::Object(d));
                    }
                }
            }
            "cc_license" => {
                let mut d = Dict::new();
                d.insert("rel".into(), jv!("license"));
                if let Some(v) = getattr(attrs, "rdf:resource").filter(|v| !v.is_empty()) {
                    d.insert("href".into(), jstr(v));
                }
                let ctx = self.ctx();
                let l = ctx.entry("links".into()).or_insert_with(|| jv!([]));
                if let Some(a) = l.as_array_mut() {
                    a.push(Value::Object(d));
                }
            }
            "creativecommons_license" => self.push("license", true),
            "admin_generatoragent" | "admin_errorreportsto" => {
                let name = if key == "admin_generatoragent" {
                    "generator"
                } else {
                    "errorreportsto"
                };
                self.push(name, true);
                let value = getattr(attrs, "rdf:resource").map(str::to_owned);
                if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
                    self.data_raw(v);
                }
                self.pop(name, true);
                if name == "generator" {
                    let v = value.map_or(Value::Null, jstr);
                    self.ctx()
                        .insert("generator_detail".into(), jv!({ "href": v }));
                }
            }
            "georss_point" | "georss_line" | "georss_polygon" | "georss_box" => self.start_geom(),
            "where" | "georss_where" => {
                self.push("where", false);
                self.ctx().insert("where".into(), jv!({}));
            }
            "gml_point" => {
                self.parse_srs(attrs);
                self.ingeometry = Geom::Point;
                self.push("geometry", false);
            }
            "gml_linestring" => {
                self.parse_srs(attrs);
                self.ingeometry = Geom::LineString;
                self.push("geometry", false);
            }
            "gml_polygon" => {
                self.parse_srs(attrs);
                self.push("geometry", false);
            }
            "gml_exterior" => self.push("geometry", false),
            "gml_linearring" => {
                self.ingeometry = Geom::Polygon;
                self.push("geometry", false);
            }
            "gml_pos" | "gml_poslist" => self.push("pos", false),
            _ => return false,
        }
        true
    }

    /// Calls feedparser's `_end_<key>` handler; false when there is none.
    fn end_handler(&mut self, key: &str) -> bool {
        match key {
            "channel" | "feed" => self.infeed = false,
            "image" => {
                self.pop("image", true);
                self.inimage = false;
            }
            "textinput" => {
                self.pop("textinput", true);
                self.intextinput = false;
            }
            "author" | "managingeditor" | "dc_author" | "dc_creator" | "itunes_author" => {
                self.end_author();
            }
            "contributor" => {
                self.pop("contributor", true);
                self.incontributor = false;
            }
            "name" | "itunes_name" | "dc_contributor" => {
                let value = self.pop("name", true).unwrap_or_default();
                if self.inpublisher {
                    self.save_author("name", &value, "publisher");
                } else if self.inauthor {
                    self.save_author("name", &value, "author");
                } else if self.incontributor {
                    self.save_contributor("name", &value);
                } else if self.intextinput {
                    self.ctx().insert("name".into(), jstr(value));
                }
                if key == "dc_contributor" {
                    self.incontributor = false;
                }
            }
            "width" | "height" => {
                let value = self.pop(key, true).unwrap_or_default();
                let n = parse_py_int(&value).unwrap_or(0);
                if self.inimage {
                    self.ctx().insert(key.to_owned().into(), jv!(n));
                }
            }
            "url" | "homepage" | "uri" => {
                let value = self.pop("href", true).unwrap_or_default();
                if self.inauthor {
                    self.save_author("href", &value, "author");
                } else if self.incontributor {
                    self.save_contributor("href", &value);
                }
            }
            "email" | "itunes_email" => {
                let value = self.pop("email", true).unwrap_or_default();
                if self.inpublisher {
                    self.save_author("email", &value, "publisher");
                } else if self.inauthor {
                    self.save_author("email", &value, "author");
                } else if self.incontributor {
                    self.save_contributor("email", &value);
                }
            }
            "subtitle" | "tagline" | "itunes_subtitle" => {
                self.pop_content_unused("subtitle");
            }
            "rights" | "copyright" | "dc_rights" => {
                self.pop_content_unused("rights");
            }
            "item" | "entry" => {
                self.pop("item", true);
                self.inentry = false;
                self.has_content = false;
            }
            "language" | "dc_language" => {
                let v = self.pop("language", true);
                self.lang = v.map(Rc::from);
            }
            "webmaster" | "dc_publisher" => {
                self.pop("publisher", true);
                self.sync_author_detail("publisher");
            }
            "published" | "issued" | "pubdate" | "dcterms_issued" => self.end_date("published"),
            "updated" | "modified" | "lastbuilddate" | "dc_date" | "dcterms_modified" => {
                self.end_date("updated");
            }
            "created" | "dcterms_created" => self.end_date("created"),
            "expirationdate" => self.end_date("expired"),
            "dcterms_valid" => {
                let v = self.pop("validity", true).unwrap_or_default();
                for part in v.split(';') {
                    if let Some((k, val)) = part.split_once('=')
                        && (k == "start" || k == "end")
                    {
                        self.save(format!("validity_{k}"), jv!(val), true);
                        self.save(format!("validity_{k}_parsed"), date_value(val), true);
                    }
                }
            }
            "category" | "keywords" | "dc_subject" | "media_category" | "itunes_category" => {
                self.end_category();
            }
            "tags" => {
                let v = self.pop("tags", true).unwrap_or_default();
                for term in v.split(',') {
                    self.add_tag(Some(trim_py(term)), None, None);
                }
            }
            "itunes_keywords" => {
                let v = self.pop("itunes_keywords", true).unwrap_or_default();
                for term in v.split(',') {
                    let t = trim_py(term);
                    if !t.is_empty() {
                        self.add_tag(Some(t), Some("http://www.itunes.com/"), None);
                    }
                }
            }
            "media_keywords" => {
                let v = self.pop("media_keywords", true).unwrap_or_default();
                for term in v.split(',') {
                    let t = trim_py(term);
                    if !t.is_empty() {
                        self.add_tag(Some(t), None, None);
                    }
                }
            }
            "link" => {
                self.pop("link", true);
            }
            "guid" | "id" => {
                let value = self.pop("id", true);
                let has_link = self.ctx().contains_key("link");
                let gil = self.guidislink && !has_link;
                self.save("guidislink", jv!(gil), false);
                if self.guidislink
                    && let Some(v) = value
                {
                    self.save("link", jstr(v), false);
                }
            }
            "title" | "dc_title" => self.end_title(),
            "media_title" => {
                let td = self.title_depth;
                self.end_title();
                self.title_depth = td;
            }
            "description" | "dc_description" | "media_description" | "abstract" => {
                self.end_description();
            }
            "info" | "feedburner_browserfriendly" => {
                self.pop_content_unused("info");
            }
            "generator" => {
                let value = self.pop("generator", true);
                let ctx = self.ctx();
                if let Some(d) = ctx
                    .get_mut("generator_detail")
                    .and_then(Value::as_object_mut)
                {
                    d.insert("name".into(), value.map_or(Value::Null, jstr));
                }
            }
            "summary" | "itunes_summary" => self.end_summary(),
            "source" => {
                self.insource = false;
                let value = self.pop("source", true);
                if let Some(v) = value.filter(|v| !v.is_empty()) {
                    self.sourcedata.insert("title".into(), jstr(v));
                }
                let data = std::mem::take(&mut self.sourcedata);
                self.ctx().insert("source".into(), Value::Object(data));
            }
            "content" | "body" | "xhtml_body" | "content_encoded" | "fullitem" => {
                self.end_content();
            }
            "newlocation" => {
                let url = self.pop("newlocation", true).unwrap_or_default();
                if self.ctx_kind() == Ctx::Feed {
                    let u = self.resolve_uri(trim_py(&url));
                    self.feed.insert("newlocation".into(), jstr(u));
                }
            }
            "itunes_owner" => {
                let kept = self.ctx().get("publisher").cloned();
                self.pop("publisher", true);
                self.inpublisher = false;
                if let Some(k) = kept {
                    self.ctx().insert("publisher".into(), k);
                }
                self.sync_author_detail("publisher");
            }
            "itunes_block" => {
                let v = self.pop("itunes_block", false).unwrap_or_default();
                let b = i64::from(v == "yes" || v == "Yes");
                self.ctx().insert("itunes_block".into(), jv!(b));
            }
            "itunes_explicit" => {
                let v = self.pop("itunes_explicit", false).unwrap_or_default();
                // feedparser maps only "yes" and "clean"; the other spellings the
                // iTunes specification allows are read too.
                let e = match v.as_str() {
                    "yes" | "true" | "explicit" => jv!(true),
                    "clean" | "no" | "false" => jv!(false),
                    _ => Value::Null,
                };
                self.ctx().insert("itunes_explicit".into(), e);
            }
            "media_rating" => self.content_of("rating", "media_rating"),
            "media_credit" => self.content_of("credit", "media_credit"),
            "media_restriction" => {
                if let Some(r) = self
                    .pop("restriction", true)
                    .filter(|r| !r.trim().is_empty())
                {
                    let list: Vec<String> =
                        r.split(' ').map(|c| trim_py(c).to_lowercase()).collect();
                    if let Some(o) = self
                        .ctx()
                        .get_mut("media_restriction")
                        .and_then(Value::as_object_mut)
                    {
                        o.insert("content".into(), jv!(list));
                    }
                }
            }
            "media_license" => self.content_of("license", "media_license"),
            "media_thumbnail" => {
                let url = self.pop("url", true);
                if let Some(u) = url.filter(|u| !u.trim().is_empty())
                    && let Some(o) = self
                        .ctx()
                        .get_mut("media_thumbnail")
                        .and_then(Value::as_array_mut)
                        .and_then(|a| a.last_mut())
                        .and_then(Value::as_object_mut)
                {
                    o.entry("url".into()).or_insert(jstr(u));
                }
            }
            "media_player" => {
                let v = self.pop("media_player", true);
                if let Some(o) = self
                    .ctx()
                    .get_mut("media_player")
                    .and_then(Value::as_object_mut)
                {
                    o.insert("content".into(), v.map_or(Value::Null, jstr));
                }
            }
            "psc_chapters" => self.psc_chapters_flag = false,
            "creativecommons_license" => {
                let v = self.pop("license", true);
                let mut d = Dict::new();
                d.insert("rel".into(), jv!("license"));
                if let Some(v) = v.filter(|v| !v.is_empty()) {
                    d.insert("href".into(), jstr(v));
                }
                let ctx = self.ctx();
                let l = ctx.entry("links".into()).or_insert_with(|| jv!([]));
                if let Some(a) = l.as_array_mut() {
                    a.push(Value::Object(d));
                }
                ctx.remove("license");
            }
            "georss_point" | "georss_line" | "georss_polygon" | "georss_box" => {
                let v = self.pop("geometry", true).unwrap_or_default();
                let g = match key {
                    "georss_point" => geo::point(&v, true, 2),
                    "georss_line" => geo::line(&v, true, 2),
                    "georss_polygon" => geo::polygon(&v),
                    _ => geo::boxed(&v),
                };
                if let Some(g) = g {
                    self.save_where(g);
                }
            }
            "gml_pos" => self.gml_pos(false),
            "gml_poslist" => self.gml_pos(true),
            "gml_point" | "gml_linestring" | "gml_linearring" | "gml_exterior" | "gml_polygon" => {
                self.ingeometry = Geom::None;
                self.pop("geometry", true);
            }
            "where" | "georss_where" => {
                self.pop("where", true);
            }
            _ => return false,
        }
        true
    }
}

impl Builder {
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
fn detail_key(key: &str) -> Cow<'static, str> {
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

/// HTML void elements: serialized as `<br />` inside inline markup, never closed.
fn is_void(local: &str) -> bool {
    matches!(
        local,
        "area"
            | "base"
            | "basefont"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "isindex"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Python's `str.strip()` (Unicode whitespace).
pub(crate) fn trim_py(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

fn parse_py_int(s: &str) -> Option<i64> {
    let t = trim_py(s).replace('_', "");
    t.parse::<i64>().ok()
}

#[cfg(test)]
mod tests {
    use super::super::{ParseOptions, parse_str};
    use serde_json::json;

    fn entry(text: &str) -> serde_json::Value {
        let r = parse_str(text, &ParseOptions::default());
        serde_json::to_value(&r.entries[0]).unwrap()
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
    fn second_summary_becomes_content() {
        let e = entry(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry><summary>a</summary><summary>b</summary></entry></feed>",
        );
        assert_eq!(e["summary"], "a");
        assert_eq!(e["content"][0]["value"], "b");
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
