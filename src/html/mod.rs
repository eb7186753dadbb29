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
//!   and `--!>` tricks are dropped), and no comment is kept inside `noscript` or
//!   `textarea`, whose content browsers read as raw text (the `noscript` mutation);
//!   inside those, every `<` of text is escaped as well;
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
pub(crate) use lists::is_void;

use std::borrow::Cow;

use crate::url::{scheme_of, urljoin};
use lists::{
    MATHML_ATTRIBUTES, MATHML_ELEMENTS, RELATIVE_URIS, SVG_ATTRIBUTES, SVG_CASED, SVG_ELEMENTS,
    UNACCEPTABLE_WITH_CONTENT,
};

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
}

impl Default for HtmlFilter<'_> {
    fn default() -> Self {
        HtmlFilter {
            sanitize: true,
            resolve: true,
            base: None,
            markup: Markup::Html,
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
        let mut p = Processor {
            out: String::with_capacity(value.len() + value.len() / 8),
            filter: *self,
            lasttag: LastTag::default(),
            unacceptable: 0,
            mathml_ok: 0,
            svg_ok: 0,
            rawtext: 0,
            deferred_lt: Vec::new(),
        };
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

fn is_unacceptable_with_content(name: &str) -> bool {
    UNACCEPTABLE_WITH_CONTENT.contains(&name)
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
/// Each rewrite is looked for with a searcher built once per process: most values need
/// none of them, and four `str::contains` calls were 1.8% of a feed's instructions.
fn preprocess(value: &str, escape_cdata: bool) -> Cow<'_, str> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static MARKUP_DECL: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"<!"));
    static SELF_CLOSING: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"/>"));
    static QUOTE_REF: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"&#3"));
    let mut s: Cow<'_, str> = Cow::Borrowed(value);
    // `<![CDATA[` starts with `<!`: without one, there is neither.
    let declares = MARKUP_DECL.find(value.as_bytes()).is_some();
    if declares && escape_cdata && s.contains("<![CDATA[") {
        s = Cow::Owned(s.replace("<![CDATA[", "&lt;![CDATA["));
    }
    if declares && MARKUP_DECL.find(s.as_bytes()).is_some() {
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
    if QUOTE_REF.find(s.as_bytes()).is_some() {
        s = Cow::Owned(s.replace("&#39;", "'").replace("&#34;", "\""));
    }
    s
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

/// The filter's state over one value.
struct Processor<'f> {
    out: String,
    filter: HtmlFilter<'f>,
    lasttag: LastTag,
    /// feedparser's count of open `script`/`style`/`applet`; it may go negative (an end
    /// tag without a start), and text is kept only while it is zero.
    unacceptable: i64,
    mathml_ok: u32,
    svg_ok: u32,
    /// Open `noscript`/`textarea` elements written out: browsers read their content as
    /// raw text.
    rawtext: u32,
    /// Offsets in `out` of `&lt;` written for a text `<` whose next character was not
    /// known yet.
    deferred_lt: Vec<usize>,
}

/// The name of the last start tag (feedparser's `lasttag`, which an empty tag `<>`
/// repeats): kept inline when short, as almost every tag name is, so that filtering a
/// value allocates nothing for it.
struct LastTag {
    short: [u8; LastTag::SHORT],
    /// The length of the name in `short`, or [`LastTag::LONG`] when it is in `long`.
    len: u8,
    long: String,
}

impl LastTag {
    const SHORT: usize = 16;
    const LONG: u8 = u8::MAX;

    fn set(&mut self, name: &str) {
        if let Some(short) = self.short.get_mut(..name.len()) {
            short.copy_from_slice(name.as_bytes());
            self.len = name.len() as u8;
        } else {
            self.long.clear();
            self.long.push_str(name);
            self.len = Self::LONG;
        }
    }

