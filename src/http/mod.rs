//! Fetch-and-decode over HTTP(S), `feed:` and `file:` URLs (cargo feature `http`).
//!
//! The response's **raw body bytes and headers** go through the same pipeline as local
//! bytes ([`crate::parse_with`] with [`Transport::Http`]); the client never decodes text
//! itself. What a feed fetcher needs is built in:
//!
//! - `User-Agent` and an `Accept` header that puts feed media types first
//!   ([`DEFAULT_ACCEPT`]);
//! - conditional GET: [`Validators`] (`ETag` → `If-None-Match`, `Last-Modified` →
//!   `If-Modified-Since`); a `304 Not Modified` gives [`HttpInfo::not_modified`] and
//!   [`Fetched::parse`] returns `None`;
//! - redirects followed by hand up to [`FetchOptions::max_redirects`], each hop recorded in
//!   [`HttpInfo::redirects`]; [`HttpInfo::status`] is feedparser's (the first redirect's
//!   status when redirected) and [`HttpInfo::permanent_href`] is the URL an aggregator
//!   should store after 301/308;
//! - `gzip`, `deflate` and `br` bodies decompressed here, so that a body that is not
//!   really compressed, or is damaged, becomes a [`BozoKind::Transport`] record with the
//!   raw (or partial) bytes still parsed, and the size cap ([`FetchOptions::max_body`])
//!   holds for decompressed bytes: a gzip bomb stops at the cap with a
//!   [`BozoKind::LimitExceeded`] record;
//! - a connect timeout and a total timeout; transport failures are a
//!   `#[non_exhaustive]` [`FetchError`];
//! - HTTP error statuses (404, 500 …) are not errors: the body is parsed and the status
//!   reported, as feedparser does;
//! - `feed:http://…`, `feed://…` and `file:` URLs (a file is [`Transport::Local`]).
//!
//! [`Crawler`] fetches many feeds with bounded concurrency and one request at a time per
//! host, stopped from outside with a [`StopSignal`]; [`schedule`] says when to fetch a feed
//! again. The `feed-crawler` binary (feature `crawler`) is a durable command-line crawler
//! built on them.
//!
//! ```no_run
//! use feed_decoder::http::{fetch_blocking, FetchOptions};
//!
//! let fetched = fetch_blocking("https://example.org/feed.xml", &FetchOptions::default())?;
//! let http = fetched.http.as_ref().expect("an http URL");
//! println!("{} {} etag={:?}", http.status, fetched.href, http.etag);
//! if let Some(parsed) = fetched.parse() {
//!     println!("{} via {}", parsed.decoded.encoding, parsed.version);
//! }
//! # Ok::<(), feed_decoder::http::FetchError>(())
//! ```
//!
//! TLS is rustls with the *ring* provider, installed as the process default the first time
//! a [`Fetcher`] is built (if no other provider was installed before); certificates are
//! checked with the platform verifier.

mod body;
mod crawl;
mod error;
pub mod schedule;

use std::collections::HashSet;
use std::sync::Once;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use reqwest::Url;
use reqwest::header::{
    ACCEPT, ACCEPT_ENCODING, HeaderName, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, LOCATION,
    USER_AGENT,
};

pub use crawl::{
    CrawlJob, CrawlOptions, CrawlReport, CrawlResult, Crawler, FeedSummary, StopSignal,
};
pub use error::FetchError;

use crate::Parsed;
use crate::bozo::{Bozo, BozoKind};
use crate::decode::Decoder;
use crate::parse::ParseOptions;
use crate::transport::{Headers, Transport};

/// The default `Accept` header: feed media types first, generic XML next, anything last.
pub const DEFAULT_ACCEPT: &str = "application/atom+xml,application/rss+xml,\
application/feed+json,application/rdf+xml;q=0.9,application/xml;q=0.8,text/xml;q=0.8,\
application/json;q=0.8,*/*;q=0.1";

/// The default `User-Agent` header.
pub const DEFAULT_USER_AGENT: &str = concat!(
    "feed-decoder/",
    env!("CARGO_PKG_VERSION"),
    " (+https://crates.io/crates/feed-decoder)"
);

/// The `Accept-Encoding` sent: the codings this module decompresses.
const ACCEPT_ENCODING_VALUE: &str = "gzip, deflate, br";

