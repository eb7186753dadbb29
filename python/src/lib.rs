//! `feed_decoder._core`: the Rust side of the Python package.
//!
//! The Python layer (`feed_decoder/api.py`) decides what the input is (bytes, text, a
//! path, a file-like object, a URL) and calls one of these functions; they decode and
//! parse with the interpreter released (other Python threads run meanwhile), then build
//! the result through the JSON contract ([`topy`]). A panic in the engine (a bug) is
//! caught and reported as [`PANIC_KIND`] instead of unwinding into the interpreter.
//!
//! Unsafe code is denied but in [`fast`], which says why it needs it.

#![deny(unsafe_code)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use feed_decoder::html::{AllowList, HtmlFilter, Markup};
use feed_decoder::http::{FetchError, FetchOptions, Fetched, fetch_blocking};
use feed_decoder::{Decoder, Headers, ParseOptions, Parsed, Policy, Position, Transport};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

mod fast;
mod topy;

/// The `type` of the record that stands for a panic of the engine.
const PANIC_KIND: &str = "InternalError";

/// The sanitizer's allow-lists when a program changed `feedparser.sanitizer`'s
/// `_HTMLSanitizer` sets (the Python layer builds one per change, not per parse).
#[pyclass(frozen, module = "feed_decoder._core")]
#[derive(Clone, Debug)]
struct SanitizePolicy {
    lists: std::sync::Arc<feed_decoder::html::SanitizePolicy>,
}

#[pymethods]
impl SanitizePolicy {
    /// `lists`: feedparser's list names (`acceptable_elements`, …) to iterables of
    /// names; a list not given keeps its default, an item that is not a `str` is
    /// ignored (it could match no name).
    #[new]
    fn new(lists: &Bound<'_, PyDict>) -> PyResult<Self> {
        let mut policy = feed_decoder::html::SanitizePolicy::new();
        for (key, value) in lists.iter() {
            let key: String = key.extract()?;
            let list = AllowList::from_feedparser_name(&key)
                .ok_or_else(|| PyValueError::new_err(format!("unknown allow-list {key:?}")))?;
            let mut names = Vec::new();
            for item in value.try_iter()? {
                if let Ok(name) = item?.extract::<String>() {
                    names.push(name);
                }
            }
            policy = policy.replace(list, names);
        }
        Ok(SanitizePolicy {
            lists: std::sync::Arc::new(policy),
        })
    }
}

/// The engine's options, built once per call by the Python layer.
#[pyclass(frozen, module = "feed_decoder._core")]
#[derive(Clone, Debug)]
struct Options {
    decoder: Decoder,
    parse: ParseOptions,
}

#[pymethods]
impl Options {
    #[new]
    #[pyo3(signature = (*, sanitize_html=true, resolve_relative_uris=true, policy="recover",
        detector=true, tld=None, detector_prefix=None, max_entries=None, max_depth=None,
        base_uri=None, sanitizer=None, handlers=None, namespaces=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        sanitize_html: bool,
        resolve_relative_uris: bool,
        policy: &str,
        detector: bool,
        tld: Option<&str>,
        detector_prefix: Option<usize>,
        max_entries: Option<usize>,
        max_depth: Option<usize>,
        base_uri: Option<String>,
        sanitizer: Option<PyRef<'_, SanitizePolicy>>,
        handlers: Option<(Vec<String>, Vec<String>)>,
        namespaces: Option<Vec<(String, String)>>,
    ) -> PyResult<Self> {
        let policy = match policy {
            "recover" => Policy::Recover,
            "feedparser" => Policy::FeedparserExact,
            other => {
                return Err(PyValueError::new_err(format!(
                    "policy must be 'recover' or 'feedparser', not {other:?}"
                )));
            }
        };
        let mut decoder = Decoder::new().policy(policy).detector(detector);
        if let Some(tld) = tld {
            decoder = decoder.tld(tld);
        }
        if let Some(n) = detector_prefix {
            decoder = decoder.detector_prefix(n);
        }
        let mut parse = ParseOptions::default()
            .sanitize_html(sanitize_html)
            .resolve_relative_uris(resolve_relative_uris)
            .base_uri(base_uri)
            .sanitize_policy(sanitizer.map(|s| std::sync::Arc::clone(&s.lists)))
            .handlers(handlers.map(|(start, end)| {
                std::sync::Arc::new(feed_decoder::parse::ElementHandlers { start, end })
            }))
            .namespaces(namespaces.map(|pairs| {
                std::sync::Arc::new(feed_decoder::parse::ExtraNamespaces::new(pairs))
            }));
        if let Some(n) = max_entries {
            parse = parse.max_entries(n);
        }
        if let Some(n) = max_depth {
            parse = parse.max_depth(n);
        }
        Ok(Options { decoder, parse })
    }
}

