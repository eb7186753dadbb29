//! The transport read once: everything the pipeline needs from the HTTP headers, taken at
//! the API boundary so that no later stage looks at [`Headers`](crate::Headers) again.

use super::media_type::{self, ContentType, MediaClass};
use crate::transport::Transport;

/// What a transport says about the body: the media type and charset (for decoding), the
/// language and location (for parsing). Read once by [`TransportFacts::of`].
///
/// ```
/// use feed_decoder::decode::TransportFacts;
/// use feed_decoder::decode::media_type::MediaClass;
/// use feed_decoder::{Headers, Transport};
///
/// let headers = Headers::new()
///     .with("Content-Type", "application/rss+xml; charset=\"ISO-8859-1\"")
///     .with("Content-Language", "fr");
/// let facts = TransportFacts::of(&Transport::Http(headers));
/// assert_eq!(facts.media_class, MediaClass::ApplicationXml);
/// assert_eq!(facts.charset(), Some("ISO-8859-1"));
/// assert_eq!(facts.content_language.as_deref(), Some("fr"));
/// assert_eq!(TransportFacts::of(&Transport::Local).media_class, MediaClass::Local);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TransportFacts {
    /// The parsed `Content-Type` (`None` for local bytes and for a missing or empty
    /// header).
    pub content_type: Option<ContentType>,
    /// The `Content-Type` header as sent, when it was parsed into `content_type`.
    pub content_type_header: Option<String>,
    /// The class of the media type ([`MediaClass::Local`] without a transport,
    /// [`MediaClass::Missing`] for an HTTP response without a `Content-Type`).
    pub media_class: MediaClass,
    /// The `Content-Language` header, when present and not empty.
    pub content_language: Option<String>,
    /// The `Content-Location` header, when present and not empty.
    pub content_location: Option<String>,
}

impl TransportFacts {
    /// Reads what `transport` says about its body.
    #[must_use]
    pub fn of(transport: &Transport) -> Self {
        let (content_type, media_class) = media_type::classify(transport);
        let header = |name: &str| {
            transport
                .headers()
                .and_then(|h| h.get(name))
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        TransportFacts {
            content_type_header: content_type.as_ref().and_then(|_| header("content-type")),
            content_type,
            media_class,
            content_language: header("content-language"),
            content_location: header("content-location"),
        }
    }

    /// The `charset` parameter of the `Content-Type`, as sent.
    #[must_use]
    pub fn charset(&self) -> Option<&str> {
        self.content_type.as_ref()?.charset.as_deref()
    }
}
