//! HTML values made safe to display: sanitizing and relative-URI resolution in one
//! linear pass.
//!
//! Every HTML value of a feed (a text construct of type `text/html` or
//! `application/xhtml+xml`: titles, subtitles, summaries, content, rights … of the feed,
//! its entries and their sources) goes through [`HtmlFilter::apply`] once, with the value's
//! base URI (the innermost `xml:base`, else the document's `Content-Location`, else the URL
//! it came from):
//!
//! - **Resolution** rewrites feedparser's (element, attribute) pairs (`a href`, `img src`,
//!   `blockquote cite`, …) against the base. As in feedparser, a result whose scheme is
//!   not on the safe list becomes the empty string, and an empty reference becomes the
//!   base itself.
//! - **Sanitizing** keeps feedparser 6.0.14's allow-lists of elements and attributes
//!   (with SVG and MathML inside `<svg>` and `<math>`, camel case restored), filters
//!   `style` by property and value keyword (no `url()`), drops `script`, `style` and
//!   `applet` with their content, unwraps every other unknown element keeping its text,
//!   drops processing instructions and declarations, and serializes the way feedparser's
//!   tests expect (`<br />`, attributes sorted, double-quoted and escaped).
//!
//! Those lists are compiled in. A caller that wants others (an `iframe` kept for video
//! embeds, an element or attribute removed), as programs change feedparser's
//! `_HTMLSanitizer` sets, gives a [`SanitizePolicy`] ([`HtmlFilter::policy`],
//! [`crate::ParseOptions::sanitize_policy`]); its docs say what the lists decide and
//! what stays enforced whatever they say.
//!
//! ## Why our own tokenizer
//!
//! feedparser's output is defined by an SGML tokenizer (`sgmllib`) with feedparser's own
//! regular expressions: which `<` starts a tag, which bytes end an attribute, that
//! references stay references (`&copy;` is kept, `&bogus;` becomes `&amp;bogus`), that a
//! tag without a closing `>` leaves the rest of the value as text. The HTML5 tokenizers
//! (html5ever's, lol_html) decode references, repair markup and build a tree, so their
//! output cannot equal feedparser's on most of its corpus. This module scans the value
//! with those SGML rules, in one pass, in time linear in its length (every search resumes
//! where the previous one stopped; no backtracking). html5ever is still used, in the tests
//! and the fuzz target, to re-parse our output the way a browser does.
//!
//! ## Character references
//!
//! Named references are written back as references, never decoded. feedparser keeps the
//! HTML 4 names it knows (`&copy;`, and `&copy` without `;`, which it completes); this
//! filter keeps HTML5's names the same way: `&Vcy;`, `&lstrok;` with their `;`, and the
//! six legacy names HTML5 adds that browsers also read without one (`&AMP`, `&LT`, …),
//! where feedparser's tokenizer, which knows only HTML 4, writes `&amp;Vcy` and a
//! browser shows the text `&Vcy`. Kept rather than decoded, for two reasons: the output
//! stays feedparser's wherever feedparser was right (its HTML 4 references are not
//! decoded either), and a reference in text is text to a browser whatever it stands for
//! (`&LT;`, `&lt;`), so a kept reference can never become markup, where a decoded `<`
//! would have to be escaped again. Any other name is text, as in feedparser: an unknown
//! one (`&foo;` → `&amp;foo`) and an HTML5 name without the `;` it needs (`&Vcy ` →
//! `&amp;Vcy `, which a browser also shows as written). The table is WHATWG's (see
//! `tools/gen_html5_entities.py`). In attribute values every reference is kept as
//! written; the URL check reads them with the same table (`jav&Tab;ascript:`,
//! `javascript&colon;`).
//!
//! ## Safer than feedparser
//!
//! Where feedparser's output can run script in a browser, this filter differs (and is
//! otherwise feedparser-exact):
//!
//! - a `<` that would open an element in a browser but that the SGML rules leave as text
//!   (`<svg/onload=…>` without a second `/`, a tag never closed by `>`, an unterminated
//!   declaration) is written `&lt;`, so the browser sees text too;
//! - a comment is kept only when a browser would read it as the same comment: its text
//!   may not start with `>` or `->`, nor hold `-->` or `--!>` (so `<!--><img …>`
//!   and `--!>` tricks are dropped), and no comment is kept inside `noscript`,
//!   `textarea` or SVG's `title`, whose content browsers read as raw text (the
//!   `noscript` mutation; an SVG `title` after an HTML element that ends the SVG, as
//!   `<svg><p><title>`, is HTML's); inside those, every `<` of text is escaped as
//!   well, and only the element's own end tag ends it (`</noscript>` is text inside a
//!   `textarea`);
//! - every URL-bearing attribute (`href`, `src`, `action`, `background`, `poster`,
//!   `cite`, `longdesc`, `usemap`, `xlink:href`, …) is checked, not only `href`, and the
//!   check runs on the value with its character references decoded and tab/newline
//!   removed, as a browser reads it (`jav&#x09;ascript:` is caught); an unsafe value
//!   becomes empty. `data:` is allowed only for images, audio and video in `src`/`poster`;
//! - SVG `animate`/`set` elements may not target `href` with an unsafe value nor name an
//!   event handler in `attributeName`;
//! - an element with a namespace prefix whose local name is `script`, `style` or
//!   `applet` (`<x:script>`) is dropped with its content, like the unprefixed one.

