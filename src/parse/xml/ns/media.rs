//! Media RSS (`http://search.yahoo.com/mrss/`, prefix `media`): titles, descriptions,
//! categories and keywords as the core elements, the rest (`media:content`,
//! `media:thumbnail`, `media:credit`, …) as objects of their attributes with their text
//! as `content`.

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::{Builder, attrs_dict, getattr, jstr, trim_py};
use crate::parse::xml::dict::{Value, jv};

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "media_category" => {
            let mut a = attrs.to_vec();
            if getattr(&a, "scheme").is_none() {
                a.push((
                    "scheme".into(),
                    "http://search.yahoo.com/mrss/category_schema".into(),
                ));
            }
            b.start_category(&a);
        }
        "media_title" => {
            if b.svg_ok > 0 {
                return false;
            }
            b.start_title(attrs);
        }
        "media_description" => b.start_description(attrs, "text/html"),
        "media_group" => {}
        "media_rating" => {
            keep_first(b, "media_rating", attrs);
            b.push("rating", true);
        }
        "media_credit" => {
            append_attrs(b, "media_credit", attrs);
            b.push("credit", true);
        }
        "media_restriction" => {
            keep_first(b, "media_restriction", attrs);
            b.push("restriction", true);
        }
        "media_license" => {
            keep_first(b, "media_license", attrs);
            b.push("license", true);
        }
        "media_content" => append_attrs(b, "media_content", attrs),
        "media_thumbnail" => {
            b.push("url", true);
            append_attrs(b, "media_thumbnail", attrs);
        }
        "media_player" => {
            b.push("media_player", false);
            let d = attrs_dict(attrs);
            b.ctx().insert("media_player".into(), Value::Object(d));
        }
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "media_category" => b.end_category(),
        "media_keywords" => {
            let v = b.pop("media_keywords", true).unwrap_or_default();
            for term in v.split(',') {
                let t = trim_py(term);
                if !t.is_empty() {
                    b.add_tag(Some(t), None, None);
                }
            }
        }
        "media_title" => {
            let td = b.title_depth;
            b.end_title();
            b.title_depth = td;
        }
        "media_description" => b.end_description(),
        "media_rating" => content_of(b, "rating", "media_rating"),
        "media_credit" => content_of(b, "credit", "media_credit"),
        "media_restriction" => {
            if let Some(r) = b.pop("restriction", true).filter(|r| !r.trim().is_empty()) {
                let list: Vec<String> = r.split(' ').map(|c| trim_py(c).to_lowercase()).collect();
                if let Some(o) = b
                    .ctx()
                    .value_mut("media_restriction")
                    .and_then(Value::as_object_mut)
                {
                    o.insert("content".into(), jv!(list));
                }
            }
        }
        "media_license" => content_of(b, "license", "media_license"),
        "media_thumbnail" => {
            let url = b.pop("url", true);
            if let Some(u) = url.filter(|u| !u.trim().is_empty())
                && let Some(o) = b
                    .ctx()
                    .value_mut("media_thumbnail")
                    .and_then(Value::as_array_mut)
                    .and_then(|a| a.last_mut())
                    .and_then(Value::as_object_mut)
            {
                o.entry("url".into()).or_insert(jstr(u));
            }
        }
        "media_player" => {
            let v = b.pop("media_player", true);
            if let Some(o) = b
                .ctx()
                .value_mut("media_player")
                .and_then(Value::as_object_mut)
            {
                o.insert("content".into(), v.map_or(Value::Null, jstr));
            }
        }
        _ => return false,
    }
    true
}

/// Stores the element's attributes under `key` in the current context, unless an
/// earlier element of the same kind did (feedparser keeps the first).
fn keep_first(b: &mut Builder, key: &'static str, attrs: &[Attr<'_>]) {
    let d = attrs_dict(attrs);
    b.ctx().value_or_insert(key.into(), Value::Object(d));
}

/// Pops the text of `element` and, when not blank, stores it as `content` in the
/// attributes kept under `key` (the object itself, or the last one of a list).
fn content_of(b: &mut Builder, element: &str, key: &'static str) {
    let Some(text) = b.pop(element, true).filter(|t| !t.trim().is_empty()) else {
        return;
    };
    let mut ctx = b.ctx();
    let target = match ctx.value_mut(key) {
        Some(Value::Array(list)) => list.last_mut(),
        other => other,
    };
    if let Some(o) = target.and_then(Value::as_object_mut) {
        o.insert("content".into(), jstr(text));
    }
}

/// Appends the element's attributes to the list under `key` in the current context.
fn append_attrs(b: &mut Builder, key: &'static str, attrs: &[Attr<'_>]) {
    let d = attrs_dict(attrs);
    let ctx = b.ctx();
    let list = ctx.value_or_insert(key.into(), jv!([]));
    if let Some(a) = list.as_array_mut() {
        a.push(Value::Object(d));
    }
}
