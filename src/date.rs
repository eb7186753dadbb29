//! Date parsing: every format feedparser's date handlers read, normalised to UTC.
//!
//! [`parse_date`] accepts, in this order of attempts:
//!
//! - **W3C-DTF / ISO 8601** ([`DateFormat::W3cDtf`], [`DateFormat::Iso8601`]):
//!   `2003`, `2003-12`, `2003-12-31`, `2003-12-31T10:14`, seconds, fractional seconds
//!   (`.` or `,`), zones `Z`, `±hh`, `±hh:mm`, `±hhmm` or a known zone name after a
//!   space; a space instead of `T` (MS SQL: `2004-07-08 23:56:58.0`) or spaces beside
//!   the `T` (`2003-07-01T 01:55:07-05:00`, `2003-07-01 T 01:55:07`); ordinal dates
//!   (`2003-335`, `2003335`); week dates (`2004-W53-6`, `2004W536`); compact forms
//!   (`20031231T101455Z`); feedparser's two-digit-year forms (`031231`, `03-12-31`,
//!   `03335`, `-0312`, `-03-12`, read as 20xx); Google's `2003-012-31`.
//! - **Hungarian** ([`DateFormat::Hungarian`]): `2004-július-13T9:15-05:00`.
//! - **RFC 822 / RFC 2822** and sloppy variants ([`DateFormat::Rfc822`]): optional
//!   weekday, day and month in either order, full month names, stray commas, two-digit
//!   years (`90`–`99` → 19xx, otherwise 20xx), missing seconds or time, missing zone
//!   (UTC), named, military and numeric zones, `GMT+hh:mm`, `Etc/GMT`, a trailing
//!   `(comment)`, `AM`/`PM`, RFC 850 `06-Nov-94`.
//! - **asctime / Unix `date`** ([`DateFormat::Asctime`]): `Sun Jan  4 16:29:06 2004`,
//!   `Sun Jul 15 01:16:00 +0000 2012`, `Sun Jan  4 16:29:06 EST 2004`.
//! - **Perforce** ([`DateFormat::Perforce`]): `Fri, 2006/09/15 08:19:53 EDT`.
//! - **Greek** ([`DateFormat::Greek`]): `Κυρ, 11 Ιούλ 2004 12:00:00 EST`.
//! - **Korean** OnBlog `2004년 05월 28일  01:31:15` ([`DateFormat::KoreanOnBlog`]) and Nate
//!   `2004-05-25 오후 11:23:17` ([`DateFormat::KoreanNate`]), both in `+09:00`.
//!
//! Out-of-range fields (month 13, 30 February, hour 25, minute 60, second 61) give
//! `None`. `24:00:00` is the start of the next day and second `60` rolls over into the
//! next minute, as feedparser's ISO 8601 handler normalises them. Results outside the
//! years 1–9999 (Python's `datetime` range) give `None`; so does input longer than
//! [`MAX_DATE_LEN`] bytes. Nothing here panics.

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc, Weekday,
};

/// Inputs longer than this many bytes (after trimming whitespace) are rejected
/// without being examined, which bounds the work per call.
pub const MAX_DATE_LEN: usize = 256;

/// Which family of date format [`parse_date_with_format`] recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DateFormat {
    /// W3C-DTF: `YYYY[-MM[-DD]]` with an optional extended time and zone, including the
    /// MS SQL variant with a space instead of `T`.
    W3cDtf,
    /// Other ISO 8601 forms: ordinal, week, compact and two-digit-year dates.
    Iso8601,
    /// RFC 822 / RFC 2822 and their sloppy variants.
    Rfc822,
    /// C `asctime()` and Unix `date` output: weekday, month, day, time, \[zone\], year.
    Asctime,
    /// Perforce: `Fri, 2006/09/15 08:19:53 EDT`.
    Perforce,
    /// RFC 822 with Greek weekday and month abbreviations.
    Greek,
    /// W3C-DTF with a Hungarian month name.
    Hungarian,
    /// Korean OnBlog: `2004년 05월 28일 01:31:15` (Korea Standard Time).
    KoreanOnBlog,
    /// Korean Nate: `2004-05-25 오후 11:23:17` (Korea Standard Time).
    KoreanNate,
}

/// Parses a feed date in any supported format; `None` when unparseable.
///
/// ```
/// use feed_decoder::date::{parse_date, struct_time};
/// let dt = parse_date("Thu, 01 Jan 04 19:48:21 GMT").unwrap();
/// assert_eq!(struct_time(&dt), [2004, 1, 1, 19, 48, 21, 3, 1, 0]);
/// assert!(parse_date("2003-12-31T25:14:55Z").is_none());
/// ```
#[must_use]
pub fn parse_date(text: &str) -> Option<DateTime<Utc>> {
    parse_date_with_format(text).map(|(dt, _)| dt)
}

/// Like [`parse_date`], also saying which format family matched.
#[must_use]
pub fn parse_date_with_format(text: &str) -> Option<(DateTime<Utc>, DateFormat)> {
    let text = text.trim();
    if text.is_empty() || text.len() > MAX_DATE_LEN {
        return None;
    }
    // The two usual shapes first, without the general paths' work.
    if let Some(result) = rfc822_common(text).or_else(|| iso_common(text)) {
        return result;
    }
    parse_general(text)
}

/// Every format, tried in feedparser's order, on a trimmed text of a sane length.
fn parse_general(text: &str) -> Option<(DateTime<Utc>, DateFormat)> {
    // Tabs, no-break spaces, ideographic spaces and newlines all become plain spaces.
    let normalised;
    let text = if text.chars().any(|c| c.is_whitespace() && c != ' ') {
        normalised = text.split_whitespace().collect::<Vec<_>>().join(" ");
        normalised.as_str()
    } else {
        text
    };
    parse_iso(text)
        .or_else(|| parse_korean_onblog(text))
        .or_else(|| parse_korean_nate(text))
        .or_else(|| parse_rfc822_family(text))
}

