//! Podlove Simple Chapters (`http://podlove.org/simple-chapters`, prefix `psc`): the
//! first `psc:chapters` of a channel or item, with each `psc:chapter`'s attributes and
//! its parsed start time.

use super::Handlers;
use super::geo;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::{Builder, attrs_dict, getattr};
use crate::parse::xml::dict::{Value, jv};

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "psc_chapters" => {
            let mut ctx = b.ctx();
            if !ctx.contains_key("psc_chapters") {
                let mut d = attrs_dict(attrs);
                d.insert("chapters".into(), jv!([]));
                ctx.insert("psc_chapters".into(), Value::Object(d));
                b.psc_chapters_flag = true;
            }
        }
        "psc_chapter" => {
            if b.psc_chapters_flag {
                let mut d = attrs_dict(attrs);
                let start = getattr(attrs, "start").unwrap_or("");
                d.insert(
                    "start_parsed".into(),
                    Value::from_json(geo::psc_start(start)),
                );
                if let Some(a) = b
                    .ctx()
                    .value_mut("psc_chapters")
                    .and_then(|p| p.get_mut("chapters"))
                    .and_then(Value::as_array_mut)
                {
                    a.push(Value::Object(d));
                }
            }
        }
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "psc_chapters" => b.psc_chapters_flag = false,
        _ => return false,
    }
    true
}