    fn get(&self) -> &str {
        if self.len == Self::LONG {
            return &self.long;
        }
        // A whole name was copied: its bytes are UTF-8.
        std::str::from_utf8(&self.short[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl Default for LastTag {
    /// feedparser's initial `lasttag`.
    fn default() -> Self {
        let mut t = LastTag {
            short: [0; Self::SHORT],
            len: 0,
            long: String::new(),
        };
        t.set("???");
        t
    }
}

/// An attribute as the tokenizer read it: its lower-cased name and its value, borrowed
/// from the value being filtered when they needed no change.
type HAttr<'a> = (Cow<'a, str>, Cow<'a, str>);

/// How a construct scan ended.
enum Scan {
    /// Handled; continue at this offset.
    At(usize),
    /// Incomplete: the rest of the value is text.
    Incomplete,
}

impl Processor<'_> {
    fn run(&mut self, raw: &str) {
        let b = raw.as_bytes();
        let n = b.len();
        let mut i = 0;
        let mut no_close_from = usize::MAX;
        while i < n {
            let j = crate::bytes::find3(b'<', b'&', b'&', &b[i..]).map_or(n, |o| i + o);
            if i < j {
                // Text up to the next `<`: none to escape.
                self.text_without_lt(&raw[i..j]);
            }
            i = j;
            if i == n {
                break;
            }
            let scan = if b[i] == b'<' {
                let next = b.get(i + 1).copied();
                if next.is_some_and(|c| c == b'>' || c.is_ascii_alphabetic()) {
                    self.start_tag(raw, i)
                } else if next == Some(b'/') {
                    self.end_tag(raw, i)
                } else if raw[i..].starts_with("<!--") {
                    self.comment(raw, i, &mut no_close_from)
                } else if next == Some(b'?') {
                    match raw[i + 2..].find('>') {
                        Some(k) => {
                            if !self.filter.sanitize {
                                self.out.push_str(&raw[i..i + 2 + k + 1]);
                            }
                            Scan::At(i + 2 + k + 1)
                        }
                        None => Scan::Incomplete,
                    }
                } else if next == Some(b'!') {
                    self.declaration(raw, i)
                } else {
                    // A lone '<' before a character that opens nothing: text.
                    if i + 1 == n {
                        Scan::Incomplete
                    } else {
                        if !self.filter.sanitize {
                            self.out.push('<');
                        } else if self.unacceptable == 0 {
                            self.push_deferred_lt();
                        }
                        Scan::At(i + 1)
                    }
                }
            } else {
                self.reference(raw, i)
            };
            match scan {
                Scan::At(k) => i = k,
                Scan::Incomplete => break,
            }
        }
        if i < n {
            if self.filter.resolve && self.filter.sanitize {
                // feedparser's resolver leaves the rest as written; its sanitizer then
                // reads it afresh (with `<![CDATA[` escaped first).
                self.filter.resolve = false;
                let rest = preprocess(&raw[i..], true);
                self.run(&rest);
                self.filter.resolve = true;
            } else {
                self.data(&raw[i..]);
            }
        }
    }

    /// Text. When sanitizing, a `<` a browser would read as the start of an element is
    /// escaped (every `<` inside raw-text elements).
    fn data(&mut self, text: &str) {
        if !self.filter.sanitize {
            self.out.push_str(text);
            return;
        }
        if self.unacceptable != 0 {
            return;
        }
        let b = text.as_bytes();
        if memchr::memchr(b'<', b).is_none() {
            self.out.push_str(text);
            return;
        }
        let mut copied = 0;
        for k in memchr::memchr_iter(b'<', b) {
            self.out.push_str(&text[copied..k]);
            copied = k + 1;
            match b.get(k + 1) {
                // `<` + letter opens an element whose attributes could take in what
                // follows; inside raw-text elements every `<` is escaped.
                Some(&c) if self.rawtext > 0 || c.is_ascii_alphabetic() => {
                    self.out.push_str("&lt;");
                }
                // Decided once the output is complete (see `Processor::finish`).
                Some(b'/' | b'!' | b'?') => self.push_deferred_lt(),
                Some(_) => self.out.push('<'),
                // What follows this `<` is decided later (a dropped element may bring a
                // letter next to it).
                None => self.push_deferred_lt(),
            }
        }
        self.out.push_str(&text[copied..]);
    }

    /// [`Processor::data`] for a text known to hold no `<`.
    fn text_without_lt(&mut self, text: &str) {
        debug_assert!(!text.contains('<'));
        if !self.filter.sanitize || self.unacceptable == 0 {
            self.out.push_str(text);
        }
    }

    /// Writes `&lt;` and remembers where: [`Processor::finish`] turns it back into `<`
    /// when the character written after it cannot open an element.
    fn push_deferred_lt(&mut self) {
        if self.rawtext == 0 {
            self.deferred_lt.push(self.out.len());
        }
        self.out.push_str("&lt;");
    }

    /// The output, with each deferred `<` written as feedparser writes it (a plain `<`)
    /// where the next character is not a letter, nor a `/`, `!` or `?` with a `>` after
    /// it.
    fn finish(self) -> String {
        if self.deferred_lt.is_empty() {
            return self.out;
        }
        let out = self.out;
        let b = out.as_bytes();
        let mut fixed = String::with_capacity(out.len());
        let mut copied = 0;
        // `<` + `/`, `!` or `?` opens a bogus comment (or a declaration) that runs to the
        // next `>`: were a `>` written later, it would hide what comes between, a kept
        // comment's start among it, and that comment's text would become live markup.
        // Such a `<` stays `&lt;` unless no `>` follows it.
        let last_gt = memchr::memrchr(b'>', b);
        for &p in &self.deferred_lt {
            let text = match b.get(p + 4) {
                Some(b'/' | b'!' | b'?') => last_gt.is_none_or(|g| g < p),
                Some(c) => !c.is_ascii_alphabetic(),
                None => false,
            };
            if text {
                fixed.push_str(&out[copied..p]);
                fixed.push('<');
                copied = p + 4;
            }
        }
        fixed.push_str(&out[copied..]);
        fixed
    }

    /// `&#…;`, `&name` or an incomplete reference.
    fn reference(&mut self, raw: &str, i: usize) -> Scan {
        let b = raw.as_bytes();
        let n = b.len();
        // &#([0-9]+|[xX][0-9a-fA-F]+);
        if b.get(i + 1) == Some(&b'#') {
            let start = i + 2;
            let hex = matches!(b.get(start), Some(b'x' | b'X'));
            let digits_start = if hex { start + 1 } else { start };
            let mut k = digits_start;
            while k < n
                && (if hex {
                    b[k].is_ascii_hexdigit()
                } else {
                    b[k].is_ascii_digit()
                })
            {
                k += 1;
            }
            if k > digits_start && b.get(k) == Some(&b';') {
                self.char_ref(&raw[start..k]);
                return Scan::At(k + 1);
            }
        }
        // &([a-zA-Z][-.a-zA-Z0-9]*)[^a-zA-Z0-9]
        if b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            let mut k = i + 2;
            while k < n && (b[k].is_ascii_alphanumeric() || matches!(b[k], b'-' | b'.')) {
                k += 1;
            }
            if k < n {
                self.entity_ref(&raw[i + 1..k]);
                return Scan::At(if b[k] == b';' { k + 1 } else { k });
            }
        }
        // Incomplete: &([a-zA-Z][a-zA-Z0-9]*|#[0-9]*)?
        let mut k = i + 1;
        if b.get(k).is_some_and(u8::is_ascii_alphabetic) {
            k += 1;
            while k < n && b[k].is_ascii_alphanumeric() {
                k += 1;
            }
        } else if b.get(k) == Some(&b'#') {
            k += 1;
            while k < n && b[k].is_ascii_digit() {
                k += 1;
            }
        }
        if k == n {
            return Scan::Incomplete;
        }
        self.data(&raw[i..k]);
        Scan::At(k)
    }

    /// A character reference, kept as one; windows-1252 code points 128–159 are written
    /// as the character they stand for.
    fn char_ref(&mut self, body: &str) {
        let body = body.to_ascii_lowercase();
        let value = match body.strip_prefix('x') {
            Some(h) => u32::from_str_radix(h, 16).ok(),
            None => body.parse::<u32>().ok(),
        };
        match value
            .filter(|v| (128..160).contains(v))
            .and_then(|v| crate::charset::repair::cp1252(char::from_u32(v)?))
        {
            Some(c) => {
                self.out.push_str("&#x");
                self.out.push_str(&format!("{:x}", u32::from(c)));
                self.out.push(';');
            }
            None => {
                self.out.push_str("&#");
                self.out.push_str(&body);
                self.out.push(';');
            }
        }
    }

    fn entity_ref(&mut self, name: &str) {
        if name == "apos" || crate::entities::html4(name).is_some() {
            self.out.push('&');
            self.out.push_str(name);
            self.out.push(';');
        } else if self.filter.resolve && self.filter.sanitize {
            // The resolver writes `&amp;name`; the sanitizer then reads `name` as text.
            self.out.push_str("&amp;");
            self.data(name);
        } else {
            self.out.push_str("&amp;");
            self.out.push_str(name);
        }
    }

    /// A comment. `no_close_from`: a position from which no comment close exists (a
    /// search that failed once is not repeated, so many unclosed comments stay linear).
    fn comment(&mut self, raw: &str, i: usize, no_close_from: &mut usize) -> Scan {
        let body_start = i + 4;
        let close = if body_start >= *no_close_from {
            None
        } else {
            find_comment_close(raw, body_start)
        };
        if close.is_none() {
            *no_close_from = (*no_close_from).min(body_start);
        }
        match close {
            Some((end_text, end)) => {
                let text = &raw[body_start..end_text];
                if !self.filter.sanitize || (self.rawtext == 0 && comment_is_safe(text)) {
                    self.out.push_str("<!--");
                    self.out.push_str(text);
                    self.out.push_str("-->");
                }
                Scan::At(end)
            }
            None if self.filter.sanitize => {
                // feedparser skips to the end of the next "--…>", or drops the rest.
                let rest = &raw[body_start..];
                let end = rest.find("--").and_then(|dash| {
                    rest[dash + 2..]
                        .find('>')
                        .map(|gt| body_start + dash + 2 + gt + 1)
                });
                Scan::At(end.unwrap_or(raw.len()))
            }
            None => Scan::Incomplete,
        }
    }

    /// `<!DOCTYPE …>` and marked sections (`<![…]]>`): dropped when sanitizing, kept
    /// otherwise; one that cannot be read makes its `<` text.
    fn declaration(&mut self, raw: &str, i: usize) -> Scan {
        let b = raw.as_bytes();
        let j = i + 2;
        match b.get(j) {
            Some(b'>') => return Scan::At(j + 1),
            None | Some(b'-') => return Scan::Incomplete,
            _ => {}
        }
        if b[j] == b'[' {
            let name_len = decl_name_len(raw, j + 1);
            let Some(len) = name_len else {
                self.out.push_str("&lt;");
                return Scan::At(i + 1);
            };
            if len == 0 {
                return Scan::Incomplete;
            }
            let name = raw[j + 1..j + 1 + len].trim_end().to_ascii_lowercase();
            let close = match name.as_str() {
                "temp" | "cdata" | "ignore" | "include" | "rcdata" => {
                    find_section_close(raw, j + 1, true)
                }
                "if" | "else" | "endif" => find_section_close(raw, j + 1, false),
                _ => {
                    self.out.push_str("&lt;");
                    return Scan::At(i + 1);
                }
            };
            return close.map_or(Scan::Incomplete, Scan::At);
        }
        // A DOCTYPE: names, quoted strings and an internal subset up to '>'.
        let Some(len) = decl_name_len(raw, j).filter(|&l| l > 0) else {
            if decl_name_len(raw, j) == Some(0) {
                return Scan::Incomplete;
            }
            self.out.push_str("&lt;");
            return Scan::At(i + 1);
        };
        let mut k = j + len;
        while k < b.len() {
            match b[k] {
                b'>' => {
                    if !self.filter.sanitize {
                        self.out.push_str(&raw[i..=k]);
                    }
                    return Scan::At(k + 1);
                }
                q @ (b'"' | b'\'') => match memchr::memchr(q, &b[k + 1..]) {
                    Some(e) => {
                        k += e + 2;
                        k += raw[k..].len() - raw[k..].trim_start_matches(is_py_space).len();
                    }
                    None => return Scan::Incomplete,
                },
                c if c.is_ascii_alphabetic() => match decl_name_len(raw, k) {
                    Some(l) if l > 0 => k += l,
                    _ => return Scan::Incomplete,
                },
                b'[' => match raw[k..].find(']') {
                    Some(e) => k += e + 1,
                    None => return Scan::Incomplete,
                },
                c if c.is_ascii_whitespace() => k += 1,
                _ => {
                    self.out.push_str("&lt;");
                    return Scan::At(i + 1);
                }
            }
        }
        Scan::Incomplete
    }

    fn start_tag(&mut self, raw: &str, i: usize) -> Scan {
        let b = raw.as_bytes();
        // A "short tag" `<name/data/`.
        let name_end = short_name_end(b, i + 1);
        if b.get(name_end) == Some(&b'/') {
            let Some(slash2) = memchr::memchr(b'/', &b[name_end + 1..]) else {
                return Scan::Incomplete;
            };
            let tag = raw[i + 1..name_end].to_ascii_lowercase();
            let data_end = name_end + 1 + slash2;
            self.unknown_starttag(&tag, Vec::new());
            let data = &raw[name_end + 1..data_end];
            if self.filter.resolve && self.filter.sanitize {
                // feedparser's resolver writes this text as it is and its sanitizer then
                // reads it as markup.
                self.run(data);
            } else {
                self.data(data);
            }
            self.unknown_endtag(&tag);
            return Scan::At(data_end + 1);
        }
        if let Some(end) = self.plain_start_tag(raw, i) {
            return Scan::At(end);
        }
        let Some(j) = end_bracket(raw, i + 1) else {
            return Scan::Incomplete;
        };
        let (tag, mut k): (Cow<'_, str>, usize) = if b[i + 1] == b'>' {
            (Cow::Owned(self.lasttag.get().to_owned()), j)
        } else {
            let mut e = i + 2;
            while e < b.len()
                && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'-' | b'_' | b'.' | b':'))
            {
                e += 1;
            }
            // Borrowed when already lower-case (almost always): no allocation per tag.
            let name = &raw[i + 1..e];
            let tag = if name.bytes().any(|c| c.is_ascii_uppercase()) {
                Cow::Owned(name.to_ascii_lowercase())
            } else {
                Cow::Borrowed(name)
            };
            self.lasttag.set(&tag);
            (tag, e)
        };
        let mut attrs = Vec::new();
        while k < j {
            let Some((name, value, end)) = attribute(raw, k) else {
                break;
            };
            attrs.push((name, value));
            k = end;
        }
        let mut end = j;
        if b[j] == b'>' {
            end += 1;
        }
        self.unknown_starttag(&tag, attrs);
        if self.filter.markup == Markup::Xhtml && end > i + 2 && raw[..end].ends_with("/>") {
            let last = self.lasttag.get().to_owned();
            self.unknown_endtag(&last);
        }
        Scan::At(end)
    }