/// Parses a date and returns it as a Python `time.struct_time` (see [`struct_time`]).
#[must_use]
pub fn parse_date_struct(text: &str) -> Option<[i64; 9]> {
    parse_date(text).map(|dt| struct_time(&dt))
}

/// A UTC date-time as Python's 9-element `time.struct_time`
/// `[year, month, day, hour, minute, second, weekday (Mon=0), yearday, dst=0]`.
#[must_use]
pub fn struct_time(dt: &DateTime<Utc>) -> [i64; 9] {
    // The UTC fields themselves: each field of a `DateTime` would add its zone's offset
    // (nothing, for UTC) to the stored time first.
    let t = dt.naive_utc();
    [
        i64::from(t.year()),
        i64::from(t.month()),
        i64::from(t.day()),
        i64::from(t.hour()),
        i64::from(t.minute()),
        // chrono reports a leap second as second 59 with nanoseconds >= 1e9.
        i64::from(t.second()),
        i64::from(t.weekday().num_days_from_monday()),
        i64::from(t.ordinal()),
        0,
    ]
}

// ---------------------------------------------------------------------------
// Shared building blocks
// ---------------------------------------------------------------------------

/// A time of day as read, before validation.
#[derive(Debug, Clone, Copy, Default)]
struct Clock {
    hour: u32,
    minute: u32,
    second: u32,
    nanos: u32,
}

/// Combines a calendar date, a clock reading and a UTC offset (seconds east of UTC)
/// into a UTC instant, validating every field.
fn build(date: NaiveDate, clock: Clock, offset_secs: i64) -> Option<DateTime<Utc>> {
    let Clock {
        hour,
        minute,
        second,
        nanos,
    } = clock;
    if minute > 59 || second > 60 || nanos >= 1_000_000_000 {
        return None;
    }
    if hour > 24 || (hour == 24 && (minute, second, nanos) != (0, 0, 0)) {
        return None;
    }
    if offset_secs.abs() >= 24 * 3600 {
        return None;
    }
    let secs = i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second) - offset_secs;
    let naive: NaiveDateTime = match u32::try_from(secs) {
        // Within the day (most dates): the time of day itself, no duration arithmetic.
        Ok(s) if s < 86_400 => {
            date.and_time(NaiveTime::from_num_seconds_from_midnight_opt(s, nanos)?)
        }
        _ => date
            .and_hms_opt(0, 0, 0)?
            .checked_add_signed(Duration::try_seconds(secs)?)?
            .checked_add_signed(Duration::nanoseconds(i64::from(nanos)))?,
    };
    if !(1..=9999).contains(&naive.year()) {
        return None;
    }
    Some(naive.and_utc())
}

/// Parses an all-ASCII-digit string of 1..=9 digits.
fn num(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Fractional-second digits to nanoseconds (extra digits are truncated).
fn frac_nanos(digits: &str) -> Option<u32> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut nanos = 0u32;
    for i in 0..9 {
        let d = digits.as_bytes().get(i).map_or(0, |b| u32::from(b - b'0'));
        nanos = nanos * 10 + d;
    }
    Some(nanos)
}

/// `h[:m[:s[.frac]]]` with one- or two-digit fields (`h:m` at least when
/// `need_minutes`).
fn parse_clock(s: &str, need_minutes: bool) -> Option<Clock> {
    let s = s.strip_suffix('.').unwrap_or(s);
    let mut parts = s.split(':');
    let h = parts.next()?;
    let m = parts.next();
    let sec = parts.next();
    if parts.next().is_some() || (need_minutes && m.is_none()) {
        return None;
    }
    let field = |f: &str| if f.len() <= 2 { num(f) } else { None };
    let mut clock = Clock {
        hour: field(h)?,
        ..Clock::default()
    };
    if let Some(m) = m {
        clock.minute = field(m)?;
    }
    if let Some(sec) = sec {
        let (whole, frac) = match sec.find(['.', ',']) {
            Some(i) => (&sec[..i], Some(&sec[i + 1..])),
            None => (sec, None),
        };
        clock.second = field(whole)?;
        if let Some(frac) = frac {
            clock.nanos = frac_nanos(frac)?;
        }
    }
    Some(clock)
}

/// `+hh`, `-hh`, `+hhmm`, `+hh:mm` (also one-digit hours when followed by `:`) to
/// seconds east of UTC.
fn parse_numeric_offset(s: &str) -> Option<i64> {
    let sign = match s.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let body = &s[1..];
    if !body.is_ascii() {
        return None;
    }
    let (h, m) = if let Some((h, m)) = body.split_once(':') {
        // `+05:30`, `+5:30`; and `+00:0` (a minute cut to one digit, as real feeds
        // have it and feedparser reads it), with two digits of hour only.
        if h.is_empty() || h.len() > 2 || m.is_empty() || m.len() > 2 || h.len() + m.len() < 3 {
            return None;
        }
        (num(h)?, num(m)?)
    } else {
        match body.len() {
            1 | 2 => (num(body)?, 0),
            4 => (num(&body[..2])?, num(&body[2..])?),
            _ => return None,
        }
    };
    if h > 23 || m > 59 {
        return None;
    }
    Some(sign * (i64::from(h) * 3600 + i64::from(m) * 60))
}

