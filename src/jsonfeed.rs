//! JSON Feed 1.0 and 1.1 (<https://jsonfeed.org/version/1.1>) into the feed model.
//!
//! The text is parsed with serde_json; this module only maps the value. The keys are
//! feedparser's (its development branch reads JSON Feed with the version strings `json1`
//! and `json11`), and the mapping goes further where feedparser's has gaps:
//!
//! | JSON Feed | result |
//! |---|---|
//! | `version` | `version`: `json1`, `json11`; `json` (and a bozo record) when missing or unknown |
//! | `title`, `description`, `user_comment` | `title`, `subtitle`, `info` with their `*_detail` |
//! | `home_page_url` | `link` and an `alternate` link |
//! | `feed_url` | `id` (as feedparser) and a `self` link |
//! | `next_url` | a `next` link |
//! | `icon`, `favicon` | `image.href`, `icon` |
//! | `authors` (1.1), `author` (1.0) | `authors`, `author_detail`, `author` (`avatar` → `image`) |
//! | `language` | `language`, and the details' `language` |
//! | `expired` | `complete` (true only for `true`) |
//! | `hubs` | `hubs` (`type`, `url`) and `hub` links |
//! | relative URLs | resolved against the document's location ([`ParseOptions::base_uri`]) when known |
//! | item `id`, `url`, `external_url` | `id` (numbers coerced to strings), `link` and an `alternate` link, a `related` link and `source.href` |
//! | item `title`, `summary` | `title`, `summary` with details (`summary` from the content when absent) |
//! | item `content_html`, `content_text` | `content`: a list, HTML first, both kept |
//! | item `date_published`, `date_modified` | `published`, `updated` with `_parsed` |
//! | item `tags` | `tags` (`term`) |
//! | item `attachments` | `links` with `rel` = `enclosure` (`href`, `type`, `length`, `title`, `duration_in_seconds`) |
//! | item `image`, `banner_image` | `image.href`, `banner_image.href` |
//! | item `language`, `authors`, `author` | `language`, `authors` … as for the feed; an item without authors has the feed's (as the specification says) |
//! | any other key (`_extensions` …) | kept under its own name, or `json_NAME` where the name is one the model uses |
//!
//! Problems are bozo records and never lose what is readable: bad JSON is
//! [`BozoKind::InvalidJson`] with a line and column, and a truncated or broken document
//! is cut back to its last complete member and closed, so the entries before the damage
//! are kept; a missing or unknown `version`, a field of the wrong type, an attachment
//! without `url` or `mime_type`, or missing `items` are [`BozoKind::InvalidJsonFeed`].

use serde_json::{Map, Value};

use crate::parse::dict::{Key, Map as DMap, Value as DValue, jv};

use crate::bozo::{Bozo, BozoKind, Position};
use crate::model::{Entry, Feed, ParsedFeed};
use crate::parse::ParseOptions;
use crate::parse::text::looks_like_html;
use crate::parse::url::urljoin;

/// The JSON Feed version strings and feedparser's names for them.
fn version_name(v: &str) -> Option<&'static str> {
    let t = v.trim().to_ascii_lowercase();
    let t = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))
        .unwrap_or(&t);
    let t = t.strip_prefix("www.").unwrap_or(t).trim_end_matches('/');
    match t {
        "jsonfeed.org/version/1" | "jsonfeed.org/version/1.0" => Some("json1"),
        "jsonfeed.org/version/1.1" => Some("json11"),
        _ => None,
    }
}

