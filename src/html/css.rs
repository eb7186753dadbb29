//! The `style` attribute filter: feedparser's rules, each a linear scan.
//!
//! 1. `url(…)` is removed.
//! 2. The whole value must consist of safe pieces: `[:,;#%.\sa-zA-Z0-9!]`, a hyphen
//!    between word characters, a quoted run of words and spaces, or a parenthesised run
//!    of digits, commas and spaces — so no `expression(`, no `\` escapes, no `&`.
//! 3. It must be a list of `property: value;` declarations and nothing else.
//! 4. A declaration is kept when its property is on the CSS list; for `background*`,
//!    `border*`, `margin*` and `padding*` when every value keyword is a known keyword or
//!    a colour or length; inside SVG also for the SVG properties.

use super::lists::{CSS_KEYWORDS, CSS_PROPERTIES, SVG_PROPERTIES};
use super::{AllowList, SanitizePolicy, contains, is_py_space, is_word};

/// Whether `list` (one of the CSS lists) holds `name`: the policy's when there is one,
/// else the compiled-in table.
fn listed(policy: Option<&SanitizePolicy>, list: AllowList, name: &str) -> bool {
    match policy {
        Some(p) => p.has(list, name),
        None => contains(
            match list {
                AllowList::CssProperties => CSS_PROPERTIES,
                AllowList::CssKeywords => CSS_KEYWORDS,
                _ => SVG_PROPERTIES,
            },
            name,
        ),
    }
}

/// The cleaned `style` value (empty when nothing may stay), with the CSS lists of
/// `policy` (feedparser's without one).
pub(super) fn sanitize_style(style: &str, in_svg: bool, policy: Option<&SanitizePolicy>) -> String {
    let style = remove_urls(style);
    if !gauntlet(&style) || !only_declarations(&style) {
        return String::new();
    }
    let mut clean: Vec<String> = Vec::new();
    for (prop, value) in declarations(&style) {
        if value.is_empty() {
            continue;
        }
        let lower = prop.to_lowercase();
        let family = lower.split('-').next().unwrap_or("");
        let keep = if listed(policy, AllowList::CssProperties, &lower) {
            true
        } else if matches!(family, "background" | "border" | "margin" | "padding") {
            value
                .split(is_py_space)
                .filter(|k| !k.is_empty())
                .all(|k| listed(policy, AllowList::CssKeywords, k) || valid_css_value(k))
        } else {
            in_svg && listed(policy, AllowList::SvgProperties, &lower)
        };
        if keep {
            clean.push(format!("{prop}: {value};"));
        }
    }
    clean.join(" ")
}

