//! HTTP dates (`Last-Modified`): IMF-fixdate, RFC 850 and asctime, as RFC 9110 §5.6.7
//! requires a recipient to accept, then whatever [`crate::date::parse_date`] reads.

use chrono::{DateTime, Datelike, NaiveDateTime, Timelike, Utc};

/// Parses an HTTP date to UTC; `None` when no format matches.
pub(crate) fn parse_http_date(text: &str) -> Option<DateTime<Utc>> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc2822(t) {
        return Some(dt.with_timezone(&Utc));
    }
    let squeezed = t.split_whitespace().collect::<Vec<_>>().join(" ");
    for format in [
        "%A, %d-%b-%y %H:%M:%S GMT",
        "%a %b %d %H:%M:%S %Y",
        "%a, %d %b %Y %H:%M:%S UTC",
    ] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(&squeezed, format) {
            return Some(naive.and_utc());
        }
    }
    crate::date::parse_date(t)
}

/// Python's `time.struct_time` for a UTC instant:
/// `[year, month, day, hour, minute, second, weekday (Monday = 0), day of year, dst = 0]`.
pub(crate) fn struct_time(dt: &DateTime<Utc>) -> [i64; 9] {
    [
        i64::from(dt.year()),
        i64::from(dt.month()),
        i64::from(dt.day()),
        i64::from(dt.hour()),
        i64::from(dt.minute()),
        i64::from(dt.second()),
        i64::from(dt.weekday().num_days_from_monday()),
        i64::from(dt.ordinal()),
        0,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_http_date_forms() {
        let want = [1994, 11, 6, 8, 49, 37, 6, 310, 0];
        for s in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            let dt = parse_http_date(s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(struct_time(&dt), want, "{s}");
        }
        assert_eq!(parse_http_date("yesterday"), None);
    }
}
