//! Atom 0.3 and 1.0 elements (and the RSS ones they share a key with): the version,
//! links, generators and person URIs.

use crate::parse::xml::builder::{
    Builder, attrs_dict, enforce_href, getattr, is_html_type, jstr, link_from_attrs,
    map_content_type, push_link, str_of,
};
use crate::parse::xml::dict::Value;
use crate::parse::xml::{Attr, Attrs};

/// `feed`: the feed, and Atom 0.x's version.
pub(super) fn start_feed(b: &mut Builder, attrs: &[Attr<'_>]) {
    b.infeed = true;
    if b.version.is_empty() {
        b.version = match getattr(attrs, "version") {
            Some("0.1") => "atom01",
            Some("0.2") => "atom02",
            Some("0.3") => "atom03",
            _ => "atom",
        }
        .into();
    }
}

/// `generator`: its attributes as `generator_detail` (`uri`/`url` as a resolved `href`).
pub(super) fn start_generator(b: &mut Builder, attrs: &[Attr<'_>]) {
    let mut d = attrs_dict(attrs);
    if !d.is_empty() {
        enforce_href(&mut d);
        if let Some(h) = str_of(d.get("href")).map(str::to_owned) {
            let r = b.resolve_uri(&h);
            d.insert("href".into(), jstr(r));
        }
    }
    b.ctx().insert("generator_detail".into(), Value::Object(d));
    b.push("generator", true);
}

/// The end of `generator`: its text is the detail's `name`.
pub(super) fn end_generator(b: &mut Builder) {
    let value = b.pop("generator", true);
    if let Some(d) = b
        .ctx()
        .value_mut("generator_detail")
        .and_then(Value::as_object_mut)
    {
        d.insert("name".into(), value.map_or(Value::Null, jstr));
    }
}

/// The end of a person's `uri` (or `url`, `homepage`).
pub(super) fn end_uri(b: &mut Builder) {
    b.pop_borrowed("href", true);
    let value = std::mem::take(&mut b.popped);
    if b.inauthor {
        b.save_author("href", &value, "author");
    } else if b.incontributor {
        b.save_contributor("href", &value);
    }
    b.popped = value;
}

impl Builder {
    /// `link`: Atom's (attributes) or RSS's (text); an alternate HTML link is the `link`.
    pub(super) fn start_link(&mut self, attrs: &mut Attrs<'_>) {
        let mut l = link_from_attrs(attrs);
        let rel = l.rel.get_or_insert_with(|| "alternate".into());
        if l.content_type.is_none() {
            let t = if rel == "self" {
                "application/atom+xml"
            } else {
                "text/html"
            };
            l.content_type = Some(t.into());
        }
        if let Some(h) = &mut l.href {
            self.resolve_in_place(h);
        }
        let expecting = self.infeed || self.inentry || self.insource;
        let skip = self.inentry && self.inimage;
        let alternate_html = l.rel.as_deref() == Some("alternate")
            && is_html_type(&map_content_type(l.content_type.as_deref().unwrap_or("")));
        let href = l.href.as_ref().map(|h| alternate_html.then(|| h.clone()));
        let mut ctx = self.ctx();
        if !skip {
            push_link(&mut ctx, l);
        } else {
            // Still creates the (empty) list, as feedparser's dictionary does.
            ctx.links_mut(true);
        }
        match href {
            Some(Some(h)) => {
                ctx.insert("link".into(), jstr(h));
            }
            Some(None) => {}
            None => self.push("link", expecting),
        }
    }
}
