//! A small RFC 3986 reference resolver (for `xml:base` bookkeeping).

fn split_scheme(s: &str) -> Option<(&str, &str)> {
    let i = s.find(':')?;
    let scheme = &s[..i];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    if first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        Some((scheme, &s[i + 1..]))
    } else {
        None
    }
}

fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = path.split('/').collect();
    let n = segs.len();
    for (i, seg) in segs.iter().enumerate() {
        match *seg {
            "." => {
                if i == n - 1 {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i == n - 1 {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

/// Resolves `reference` against `base` (an empty base returns the reference).
#[must_use]
pub fn urljoin(base: &str, reference: &str) -> String {
    let reference = reference.trim();
    if base.is_empty() {
        return reference.to_owned();
    }
    if reference.is_empty() {
        return base.to_owned();
    }
    if split_scheme(reference).is_some() {
        return reference.to_owned();
    }
    let Some((scheme, rest)) = split_scheme(base) else {
        return reference.to_owned();
    };
    if let Some(r) = reference.strip_prefix("//") {
        return format!("{scheme}://{r}");
    }
    let (authority, path_q) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find(['/', '?', '#']).unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    let prefix = match authority {
        Some(a) => format!("{scheme}://{a}"),
        None => format!("{scheme}:"),
    };
    let base_path = &path_q[..path_q.find(['?', '#']).unwrap_or(path_q.len())];
    let base_query_end = path_q.find('#').unwrap_or(path_q.len());
    if reference.starts_with('#') {
        return format!("{prefix}{}{reference}", &path_q[..base_query_end]);
    }
    if reference.starts_with('?') {
        return format!("{prefix}{base_path}{reference}");
    }
    let (rpath, tail) = reference.split_at(reference.find(['?', '#']).unwrap_or(reference.len()));
    let merged = if rpath.starts_with('/') {
        rpath.to_owned()
    } else {
        let dir = match base_path.rfind('/') {
            Some(i) => &base_path[..=i],
            None if authority.is_some() => "/",
            None => "",
        };
        format!("{dir}{rpath}")
    };
    format!("{prefix}{}{tail}", remove_dot_segments(&merged))
}

#[cfg(test)]
mod tests {
    use super::urljoin;

    #[test]
    fn joins() {
        assert_eq!(urljoin("http://a/b/c/d", "g"), "http://a/b/c/g");
        assert_eq!(urljoin("http://a/b/c/d", "../g"), "http://a/b/g");
        assert_eq!(urljoin("http://a/b/c/d", "/g"), "http://a/g");
        assert_eq!(urljoin("http://a/b", "http://x/y"), "http://x/y");
        assert_eq!(urljoin("", "rel"), "rel");
    }
}
