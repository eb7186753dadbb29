//! When to fetch a feed again: what the server says (`Retry-After`, `Cache-Control:
//! max-age`), what the feed says (RSS `ttl`, `sy:updatePeriod` / `sy:updateFrequency`,
//! `skipHours`, `skipDays`), and exponential backoff after failures.
//!
//! The rules, in order:
//!
//! 1. `429 Too Many Requests` or `503 Service Unavailable`: the `Retry-After` delay
//!    (seconds or an HTTP date) when given, else the backoff of rule 2; never more than
//!    [`SchedulePolicy::max_backoff`].
//! 2. A transport failure or another error status (4xx, 5xx):
//!    [`SchedulePolicy::backoff`] × 2^(failures in a row − 1), at most
//!    [`SchedulePolicy::max_backoff`].
//! 3. Success (2xx, 304): the longest of the hints present (max-age, `ttl` minutes,
//!    update period ÷ frequency), else [`SchedulePolicy::interval`]; kept within
//!    [`SchedulePolicy::min_interval`] and [`SchedulePolicy::max_interval`]. The time found
//!    is then moved past any UTC hour listed in `skipHours` and any day in `skipDays`
//!    (unless they skip every hour of the week, which is ignored).

use std::time::Duration;

use chrono::{DateTime, Datelike, Duration as TimeDelta, Timelike, Utc};

use crate::transport::Headers;

/// What a feed says about how often to poll it. Read from the parsed feed by
/// [`RefreshHints::from_parsed`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RefreshHints {
    /// RSS `ttl`, in minutes.
    pub ttl_minutes: Option<u64>,
    /// `sy:updatePeriod` (`hourly`, `daily`, `weekly`, `monthly`, `yearly`), lower-cased.
    pub update_period: Option<String>,
    /// `sy:updateFrequency`: updates per period (default 1).
    pub update_frequency: Option<u64>,
    /// RSS `skipHours`: UTC hours (0–23) not to fetch in.
    pub skip_hours: Vec<u32>,
    /// RSS `skipDays`: English day names not to fetch on, lower-cased.
    pub skip_days: Vec<String>,
}

impl RefreshHints {
    /// The hints of a parsed feed. `ttl` and the `sy:` values come from the feed model
    /// (`ttl`, and the `sy_updateperiod` / `sy_updatefrequency` keys of `extra`).
    /// The model keeps only the last `<hour>` and `<day>` (as feedparser does), so
    /// `skipHours` and `skipDays` are read from the decoded text instead: the first
    /// `<skipHours>` and `<skipDays>` blocks, one linear scan each.
    #[must_use]
    pub fn from_parsed(parsed: &crate::Parsed<'_>) -> Self {
        let feed = &parsed.feed;
        let extra = |k: &str| {
            feed.extra
                .get(k)
                .and_then(|v| v.as_str())
                .map(|s| s.trim().to_owned())
        };
        let text: &str = &parsed.decoded.text;
        RefreshHints {
            ttl_minutes: feed.ttl.as_deref().and_then(|t| t.trim().parse().ok()),
            update_period: extra("sy_updateperiod").map(|s| s.to_ascii_lowercase()),
            update_frequency: extra("sy_updatefrequency").and_then(|s| s.parse().ok()),
            skip_hours: block_values(text, "skipHours", "hour")
                .filter_map(|h| h.parse().ok())
                .filter(|h| *h < 24)
                .collect(),
            skip_days: block_values(text, "skipDays", "day")
                .map(|d| d.to_ascii_lowercase())
                .collect(),
        }
    }

    /// The polling interval the feed asks for: the longer of `ttl` and
    /// `updatePeriod ÷ updateFrequency`.
    #[must_use]
    pub fn interval(&self) -> Option<Duration> {
        let ttl = self
            .ttl_minutes
            .map(|m| Duration::from_secs(m.saturating_mul(60)));
        let period = self.update_period.as_deref().and_then(|p| {
            let secs: u64 = match p {
                "hourly" => 3600,
                "daily" => 86_400,
                "weekly" => 7 * 86_400,
                "monthly" => 30 * 86_400,
                "yearly" => 365 * 86_400,
                _ => return None,
            };
            Some(Duration::from_secs(
                secs / self.update_frequency.unwrap_or(1).max(1),
            ))
        });
        ttl.max(period)
    }
}