/// Keys the model gives a meaning: an unknown JSON key of that name is kept as
/// `json_NAME` so it cannot take a typed field's place.
const MODEL_KEYS: &[&str] = &[
    "title",
    "title_detail",
    "link",
    "links",
    "subtitle",
    "subtitle_detail",
    "rights",
    "rights_detail",
    "info",
    "info_detail",
    "id",
    "author",
    "author_detail",
    "authors",
    "contributors",
    "publisher",
    "publisher_detail",
    "tags",
    "language",
    "generator",
    "generator_detail",
    "docs",
    "ttl",
    "icon",
    "logo",
    "image",
    "textinput",
    "cloud",
    "where",
    "published",
    "published_parsed",
    "updated",
    "updated_parsed",
    "created",
    "created_parsed",
    "expired",
    "expired_parsed",
    "summary",
    "summary_detail",
    "content",
    "guidislink",
    "comments",
    "source",
    "podcast",
    "complete",
    "hubs",
    "banner_image",
    "enclosures",
];

const FEED_FIELDS: &[&str] = &[
    "version",
    "title",
    "home_page_url",
    "feed_url",
    "description",
    "user_comment",
    "next_url",
    "icon",
    "favicon",
    "author",
    "authors",
    "language",
    "expired",
    "hubs",
    "items",
];

const ITEM_FIELDS: &[&str] = &[
    "id",
    "url",
    "external_url",
    "title",
    "content_html",
    "content_text",
    "summary",
    "image",
    "banner_image",
    "date_published",
    "date_modified",
    "date_updated",
    "author",
    "authors",
    "tags",
    "language",
    "attachments",
];

/// An HTML value from a JSON Feed (`content_html`, HTML in `title`, `summary`, …): the one
/// place every such value goes through — sanitized and its relative URIs resolved against
/// `base`, as XML content is ([`crate::html`]).
fn html_value(html: &str, base: &str, options: &ParseOptions) -> String {
    crate::html::HtmlFilter::new()
        .sanitize(options.sanitize_html)
        .resolve(options.resolve_relative_uris)
        .base(Some(base))
        .apply(html)
        .into_owned()
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

struct Mapper<'o> {
    options: &'o ParseOptions,
    bozo: Vec<Bozo>,
    /// The base URI relative URLs are resolved against: the document's own location
    /// ([`ParseOptions::base_uri`], from the fetch URL or `Content-Location`), as for XML;
    /// none for local bytes.
    base: String,
    /// The feed's language (1.1 `language`, else the transport's).
    lang: Option<String>,
    /// The feed's `author`, `author_detail` and `authors`, which an item without
    /// authors of its own inherits (JSON Feed 1.1, `authors`).
    feed_authors: Vec<(Key, DValue)>,
}

