//! FeedBurner (`http://rssnamespace.org/feedburner/ext/1.0`, prefix `feedburner`):
//! `feedburner:browserFriendly` as the feed's `info`.

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::Builder;

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "feedburner_browserfriendly" => b.push_content("info", attrs, "text/plain", true),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "feedburner_browserfriendly" => {
            b.pop_content_unused("info");
        }
        _ => return false,
    }
    true
}