mod css;
mod lists;
mod policy;
mod processor;
mod scan;
mod urls;
pub(crate) use lists::is_void;
pub use policy::{AllowList, SanitizePolicy};
use policy::{Compiled, Lists, Vocabulary};
use processor::*;
use scan::*;
use urls::*;

use std::borrow::Cow;

use crate::url::{scheme_of, urljoin};
use lists::{RELATIVE_URIS, SVG_CASED};

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const MATHML_NS: &str = "http://www.w3.org/1998/Math/MathML";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";

/// Which markup a value holds: it decides two of feedparser's rules (a `/>` closes the
/// element in XHTML; inline `<svg>`/`<math>` get their namespace in HTML).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Markup {
    /// `text/html` (the default).
    #[default]
    Html,
    /// `application/xhtml+xml`.
    Xhtml,
}

/// What to do to one HTML value: sanitize it, resolve its relative URIs, or both.
///
/// ```
/// use feed_decoder::html::HtmlFilter;
///
/// let f = HtmlFilter::new().base(Some("http://example.com/blog/"));
/// let out = f.apply(r#"<p onclick="x()">Hi <a href="post/1">there</a><script>x()</script></p>"#);
/// assert_eq!(out, r#"<p>Hi <a href="http://example.com/blog/post/1">there</a></p>"#);
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct HtmlFilter<'a> {
    sanitize: bool,
    resolve: bool,
    base: Option<&'a str>,
    markup: Markup,
    policy: Option<&'a SanitizePolicy>,
}

impl Default for HtmlFilter<'_> {
    fn default() -> Self {
        HtmlFilter {
            sanitize: true,
            resolve: true,
            base: None,
            markup: Markup::Html,
            policy: None,
        }
    }
}

impl<'a> HtmlFilter<'a> {
    /// Sanitizing and resolution on (feedparser's defaults), no base, `text/html`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether to sanitize. Default: `true`.
    pub fn sanitize(mut self, on: bool) -> Self {
        self.sanitize = on;
        self
    }

    /// Whether to resolve relative URIs. Default: `true`.
    pub fn resolve(mut self, on: bool) -> Self {
        self.resolve = on;
        self
    }

    /// The base URI references are resolved against. Default: none (references are kept
    /// as written).
    pub fn base(mut self, base: Option<&'a str>) -> Self {
        self.base = base;
        self
    }

    /// The markup of the value. Default: [`Markup::Html`].
    pub fn markup(mut self, markup: Markup) -> Self {
        self.markup = markup;
        self
    }

    /// The allow-lists to sanitize with. Default: none, feedparser's lists compiled in
    /// (the fastest path; [`SanitizePolicy::new`] holds the same lists, looked up in hash
    /// sets).
    pub fn policy(mut self, policy: Option<&'a SanitizePolicy>) -> Self {
        self.policy = policy;
        self
    }

    /// Filters one value. A value without `<` and `&` is returned as it is (trimmed when
    /// sanitizing, as feedparser does).
    #[must_use]
    pub fn apply<'v>(&self, value: &'v str) -> Cow<'v, str> {
        if !self.sanitize && !self.resolve {
            return Cow::Borrowed(value);
        }
        if !value.contains(['<', '&']) {
            if !self.sanitize {
                return Cow::Borrowed(value);
            }
            let trimmed = value.trim_matches(is_py_space);
            return if memchr::memchr(b'\r', trimmed.as_bytes()).is_some()
                && trimmed.contains("\r\n")
            {
                Cow::Owned(trimmed.replace("\r\n", "\n"))
            } else {
                Cow::Borrowed(trimmed)
            };
        }
        let source = preprocess(value, self.sanitize && !self.resolve);
        let mut p = Processor::new(*self, value.len());
        p.run(&source);
        let mut out = p.finish();
        if self.sanitize {
            let trimmed = out.trim_matches(is_py_space);
            if memchr::memchr(b'\r', trimmed.as_bytes()).is_some() && trimmed.contains("\r\n") {
                return Cow::Owned(trimmed.replace("\r\n", "\n"));
            }
            if trimmed.len() != out.len() {
                let start = trimmed.as_ptr() as usize - out.as_ptr() as usize;
                let end = start + trimmed.len();
                out.truncate(end);
                out.drain(..start);
            }
        }
        Cow::Owned(out)
    }
}

