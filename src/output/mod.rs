//! The JSON contract of `feed-decoder --json`: one object shaped like feedparser's
//! result, plus this crate's own `decoding` trail. It knows the model, the decoding trail
//! and the transport, and nothing of the parsers.
//!
//! Top-level keys: `bozo`, `bozo_exception` (the record feedparser would report: the
//! last of a kind it reports, else the last, see [`crate::bozo::reported`]; absent when
//! there is none), `bozo_exceptions` (all, in order), `encoding`,
//! `version`, `namespaces`, `feed`, `entries`, `decoding`, `headers` (the response's, an
//! empty object for input that came without HTTP, as in feedparser's result); for an
//! HTTP response also `etag`, `modified` and `modified_parsed` (from its headers); a
//! fetch adds `href` and `status` (`http::Fetched::json_fields`, with the `http`
//! feature). Keys with no value are absent.
//!
//! [`Contract`] is the object for a result, as a `serde` value: [`write_json`] writes it,
//! keys sorted, and any other `serde` serializer can take it (that is how [`to_json`]
//! builds its `serde_json` value). [`crate::parse_and_write`] parses and writes in one
//! go, each entry written out as soon as the parser is done with it and then freed (so
//! `entries` comes first), which is how `feed-decoder --json` keeps its memory near the
//! size of the input.
//!
//! Inside: `fields.rs` is the model as the contract writes it (the sorted view of each
//! struct's fields, with their keys as written in JSON, and the model's `Serialize`
//! impls), `direct.rs` writes entries and the feed from that view without `serde`, and
//! `writer.rs` is the `serde` writer that gives `serde_json`'s bytes faster.

use serde_json::{Map, Value, json};

mod direct;
mod fields;
mod writer;
pub use writer::to_writer;

use crate::bozo::Bozo;
use crate::decode::Trail;
use crate::model::Entry;
use crate::{Headers, Parsed, Transport};

/// A bozo record as `{"type", "message", "line"?, "column"?, "offset"?, "judged"?}`
/// (`judged` only when true, see [`Bozo::judged`]).
#[must_use]
pub fn bozo_json(b: &Bozo) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), b.kind.feedparser_name().into());
    m.insert("message".into(), b.message.clone().into());
    if let Some(p) = b.position {
        if let Some(l) = p.line {
            m.insert("line".into(), l.into());
        }
        if let Some(c) = p.column {
            m.insert("column".into(), c.into());
        }
        if let Some(o) = p.offset {
            m.insert("offset".into(), o.into());
        }
    }
    if b.judged {
        m.insert("judged".into(), true.into());
    }
    Value::Object(m)
}

/// The decision trail as the `decoding` object.
#[must_use]
pub fn trail_json(t: &Trail) -> Value {
    json!({
        "bom": t.bom,
        "sniffed": t.sniffed,
        "declared": t.declared,
        "http_charset": t.http_charset,
        "media_type": t.media_type,
        "media_class": t.media_class.as_str(),
        "rfc3023": {"encoding": t.rfc3023.encoding, "rule": t.rfc3023.rule, "error": t.rfc3023.error},
        "tried": t.tried.iter().map(|a| json!({
            "encoding": a.label, "source": a.source.as_str(), "ok": a.ok, "detail": a.detail,
        })).collect::<Vec<_>>(),
        "chosen": t.chosen.as_ref().map(|(l, s)| json!({"encoding": l, "source": s.as_str()})),
    })
}