    /// A start tag written `<name>` (lower case, no attributes, no space) that is
    /// written back as it is: an element kept, outside SVG and MathML (which rename
    /// it), not one whose text is raw (which is counted). Most tags of a feed's HTML are
    /// these (`<p>`, `<em>`, `<li>`); they skip the attribute parser and the filter,
    /// whose outcome for them is known. `None` for any other tag (read in full), else
    /// where the tag ends.
    fn plain_start_tag(&mut self, raw: &str, i: usize) -> Option<usize> {
        let e = plain_name_end(raw, i + 1)?;
        let name = &raw[i + 1..e];
        let kept = !self.filter.sanitize
            || (self.svg_ok == 0
                && self.mathml_ok == 0
                && is_acceptable_element(name)
                && !matches!(name, "noscript" | "textarea"));
        if !kept {
            return None;
        }
        self.lasttag.set(name);
        self.write_start(name, &[]);
        Some(e + 1)
    }

    fn end_tag(&mut self, raw: &str, i: usize) -> Scan {
        // `</name>` in lower case (most end tags): its name is all there is to read.
        if let Some(e) = plain_name_end(raw, i + 2) {
            self.unknown_endtag(&raw[i + 2..e]);
            return Scan::At(e + 1);
        }
        let Some(j) = end_bracket(raw, i + 1) else {
            return Scan::Incomplete;
        };
        let inner = lower(raw[i + 2..j].trim_matches(is_py_space));
        let name_len = if inner.starts_with(|c: char| c.is_ascii_alphabetic()) {
            inner
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
                .unwrap_or(inner.len())
        } else {
            inner.len()
        };
        let tag = &inner[..name_len];
        let end = if raw.as_bytes()[j] == b'>' { j + 1 } else { j };
        self.unknown_endtag(tag);
        Scan::At(end)
    }