/// Sanitizes an HTML value with feedparser's defaults (no base URI).
#[must_use]
pub fn sanitize(html: &str) -> String {
    HtmlFilter::new().resolve(false).apply(html).into_owned()
}

/// True for an element feedparser's sanitizer keeps (also its test for "looks like
/// HTML").
#[must_use]
pub fn is_acceptable_element(name: &str) -> bool {
    lists::is_acceptable_element(name)
}

/// Whether the sorted `list` holds `s`.
fn contains(list: &[&str], s: &str) -> bool {
    list.binary_search(&s).is_ok()
}

/// `s` lower-cased, borrowed when it has nothing to lower.
fn lower(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|c| c.is_ascii_uppercase() || c >= 0x80) {
        Cow::Owned(s.to_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// The part of a tag name after its last `:` (all of it without one). Names are short:
/// a byte loop, not the generic character search.
fn local_name(tag: &str) -> &str {
    match tag.bytes().rposition(|c| c == b':') {
        Some(i) => &tag[i + 1..],
        None => tag,
    }
}

/// Python's `str.isspace()`.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The rewrites feedparser applies to a value before tokenizing it: `<![CDATA[` escaped
/// (sanitizer only), `<!` other than `<!DOCTYPE`, `<!--` and `<![` escaped, attribute-less
/// self-closing tags expanded (`<br/>` → `<br />`, `<p/>` → `<p></p>`), and `&#39;`/`&#34;`
/// replaced by their characters.
///
/// Most values need none of the rewrites, so each is looked for first: `<!` and `&#3` by
/// their rare byte (`!`, `#`), each hit checked in place, which costs less than a
/// `memmem` search; `/>`, whose bytes are both frequent in markup, with a `memmem`
/// searcher built once per process (one search by `>`, a hit per tag, cost more).
fn preprocess(value: &str, escape_cdata: bool) -> Cow<'_, str> {
    static SELF_CLOSING: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"/>"));
    let mut s: Cow<'_, str> = Cow::Borrowed(value);
    // `<![CDATA[` starts with `<!`: without one, there is neither.
    let declares = holds(value, b"<!");
    if declares && escape_cdata && s.contains("<![CDATA[") {
        s = Cow::Owned(s.replace("<![CDATA[", "&lt;![CDATA["));
    }
    if declares && holds(&s, b"<!") {
        let mut out = String::with_capacity(s.len() + 16);
        let mut rest: &str = &s;
        while let Some(i) = rest.find("<!") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let keep = after.starts_with("--")
                || after.starts_with('[')
                || after
                    .get(..7)
                    .is_some_and(|d| d.eq_ignore_ascii_case("doctype"));
            out.push_str(if keep { "<!" } else { "&lt;!" });
            rest = after;
        }
        out.push_str(rest);
        s = Cow::Owned(out);
    }
    if SELF_CLOSING.find(s.as_bytes()).is_some() {
        s = Cow::Owned(expand_short_tags(&s));
    }
    if holds(&s, b"&#3") {
        s = Cow::Owned(s.replace("&#39;", "'").replace("&#34;", "\""));
    }
    s
}

/// Whether `s` holds `marker` (two bytes or more), looked for by its second byte, the
/// rare one (each hit checked in place).
fn holds(s: &str, marker: &[u8]) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(marker[1], b).any(|i| i > 0 && b[i - 1..].starts_with(marker))
}

/// `<([^<>\s]+?)\s*/>` → `<x />` for void elements, `<x></x>` for the others.
fn expand_short_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let b = s.as_bytes();
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        let lt = i + off;
        let run_start = lt + 1;
        let run_len = s[run_start..]
            .find(|c: char| c == '<' || c == '>' || is_py_space(c))
            .unwrap_or(s.len() - run_start);
        let run_end = run_start + run_len;
        let run = &s[run_start..run_end];
        // The shortest name: the run less a final '/' directly before '>', else the
        // whole run followed by spaces and "/>".
        let found = if run.len() >= 2 && run.ends_with('/') && s[run_end..].starts_with('>') {
            Some((&run[..run.len() - 1], run_end + 1))
        } else if !run.is_empty() {
            let after = &s[run_end..];
            let spaces = after.len() - after.trim_start_matches(is_py_space).len();
            after[spaces..]
                .starts_with("/>")
                .then(|| (run, run_end + spaces + 2))
        } else {
            None
        };
        match found {
            Some((name, end)) => {
                out.push_str(&s[copied..lt]);
                if lists::is_void(name) {
                    out.push('<');
                    out.push_str(name);
                    out.push_str(" />");
                } else {
                    out.push('<');
                    out.push_str(name);
                    out.push_str("></");
                    out.push_str(name);
                    out.push('>');
                }
                copied = end;
                i = end;
            }
            None => i = run_end.max(lt + 1),
        }
        if i >= b.len() {
            break;
        }
    }
    out.push_str(&s[copied..]);
    out
}
#[cfg(test)]
mod tests;
