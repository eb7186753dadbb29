//! Microsoft's Channel Definition Format: a root-level `channel` (see
//! `super::rss::start_channel`), `lastmod` and `href` attributes on channels and items,
//! and `abstract` as the description.

use crate::parse::xml::Attr;
use crate::parse::xml::builder::{Builder, getattr};

/// A channel's or item's `lastmod` (the `updated` date) and `href` (its link).
pub(super) fn common(b: &mut Builder, attrs: &[Attr<'_>]) {
    if let Some(lm) = getattr(attrs, "lastmod") {
        b.push("updated", true);
        b.data_raw(lm);
        b.end_date("updated");
    }
    if let Some(href) = getattr(attrs, "href") {
        b.start_link(&mut Vec::new());
        b.data_raw(href);
        b.pop_unused("link", true);
    }
}

/// `abstract`: a plain-text description.
pub(super) fn start_abstract(b: &mut Builder, attrs: &[Attr<'_>]) {
    let e = b.infeed || b.inentry || b.insource;
    b.push_content("description", attrs, "text/plain", e);
}