    /// A start tag with its parsed attributes: resolved, then sanitized, then written.
    fn unknown_starttag(&mut self, tag: &str, attrs: Vec<HAttr<'_>>) {
        let mut attrs = attrs;
        if self.filter.resolve {
            attrs = normalize_attrs(attrs);
            for (key, value) in &mut attrs {
                if RELATIVE_URIS.binary_search(&(tag, &**key)).is_ok() {
                    let base = self.filter.base.unwrap_or("");
                    let trimmed = value.trim_matches(is_py_space);
                    if base.is_empty() {
                        // Nothing to join with (`safe_join` would copy it): trimmed only.
                        if trimmed.len() != value.len() {
                            *value = Cow::Owned(trimmed.to_owned());
                        }
                    } else {
                        *value = Cow::Owned(safe_join(base, trimmed));
                    }
                }
            }
            if !self.filter.sanitize {
                self.write_start(tag, &attrs);
                return;
            }
            // The sanitizer reads what the resolver wrote.
            for (_, value) in &mut attrs {
                if value
                    .bytes()
                    .any(|c| matches!(c, b'<' | b'>' | b'"' | b'&'))
                {
                    *value = Cow::Owned(escape_attr(value));
                }
            }
        }
        self.sanitize_start(tag, attrs);
    }