/// The trimmed texts of `<inner>` elements inside the first `<outer>…</outer>` of `text`.
fn block_values<'a>(text: &'a str, outer: &str, inner: &str) -> std::vec::IntoIter<&'a str> {
    let block = text
        .find(&format!("<{outer}>"))
        .map(|start| &text[start + outer.len() + 2..])
        .map(|rest| {
            let end = rest.find(&format!("</{outer}>")).unwrap_or(rest.len());
            &rest[..end]
        })
        .unwrap_or("");
    let open = format!("<{inner}>");
    let close = format!("</{inner}>");
    block
        .split(open.as_str())
        .skip(1)
        .filter_map(|part| {
            part.find(close.as_str())
                .map(|end| part[..end].trim())
                .filter(|v| !v.is_empty())
        })
        .collect::<Vec<_>>()
        .into_iter()
}

/// The current time as a UTC date-time.
#[must_use]
pub fn now() -> DateTime<Utc> {
    DateTime::<Utc>::from(std::time::SystemTime::now())
}

/// The delay a `Retry-After` header asks for (delta-seconds or an HTTP date), from `now`.
#[must_use]
pub fn retry_after(headers: &Headers, now: DateTime<Utc>) -> Option<Duration> {
    let value = headers.get("retry-after")?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = crate::date::parse_date(value)?;
    Some((at - now).to_std().unwrap_or(Duration::ZERO))
}

/// `Cache-Control: max-age` (0 for `no-cache` or `no-store`).
#[must_use]
pub fn max_age(headers: &Headers) -> Option<Duration> {
    let mut found = None;
    for (name, value) in headers.iter() {
        if !name.eq_ignore_ascii_case("cache-control") {
            continue;
        }
        for directive in value.split(',') {
            let directive = directive.trim();
            let lower = directive.to_ascii_lowercase();
            if lower == "no-cache" || lower == "no-store" {
                found = Some(Duration::ZERO);
            } else if let Some(v) = lower.strip_prefix("max-age=")
                && let Ok(secs) = v.trim_matches('"').parse::<u64>()
            {
                found = Some(Duration::from_secs(secs));
            }
        }
    }
    found
}

/// The limits of [`next_fetch`]; every field has a builder method of the same name.
#[derive(Clone, Debug)]
#[non_exhaustive]
#[must_use]
pub struct SchedulePolicy {
    /// The interval when the server and the feed give no hint. Default: 1 hour.
    pub interval: Duration,
    /// The shortest interval after a success, whatever the hints. Default: 5 minutes.
    pub min_interval: Duration,
    /// The longest interval after a success. Default: 7 days.
    pub max_interval: Duration,
    /// The first backoff after a failure, doubled for each further failure in a row.
    /// Default: 5 minutes.
    pub backoff: Duration,
    /// The longest backoff, `Retry-After` included. Default: 1 day.
    pub max_backoff: Duration,
}

impl Default for SchedulePolicy {
    fn default() -> Self {
        SchedulePolicy {
            interval: Duration::from_secs(3600),
            min_interval: Duration::from_secs(300),
            max_interval: Duration::from_secs(7 * 86_400),
            backoff: Duration::from_secs(300),
            max_backoff: Duration::from_secs(86_400),
        }
    }
}

impl SchedulePolicy {
    /// The default policy.
    pub fn new() -> Self {
        SchedulePolicy::default()
    }
    /// Sets [`SchedulePolicy::interval`].
    pub fn interval(mut self, value: Duration) -> Self {
        self.interval = value;
        self
    }
    /// Sets [`SchedulePolicy::min_interval`].
    pub fn min_interval(mut self, value: Duration) -> Self {
        self.min_interval = value;
        self
    }
    /// Sets [`SchedulePolicy::max_interval`].
    pub fn max_interval(mut self, value: Duration) -> Self {
        self.max_interval = value;
        self
    }
    /// Sets [`SchedulePolicy::backoff`].
    pub fn backoff(mut self, value: Duration) -> Self {
        self.backoff = value;
        self
    }
    /// Sets [`SchedulePolicy::max_backoff`].
    pub fn max_backoff(mut self, value: Duration) -> Self {
        self.max_backoff = value;
        self
    }
}