/// The top-level keys an HTTP response's headers give: `headers` (names lower-cased,
/// repeated values joined with `", "` as Python's dict of them holds), and `etag`,
/// `modified`, `modified_parsed` when the response has `ETag` / `Last-Modified`.
#[must_use]
pub fn header_fields(headers: &Headers) -> Map<String, Value> {
    let mut joined: Map<String, Value> = Map::new();
    for (name, value) in headers.iter() {
        let v = match joined.get(name).and_then(Value::as_str) {
            Some(prev) => format!("{prev}, {value}"),
            None => value.to_owned(),
        };
        joined.insert(name.to_owned(), Value::from(v));
    }
    let mut m = Map::new();
    m.insert("headers".into(), Value::Object(joined));
    // A blank validator is no validator (feedparser leaves the key out).
    if let Some(etag) = headers.get("etag").filter(|v| !v.trim().is_empty()) {
        m.insert("etag".into(), etag.into());
    }
    if let Some(modified) = headers
        .get("last-modified")
        .filter(|v| !v.trim().is_empty())
    {
        m.insert("modified".into(), modified.into());
        if let Some(dt) = crate::date::parse_date(modified) {
            m.insert(
                "modified_parsed".into(),
                json!(crate::date::struct_time(&dt)),
            );
        }
    }
    m
}

/// The contract's object for a `304 Not Modified` answer, which has no body to parse:
/// `bozo` false without records, `encoding` and `version` empty, `namespaces`, `feed`
/// and `headers` empty objects, `entries` an empty list (the keys of a parsed result,
/// as feedparser's result for a 304 is empty), with the `extra` top-level keys added,
/// replacing any of the same name: the fetch's (`http::Fetched::json_fields`: `href`,
/// `status`, the response's `headers`, `etag`, `modified`), a caller's own (`input`).
///
/// ```
/// let mut extra = serde_json::Map::new();
/// extra.insert("status".into(), 304.into());
/// extra.insert("etag".into(), "\"v2\"".into());
/// let v = feed_decoder::output::not_modified_json(extra);
/// assert_eq!(v["bozo"], false);
/// assert_eq!(v["status"], 304);
/// assert_eq!(v["etag"], "\"v2\"");
/// assert_eq!(v["entries"], serde_json::json!([]));
/// ```
#[must_use]
pub fn not_modified_json(extra: Map<String, Value>) -> Value {
    let mut m = Map::new();
    m.insert("bozo".into(), false.into());
    m.insert("bozo_exceptions".into(), json!([]));
    m.insert("encoding".into(), "".into());
    m.insert("version".into(), "".into());
    m.insert("namespaces".into(), json!({}));
    m.insert("headers".into(), json!({}));
    m.insert("feed".into(), json!({}));
    m.insert("entries".into(), json!([]));
    m.extend(extra);
    Value::Object(m)
}

/// The whole result as the JSON contract's object (see [`write_json`] to write it out
/// without building it).
#[must_use]
pub fn to_json(parsed: &Parsed<'_>) -> Value {
    serde_json::to_value(parsed).unwrap_or(Value::Null)
}

/// The `decoding` object of [`trail_json`], serialized straight from the trail: the
/// same bytes (keys sorted as a `serde_json` map sorts them), without building the
/// twenty-odd values of the map first (a tenth of a small feed's time).
struct TrailOut<'t>(&'t Trail);

/// Writes `(key, value)` pairs, given in sorted key order, as a map.
macro_rules! sorted_map {
    ($s:expr, $(($k:expr, $v:expr)),* $(,)?) => {{
        use serde::ser::SerializeMap;
        let mut m = $s.serialize_map(None)?;
        $(m.serialize_entry($k, $v)?;)*
        m.end()
    }};
}

impl serde::Serialize for TrailOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let tried: Vec<AttemptOut<'_>> = t.tried.iter().map(AttemptOut).collect();
        sorted_map!(
            s,
            ("bom", &t.bom),
            ("chosen", &t.chosen.as_ref().map(ChosenOut)),
            ("declared", &t.declared),
            ("http_charset", &t.http_charset),
            ("media_class", t.media_class.as_str()),
            ("media_type", &t.media_type),
            ("rfc3023", &Rfc3023Out(&t.rfc3023)),
            ("sniffed", &t.sniffed),
            ("tried", &tried),
        )
    }
}