    fn sanitize_start(&mut self, tag: &str, mut attrs: Vec<HAttr<'_>>) {
        // The attributes kept: HTML's (its list compiled to a match), MathML's or SVG's.
        let mut allowed: fn(&str) -> bool = lists::is_acceptable_attribute;
        let mut svg = false;
        let mut tag: Cow<'_, str> = Cow::Borrowed(tag);
        let local_of = |t: &str| -> (bool, bool) {
            let local = local_name(t);
            (
                is_unacceptable_with_content(local),
                matches!(
                    local,
                    "animate" | "animatecolor" | "animatemotion" | "animatetransform" | "set"
                ),
            )
        };
        let (drops_content, animates) = local_of(&tag);
        let acceptable_element = is_acceptable_element(&tag);
        if !acceptable_element || self.svg_ok > 0 {
            if drops_content {
                self.unacceptable += 1;
            }
            if self.filter.markup == Markup::Html
                && attrs
                    .iter()
                    .rev()
                    .find(|(k, _)| k == "xmlns")
                    .is_none_or(|(_, v)| v.is_empty())
            {
                if tag == "svg" {
                    attrs.push(("xmlns".into(), SVG_NS.into()));
                }
                if tag == "math" {
                    attrs.push(("xmlns".into(), MATHML_NS.into()));
                }
            }
            let has = |attrs: &[HAttr<'_>], k: &str, v: &str| {
                attrs.iter().any(|(ak, av)| ak == k && av == v)
            };
            if tag == "math" && has(&attrs, "xmlns", MATHML_NS) {
                self.mathml_ok += 1;
            }
            if tag == "svg" && has(&attrs, "xmlns", SVG_NS) {
                self.svg_ok += 1;
            }
            if self.mathml_ok > 0 && contains(MATHML_ELEMENTS, &tag) {
                allowed = |key| contains(MATHML_ATTRIBUTES, key);
            } else if self.svg_ok > 0 && contains(SVG_ELEMENTS, &tag) {
                allowed = |key| contains(SVG_ATTRIBUTES, key);
                svg = true;
                tag = Cow::Owned(svg_case(&tag).to_owned());
            } else if !acceptable_element {
                return;
            }
        }
        if (self.mathml_ok > 0 || self.svg_ok > 0)
            && attrs.iter().any(|(k, _)| k.starts_with("xlink:"))
            && !attrs
                .iter()
                .any(|(k, v)| k == "xmlns:xlink" && v == XLINK_NS)
        {
            attrs.push(("xmlns:xlink".into(), XLINK_NS.into()));
        }
        let animation = svg && animates;
        let mut targets_href = false;
        // Filtered in place: the attributes kept, in their order, with their values made
        // safe.
        let mut clean = normalize_attrs(attrs);
        clean.retain_mut(|(key, value)| {
            if key == "style" && allowed("style") {
                let v = css::sanitize_style(value, self.svg_ok > 0);
                *value = Cow::Owned(v);
                return !value.is_empty();
            }
            if !allowed(key) {
                return false;
            }
            if svg {
                *key = Cow::Owned(svg_case(key).to_owned());
            }
            if key == "href" && !value.is_empty() {
                // feedparser's check of the scheme as written.
                if scheme_of(value).is_some_and(|s| !lists::is_uri_scheme(&s)) {
                    *value = Cow::Borrowed("");
                }
            }
            if is_url_attribute(key) && !url_is_safe(&tag, key, value) {
                *value = Cow::Borrowed("");
            }
            if animation && key == "attributeName" {
                let target = decode_refs(value).to_ascii_lowercase();
                let target = target.rsplit(':').next().unwrap_or("").trim().to_owned();
                if target.starts_with("on") {
                    return false;
                }
                targets_href = target == "href";
            }
            true
        });
        if targets_href {
            clean.retain(|(k, v)| {
                !matches!(&**k, "values" | "from" | "to" | "by")
                    || decode_refs(v)
                        .split(';')
                        .all(|part| url_is_safe("a", "href", part))
            });
        }
        if matches!(&*tag, "noscript" | "textarea") {
            self.rawtext += 1;
        }
        self.write_start(&tag, &clean);
    }

