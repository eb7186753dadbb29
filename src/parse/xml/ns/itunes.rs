//! iTunes podcast elements (`http://www.itunes.com/dtds/podcast-1.0.dtd`, prefix
//! `itunes`): the owner as publisher, categories and keywords as tags, `itunes:image` as
//! the image, `itunes:block` and `itunes:explicit` as values of their own.

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::{Builder, getattr, trim_py};
use crate::parse::xml::dict::{Value, jv};

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

/// The scheme of iTunes categories and keywords.
const SCHEME: &str = "http://www.itunes.com/";

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "itunes_author" => b.start_author(),
        "itunes_name" => b.push("name", false),
        "itunes_email" => b.push("email", false),
        "itunes_subtitle" => b.push_content("subtitle", attrs, "text/plain", true),
        "itunes_category" => {
            b.add_tag(getattr(attrs, "text"), Some(SCHEME), None);
            b.push("category", true);
        }
        "itunes_summary" => b.start_summary(attrs),
        "itunes_owner" => {
            b.inpublisher = true;
            b.push("publisher", false);
        }
        "itunes_image" | "itunes_link" => {
            b.push("itunes_image", false);
            let href = getattr(attrs, "href")
                .filter(|s| !s.is_empty())
                .or_else(|| getattr(attrs, "url").filter(|s| !s.is_empty()));
            if let Some(h) = href {
                let h = h.to_owned();
                b.ctx().insert("image".into(), jv!({"href": h}));
            }
        }
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "itunes_author" => b.end_author(),
        "itunes_name" => b.end_name(),
        "itunes_email" => b.end_email(),
        "itunes_subtitle" => {
            b.pop_content_unused("subtitle");
        }
        "itunes_category" => b.end_category(),
        "itunes_keywords" => {
            let v = b.pop("itunes_keywords", true).unwrap_or_default();
            for term in v.split(',') {
                let t = trim_py(term);
                if !t.is_empty() {
                    b.add_tag(Some(t), Some(SCHEME), None);
                }
            }
        }
        "itunes_summary" => b.end_summary(),
        "itunes_owner" => {
            let kept = b.ctx().get_string_value("publisher");
            b.pop_unused("publisher", true);
            b.inpublisher = false;
            if let Some(k) = kept {
                b.ctx().insert("publisher".into(), k);
            }
            b.sync_author_detail("publisher");
        }
        "itunes_block" => {
            let v = b.pop("itunes_block", false).unwrap_or_default();
            let v = i64::from(v == "yes" || v == "Yes");
            b.ctx().insert("itunes_block".into(), jv!(v));
        }
        "itunes_explicit" => {
            let v = b.pop("itunes_explicit", false).unwrap_or_default();
            // feedparser maps only "yes" and "clean"; the other spellings the
            // iTunes specification allows are read too.
            let e = match v.as_str() {
                "yes" | "true" | "explicit" => jv!(true),
                "clean" | "no" | "false" => jv!(false),
                _ => Value::Null,
            };
            b.ctx().insert("itunes_explicit".into(), e);
        }
        _ => return false,
    }
    true
}
