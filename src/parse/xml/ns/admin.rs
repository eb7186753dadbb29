//! RSS 1.0's admin module (`http://webns.net/mvcb/`, prefix `admin`): the generator
//! agent and error-report address, both given in `rdf:resource`.

use super::Handlers;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::{Builder, getattr, jstr};
use crate::parse::xml::dict::{Value, jv};

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end: |_, _| false,
};

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    let name = match key {
        "admin_generatoragent" => "generator",
        "admin_errorreportsto" => "errorreportsto",
        _ => return false,
    };
    b.push(name, true);
    let value = getattr(attrs, "rdf:resource").map(str::to_owned);
    if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
        b.data_raw(v);
    }
    b.pop(name, true);
    if name == "generator" {
        let v = value.map_or(Value::Null, jstr);
        b.ctx()
            .insert("generator_detail".into(), jv!({ "href": v }));
    }
    true
}
