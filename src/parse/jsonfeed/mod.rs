//! JSON Feed 1.0 and 1.1 (<https://jsonfeed.org/version/1.1>) into the feed model.
//!
//! serde_json reads the text; this module maps it straight into the typed model
//! ([`Feed`], [`Entry`], [`Link`], [`Person`], [`Text`], [`Tag`]), with no dictionary
//! between. The document is checked first without being built, then the feed's own
//! members are read and mapped, then each item in turn, from its slice of the text: a
//! long feed is never held as one tree of values, and with an entry sink (as
//! `feed-decoder --json` has) never as a list of entries either. Keys the model has no
//! field for go to `extra` as the document has them (numbers exactly, whatever their
//! size). The keys are
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
//! | item `tags` | `tags` (`term`; a single string instead of the array is read as a comma-separated list, with a record) |
//! | item `attachments` | `links` with `rel` = `enclosure` (`href`, `type`, `length`, `title`, `duration_in_seconds`; other keys kept on the link) |
//! | item `image`, `banner_image` | `image.href`, `banner_image.href` |
//! | item `language`, `authors`, `author` | `language`, `authors` … as for the feed; an item without authors has the feed's (as the specification says) |
//! | any other key (`_extensions` …) | kept under its own name, or `json_NAME` where the name is one the model uses |
//!
//! Problems are bozo records and never lose what is readable: bad JSON is
//! [`BozoKind::InvalidJson`] with a line and column, and a truncated or broken document
//! is cut back to its last complete member and closed, so the entries before the damage
//! are kept; a missing or unknown `version`, a field of the wrong type, an attachment
//! without `url` or `mime_type`, or missing `items` are [`BozoKind::InvalidJsonFeed`].
//! At most 100 problems are recorded, then one [`BozoKind::LimitExceeded`] record says
//! how many more there were.

use serde_json::{Map, Value};

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::bozo::{Bozo, BozoKind};
use crate::model::{Entry, Feed, Link, ParsedFeed, Person, Tag, Text, TextMeta};
use crate::parse::xml::text::looks_like_html;
use crate::parse::{ParseOptions, SharedSink};
use crate::url::urljoin;
use document::{Document, each_element, read};

mod document;

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
        .policy(options.sanitize_policy.as_deref())
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

/// The authors of a feed or item: the display name (`author`), the first person
/// (`author_detail`) and all of them (`authors`).
#[derive(Clone)]
struct Authors {
    name: Option<String>,
    first: Person,
    all: Vec<Person>,
}

/// Gives a [`Feed`] or an [`Entry`] its authors.
macro_rules! set_authors {
    ($out:expr, $a:expr) => {{
        let a: Authors = $a;
        $out.author = a.name.map(Into::into);
        $out.author_detail = Some(Box::new(a.first));
        $out.authors = a.all;
    }};
}

/// A link of the given relation, media type and target.
fn link(rel: &str, content_type: Option<&str>, href: String) -> Link {
    Link {
        rel: Some(rel.into()),
        content_type: content_type.map(Into::into),
        href: Some(href.into()),
        ..Link::default()
    }
}

/// An object with one `href` (`image`, `source`, `banner_image`).
fn href_object(href: String) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("href".to_owned(), Value::String(href));
    m
}

struct Mapper<'o> {
    options: &'o ParseOptions,
    bozo: Vec<Bozo>,
    /// The base URI relative URLs are resolved against: the document's own location
    /// ([`ParseOptions::base_uri`], from the fetch URL or `Content-Location`), as for XML;
    /// none for local bytes. Shared by every text construct's `base`.
    base: Arc<str>,
    /// The feed's language (1.1 `language`, else the transport's).
    lang: Option<String>,
    /// The feed's authors, which an item without authors of its own inherits (JSON
    /// Feed 1.1, `authors`).
    feed_authors: Option<Authors>,
    /// Problems past [`MAX_PROBLEMS`], counted, not recorded.
    unrecorded: usize,
}

