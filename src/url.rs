//! Reference resolution the way feedparser does it: Python's `urllib.parse.urljoin`
//! (which is RFC 3986 with Python's own scheme tables and a collapse of empty path
//! segments) behind feedparser's fix for extra slashes after `scheme://`.
//!
//! Written here because feedparser's results depend on these exact rules (the `url`
//! crate follows the WHATWG URL standard, which normalises differently); the tables are
//! facts about Python 3.11's `urllib.parse`.

/// Schemes whose references are resolved against a base (Python's `uses_relative`).
const USES_RELATIVE: &[&str] = &[
    "", "file", "ftp", "gopher", "http", "https", "imap", "mms", "nntp", "prospero", "rtsp",
    "rtsps", "rtspu", "sftp", "shttp", "svn", "svn+ssh", "wais", "ws", "wss",
];

/// Schemes with an authority part (Python's `uses_netloc`).
const USES_NETLOC: &[&str] = &[
    "", "file", "ftp", "git", "git+ssh", "gopher", "http", "https", "imap", "mms", "nfs", "nntp",
    "prospero", "rsync", "rtsp", "rtsps", "rtspu", "sftp", "shttp", "snews", "svn", "svn+ssh",
    "telnet", "wais", "ws", "wss",
];

/// Schemes whose last path segment may carry `;params` (Python's `uses_params`).
const USES_PARAMS: &[&str] = &[
    "", "ftp", "hdl", "http", "https", "imap", "mms", "prospero", "rtsp", "rtsps", "rtspu", "sftp",
    "shttp", "sip", "sips", "tel",
];

/// The six parts of a reference (`scheme://netloc/path;params?query#fragment`).
#[derive(Debug, Default, PartialEq)]
struct Parts {
    scheme: String,
    netloc: String,
    path: String,
    params: String,
    query: String,
    fragment: String,
}

fn is_scheme_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
}

/// The scheme of `s` as a browser-agnostic parser sees it: leading C0 controls and spaces
/// ignored, tab/CR/LF removed, letters then `[A-Za-z0-9+.-]*` before the first `:`,
/// lower-cased. `None` when `s` has no scheme. Borrowed from `s` when it is written that
/// way already (`http:`), which is almost always.
pub(crate) fn scheme_of(s: &str) -> Option<std::borrow::Cow<'_, str>> {
    let s = s.trim_start_matches(|c: char| c <= ' ');
    let b = s.as_bytes();
    let plain = b.iter().position(|&c| {
        !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.'))
    });
    if let Some(colon) = plain.filter(|&i| b[i] == b':' && i > 0)
        && b[0].is_ascii_lowercase()
    {
        return Some(std::borrow::Cow::Borrowed(&s[..colon]));
    }
    let mut scheme = String::new();
    for c in s.chars() {
        match c {
            '\t' | '\r' | '\n' => {}
            ':' => {
                return scheme
                    .starts_with(|c: char| c.is_ascii_alphabetic())
                    .then_some(std::borrow::Cow::Owned(scheme));
            }
            c if is_scheme_char(c) => scheme.push(c.to_ascii_lowercase()),
            _ => return None,
        }
    }
    None
}