/// `decoding.chosen`.
struct ChosenOut<'t>(&'t (String, crate::decode::Source));

impl serde::Serialize for ChosenOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (label, source) = self.0;
        sorted_map!(s, ("encoding", label), ("source", source.as_str()))
    }
}

/// `decoding.rfc3023`.
struct Rfc3023Out<'t>(&'t crate::decode::Rfc3023Outcome);

impl serde::Serialize for Rfc3023Out<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        sorted_map!(
            s,
            ("encoding", &r.encoding),
            ("error", &r.error),
            ("rule", r.rule),
        )
    }
}

/// An item of `decoding.tried`.
struct AttemptOut<'t>(&'t crate::decode::Attempt);

impl serde::Serialize for AttemptOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = self.0;
        sorted_map!(
            s,
            ("detail", &a.detail),
            ("encoding", &a.label),
            ("ok", &a.ok),
            ("source", a.source.as_str()),
        )
    }
}

/// A top-level value of the contract, read from the result when it is written (no
/// `serde_json` tree is built per feed for the few keys around `feed` and `entries`).
enum Head<'p> {
    Json(Value),
    Bool(bool),
    Str(&'p str),
    /// `bozo_exceptions`.
    Bozos(&'p [Bozo]),
    /// `bozo_exception`.
    Bozo(&'p Bozo),
    Namespaces(&'p std::collections::BTreeMap<String, String>),
    /// `feed`, `entries` and `decoding`: written from the model by key.
    Model,
}

impl serde::Serialize for Head<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Head::Json(v) => v.serialize(s),
            Head::Bool(b) => s.serialize_bool(*b),
            Head::Str(v) => s.serialize_str(v),
            Head::Bozos(all) => s.collect_seq(all.iter().map(bozo_json)),
            Head::Bozo(b) => bozo_json(b).serialize(s),
            Head::Namespaces(n) => n.serialize(s),
            Head::Model => s.serialize_unit(),
        }
    }
}

/// The contract's object for a result plus `extra` top-level keys (a fetch's `href`
/// and `status`, the CLI's `input`): serializes with sorted keys, `feed` and `entries`
/// straight from the model. An extra key of a result key's name replaces it, as
/// inserting into a map would.
///
/// Any `serde` serializer takes it, so a result can be turned into another format's
/// values (a binding's objects) with exactly the contract's keys and shapes:
///
/// ```
/// use feed_decoder::{Transport, output::Contract, parse};
/// let parsed = parse(b"<rss version='2.0'><channel><title>T</title></channel></rss>", &Transport::Local);
/// let mut extra = serde_json::Map::new();
/// extra.insert("input".into(), "feed.xml".into());
/// let v = serde_json::to_value(Contract::new(&parsed, extra))?;
/// assert_eq!(v["feed"]["title"], "T");
/// assert_eq!(v["input"], "feed.xml");
/// assert_eq!(v["version"], "rss20");
/// # Ok::<(), serde_json::Error>(())
/// ```
pub struct Contract<'p, 'a> {
    parsed: &'p Parsed<'a>,
    /// The top-level keys, sorted and unique.
    head: Vec<(std::borrow::Cow<'static, str>, Head<'p>)>,
}

