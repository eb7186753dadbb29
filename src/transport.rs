//! Where the bytes came from: local bytes, or an HTTP response with its headers.
//!
//! feedparser treats the two differently: without any transport metadata the XML
//! declaration (or UTF-8) decides; an HTTP response without a Content-Type header defaults
//! to ISO-8859-1 and is flagged `NonXMLContentType`.

/// Response headers, names lower-cased, in the order received. Lookups are
/// case-insensitive; a repeated header keeps every value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    entries: Vec<(String, String)>,
}

impl Headers {
    /// No headers.
    #[must_use]
    pub fn new() -> Self {
        Headers::default()
    }

    /// Adds a header (the name is lower-cased, the value trimmed).
    pub fn append(&mut self, name: &str, value: &str) {
        self.entries.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }

    /// Builder form of [`Headers::append`].
    #[must_use]
    pub fn with(mut self, name: &str, value: &str) -> Self {
        self.append(name, value);
        self
    }

    /// Parses one `Name: value` line; `None` when there is no colon or no name.
    #[must_use]
    pub fn parse_line(line: &str) -> Option<(String, String)> {
        let (name, value) = line.split_once(':')?;
        let name = name.trim();
        if name.is_empty() {
            return None;
        }
        Some((name.to_ascii_lowercase(), value.trim().to_owned()))
    }

    /// The first value of header `name` (case-insensitive).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.entries.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Replaces every value of `name` with one value.
    pub fn set(&mut self, name: &str, value: &str) {
        self.entries.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.append(name, value);
    }

    /// All headers, names lower-cased, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// True when there are no headers.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<N: AsRef<str>, V: AsRef<str>> FromIterator<(N, V)> for Headers {
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Self {
        let mut h = Headers::new();
        for (n, v) in iter {
            h.append(n.as_ref(), v.as_ref());
        }
        h
    }
}

/// How the bytes reached us.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// Local bytes with no transport metadata (a file, a database blob).
    #[default]
    Local,
    /// An HTTP response; its headers may lack a Content-Type.
    Http(Headers),
}

impl Transport {
    /// An HTTP response with only a Content-Type header.
    #[must_use]
    pub fn content_type(value: &str) -> Self {
        Transport::Http(Headers::new().with("content-type", value))
    }

    /// The HTTP headers, if this is an HTTP response.
    #[must_use]
    pub fn headers(&self) -> Option<&Headers> {
        match self {
            Transport::Local => None,
            Transport::Http(h) => Some(h),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lookup_is_case_insensitive_and_set_replaces() {
        let mut h = Headers::new().with("Content-Type", " text/xml ");
        assert_eq!(h.get("content-type"), Some("text/xml"));
        assert_eq!(h.get("CONTENT-TYPE"), Some("text/xml"));
        h.set("content-type", "application/xml");
        assert_eq!(h.iter().count(), 1);
        assert_eq!(h.get("Content-Type"), Some("application/xml"));
    }

    #[test]
    fn parse_line_needs_a_name_and_colon() {
        assert_eq!(Headers::parse_line("ETag: \"x:y\""), Some(("etag".into(), "\"x:y\"".into())));
        assert_eq!(Headers::parse_line("no colon"), None);
        assert_eq!(Headers::parse_line(": value"), None);
    }
}