/// What one fetch gave, as [`next_fetch`] needs it.
#[derive(Clone, Copy, Debug)]
pub struct FetchReport<'a> {
    /// The final HTTP status; `None` for a transport failure (or a `file:` URL).
    pub status: Option<u16>,
    /// True when the fetch failed (transport error, or an error status).
    pub failed: bool,
    /// The response headers.
    pub headers: Option<&'a Headers>,
    /// The feed's hints (from this fetch, or the last one that parsed).
    pub hints: Option<&'a RefreshHints>,
    /// Failures in a row, this one included (0 after a success).
    pub failures: u32,
}

/// When to fetch again after `report`, by the rules in the [module docs](self).
#[must_use]
pub fn next_fetch(
    policy: &SchedulePolicy,
    now: DateTime<Utc>,
    report: &FetchReport<'_>,
) -> DateTime<Utc> {
    let backoff = || {
        let doublings = report.failures.saturating_sub(1).min(30);
        policy
            .backoff
            .saturating_mul(1u32 << doublings)
            .min(policy.max_backoff)
    };
    let delay = match report.status {
        Some(429 | 503) => report
            .headers
            .and_then(|h| retry_after(h, now))
            .unwrap_or_else(backoff)
            .min(policy.max_backoff),
        _ if report.failed => backoff(),
        _ => {
            let server = report.headers.and_then(max_age);
            let feed = report.hints.and_then(RefreshHints::interval);
            let delay = match (server, feed) {
                (None, None) => policy.interval,
                (a, b) => a.max(b).unwrap_or(policy.interval),
            };
            let delay = delay.clamp(
                policy.min_interval,
                policy.max_interval.max(policy.min_interval),
            );
            let at = now + to_delta(delay);
            return match report.hints {
                Some(h) => skip_forward(at, h),
                None => at,
            };
        }
    };
    now + to_delta(delay)
}

fn to_delta(d: Duration) -> TimeDelta {
    TimeDelta::from_std(d).unwrap_or(TimeDelta::MAX)
}

/// Moves `at` to the start of the first hour that neither `skipHours` nor `skipDays`
/// excludes (at most one week on; a week with every hour skipped is ignored).
fn skip_forward(at: DateTime<Utc>, hints: &RefreshHints) -> DateTime<Utc> {
    let skipped = |t: DateTime<Utc>| {
        hints.skip_hours.contains(&t.hour())
            || hints
                .skip_days
                .iter()
                .any(|d| d.as_str() == day_name(t.weekday()))
    };
    if !skipped(at) {
        return at;
    }
    let mut t = at
        .with_minute(0)
        .and_then(|t| t.with_second(0))
        .and_then(|t| t.with_nanosecond(0))
        .unwrap_or(at);
    for _ in 0..(24 * 7) {
        t += TimeDelta::hours(1);
        if !skipped(t) {
            return t;
        }
    }
    at
}