impl<'p, 'a> Contract<'p, 'a> {
    /// The object for `parsed`, with the `extra` top-level keys added.
    #[must_use]
    pub fn new(parsed: &'p Parsed<'a>, extra: Map<String, Value>) -> Self {
        use std::borrow::Cow;
        let mut head: Vec<(Cow<'static, str>, Head<'p>)> = Vec::with_capacity(12 + extra.len());
        head.push(("bozo".into(), Head::Bool(!parsed.bozo.is_empty())));
        if let Some(reported) = crate::bozo::reported(&parsed.bozo) {
            head.push(("bozo_exception".into(), Head::Bozo(reported)));
        }
        head.push(("bozo_exceptions".into(), Head::Bozos(&parsed.bozo)));
        head.push(("encoding".into(), Head::Str(&parsed.decoded.encoding)));
        head.push(("version".into(), Head::Str(&parsed.version)));
        head.push(("namespaces".into(), Head::Namespaces(&parsed.namespaces)));
        if let Transport::Http(h) = &parsed.transport {
            head.extend(
                header_fields(h)
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Head::Json(v))),
            );
        } else {
            // feedparser's result always has `headers`: an empty dict without HTTP.
            head.push(("headers".into(), Head::Json(Value::Object(Map::new()))));
        }
        head.push(("decoding".into(), Head::Model));
        head.extend(
            extra
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k), Head::Json(v))),
        );
        head.push(("entries".into(), Head::Model));
        head.push(("feed".into(), Head::Model));
        // Sorted by key; of equal keys the one given last is kept, as a map would.
        crate::pairs::sort_keep_last(&mut head);
        Contract { parsed, head }
    }
}

impl serde::Serialize for Contract<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.head.len()))?;
        for (k, v) in &self.head {
            match &**k {
                "feed" => m.serialize_entry(k, &self.parsed.feed)?,
                "decoding" => m.serialize_entry(k, &TrailOut(&self.parsed.decoded.trail))?,
                "entries" => m.serialize_entry(k, &self.parsed.entries)?,
                _ => m.serialize_entry(k, v)?,
            }
        }
        m.end()
    }
}

/// Writes the JSON contract's object for `parsed`, with the `extra` top-level keys
/// added (e.g. a fetch's `href` and `status`), to `out` as one compact line of JSON
/// without a newline: the same bytes as serializing [`to_json`] plus `extra`, written
/// straight from the model, so that no part of the result is ever held twice.
///
/// # Errors
///
/// The writer's error (serialization itself cannot fail).
pub fn write_json<W: std::io::Write + ?Sized>(
    parsed: &Parsed<'_>,
    extra: Map<String, Value>,
    out: &mut W,
) -> std::io::Result<()> {
    writer::to_writer(out, &Contract::new(parsed, extra)).map_err(io_error)
}

/// The contract's object written with its entries first, each as soon as it is given
/// ([`EntriesOut::entry`]), then the other keys once the result is complete
/// ([`EntriesOut::finish`]): the bytes of [`write_json`] but for the order of the keys
/// (`entries` first, the others after it in sorted order). [`crate::parse_and_write`]
/// hands it each entry as the parser makes it final.
pub(crate) struct EntriesOut<W> {
    /// Taken back by [`EntriesOut::finish`].
    out: Option<W>,
    count: usize,
    /// The first write error (later entries are dropped unwritten).
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> EntriesOut<W> {
    /// Starts the object on `out` (`{"entries":[`).
    pub(crate) fn start(mut out: W) -> std::io::Result<Self> {
        out.write_all(b"{\"entries\":[")?;
        Ok(EntriesOut {
            out: Some(out),
            count: 0,
            error: None,
        })
    }

    /// Writes the next entry (unless an earlier write failed: the error comes back from
    /// [`EntriesOut::finish`]).
    pub(crate) fn entry(&mut self, entry: &Entry) {
        let (Some(out), None) = (self.out.as_mut(), &self.error) else {
            return;
        };
        let comma = if self.count > 0 { &b","[..] } else { &b""[..] };
        let written = out
            .write_all(comma)
            .and_then(|()| direct::entry(out, entry).map_err(io_error));
        self.count += 1;
        if let Err(e) = written {
            self.error = Some(e);
        }
    }

    /// How many entries were given.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// Ends the object with the entries `parsed` still holds (none when every entry was
    /// given one by one) and the other keys of [`Contract::new`]`(parsed, extra)`, and
    /// gives the writer back.
    pub(crate) fn finish(
        &mut self,
        parsed: &Parsed<'_>,
        extra: Map<String, Value>,
    ) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let mut out = self
            .out
            .take()
            .ok_or_else(|| std::io::Error::other("the JSON writer was lost during the parse"))?;
        for (i, entry) in parsed.entries.iter().enumerate() {
            if self.count + i > 0 {
                out.write_all(b",")?;
            }
            direct::entry(&mut out, entry).map_err(io_error)?;
        }
        out.write_all(b"]")?;
        // The other keys, sorted, as `write_json` writes them.
        for (k, v) in &Contract::new(parsed, extra).head {
            if k == "entries" {
                continue;
            }
            out.write_all(b",")?;
            writer::to_writer(&mut out, &**k).map_err(io_error)?;
            out.write_all(b":")?;
            match &**k {
                "feed" => direct::feed(&mut out, &parsed.feed),
                "decoding" => writer::to_writer(&mut out, &TrailOut(&parsed.decoded.trail)),
                _ => writer::to_writer(&mut out, v),
            }
            .map_err(io_error)?;
        }
        out.write_all(b"}")?;
        Ok(out)
    }
}

