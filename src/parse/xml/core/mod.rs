//! The core formats: RSS 0.9x, 1.0 and 2.0 ([`rss`]), Atom 0.3 and 1.0 ([`atom`]) and
//! CDF ([`cdf`]), whose elements carry no feedparser prefix (`title`, `item`, `link`),
//! and the constructs they share with the namespaces ([`constructs`]: persons, text
//! constructs, content, dates, categories).
//!
//! [`start`] and [`end`] are the core's entry in the registration table
//! (`super::ns::TABLE`): one match each from an element key to its handler. The formats
//! share most keys (`item` and `entry`, `guid` and `id`), as in feedparser, so one match
//! serves all three and the handlers live in the module of the format they come from.

mod atom;
mod cdf;
mod constructs;
mod rss;

use super::builder::{Builder, attrs_dict};
use super::dict::Value;
use super::ns::{Handlers, georss};
use crate::parse::xml::Attrs;

/// The core formats' handlers.
pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers { start, end };

/// feedparser's `_start_KEY` of a core element; false when there is none.
fn start(b: &mut Builder, key: &str, attrs: &mut Attrs<'_>) -> bool {
    match key {
        "rss" => rss::start_rss(b, attrs),
        "channel" => rss::start_channel(b, attrs),
        "feed" => atom::start_feed(b, attrs),
        "image" => rss::start_image(b),
        "textinput" => rss::start_textinput(b),
        "author" | "managingeditor" => b.start_author(),
        "contributor" => {
            b.open_contributor();
            b.push("contributor", false);
        }
        "name" => b.push("name", false),
        "width" => b.push("width", false),
        "height" => b.push("height", false),
        "url" | "homepage" | "uri" => b.push("href", true),
        "email" => b.push("email", false),
        "subtitle" | "tagline" => b.push_content("subtitle", attrs, "text/plain", true),
        "rights" | "copyright" => b.push_content("rights", attrs, "text/plain", true),
        "item" | "entry" => rss::start_item(b, attrs),
        "language" => b.push("language", true),
        "webmaster" => b.push("publisher", true),
        "published" | "issued" | "pubdate" => b.start_date("published"),
        "updated" | "modified" | "lastbuilddate" => b.start_date("updated"),
        "created" => b.start_date("created"),
        "expirationdate" => b.start_date("expired"),
        "category" | "keywords" => b.start_category(attrs),
        "tags" => b.push("tags", true),
        "cloud" => {
            let d = attrs_dict(attrs);
            b.ctx().insert("cloud".into(), Value::Object(d));
        }
        "link" => b.start_link(attrs),
        "guid" | "id" => rss::start_guid(b, attrs),
        "title" => {
            if b.svg_ok > 0 {
                return false;
            }
            b.start_title(attrs);
        }
        "description" => b.start_description(attrs, "text/html"),
        "abstract" => cdf::start_abstract(b, attrs),
        "info" => b.push_content("info", attrs, "text/plain", true),
        "generator" => atom::start_generator(b, attrs),
        "summary" => b.start_summary(attrs),
        "enclosure" => rss::start_enclosure(b, attrs),
        "source" => rss::start_source(b, attrs),
        "content" => b.start_content(attrs),
        "body" => b.push_content("content", attrs, "application/xhtml+xml", true),
        "fullitem" => b.start_html_content(attrs),
        "newlocation" => b.push("newlocation", true),
        "where" => georss::start_where(b),
        _ => return false,
    }
    true
}

/// feedparser's `_end_KEY` of a core element; false when there is none.
fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "channel" | "feed" => b.infeed = false,
        "image" => {
            b.pop_unused("image", true);
            b.inimage = false;
        }
        "textinput" => {
            b.pop_unused("textinput", true);
            b.intextinput = false;
        }
        "author" | "managingeditor" => b.end_author(),
        "contributor" => {
            b.pop_unused("contributor", true);
            b.incontributor = false;
        }
        "name" => b.end_name(),
        "width" | "height" => rss::end_dimension(b, key),
        "url" | "homepage" | "uri" => atom::end_uri(b),
        "email" => b.end_email(),
        "subtitle" | "tagline" => {
            b.pop_content_unused("subtitle");
        }
        "rights" | "copyright" => {
            b.pop_content_unused("rights");
        }
        "item" | "entry" => {
            b.end_item_element();
            b.inentry = false;
            b.has_content = false;
        }
        "language" => b.end_language(),
        "webmaster" => b.end_publisher(),
        "published" | "issued" | "pubdate" => b.end_date("published"),
        "updated" | "modified" | "lastbuilddate" => b.end_date("updated"),
        "created" => b.end_date("created"),
        "expirationdate" => b.end_date("expired"),
        "category" | "keywords" => b.end_category(),
        "tags" => rss::end_tags(b),
        "link" => {
            b.pop_unused("link", true);
        }
        "guid" | "id" => rss::end_guid(b),
        "title" => b.end_title(),
        "description" | "abstract" => b.end_description(),
        "info" => {
            b.pop_content_unused("info");
        }
        "generator" => atom::end_generator(b),
        "summary" => b.end_summary(),
        "source" => rss::end_source(b),
        "content" | "body" | "fullitem" => b.end_content(),
        "newlocation" => rss::end_newlocation(b),
        "where" => georss::end_where(b),
        _ => return false,
    }
    true
}
