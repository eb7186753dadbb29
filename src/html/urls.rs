//! URLs in attribute values: which attributes hold one, whether a value is safe to keep
//! (its character references decoded and tab/newline removed, as a browser reads it),
//! and resolution against the base.

use super::*;

/// The camel-case spelling of an SVG element or attribute name.
pub(super) fn svg_case(lower: &str) -> &str {
    match SVG_CASED.binary_search_by(|(l, _)| l.cmp(&lower)) {
        Ok(i) => SVG_CASED[i].1,
        Err(_) => lower,
    }
}

/// Attributes whose value is a URL a browser may load or navigate to.
pub(super) fn is_url_attribute(key: &str) -> bool {
    matches!(
        key,
        "href"
            | "src"
            | "action"
            | "formaction"
            | "background"
            | "poster"
            | "cite"
            | "longdesc"
            | "usemap"
            | "codebase"
            | "data"
            | "classid"
            | "profile"
            | "dynsrc"
            | "lowsrc"
            | "xlink:href"
    )
}

/// Whether a URL attribute's value is safe as a browser reads it: references decoded,
/// tab and newline removed. Links (`href`, `xlink:href`) need a scheme on the safe list
/// (feedparser's rule, applied to what the browser sees); other URL attributes may not
/// use a scheme that runs script, and `data:` only for images, audio and video.
pub(super) fn url_is_safe(element: &str, key: &str, value: &str) -> bool {
    // Only what precedes the first ':', '/', '?' or '#' can be a scheme: when it holds
    // no reference and no character a browser strips, the value is read as written.
    let head_end = value
        .bytes()
        .position(|c| matches!(c, b':' | b'/' | b'?' | b'#'))
        .unwrap_or(value.len());
    let head = &value[..head_end];
    if !head.contains('&') && !head.bytes().any(|c| c <= b' ') {
        if !value[head_end..].starts_with(':') {
            return true;
        }
        let lower: Cow<'_, str> = if head.bytes().any(|c| c.is_ascii_uppercase()) {
            Cow::Owned(head.to_ascii_lowercase())
        } else {
            Cow::Borrowed(head)
        };
        return scheme_allowed(element, key, &lower, &value[head_end + 1..]);
    }
    let decoded = decode_refs(value);
    let cleaned: String = decoded
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let Some(colon) = cleaned.find(':') else {
        return true;
    };
    let head = &cleaned[..colon];
    if head.contains(['/', '?', '#']) {
        return true; // a path, not a scheme
    }
    let Some(scheme) = scheme_of(&cleaned) else {
        // Something before ':' that is no scheme; refuse what could hide one.
        return !head.contains(['&', '\\']) && !head.chars().any(char::is_control);
    };
    scheme_allowed(element, key, &scheme, &cleaned[colon + 1..])
}

/// Whether `scheme` (lower-cased; `rest` is what follows its ':') is allowed in `key`.
pub(super) fn scheme_allowed(element: &str, key: &str, scheme: &str, rest: &str) -> bool {
    if !scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        || !scheme
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
    {
        // Not a scheme: a relative reference with a ':' in it.
        return !scheme.contains(['&', '\\']);
    }
    if lists::is_uri_scheme(scheme) {
        return true;
    }
    if matches!(key, "href" | "xlink:href") {
        return false;
    }
    match scheme {
        "javascript" | "vbscript" | "livescript" | "mocha" | "jar" | "mhtml" | "ms-its"
        | "view-source" | "x-javascript" | "wysiwyg" => false,
        "data" => {
            matches!(key, "src" | "poster")
                && matches!(element, "img" | "video" | "audio" | "source")
                && {
                    let mime = rest.trim_start().to_ascii_lowercase();
                    ["image/", "audio/", "video/"]
                        .iter()
                        .any(|p| mime.starts_with(p))
                        && !mime.starts_with("image/svg")
                }
        }
        _ => true,
    }
}

/// Decodes character and entity references the way a browser does in an attribute
/// (numeric with or without `;`, named with `;` from WHATWG's table, legacy names without
/// it).
pub(super) fn decode_refs(value: &str) -> Cow<'_, str> {
    if !value.contains('&') {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(num) = after.strip_prefix('#') {
            let (hex, digits) = match num.strip_prefix(['x', 'X']) {
                Some(h) => (true, h),
                None => (false, num),
            };
            let len = digit_run(digits, hex);
            if len > 0 {
                let code = u32::from_str_radix(&digits[..len], if hex { 16 } else { 10 })
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or('\u{fffd}');
                let code = if (0x80..0xa0).contains(&u32::from(code)) {
                    crate::charset::repair::cp1252(code).unwrap_or(code)
                } else {
                    code
                };
                out.push(code);
                let used = after.len() - digits.len() + len;
                rest = &after[used..];
                rest = rest.strip_prefix(';').unwrap_or(rest);
                continue;
            }
        } else {
            let len = after
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(after.len());
            let name = &after[..len];
            if len > 0 {
                if after[len..].starts_with(';')
                    && let Some(s) = crate::entities::html_entity(name)
                {
                    out.push_str(&s);
                    rest = &after[len + 1..];
                    continue;
                }
                // Legacy names a browser decodes without ';' (the longest prefix; HTML 4
                // names too, which decodes more than a browser does and so refuses more).
                if let Some((k, s)) = (2..=len.min(8)).rev().find_map(|k| {
                    let name = &after[..k];
                    let text = match crate::entities::html4(name) {
                        Some(c) => Some(Cow::Owned(c.to_string())),
                        None if crate::entities::is_html5_legacy(name) => {
                            crate::entities::html5(name).map(Cow::Borrowed)
                        }
                        None => None,
                    };
                    text.map(|s| (k, s))
                }) {
                    out.push_str(&s);
                    rest = &after[k..];
                    continue;
                }
            }
        }
        out.push('&');
        rest = after;
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// feedparser's `make_safe_absolute_uri(base, reference)`: no base keeps the reference,
/// an empty reference gives the base (if its scheme is safe), and a joined URI whose
/// scheme is not on the list becomes empty.
pub(super) fn safe_join(base: &str, reference: &str) -> String {
    if base.is_empty() {
        return reference.to_owned();
    }
    if reference.is_empty() {
        return match scheme_of(base) {
            Some(s) if !lists::is_uri_scheme(&s) => String::new(),
            _ => base.to_owned(),
        };
    }
    let uri = urljoin(base, reference);
    let scheme = uri
        .trim_matches(is_py_space)
        .split(':')
        .next()
        .unwrap_or("");
    if lists::is_uri_scheme(scheme) {
        uri
    } else {
        String::new()
    }
}