/// Response headers given by the caller: `None` (or empty) is no transport at all, as
/// feedparser treats a document read from a file or a string.
fn transport_of(headers: Option<Vec<(String, String)>>) -> Transport {
    match headers {
        Some(h) if !h.is_empty() => {
            let mut out = Headers::new();
            for (k, v) in &h {
                out.append(k, v);
            }
            Transport::Http(out)
        }
        _ => Transport::Local,
    }
}

/// What one input gave: a result to convert, or why there is none.
enum Outcome {
    /// A parsed document, with the top-level keys a fetch adds (`href`, `status`).
    Parsed(Box<Kept>, serde_json::Map<String, serde_json::Value>),
    /// Nothing to parse (`304 Not Modified`, or an empty document, which feedparser
    /// returns unparsed and without `bozo`): only the fetch's keys.
    NoDocument(serde_json::Map<String, serde_json::Value>),
    /// The URL could not be fetched.
    FetchFailed { kind: &'static str, message: String },
    /// A local file could not be read.
    ReadFailed(std::io::Error, String),
    /// The engine panicked (a bug).
    Panicked(String),
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the parser panicked".to_owned())
}

/// Runs `f`, turning a panic into [`Outcome::Panicked`].
fn guarded(f: impl FnOnce() -> Outcome) -> Outcome {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Outcome::Panicked(panic_message(&*p)))
}

/// A parse result kept for conversion: without its decoded text, which the result does
/// not hold (for a UTF-8 input it is a slice of the input, which `into_owned` would copy;
/// for any other it is as large as the input): the memory goes to the Python objects.
/// The positions its SAX records have in feedparser's reading are kept instead.
struct Kept {
    parsed: Parsed<'static>,
    /// `(index, line, column)`: each SAX record with a position, where feedparser's XML
    /// parser reports it (see [`Opening`]; the column 0-based, as expat counts it).
    expat: Vec<(usize, u64, u64)>,
}

fn kept(mut parsed: Parsed<'_>) -> Box<Kept> {
    let mut opening = None;
    let mut expat = Vec::new();
    for (i, r) in parsed.bozo.iter().enumerate() {
        let sax = matches!(
            r.kind,
            feed_decoder::BozoKind::NotWellFormed | feed_decoder::BozoKind::UndeclaredNamespace
        );
        if let (
            true,
            Some(Position {
                line: Some(line),
                column: Some(column),
                ..
            }),
        ) = (sax, r.position)
        {
            let at = opening.get_or_insert_with(|| Opening::of(&parsed.decoded.text));
            let (line, column) = at.expat_position(line, column);
            expat.push((i, line, column.saturating_sub(1)));
        }
    }
    parsed.decoded.text = std::borrow::Cow::Borrowed("");
    Box::new(Kept {
        parsed: parsed.into_owned(),
        expat,
    })
}

fn parse_bytes_outcome(bytes: &[u8], transport: &Transport, options: &Options) -> Outcome {
    if bytes.is_empty() {
        return Outcome::NoDocument(serde_json::Map::new());
    }
    guarded(|| {
        let parsed = feed_decoder::parse_with(&options.decoder, &options.parse, bytes, transport);
        Outcome::Parsed(kept(parsed), serde_json::Map::new())
    })
}

