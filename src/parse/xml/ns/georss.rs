//! GeoRSS Simple (`http://www.georss.org/georss`, prefix `georss`): points, lines,
//! polygons and boxes into `where` as GeoJSON. `georss:where` (and a plain `where`)
//! holds GML geometry, read by [`super::gml`].

use super::Handlers;
use super::geo;
use crate::parse::xml::Attrs;
use crate::parse::xml::builder::Builder;
use crate::parse::xml::dict::{Map, jv};

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers { start, end };

fn start(b: &mut Builder, key: &str, _attrs: &mut Attrs<'_>) -> bool {
    match key {
        "georss_point" | "georss_line" | "georss_polygon" | "georss_box" => {
            b.push("geometry", false);
            b.ctx().insert("where".into(), jv!({}));
        }
        "georss_where" => start_where(b),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "georss_point" | "georss_line" | "georss_polygon" | "georss_box" => {
            let v = b.pop("geometry", true).unwrap_or_default();
            let g = match key {
                "georss_point" => geo::point(&v, true, 2),
                "georss_line" => geo::line(&v, true, 2),
                "georss_polygon" => geo::polygon(&v),
                _ => geo::boxed(&v),
            };
            if let Some(g) = g {
                save_where(b, g);
            }
        }
        "georss_where" => end_where(b),
        _ => return false,
    }
    true
}

/// A `where` element (`georss:where`, or `where` in a core namespace).
pub(in crate::parse::xml) fn start_where(b: &mut Builder) {
    b.push("where", false);
    b.ctx().insert("where".into(), jv!({}));
}

/// The end of a `where` element.
pub(in crate::parse::xml) fn end_where(b: &mut Builder) {
    b.pop_unused("where", true);
}

/// Adds a geometry's members to `where` in the current context.
pub(super) fn save_where(b: &mut Builder, geometry: serde_json::Map<String, serde_json::Value>) {
    let geometry = Map::from_json(geometry);
    let ctx = b.ctx();
    let w = ctx.value_or_insert("where".into(), jv!({}));
    if let Some(o) = w.as_object_mut() {
        o.extend(geometry);
    }
}
