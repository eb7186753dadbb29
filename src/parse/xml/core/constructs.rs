//! Constructs the core formats share with the namespaces: persons (authors,
//! contributors, publishers), text constructs (title, description, summary, rights,
//! subtitle), content, dates and categories. `dc:creator`, `itunes:author` and `author`
//! all go through [`Builder::start_author`]; `dc:date` and `pubDate` through
//! [`Builder::end_date`].

use crate::parse::xml::Attr;
use std::borrow::Cow;

use crate::model::{Person, Tag};
use crate::parse::xml::builder::{
    Builder, date_value, detail_key, getattr, is_html_type, jstr, map_content_type, push_sized,
    trim_py,
};
use crate::parse::xml::dict::Value;
use crate::parse::xml::record::Slots;
use crate::parse::xml::text::find_email;

/// Sets a person's `name`, `email` or `href` (the keys the handlers save).
fn set_person_field(p: &mut Person, key: &str, value: &str) {
    let field = match key {
        "name" => &mut p.name,
        "email" => &mut p.email,
        "image" => &mut p.image,
        _ => &mut p.href,
    };
    *field = Some(value.into());
}

/// Whether a person has any field (an empty string counts, as a key in feedparser's
/// dictionary does).
fn person_is_empty(p: &Person) -> bool {
    p.name.is_none() && p.email.is_none() && p.href.is_none() && p.image.is_none()
}

/// A person as feedparser's `author` string: `name (email)`, or whichever is not empty.
fn person_string(p: &Person) -> Option<String> {
    let name = p.name.as_deref().filter(|s| !s.is_empty());
    let email = p.email.as_deref().filter(|s| !s.is_empty());
    match (name, email) {
        (Some(n), Some(e)) => Some(format!("{n} ({e})")),
        (Some(n), None) => Some(n.to_owned()),
        (None, Some(e)) => Some(e.to_owned()),
        (None, None) => None,
    }
}

/// Whether `s` is [`person_string`] of `p` (compared piece by piece, nothing built).
fn is_person_string(p: &Person, s: &str) -> bool {
    let name = p.name.as_deref().filter(|s| !s.is_empty());
    let email = p.email.as_deref().filter(|s| !s.is_empty());
    match (name, email) {
        (Some(n), Some(e)) => {
            s.strip_prefix(n)
                .and_then(|r| r.strip_prefix(" ("))
                .and_then(|r| r.strip_suffix(')'))
                == Some(e)
        }
        (Some(v), None) | (None, Some(v)) => s == v,
        (None, None) => false,
    }
}

/// Sets `key` of the last person of the list under `list` (a new list of one empty
/// person when there is none).
fn save_to_last_person(mut ctx: Slots<'_>, list: &'static str, key: &str, value: &str) {
    if let Some(a) = ctx.persons_mut(list, true) {
        if a.is_empty() {
            push_sized(a, 1, Person::default());
        }
        if let Some(p) = a.last_mut() {
            set_person_field(p, key, value);
        }
    }
}

impl Builder {
    pub(in crate::parse::xml) fn save_author(
        &mut self,
        key: &'static str,
        value: &str,
        prefix: &str,
    ) {
        let detail_key = detail_key(prefix);
        if let Some(p) = self.ctx().person_mut(detail_key.clone()) {
            set_person_field(p, key, value);
        }
        if prefix != "author" {
            // Better than feedparser, which files a publisher's name and e-mail into the
            // last *author* too: the publisher string is built from its own details.
            let mut ctx = self.ctx();
            let Some(v) = ctx.person(&detail_key).and_then(person_string) else {
                return;
            };
            ctx.insert(prefix.to_owned().into(), jstr(v));
            return;
        }
        self.sync_author_detail("author");
        save_to_last_person(self.ctx(), "authors", key, value);
    }

    pub(in crate::parse::xml) fn save_contributor(&mut self, key: &'static str, value: &str) {
        save_to_last_person(self.ctx(), "contributors", key, value);
    }

