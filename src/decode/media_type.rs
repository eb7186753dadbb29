//! HTTP `Content-Type` parsing and its RFC 3023 classification.
//!
//! Parsing is lenient, the way feeds are served: the type/subtype is compared
//! case-insensitively, the `charset` parameter may be quoted with `"` or `'`, or not at
//! all, with spaces around `=`; a parameter without `=` (`charset:utf-8`) is ignored, as
//! feedparser ignores it. The last `charset` parameter wins.

use crate::transport::Transport;

/// How RFC 3023 classifies the media type the bytes came with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MediaClass {
    /// No transport metadata at all (local bytes).
    #[default]
    Local,
    /// An HTTP response without a `Content-Type` header (or with an empty one).
    Missing,
    /// `application/xml`, `application/xml-dtd`, `application/xml-external-parsed-entity`
    /// or `application/*+xml`.
    ApplicationXml,
    /// `text/xml`, `text/xml-external-parsed-entity` or `text/*+xml`.
    TextXml,
    /// Any other `text/*` type (`text/plain`, `text/html` …).
    OtherText,
    /// Any other type (`application/octet-stream`, `application/json` …).
    Other,
}

impl MediaClass {
    /// The name used in the JSON trail.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            MediaClass::Local => "local",
            MediaClass::Missing => "missing",
            MediaClass::ApplicationXml => "application-xml",
            MediaClass::TextXml => "text-xml",
            MediaClass::OtherText => "other-text",
            MediaClass::Other => "other",
        }
    }

    /// True for the two XML classes RFC 3023 defines.
    #[must_use]
    pub fn is_xml(self) -> bool {
        matches!(self, MediaClass::ApplicationXml | MediaClass::TextXml)
    }
}

/// A parsed `Content-Type` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentType {
    /// `type/subtype`, lower-cased and trimmed (may be empty).
    pub essence: String,
    /// The `charset` parameter, unquoted and trimmed, as written (case kept).
    pub charset: Option<String>,
}

impl ContentType {
    /// Parses a header value. Never fails; garbage gives an odd essence and no charset.
    #[must_use]
    pub fn parse(value: &str) -> Self {
        let mut parts = value.split(';');
        let essence = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let mut charset = None;
        for param in parts {
            let Some((key, val)) = param.split_once('=') else {
                continue;
            };
            if key.trim().eq_ignore_ascii_case("charset") {
                let v = val.trim().trim_matches(|c| c == '"' || c == '\'').trim();
                charset = (!v.is_empty()).then(|| v.to_owned());
            }
        }
        ContentType { essence, charset }
    }

    /// The RFC 3023 class of this media type.
    #[must_use]
    pub fn class(&self) -> MediaClass {
        let e = self.essence.as_str();
        let (ty, sub) = e.split_once('/').unwrap_or((e, ""));
        let xml_suffix = sub.ends_with("+xml");
        match ty {
            "" => MediaClass::Missing,
            "application"
                if matches!(sub, "xml" | "xml-dtd" | "xml-external-parsed-entity")
                    || xml_suffix =>
            {
                MediaClass::ApplicationXml
            }
            "text" if matches!(sub, "xml" | "xml-external-parsed-entity") || xml_suffix => {
                MediaClass::TextXml
            }
            "text" => MediaClass::OtherText,
            _ => MediaClass::Other,
        }
    }
}

/// The media type and class of a transport: `(None, Local)` for local bytes,
/// `(None, Missing)` for an HTTP response without a Content-Type.
#[must_use]
pub fn classify(transport: &Transport) -> (Option<ContentType>, MediaClass) {
    match transport.headers() {
        None => (None, MediaClass::Local),
        Some(h) => match h.get("content-type") {
            Some(v) if !v.trim().is_empty() => {
                let ct = ContentType::parse(v);
                let class = ct.class();
                (Some(ct), class)
            }
            _ => (None, MediaClass::Missing),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_forms() {
        let cases = [
            (
                "text/xml;charset= \"us-ascii\"",
                "text/xml",
                Some("us-ascii"),
            ),
            (
                "application/atom+xml;charset='us-ascii'",
                "application/atom+xml",
                Some("us-ascii"),
            ),
            (
                "application/xml;charset = us-ascii",
                "application/xml",
                Some("us-ascii"),
            ),
            ("Text/XML; Charset=UTF-8", "text/xml", Some("UTF-8")),
            ("text/xml; charset:iso-8859-1", "text/xml", None),
            ("text/xml;", "text/xml", None),
            ("text/xml; qs=0.9", "text/xml", None),
            ("text/xml; charset=\"\"", "text/xml", None),
            ("text/xml; charset=a; charset=b", "text/xml", Some("b")),
            ("", "", None),
        ];
        for (value, essence, charset) in cases {
            let ct = ContentType::parse(value);
            assert_eq!(ct.essence, essence, "{value}");
            assert_eq!(ct.charset.as_deref(), charset, "{value}");
        }
    }

    #[test]
    fn classes() {
        let cases = [
            ("application/xml", MediaClass::ApplicationXml),
            ("application/xml-dtd", MediaClass::ApplicationXml),
            (
                "application/xml-external-parsed-entity",
                MediaClass::ApplicationXml,
            ),
            ("application/rss+xml", MediaClass::ApplicationXml),
            ("APPLICATION/ATOM+XML", MediaClass::ApplicationXml),
            ("text/xml", MediaClass::TextXml),
            ("text/xml-external-parsed-entity", MediaClass::TextXml),
            ("text/rss+xml", MediaClass::TextXml),
            ("text/plain", MediaClass::OtherText),
            ("text/html", MediaClass::OtherText),
            ("application/octet-stream", MediaClass::Other),
            ("application/xml-foo", MediaClass::Other),
            ("garbage", MediaClass::Other),
        ];
        for (value, class) in cases {
            assert_eq!(ContentType::parse(value).class(), class, "{value}");
        }
    }

    #[test]
    fn transport_classes() {
        assert_eq!(classify(&Transport::Local).1, MediaClass::Local);
        let no_ct = Transport::Http(crate::Headers::new().with("etag", "x"));
        assert_eq!(classify(&no_ct).1, MediaClass::Missing);
        assert_eq!(
            classify(&Transport::content_type("  ")).1,
            MediaClass::Missing
        );
        assert_eq!(
            classify(&Transport::content_type("text/xml")).1,
            MediaClass::TextXml
        );
    }
}