/// Named time zones (lower case) with their offsets in minutes east of UTC: feedparser's
/// table plus common European, Asian and Pacific abbreviations. Single letters are the
/// RFC 822 military zones.
fn named_zone(name: &str) -> Option<i64> {
    let minutes = match name {
        "ut" | "utc" | "gmt" | "z" | "uct" | "zulu" | "wet" | "gmt0" | "utc0" => 0,
        "adt" => -3 * 60,
        "ast" | "at" | "edt" => -4 * 60,
        "est" | "et" | "cdt" => -5 * 60,
        "cst" | "ct" | "mdt" => -6 * 60,
        "mst" | "mt" | "pdt" => -7 * 60,
        "pst" | "pt" | "akdt" => -8 * 60,
        "akst" | "hdt" => -9 * 60,
        "hst" => -10 * 60,
        "nst" => -(3 * 60 + 30),
        "ndt" => -(2 * 60 + 30),
        "met" | "cet" | "bst" | "west" | "wat" => 60,
        "mest" | "cest" | "eet" | "sast" | "cat" => 2 * 60,
        "eest" | "msk" | "eat" => 3 * 60,
        "awst" | "hkt" | "sgt" => 8 * 60,
        "jst" | "kst" => 9 * 60,
        "acst" => 9 * 60 + 30,
        "acdt" => 10 * 60 + 30,
        "aest" => 10 * 60,
        "aedt" => 11 * 60,
        "nzst" => 12 * 60,
        "nzdt" => 13 * 60,
        _ => {
            // RFC 822 military zones: A-I = -1..-9, K-M = -10..-12, N-Y = +1..+12
            // (the RFC 822 signs, which feedparser follows for A, M, N and Y).
            let mut chars = name.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            match c {
                'a'..='i' => -((c as i64) - ('a' as i64) + 1) * 60,
                'k'..='m' => -((c as i64) - ('k' as i64) + 10) * 60,
                'n'..='y' => ((c as i64) - ('n' as i64) + 1) * 60,
                _ => return None,
            }
        }
    };
    Some(minutes * 60)
}

// ---------------------------------------------------------------------------
// W3C-DTF / ISO 8601 (and Hungarian month names)
// ---------------------------------------------------------------------------

/// Hungarian month names as feedparser lists them (including its spellings
/// `februári` and `máujus`) plus the standard spellings.
fn hungarian_month(name: &str) -> Option<u32> {
    Some(match name {
        "január" => 1,
        "február" | "februári" => 2,
        "március" => 3,
        "április" => 4,
        "május" | "máujus" => 5,
        "június" => 6,
        "július" => 7,
        "augusztus" => 8,
        "szeptember" => 9,
        "október" => 10,
        "november" => 11,
        "december" => 12,
        _ => return None,
    })
}

/// A cursor over a string that only ever stops on char boundaries.
struct Cursor<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.s.as_bytes().get(self.pos + ahead).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_any(&mut self, set: &[u8]) -> bool {
        match self.peek() {
            Some(b) if set.contains(&b) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    /// The run of ASCII digits at the cursor (possibly empty).
    fn digits(&mut self) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        &self.s[start..self.pos]
    }

    /// The run of alphabetic characters at the cursor (possibly empty).
    fn letters(&mut self) -> &'a str {
        let rest = &self.s[self.pos..];
        let len = rest
            .char_indices()
            .find(|(_, c)| !c.is_alphabetic())
            .map_or(rest.len(), |(i, _)| i);
        self.pos += len;
        &rest[..len]
    }

    fn skip_spaces(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(|b| b == b' ' || b == b'\t') {
            self.pos += 1;
        }
        self.pos - start
    }

    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }
}