/// `url\s*\(\s*[^\s)]+?\s*\)\s*` replaced by a space.
fn remove_urls(style: &str) -> String {
    if !style.contains("url") {
        return style.to_owned();
    }
    let mut out = String::with_capacity(style.len());
    let mut rest = style;
    while let Some(i) = rest.find("url") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 3..];
        match url_call_len(after) {
            Some(len) => {
                out.push(' ');
                rest = &after[len..];
            }
            None => {
                out.push_str("url");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The length of `\s*\(\s*[^\s)]+?\s*\)\s*` at the start of `s`.
fn url_call_len(s: &str) -> Option<usize> {
    let skip = |s: &str, from: usize| {
        from + (s[from..].len() - s[from..].trim_start_matches(is_py_space).len())
    };
    let mut p = skip(s, 0);
    if !s[p..].starts_with('(') {
        return None;
    }
    p = skip(s, p + 1);
    let body = s[p..]
        .find(|c: char| is_py_space(c) || c == ')')
        .unwrap_or(s.len() - p);
    if body == 0 {
        return None;
    }
    p = skip(s, p + body);
    if !s[p..].starts_with(')') {
        return None;
    }
    Some(skip(s, p + 1))
}

/// `^([:,;#%.\sa-zA-Z0-9!]|\w-\w|'[\s\w]+'|"[\s\w]+"|\([\d,\s]+\))*$`, decided by which
/// positions can be reached.
fn gauntlet(style: &str) -> bool {
    let chars: Vec<char> = style.chars().collect();
    let n = chars.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for p in 0..n {
        if !reach[p] {
            continue;
        }
        let c = chars[p];
        if c.is_ascii_alphanumeric() || ":,;#%.!".contains(c) || is_py_space(c) {
            reach[p + 1] = true;
        }
        if p + 2 < n && is_word(c) && chars[p + 1] == '-' && is_word(chars[p + 2]) {
            reach[p + 3] = true;
        }
        if c == '\'' || c == '"' {
            let run = chars[p + 1..]
                .iter()
                .take_while(|&&x| is_py_space(x) || is_word(x))
                .count();
            if run > 0 && chars.get(p + 1 + run) == Some(&c) {
                reach[p + 2 + run] = true;
            }
        }
        if c == '(' {
            let run = chars[p + 1..]
                .iter()
                .take_while(|&&x| x.is_numeric() || x == ',' || is_py_space(x))
                .count();
            if run > 0 && chars.get(p + 1 + run) == Some(&')') {
                reach[p + 2 + run] = true;
            }
        }
    }
    reach[n]
}

/// Whether `\s*[-\w]+\s*:\s*[^:;]*;?` removed everywhere leaves only spaces.
fn only_declarations(style: &str) -> bool {
    let mut rest = style;
    loop {
        let trimmed = rest.trim_start_matches(is_py_space);
        if trimmed.is_empty() {
            return true;
        }
        match declaration_len(trimmed) {
            Some(len) => rest = &trimmed[len..],
            None => return false,
        }
    }
}

/// The length of `[-\w]+\s*:\s*[^:;]*;?` at the start of `s`.
fn declaration_len(s: &str) -> Option<usize> {
    let name = s
        .find(|c: char| !(is_word(c) || c == '-'))
        .unwrap_or(s.len());
    if name == 0 {
        return None;
    }
    let after = &s[name..];
    let sp = after.len() - after.trim_start_matches(is_py_space).len();
    if !after[sp..].starts_with(':') {
        return None;
    }
    let value_start = name + sp + 1;
    let value = s[value_start..]
        .find([':', ';'])
        .unwrap_or(s.len() - value_start);
    let mut end = value_start + value;
    if s[end..].starts_with(';') {
        end += 1;
    }
    Some(end)
}

/// `([-\w]+)\s*:\s*([^:;]*)` over a value made only of declarations.
fn declarations(style: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = style;
    while let Some(start) = rest.find(|c: char| is_word(c) || c == '-') {
        let s = &rest[start..];
        let name = s
            .find(|c: char| !(is_word(c) || c == '-'))
            .unwrap_or(s.len());
        let after = &s[name..];
        let sp = after.len() - after.trim_start_matches(is_py_space).len();
        if !after[sp..].starts_with(':') {
            rest = &s[name..];
            continue;
        }
        let v = &after[sp + 1..];
        let v = v.trim_start_matches(is_py_space);
        let len = v.find([':', ';']).unwrap_or(v.len());
        out.push((&s[..name], &v[..len]));
        rest = &v[len..];
    }
    out
}

/// `^(#[0-9a-f]+|rgb\(\d+%?,\d*%?,?\d*%?\)?|\d{0,2}\.?\d{0,2}(cm|em|ex|in|mm|pc|pt|px|%|,|\))?)$`
fn valid_css_value(k: &str) -> bool {
    if let Some(hex) = k.strip_prefix('#') {
        return !hex.is_empty() && hex.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    }
    if let Some(args) = k.strip_prefix("rgb(") {
        return rgb_args(args);
    }
    let digits = |s: &str, max: usize| s.chars().take(max).take_while(|c| c.is_numeric()).count();
    let units = [
        "cm", "em", "ex", "in", "mm", "pc", "pt", "px", "%", ",", ")", "",
    ];
    let d1_max = digits(k, 2);
    for d1 in (0..=d1_max).rev() {
        let a = &k[k.char_indices().nth(d1).map_or(k.len(), |(i, _)| i)..];
        for dot in [true, false] {
            let b = if dot {
                match a.strip_prefix('.') {
                    Some(b) => b,
                    None => continue,
                }
            } else {
                a
            };
            let d2_max = digits(b, 2);
            for d2 in (0..=d2_max).rev() {
                let c = &b[b.char_indices().nth(d2).map_or(b.len(), |(i, _)| i)..];
                if units.contains(&c) {
                    return true;
                }
            }
        }
    }
    false
}

/// `\d+%?,\d*%?,?\d*%?\)?$` after `rgb(`.
fn rgb_args(s: &str) -> bool {
    let num = |s: &str, min: usize| -> Option<usize> {
        let n = s
            .chars()
            .take_while(|c| c.is_numeric())
            .map(char::len_utf8)
            .sum::<usize>();
        (n >= min).then_some(n)
    };
    let pct = |s: &str| usize::from(s.starts_with('%'));
    let Some(mut p) = num(s, 1) else { return false };
    p += pct(&s[p..]);
    if !s[p..].starts_with(',') {
        return false;
    }
    p += 1;
    // The rest: \d*%?,?\d*%?\)? — greedy pieces suffice: each is optional and they use
    // distinct characters in order.
    p += num(&s[p..], 0).unwrap_or(0);
    p += pct(&s[p..]);
    if s[p..].starts_with(',') {
        p += 1;
    }
    p += num(&s[p..], 0).unwrap_or(0);
    p += pct(&s[p..]);
    if s[p..].starts_with(')') {
        p += 1;
    }
    p == s.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles() {
        assert_eq!(sanitize_style("color: red", false, None), "color: red;");
        assert_eq!(
            sanitize_style("color: red; background: url(x)", false, None),
            "color: red;"
        );
        assert_eq!(
            sanitize_style("margin: 0 auto; padding: 1em 2px", false, None),
            "margin: 0 auto; padding: 1em 2px;"
        );
        assert_eq!(
            sanitize_style("margin: expression(alert(1))", false, None),
            ""
        );
        assert_eq!(
            sanitize_style("color: red; behavior: x", false, None),
            "color: red;"
        );
        assert_eq!(sanitize_style("fill: red", false, None), "");
        assert_eq!(sanitize_style("fill: red", true, None), "fill: red;");
        assert_eq!(sanitize_style("color: &#114;ed", false, None), "");
        assert_eq!(
            sanitize_style("font-family: 'a b'", false, None),
            "font-family: 'a b';"
        );
    }

    #[test]
    fn css_values() {
        for ok in [
            "#fff",
            "rgb(1,2,3)",
            "rgb(1%,2%,3%)",
            "12px",
            "1.5em",
            "50%",
            "",
            "1234",
            ")",
        ] {
            assert!(valid_css_value(ok), "{ok}");
        }
        for bad in ["#FFF", "12345", "1.234", "red", "rgb(a)", "12qq"] {
            assert!(!valid_css_value(bad), "{bad}");
        }
    }
}