impl Mapper<'_> {
    fn problem(&mut self, message: String) {
        self.bozo
            .push(Bozo::new(BozoKind::InvalidJsonFeed, message));
    }

    /// A string field (taken out of `obj`), trimmed; `null` counts as absent, another
    /// type is a bozo record.
    fn string(&mut self, obj: &mut Map<String, Value>, key: &str, path: &str) -> Option<String> {
        match obj.remove(key)? {
            Value::String(s) => Some(if s.trim().len() == s.len() {
                s
            } else {
                s.trim().to_owned()
            }),
            Value::Null => None,
            other => {
                self.problem(format!(
                    "{path}{key}: expected a string, found {}",
                    type_name(&other)
                ));
                None
            }
        }
    }

    /// As [`Self::string`], not trimmed.
    fn raw_string(
        &mut self,
        obj: &mut Map<String, Value>,
        key: &str,
        path: &str,
    ) -> Option<String> {
        match obj.get(key) {
            Some(Value::String(_)) => match obj.remove(key) {
                Some(Value::String(s)) => Some(s),
                _ => None,
            },
            _ => self.string(obj, key, path),
        }
    }

    /// A URL field, resolved against the base when relative.
    fn url(&mut self, obj: &mut Map<String, Value>, key: &str, path: &str) -> Option<String> {
        let s = self.string(obj, key, path)?;
        if self.base.is_empty() || s.is_empty() {
            Some(s)
        } else {
            Some(urljoin(&self.base, &s))
        }
    }

    /// A text construct: `text/html` when it looks like HTML (through [`html_value`]),
    /// `text/plain` otherwise. Returns the value and its detail, which share one string.
    fn text(&self, s: &str, lang: Option<&str>, force_html: bool) -> (DValue, DValue) {
        let html = force_html || looks_like_html(s);
        let value: std::sync::Arc<str> = if html {
            html_value(s, &self.base, self.options).into()
        } else {
            s.into()
        };
        let detail = jv!({
            "type": if html { "text/html" } else { "text/plain" },
            "language": lang.map_or(DValue::Null, DValue::from),
            "base": self.base.as_str(),
            "value": DValue::Shared(std::sync::Arc::clone(&value)),
        });
        (DValue::Shared(value), detail)
    }

    fn person(&mut self, v: &Value, path: &str) -> Option<DValue> {
        let Value::Object(o) = v else {
            if !v.is_null() {
                self.problem(format!(
                    "{path}: expected an object, found {}",
                    type_name(v)
                ));
            }
            return None;
        };
        // Small: a copy to take the fields out of.
        let o = &mut o.clone();
        let mut p = DMap::new();
        if let Some(name) = self.string(o, "name", &format!("{path}.")) {
            p.insert("name".into(), name.into());
        }
        if let Some(url) = self.url(o, "url", &format!("{path}.")) {
            if let Some(mail) = url.strip_prefix("mailto:") {
                let email = mail.split('?').next().unwrap_or(mail);
                p.insert("email".into(), email.into());
            }
            p.insert("href".into(), url.into());
        }
        if let Some(avatar) = self.url(o, "avatar", &format!("{path}.")) {
            p.insert("image".into(), avatar.into());
        }
        (!p.is_empty()).then_some(DValue::Object(p))
    }

    /// `authors` (1.1) or else `author` (1.0) into `authors`, `author_detail`, `author`.
    fn authors(&mut self, obj: &mut Map<String, Value>, out: &mut DMap, path: &str) {
        let mut list = Vec::new();
        match obj.get("authors") {
            Some(Value::Array(a)) => {
                for (i, v) in a.iter().enumerate() {
                    if let Some(p) = self.person(v, &format!("{path}authors[{i}]")) {
                        list.push(p);
                    }
                }
            }
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}authors: expected an array, found {}",
                type_name(other)
            )),
        }
        if list.is_empty()
            && let Some(v) = obj.get("author")
            && let Some(p) = self.person(v, &format!("{path}author"))
        {
            list.push(p);
        }
        let Some(first) = list.first().cloned() else {
            return;
        };
        let name = first
            .get("name")
            .or_else(|| first.get("email"))
            .and_then(DValue::as_str)
            .map(str::to_owned);
        if let Some(n) = name {
            out.insert("author".into(), n.into());
        }
        out.insert("author_detail".into(), first);
        out.insert("authors".into(), DValue::Array(list));
    }

    /// A date field as `KEY` and `KEY_parsed`.
    fn date(
        &mut self,
        obj: &mut Map<String, Value>,
        src: &str,
        key: &'static str,
        out: &mut DMap,
        path: &str,
    ) {
        if let Some(d) = self.string(obj, src, path) {
            let parsed = crate::date::parse_date(&d).map_or(DValue::Null, DValue::from);
            if parsed.is_null() {
                self.problem(format!(
                    "{path}{src}: unreadable date {d:?} (RFC 3339 expected)"
                ));
            }
            out.insert(key.into(), d.into());
            out.insert(Key::Owned(format!("{key}_parsed")), parsed);
        }
    }

    /// Keys the specification does not define (`_extension` objects and others), kept.
    fn keep_others(obj: Map<String, Value>, known: &[&str], out: &mut DMap) {
        for (k, v) in obj {
            if known.contains(&k.as_str()) {
                continue;
            }
            let key = if out.contains_key(&k) || MODEL_KEYS.contains(&k.as_str()) {
                format!("json_{k}")
            } else {
                k
            };
            out.insert(Key::Owned(key), DValue::from_json(v));
        }
    }

    fn feed(&mut self, obj: &mut Map<String, Value>) -> DMap {
        let mut out = DMap::new();
        let mut links = Vec::new();
        if let Some(lang) = self.string(obj, "language", "") {
            out.insert("language".into(), lang.clone().into());
            self.lang = Some(lang);
        } else if let Some(l) = &self.options.base_language {
            out.insert("language".into(), l.clone().into());
        }
        if let Some(feed_url) = self.url(obj, "feed_url", "") {
            out.insert("id".into(), feed_url.clone().into());
            links.push(jv!({"rel": "self", "type": "application/feed+json", "href": feed_url}));
        }
        let lang = self.lang.clone();
        for (src, key) in [
            ("title", "title"),
            ("description", "subtitle"),
            ("user_comment", "info"),
        ] {
            // Kept as written, as feedparser keeps them.
            if let Some(s) = self.raw_string(obj, src, "") {
                let (v, d) = self.text(&s, lang.as_deref(), false);
                out.insert(key.into(), v);
                out.insert(Key::Owned(format!("{key}_detail")), d);
            }
        }
        if let Some(home) = self.url(obj, "home_page_url", "") {
            out.insert("link".into(), home.clone().into());
            links.push(jv!({"rel": "alternate", "type": "text/html", "href": home}));
        }
        if let Some(next) = self.url(obj, "next_url", "") {
            links.push(jv!({"rel": "next", "type": "application/feed+json", "href": next}));
        }
        if !links.is_empty() {
            out.insert("links".into(), DValue::Array(links));
        }
        if let Some(icon) = self.url(obj, "icon", "") {
            out.insert("image".into(), jv!({"href": icon}));
        }
        if let Some(favicon) = self.url(obj, "favicon", "") {
            out.insert("icon".into(), favicon.into());
        }
        self.authors(obj, &mut out, "");
        self.feed_authors = ["author", "author_detail", "authors"]
            .iter()
            .filter_map(|k| out.get(k).map(|v| (Key::Borrowed(*k), v.clone())))
            .collect();
        match obj.get("expired") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(b)) => {
                out.insert("complete".into(), (*b).into());
            }
            Some(other) => {
                self.problem(format!(
                    "expired: expected a boolean, found {}",
                    type_name(other)
                ));
                out.insert("complete".into(), false.into());
            }
        }
        match obj.get("hubs") {
            None | Some(Value::Null) => {}
            Some(Value::Array(hubs)) => {
                let mut list = Vec::new();
                for (i, h) in hubs.iter().enumerate() {
                    let path = format!("hubs[{i}].");
                    match h {
                        Value::Object(o) => {
                            let o = &mut o.clone();
                            let mut hub = DMap::new();
                            for k in ["type", "url"] {
                                if let Some(s) = self.string(o, k, &path) {
                                    hub.insert(k.into(), s.into());
                                }
                            }
                            list.push(DValue::Object(hub));
                        }
                        other => self.problem(format!(
                            "hubs[{i}]: expected an object, found {}",
                            type_name(other)
                        )),
                    }
                }
                // WebSub hubs are also `hub` links, as an Atom or RSS feed gives them.
                let hub_links: Vec<DValue> = list
                    .iter()
                    .filter_map(|h| h.get("url").cloned())
                    .map(|u| jv!({"rel": "hub", "href": u}))
                    .collect();
                if !hub_links.is_empty()
                    && let DValue::Array(links) =
                        out.entry("links".into()).or_insert_with(|| jv!([]))
                {
                    links.extend(hub_links);
                }
                out.insert("hubs".into(), DValue::Array(list));
            }
            Some(other) => self.problem(format!(
                "hubs: expected an array, found {}",
                type_name(other)
            )),
        }
        Self::keep_others(std::mem::take(obj), FEED_FIELDS, &mut out);
        out
    }

    fn entry(&mut self, obj: &mut Map<String, Value>, i: usize) -> DMap {
        let path = format!("items[{i}].");
        let mut out = DMap::new();
        let mut links = Vec::new();
        match obj.get("id") {
            Some(Value::String(s)) => {
                out.insert("id".into(), s.trim().into());
            }
            Some(Value::Number(n)) => {
                out.insert("id".into(), n.to_string().into());
            }
            Some(Value::Bool(b)) => {
                out.insert("id".into(), b.to_string().into());
            }
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}id: expected a string, found {}",
                type_name(other)
            )),
        }
        let lang = match self.string(obj, "language", &path) {
            Some(l) => {
                out.insert("language".into(), l.clone().into());
                Some(l)
            }
            None => self.lang.clone(),
        };
        if let Some(url) = self.url(obj, "url", &path) {
            out.insert("link".into(), url.clone().into());
            links.push(jv!({"rel": "alternate", "type": "text/html", "href": url}));
        }
        if let Some(ext) = self.url(obj, "external_url", &path) {
            links.push(jv!({"rel": "related", "type": "text/html", "href": ext.clone()}));
            out.insert("source".into(), jv!({"href": ext}));
        }
        // An item's title is kept as written (feedparser does not strip it either).
        if let Some(t) = self.raw_string(obj, "title", &path) {
            let (v, d) = self.text(&t, lang.as_deref(), false);
            out.insert("title".into(), v);
            out.insert("title_detail".into(), d);
        }
        let mut content = Vec::new();
        if let Some(html) = self.string(obj, "content_html", &path) {
            content.push(self.text(&html, lang.as_deref(), true).1);
        }
        if let Some(text) = self.string(obj, "content_text", &path) {
            content.push(jv!({
                "type": "text/plain",
                "language": lang.clone().map_or(DValue::Null, DValue::from),
                "base": self.base.as_str(),
                "value": text,
            }));
        }
        if let Some(s) = self.string(obj, "summary", &path) {
            let (v, d) = self.text(&s, lang.as_deref(), false);
            out.insert("summary".into(), v);
            out.insert("summary_detail".into(), d);
        } else if let Some(first) = content.first() {
            out.insert(
                "summary".into(),
                first.get("value").cloned().unwrap_or(DValue::Null),
            );
            out.insert("summary_detail".into(), first.clone());
        }
        if !content.is_empty() {
            out.insert("content".into(), DValue::Array(content));
        }
        for key in ["image", "banner_image"] {
            if let Some(u) = self.url(obj, key, &path) {
                out.insert(key.into(), jv!({"href": u}));
            }
        }
        self.date(obj, "date_published", "published", &mut out, &path);
        if obj.contains_key("date_modified") {
            self.date(obj, "date_modified", "updated", &mut out, &path);
        } else {
            self.date(obj, "date_updated", "updated", &mut out, &path);
        }
        self.authors(obj, &mut out, &path);
        if !out.contains_key("authors") {
            for (k, v) in &self.feed_authors {
                out.insert(k.clone(), v.clone());
            }
        }
        match obj.get("tags") {
            None | Some(Value::Null) => {}
            Some(Value::Array(tags)) => {
                let mut list = Vec::new();
                for (j, t) in tags.iter().enumerate() {
                    match t {
                        Value::String(s) if !s.trim().is_empty() => list.push(
                            jv!({"term": s.trim(), "scheme": DValue::Null, "label": DValue::Null}),
                        ),
                        Value::String(_) => {}
                        other => self.problem(format!(
                            "{path}tags[{j}]: expected a string, found {}",
                            type_name(other)
                        )),
                    }
                }
                if !list.is_empty() {
                    out.insert("tags".into(), DValue::Array(list));
                }
            }
            Some(other) => self.problem(format!(
                "{path}tags: expected an array, found {}",
                type_name(other)
            )),
        }
        match obj.get("attachments") {
            None | Some(Value::Null) => {}
            Some(Value::Array(atts)) => {
                for (j, a) in atts.iter().enumerate() {
                    if let Some(l) = self.attachment(a, &format!("{path}attachments[{j}]")) {
                        links.push(l);
                    }
                }
            }
            Some(other) => self.problem(format!(
                "{path}attachments: expected an array, found {}",
                type_name(other)
            )),
        }
        if !links.is_empty() {
            out.insert("links".into(), DValue::Array(links));
        }
        Self::keep_others(std::mem::take(obj), ITEM_FIELDS, &mut out);
        out
    }

    /// An attachment as an enclosure link; `None` (and a record) without a `url`.
    fn attachment(&mut self, a: &Value, path: &str) -> Option<DValue> {
        let Value::Object(o) = a else {
            self.problem(format!(
                "{path}: expected an object, found {}",
                type_name(a)
            ));
            return None;
        };
        let o = &mut o.clone();
        let dot = format!("{path}.");
        let Some(href) = self.url(o, "url", &dot) else {
            self.problem(format!("{path}: attachment without a url"));
            return None;
        };
        let mut l = DMap::new();
        l.insert("rel".into(), "enclosure".into());
        l.insert("href".into(), href.into());
        match self.string(o, "mime_type", &dot) {
            Some(t) => {
                l.insert("type".into(), t.to_ascii_lowercase().into());
            }
            None => self.problem(format!("{path}: attachment without a mime_type")),
        }
        match o.get("size_in_bytes") {
            Some(Value::Number(n)) => {
                l.insert("length".into(), n.to_string().into());
            }
            Some(Value::String(s)) => {
                l.insert("length".into(), s.trim().into());
            }
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}.size_in_bytes: expected a number, found {}",
                type_name(other)
            )),
        }
        if let Some(t) = self.string(o, "title", &dot) {
            l.insert("title".into(), t.into());
        }
        match o.get("duration_in_seconds") {
            Some(n @ Value::Number(_)) => {
                l.insert("duration_in_seconds".into(), DValue::from_json(n.clone()));
            }
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}.duration_in_seconds: expected a number, found {}",
                type_name(other)
            )),
        }
        for (k, v) in o {
            if !matches!(
                k.as_str(),
                "url" | "mime_type" | "size_in_bytes" | "title" | "duration_in_seconds"
            ) && !l.contains_key(k)
            {
                l.insert(Key::Owned(k.clone()), DValue::from_json(v.clone()));
            }
        }
        Some(DValue::Object(l))
    }
}