/// A bozo record as `decode_bytes` returns it: `(type, message, line, column, offset,
/// judged)`.
type RecordTuple = (String, String, Option<u64>, Option<u64>, Option<u64>, bool);

/// Decodes a document without parsing it (feedparser's `encodings.convert_to_utf8`):
/// returns the text as a standalone UTF-8 document (its XML declaration rewritten to say
/// so), the encoding as feedparser reports it (empty when nothing decoded), and the
/// decoding's bozo records. `headers` as for `parse_bytes`. A panic of the engine is a
/// record of its own (`InternalError`) and the bytes come back as they were.
#[pyfunction]
#[pyo3(signature = (data, headers, options))]
fn decode_bytes<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyBytes>,
    headers: Option<Vec<(String, String)>>,
    options: &Options,
) -> PyResult<(Bound<'py, PyBytes>, String, Vec<RecordTuple>)> {
    let transport = transport_of(headers);
    let bytes = data.as_bytes();
    let decoded = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let d = options.decoder.decode(bytes, &transport);
            let records = d
                .bozo
                .iter()
                .map(|b| {
                    let p = b.position.unwrap_or_default();
                    let name = b.kind.feedparser_name().to_owned();
                    (
                        name,
                        b.message.clone(),
                        p.line,
                        p.column,
                        p.offset,
                        b.judged,
                    )
                })
                .collect::<Vec<RecordTuple>>();
            (d.to_utf8_document(), d.encoding, records)
        }))
        .map_err(|p| panic_message(&*p))
    });
    Ok(match decoded {
        Ok((doc, encoding, records)) => (PyBytes::new(py, doc.as_bytes()), encoding, records),
        Err(message) => {
            let record = (PANIC_KIND.to_owned(), message, None, None, None, false);
            (data.clone(), String::new(), vec![record])
        }
    })
}

/// What a URL fetch needs besides the parse options, built by the Python layer.
#[pyclass(frozen, module = "feed_decoder._core")]
#[derive(Clone, Debug)]
struct Request {
    fetch: FetchOptions,
    /// Headers that replace the response's own before decoding.
    response_headers: Vec<(String, String)>,
}

#[pymethods]
impl Request {
    #[new]
    #[pyo3(signature = (*, etag=None, modified=None, agent=None, referrer=None,
        request_headers=None, response_headers=None, timeout=None, max_body=None,
        accept=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        etag: Option<String>,
        modified: Option<String>,
        agent: Option<String>,
        referrer: Option<String>,
        request_headers: Option<Vec<(String, String)>>,
        response_headers: Option<Vec<(String, String)>>,
        timeout: Option<f64>,
        max_body: Option<usize>,
        accept: Option<String>,
    ) -> PyResult<Self> {
        let mut fetch = FetchOptions::default();
        if let Some(agent) = agent {
            fetch = fetch.user_agent(agent);
        }
        if let Some(accept) = accept {
            fetch = fetch.accept(accept);
        }
        if let Some(etag) = etag.filter(|e| !e.is_empty()) {
            fetch = fetch.etag(etag);
        }
        if let Some(modified) = modified.filter(|m| !m.is_empty()) {
            fetch = fetch.modified(modified);
        }
        if let Some(referrer) = referrer.filter(|r| !r.is_empty()) {
            fetch = fetch.header("Referer", referrer);
        }
        for (k, v) in request_headers.unwrap_or_default() {
            fetch = fetch.header(k, v);
        }
        if let Some(t) = timeout {
            let t = std::time::Duration::try_from_secs_f64(t)
                .map_err(|e| PyValueError::new_err(format!("timeout: {e}")))?;
            fetch = fetch.timeout(t);
        }
        if let Some(n) = max_body {
            fetch = fetch.max_body(n);
        }
        Ok(Request {
            fetch,
            response_headers: response_headers.unwrap_or_default(),
        })
    }
}

