//! GeoRSS / GML geometry parsing and Podlove chapter start times.

use serde_json::{Map, Value, json};

const GEOGRAPHIC_EPSG: &[(u32, u32)] = &[
    (3819, 3819),
    (3821, 3821),
    (3824, 3824),
    (3889, 3889),
    (3906, 3906),
    (4001, 4016),
    (4018, 4025),
    (4027, 4036),
    (4041, 4047),
    (4052, 4055),
    (4075, 4075),
    (4081, 4081),
    (4120, 4176),
    (4178, 4185),
    (4188, 4216),
    (4218, 4289),
    (4291, 4304),
    (4306, 4319),
    (4322, 4322),
    (4324, 4324),
    (4326, 4326),
    (4463, 4463),
    (4470, 4470),
    (4475, 4475),
    (4483, 4483),
    (4490, 4490),
    (4555, 4555),
    (4558, 4558),
    (4600, 4646),
    (4657, 4765),
    (4801, 4811),
    (4813, 4821),
    (4823, 4824),
    (4901, 4904),
    (4979, 4979),
];

/// Whether an EPSG code names a geographic coordinate system (latitude first).
#[must_use]
pub fn is_geographic(epsg: u32) -> bool {
    GEOGRAPHIC_EPSG
        .iter()
        .any(|&(a, b)| (a..=b).contains(&epsg))
}

/// Coordinate tuples; `None` when a number does not parse.
fn coords(value: &str, swap: bool, dims: i64) -> Option<Vec<Vec<f64>>> {
    let nums: Vec<f64> = value
        .replace(',', " ")
        .split_whitespace()
        .map(|n| n.parse::<f64>().ok().filter(|f| f.is_finite()))
        .collect::<Option<Vec<_>>>()?;
    let mut out = Vec::new();
    let mut it = nums.into_iter();
    while let (Some(a), Some(b)) = (it.next(), it.next()) {
        let mut t = if swap { vec![b, a] } else { vec![a, b] };
        if dims == 3 {
            match it.next() {
                Some(c) => t.push(c),
                None => break,
            }
        }
        out.push(t);
    }
    Some(out)
}

fn geometry(kind: &str, coordinates: Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("type".into(), json!(kind));
    m.insert("coordinates".into(), coordinates);
    m
}

/// A GeoRSS point.
#[must_use]
pub fn point(value: &str, swap: bool, dims: i64) -> Option<Map<String, Value>> {
    let c = coords(value, swap, dims)?;
    let first = c.into_iter().next()?;
    Some(geometry("Point", json!(first)))
}

/// A GeoRSS line.
#[must_use]
pub fn line(value: &str, swap: bool, dims: i64) -> Option<Map<String, Value>> {
    let c = coords(value, swap, dims)?;
    Some(geometry("LineString", json!(c)))
}

/// A GeoRSS polygon (at least four points).
#[must_use]
pub fn polygon(value: &str) -> Option<Map<String, Value>> {
    let c = coords(value, true, 2)?;
    if c.len() < 4 {
        return None;
    }
    Some(geometry("Polygon", json!([c])))
}

/// A GeoRSS box.
#[must_use]
pub fn boxed(value: &str) -> Option<Map<String, Value>> {
    let c = coords(value, true, 2)?;
    Some(geometry("Box", json!(c)))
}

/// A Podlove chapter start (`[hh:]mm:ss[.mmm]`) in seconds, or null.
#[must_use]
pub fn psc_start(start: &str) -> Value {
    let parts: Vec<&str> = start.split(':').collect();
    let two = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
    let (h, m, sec) = match parts.as_slice() {
        [m, s] => ("00", *m, *s),
        [h, m, s] => (*h, *m, *s),
        _ => return Value::Null,
    };
    let (s, ms) = match sec.split_once('.') {
        Some((s, ms)) if ms.len() == 3 && ms.bytes().all(|b| b.is_ascii_digit()) => (s, ms),
        Some(_) => return Value::Null,
        None => (sec, "0"),
    };
    if !(two(h) && two(m) && two(s)) {
        return Value::Null;
    }
    let n = |x: &str| x.parse::<u64>().unwrap_or(0);
    let total = n(h) * 3600 + n(m) * 60 + n(s);
    let ms = n(ms);
    if ms == 0 {
        json!(total)
    } else {
        json!(total as f64 + ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_swaps_to_lon_lat() {
        let p = point("45.256 -71.92", true, 2).unwrap();
        assert_eq!(p["coordinates"], json!([-71.92, 45.256]));
        assert!(point("bogus", true, 2).is_none());
    }

    #[test]
    fn chapter_start() {
        assert_eq!(psc_start("00:01:02.500"), json!(62.5));
        assert_eq!(psc_start("01:02"), json!(62));
        assert_eq!(psc_start("1:2"), Value::Null);
    }
}
