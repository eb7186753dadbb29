//! The filter itself: one pass over a value with feedparser's SGML rules (which `<` opens
//! a tag, how attributes end, what a comment or declaration is), writing the kept
//! markup as it goes ([`Processor`]).

use super::*;

/// How many constructs that never close (see [`Processor::run`]) are read past in one
/// value before the rest of it is left as text.
const MAX_REREADS: u32 = 16;

/// The filter's state over one value.
pub(super) struct Processor<'f> {
    out: String,
    filter: HtmlFilter<'f>,
    lasttag: LastTag,
    /// feedparser's count of open `script`/`style`/`applet`; it may go negative (an end
    /// tag without a start), and text is kept only while it is zero.
    unacceptable: i64,
    mathml_ok: u32,
    svg_ok: u32,
    /// The raw-text elements written out and not closed yet, by name (see
    /// [`lists::raw_text_name`]): while one is open, a browser reads what follows as
    /// text up to that element's end tag.
    raw_open: Vec<&'static str>,
    /// Offsets in `out` of `&lt;` written for a text `<` whose next character was not
    /// known yet.
    deferred_lt: Vec<usize>,
}

/// The name of the last start tag (feedparser's `lasttag`, which an empty tag `<>`
/// repeats): kept inline when short, as almost every tag name is, so that filtering a
/// value allocates nothing for it.
pub(super) struct LastTag {
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
pub(super) type HAttr<'a> = (Cow<'a, str>, Cow<'a, str>);

/// How a construct scan ended.
pub(super) enum Scan {
    /// Handled; continue at this offset.
    At(usize),
    /// Incomplete: the rest of the value is text.
    Incomplete,
}

impl<'f> Processor<'f> {
    /// The filter's state at the start of a value of `len` bytes.
    pub(super) fn new(filter: HtmlFilter<'f>, len: usize) -> Self {
        Processor {
            out: String::with_capacity(len + len / 8),
            filter,
            lasttag: LastTag::default(),
            unacceptable: 0,
            mathml_ok: 0,
            svg_ok: 0,
            raw_open: Vec::new(),
            deferred_lt: Vec::new(),
        }
    }