fn fetch_outcome(url: &str, request: &Request, options: &Options) -> Outcome {
    guarded(|| match fetch_blocking(url, &request.fetch) {
        Ok(mut fetched) => {
            override_headers(&mut fetched, &request.response_headers);
            if fetched.not_modified() {
                return Outcome::NoDocument(fetched.json_fields());
            }
            if fetched.body.is_empty() && fetched.bozo.is_empty() {
                let mut extra = fetched.json_fields();
                if let Some(http) = &fetched.http {
                    extra.extend(feed_decoder::output::header_fields(&http.headers));
                }
                return Outcome::NoDocument(extra);
            }
            match fetched.parse_with(&options.decoder, &options.parse) {
                Some(parsed) => Outcome::Parsed(kept(parsed), fetched.json_fields()),
                None => Outcome::NoDocument(fetched.json_fields()),
            }
        }
        Err(e) => fetch_failed(&e),
    })
}

fn fetch_failed(e: &FetchError) -> Outcome {
    Outcome::FetchFailed {
        kind: e.kind(),
        message: e.to_string(),
    }
}

/// feedparser's `response_headers` after a request: they replace the response's
/// headers of the same names.
fn override_headers(fetched: &mut Fetched, headers: &[(String, String)]) {
    if headers.is_empty() {
        return;
    }
    if let Some(http) = fetched.http.as_mut() {
        for (k, v) in headers {
            http.headers.set(k, v);
        }
    }
}

fn read_outcome(path: &str, transport: &Transport, options: &Options) -> Outcome {
    match std::fs::read(path) {
        Ok(bytes) if bytes.is_empty() => Outcome::NoDocument(serde_json::Map::new()),
        Ok(bytes) => guarded(|| {
            let parsed =
                feed_decoder::parse_owned(&options.decoder, &options.parse, bytes, transport);
            Outcome::Parsed(kept(parsed), serde_json::Map::new())
        }),
        Err(e) => Outcome::ReadFailed(e, path.to_owned()),
    }
}

/// Builds the Python value of an outcome (or raises for an unreadable file).
///
/// A parse result is consumed as it is converted: the entries are converted one after
/// the other and freed in batches (see [`topy::Builder::entries`]), so that the model and
/// the Python objects made from it are not both held whole at the peak.
fn convert<'py>(
    py: Python<'py>,
    outcome: Outcome,
    dict_type: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let _paused = GcPause::new(py)?;
    let mut b = topy::Builder::new(py, dict_type.clone())?;
    match outcome {
        Outcome::Parsed(kept, extra) => {
            let Kept { mut parsed, expat } = *kept;
            let calls = std::mem::take(&mut parsed.handler_calls);
            let entries = std::mem::take(&mut parsed.entries);
            // `entries` is converted with an empty list, which keeps the key's place.
            let out = b.top(&parsed)?;
            drop(parsed);
            let d = out.cast::<PyDict>()?;
            if !expat.is_empty() {
                place_as_expat(d, &expat)?;
            }
            if !calls.is_empty() {
                // Taken out by the Python layer, which calls the program's handlers.
                d.set_item(intern!(py, "_handler_calls"), handler_calls(py, &calls)?)?;
            }
            d.set_item(intern!(py, "entries"), b.entries(entries)?)?;
            for (k, v) in &extra {
                d.set_item(k, b.value(v)?)?;
            }
            Ok(out)
        }
        Outcome::NoDocument(extra) => {
            b.top(&feed_decoder::output::not_modified_json(extra.clone()))
        }
        Outcome::FetchFailed { kind, message } => {
            let v = serde_json::json!({"error": {"kind": kind, "message": message}});
            b.value(&v)
        }
        Outcome::Panicked(message) => {
            let record = serde_json::json!({"type": PANIC_KIND, "message": message});
            let v = serde_json::json!({"bozo": true, "bozo_exceptions": [record],
                "bozo_exception": record, "encoding": "", "version": "", "namespaces": {},
                "feed": {}, "entries": []});
            b.top(&v)
        }
        Outcome::ReadFailed(e, path) => Err(PyOSError::new_err((
            e.raw_os_error().unwrap_or(0),
            e.to_string(),
            path,
        ))),
    }
}

