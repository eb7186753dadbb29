//! Creative Commons licences, both namespaces: RDF's `cc:license`
//! (`http://web.resource.org/cc/`, prefix `cc`, the licence in `rdf:resource`) and the
//! RSS module's `creativeCommons:license` (prefix `creativecommons`, the licence as
//! text). Either becomes a link with `rel` `license`.

use super::Handlers;
use crate::parse::builder::{Builder, Dict, getattr, jstr};
use crate::parse::dict::{Value, jv};

pub(in crate::parse) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[(String, String)]) -> bool {
    match key {
        "cc_license" => {
            add_license(b, getattr(attrs, "rdf:resource").map(str::to_owned));
        }
        "creativecommons_license" => b.push("license", true),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "creativecommons_license" => {
            let v = b.pop("license", true);
            add_license(b, v);
            b.ctx().remove("license");
        }
        _ => return false,
    }
    true
}

/// Appends a `license` link (with an `href` when the licence is not empty).
fn add_license(b: &mut Builder, href: Option<String>) {
    let mut d = Dict::new();
    d.insert("rel".into(), jv!("license"));
    if let Some(v) = href.filter(|v| !v.is_empty()) {
        d.insert("href".into(), jstr(v));
    }
    let ctx = b.ctx();
    let l = ctx.entry("links".into()).or_insert_with(|| jv!([]));
    if let Some(a) = l.as_array_mut() {
        a.push(Value::Object(d));
    }
}