/// The byte offset of serde_json's 1-based line and column in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut off = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(off) {
        off -= 1;
    }
    off
}

/// Deepest nesting [`repairs`] follows (serde_json's own limit is 128).
const REPAIR_DEPTH: usize = 128;

/// Ways to cut a broken document short before byte `end` and close it: the latest
/// points (at most 8) where a member or element had just ended or a container had just
/// opened, each with the closing brackets it needs. This scans brackets and strings
/// only; the result is parsed by serde_json like any document.
fn repairs(text: &str, end: usize) -> Vec<String> {
    let bytes = &text.as_bytes()[..end.min(text.len())];
    let mut stack: Vec<u8> = Vec::new();
    let mut cuts: Vec<(usize, String)> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let closers = |stack: &[u8]| -> String {
        stack
            .iter()
            .rev()
            .map(|&b| if b == b'{' { '}' } else { ']' })
            .collect()
    };
    let note = |cuts: &mut Vec<(usize, String)>, at: usize, stack: &[u8]| {
        if cuts.len() == 8 {
            cuts.remove(0);
        }
        cuts.push((at, closers(stack)));
    };
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                if stack.len() >= REPAIR_DEPTH {
                    return Vec::new();
                }
                stack.push(b);
                note(&mut cuts, i + 1, &stack);
            }
            b'}' | b']' => {
                stack.pop();
                if !stack.is_empty() {
                    note(&mut cuts, i + 1, &stack);
                }
            }
            b',' if !stack.is_empty() => note(&mut cuts, i, &stack),
            _ => {}
        }
    }
    cuts.into_iter()
        .rev()
        .map(|(at, close)| {
            let mut s = String::with_capacity(at + close.len());
            s.push_str(text[..at].trim_end());
            s.push_str(&close);
            s
        })
        .collect()
}