/// Conditional-GET validators from an earlier response.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Validators {
    /// The earlier `ETag`, sent back as `If-None-Match`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The earlier `Last-Modified`, sent back as `If-Modified-Since`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
}

impl Validators {
    /// True when there is nothing to send.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.etag.is_none() && self.modified.is_none()
    }
}

/// Options for fetching; every field has a builder method of the same name.
#[derive(Clone, Debug)]
#[non_exhaustive]
#[must_use]
pub struct FetchOptions {
    /// The `User-Agent` header. Default: [`DEFAULT_USER_AGENT`].
    pub user_agent: String,
    /// The `Accept` header. Default: [`DEFAULT_ACCEPT`].
    pub accept: String,
    /// Validators sent with every request of a one-off [`fetch`]; [`Fetcher::fetch_with`]
    /// takes them per call instead. Default: none.
    pub validators: Validators,
    /// Time allowed to establish a connection (TCP and TLS). Default: 10 s.
    pub connect_timeout: Duration,
    /// Time allowed for the whole fetch, redirects and body included. Default: 30 s.
    pub timeout: Duration,
    /// How many redirects are followed. Default: 10.
    pub max_redirects: usize,
    /// The most body bytes kept, after decompression (and before it). Default: 16 MiB.
    pub max_body: usize,
    /// Whether `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` from the environment are honoured.
    /// Default: `true`.
    pub env_proxy: bool,
    /// Extra request headers. Default: none.
    pub extra_headers: Vec<(String, String)>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            accept: DEFAULT_ACCEPT.to_owned(),
            validators: Validators::default(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_redirects: 10,
            max_body: 16 << 20,
            env_proxy: true,
            extra_headers: Vec::new(),
        }
    }
}

impl FetchOptions {
    /// The default options.
    pub fn new() -> Self {
        FetchOptions::default()
    }
    /// Sets [`FetchOptions::user_agent`].
    pub fn user_agent(mut self, value: impl Into<String>) -> Self {
        self.user_agent = value.into();
        self
    }
    /// Sets [`FetchOptions::accept`].
    pub fn accept(mut self, value: impl Into<String>) -> Self {
        self.accept = value.into();
        self
    }
    /// Sets [`FetchOptions::validators`].
    pub fn validators(mut self, value: Validators) -> Self {
        self.validators = value;
        self
    }
    /// Sets the `ETag` to send as `If-None-Match`.
    pub fn etag(mut self, value: impl Into<String>) -> Self {
        self.validators.etag = Some(value.into());
        self
    }
    /// Sets the `Last-Modified` to send as `If-Modified-Since`.
    pub fn modified(mut self, value: impl Into<String>) -> Self {
        self.validators.modified = Some(value.into());
        self
    }
    /// Sets [`FetchOptions::connect_timeout`].
    pub fn connect_timeout(mut self, value: Duration) -> Self {
        self.connect_timeout = value;
        self
    }
    /// Sets [`FetchOptions::timeout`].
    pub fn timeout(mut self, value: Duration) -> Self {
        self.timeout = value;
        self
    }
    /// Sets [`FetchOptions::max_redirects`].
    pub fn max_redirects(mut self, value: usize) -> Self {
        self.max_redirects = value;
        self
    }
    /// Sets [`FetchOptions::max_body`].
    pub fn max_body(mut self, value: usize) -> Self {
        self.max_body = value;
        self
    }
    /// Sets [`FetchOptions::env_proxy`].
    pub fn env_proxy(mut self, value: bool) -> Self {
        self.env_proxy = value;
        self
    }
    /// Adds a request header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.extra_headers.push((name.into(), value.into()));
        self
    }
}