/// The date part of an ISO 8601 / W3C-DTF string.
fn iso_date(c: &mut Cursor<'_>) -> Option<(NaiveDate, DateFormat)> {
    let ymd = |y: u32, m: u32, d: u32| NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d);
    let ordinal = |y: u32, o: u32| NaiveDate::from_yo_opt(i32::try_from(y).ok()?, o);
    let two_digit = |y: u32| 2000 + y;

    if c.eat(b'-') {
        // feedparser's `-YY-?MM`: first day of that month.
        let yy = c.digits();
        return match yy.len() {
            4 => Some((
                ymd(two_digit(num(&yy[..2])?), num(&yy[2..])?, 1)?,
                DateFormat::Iso8601,
            )),
            2 if c.eat(b'-') => {
                let mm = c.digits();
                if mm.len() != 2 {
                    return None;
                }
                Some((ymd(two_digit(num(yy)?), num(mm)?, 1)?, DateFormat::Iso8601))
            }
            _ => None,
        };
    }

    let lead = c.digits();
    match lead.len() {
        4 => {}
        // Compact YYYYMMDD, YYYYDDD, YYMMDD, YYDDD.
        8 => {
            let d = ymd(num(&lead[..4])?, num(&lead[4..6])?, num(&lead[6..])?)?;
            return Some((d, DateFormat::Iso8601));
        }
        7 => {
            return Some((
                ordinal(num(&lead[..4])?, num(&lead[4..])?)?,
                DateFormat::Iso8601,
            ));
        }
        6 => {
            let y = two_digit(num(&lead[..2])?);
            return Some((
                ymd(y, num(&lead[2..4])?, num(&lead[4..])?)?,
                DateFormat::Iso8601,
            ));
        }
        5 => {
            let y = two_digit(num(&lead[..2])?);
            return Some((ordinal(y, num(&lead[2..])?)?, DateFormat::Iso8601));
        }
        2 => {
            // YY-MM-DD or YY-DDD.
            let y = two_digit(num(lead)?);
            if !c.eat(b'-') {
                return None;
            }
            let second = c.digits();
            return match second.len() {
                3 => Some((ordinal(y, num(second)?)?, DateFormat::Iso8601)),
                2 if c.eat(b'-') => {
                    let day = c.digits();
                    if day.len() != 2 {
                        return None;
                    }
                    Some((ymd(y, num(second)?, num(day)?)?, DateFormat::Iso8601))
                }
                _ => None,
            };
        }
        _ => return None,
    }

    let year = num(lead)?;
    // Week dates: YYYY-Www[-D] and YYYYWww[D].
    let dashed = c.peek() == Some(b'-') && matches!(c.peek_at(1), Some(b'W' | b'w'));
    if dashed || matches!(c.peek(), Some(b'W' | b'w')) {
        c.eat(b'-');
        c.pos += 1;
        let ww = c.digits();
        let (week, weekday) = match (ww.len(), dashed) {
            (2, true) => {
                let wd = if c.eat(b'-') {
                    let d = c.digits();
                    if d.len() != 1 {
                        return None;
                    }
                    num(d)?
                } else {
                    1
                };
                (num(ww)?, wd)
            }
            (2, false) => (num(ww)?, 1),
            (3, false) => (num(&ww[..2])?, num(&ww[2..])?),
            _ => return None,
        };
        let weekday = match weekday {
            1 => Weekday::Mon,
            2 => Weekday::Tue,
            3 => Weekday::Wed,
            4 => Weekday::Thu,
            5 => Weekday::Fri,
            6 => Weekday::Sat,
            7 => Weekday::Sun,
            _ => return None,
        };
        let d = NaiveDate::from_isoywd_opt(i32::try_from(year).ok()?, week, weekday)?;
        return Some((d, DateFormat::Iso8601));
    }

    if !c.eat(b'-') {
        return Some((ymd(year, 1, 1)?, DateFormat::W3cDtf));
    }
    if c.peek().is_some_and(|b| !b.is_ascii_digit()) {
        // Hungarian: YYYY-<month name>-D[D].
        let month = hungarian_month(&c.letters().to_lowercase())?;
        if !c.eat(b'-') {
            return None;
        }
        let day = c.digits();
        if day.is_empty() || day.len() > 2 {
            return None;
        }
        return Some((ymd(year, month, num(day)?)?, DateFormat::Hungarian));
    }
    let second = c.digits();
    if !c.eat(b'-') {
        return match second.len() {
            // YYYY-DDD ordinal.
            3 => Some((ordinal(year, num(second)?)?, DateFormat::Iso8601)),
            1 | 2 => Some((ymd(year, num(second)?, 1)?, DateFormat::W3cDtf)),
            _ => None,
        };
    }
    // YYYY-MM-DD, also one-digit fields and Google's `2003-012-31`.
    let month_ok = matches!(second.len(), 1 | 2) || (second.len() == 3 && second.starts_with('0'));
    if !month_ok {
        return None;
    }
    let day = c.digits();
    if day.is_empty() || day.len() > 2 {
        return None;
    }
    Some((ymd(year, num(second)?, num(day)?)?, DateFormat::W3cDtf))
}

/// The time part after `T` or a space: extended `hh[:mm[:ss[.f]]]` or basic
/// `hhmm[ss[.f]]`.
fn iso_time(c: &mut Cursor<'_>) -> Option<(Clock, bool)> {
    let start = c.pos;
    let lead = c.digits();
    if matches!(lead.len(), 4 | 6) && c.peek() != Some(b':') {
        let mut clock = Clock {
            hour: num(&lead[..2])?,
            minute: num(&lead[2..4])?,
            ..Clock::default()
        };
        if lead.len() == 6 {
            clock.second = num(&lead[4..])?;
            if c.eat_any(b".,") {
                clock.nanos = frac_nanos(c.digits())?;
            }
        }
        return Some((clock, true));
    }
    if lead.is_empty() || lead.len() > 2 {
        return None;
    }
    // Extended: consume [0-9:.,] and hand it to the shared clock parser.
    while c
        .peek()
        .is_some_and(|b| b.is_ascii_digit() || matches!(b, b':' | b'.' | b','))
    {
        c.pos += 1;
    }
    Some((parse_clock(&c.s[start..c.pos], false)?, false))
}

/// The zone after an ISO time: `Z`, numeric, or a known name after spaces.
fn iso_zone(c: &mut Cursor<'_>) -> Option<i64> {
    let spaces = c.skip_spaces();
    if c.at_end() {
        return Some(0);
    }
    match c.peek()? {
        b'Z' | b'z' if c.pos + 1 == c.s.len() => {
            c.pos += 1;
            Some(0)
        }
        b'+' | b'-' => {
            let rest = c.rest();
            c.pos = c.s.len();
            parse_numeric_offset(rest)
        }
        _ if spaces > 0 => {
            let rest = c.rest().to_ascii_lowercase();
            c.pos = c.s.len();
            zone_token(&rest, false)
        }
        _ => None,
    }
}

fn parse_iso(text: &str) -> Option<(DateTime<Utc>, DateFormat)> {
    let first = text.as_bytes()[0];
    if !(first.is_ascii_digit() || first == b'-') {
        return None;
    }
    let mut c = Cursor { s: text, pos: 0 };
    let (date, mut format) = iso_date(&mut c)?;
    if c.at_end() {
        return Some((build(date, Clock::default(), 0)?, format));
    }
    // Separator: T, or spaces (MS SQL), or a T with spaces on either side
    // (`2003-07-01T 01:55:07`, `2003-07-01 T 01:55:07`), which feedparser's W3C-DTF
    // handler reads. The time after them is read as any other.
    let spaces = c.skip_spaces();
    if c.eat_any(b"Tt") {
        c.skip_spaces();
    } else if spaces == 0 {
        return None;
    }
    let (clock, basic) = iso_time(&mut c)?;
    if basic && format == DateFormat::W3cDtf {
        format = DateFormat::Iso8601;
    }
    let offset = iso_zone(&mut c)?;
    if !c.at_end() {
        return None;
    }
    Some((build(date, clock, offset)?, format))
}

// ---------------------------------------------------------------------------
// Korean
// ---------------------------------------------------------------------------

const KST: i64 = 9 * 3600;