/// The calls of the program's element handlers as Python tuples `(key, end, context,
/// attrs, text)`: `context` is `("feed",)`, `("entries", i)`, `("image",)`,
/// `("textinput",)` or `("source", i)`; `attrs` a list of name/value pairs.
fn handler_calls<'py>(
    py: Python<'py>,
    calls: &[feed_decoder::HandlerCall],
) -> PyResult<Bound<'py, PyList>> {
    use feed_decoder::HandlerContext as C;
    let out = PyList::empty(py);
    for c in calls {
        let context = match c.context {
            C::Feed => ("feed", None),
            C::Entry(i) => ("entries", Some(i)),
            C::Image => ("image", None),
            C::TextInput => ("textinput", None),
            C::Source(i) => ("source", Some(i)),
            _ => ("feed", None),
        };
        out.append((&c.key, c.end, context, &c.attrs, &c.text))?;
    }
    Ok(out)
}

/// The length, in characters, of the XML declaration feedparser puts in front of the
/// text it hands its XML parser (`<?xml version='1.0' encoding='utf-8'?>`).
const FEEDPARSER_DECLARATION: u64 = 38;

/// How a document's text opens, as far as the positions feedparser's XML parser reports
/// depend on it: feedparser replaces an opening `<?xml …>` (up to its first `>`) with a
/// declaration of its own, or, when the text has none, puts its declaration on a line
/// of its own in front.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Opening {
    /// No opening `<?xml`: feedparser's text has one line more in front.
    Bare,
    /// An opening declaration of `breaks` line breaks, whose last line is `last_len`
    /// characters long.
    Declaration { breaks: u64, last_len: u64 },
}

impl Opening {
    fn of(text: &str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let Some(end) = text.strip_prefix("<?xml").and_then(|rest| rest.find('>')) else {
            return Opening::Bare;
        };
        let declaration = &text[..end + "<?xml>".len()];
        let last = declaration.rsplit('\n').next().unwrap_or(declaration);
        Opening::Declaration {
            breaks: declaration.bytes().filter(|&b| b == b'\n').count() as u64,
            last_len: last.chars().count() as u64,
        }
    }

    /// A position in the document (`line` 1-based, `column` 1-based in characters, as
    /// the engine counts them) in the text feedparser's XML parser reads.
    fn expat_position(self, line: u64, column: u64) -> (u64, u64) {
        match self {
            Opening::Bare => (line + 1, column),
            Opening::Declaration { breaks, .. } if line > breaks + 1 => (line - breaks, column),
            Opening::Declaration { breaks, last_len }
                if line == breaks + 1 && column > last_len =>
            {
                (1, column - last_len + FEEDPARSER_DECLARATION)
            }
            // Inside the document's declaration: inside feedparser's.
            Opening::Declaration { .. } => (1, column.min(FEEDPARSER_DECLARATION)),
        }
    }
}

/// Gives the SAX records of a converted result feedparser's positions ([`Kept::expat`])
/// under the record key `expat`, as `(line, column)`: the Python layer makes the
/// exception's SAX locator from it; the record's own `line` and `column` stay the
/// document's.
fn place_as_expat(result: &Bound<'_, PyDict>, expat: &[(usize, u64, u64)]) -> PyResult<()> {
    let py = result.py();
    let Some(records) = result.get_item(intern!(py, "bozo_exceptions"))? else {
        return Ok(());
    };
    let records = records.cast::<PyList>()?;
    for &(i, line, column) in expat {
        records
            .get_item(i)?
            .set_item(intern!(py, "expat"), (line, column))?;
    }
    Ok(())
}