/// What the HTTP exchange said, in the shape of feedparser's top-level result keys.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpInfo {
    /// The final URL, after redirects (feedparser's `href`).
    pub href: String,
    /// feedparser's `status`: the status of the first redirect when there were any
    /// (301 when a feed moved permanently), otherwise the final response's status.
    pub status: u16,
    /// The final response's status (200, 304, 404 …).
    pub final_status: u16,
    /// The final response's `ETag`.
    pub etag: Option<String>,
    /// The final response's `Last-Modified`, as sent.
    pub modified: Option<String>,
    /// `Last-Modified` as Python's 9-field UTC `struct_time`
    /// `[year, month, day, hour, min, sec, weekday (Mon = 0), yearday, 0]`.
    pub modified_parsed: Option<[i64; 9]>,
    /// The final response's headers, names lower-cased, in order received.
    pub headers: Headers,
    /// Every redirect followed: the status and the URL that answered with it.
    pub redirects: Vec<(u16, String)>,
    /// True when the first redirect was permanent (301 or 308).
    pub permanent_redirect: bool,
    /// Where the leading run of permanent redirects (301/308) ends: the URL an aggregator
    /// should store instead of the one it requested. `None` when the first hop was not a
    /// permanent redirect.
    pub permanent_href: Option<String>,
    /// True on `304 Not Modified`: nothing was parsed.
    pub not_modified: bool,
    /// Body bytes as received, before decompression.
    pub wire_bytes: usize,
}

impl HttpInfo {
    /// The validators to send next time (this response's `ETag` and `Last-Modified`).
    #[must_use]
    pub fn validators(&self) -> Validators {
        Validators {
            etag: self.etag.clone(),
            modified: self.modified.clone(),
        }
    }

    /// The headers as a map the way feedparser's `headers` dict holds them: lower-cased
    /// names, a repeated header's values joined with `", "`.
    #[must_use]
    pub fn headers_map(&self) -> std::collections::BTreeMap<String, String> {
        let mut map = std::collections::BTreeMap::<String, String>::new();
        for (name, value) in self.headers.iter() {
            map.entry(name.to_owned())
                .and_modify(|v| {
                    v.push_str(", ");
                    v.push_str(value);
                })
                .or_insert_with(|| value.to_owned());
        }
        map
    }

    /// `Last-Modified` as a UTC date-time.
    #[must_use]
    pub fn modified_datetime(&self) -> Option<DateTime<Utc>> {
        self.modified.as_deref().and_then(crate::date::parse_date)
    }
}

/// A fetched document: its bytes, where they came from, and what went wrong on the way.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Fetched {
    /// The URL actually read: after redirects, with `feed:` removed.
    pub href: String,
    /// The HTTP exchange; `None` for `file:` URLs.
    pub http: Option<HttpInfo>,
    /// The body, decompressed and capped at [`FetchOptions::max_body`].
    pub body: Vec<u8>,
    /// Transport problems (damaged or fake compression, body cut short, size cap hit);
    /// [`Fetched::parse`] puts them first among the decoding bozo records.
    pub bozo: Vec<Bozo>,
    /// Time from the first request to the last body byte.
    pub elapsed: Duration,
}

impl Fetched {
    /// The transport to decode with: the response headers, or [`Transport::Local`].
    #[must_use]
    pub fn transport(&self) -> Transport {
        match &self.http {
            Some(h) => Transport::Http(h.headers.clone()),
            None => Transport::Local,
        }
    }

    /// The top-level keys of the JSON contract that only the fetch knows: `href` always,
    /// `status` for HTTP. (`etag`, `modified`, `modified_parsed` and `headers` come from
    /// the response headers, which [`crate::output::to_json`] reads from the transport; for
    /// a `304`, which parses nothing, they are added here too.)
    #[must_use]
    pub fn json_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::Value;
        let mut m = serde_json::Map::new();
        m.insert("href".into(), Value::from(self.href.clone()));
        if let Some(h) = &self.http {
            m.insert("status".into(), Value::from(h.status));
            if h.not_modified {
                m.extend(crate::output::header_fields(&h.headers));
            }
        }
        m
    }

    /// True on `304 Not Modified`.
    #[must_use]
    pub fn not_modified(&self) -> bool {
        self.http.as_ref().is_some_and(|h| h.not_modified)
    }

    /// Decodes and parses the body with the default options; `None` on `304 Not Modified`.
    #[must_use]
    pub fn parse(&self) -> Option<Parsed<'_>> {
        self.parse_with(&Decoder::default(), &ParseOptions::default())
    }

    /// Decodes and parses the body; `None` on `304 Not Modified`. The transport bozo
    /// records come first (in `bozo` and in `decoded.bozo`).
    #[must_use]
    pub fn parse_with(&self, decoder: &Decoder, options: &ParseOptions) -> Option<Parsed<'_>> {
        if self.not_modified() {
            return None;
        }
        let transport = self.transport();
        let mut parsed =
            crate::parse_from(decoder, options, &self.body, &transport, Some(&self.href));
        if !self.bozo.is_empty() {
            let rest = std::mem::take(&mut parsed.decoded.bozo);
            parsed.decoded.bozo = self.bozo.iter().cloned().chain(rest).collect();
            let rest = std::mem::take(&mut parsed.bozo);
            parsed.bozo = self.bozo.iter().cloned().chain(rest).collect();
        }
        Some(parsed)
    }
}