/// Reads the document: the first JSON value, with records for a syntax error (then the
/// longest readable repair is used) or trailing text.
fn read(text: &str, bozo: &mut Vec<Bozo>) -> Option<Value> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Ok(v)) => {
            let end = stream.byte_offset();
            let rest = &text[end..];
            if let Some(i) = rest.find(|c: char| !c.is_whitespace()) {
                bozo.push(
                    Bozo::new(
                        BozoKind::InvalidJson,
                        "extra data after the JSON document (ignored)",
                    )
                    .at(Position::in_text(text, end + i)),
                );
            }
            Some(v)
        }
        None => {
            bozo.push(Bozo::new(BozoKind::InvalidJson, "empty JSON document"));
            None
        }
        Some(Err(e)) => {
            let off = offset_of(text, e.line(), e.column());
            bozo.push(
                Bozo::new(BozoKind::InvalidJson, format!("invalid JSON: {e}"))
                    .at(Position::in_text(text, off)),
            );
            repairs(text, off)
                .into_iter()
                .find_map(|doc| serde_json::from_str::<Value>(&doc).ok())
        }
    }
}

/// Parses JSON Feed text into the feed model. Never fails; problems are bozo records.
#[must_use]
pub fn parse_json(text: &str, options: &ParseOptions) -> ParsedFeed {
    let mut bozo = Vec::new();
    let value = read(text, &mut bozo);
    let mut m = Mapper {
        options,
        bozo,
        base: options.base_uri.clone().unwrap_or_default(),
        lang: options.base_language.clone(),
        feed_authors: Vec::new(),
    };
    let mut out = ParsedFeed::default();
    let Some(value) = value else {
        out.bozo = m.bozo;
        return out;
    };
    let Value::Object(mut obj) = value else {
        m.problem(format!(
            "a JSON Feed is an object, found {}",
            type_name(&value)
        ));
        out.bozo = m.bozo;
        return out;
    };
    out.version = match obj.get("version") {
        Some(Value::String(v)) => match version_name(v) {
            Some(name) => name.to_owned(),
            None => {
                m.problem(format!("unknown JSON Feed version {v:?}"));
                "json".to_owned()
            }
        },
        None | Some(Value::Null) => {
            m.problem("no JSON Feed version".to_owned());
            "json".to_owned()
        }
        Some(other) => {
            m.problem(format!(
                "version: expected a string, found {}",
                type_name(other)
            ));
            "json".to_owned()
        }
    };
    // Each item is taken out of the document as it is mapped (its strings move, not
    // copied).
    let items = obj.remove("items");
    out.feed = Feed::from_builder(m.feed(&mut obj));
    match items {
        Some(Value::Array(items)) => {
            let mut kept = 0;
            for (i, item) in items.into_iter().enumerate() {
                let Value::Object(mut o) = item else {
                    m.problem(format!(
                        "items[{i}]: expected an object, found {}",
                        type_name(&item)
                    ));
                    continue;
                };
                if o.is_empty() {
                    m.problem(format!("items[{i}]: an empty item (skipped)"));
                    continue;
                }
                if kept == options.max_entries {
                    m.bozo.push(Bozo::new(
                        BozoKind::LimitExceeded,
                        format!(
                            "more than {} entries; the rest are skipped",
                            options.max_entries
                        ),
                    ));
                    break;
                }
                out.entries.push(Entry::from_builder(m.entry(&mut o, i)));
                kept += 1;
            }
        }
        None | Some(Value::Null) => m.problem("no items".to_owned()),
        Some(other) => m.problem(format!(
            "items: expected an array, found {}",
            type_name(&other)
        )),
    }
    out.bozo = m.bozo;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> ParsedFeed {
        parse_json(text, &ParseOptions::default())
    }

    #[test]
    fn versions() {
        assert_eq!(
            version_name("https://jsonfeed.org/version/1"),
            Some("json1")
        );
        assert_eq!(
            version_name(" http://jsonfeed.org/version/1.1/ "),
            Some("json11")
        );
        assert_eq!(version_name("https://jsonfeed.org/version/2"), None);
        let r =
            parse(r#"{"version": "https://jsonfeed.org/version/9", "title": "T", "items": []}"#);
        assert_eq!(r.version, "json");
        assert_eq!(r.feed.title.as_deref(), Some("T"));
        assert_eq!(r.bozo[0].kind, BozoKind::InvalidJsonFeed);
    }

    #[test]
    fn truncated_document_keeps_complete_entries() {
        let text = r#"{"version": "https://jsonfeed.org/version/1.1", "title": "T",
            "items": [{"id": "1", "title": "one"}, {"id": "2", "title": "two"}, {"id": "3", "ti"#;
        let r = parse(text);
        assert_eq!(r.bozo[0].kind, BozoKind::InvalidJson);
        assert!(r.bozo[0].position.is_some());
        assert_eq!(r.version, "json11");
        assert_eq!(r.feed.title.as_deref(), Some("T"));
        let ids: Vec<_> = r.entries.iter().map(|e| e.id.clone().unwrap()).collect();
        // The third item is cut back to its last complete member.
        assert_eq!(ids, ["1", "2", "3"]);
        assert_eq!(r.entries[1].title.as_deref(), Some("two"));
        assert!(r.entries[2].title.is_none());
    }

    #[test]
    fn garbage_and_non_objects_never_panic() {
        for t in [
            "",
            "[]",
            "{",
            "}",
            "\"x\"",
            "{\"items\": 3}",
            "{\"items\": [1, {}]}",
            "[[[[",
        ] {
            let r = parse(t);
            assert!(!r.bozo.is_empty(), "{t:?}");
        }
        assert!(parse("{\"items\": [1, {}]}").entries.is_empty());
        let r = parse_json(
            r#"{"items": [{"id": "1"}, {"id": "2"}, {"id": "3"}]}"#,
            &ParseOptions::default().max_entries(2),
        );
        assert_eq!(r.entries.len(), 2);
        assert!(r.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
        let deep = "[".repeat(10_000);
        assert!(!parse(&deep).bozo.is_empty());
        let deep = format!("{{\"items\": [{}", "{\"a\": [".repeat(5_000));
        assert!(!parse(&deep).bozo.is_empty());
    }

    #[test]
    fn trailing_text_is_recorded_and_ignored() {
        let r = parse(r#"{"version": "https://jsonfeed.org/version/1", "items": []} junk"#);
        assert_eq!(r.version, "json1");
        assert_eq!(r.bozo.len(), 1);
        assert_eq!(r.bozo[0].kind, BozoKind::InvalidJson);
    }

    #[test]
    fn unknown_keys_are_kept_without_taking_typed_fields() {
        let r = parse(
            r#"{"version": "https://jsonfeed.org/version/1.1", "_ext": {"a": 1}, "link": 5,
                "items": [{"id": 7, "summary": "s", "_x": true}]}"#,
        );
        assert_eq!(r.feed.extra["_ext"], json!({"a": 1}));
        assert_eq!(r.feed.extra["json_link"], json!(5));
        assert!(r.feed.link.is_none());
        assert_eq!(r.entries[0].id.as_deref(), Some("7"));
        assert_eq!(r.entries[0].extra["_x"], json!(true));
    }
}