    fn unknown_endtag(&mut self, tag: &str) {
        if !self.filter.sanitize {
            self.write_end(tag);
            return;
        }
        let mut tag: Cow<'_, str> = Cow::Borrowed(tag);
        if !is_acceptable_element(&tag) {
            let local = local_name(&tag);
            if is_unacceptable_with_content(local) {
                self.unacceptable -= 1;
            }
            if self.mathml_ok > 0 && contains(MATHML_ELEMENTS, &tag) {
                if tag == "math" {
                    self.mathml_ok -= 1;
                }
            } else if self.svg_ok > 0 && contains(SVG_ELEMENTS, &tag) {
                tag = Cow::Owned(svg_case(&tag).to_owned());
                if tag == "svg" {
                    self.svg_ok -= 1;
                }
            } else {
                return;
            }
        }
        if matches!(&*tag, "noscript" | "textarea") {
            self.rawtext = self.rawtext.saturating_sub(1);
        }
        self.write_end(&tag);
    }

    fn write_start(&mut self, tag: &str, attrs: &[HAttr<'_>]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (k, v) in attrs {
            self.out.push(' ');
            self.out.push_str(k);
            self.out.push_str("=\"");
            push_attr_value(&mut self.out, v);
            self.out.push('"');
        }
        self.out.push_str(if is_void(tag) { " />" } else { ">" });
    }

    fn write_end(&mut self, tag: &str) {
        if !lists::is_void(tag) {
            self.out.push_str("</");
            self.out.push_str(tag);
            self.out.push('>');
        }
    }
}

/// The camel-case spelling of an SVG element or attribute name.
fn svg_case(lower: &str) -> &str {
    match SVG_CASED.binary_search_by(|(l, _)| l.cmp(&lower)) {
        Ok(i) => SVG_CASED[i].1,
        Err(_) => lower,
    }
}