static RING: Once = Once::new();

/// Installs rustls' *ring* provider as the process default unless one is installed.
fn install_crypto_provider() {
    RING.call_once(|| {
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
    });
}

/// A reusable HTTP client with its options (connection pool shared between fetches;
/// cheap to clone).
#[derive(Clone, Debug)]
pub struct Fetcher {
    client: reqwest::Client,
    options: FetchOptions,
}

impl Fetcher {
    /// Builds the client.
    ///
    /// # Errors
    /// [`FetchError::InvalidHeader`] when a header of [`FetchOptions::header`] is not a
    /// valid HTTP header name or value (a space in the name, a line break in the value
    /// …); [`FetchError::Client`] when the TLS configuration cannot be built.
    pub fn new(options: FetchOptions) -> Result<Self, FetchError> {
        for (name, value) in &options.extra_headers {
            check_header(name, value)?;
        }
        install_crypto_provider();
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(options.connect_timeout);
        if !options.env_proxy {
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| FetchError::Client {
            message: error::chain_message(&e),
        })?;
        Ok(Fetcher { client, options })
    }

    /// The options this fetcher was built with.
    pub fn options(&self) -> &FetchOptions {
        &self.options
    }

    /// Fetches `url` with the validators from the options.
    ///
    /// # Errors
    /// A [`FetchError`] for transport failures only.
    pub async fn fetch(&self, url: &str) -> Result<Fetched, FetchError> {
        self.fetch_with(url, &self.options.validators).await
    }

    /// Fetches `url`, sending `validators` as a conditional GET.
    ///
    /// # Errors
    /// A [`FetchError`] for transport failures only.
    pub async fn fetch_with(
        &self,
        url: &str,
        validators: &Validators,
    ) -> Result<Fetched, FetchError> {
        let start = Instant::now();
        let target = normalize_url(url)?;
        if target.scheme() == "file" {
            return read_file(&target, self.options.max_body, start);
        }
        let timeout = self.options.timeout;
        match tokio::time::timeout(timeout, self.fetch_http(target, validators, start)).await {
            Ok(r) => r,
            Err(_) => Err(FetchError::Timeout {
                url: url.to_owned(),
                after: timeout,
            }),
        }
    }

