//! Dublin Core elements (`http://purl.org/dc/elements/1.1/`, prefix `dc`): filed as the
//! core elements they stand for (`dc:creator` as an author, `dc:date` as `updated`,
//! `dc:subject` as a tag, …).

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::Builder;

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "dc_author" | "dc_creator" => b.start_author(),
        "dc_contributor" => {
            b.open_contributor();
            b.push("name", false);
        }
        "dc_rights" => b.push_content("rights", attrs, "text/plain", true),
        "dc_language" => b.push("language", true),
        "dc_publisher" => b.push("publisher", true),
        "dc_date" => b.start_date("updated"),
        "dc_subject" => b.start_category(attrs),
        "dc_title" => {
            if b.svg_ok > 0 {
                return false;
            }
            b.start_title(attrs);
        }
        "dc_description" => b.start_description(attrs, "text/html"),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "dc_author" | "dc_creator" => b.end_author(),
        "dc_contributor" => {
            b.end_name();
            b.incontributor = false;
        }
        "dc_rights" => {
            b.pop_content_unused("rights");
        }
        "dc_language" => b.end_language(),
        "dc_publisher" => b.end_publisher(),
        "dc_date" => b.end_date("updated"),
        "dc_subject" => b.end_category(),
        "dc_title" => b.end_title(),
        "dc_description" => b.end_description(),
        _ => return false,
    }
    true
}