/// Attributes whose value is a URL a browser may load or navigate to.
fn is_url_attribute(key: &str) -> bool {
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
fn url_is_safe(element: &str, key: &str, value: &str) -> bool {
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
fn scheme_allowed(element: &str, key: &str, scheme: &str, rest: &str) -> bool {
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
/// (numeric with or without `;`, named with `;`, HTML 4 names without it).
fn decode_refs(value: &str) -> Cow<'_, str> {
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
                // Legacy names a browser decodes without ';' (the longest prefix).
                if let Some((k, c)) = (2..=len.min(8))
                    .rev()
                    .find_map(|k| crate::entities::html4(&after[..k]).map(|c| (k, c)))
                {
                    out.push(c);
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
fn safe_join(base: &str, reference: &str) -> String {
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

/// feedparser's attribute normalisation: names lower-cased, the last of duplicates
/// kept, `rel` and `type` values lower-cased, sorted by name.
fn normalize_attrs(mut attrs: Vec<HAttr<'_>>) -> Vec<HAttr<'_>> {
    for (k, v) in &mut attrs {
        if k.bytes().any(|c| c.is_ascii_uppercase()) {
            *k = Cow::Owned(k.to_lowercase());
        }
        if matches!(&**k, "rel" | "type") && v.bytes().any(|c| c.is_ascii_uppercase() || c >= 0x80)
        {
            *v = Cow::Owned(v.to_lowercase());
        }
    }
    crate::pairs::sort_keep_last(&mut attrs);
    attrs
}

/// An attribute value as feedparser writes it: `<`, `>`, `"` escaped, and every `&` that
/// does not start a reference.
fn push_attr_value(out: &mut String, v: &str) {
    /// The bytes that may need an escape.
    const SPECIAL: [bool; 256] = {
        let mut t = [false; 256];
        t[b'>' as usize] = true;
        t[b'<' as usize] = true;
        t[b'"' as usize] = true;
        t[b'&' as usize] = true;
        t
    };
    let b = v.as_bytes();
    let mut copied = 0;
    let mut from = 0;
    // From one byte that may need an escape to the next (a URL has one or two `&`).
    while let Some(off) = b[from..].iter().position(|&c| SPECIAL[usize::from(c)]) {
        let i = from + off;
        from = i + 1;
        let rep = match b[i] {
            b'>' => "&gt;",
            b'<' => "&lt;",
            b'"' => "&quot;",
            _ if starts_reference(&v[i + 1..]) => continue,
            _ => "&amp;",
        };
        out.push_str(&v[copied..i]);
        out.push_str(rep);
        copied = i + 1;
    }
    out.push_str(&v[copied..]);
}

fn escape_attr(v: &str) -> String {
    // Room for a few escapes (`&` → `&amp;` grows by four): no second allocation.
    let mut out = String::with_capacity(v.len() + 16);
    push_attr_value(&mut out, v);
    out
}

/// The length of the run of (hex) digits at the start of `s`.
fn digit_run(s: &str, hex: bool) -> usize {
    s.bytes()
        .take_while(|c| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        })
        .count()
}

/// `#\d+;`, `#x[0-9a-fA-F]+;` or `\w+;` (after the `&`).
fn starts_reference(s: &str) -> bool {
    if let Some(num) = s.strip_prefix('#') {
        let (digits, hex) = match num.strip_prefix('x') {
            Some(h) => (h, true),
            None => (num, false),
        };
        let len = digit_run(digits, hex);
        return len > 0 && digits[len..].starts_with(';');
    }
    let len = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
    len > 0 && s[len..].starts_with(';')
}

/// One attribute at `k` (feedparser's `attrfind`): `\s*name[$]?(\s*=\s*value)?`. Returns
/// the lower-cased name, the value (quotes removed, references normalised) and the end.
fn attribute(raw: &str, k: usize) -> Option<(Cow<'_, str>, Cow<'_, str>, usize)> {
    let b = raw.as_bytes();
    let mut p = k + (raw[k..].len() - raw[k..].trim_start_matches(is_py_space).len());
    let name_start = p;
    if !b
        .get(p)
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
    {
        return None;
    }
    p += 1;
    while p < b.len() && (b[p].is_ascii_alphanumeric() || matches!(b[p], b'-' | b':' | b'.' | b'_'))
    {
        p += 1;
    }
    let name = &raw[name_start..p];
    if b.get(p) == Some(&b'$') {
        p += 1;
    }
    // (\s*=\s*(value))?
    let mut q = p + (raw[p..].len() - raw[p..].trim_start_matches(is_py_space).len());
    if b.get(q) != Some(&b'=') {
        return Some((lower(name), Cow::Borrowed(name), p));
    }
    q += 1;
    q += raw[q..].len() - raw[q..].trim_start_matches(is_py_space).len();
    let closing = match b.get(q) {
        Some(&quote @ (b'\'' | b'"')) => memchr::memchr(quote, &b[q + 1..]).map(|c| q + 1 + c),
        _ => None,
    };
    let (value, end) = match closing {
        Some(close) => (&raw[q + 1..close], close + 1),
        _ => {
            let mut e = q;
            while e < b.len()
                && (b[e].is_ascii_alphanumeric() || b"][-./,:;+*%?!&$()_#=~'\"@".contains(&b[e]))
            {
                e += 1;
            }
            let v = &raw[q..e];
            let quoted = |q: char| v.starts_with(q) && v.ends_with(q);
            let v = if quoted('\'') || quoted('"') {
                v.get(1..v.len() - 1).unwrap_or("")
            } else {
                v
            };
            (v, e)
        }
    };
    Some((lower(name), normalize_value_refs(value), end))
}

/// sgmllib's reference pass over an attribute value, as feedparser configures it:
/// `&#123` gains its `;`, everything else stays as written.
fn normalize_value_refs(v: &str) -> Cow<'_, str> {
    if !v.contains("&#") {
        return Cow::Borrowed(v);
    }
    let b = v.as_bytes();
    let mut out = String::with_capacity(v.len() + 4);
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'&', &b[i..]) {
        let amp = i + off;
        if b.get(amp + 1) == Some(&b'#') {
            let mut e = amp + 2;
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            if e > amp + 2 && b.get(e) != Some(&b';') {
                out.push_str(&v[copied..e]);
                out.push(';');
                copied = e;
            }
            i = e.max(amp + 1);
        } else {
            i = amp + 1;
        }
    }
    out.push_str(&v[copied..]);
    Cow::Owned(out)
}

/// End of a short-tag name `[a-zA-Z][-.a-zA-Z0-9]*` starting at `k` (its first letter
/// already checked by the caller, or `<>`).
fn short_name_end(b: &[u8], k: usize) -> usize {
    if !b.get(k).is_some_and(u8::is_ascii_alphabetic) {
        return k;
    }
    let mut e = k + 1;
    while e < b.len() && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'-' | b'.')) {
        e += 1;
    }
    e
}

/// Where a name of lower-case letters and digits that starts at `from` ends, when a
/// `>` follows it at once (the tags written `<name>` and `</name>`).
fn plain_name_end(raw: &str, from: usize) -> Option<usize> {
    let b = raw.as_bytes();
    let len = b[from..]
        .iter()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .count();
    (len > 0 && b.get(from + len) == Some(&b'>')).then_some(from + len)
}

/// feedparser's `endbracket` from `k`: the `<` or `>` that ends a tag. Quoted strings
/// are skipped when what follows them fits an attribute list; otherwise the first
/// bracket on the same line counts. `None`: no end (the rest is text).
fn end_bracket(raw: &str, k: usize) -> Option<usize> {
    let b = raw.as_bytes();
    let mut p = k;
    let first = loop {
        let Some(&c) = b.get(p) else {
            break None;
        };
        match c {
            b'<' | b'>' => break Some(p),
            b'"' | b'\'' => {
                let Some(close) = memchr::memchr(c, &b[p + 1..]) else {
                    break None;
                };
                let after = p + 1 + close + 1;
                if quote_follow_ok(raw, after) {
                    p = after;
                } else {
                    break None;
                }
            }
            _ => p += 1,
        }
    };
    first.or_else(|| {
        let line = memchr::memchr3(b'<', b'>', b'\n', &b[k..])?;
        matches!(b[k + line], b'<' | b'>').then_some(k + line)
    })
}

/// `(?=>|/|\s|\w+=)` at `p`.
fn quote_follow_ok(raw: &str, p: usize) -> bool {
    let rest = &raw[p..];
    match rest.chars().next() {
        Some('>' | '/') => true,
        Some(c) if is_py_space(c) => true,
        Some(c) if is_word(c) => {
            let len = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
            rest[len..].starts_with('=')
        }
        _ => false,
    }
}

/// `--\s*>` from `from`: the end of the comment text and the end of the close.
fn find_comment_close(raw: &str, from: usize) -> Option<(usize, usize)> {
    let mut search = from;
    while let Some(off) = raw[search..].find("--") {
        let dash = search + off;
        let after = &raw[dash + 2..];
        let spaces = after.len() - after.trim_start_matches(is_py_space).len();
        if after[spaces..].starts_with('>') {
            return Some((dash, dash + 2 + spaces + 1));
        }
        search = dash + 1;
    }
    None
}

/// A comment text a browser reads back as one whole comment.
fn comment_is_safe(text: &str) -> bool {
    !text.starts_with('>')
        && !text.starts_with("->")
        && !text.contains("-->")
        && !text.contains("--!>")
        && !text.ends_with("<!-")
        && !text.ends_with("--!")
}

/// `]]>` (`]\s*]\s*>`) or `]>` (`]\s*>`) from `from`, the end of the match.
fn find_section_close(raw: &str, from: usize, double: bool) -> Option<usize> {
    let skip = |s: &str| s.len() - s.trim_start_matches(is_py_space).len();
    let mut search = from;
    while let Some(off) = raw[search..].find(']') {
        let p = search + off + 1;
        let mut q = p + skip(&raw[p..]);
        if double {
            if raw[q..].starts_with(']') {
                q += 1;
                q += skip(&raw[q..]);
                if raw[q..].starts_with('>') {
                    return Some(q + 1);
                }
            }
        } else if raw[q..].starts_with('>') {
            return Some(q + 1);
        }
        search = p;
    }
    None
}

/// A declaration name `[a-zA-Z][-_.a-zA-Z0-9:]*\s*` at `k`: its length; `None` if there
/// is none; `Some(0)` when it runs to the end of the value (incomplete).
fn decl_name_len(raw: &str, k: usize) -> Option<usize> {
    let b = raw.as_bytes();
    if !b.get(k).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut e = k + 1;
    while e < b.len() && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'-' | b'_' | b'.' | b':'))
    {
        e += 1;
    }
    e += raw[e..].len() - raw[e..].trim_start_matches(is_py_space).len();
    Some(if e < b.len() { e - k } else { 0 })
}

#[cfg(test)]
mod tests;
