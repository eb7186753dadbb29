//! GML geometry (`http://www.opengis.net/gml`, prefix `gml`) inside `georss:where`:
//! points, line strings and polygons with their reference system, into `where` as
//! GeoJSON (axes swapped for geographic EPSG systems).

use super::Handlers;
use super::geo;
use super::georss::save_where;
use crate::parse::xml::Attr;
use crate::parse::xml::builder::{Builder, getattr, str_of};
use crate::parse::xml::dict::{Value, jv};

pub(in crate::parse::xml) static HANDLERS: Handlers = Handlers {
    start: |b, key, attrs| start(b, key, attrs),
    end,
};

/// The GML geometry being read.
#[derive(Clone, Copy, PartialEq)]
pub(in crate::parse::xml) enum Geom {
    None,
    Point,
    LineString,
    Polygon,
}

fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    match key {
        "gml_point" => {
            parse_srs(b, attrs);
            b.ingeometry = Geom::Point;
            b.push("geometry", false);
        }
        "gml_linestring" => {
            parse_srs(b, attrs);
            b.ingeometry = Geom::LineString;
            b.push("geometry", false);
        }
        "gml_polygon" => {
            parse_srs(b, attrs);
            b.push("geometry", false);
        }
        "gml_exterior" => b.push("geometry", false),
        "gml_linearring" => {
            b.ingeometry = Geom::Polygon;
            b.push("geometry", false);
        }
        "gml_pos" | "gml_poslist" => b.push("pos", false),
        _ => return false,
    }
    true
}

fn end(b: &mut Builder, key: &str) -> bool {
    match key {
        "gml_pos" => pos(b, false),
        "gml_poslist" => pos(b, true),
        "gml_point" | "gml_linestring" | "gml_linearring" | "gml_exterior" | "gml_polygon" => {
            b.ingeometry = Geom::None;
            b.pop_unused("geometry", true);
        }
        _ => return false,
    }
    true
}

/// The reference system's name and dimension, into `where`.
fn parse_srs(b: &mut Builder, attrs: &[Attr<'_>]) {
    let name = getattr(attrs, "srsname").map_or(Value::Null, |s| jv!(s));
    let dim = getattr(attrs, "srsdimension")
        .unwrap_or("2")
        .trim()
        .parse::<i64>()
        .unwrap_or(2);
    let ctx = b.ctx();
    let w = ctx.value_or_insert("where".into(), jv!({}));
    if let Some(o) = w.as_object_mut() {
        o.insert("srsName".into(), name);
        o.insert("srsDimension".into(), jv!(dim));
    }
}

/// A `gml:pos` (`list` false) or `gml:posList` of the current geometry.
fn pos(b: &mut Builder, list: bool) {
    let this = b.pop("pos", true).unwrap_or_default();
    let ctx = b.ctx();
    let w = ctx.value("where").and_then(Value::as_object);
    let srs = w.and_then(|w| str_of(w.get("srsName"))).map(str::to_owned);
    let dims = w
        .and_then(|w| w.get("srsDimension"))
        .and_then(Value::as_i64)
        .unwrap_or(2);
    let mut swap = true;
    if let Some(s) = srs.filter(|s| s.contains("EPSG"))
        && let Ok(epsg) = s.rsplit(':').next().unwrap_or("").parse::<u32>()
    {
        swap = geo::is_geographic(epsg);
    }
    let g = if list {
        match b.ingeometry {
            Geom::LineString => geo::line(&this, swap, dims),
            Geom::Polygon => geo::line(&this, swap, dims).map(|mut l| {
                let ring = l.remove("coordinates").unwrap_or(serde_json::Value::Null);
                let mut d = serde_json::Map::new();
                d.insert("type".into(), serde_json::json!("Polygon"));
                d.insert("coordinates".into(), serde_json::json!([ring]));
                d
            }),
            _ => None,
        }
    } else {
        geo::point(&this, swap, dims)
    };
    if let Some(g) = g {
        save_where(b, g);
    }
}