fn day_name(d: chrono::Weekday) -> &'static str {
    match d {
        chrono::Weekday::Mon => "monday",
        chrono::Weekday::Tue => "tuesday",
        chrono::Weekday::Wed => "wednesday",
        chrono::Weekday::Thu => "thursday",
        chrono::Weekday::Fri => "friday",
        chrono::Weekday::Sat => "saturday",
        chrono::Weekday::Sun => "sunday",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        // A Monday.
        Utc.with_ymd_and_hms(2024, 1, 1, 10, 30, 0).unwrap()
    }

    fn ok(headers: Option<&Headers>, hints: Option<&RefreshHints>) -> DateTime<Utc> {
        let r = FetchReport {
            status: Some(200),
            failed: false,
            headers,
            hints,
            failures: 0,
        };
        next_fetch(&SchedulePolicy::default(), now(), &r)
    }

    #[test]
    fn retry_after_seconds_and_date() {
        let h = Headers::new().with("Retry-After", "120");
        assert_eq!(retry_after(&h, now()), Some(Duration::from_secs(120)));
        let h = Headers::new().with("Retry-After", "Mon, 01 Jan 2024 11:00:00 GMT");
        assert_eq!(retry_after(&h, now()), Some(Duration::from_secs(1800)));
        let h = Headers::new().with("Retry-After", "soon");
        assert_eq!(retry_after(&h, now()), None);
    }

    #[test]
    fn throttled_uses_retry_after_then_backoff() {
        let h = Headers::new().with("Retry-After", "7200");
        let r = FetchReport {
            status: Some(429),
            failed: true,
            headers: Some(&h),
            hints: None,
            failures: 1,
        };
        let p = SchedulePolicy::default();
        assert_eq!(next_fetch(&p, now(), &r), now() + TimeDelta::hours(2));
        let r = FetchReport {
            status: Some(503),
            headers: None,
            failures: 3,
            ..r
        };
        assert_eq!(next_fetch(&p, now(), &r), now() + TimeDelta::minutes(20));
        let r = FetchReport {
            status: None,
            failures: 40,
            ..r
        };
        assert_eq!(next_fetch(&p, now(), &r), now() + TimeDelta::days(1));
    }

    #[test]
    fn success_takes_the_longest_hint_within_bounds() {
        assert_eq!(ok(None, None), now() + TimeDelta::hours(1));
        let h = Headers::new().with("Cache-Control", "public, max-age=10800");
        assert_eq!(ok(Some(&h), None), now() + TimeDelta::hours(3));
        let hints = RefreshHints {
            ttl_minutes: Some(60),
            update_period: Some("daily".into()),
            update_frequency: Some(4),
            ..RefreshHints::default()
        };
        assert_eq!(ok(Some(&h), Some(&hints)), now() + TimeDelta::hours(6));
        let h = Headers::new().with("Cache-Control", "no-cache");
        assert_eq!(ok(Some(&h), None), now() + TimeDelta::minutes(5));
    }

    #[test]
    fn skip_hours_and_days_move_the_time_on() {
        let hints = RefreshHints {
            ttl_minutes: Some(60),
            skip_hours: vec![11, 12],
            ..RefreshHints::default()
        };
        // 11:30 and 12:xx are skipped: 13:00.
        assert_eq!(
            ok(None, Some(&hints)),
            Utc.with_ymd_and_hms(2024, 1, 1, 13, 0, 0).unwrap()
        );
        let hints = RefreshHints {
            skip_days: vec!["monday".into()],
            ..hints
        };
        assert_eq!(
            ok(None, Some(&hints)),
            Utc.with_ymd_and_hms(2024, 1, 2, 0, 0, 0).unwrap()
        );
        let all = RefreshHints {
            skip_hours: (0..24).collect(),
            ..RefreshHints::default()
        };
        assert_eq!(ok(None, Some(&all)), now() + TimeDelta::hours(1));
    }

    #[test]
    fn hints_from_a_parsed_feed() {
        let xml = br#"<?xml version="1.0"?>
<rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>
<title>x</title><ttl> 90 </ttl><sy:updatePeriod>Daily</sy:updatePeriod>
<sy:updateFrequency>2</sy:updateFrequency>
<skipHours><hour>1</hour><hour> 2 </hour><hour>99</hour></skipHours>
<skipDays><day>Sunday</day><day>Saturday</day></skipDays></channel></rss>"#;
        let parsed = crate::parse(xml, &crate::Transport::Local);
        let hints = RefreshHints::from_parsed(&parsed);
        assert_eq!(hints.ttl_minutes, Some(90));
        assert_eq!(hints.update_period.as_deref(), Some("daily"));
        assert_eq!(hints.update_frequency, Some(2));
        assert_eq!(hints.skip_hours, vec![1, 2]);
        assert_eq!(hints.skip_days, vec!["sunday", "saturday"]);
        assert_eq!(hints.interval(), Some(Duration::from_secs(12 * 3600)));
    }
}