    async fn fetch_http(
        &self,
        first: Url,
        validators: &Validators,
        start: Instant,
    ) -> Result<Fetched, FetchError> {
        let opts = &self.options;
        let mut url = first.clone();
        let mut visited: HashSet<String> = HashSet::new();
        let mut redirects: Vec<(u16, String)> = Vec::new();
        let mut response = loop {
            visited.insert(url.as_str().to_owned());
            let response = self
                .request(&url, validators)
                .send()
                .await
                .map_err(|e| error::classify(url.as_str(), &e, opts.timeout))?;
            let status = response.status();
            if !status.is_redirection() || status.as_u16() == 304 {
                break response;
            }
            let Some(location) = response.headers().get(LOCATION) else {
                // A 3xx without Location is a final answer (300 Multiple Choices, …).
                break response;
            };
            let location = String::from_utf8_lossy(location.as_bytes())
                .trim()
                .to_owned();
            let next = url.join(&location).map_err(|e| FetchError::BadRedirect {
                url: url.to_string(),
                reason: format!("Location {location:?}: {e}"),
            })?;
            if !matches!(next.scheme(), "http" | "https") {
                return Err(FetchError::BadRedirect {
                    url: url.to_string(),
                    reason: format!("Location {location:?} is not http or https"),
                });
            }
            redirects.push((status.as_u16(), url.to_string()));
            if visited.contains(next.as_str()) {
                return Err(FetchError::RedirectLoop {
                    url: next.to_string(),
                });
            }
            if redirects.len() > opts.max_redirects {
                return Err(FetchError::TooManyRedirects {
                    url: first.to_string(),
                    limit: opts.max_redirects,
                });
            }
            url = next;
        };

        let final_status = response.status().as_u16();
        let headers: Headers = response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let not_modified = final_status == 304;
        let mut bozo = Vec::new();
        let mut raw = Vec::new();
        if !not_modified {
            loop {
                match response.chunk().await {
                    Ok(Some(chunk)) => {
                        if raw.len() + chunk.len() > opts.max_body {
                            let room = opts.max_body - raw.len();
                            raw.extend_from_slice(&chunk[..room]);
                            bozo.push(Bozo::new(
                                BozoKind::LimitExceeded,
                                format!(
                                    "body exceeds the {}-byte cap; truncated, rest not read",
                                    opts.max_body
                                ),
                            ));
                            break;
                        }
                        raw.extend_from_slice(&chunk);
                    }
                    Ok(None) => break,
                    Err(e) => {
                        if e.is_timeout() {
                            return Err(FetchError::Timeout {
                                url: url.to_string(),
                                after: opts.timeout,
                            });
                        }
                        bozo.push(Bozo::new(
                            BozoKind::Transport,
                            format!(
                                "body cut short after {} bytes ({}); what arrived is parsed",
                                raw.len(),
                                error::chain_message(&e)
                            ),
                        ));
                        break;
                    }
                }
            }
        }
        drop(response);
        let wire_bytes = raw.len();
        let body = body::decode_content(
            raw,
            headers.get("content-encoding"),
            opts.max_body,
            &mut bozo,
        );
        let etag = headers.get("etag").map(str::to_owned);
        let modified = headers.get("last-modified").map(str::to_owned);
        let modified_parsed = modified
            .as_deref()
            .and_then(crate::date::parse_date)
            .map(|dt| crate::date::struct_time(&dt));
        let permanent = |s: u16| s == 301 || s == 308;
        let permanent_redirect = redirects.first().is_some_and(|&(s, _)| permanent(s));
        let permanent_href = permanent_redirect.then(|| {
            let run = redirects.iter().take_while(|&&(s, _)| permanent(s)).count();
            redirects
                .get(run)
                .map_or_else(|| url.to_string(), |(_, u)| u.clone())
        });
        let status = redirects.first().map_or(final_status, |&(s, _)| s);
        let href = url.to_string();
        Ok(Fetched {
            href: href.clone(),
            http: Some(HttpInfo {
                href,
                status,
                final_status,
                etag,
                modified,
                modified_parsed,
                headers,
                redirects,
                permanent_redirect,
                permanent_href,
                not_modified,
                wire_bytes,
            }),
            body,
            bozo,
            elapsed: start.elapsed(),
        })
    }

    fn request(&self, url: &Url, validators: &Validators) -> reqwest::RequestBuilder {
        let opts = &self.options;
        let mut req = self
            .client
            .get(url.clone())
            .header(ACCEPT, opts.accept.as_str())
            .header(ACCEPT_ENCODING, ACCEPT_ENCODING_VALUE)
            .header(USER_AGENT, opts.user_agent.as_str());
        if let Some(etag) = &validators.etag {
            req = req.header(IF_NONE_MATCH, etag.as_str());
        }
        if let Some(modified) = &validators.modified {
            req = req.header(IF_MODIFIED_SINCE, modified.as_str());
        }
        for (name, value) in &opts.extra_headers {
            if let (Ok(n), Ok(v)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                req = req.header(n, v);
            }
        }
        req
    }
}

/// Checks that `name: value` can be sent as an HTTP request header.
///
/// # Errors
/// [`FetchError::InvalidHeader`] saying what is wrong.
pub fn check_header(name: &str, value: &str) -> Result<(), FetchError> {
    let invalid = |reason: &str| FetchError::InvalidHeader {
        name: name.to_owned(),
        reason: reason.to_owned(),
    };
    if name.is_empty() {
        return Err(invalid("the name is empty"));
    }
    if HeaderName::from_bytes(name.as_bytes()).is_err() {
        return Err(invalid(
            "a name is one token: letters, digits and !#$%&'*+-.^_`|~, no spaces or colons",
        ));
    }
    if value.contains(['\r', '\n', '\0']) || HeaderValue::from_str(value).is_err() {
        return Err(invalid(
            "the value holds a line break, another control character or non-ASCII text",
        ));
    }
    Ok(())
}