    pub(super) fn run(&mut self, raw: &str) {
        let b = raw.as_bytes();
        let n = b.len();
        let mut i = 0;
        let mut no_close_from = usize::MAX;
        // Constructs that never close read past so far (each may have looked to the end
        // of the value for its close: a bounded number keeps the time linear).
        let mut rereads = 0;
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
                // When sanitizing, a construct the SGML rules cannot close (a tag whose
                // quotes or `>` never come right) is text from its `<` only: the `<` is
                // escaped and reading goes on, so that the markup after it is read (and
                // sanitized) as a browser reads it, where feedparser passes the whole
                // rest of the value through unsanitized and escaping all of it would show
                // the rest of the entry as text. (While URIs are resolved too, the rest
                // is first left as written, as feedparser's resolver leaves it, and then
                // sanitized afresh, below.) After `MAX_REREADS` of them, the rest is
                // text: each may have searched to the end of the value.
                Scan::Incomplete
                    if self.filter.sanitize
                        && !self.filter.resolve
                        && b[i] == b'<'
                        && i + 1 < n
                        && rereads < MAX_REREADS =>
                {
                    rereads += 1;
                    if self.unacceptable == 0 {
                        // `&lt;`, or `<` where what follows can open nothing (see
                        // `Processor::finish`).
                        self.push_deferred_lt();
                    }
                    i += 1;
                }
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
                Some(&c) if !self.raw_open.is_empty() || c.is_ascii_alphabetic() => {
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
        if self.raw_open.is_empty() {
            self.deferred_lt.push(self.out.len());
        }
        self.out.push_str("&lt;");
    }

    /// The output, with each deferred `<` written as feedparser writes it (a plain `<`)
    /// where the next character is not a letter, nor a `/`, `!` or `?` with a `>` after
    /// it.
    pub(super) fn finish(self) -> String {
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
                let semicolon = b[k] == b';';
                self.entity_ref(&raw[i + 1..k], semicolon);
                return Scan::At(if semicolon { k + 1 } else { k });
            }
            // The name runs to the end of the value: as the pattern backtracks, its last
            // `-` or `.` is the character after a shorter name (`A&M.` is the name `M`
            // then `.`, written `A&amp;M.`; `&nbsp.` is `&nbsp;.`).
            if let Some(t) = memchr::memrchr2(b'-', b'.', &b[i + 2..n]) {
                let t = i + 2 + t;
                self.entity_ref(&raw[i + 1..t], false);
                return Scan::At(t);
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

    /// A named reference, `semicolon` when its `;` was written. Kept as a reference, with
    /// its `;`: an HTML 4 name (feedparser's rule, with or without `;`), an HTML5 name
    /// with its `;`, or one of the legacy names HTML5 adds that a browser reads without it
    /// (`&AMP`). Any other name is text: `&amp;name`.
    fn entity_ref(&mut self, name: &str, semicolon: bool) {
        use crate::entities::{html4, html5, is_html5_legacy};
        if name == "apos"
            || html4(name).is_some()
            || if semicolon {
                html5(name).is_some()
            } else {
                is_html5_legacy(name)
            }
        {
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
                if !self.filter.sanitize || (self.raw_open.is_empty() && comment_is_safe(text)) {
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
    /// it), not one whose text is raw (which is tracked). Most tags of a feed's HTML are
    /// these (`<p>`, `<em>`, `<li>`); they skip the attribute parser and the filter,
    /// whose outcome for them is known. `None` for any other tag (read in full), else
    /// where the tag ends.
    fn plain_start_tag(&mut self, raw: &str, i: usize) -> Option<usize> {
        let e = plain_name_end(raw, i + 1)?;
        let name = &raw[i + 1..e];
        let kept = !self.filter.sanitize
            || (self.svg_ok == 0
                && self.mathml_ok == 0
                && match self.filter.policy {
                    None => Compiled.keeps_plainly(name),
                    Some(p) => p.keeps_plainly(name),
                });
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

    /// [`Processor::sanitize_start_with`] the filter's allow-lists.
    fn sanitize_start(&mut self, tag: &str, attrs: Vec<HAttr<'_>>) {
        match self.filter.policy {
            None => self.sanitize_start_with(Compiled, tag, attrs),
            Some(p) => self.sanitize_start_with(p, tag, attrs),
        }
    }

    /// A start tag sanitized with the allow-lists `lists`, then written (or not). Built
    /// once for each kind of lists, so that the compiled-in ones are looked up directly.
    fn sanitize_start_with<L: Lists>(&mut self, lists: L, tag: &str, mut attrs: Vec<HAttr<'_>>) {
        // The attributes kept: HTML's, MathML's or SVG's.
        let mut vocabulary = Vocabulary::Html;
        let mut tag: Cow<'_, str> = Cow::Borrowed(tag);
        let local = local_name(&tag);
        let drops_content = lists.drops_content(local);
        let animates = matches!(
            local,
            "animate" | "animatecolor" | "animatemotion" | "animatetransform" | "set"
        );
        let acceptable_element = lists.keeps_element(&tag);
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
            if self.mathml_ok > 0 && lists.is_mathml_element(&tag) {
                vocabulary = Vocabulary::Mathml;
            } else if self.svg_ok > 0 && lists.is_svg_element(&tag) {
                vocabulary = Vocabulary::Svg;
                tag = Cow::Owned(lists.svg_element_case(&tag));
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
        let svg = vocabulary == Vocabulary::Svg;
        let animation = svg && animates;
        let mut targets_href = false;
        let allowed = lists.attributes(vocabulary);
        // Filtered in place: the attributes kept, in their order, with their values made
        // safe.
        let mut clean = normalize_attrs(attrs);
        clean.retain_mut(|(key, value)| {
            if key == "style" && allowed("style") {
                let v = css::sanitize_style(value, self.svg_ok > 0, lists.policy());
                *value = Cow::Owned(v);
                return !value.is_empty();
            }
            if !allowed(key) {
                return false;
            }
            if svg {
                *key = Cow::Owned(lists.svg_attribute_case(key));
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
        if let Some(name) = lists.raw_text_name(&tag) {
            self.raw_open.push(name);
        }
        self.write_start(&tag, &clean);
    }

    fn unknown_endtag(&mut self, tag: &str) {
        if !self.filter.sanitize {
            self.write_end(tag);
            return;
        }
        match self.filter.policy {
            None => self.sanitize_end_with(Compiled, tag),
            Some(p) => self.sanitize_end_with(p, tag),
        }
    }

    /// An end tag sanitized with the allow-lists `lists`, then written (or not).
    fn sanitize_end_with<L: Lists>(&mut self, lists: L, tag: &str) {
        let mut tag: Cow<'_, str> = Cow::Borrowed(tag);
        if !lists.keeps_element(&tag) {
            if lists.drops_content(local_name(&tag)) {
                self.unacceptable -= 1;
            }
            if self.mathml_ok > 0 && lists.is_mathml_element(&tag) {
                if tag == "math" {
                    self.mathml_ok -= 1;
                }
            } else if self.svg_ok > 0 && lists.is_svg_element(&tag) {
                tag = Cow::Owned(lists.svg_element_case(&tag));
                if tag == "svg" {
                    self.svg_ok -= 1;
                }
            } else {
                return;
            }
        }
        // Only its own end tag ends a raw-text element (`</noscript>` is text inside a
        // `textarea`); of two open with one name, the inner one is closed.
        if let Some(k) = self.raw_open.iter().rposition(|&open| open == tag) {
            self.raw_open.remove(k);
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
