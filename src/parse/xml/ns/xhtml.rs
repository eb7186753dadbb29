//! XHTML (`http://www.w3.org/1999/xhtml`, prefix `xhtml`) outside content: an
//! `xhtml:body` as XHTML content (as a plain `body` is). Inside content, XHTML elements
//! are markup, serialized by the builder before any handler.

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::Builder;

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "xhtml_body" => b.push_content("content", attrs, "application/xhtml+xml", true),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "xhtml_body" => b.end_content(),
        _ => return false,
    }
    true
}
