//! Dublin Core terms (`http://purl.org/dc/terms/`, prefix `dcterms`): dates and the
//! `dcterms:valid` period.

use super::Handlers;
use crate::parse::xml::Attrs;
use crate::parse::xml::builder::{Builder, date_value};
use crate::parse::xml::dict::jv;

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers { start, end };

fn start(b: &mut Builder, key: &str, _attrs: &mut Attrs<'_>) -> bool {
    match key {
        "dcterms_issued" => b.start_date("published"),
        "dcterms_modified" => b.start_date("updated"),
        "dcterms_created" => b.start_date("created"),
        "dcterms_valid" => b.push("validity", true),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "dcterms_issued" => b.end_date("published"),
        "dcterms_modified" => b.end_date("updated"),
        "dcterms_created" => b.end_date("created"),
        "dcterms_valid" => {
            let v = b.pop("validity", true).unwrap_or_default();
            for part in v.split(';') {
                if let Some((k, val)) = part.split_once('=')
                    && (k == "start" || k == "end")
                {
                    b.save(format!("validity_{k}"), jv!(val), true);
                    b.save(format!("validity_{k}_parsed"), date_value(val), true);
                }
            }
        }
        _ => return false,
    }
    true
}