/// The most problems recorded for one document: a feed of a million broken items gets
/// these and one record of how many more there were, not a million records.
const MAX_PROBLEMS: usize = 100;

impl Mapper<'_> {
    fn problem(&mut self, message: String) {
        self.record(Bozo::new(BozoKind::InvalidJsonFeed, message));
    }

    fn record(&mut self, bozo: Bozo) {
        if self.bozo.len() < MAX_PROBLEMS {
            self.bozo.push(bozo);
        } else {
            self.unrecorded += 1;
        }
    }

    /// The records, with one for the problems past [`MAX_PROBLEMS`].
    fn into_bozo(mut self) -> Vec<Bozo> {
        if self.unrecorded > 0 {
            self.bozo.push(Bozo::new(
                BozoKind::LimitExceeded,
                format!(
                    "{} more problems like the above (at most {MAX_PROBLEMS} are recorded)",
                    self.unrecorded
                ),
            ));
        }
        self.bozo
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

    /// A text construct's details.
    fn detail(&self, content_type: &str, lang: Option<&str>, value: Arc<str>) -> Text {
        Text::new(
            TextMeta {
                content_type: content_type.into(),
                language: lang.map(Arc::from),
                base: Arc::clone(&self.base),
                src: None,
            },
            value,
        )
    }

    /// A text construct: `text/html` when it looks like HTML (through [`html_value`]),
    /// `text/plain` otherwise. Returns the value and its details, which share one string.
    fn text(&self, s: &str, lang: Option<&str>, force_html: bool) -> (Arc<str>, Box<Text>) {
        let html = force_html || looks_like_html(s, self.options.sanitize_policy.as_deref());
        let value: Arc<str> = if html {
            html_value(s, &self.base, self.options).into()
        } else {
            s.into()
        };
        let content_type = if html { "text/html" } else { "text/plain" };
        let detail = self.detail(content_type, lang, Arc::clone(&value));
        (value, Box::new(detail))
    }

    fn person(&mut self, v: &Value, path: &str) -> Option<Person> {
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
        let dot = format!("{path}.");
        let mut p = Person {
            name: self.string(o, "name", &dot).map(Into::into),
            ..Person::default()
        };
        if let Some(url) = self.url(o, "url", &dot) {
            if let Some(mail) = url.strip_prefix("mailto:") {
                p.email = Some(mail.split('?').next().unwrap_or(mail).into());
            }
            p.href = Some(url.into());
        }
        p.image = self.url(o, "avatar", &dot).map(Into::into);
        (p != Person::default()).then_some(p)
    }

    /// `authors` (1.1), or else `author` (1.0).
    fn authors(&mut self, obj: &Map<String, Value>, path: &str) -> Option<Authors> {
        let mut all = Vec::new();
        match obj.get("authors") {
            Some(Value::Array(a)) => {
                for (i, v) in a.iter().enumerate() {
                    if let Some(p) = self.person(v, &format!("{path}authors[{i}]")) {
                        all.push(p);
                    }
                }
            }
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}authors: expected an array, found {}",
                type_name(other)
            )),
        }
        if all.is_empty()
            && let Some(v) = obj.get("author")
            && let Some(p) = self.person(v, &format!("{path}author"))
        {
            all.push(p);
        }
        let first = all.first()?.clone();
        let name = first
            .name
            .as_deref()
            .or(first.email.as_deref())
            .map(str::to_owned);
        Some(Authors { name, first, all })
    }

    /// A date field: the text as written and its parsed value (`None`, and a record,
    /// when it does not parse).
    fn date(
        &mut self,
        obj: &mut Map<String, Value>,
        src: &str,
        path: &str,
    ) -> Option<(String, Option<DateTime<Utc>>)> {
        let d = self.string(obj, src, path)?;
        let parsed = crate::date::parse_date(&d);
        if parsed.is_none() {
            self.problem(format!(
                "{path}{src}: unreadable date {d:?} (RFC 3339 expected)"
            ));
        }
        Some((d, parsed))
    }

    /// Keys the specification does not define (`_extension` objects and others), kept
    /// as they are, under `json_NAME` when the model gives NAME a meaning.
    fn keep_others(obj: Map<String, Value>, known: &[&str], extra: &mut crate::model::Extra) {
        // Put in at once: one sort, not a move of the sorted vector per key.
        let mut others = Vec::new();
        for (k, v) in obj {
            if known.contains(&k.as_str()) {
                continue;
            }
            let key = if extra.contains_key(&k) || MODEL_KEYS.contains(&k.as_str()) {
                format!("json_{k}")
            } else {
                k
            };
            others.push((key, v));
        }
        extra.extend(others);
    }

    fn feed(&mut self, obj: &mut Map<String, Value>) -> Feed {
        let mut out = Feed::default();
        if let Some(lang) = self.string(obj, "language", "") {
            out.language = Some(lang.as_str().into());
            self.lang = Some(lang);
        } else {
            out.language = self.options.base_language.as_deref().map(Into::into);
        }
        if let Some(feed_url) = self.url(obj, "feed_url", "") {
            out.id = Some(feed_url.as_str().into());
            out.links
                .push(link("self", Some("application/feed+json"), feed_url));
        }
        let lang = self.lang.clone();
        // Kept as written, as feedparser keeps them.
        if let Some(s) = self.raw_string(obj, "title", "") {
            let (v, d) = self.text(&s, lang.as_deref(), false);
            (out.title, out.title_detail) = (Some(v), Some(d));
        }
        if let Some(s) = self.raw_string(obj, "description", "") {
            let (v, d) = self.text(&s, lang.as_deref(), false);
            (out.subtitle, out.subtitle_detail) = (Some(v), Some(d));
        }
        if let Some(s) = self.raw_string(obj, "user_comment", "") {
            let (v, d) = self.text(&s, lang.as_deref(), false);
            (out.info, out.info_detail) = (Some(v), Some(d));
        }
        if let Some(home) = self.url(obj, "home_page_url", "") {
            out.link = Some(home.as_str().into());
            out.links.push(link("alternate", Some("text/html"), home));
        }
        if let Some(next) = self.url(obj, "next_url", "") {
            out.links
                .push(link("next", Some("application/feed+json"), next));
        }
        if let Some(icon) = self.url(obj, "icon", "") {
            out.image = Some(href_object(icon));
        }
        out.icon = self.url(obj, "favicon", "").map(Into::into);
        self.feed_authors = self.authors(obj, "");
        if let Some(a) = self.feed_authors.clone() {
            set_authors!(out, a);
        }
        match obj.get("expired") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(b)) => {
                out.extra.insert("complete".to_owned(), Value::Bool(*b));
            }
            Some(other) => {
                self.problem(format!(
                    "expired: expected a boolean, found {}",
                    type_name(other)
                ));
                out.extra.insert("complete".to_owned(), Value::Bool(false));
            }
        }
        if let Some(hubs) = obj.remove("hubs") {
            self.hubs(hubs, &mut out);
        }
        Self::keep_others(std::mem::take(obj), FEED_FIELDS, &mut out.extra);
        out
    }

    /// WebSub `hubs`: kept (`type`, `url`), and each `url` a `hub` link, as an Atom or
    /// RSS feed gives them.
    fn hubs(&mut self, hubs: Value, out: &mut Feed) {
        let hubs = match hubs {
            Value::Null => return,
            Value::Array(hubs) => hubs,
            other => {
                self.problem(format!(
                    "hubs: expected an array, found {}",
                    type_name(&other)
                ));
                return;
            }
        };
        let mut list = Vec::new();
        for (i, h) in hubs.into_iter().enumerate() {
            let path = format!("hubs[{i}].");
            let Value::Object(mut o) = h else {
                self.problem(format!(
                    "hubs[{i}]: expected an object, found {}",
                    type_name(&h)
                ));
                continue;
            };
            let mut hub = Map::new();
            for k in ["type", "url"] {
                if let Some(s) = self.string(&mut o, k, &path) {
                    hub.insert(k.to_owned(), Value::String(s));
                }
            }
            if let Some(Value::String(url)) = hub.get("url") {
                out.links.push(link("hub", None, url.clone()));
            }
            list.push(Value::Object(hub));
        }
        out.extra.insert("hubs".to_owned(), Value::Array(list));
    }

    fn entry(&mut self, obj: &mut Map<String, Value>, i: usize) -> Entry {
        let path = format!("items[{i}].");
        let mut out = Entry::default();
        match obj.get("id") {
            Some(Value::String(s)) => out.id = Some(s.trim().into()),
            Some(Value::Number(n)) => out.id = Some(n.to_string().into()),
            Some(Value::Bool(b)) => out.id = Some(b.to_string().into()),
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}id: expected a string, found {}",
                type_name(other)
            )),
        }
        let lang = match self.string(obj, "language", &path) {
            Some(l) => {
                out.extra
                    .insert("language".to_owned(), Value::String(l.clone()));
                Some(l)
            }
            None => self.lang.clone(),
        };
        if let Some(url) = self.url(obj, "url", &path) {
            out.link = Some(url.as_str().into());
            out.links.push(link("alternate", Some("text/html"), url));
        }
        if let Some(ext) = self.url(obj, "external_url", &path) {
            out.links
                .push(link("related", Some("text/html"), ext.clone()));
            out.more_mut().source = Some(href_object(ext));
        }
        // An item's title is kept as written (feedparser does not strip it either).
        if let Some(t) = self.raw_string(obj, "title", &path) {
            let (v, d) = self.text(&t, lang.as_deref(), false);
            (out.title, out.title_detail) = (Some(v), Some(d));
        }
        if let Some(html) = self.string(obj, "content_html", &path) {
            out.content.push(*self.text(&html, lang.as_deref(), true).1);
        }
        if let Some(text) = self.string(obj, "content_text", &path) {
            out.content
                .push(self.detail("text/plain", lang.as_deref(), text.into()));
        }
        if let Some(s) = self.string(obj, "summary", &path) {
            let (v, d) = self.text(&s, lang.as_deref(), false);
            (out.summary, out.summary_detail) = (Some(v), Some(d));
        } else if let Some(first) = out.content.first() {
            out.summary = Some(Arc::clone(&first.value));
            out.summary_detail = Some(Box::new(first.clone()));
        }
        for key in ["image", "banner_image"] {
            if let Some(u) = self.url(obj, key, &path) {
                out.extra
                    .insert(key.to_owned(), Value::Object(href_object(u)));
            }
        }
        if let Some((d, parsed)) = self.date(obj, "date_published", &path) {
            (out.published, out.published_parsed) = (Some(d.into()), Some(parsed));
        }
        let modified = if obj.contains_key("date_modified") {
            "date_modified"
        } else {
            "date_updated"
        };
        if let Some((d, parsed)) = self.date(obj, modified, &path) {
            (out.updated, out.updated_parsed) = (Some(d.into()), Some(parsed));
        }
        if let Some(a) = self
            .authors(obj, &path)
            .or_else(|| self.feed_authors.clone())
        {
            set_authors!(out, a);
        }
        if let Some(tags) = obj.remove("tags") {
            out.tags = self.tags(tags, &path);
        }
        if let Some(atts) = obj.remove("attachments") {
            self.attachments(atts, &path, &mut out.links);
        }
        Self::keep_others(std::mem::take(obj), ITEM_FIELDS, &mut out.extra);
        out
    }

    /// An item's `tags`: strings, each a term. A single string where the array should
    /// be (`"tags": "workflow, omnifocus"`, which some generators write) is recorded and
    /// read as a comma-separated list, as feedparser reads an RSS `keywords` element.
    fn tags(&mut self, tags: Value, path: &str) -> Vec<Tag> {
        let tags = match tags {
            Value::Null => return Vec::new(),
            Value::Array(tags) => tags,
            Value::String(s) => {
                self.problem(format!(
                    "{path}tags: expected an array, found a string (read as a comma-separated list)"
                ));
                s.split(',').map(|t| Value::String(t.to_owned())).collect()
            }
            other => {
                self.problem(format!(
                    "{path}tags: expected an array, found {}",
                    type_name(&other)
                ));
                return Vec::new();
            }
        };
        let mut list = Vec::new();
        for (j, t) in tags.iter().enumerate() {
            match t {
                Value::String(s) if !s.trim().is_empty() => list.push(Tag {
                    term: Some(s.trim().into()),
                    ..Tag::default()
                }),
                Value::String(_) => {}
                other => self.problem(format!(
                    "{path}tags[{j}]: expected a string, found {}",
                    type_name(other)
                )),
            }
        }
        list
    }

    /// An item's `attachments`, as enclosure links.
    fn attachments(&mut self, atts: Value, path: &str, links: &mut Vec<Link>) {
        match atts {
            Value::Null => {}
            Value::Array(atts) => {
                for (j, a) in atts.iter().enumerate() {
                    if let Some(l) = self.attachment(a, &format!("{path}attachments[{j}]")) {
                        links.push(l);
                    }
                }
            }
            other => self.problem(format!(
                "{path}attachments: expected an array, found {}",
                type_name(&other)
            )),
        }
    }

    /// An attachment as an enclosure link; `None` (and a record) without a `url`.
    fn attachment(&mut self, a: &Value, path: &str) -> Option<Link> {
        let Value::Object(o) = a else {
            self.problem(format!(
                "{path}: expected an object, found {}",
                type_name(a)
            ));
            return None;
        };
        let o = &mut o.clone();
        let dot = format!("{path}.");
        // `url` is required: an empty one is none.
        let Some(href) = self.url(o, "url", &dot).filter(|u| !u.is_empty()) else {
            self.problem(format!("{path}: attachment without a url"));
            return None;
        };
        let mut l = link("enclosure", None, href);
        match self.string(o, "mime_type", &dot) {
            Some(t) => l.content_type = Some(t.to_ascii_lowercase().into()),
            None => self.problem(format!("{path}: attachment without a mime_type")),
        }
        match o.remove("size_in_bytes") {
            Some(Value::Number(n)) => l.length = Some(n.to_string().into()),
            Some(Value::String(s)) => l.length = Some(s.trim().into()),
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}.size_in_bytes: expected a number, found {}",
                type_name(&other)
            )),
        }
        l.title = self.string(o, "title", &dot).map(Into::into);
        match o.remove("duration_in_seconds") {
            Some(n @ Value::Number(_)) => {
                l.extra.insert("duration_in_seconds".to_owned(), n);
            }
            Some(Value::Null) | None => {}
            Some(other) => self.problem(format!(
                "{path}.duration_in_seconds: expected a number, found {}",
                type_name(&other)
            )),
        }
        // Other keys are kept. A string under a name the link has a field for fills it
        // when it is empty (an attachment's own `type` without `mime_type`); any other
        // value of such a name is kept only when the field is empty, so that it cannot
        // stand beside the field.
        for (k, v) in std::mem::take(o) {
            match l.field_mut(&k) {
                Some(field) if field.is_none() => match v {
                    Value::String(s) => *field = Some(s.into()),
                    Value::Null => {}
                    v => {
                        l.extra.insert(k, v);
                    }
                },
                Some(_) => {}
                None => {
                    l.extra.entry(k).or_insert(v);
                }
            }
        }
        Some(l)
    }
}

