//! Date parsing: every format feedparser's date handlers read, normalised to UTC.
//! SKELETON: replaced by the full date module.

use chrono::{DateTime, Utc};

/// Parses a feed date in any supported format; `None` when unparseable.
#[must_use]
pub fn parse_date(text: &str) -> Option<DateTime<Utc>> {
    let _ = text;
    None
}

/// A UTC date-time as Python's 9-element `time.struct_time`
/// `[year, month, day, hour, minute, second, weekday (Mon=0), yearday, dst=0]`.
#[must_use]
pub fn struct_time(dt: &DateTime<Utc>) -> [i64; 9] {
    let _ = dt;
    [0; 9]
}