/// `urllib.parse.urlparse(url, default_scheme)`. `None` where Python raises
/// `ValueError` (an unbalanced IPv6 bracket).
fn urlparse(url: &str, default_scheme: &str) -> Option<Parts> {
    let url: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\r' | '\n'))
        .collect();
    let mut rest = url.as_str();
    let mut p = Parts {
        scheme: default_scheme.to_owned(),
        ..Parts::default()
    };
    if let Some(i) = rest.find(':')
        && i > 0
        && rest.as_bytes()[0].is_ascii_alphabetic()
        && rest[..i].chars().all(is_scheme_char)
    {
        p.scheme = rest[..i].to_ascii_lowercase();
        rest = &rest[i + 1..];
    }
    if let Some(r) = rest.strip_prefix("//") {
        let end = r.find(['/', '?', '#']).unwrap_or(r.len());
        p.netloc = r[..end].to_owned();
        rest = &r[end..];
        if p.netloc.contains('[') != p.netloc.contains(']') {
            return None;
        }
    }
    if let Some((before, frag)) = rest.split_once('#') {
        p.fragment = frag.to_owned();
        rest = before;
    }
    if let Some((before, query)) = rest.split_once('?') {
        p.query = query.to_owned();
        rest = before;
    }
    if USES_PARAMS.contains(&p.scheme.as_str()) && rest.contains(';') {
        let from = rest.rfind('/').unwrap_or(0);
        if let Some(i) = rest[from..].find(';').map(|i| i + from) {
            p.params = rest[i + 1..].to_owned();
            rest = &rest[..i];
        }
    }
    p.path = rest.to_owned();
    Some(p)
}

/// `urllib.parse.urlunparse`.
fn urlunparse(p: &Parts) -> String {
    let mut path = p.path.clone();
    if !p.params.is_empty() {
        path = format!("{path};{}", p.params);
    }
    let mut out = String::with_capacity(path.len() + p.netloc.len() + 16);
    if !p.scheme.is_empty() {
        out.push_str(&p.scheme);
        out.push(':');
    }
    if !p.netloc.is_empty()
        || (!p.scheme.is_empty()
            && USES_NETLOC.contains(&p.scheme.as_str())
            && !path.starts_with("//"))
    {
        out.push_str("//");
        out.push_str(&p.netloc);
        if !path.is_empty() && !path.starts_with('/') {
            out.push('/');
        }
    }
    out.push_str(&path);
    if !p.query.is_empty() {
        out.push('?');
        out.push_str(&p.query);
    }
    if !p.fragment.is_empty() {
        out.push('#');
        out.push_str(&p.fragment);
    }
    out
}

/// `urllib.parse.urljoin(base, reference)`; `None` where Python raises `ValueError`.
fn py_urljoin(base: &str, reference: &str) -> Option<String> {
    if base.is_empty() {
        return Some(reference.to_owned());
    }
    if reference.is_empty() {
        return Some(base.to_owned());
    }
    let b = urlparse(base, "")?;
    let mut r = urlparse(reference, &b.scheme)?;
    if r.scheme != b.scheme || !USES_RELATIVE.contains(&r.scheme.as_str()) {
        return Some(reference.to_owned());
    }
    if USES_NETLOC.contains(&r.scheme.as_str()) {
        if !r.netloc.is_empty() {
            return Some(urlunparse(&r));
        }
        r.netloc = b.netloc.clone();
    }
    if r.path.is_empty() && r.params.is_empty() {
        r.path = b.path;
        r.params = b.params;
        if r.query.is_empty() {
            r.query = b.query;
        }
        return Some(urlunparse(&r));
    }
    let mut segments: Vec<&str> = Vec::new();
    if r.path.starts_with('/') {
        segments.extend(r.path.split('/'));
    } else {
        let mut base_parts: Vec<&str> = b.path.split('/').collect();
        if base_parts.last().is_some_and(|s| !s.is_empty()) {
            base_parts.pop();
        }
        segments.extend(base_parts);
        segments.extend(r.path.split('/'));
        // Empty segments in the middle would give redundant slashes: Python drops them.
        if segments.len() > 2 {
            let last = segments.len() - 1;
            let mut kept: Vec<&str> = Vec::with_capacity(segments.len());
            kept.push(segments[0]);
            kept.extend(segments[1..last].iter().filter(|s| !s.is_empty()));
            kept.push(segments[last]);
            segments = kept;
        }
    }
    let mut resolved: Vec<&str> = Vec::with_capacity(segments.len());
    for seg in &segments {
        match *seg {
            ".." => {
                resolved.pop();
            }
            "." => {}
            s => resolved.push(s),
        }
    }
    if matches!(segments.last(), Some(&".." | &".")) {
        resolved.push("");
    }
    let joined = resolved.join("/");
    r.path = if joined.is_empty() {
        "/".into()
    } else {
        joined
    };
    Some(urlunparse(&r))
}