/// Parses JSON Feed text into the feed model. Never fails; problems are bozo records.
#[must_use]
pub fn parse_json(text: &str, options: &ParseOptions) -> ParsedFeed {
    parse_json_into(text, options, None)
}

/// [`parse_json`], the entries going to `sink` (when given) one by one as they are
/// mapped, rather than into the result: the feed's own members are mapped first,
/// wherever they stand in the document, so an entry is final as soon as it is made.
pub(crate) fn parse_json_into(
    text: &str,
    options: &ParseOptions,
    sink: Option<&SharedSink>,
) -> ParsedFeed {
    let mut bozo = Vec::new();
    let doc = read(text, &mut bozo);
    let mut m = Mapper {
        options,
        bozo,
        base: options.base_uri.as_deref().unwrap_or_default().into(),
        lang: options.base_language.clone(),
        feed_authors: None,
        unrecorded: 0,
    };
    let mut out = ParsedFeed::default();
    let Some(doc) = doc else {
        out.bozo = m.into_bozo();
        return out;
    };
    let mut doc = match Document::of(&doc) {
        Ok(doc) => doc,
        Err(found) => {
            m.problem(format!("a JSON Feed is an object, found {found}"));
            out.bozo = m.into_bozo();
            return out;
        }
    };
    let items = doc.items();
    let mut obj = doc.members();
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
    out.feed = m.feed(&mut obj);
    let read = items.map(|items| {
        let mut kept = 0;
        each_element(items.get(), |i, raw| {
            // Each item is read only now, and its values move into the entry.
            let item = Document::value(raw);
            let Value::Object(mut o) = item else {
                m.problem(format!(
                    "items[{i}]: expected an object, found {}",
                    type_name(&item)
                ));
                return true;
            };
            if o.is_empty() {
                m.problem(format!("items[{i}]: an empty item (skipped)"));
                return true;
            }
            if kept == options.max_entries {
                m.bozo.push(Bozo::new(
                    BozoKind::LimitExceeded,
                    format!(
                        "more than {} entries; the rest are skipped",
                        options.max_entries
                    ),
                ));
                return false;
            }
            let entry = m.entry(&mut o, i);
            match sink {
                Some(sink) => sink.borrow_mut().entry(entry),
                None => out.entries.push(entry),
            }
            kept += 1;
            true
        })
    });
    match read {
        Some(Ok(())) => {}
        None | Some(Err("null")) => m.problem("no items".to_owned()),
        Some(Err(found)) => m.problem(format!("items: expected an array, found {found}")),
    }
    out.bozo = m.into_bozo();
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

    #[test]
    fn problems_are_recorded_up_to_a_bound_then_counted() {
        let items = vec!["{}"; 1000].join(",");
        let tags = vec!["5"; 50].join(",");
        let r = parse(&format!(
            r#"{{"version": "https://jsonfeed.org/version/1", "items": [{items},
                {{"id": "x", "tags": [{tags}, "kept"]}}]}}"#
        ));
        assert_eq!(r.bozo.len(), MAX_PROBLEMS + 1);
        assert!(
            r.bozo[..MAX_PROBLEMS]
                .iter()
                .all(|b| b.message.contains("empty item"))
        );
        let last = r.bozo.last().unwrap();
        assert_eq!(last.kind, BozoKind::LimitExceeded);
        assert!(
            last.message.starts_with("950 more problems"),
            "{}",
            last.message
        );
        // What is readable is still read.
        assert_eq!(r.entries.len(), 1);
        assert_eq!(r.entries[0].tags.len(), 1);
    }

    #[test]
    fn tags_written_as_one_string_are_a_recorded_comma_list() {
        let r = parse(
            r#"{"version": "https://jsonfeed.org/version/1", "items": [
                {"id": "1", "tags": "workflow, omnifocus,,  "},
                {"id": "2", "tags": ""},
                {"id": "3", "tags": 5}]}"#,
        );
        let terms = |i: usize| {
            r.entries[i]
                .tags
                .iter()
                .map(|t| t.term.as_deref().unwrap_or(""))
                .collect::<Vec<_>>()
        };
        assert_eq!(terms(0), ["workflow", "omnifocus"]);
        assert!(terms(1).is_empty() && terms(2).is_empty());
        let messages: Vec<&str> = r.bozo.iter().map(|b| b.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(messages[0].contains("items[0].tags: expected an array, found a string"));
        assert!(messages[2].contains("items[2].tags: expected an array, found a number"));
    }

    #[test]
    fn an_attachment_with_an_empty_url_is_dropped_and_recorded() {
        let r = parse(
            r#"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1",
                "attachments": [{"url": "", "mime_type": "audio/mpeg"},
                                {"url": "  ", "mime_type": "audio/mpeg"},
                                {"url": "https://example.org/a.mp3", "mime_type": "audio/mpeg"}]}]}"#,
        );
        let hrefs: Vec<_> = r.entries[0]
            .links
            .iter()
            .filter(|l| l.rel.as_deref() == Some("enclosure"))
            .map(|l| l.href.as_deref().unwrap_or(""))
            .collect();
        assert_eq!(hrefs, ["https://example.org/a.mp3"]);
        let without: Vec<_> = r
            .bozo
            .iter()
            .filter(|b| b.message.contains("attachment without a url"))
            .collect();
        assert_eq!(without.len(), 2, "{:?}", r.bozo);
    }

    #[test]
    fn values_are_kept_exactly_and_attachments_stay_typed_links() {
        let r = parse(
            r#"{"version": "https://jsonfeed.org/version/1.1", "_big": 18446744073709551615,
                "items": [{"id": "1", "attachments": [
                    {"url": "http://e.com/a.mp3", "length": null, "type": 5,
                     "duration_in_seconds": 9223372036854775809, "x": [1.5, -0.0]}]}]}"#,
        );
        // Unknown values are the document's own (not through a float).
        assert_eq!(r.feed.extra["_big"], json!(u64::MAX));
        let e = &r.entries[0];
        // An attachment with odd keys is still a typed link, its keys kept beside it.
        assert!(!e.extra.contains_key("links"));
        assert_eq!(e.links.len(), 1);
        let l = &e.links[0];
        assert_eq!(l.rel.as_deref(), Some("enclosure"));
        assert_eq!(l.href.as_deref(), Some("http://e.com/a.mp3"));
        assert_eq!(l.length, None);
        assert_eq!(l.content_type, None);
        assert_eq!(l.extra["type"], json!(5));
        assert_eq!(
            l.extra["duration_in_seconds"],
            json!(9_223_372_036_854_775_809_u64)
        );
        assert_eq!(l.extra["x"], json!([1.5, -0.0]));
        // A missing mime_type is a record.
        assert!(r.bozo.iter().any(|b| b.message.contains("mime_type")));
    }

    #[test]
    fn items_inherit_the_feed_authors_and_share_text() {
        let r = parse(
            r#"{"version": "https://jsonfeed.org/version/1.1",
                "authors": [{"name": "A", "url": "mailto:a@example.com?x"}, {"name": "B"}],
                "items": [{"id": "1", "content_html": "<p>x</p><script>y</script>"},
                          {"id": "2", "author": {"name": "C"}}]}"#,
        );
        let (one, two) = (&r.entries[0], &r.entries[1]);
        assert_eq!(one.author.as_deref(), Some("A"));
        assert_eq!(one.authors.len(), 2);
        let detail = one.author_detail.as_deref().unwrap();
        assert_eq!(detail.email.as_deref(), Some("a@example.com"));
        assert_eq!(two.author.as_deref(), Some("C"));
        assert_eq!(two.authors.len(), 1);
        // The summary comes from the content, sanitized, one string for both.
        assert_eq!(one.summary.as_deref(), Some("<p>x</p>"));
        let d = one.summary_detail.as_deref().unwrap();
        assert!(Arc::ptr_eq(one.summary.as_ref().unwrap(), &d.value));
        assert_eq!(&*d.content_type, "text/html");
        assert_eq!(one.content.len(), 1);
    }
}