/// The cyclic garbage collector, paused while a result is built: the result's objects
/// cannot form cycles, and a collection every 700 of them, each walking every object
/// still alive, took a third of the time on a 20 MB feed. The collector's state is put
/// back however the conversion ends. (The interpreter is held throughout, so no other
/// thread's code runs meanwhile.)
struct GcPause<'py> {
    /// `gc.enable`, when the collector was on and is to be put back on.
    enable: Option<Bound<'py, PyAny>>,
}

/// `gc.isenabled`, `gc.disable` and `gc.enable`, looked up once per interpreter (an
/// import per call cost more than the rest of a small feed's conversion set-up).
static GC_FUNCTIONS: pyo3::sync::PyOnceLock<[Py<PyAny>; 3]> = pyo3::sync::PyOnceLock::new();

impl<'py> GcPause<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        let [isenabled, disable, enable] =
            GC_FUNCTIONS.get_or_try_init(py, || -> PyResult<_> {
                let gc = py.import("gc")?;
                Ok([
                    gc.getattr("isenabled")?.unbind(),
                    gc.getattr("disable")?.unbind(),
                    gc.getattr("enable")?.unbind(),
                ])
            })?;
        if isenabled.call0(py)?.is_truthy(py)? {
            disable.call0(py)?;
            return Ok(GcPause {
                enable: Some(enable.bind(py).clone()),
            });
        }
        Ok(GcPause { enable: None })
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(enable) = &self.enable {
            let _ = enable.call0();
        }
    }
}

/// Decodes and parses `data` (bytes) with the given response headers (none: a local
/// document). Returns the contract's object as `dict_type` instances.
#[pyfunction]
#[pyo3(signature = (data, dict_type, headers, options))]
fn parse_bytes<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyBytes>,
    dict_type: &Bound<'py, PyAny>,
    headers: Option<Vec<(String, String)>>,
    options: &Options,
) -> PyResult<Bound<'py, PyAny>> {
    let transport = transport_of(headers);
    let bytes = data.as_bytes();
    let outcome = py.detach(|| parse_bytes_outcome(bytes, &transport, options));
    convert(py, outcome, dict_type)
}

/// Reads a file and parses it (the file is read with the interpreter released); raises
/// `OSError` when it cannot be read.
#[pyfunction]
#[pyo3(signature = (path, dict_type, headers, options))]
fn parse_path<'py>(
    py: Python<'py>,
    path: &str,
    dict_type: &Bound<'py, PyAny>,
    headers: Option<Vec<(String, String)>>,
    options: &Options,
) -> PyResult<Bound<'py, PyAny>> {
    let transport = transport_of(headers);
    let outcome = py.detach(|| read_outcome(path, &transport, options));
    convert(py, outcome, dict_type)
}

/// Fetches a URL (conditional GET with the request's validators) and parses the body.
/// A fetch that fails gives `{"error": {"kind", "message"}}` for the Python layer to
/// report.
#[pyfunction]
#[pyo3(signature = (url, dict_type, request, options))]
fn fetch_url<'py>(
    py: Python<'py>,
    url: &str,
    dict_type: &Bound<'py, PyAny>,
    request: &Request,
    options: &Options,
) -> PyResult<Bound<'py, PyAny>> {
    let outcome = py.detach(|| fetch_outcome(url, request, options));
    convert(py, outcome, dict_type)
}

/// One input of [`parse_many`].
enum Job<'b> {
    Bytes(&'b [u8], Transport),
    Path(String, Transport),
    Url(String, Request),
}

impl Job<'_> {
    fn run(&self, options: &Options) -> Outcome {
        match self {
            Job::Bytes(b, t) => parse_bytes_outcome(b, t, options),
            Job::Path(p, t) => read_outcome(p, t, options),
            Job::Url(u, r) => fetch_outcome(u, r, options),
        }
    }
}

