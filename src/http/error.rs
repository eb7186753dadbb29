//! Transport failures: the only `Err` the `http` module returns.

use std::error::Error as StdError;
use std::time::Duration;

/// Why a fetch produced no response to decode.
///
/// Content problems (a corrupt gzip stream, a body cut short, a body over the size cap) are
/// never errors: they become [`crate::Bozo`] records on [`super::Fetched`] and whatever
/// was read is still decoded. An HTTP error status (404, 500 …) is not an error either: the
/// body is decoded and the status reported.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The URL could not be parsed.
    #[error("invalid URL {url:?}: {reason}")]
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The URL's scheme is not `http`, `https`, `feed` or `file`.
    #[error("unsupported URL scheme {scheme:?} in {url}")]
    UnsupportedScheme {
        /// The URL.
        url: String,
        /// Its scheme.
        scheme: String,
    },
    /// The host name did not resolve.
    #[error("cannot resolve host of {url}: {message}")]
    Dns {
        /// The URL being fetched.
        url: String,
        /// The resolver's message.
        message: String,
    },
    /// The server refused the connection.
    #[error("connection refused by {url}")]
    Refused {
        /// The URL being fetched.
        url: String,
    },
    /// The connection failed for another reason (unreachable network, reset during the
    /// handshake, connect timeout excepted: see [`FetchError::Timeout`]).
    #[error("cannot connect to {url}: {message}")]
    Connect {
        /// The URL being fetched.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The TLS handshake failed (bad certificate, not a TLS server, protocol mismatch).
    #[error("TLS failure with {url}: {message}")]
    Tls {
        /// The URL being fetched.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The connect timeout or the total timeout elapsed (a stalled server).
    #[error("timed out after {after:?} fetching {url}")]
    Timeout {
        /// The URL being fetched when time ran out.
        url: String,
        /// The timeout that elapsed.
        after: Duration,
    },
    /// Decoding and parsing the body did not finish within what was left of the fetch
    /// timeout (reported by [`super::Crawler`]).
    #[error("parsing {url} did not finish within {after:?}")]
    ParseTimeout {
        /// The URL fetched.
        url: String,
        /// The time the parse had.
        after: Duration,
    },
    /// A request header given in [`super::FetchOptions`] is not a valid HTTP header.
    #[error("invalid request header {name:?}: {reason}")]
    InvalidHeader {
        /// The header's name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// More redirects than [`super::FetchOptions::max_redirects`].
    #[error("more than {limit} redirects starting at {url}")]
    TooManyRedirects {
        /// The URL first requested.
        url: String,
        /// The limit.
        limit: usize,
    },
    /// A redirect led back to a URL already visited.
    #[error("redirect loop: {url} was already visited")]
    RedirectLoop {
        /// The URL visited twice.
        url: String,
    },
    /// A redirect without a usable `Location` (missing, unparseable, or to a scheme other
    /// than `http`/`https`).
    #[error("bad redirect from {url}: {reason}")]
    BadRedirect {
        /// The URL that answered with the redirect.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The server answered with something that is not HTTP, or closed the connection
    /// before sending a response head.
    #[error("HTTP protocol failure with {url}: {message}")]
    Protocol {
        /// The URL being fetched.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// A `file:` URL could not be read.
    #[error("cannot read {path}: {source}")]
    File {
        /// The local path.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The HTTP client could not be built (TLS provider or configuration problem).
    #[error("cannot build the HTTP client: {message}")]
    Client {
        /// What went wrong.
        message: String,
    },
    /// A crawl task panicked or was cancelled (reported by [`super::Crawler`] so that no
    /// result is lost).
    #[error("internal failure fetching {url}: {message}")]
    Internal {
        /// The URL of the task.
        url: String,
        /// What happened.
        message: String,
    },
}

impl FetchError {
    /// A short stable name for the variant (`"timeout"`, `"refused"` …), for tables and logs.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            FetchError::InvalidUrl { .. } => "invalid-url",
            FetchError::UnsupportedScheme { .. } => "unsupported-scheme",
            FetchError::Dns { .. } => "dns",
            FetchError::Refused { .. } => "refused",
            FetchError::Connect { .. } => "connect",
            FetchError::Tls { .. } => "tls",
            FetchError::Timeout { .. } => "timeout",
            FetchError::ParseTimeout { .. } => "parse-timeout",
            FetchError::InvalidHeader { .. } => "invalid-header",
            FetchError::TooManyRedirects { .. } => "too-many-redirects",
            FetchError::RedirectLoop { .. } => "redirect-loop",
            FetchError::BadRedirect { .. } => "bad-redirect",
            FetchError::Protocol { .. } => "protocol",
            FetchError::File { .. } => "file",
            FetchError::Client { .. } => "client",
            FetchError::Internal { .. } => "internal",
        }
    }
}

/// The messages of an error and all its sources, joined.
pub(crate) fn chain_message(e: &(dyn StdError + 'static)) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        let m = s.to_string();
        if !out.contains(&m) {
            out.push_str(": ");
            out.push_str(&m);
        }
        cur = s.source();
    }
    out
}

/// Sorts a reqwest error into a [`FetchError`] by walking its source chain.
pub(crate) fn classify(url: &str, e: &reqwest::Error, timeout: Duration) -> FetchError {
    let url = url.to_owned();
    if e.is_timeout() {
        return FetchError::Timeout {
            url,
            after: timeout,
        };
    }
    let message = chain_message(e);
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(s) = cur {
        if s.is::<rustls::Error>() {
            return FetchError::Tls { url, message };
        }
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused => return FetchError::Refused { url },
                std::io::ErrorKind::TimedOut => {
                    return FetchError::Timeout {
                        url,
                        after: timeout,
                    };
                }
                _ => {}
            }
            // `io::Error::source` skips the wrapped error itself: look at it directly.
            if let Some(inner) = io.get_ref() {
                cur = Some(inner as &(dyn StdError + 'static));
                continue;
            }
        }
        cur = s.source();
    }
    let lower = message.to_ascii_lowercase();
    if lower.contains("dns error") || lower.contains("failed to lookup address") {
        FetchError::Dns { url, message }
    } else if [
        "tls",
        "certificate",
        "corrupt message",
        "handshake",
        "alert",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        FetchError::Tls { url, message }
    } else if e.is_connect() {
        FetchError::Connect { url, message }
    } else {
        FetchError::Protocol { url, message }
    }
}