    pub(in crate::parse::xml) fn sync_author_detail(&mut self, key: &'static str) {
        let plural: Cow<'static, str> = match key {
            "author" => "authors".into(),
            "publisher" => "publishers".into(),
            _ => format!("{key}s").into(),
        };
        let plural = &*plural;
        let detail_key = detail_key(key);
        let mut ctx = self.ctx();
        let last = ctx.persons(plural).and_then(|a| a.last());
        let from_list = last.is_some();
        if let Some(detail) = last
            && !person_is_empty(detail)
        {
            // Written again at each of the person's fields: nothing to do when the string
            // is already the person's.
            if !ctx
                .get_str(key)
                .is_some_and(|s| is_person_string(detail, s))
                && let Some(v) = person_string(detail)
            {
                ctx.insert(key.into(), jstr(v));
            }
            return;
        }
        let Some(mut author) = ctx
            .get_str(key)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
        else {
            return;
        };
        let mut email = None;
        if let Some((a, b)) = find_email(&author) {
            let e = author[a..b].to_owned();
            author = author.replace(&e, "");
            author = author
                .replace("()", "")
                .replace("<>", "")
                .replace("&lt;&gt;", "");
            author = trim_py(&author).to_owned();
            if author.starts_with('(') {
                author.remove(0);
            }
            if author.ends_with(')') {
                author.pop();
            }
            author = trim_py(&author).to_owned();
            email = Some(e);
        }
        if author.is_empty() && email.is_none() {
            return;
        }
        let detail = Person {
            name: (!author.is_empty()).then(|| author.into()),
            email: email.map(Into::into),
            ..Person::default()
        };
        if !ctx.contains_key(&detail_key) {
            if !from_list {
                ctx.insert(detail_key, Value::Person(Box::new(detail)));
                return;
            }
            ctx.insert(detail_key, Value::Person(Box::new(detail.clone())));
        }
        if from_list && let Some(last) = ctx.persons_existing_mut(plural).and_then(|a| a.last_mut())
        {
            *last = detail;
        }
    }

    pub(in crate::parse::xml) fn add_tag(
        &mut self,
        term: Option<&str>,
        scheme: Option<&str>,
        label: Option<&str>,
    ) {
        let mut ctx = self.ctx();
        let tags = ctx.tags_mut(true);
        let empty = |s: Option<&str>| s.is_none_or(str::is_empty);
        if empty(term) && empty(scheme) && empty(label) {
            return;
        }
        // Duplicates are skipped as feedparser does; past 1000 tags the check is dropped to
        // keep hostile input linear.
        if let Some(a) = tags
            && (a.len() > 1000
                || !a.iter().any(|t| {
                    t.term.as_deref() == term
                        && t.scheme.as_deref() == scheme
                        && t.label.as_deref() == label
                }))
        {
            push_sized(
                a,
                2,
                Tag {
                    term: term.map(Into::into),
                    scheme: scheme.map(Into::into),
                    label: label.map(Into::into),
                },
            );
        }
    }

    pub(in crate::parse::xml) fn start_author(&mut self) {
        self.inauthor = true;
        self.push("author", true);
        if let Some(a) = self.ctx().persons_mut("authors", true) {
            push_sized(a, 1, Person::default());
        }
    }

    pub(in crate::parse::xml) fn end_author(&mut self) {
        self.pop_unused("author", true);
        self.inauthor = false;
        self.sync_author_detail("author");
    }

    pub(in crate::parse::xml) fn start_content(&mut self, attrs: &[Attr<'_>]) {
        self.has_content = true;
        self.push_content("content", attrs, "text/plain", true);
        if let Some(src) = getattr(attrs, "src").filter(|s| !s.is_empty()) {
            self.cp.src = Some(self.resolve_uri(src));
        }
        self.push("content", true);
    }

    pub(in crate::parse::xml) fn end_content(&mut self) {
        let ty = map_content_type(self.cp.ty_or(""));
        let copy = ty == "text/plain" || is_html_type(&ty);
        // The value is copied to `summary` only when there is none yet.
        if copy && !self.ctx_has("summary") {
            if let Some(v) = self.pop_content("content") {
                self.save("summary", jstr(v), false);
            }
        } else {
            self.pop_content_unused("content");
        }
    }

    pub(in crate::parse::xml) fn start_description(&mut self, attrs: &[Attr<'_>], default: &str) {
        let has_summary = self.ctx().contains_key("summary");
        if has_summary && !self.has_content {
            self.summary_key = Some("content");
            self.start_content(attrs);
        } else {
            let e = self.infeed || self.inentry || self.insource;
            self.push_content("description", attrs, default, e);
        }
    }

    pub(in crate::parse::xml) fn end_description(&mut self) {
        if self.summary_key == Some("content") {
            self.end_content();
        } else {
            self.pop_content_unused("description");
        }
        self.summary_key = None;
    }

    pub(in crate::parse::xml) fn start_summary(&mut self, attrs: &[Attr<'_>]) {
        let has_summary = self.ctx().contains_key("summary");
        if has_summary && !self.has_content {
            self.summary_key = Some("content");
            self.start_content(attrs);
        } else {
            self.summary_key = Some("summary");
            self.push_content("summary", attrs, "text/plain", true);
        }
    }

    pub(in crate::parse::xml) fn end_summary(&mut self) {
        if self.summary_key == Some("content") {
            self.end_content();
        } else {
            let k = self.summary_key.unwrap_or("summary");
            self.pop_content_unused(k);
        }
        self.summary_key = None;
    }

    pub(in crate::parse::xml) fn start_title(&mut self, attrs: &[Attr<'_>]) {
        let e = self.infeed || self.inentry || self.insource;
        self.push_content("title", attrs, "text/plain", e);
    }

    pub(in crate::parse::xml) fn end_title(&mut self) {
        if self.svg_ok > 0 {
            return;
        }
        if self.pop_content_unused("title") == Some(true) {
            self.title_depth = self.depth;
        }
    }

    pub(in crate::parse::xml) fn start_category(&mut self, attrs: &[Attr<'_>]) {
        let term = getattr(attrs, "term");
        let scheme = getattr(attrs, "scheme").or_else(|| getattr(attrs, "domain"));
        let label = getattr(attrs, "label");
        self.add_tag(term, scheme, label);
        self.push("category", true);
    }

    pub(in crate::parse::xml) fn end_category(&mut self) {
        let Some(value) = self.pop("category", true).filter(|v| !v.is_empty()) else {
            return;
        };
        let mut ctx = self.ctx();
        let last = ctx
            .tags_mut(false)
            .and_then(|a| a.last_mut())
            .filter(|t| t.term.as_deref().is_none_or(str::is_empty));
        if let Some(t) = last {
            t.term = Some(value.into());
        } else {
            self.add_tag(Some(&value), None, None);
        }
    }

    pub(in crate::parse::xml) fn start_date(&mut self, key: &'static str) {
        self.push(key, true);
    }

    pub(in crate::parse::xml) fn end_date(&mut self, key: &str) {
        self.pop_borrowed(key, true);
        let parsed_key: Cow<'static, str> = match key {
            "published" => "published_parsed".into(),
            "updated" => "updated_parsed".into(),
            "created" => "created_parsed".into(),
            "expired" => "expired_parsed".into(),
            _ => format!("{key}_parsed").into(),
        };
        // Atom entries often carry the same date twice (published, updated).
        let v = &self.popped;
        let parsed = match &mut self.last_date {
            Some((text, parsed)) if text == v => parsed.clone(),
            Some((text, last)) => {
                // The last date's buffer takes the new text: no allocation per date.
                let parsed = date_value(v);
                text.clear();
                text.push_str(v);
                *last = parsed.clone();
                parsed
            }
            None => {
                let parsed = date_value(v);
                self.last_date = Some((v.clone(), parsed.clone()));
                parsed
            }
        };
        self.save(parsed_key, parsed, true);
    }

    /// Starts a contributor (`contributor`, `dc:contributor`): a new one in the list.
    pub(in crate::parse::xml) fn open_contributor(&mut self) {
        self.incontributor = true;
        if let Some(a) = self.ctx().persons_mut("contributors", true) {
            push_sized(a, 1, Person::default());
        }
    }

    /// The end of a person's `name` (or `itunes:name`, `dc:contributor`): the name of
    /// the publisher, author, contributor or text input being read.
    pub(in crate::parse::xml) fn end_name(&mut self) {
        self.pop_borrowed("name", true);
        let value = std::mem::take(&mut self.popped);
        if self.inpublisher {
            self.save_author("name", &value, "publisher");
        } else if self.inauthor {
            self.save_author("name", &value, "author");
        } else if self.incontributor {
            self.save_contributor("name", &value);
        } else if self.intextinput {
            self.ctx().insert("name".into(), jstr(&value));
        }
        self.popped = value;
    }

    /// The end of a person's `email` (or `itunes:email`).
    pub(in crate::parse::xml) fn end_email(&mut self) {
        self.pop_borrowed("email", true);
        let value = std::mem::take(&mut self.popped);
        if self.inpublisher {
            self.save_author("email", &value, "publisher");
        } else if self.inauthor {
            self.save_author("email", &value, "author");
        } else if self.incontributor {
            self.save_contributor("email", &value);
        }
        self.popped = value;
    }

    /// HTML content (`content:encoded`, `fullitem`).
    pub(in crate::parse::xml) fn start_html_content(&mut self, attrs: &[Attr<'_>]) {
        self.has_content = true;
        self.push_content("content", attrs, "text/html", true);
    }
}