/// `2004년 05월 28일  01:31:15` (OnBlog), Korea Standard Time.
fn parse_korean_onblog(text: &str) -> Option<(DateTime<Utc>, DateFormat)> {
    let mut parts = text.split_whitespace();
    let y = num(parts.next()?.strip_suffix('년')?)?;
    let m = num(parts.next()?.strip_suffix('월')?)?;
    let d = num(parts.next()?.strip_suffix('일')?)?;
    let clock = match parts.next() {
        Some(t) => parse_clock(t, true)?,
        None => Clock::default(),
    };
    if parts.next().is_some() {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d)?;
    Some((build(date, clock, KST)?, DateFormat::KoreanOnBlog))
}

/// `2004-05-25 오후 11:23:17` (Nate), Korea Standard Time; 오전 is a.m., 오후 p.m.
fn parse_korean_nate(text: &str) -> Option<(DateTime<Utc>, DateFormat)> {
    let mut parts = text.split_whitespace();
    let mut ymd = parts.next()?.split('-');
    let (y, m, d) = (ymd.next()?, ymd.next()?, ymd.next()?);
    if ymd.next().is_some() || y.len() != 4 {
        return None;
    }
    let pm = match parts.next()? {
        "오전" => false,
        "오후" => true,
        _ => return None,
    };
    let mut clock = parse_clock(parts.next()?, true)?;
    if parts.next().is_some() || clock.hour > 12 {
        return None;
    }
    clock.hour = clock.hour % 12 + if pm { 12 } else { 0 };
    let date = NaiveDate::from_ymd_opt(i32::try_from(num(y)?).ok()?, num(m)?, num(d)?)?;
    Some((build(date, clock, KST)?, DateFormat::KoreanNate))
}

// ---------------------------------------------------------------------------
// RFC 822 family: RFC 822/2822, asctime, Perforce, Greek
// ---------------------------------------------------------------------------

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// Greek month abbreviations (lower case) as feedparser lists them.
const GREEK_MONTHS: [(&str, u32); 19] = [
    ("ιαν", 1),
    ("φεβ", 2),
    ("μάώ", 3),
    ("μαώ", 3),
    ("απρ", 4),
    ("μάι", 5),
    ("μαϊ", 5),
    ("μαι", 5),
    ("ιούν", 6),
    ("ιον", 6),
    ("ιούλ", 7),
    ("ιολ", 7),
    ("αύγ", 8),
    ("αυγ", 8),
    ("σεπ", 9),
    ("οκτ", 10),
    ("νοέ", 11),
    ("νοε", 11),
    ("δεκ", 12),
];
/// Greek weekday abbreviations (lower case).
const GREEK_DAYS: [&str; 7] = ["κυρ", "δευ", "τρι", "τετ", "πεμ", "παρ", "σαβ"];

/// The first three characters of a token (lower case, ASCII letters only).
fn prefix3(tok: &str) -> Option<&str> {
    let p = tok.get(..3)?;
    p.bytes().all(|b| b.is_ascii_lowercase()).then_some(p)
}

/// A month token: English (any length from three letters, e.g. `jan`, `january`,
/// `jan.`) or Greek. Returns the month and whether it was Greek.
fn month_token(tok: &str) -> Option<(u32, bool)> {
    if let Some(p) = prefix3(tok)
        && tok
            .trim_end_matches('.')
            .bytes()
            .all(|b| b.is_ascii_lowercase())
        && let Some(i) = MONTHS.iter().position(|m| *m == p)
    {
        return Some((i as u32 + 1, false));
    }
    GREEK_MONTHS
        .iter()
        .find(|(g, _)| *g == tok)
        .map(|&(_, m)| (m, true))
}

/// A weekday token (English with at least three letters, or Greek).
fn weekday_token(tok: &str) -> Option<bool> {
    if let Some(p) = prefix3(tok)
        && tok
            .trim_end_matches('.')
            .bytes()
            .all(|b| b.is_ascii_lowercase())
        && DAYS.contains(&p)
    {
        return Some(false);
    }
    GREEK_DAYS.contains(&tok).then_some(true)
}

/// A day of the month: one or two digits.
fn day_token(tok: &str) -> Option<u32> {
    if tok.len() > 2 { None } else { num(tok) }
}

/// A year: four digits literally; one or two digits per feedparser (90-99 → 19xx,
/// otherwise 20xx); three digits literally.
fn year_token(tok: &str) -> Option<i32> {
    if tok.len() > 4 {
        return None;
    }
    let y = i32::try_from(num(tok)?).ok()?;
    Some(match tok.len() {
        1 | 2 if y >= 90 => 1900 + y,
        1 | 2 => 2000 + y,
        _ => y,
    })
}

/// A zone token: numeric, `gmt±…`/`utc±…`, `etc/…`, a known name, or (only when
/// `lenient`) any other alphabetic name, which feedparser reads as UTC.
fn zone_token(tok: &str, lenient: bool) -> Option<i64> {
    if tok.starts_with(['+', '-']) {
        return parse_numeric_offset(tok);
    }
    // An unsigned `hhmm` (feedparser reads any such token as UTC; `0000` is common).
    if tok.len() == 4 && tok.bytes().all(|b| b.is_ascii_digit()) {
        return parse_numeric_offset(&format!("+{tok}"));
    }
    let (tok, posix) = match tok.strip_prefix("etc/") {
        Some(rest) => (rest, true),
        None => (tok, false),
    };
    for base in ["gmt", "utc", "ut"] {
        if let Some(rest) = tok.strip_prefix(base)
            && rest.starts_with(['+', '-'])
        {
            let off = parse_numeric_offset(rest)?;
            // POSIX `Etc/GMT+5` means five hours *behind* UTC.
            return Some(if posix { -off } else { off });
        }
    }
    if let Some(off) = named_zone(tok) {
        return Some(off);
    }
    let plausible = !tok.is_empty()
        && tok.len() <= 40
        && tok
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || matches!(b, b'/' | b'_'));
    (lenient && plausible).then_some(0)
}

