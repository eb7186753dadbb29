//! Creative Commons licences, both namespaces: RDF's `cc:license`
//! (`http://web.resource.org/cc/`, prefix `cc`, the licence in `rdf:resource`) and the
//! RSS module's `creativeCommons:license` (prefix `creativecommons`, the licence as
//! text). Either becomes a link with `rel` `license`.

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::{Builder, getattr, push_link};

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
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
    let link = crate::model::Link {
        rel: Some("license".into()),
        href: href.filter(|v| !v.is_empty()).map(Into::into),
        ..Default::default()
    };
    push_link(&mut b.ctx(), link);
}