/// The writer's error inside a `serde_json` error, with its kind kept (so that a closed
/// pipe is still `BrokenPipe`).
fn io_error(e: serde_json::Error) -> std::io::Error {
    match e.io_error_kind() {
        Some(kind) => std::io::Error::new(kind, e),
        None => std::io::Error::other(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BozoKind, Position};

    #[test]
    fn the_trail_is_written_as_its_json_value_is() {
        // Every decoding fixture, as a file and served with a few media types: BOMs,
        // Appendix F rows, declarations, fallbacks, unknown and failed candidates.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/decode");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "xml") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            for transport in [
                Transport::Local,
                Transport::content_type("text/xml"),
                Transport::content_type("application/rss+xml; charset=koi8-r"),
                Transport::content_type("text/html; charset=bogus"),
            ] {
                let trail = crate::decode(&bytes, &transport).trail;
                let direct = serde_json::to_string(&TrailOut(&trail)).unwrap();
                let via_value = serde_json::to_string(&trail_json(&trail)).unwrap();
                assert_eq!(direct, via_value, "{}", path.display());
                let mut ours = Vec::new();
                writer::to_writer(&mut ours, &TrailOut(&trail)).unwrap();
                assert_eq!(String::from_utf8(ours).unwrap(), via_value);
                n += 1;
            }
        }
        assert!(n > 400, "{n} trails");
    }

    #[test]
    fn bozo_exception_is_the_last_record() {
        let parsed = crate::parse(
            b"<?xml version='1.0' encoding='utf-8'?><rss><channel><title>\xe9</title></channel></rss>",
            &Transport::content_type("text/plain"),
        );
        let v = to_json(&parsed);
        assert_eq!(v["bozo"], true);
        let all = v["bozo_exceptions"].as_array().unwrap();
        assert!(all.len() >= 2, "{all:?}");
        assert_eq!(all[0]["type"], "NonXMLContentType");
        assert_eq!(v["bozo_exception"], *all.last().unwrap());
        assert_eq!(v["headers"]["content-type"], "text/plain");
        assert_eq!(v["decoding"]["media_class"], "other-text");
        assert_eq!(v["decoding"]["rfc3023"]["rule"], "2.6");
    }

    #[test]
    fn judged_records_say_so_and_feedparsers_own_problem_is_reported() {
        // UTF-8 bytes declared iso-8859-1 (an override feedparser would not make), sent
        // as application/octet-stream (not XML, which feedparser reports; the declared
        // encoding stands).
        let parsed = crate::parse(
            "<?xml version='1.0' encoding='iso-8859-1'?><rss><channel><title>Größe</title>\
             </channel></rss>"
                .as_bytes(),
            &Transport::content_type("application/octet-stream"),
        );
        let v = to_json(&parsed);
        let all = v["bozo_exceptions"].as_array().unwrap();
        let kinds: Vec<_> = all.iter().map(|r| r["type"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            ["NonXMLContentType", "CharacterEncodingOverride"],
            "{all:?}"
        );
        assert_eq!(all[1]["judged"], true);
        assert!(all[0].get("judged").is_none());
        assert_eq!(v["bozo_exception"], all[0]);
        assert_eq!(v["bozo"], true);
        // Alone, the judged record is the last one.
        let parsed = crate::parse(
            "<?xml version='1.0' encoding='iso-8859-1'?><rss><channel><title>Größe</title>\
             </channel></rss>"
                .as_bytes(),
            &Transport::Local,
        );
        let v = to_json(&parsed);
        assert_eq!(v["bozo_exception"]["judged"], true);
    }

    #[test]
    fn bozo_exception_is_the_last_record_of_a_kind_feedparser_reports() {
        // Markup expat rejects (`--` in a comment), then content marked base64 that is
        // not: feedparser reports the first only, and so does `bozo_exception`.
        let parsed = crate::parse(
            b"<!-- a -- b --><feed xmlns='http://www.w3.org/2005/Atom'><entry>\
              <title type=''>evil</title></entry></feed>",
            &Transport::Local,
        );
        let v = to_json(&parsed);
        let all = v["bozo_exceptions"].as_array().unwrap();
        let kinds: Vec<_> = all.iter().map(|r| r["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["SAXParseException", "InvalidBase64"]);
        assert_eq!(v["bozo_exception"], all[0]);
        // Only this crate's own kinds: the last of them.
        let parsed = crate::parse(
            b"<feed xmlns='http://www.w3.org/2005/Atom'><entry><title type=''>evil</title>\
              </entry></feed>",
            &Transport::Local,
        );
        let v = to_json(&parsed);
        assert_eq!(v["bozo_exception"]["type"], "InvalidBase64");
        assert_eq!(
            v["bozo_exception"],
            *v["bozo_exceptions"].as_array().unwrap().last().unwrap()
        );
    }

    /// The 304 object has the contract's keys of a result, empty, and the fetch's keys
    /// over them; written as one line of JSON it reads back the same.
    #[test]
    fn a_not_modified_answer_is_an_empty_result_with_the_fetchs_keys() {
        let mut headers = Headers::new();
        headers.append("ETag", "\"v2\"");
        headers.append("Last-Modified", "Thu, 01 Jan 2004 19:48:21 GMT");
        let mut extra = header_fields(&headers);
        extra.insert("href".into(), "http://example.com/feed".into());
        extra.insert("status".into(), 304.into());
        let v = not_modified_json(extra);
        let parsed_keys: Vec<String> = to_json(&crate::parse(b"<rss/>", &Transport::Local))
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| *k != "decoding")
            .cloned()
            .collect();
        for k in &parsed_keys {
            assert!(v.get(k).is_some(), "{k}");
        }
        assert_eq!(
            v,
            json!({"bozo": false, "bozo_exceptions": [], "encoding": "", "version": "",
                   "namespaces": {}, "feed": {}, "entries": [],
                   "headers": {"etag": "\"v2\"", "last-modified": "Thu, 01 Jan 2004 19:48:21 GMT"},
                   "etag": "\"v2\"", "modified": "Thu, 01 Jan 2004 19:48:21 GMT",
                   "modified_parsed": [2004, 1, 1, 19, 48, 21, 3, 1, 0],
                   "href": "http://example.com/feed", "status": 304})
        );
        let line = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&line).unwrap(), v);
        assert_eq!(not_modified_json(Map::new())["headers"], json!({}));
    }

    #[test]
    fn local_input_has_no_http_keys_and_empty_headers() {
        let v = to_json(&crate::parse(b"<rss/>", &Transport::Local));
        assert_eq!(v["bozo"], false);
        assert!(v.get("bozo_exception").is_none());
        for k in ["href", "status", "etag", "modified", "modified_parsed"] {
            assert!(v.get(k).is_none(), "{k}");
        }
        assert_eq!(v["headers"], json!({}));
        assert_eq!(v["decoding"]["chosen"]["source"], "rfc3023");
    }

    #[test]
    fn response_headers_give_etag_and_modified() {
        let t = Transport::Http(
            Headers::new()
                .with("ETag", "\"v1\"")
                .with("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")
                .with("Vary", "Accept")
                .with("Vary", "Cookie"),
        );
        let v = to_json(&crate::parse(b"<rss/>", &t));
        assert_eq!(v["etag"], "\"v1\"");
        assert_eq!(v["modified"], "Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(
            v["modified_parsed"],
            json!([1994, 11, 6, 8, 49, 37, 6, 310, 0])
        );
        assert_eq!(v["headers"]["vary"], "Accept, Cookie");
    }

    #[test]
    fn written_json_is_the_same_bytes_as_the_value() {
        let t = Transport::Http(Headers::new().with("Content-Type", "text/xml"));
        let bytes = b"<rss version='2.0'><channel><title>T</title><item><title>a</title>\
                      <pubDate>Sun, 06 Nov 1994 08:49:37 GMT</pubDate></item>\
                      <item><description>&lt;b&gt;x</description></item></channel></rss>";
        let parsed = crate::parse(bytes, &t);
        let mut extra = Map::new();
        extra.insert("input".into(), "f.xml".into());
        extra.insert("href".into(), "http://e/".into());
        assert_written_as_value_with(&parsed, extra);
        let mut none = Vec::new();
        write_json(
            &crate::parse(b"<x/>", &Transport::Local),
            Map::new(),
            &mut none,
        )
        .unwrap();
        let v: Value = serde_json::from_slice(&none).unwrap();
        assert_eq!(v["entries"], json!([]));
    }

    #[test]
    fn an_extra_key_replaces_the_result_key_of_its_name() {
        // The contract's keys are sorted and unique; an extra key of a result key's name
        // (a header's, a fetch's) is the one written, as inserting into a map would do.
        let t = Transport::Http(
            Headers::new()
                .with("Content-Type", "text/xml")
                .with("ETag", "\"e\""),
        );
        let parsed = crate::parse(b"<rss version='2.0'><channel/></rss>", &t);
        let mut extra = Map::new();
        for (k, v) in [
            ("version", json!("v")),
            ("bozo", json!(7)),
            ("etag", json!("x")),
            ("a", json!(1)),
            ("zz", json!(null)),
        ] {
            extra.insert(k.into(), v);
        }
        assert_eq!(to_json(&parsed)["etag"], "\"e\"");
        assert_written_as_value_with(&parsed, extra);
    }

    /// [`write_json`] with `extra` writes the bytes of [`to_json`]'s value with `extra`
    /// inserted into it.
    fn assert_written_as_value_with(parsed: &Parsed<'_>, extra: Map<String, Value>) {
        let mut expected = to_json(parsed);
        expected.as_object_mut().unwrap().extend(extra.clone());
        let mut written = Vec::new();
        write_json(parsed, extra, &mut written).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            serde_json::to_string(&expected).unwrap()
        );
    }

    #[test]
    fn a_closed_pipe_keeps_its_error_kind() {
        struct Closed;
        impl std::io::Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let parsed = crate::parse(b"<rss><channel><item/></channel></rss>", &Transport::Local);
        let e = write_json(&parsed, Map::new(), &mut Closed).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
    }

    #[test]
    fn positions_are_serialised() {
        let b = Bozo::new(BozoKind::NotWellFormed, "x").at(Position {
            line: Some(2),
            column: Some(5),
            offset: Some(9),
        });
        assert_eq!(
            bozo_json(&b),
            json!({"type": "SAXParseException", "message": "x", "line": 2, "column": 5, "offset": 9})
        );
    }
}