/// The value of the ASCII digits `b` (already known to be digits).
fn digits_value(b: &[u8]) -> u32 {
    b.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'))
}

/// The `HH:MM:SS` at `b[at..at + 8]` (its digits already checked).
fn clock_at(b: &[u8], at: usize) -> Clock {
    Clock {
        hour: digits_value(&b[at..at + 2]),
        minute: digits_value(&b[at + 3..at + 5]),
        second: digits_value(&b[at + 6..at + 8]),
        nanos: 0,
    }
}

/// The common RSS shape `Www, DD Mmm YYYY HH:MM:SS ZONE` (a numeric or named zone),
/// read without the general path's allocations. `None` when the text has another shape
/// (the general path decides); otherwise the general path's result.
fn rfc822_common(text: &str) -> Option<Option<(DateTime<Utc>, DateFormat)>> {
    let b = text.as_bytes();
    if b.len() < 27 || b.len() > 31 || !text.is_ascii() {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let lower3 = |at: usize| -> Option<[u8; 3]> {
        let w = [b[at], b[at + 1], b[at + 2]];
        w.iter()
            .all(u8::is_ascii_alphabetic)
            .then(|| w.map(|c| c.to_ascii_lowercase()))
    };
    let shape = b[3] == b','
        && b[4] == b' '
        && digits(5..7)
        && b[7] == b' '
        && b[11] == b' '
        && digits(12..16)
        && b[16] == b' '
        && digits(17..19)
        && b[19] == b':'
        && digits(20..22)
        && b[22] == b':'
        && digits(23..25)
        && b[25] == b' ';
    if !shape {
        return None;
    }
    let day_name = lower3(0)?;
    if !DAYS.iter().any(|d| d.as_bytes() == day_name) {
        return None;
    }
    let month = lower3(8)?;
    let month = MONTHS.iter().position(|m| m.as_bytes() == month)? as u32 + 1;
    let zone_bytes = &b[26..];
    let offset = if let [sign @ (b'+' | b'-'), hhmm @ ..] = zone_bytes
        && hhmm.len() == 4
        && hhmm.iter().all(u8::is_ascii_digit)
    {
        // `+hhmm` (most feeds): read here, as `zone_token` reads it.
        let (h, m) = (digits_value(&hhmm[..2]), digits_value(&hhmm[2..]));
        let secs = i64::from(h * 3600 + m * 60);
        (h <= 23 && m <= 59).then_some(if *sign == b'-' { -secs } else { secs })
    } else {
        // A named zone, lower-cased on the stack (at most five bytes).
        let mut lower = [0u8; 5];
        lower[..zone_bytes.len()].copy_from_slice(zone_bytes);
        lower.make_ascii_lowercase();
        let zone = std::str::from_utf8(&lower[..zone_bytes.len()]).ok()?;
        if !zone.bytes().all(|c| c.is_ascii_lowercase()) || matches!(zone, "am" | "pm") {
            return None;
        }
        // For letters only, `zone_token` comes to this table too (no sign, digits, `etc/`
        // or `gmt+`).
        Some(named_zone(zone)?)
    };
    let clock = clock_at(b, 17);
    Some((|| {
        let offset = offset?;
        let year = i32::try_from(digits_value(&b[12..16])).ok()?;
        let date = NaiveDate::from_ymd_opt(year, month, digits_value(&b[5..7]))?;
        Some((build(date, clock, offset)?, DateFormat::Rfc822))
    })())
}

/// The common Atom shape `YYYY-MM-DDTHH:MM:SS` with `Z` or a `±HH:MM` offset, read
/// without the general path's cursor. `None` when the text has another shape (the
/// general path decides); otherwise the general path's result.
fn iso_common(text: &str) -> Option<Option<(DateTime<Utc>, DateFormat)>> {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let offset = match b.len() {
        20 if matches!(b[19], b'Z' | b'z') => 0,
        25 if matches!(b[19], b'+' | b'-') && b[22] == b':' && digits(20..22) && digits(23..25) => {
            let (h, m) = (digits_value(&b[20..22]), digits_value(&b[23..25]));
            if h > 23 || m > 59 {
                return Some(None);
            }
            let secs = i64::from(h * 3600 + m * 60);
            if b[19] == b'-' { -secs } else { secs }
        }
        _ => return None,
    };
    let shape = digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b'T' | b't')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !shape {
        return None;
    }
    let clock = clock_at(b, 11);
    Some((|| {
        let year = i32::try_from(digits_value(&b[0..4])).ok()?;
        let date = NaiveDate::from_ymd_opt(year, digits_value(&b[5..7]), digits_value(&b[8..10]))?;
        Some((build(date, clock, offset)?, DateFormat::W3cDtf))
    })())
}

fn parse_rfc822_family(text: &str) -> Option<(DateTime<Utc>, DateFormat)> {
    if let Some(result) = rfc822_common(text) {
        return result;
    }
    parse_rfc822_general(text)
}