/// Turns `feed:` forms into plain URLs and checks the scheme:
/// `feed://host/x` → `http://host/x`, `feed:https://host/x` → `https://host/x`.
///
/// # Errors
/// [`FetchError::InvalidUrl`] or [`FetchError::UnsupportedScheme`].
pub fn normalize_url(url: &str) -> Result<Url, FetchError> {
    let trimmed = url.trim();
    let lower = trimmed.to_ascii_lowercase();
    let plain = if lower.starts_with("feed://") {
        format!("http://{}", &trimmed[7..])
    } else if lower.starts_with("feed:") {
        trimmed[5..].to_owned()
    } else {
        trimmed.to_owned()
    };
    let parsed = Url::parse(&plain).map_err(|e| FetchError::InvalidUrl {
        url: url.to_owned(),
        reason: e.to_string(),
    })?;
    match parsed.scheme() {
        "http" | "https" | "file" => Ok(parsed),
        other => Err(FetchError::UnsupportedScheme {
            url: url.to_owned(),
            scheme: other.to_owned(),
        }),
    }
}

fn read_file(url: &Url, cap: usize, start: Instant) -> Result<Fetched, FetchError> {
    let path = url.to_file_path().map_err(|()| FetchError::InvalidUrl {
        url: url.to_string(),
        reason: "not a local file path".to_owned(),
    })?;
    let shown = path.display().to_string();
    let file = std::fs::File::open(&path).map_err(|e| FetchError::File {
        path: shown.clone(),
        source: e,
    })?;
    let mut body = Vec::new();
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    std::io::Read::read_to_end(&mut std::io::Read::take(file, limit), &mut body).map_err(|e| {
        FetchError::File {
            path: shown,
            source: e,
        }
    })?;
    let mut bozo = Vec::new();
    if body.len() > cap {
        body.truncate(cap);
        bozo.push(Bozo::new(
            BozoKind::LimitExceeded,
            format!("file exceeds the {cap}-byte cap; truncated"),
        ));
    }
    Ok(Fetched {
        href: url.to_string(),
        http: None,
        body,
        bozo,
        elapsed: start.elapsed(),
    })
}

/// Fetches one URL with a one-off [`Fetcher`].
///
/// # Errors
/// A [`FetchError`] for transport failures only.
pub async fn fetch(url: &str, options: &FetchOptions) -> Result<Fetched, FetchError> {
    Fetcher::new(options.clone())?.fetch(url).await
}

/// Blocking form of [`fetch`]: runs it on a private single-threaded tokio runtime (on a
/// helper thread when called from inside an async runtime).
///
/// # Errors
/// A [`FetchError`] for transport failures only.
pub fn fetch_blocking(url: &str, options: &FetchOptions) -> Result<Fetched, FetchError> {
    let run = |url: String, options: FetchOptions| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| FetchError::Client {
                message: e.to_string(),
            })?;
        rt.block_on(fetch(&url, &options))
    };
    if tokio::runtime::Handle::try_current().is_ok() {
        let (url, options) = (url.to_owned(), options.clone());
        std::thread::spawn(move || run(url, options))
            .join()
            .unwrap_or_else(|_| {
                Err(FetchError::Internal {
                    url: String::new(),
                    message: "fetch thread panicked".into(),
                })
            })
    } else {
        run(url.to_owned(), options.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_urls_are_normalized() {
        let n = |u: &str| normalize_url(u).map(|u| u.to_string());
        assert_eq!(n("feed://example.org/a").unwrap(), "http://example.org/a");
        assert_eq!(
            n("feed:https://example.org/a").unwrap(),
            "https://example.org/a"
        );
        assert_eq!(
            n("FEED:http://example.org/a").unwrap(),
            "http://example.org/a"
        );
        assert!(matches!(
            n("ftp://x/"),
            Err(FetchError::UnsupportedScheme { .. })
        ));
        assert!(matches!(n("not a url"), Err(FetchError::InvalidUrl { .. })));
    }
}
