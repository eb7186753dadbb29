//! RSS 1.0's content module (`http://purl.org/rss/1.0/modules/content/`, prefix
//! `content`): `content:encoded` as HTML content.

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::Builder;

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "content_encoded" => b.start_html_content(attrs),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "content_encoded" => b.end_content(),
        _ => return false,
    }
    true
}