/// Resolves `reference` against `base` as feedparser's `_urljoin` does: extra slashes
/// after `scheme://` are dropped, then Python's `urljoin`; a reference Python refuses
/// (an unbalanced IPv6 bracket) resolves to the empty string.
#[must_use]
pub fn urljoin(base: &str, reference: &str) -> String {
    let fixed = fix_slashes(reference);
    py_urljoin(base, &fixed).unwrap_or_default()
}

/// feedparser's `_urifixer`: `^([A-Za-z][A-Za-z0-9+,.-]*://)(/*)` keeps only the first
/// part, so `http:////x` becomes `http://x`.
fn fix_slashes(reference: &str) -> std::borrow::Cow<'_, str> {
    let b = reference.as_bytes();
    if b.first().is_some_and(u8::is_ascii_alphabetic)
        && let Some(i) = reference.find("://")
        && b[1..i]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b',' | b'-' | b'.'))
    {
        let after = i + 3;
        let extra = b[after..].iter().take_while(|&&c| c == b'/').count();
        if extra > 0 {
            return format!("{}{}", &reference[..after], &reference[after + extra..]).into();
        }
    }
    reference.into()
}

#[cfg(test)]
mod tests {
    use super::{scheme_of, urljoin};

    #[test]
    fn joins_like_python() {
        assert_eq!(urljoin("http://a/b/c/d", "g"), "http://a/b/c/g");
        assert_eq!(urljoin("http://a/b/c/d", "../g"), "http://a/b/g");
        assert_eq!(urljoin("http://a/b/c/d", "/g"), "http://a/g");
        assert_eq!(urljoin("http://a/b", "http://x/y"), "http://x/y");
        assert_eq!(urljoin("", "rel"), "rel");
        assert_eq!(urljoin("http://a/b//c/d", "../x"), "http://a/b/x");
        assert_eq!(urljoin("http://a/b/c", "//x"), "http://x");
        assert_eq!(urljoin("mailto:a@b", "x"), "x");
        assert_eq!(urljoin("http://b/c/d", "HTTP://x/"), "http://x/");
        assert_eq!(urljoin("http://b/c/d", "http:////x/y"), "http://x/y");
        assert_eq!(urljoin("http://b/c/d?q#f", "#g"), "http://b/c/d?q#g");
        assert_eq!(urljoin("http://b/c/d?q", "?r"), "http://b/c/d?r");
        assert_eq!(urljoin("http://b/c/d;p?q", ""), "http://b/c/d;p?q");
        assert_eq!(urljoin("http://b/c/", "../../../x"), "http://b/x");
        assert_eq!(urljoin("http://b/c/d", "."), "http://b/c/");
        assert_eq!(urljoin("http://b", "x"), "http://b/x");
        assert_eq!(urljoin("http://b/c", "http://[::1/x"), "");
    }

    #[test]
    fn schemes() {
        assert_eq!(scheme_of(" java\tscript:x").as_deref(), Some("javascript"));
        assert_eq!(scheme_of("HTTP://x").as_deref(), Some("http"));
        assert_eq!(scheme_of("/a:b"), None);
        assert_eq!(scheme_of("a&b:c"), None);
        // The fast path (borrowed) and the slow one agree.
        for (s, want) in [
            ("http://x", Some("http")),
            ("svn+ssh://x", Some("svn+ssh")),
            ("a1.b-c:", Some("a1.b-c")),
            (":x", None),
            ("1a:x", None),
            ("  mailto:x", Some("mailto")),
            ("Mailto:x", Some("mailto")),
            ("ja\nva:x", Some("java")),
            ("nocolon", None),
            ("", None),
        ] {
            assert_eq!(scheme_of(s).as_deref(), want, "{s:?}");
        }
        assert_eq!(scheme_of("nocolon"), None);
    }
}
