//! RSS 0.9x, 1.0 and 2.0 elements (and the Atom ones they share a key with: `entry` with
//! `item`, `id` with `guid`): the version, the channel, items, images, text inputs,
//! GUIDs, enclosures and sources.

use crate::parse::xml::{Attr, Attrs};
use std::rc::Rc;

use crate::parse::xml::builder::{
    Builder, Ctx, getattr, jstr, link_from_attrs, parse_py_int, push_link, trim_py,
};
use crate::parse::xml::dict::{Value, jv};
use crate::parse::xml::record::Record;

/// `rss`: the version from its `version` attribute.
pub(super) fn start_rss(b: &mut Builder, attrs: &[Attr<'_>]) {
    if b.version.is_empty() || !b.version.starts_with("rss") {
        let v = getattr(attrs, "version").unwrap_or("");
        b.version = match v {
            "0.91" => "rss091u",
            "0.92" => "rss092",
            "0.93" => "rss093",
            "0.94" => "rss094",
            v if v.starts_with("2.") => "rss20",
            _ => "rss",
        }
        .into();
    }
}

/// `channel`: the feed (a root-level one is CDF's).
pub(super) fn start_channel(b: &mut Builder, attrs: &[Attr<'_>]) {
    // A root-level channel is CDF (feedparser 6 reports "" there; older versions and its
    // documentation say "cdf").
    if b.version.is_empty() && b.depth == 1 {
        b.version = "cdf".into();
    }
    b.infeed = true;
    super::cdf::common(b, attrs);
}

/// `image`: the feed's image (an item's image is not kept).
pub(super) fn start_image(b: &mut Builder) {
    if !b.inentry {
        b.ctx().value_or_insert("image".into(), jv!({}));
    }
    b.inimage = true;
    b.title_depth = -1;
    b.push("image", false);
}

/// `textinput`: the feed's text input.
pub(super) fn start_textinput(b: &mut Builder) {
    b.ctx().value_or_insert("textinput".into(), jv!({}));
    b.intextinput = true;
    b.title_depth = -1;
    b.push("textinput", false);
}

/// `item` or `entry`: a new entry (the previous one is final, and converted). Beyond
/// `max_entries` the last one is overwritten.
pub(super) fn start_item(b: &mut Builder, attrs: &[Attr<'_>]) {
    if b.final_count() + b.entries.len() >= b.max_entries {
        b.entries_truncated = true;
        if b.entries.pop().is_none() {
            b.done.pop();
        }
    }
    if let Some(prev) = b.entries.pop() {
        let entry = prev.finish_reusing(&mut b.spare_entry);
        b.finalize(entry);
    }
    b.entries.push(Record::with_spare(b.spare_entry.take()));
    b.property_depth.clear();
    b.push_item_element();
    b.inentry = true;
    b.guidislink = false;
    b.title_depth = -1;
    if let Some(id) = getattr(attrs, "rdf:about") {
        let id = id.to_owned();
        b.ctx().insert("id".into(), jstr(id));
    }
    super::cdf::common(b, attrs);
}

/// `guid` or `id`.
pub(super) fn start_guid(b: &mut Builder, attrs: &[Attr<'_>]) {
    b.guidislink = getattr(attrs, "ispermalink").unwrap_or("true") == "true";
    b.push("id", true);
}

/// The end of `guid` or `id`: a permalink GUID is the link when there is none.
pub(super) fn end_guid(b: &mut Builder) {
    let popped = b.pop_borrowed("id", true).is_some();
    let has_link = b.ctx().contains_key("link");
    let gil = b.guidislink && !has_link;
    b.save("guidislink", jv!(gil), false);
    if gil && popped {
        // `save` without overwriting: only when there is no link yet.
        let v = b.popped.clone();
        b.save("link", jstr(v), false);
    }
}

/// `enclosure`: a link with `rel` `enclosure`.
pub(super) fn start_enclosure(b: &mut Builder, attrs: &mut Attrs<'_>) {
    let mut l = link_from_attrs(attrs);
    l.rel = Some("enclosure".into());
    push_link(&mut b.ctx(), l);
}

/// `source`: the feed an item came from (its title and `url`).
pub(super) fn start_source(b: &mut Builder, attrs: &[Attr<'_>]) {
    if let Some(u) = getattr(attrs, "url") {
        b.sourcedata.insert("href".into(), jstr(u));
    }
    b.push("source", true);
    b.insource = true;
    b.title_depth = -1;
}

/// The end of `source`.
pub(super) fn end_source(b: &mut Builder) {
    b.insource = false;
    let value = b.pop("source", true);
    if let Some(v) = value.filter(|v| !v.is_empty()) {
        b.sourcedata.insert("title".into(), jstr(v));
    }
    let data = std::mem::take(&mut b.sourcedata);
    b.ctx().insert("source".into(), Value::Object(data));
}

/// The end of an image's `width` or `height`.
pub(super) fn end_dimension(b: &mut Builder, key: &str) {
    let value = b.pop(key, true).unwrap_or_default();
    let n = parse_py_int(&value).unwrap_or(0);
    if b.inimage {
        b.ctx().insert(key.to_owned().into(), jv!(n));
    }
}

/// The end of `tags`: comma-separated terms.
pub(super) fn end_tags(b: &mut Builder) {
    let v = b.pop("tags", true).unwrap_or_default();
    for term in v.split(',') {
        b.add_tag(Some(trim_py(term)), None, None);
    }
}

/// The end of `newLocation` (the feed's new address).
pub(super) fn end_newlocation(b: &mut Builder) {
    let url = b.pop("newlocation", true).unwrap_or_default();
    if b.ctx_kind() == Ctx::Feed {
        let u = b.resolve_uri(trim_py(&url));
        b.feed.insert("newlocation".into(), jstr(u));
    }
}

impl Builder {
    /// The end of `language` (or `dc:language`): the language of what follows.
    pub(in crate::parse::xml) fn end_language(&mut self) {
        let v = self.pop("language", true);
        self.lang = v.map(Rc::from);
    }

    /// The end of `webMaster` (or `dc:publisher`).
    pub(in crate::parse::xml) fn end_publisher(&mut self) {
        self.pop_unused("publisher", true);
        self.sync_author_detail("publisher");
    }
}