/// Runs the jobs on `threads` threads, taking them in order; the outcomes come back in
/// the jobs' order.
fn run_all(jobs: &[Job<'_>], options: &Options, threads: usize) -> Vec<Outcome> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Outcome>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            let outcome = job.run(options);
            if let Ok(mut slot) = slots[i].lock() {
                *slot = Some(outcome);
            }
        }
    };
    let threads = threads.clamp(1, jobs.len().max(1));
    std::thread::scope(|s| {
        for _ in 1..threads {
            // A thread the system refuses is one fewer; the calling thread works too.
            let _ = std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn_scoped(s, work);
        }
        work();
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Outcome::Panicked("the input was not parsed".into()))
        })
        .collect()
}

/// Parses many inputs on `jobs` threads (default: one per CPU) with the interpreter
/// released, returning the results in the inputs' order. Each input is a tuple
/// `("bytes", data, headers)`, `("path", path, headers)` or `("url", url, request)`.
/// A file that cannot be read gives `{"error": OSError(...)}` in its place.
#[pyfunction]
#[pyo3(signature = (inputs, dict_type, jobs, options))]
fn parse_many<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyList>,
    dict_type: &Bound<'py, PyAny>,
    jobs: Option<usize>,
    options: &Options,
) -> PyResult<Bound<'py, PyList>> {
    // The byte strings stay referenced here while their slices are parsed.
    let mut held: Vec<Bound<'py, PyBytes>> = Vec::new();
    let mut specs: Vec<(u8, usize, Transport, Option<Request>, String)> = Vec::new();
    for item in inputs.iter() {
        let (kind, value, extra): (String, Bound<'py, PyAny>, Bound<'py, PyAny>) =
            item.extract()?;
        match kind.as_str() {
            "bytes" => {
                held.push(value.cast_into::<PyBytes>()?);
                specs.push((
                    0,
                    held.len() - 1,
                    transport_of(extra.extract()?),
                    None,
                    String::new(),
                ));
            }
            "path" => specs.push((1, 0, transport_of(extra.extract()?), None, value.extract()?)),
            "url" => {
                let request = extra.cast::<Request>()?.get().clone();
                specs.push((2, 0, Transport::Local, Some(request), value.extract()?));
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown input kind {other:?}"
                )));
            }
        }
    }
    let jobs_list: Vec<Job<'_>> = specs
        .into_iter()
        .map(
            |(kind, at, transport, request, text)| match (kind, request) {
                (0, _) => Job::Bytes(held[at].as_bytes(), transport),
                (2, Some(r)) => Job::Url(text, r),
                _ => Job::Path(text, transport),
            },
        )
        .collect();
    let threads = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let outcomes = py.detach(|| run_all(&jobs_list, options, threads));
    let out = PyList::empty(py);
    for outcome in outcomes {
        let unreadable = matches!(outcome, Outcome::ReadFailed(..));
        match convert(py, outcome, dict_type) {
            Ok(v) => out.append(v)?,
            // An unreadable file among many is reported in its place, not raised.
            Err(e) if unreadable => {
                let d = PyDict::new(py);
                d.set_item("error", e.value(py))?;
                out.append(d)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// Parses a date the way the engine reads feed dates: a `time.struct_time` in UTC, or
/// `None`.
#[pyfunction]
fn parse_date<'py>(py: Python<'py>, text: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    feed_decoder::date::parse_date_struct(text)
        .map(|t| py_struct_time(py, t))
        .transpose()
}

/// A `time.struct_time` of nine fields (the type looked up once per interpreter).
fn py_struct_time(py: Python<'_>, fields: [i64; 9]) -> PyResult<Bound<'_, PyAny>> {
    static STRUCT_TIME: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    let t = STRUCT_TIME.get_or_try_init(py, || -> PyResult<_> {
        Ok(py.import("time")?.getattr("struct_time")?.unbind())
    })?;
    t.bind(py).call1((fields,))
}

/// Like [`parse_date`], also naming the format family that read the date (`"w3dtf"`,
/// `"iso8601"`, `"rfc822"`, `"asctime"`, `"perforce"`, `"greek"`, `"hungarian"`,
/// `"onblog"`, `"nate"`): feedparser's handlers of one format each are made of it.
#[pyfunction]
fn parse_date_format<'py>(
    py: Python<'py>,
    text: &str,
) -> PyResult<Option<(Bound<'py, PyAny>, &'static str)>> {
    use feed_decoder::date::{DateFormat, parse_date_with_format, struct_time};
    let Some((dt, format)) = parse_date_with_format(text) else {
        return Ok(None);
    };
    let family = match format {
        DateFormat::W3cDtf => "w3dtf",
        DateFormat::Iso8601 => "iso8601",
        DateFormat::Rfc822 => "rfc822",
        DateFormat::Asctime => "asctime",
        DateFormat::Perforce => "perforce",
        DateFormat::Greek => "greek",
        DateFormat::Hungarian => "hungarian",
        DateFormat::KoreanOnBlog => "onblog",
        DateFormat::KoreanNate => "nate",
        _ => "other",
    };
    Ok(Some((py_struct_time(py, struct_time(&dt))?, family)))
}

/// Filters one HTML value as the engine filters every HTML value of a feed: sanitized
/// with feedparser's allow-lists (`policy`'s when given) and/or its relative URIs
/// resolved against `base` (`xhtml`: the value is `application/xhtml+xml`). The
/// interpreter is released meanwhile.
#[pyfunction]
#[pyo3(signature = (html, *, sanitize, resolve, base=None, xhtml=false, policy=None))]
fn filter_html(
    py: Python<'_>,
    html: &str,
    sanitize: bool,
    resolve: bool,
    base: Option<&str>,
    xhtml: bool,
    policy: Option<PyRef<'_, SanitizePolicy>>,
) -> String {
    let markup = if xhtml { Markup::Xhtml } else { Markup::Html };
    let policy = policy.map(|p| std::sync::Arc::clone(&p.lists));
    py.detach(|| {
        HtmlFilter::new()
            .sanitize(sanitize)
            .resolve(resolve)
            .base(base)
            .markup(markup)
            .policy(policy.as_deref())
            .apply(html)
            .into_owned()
    })
}

/// feedparser's guess whether `text` is HTML, the one the parsers make of plain values
/// (`policy`: the allow-lists when a program changed them).
#[pyfunction]
#[pyo3(signature = (text, policy=None))]
fn looks_like_html(text: &str, policy: Option<PyRef<'_, SanitizePolicy>>) -> bool {
    feed_decoder::parse::looks_like_html(text, policy.as_deref().map(|p| &*p.lists))
}

/// The engine's version and its default `User-Agent`.
#[pyfunction]
fn engine_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("version", env!("CARGO_PKG_VERSION"))?;
    d.set_item("user_agent", feed_decoder::http::DEFAULT_USER_AGENT)?;
    d.set_item("panic_kind", PyString::new(py, PANIC_KIND))?;
    let shadowing = PyDict::new(py);
    for (alias, reads) in topy::SHADOWING {
        shadowing.set_item(alias, reads.to_vec())?;
    }
    d.set_item("shadowing", shadowing)?;
    Ok(d)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fast::install_fast_methods, m)?)?;
    m.add_function(wrap_pyfunction!(fast::key_getter, m)?)?;
    m.add_class::<Options>()?;
    m.add_class::<SanitizePolicy>()?;
    m.add_class::<Request>()?;
    m.add_function(wrap_pyfunction!(parse_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(decode_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(parse_path, m)?)?;
    m.add_function(wrap_pyfunction!(fetch_url, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many, m)?)?;
    m.add_function(wrap_pyfunction!(parse_date, m)?)?;
    m.add_function(wrap_pyfunction!(parse_date_format, m)?)?;
    m.add_function(wrap_pyfunction!(filter_html, m)?)?;
    m.add_function(wrap_pyfunction!(looks_like_html, m)?)?;
    m.add_function(wrap_pyfunction!(engine_info, m)?)?;
    Ok(())
}