fn parse_rfc822_general(text: &str) -> Option<(DateTime<Utc>, DateFormat)> {
    let lower = text.to_lowercase();
    let mut toks: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    if toks.len() > 16 {
        return None;
    }
    let mut greek = false;
    if let Some(g) = toks.first().and_then(|t| weekday_token(t)) {
        greek = g;
        toks.remove(0);
    }
    // RFC 850 `06-nov-94` and Perforce `2006/09/15` become three tokens.
    let mut perforce = false;
    let mut expanded: Vec<&str> = Vec::with_capacity(toks.len() + 2);
    if let Some(first) = toks.first() {
        let pieces: Vec<&str> = first.split(['-', '/']).collect();
        if pieces.len() == 3 && first.contains('/') {
            // Perforce y/m/d → d m y, the month numeric.
            if pieces[0].len() != 4 {
                return None;
            }
            perforce = true;
            expanded.extend([pieces[2], pieces[1], pieces[0]]);
        } else if pieces.len() == 3 && month_token(pieces[1]).is_some() {
            expanded.extend(pieces);
        } else {
            expanded.push(first);
        }
        expanded.extend_from_slice(&toks[1..]);
    }
    let toks = expanded;

    let (day, month, mut rest, asctime) = match toks.as_slice() {
        [d, m, rest @ ..] if perforce => {
            let month = day_token(m).filter(|m| (1..=12).contains(m))?;
            (day_token(d)?, month, rest, false)
        }
        [d, m, rest @ ..] if d.bytes().all(|b| b.is_ascii_digit()) => {
            let (month, g) = month_token(m)?;
            greek |= g;
            (day_token(d)?, month, rest, false)
        }
        [m, d, rest @ ..] => {
            let (month, g) = month_token(m)?;
            greek |= g;
            // asctime puts the time before the year.
            let asctime = rest.first().is_some_and(|t| t.contains(':'));
            (day_token(d)?, month, rest, asctime)
        }
        _ => return None,
    };

    let mut year = None;
    if !asctime {
        let (y, r) = rest.split_first()?;
        year = Some(year_token(y)?);
        rest = r;
    }

    let mut clock = Clock::default();
    let mut have_time = false;
    if let Some((t, r)) = rest.split_first()
        && t.contains(':')
    {
        clock = parse_clock(t, true)?;
        have_time = true;
        rest = r;
        if let Some((ampm, r)) = rest.split_first()
            && matches!(*ampm, "am" | "pm" | "a.m." | "p.m.")
        {
            if clock.hour == 0 || clock.hour > 12 {
                return None;
            }
            clock.hour = clock.hour % 12 + if ampm.starts_with('p') { 12 } else { 0 };
            rest = r;
        }
    }
    if asctime && !have_time {
        return None;
    }

    let mut offset = 0;
    if let Some((z, r)) = rest.split_first() {
        let z = z.trim_end_matches('.');
        let is_year = asctime && z.bytes().all(|b| b.is_ascii_digit());
        if !is_year {
            offset = zone_token(z, have_time)?;
            rest = r;
            // `+0000 (GMT)` or `+0000 GMT`: a name after a numeric zone is a comment;
            // `GMT +0100`: the numeric offset after a name wins.
            if let Some((z2, r2)) = rest.split_first()
                && z2.starts_with(['+', '-'])
                && named_zone(z).is_some()
                && let Some(off2) = parse_numeric_offset(z2)
            {
                offset = off2;
                rest = r2;
            }
        }
    }
    if asctime {
        let (y, r) = rest.split_first()?;
        year = Some(year_token(y.trim_end_matches('.'))?);
        rest = r;
    }
    // Anything after the zone is ignored, as feedparser does (comments such as
    // `(CEST)` or a second zone name); without a zone, extra tokens are an error.
    if !rest.is_empty() && !have_time {
        return None;
    }

    let date = NaiveDate::from_ymd_opt(year?, month, day)?;
    let format = if perforce {
        DateFormat::Perforce
    } else if greek {
        DateFormat::Greek
    } else if asctime {
        DateFormat::Asctime
    } else {
        DateFormat::Rfc822
    };
    Some((build(date, clock, offset)?, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_http_date_forms() {
        // RFC 9110 §5.6.7: IMF-fixdate, RFC 850 and asctime must all be read.
        let want = [1994, 11, 6, 8, 49, 37, 6, 310, 0];
        for s in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            let dt = parse_date(s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(struct_time(&dt), want, "{s}");
        }
        assert_eq!(parse_date("yesterday"), None);
    }

    #[test]
    fn a_struct_time_holds_the_fields_of_the_utc_time() {
        let mut t = NaiveDate::from_ymd_opt(1, 1, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap();
        let mut n = 0;
        // Every 3,001,003 seconds (about 35 days, with a drifting time of day) to 9999.
        while let Some(next) = t.checked_add_signed(Duration::seconds(3_001_003)) {
            let dt = t.and_utc();
            let expected = [
                i64::from(dt.year()),
                i64::from(dt.month()),
                i64::from(dt.day()),
                i64::from(dt.hour()),
                i64::from(dt.minute()),
                i64::from(dt.second()),
                i64::from(dt.weekday().num_days_from_monday()),
                i64::from(dt.ordinal()),
                0,
            ];
            assert_eq!(struct_time(&dt), expected, "{dt}");
            n += 1;
            t = next;
            if t.year() > 9999 {
                break;
            }
        }
        assert!(n > 100_000, "{n} times");
    }

    #[test]
    fn a_time_within_the_day_is_built_as_the_duration_arithmetic_builds_it() {
        let by_durations = |date: NaiveDate, c: Clock, off: i64| {
            let secs =
                i64::from(c.hour) * 3600 + i64::from(c.minute) * 60 + i64::from(c.second) - off;
            let naive = date
                .and_hms_opt(0, 0, 0)?
                .checked_add_signed(Duration::try_seconds(secs)?)?
                .checked_add_signed(Duration::nanoseconds(i64::from(c.nanos)))?;
            (1..=9999).contains(&naive.year()).then(|| naive.and_utc())
        };
        let mut within = 0;
        for (y, m, d) in [
            (2004, 1, 1),
            (1999, 12, 31),
            (2000, 2, 29),
            (1, 1, 1),
            (9999, 12, 31),
        ] {
            let date = NaiveDate::from_ymd_opt(y, m, d).unwrap();
            for (hour, minute, second) in [
                (0, 0, 0),
                (12, 0, 60),
                (23, 59, 59),
                (23, 59, 60),
                (24, 0, 0),
                (5, 30, 0),
            ] {
                for nanos in [0, 1, 999_999_999] {
                    for off in [0, 19_800, -19_800, 86_399, -86_399, 3_600, -43_200] {
                        let clock = Clock {
                            hour,
                            minute,
                            second,
                            nanos,
                        };
                        let expected = by_durations(date, clock, off);
                        let secs =
                            i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second)
                                - off;
                        within += usize::from((0..86_400).contains(&secs));
                        // What `build` rejects before any arithmetic, it rejects either way.
                        if !(hour == 24 && (minute, second, nanos) != (0, 0, 0)) {
                            assert_eq!(
                                build(date, clock, off),
                                expected,
                                "{date} {hour}:{minute}:{second}.{nanos} {off}"
                            );
                        }
                    }
                }
            }
        }
        assert!(within > 100, "{within} times within the day");
    }

    #[test]
    fn rfc822_common_shape_agrees_with_the_general_path() {
        let mut n = 0;
        for day in ["Thu", "thu", "THU", "Sun", "Foo", "Th1"] {
            for date in [
                "01 Jan 2004",
                "31 Dec 1999",
                "29 Feb 2001",
                "00 Jan 2004",
                "15 jAN 2010",
                "15 Xyz 2010",
            ] {
                for time in [
                    "19:48:21", "00:00:00", "24:00:00", "23:60:00", "23:59:60", "99:99:99",
                ] {
                    for zone in [
                        "+0000", "-0530", "+2400", "+9999", "GMT", "gmt", "EST", "Z", "UT", "AM",
                        "pm", "XYZ", "+00:00", "0000",
                    ] {
                        let text = format!("{day}, {date} {time} {zone}");
                        let fast = rfc822_common(&text);
                        if let Some(fast) = fast {
                            n += 1;
                            assert_eq!(fast, parse_rfc822_general(&text), "{text}");
                        }
                        assert_eq!(
                            parse_rfc822_family(&text),
                            parse_rfc822_general(&text),
                            "{text}"
                        );
                    }
                }
            }
        }
        assert!(n > 1000, "{n} dates took the common path");
    }

    #[test]
    fn the_usual_shapes_parse_as_the_general_paths_parse_them() {
        let mut texts = Vec::new();
        for day in ["Thu", "sun", "Foo"] {
            for date in ["01 Jan 2004", "29 Feb 2001", "00 Jan 2004", "15 Xyz 2010"] {
                for time in ["19:48:21", "24:00:00", "23:60:00", "99:99:99"] {
                    for zone in ["+0000", "-0530", "+2400", "GMT", "EST", "AM", "XYZ", "0000"] {
                        texts.push(format!("{day}, {date} {time} {zone}"));
                    }
                }
            }
        }
        for date in [
            "2004-01-01",
            "2001-02-29",
            "2000-02-29",
            "2004-13-01",
            "2004-00-10",
            "0000-01-01",
            "9999-12-31",
            "20x4-01-01",
        ] {
            for sep in ["T", "t", " ", "X"] {
                for time in [
                    "19:48:21", "00:00:00", "24:00:00", "23:60:00", "23:59:60", "1:48:21",
                ] {
                    for zone in [
                        "Z", "z", "+00:00", "-05:30", "+24:00", "+23:59", "-00:60", "+0530",
                        "+5:30", " GMT", "", "Q",
                    ] {
                        texts.push(format!("{date}{sep}{time}{zone}"));
                    }
                }
            }
        }
        let mut fast = 0;
        for text in &texts {
            fast += usize::from(rfc822_common(text).or_else(|| iso_common(text)).is_some());
            assert_eq!(parse_date_with_format(text), parse_general(text), "{text}");
        }
        assert!(fast > 700, "{fast} of {} took a fast path", texts.len());
    }

    fn st(s: &str) -> Option<[i64; 9]> {
        parse_date_struct(s)
    }

    #[test]
    fn date_basic_families() {
        assert_eq!(
            st("2003-12-31T10:14:55Z"),
            Some([2003, 12, 31, 10, 14, 55, 2, 365, 0])
        );
        assert_eq!(
            st("Thu, 01 Jan 2004 19:48:21 GMT"),
            Some([2004, 1, 1, 19, 48, 21, 3, 1, 0])
        );
        assert_eq!(
            st("Sun Jan  4 16:29:06 2004"),
            Some([2004, 1, 4, 16, 29, 6, 6, 4, 0])
        );
        assert_eq!(st(""), None);
        assert_eq!(st(&"9".repeat(MAX_DATE_LEN + 1)), None);
    }

    #[test]
    fn date_named_zones() {
        assert_eq!(named_zone("est"), Some(-5 * 3600));
        assert_eq!(named_zone("a"), Some(-3600));
        assert_eq!(named_zone("m"), Some(-12 * 3600));
        assert_eq!(named_zone("n"), Some(3600));
        assert_eq!(named_zone("y"), Some(12 * 3600));
        assert_eq!(named_zone("j"), None);
        assert_eq!(named_zone("xyz"), None);
    }

    #[test]
    fn date_numeric_offsets() {
        assert_eq!(parse_numeric_offset("+0530"), Some(5 * 3600 + 30 * 60));
        assert_eq!(parse_numeric_offset("-01:01"), Some(-3660));
        assert_eq!(parse_numeric_offset("+05"), Some(5 * 3600));
        assert_eq!(parse_numeric_offset("+zz:00"), None);
        assert_eq!(parse_numeric_offset("+2400"), None);
        assert_eq!(parse_numeric_offset("+"), None);
    }

    #[test]
    fn date_frac_nanos() {
        assert_eq!(frac_nanos("5"), Some(500_000_000));
        assert_eq!(frac_nanos("1234567891234"), Some(123_456_789));
        assert_eq!(frac_nanos(""), None);
    }
}
