//! Property-style tests for `feed_decoder::date`: `struct_time` against chrono and an
//! independent calendar computation, round trips through several formats, and
//! no-panic checks over generated junk.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Timelike, Utc};
use feed_decoder::date::{MAX_DATE_LEN, parse_date, struct_time};
use std::time::Instant;

/// Days since 1970-01-01 by the civil-from-days inverse (Howard Hinnant's algorithm),
/// independent of chrono.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn yearday(y: i64, m: i64, d: i64) -> i64 {
    const CUM: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    CUM[(m - 1) as usize] + d + i64::from(m > 2 && is_leap(y))
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

#[test]
fn struct_time_agrees_with_chrono_and_arithmetic() {
    // Every 7th day plus a few hours from year 1 to 9999, and every day 1899-2101.
    let start = NaiveDate::from_ymd_opt(1, 1, 1).unwrap();
    let end = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
    let mut checked = 0;
    let mut day = start;
    let mut step = 0i64;
    while day <= end {
        let dt = day
            .and_hms_opt((step % 24) as u32, (step % 60) as u32, 59)
            .unwrap()
            .and_utc();
        let t = struct_time(&dt);
        let (y, m, d) = (t[0], t[1], t[2]);
        assert_eq!(y, i64::from(dt.year()));
        assert_eq!(m, i64::from(dt.month()));
        assert_eq!(d, i64::from(dt.day()));
        assert_eq!([t[3], t[4], t[5]], [step % 24, step % 60, 59]);
        assert_eq!(t[6], i64::from(dt.weekday().num_days_from_monday()), "{dt}");
        assert_eq!(t[7], i64::from(dt.ordinal()), "{dt}");
        assert_eq!(t[8], 0);
        // 1970-01-01 was a Thursday (Monday = 0 → 3).
        assert_eq!(t[6], (days_from_civil(y, m, d) + 3).rem_euclid(7), "{dt}");
        assert_eq!(t[7], yearday(y, m, d), "{dt}");
        checked += 1;
        step += 1;
        let dense = (1899..=2101).contains(&day.year());
        day = match day.checked_add_signed(Duration::days(if dense { 1 } else { 7 })) {
            Some(next) => next,
            None => break,
        };
    }
    assert!(checked > 500_000 / 7);
}

#[test]
fn known_weekdays() {
    let cases = [
        ((2000, 1, 1), 5, 1),
        ((2004, 2, 29), 6, 60),
        ((2004, 12, 31), 4, 366),
        ((1970, 1, 1), 3, 1),
        ((1, 1, 1), 0, 1),
        ((9999, 12, 31), 4, 365),
    ];
    for ((y, m, d), wd, yd) in cases {
        let dt = NaiveDate::from_ymd_opt(y, m, d)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap()
            .and_utc();
        let t = struct_time(&dt);
        assert_eq!((t[6], t[7]), (wd, yd), "{y}-{m}-{d}");
    }
}

/// A small deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn round_trips_through_every_family() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let base = NaiveDate::from_ymd_opt(1, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap();
    let span_secs = 9998 * 365 * 86_400;
    for _ in 0..3000 {
        let secs = (rng.next() % span_secs) as i64;
        let dt: DateTime<Utc> = (base + Duration::seconds(secs)).and_utc();
        let (y, mo, d) = (dt.year(), dt.month(), dt.day());
        let (h, mi, s) = (dt.hour(), dt.minute(), dt.second());
        let mon = MONTHS[mo as usize - 1];
        let wd = DAYS[dt.weekday().num_days_from_monday() as usize];
        let off_min = (rng.below(27 * 4) as i64 - 12 * 4) * 15;
        let local = dt + Duration::minutes(off_min);
        let (ly, lmo, ld) = (local.year(), local.month(), local.day());
        let (lh, lmi, ls) = (local.hour(), local.minute(), local.second());
        let sign = if off_min < 0 { '-' } else { '+' };
        let (oh, om) = (off_min.abs() / 60, off_min.abs() % 60);
        let lmon = MONTHS[lmo as usize - 1];
        let lwd = DAYS[local.weekday().num_days_from_monday() as usize];
        let mut texts = vec![
            format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
            format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z"),
            format!("{y:04}-{:03}T{h:02}:{mi:02}:{s:02}Z", dt.ordinal()),
            format!("{wd}, {d:02} {mon} {y:04} {h:02}:{mi:02}:{s:02} GMT"),
            format!("{wd} {mon} {d:>2} {h:02}:{mi:02}:{s:02} {y:04}"),
            format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.0"),
            format!("{ly:04}-{lmo:02}-{ld:02}T{lh:02}:{lmi:02}:{ls:02}{sign}{oh:02}:{om:02}"),
            format!("{lwd}, {ld} {lmon} {ly:04} {lh}:{lmi:02}:{ls:02} {sign}{oh:02}{om:02}"),
        ];
        if (1990..2090).contains(&y) {
            texts.push(format!(
                "{d:02} {mon} {:02} {h:02}:{mi:02}:{s:02} Z",
                y % 100
            ));
        }
        for text in texts {
            let parsed = parse_date(&text);
            // Zone offsets can push a year-1 or year-9999 local time out of range.
            if (2..9999).contains(&y) {
                assert_eq!(parsed, Some(dt), "{text}");
            } else if let Some(p) = parsed {
                assert_eq!(p, dt, "{text}");
            }
        }
    }
}

const PIECES: &[&str] = &[
    "0", "1", "2", "9", "12", "31", "99", "2004", "20041231", "-", "--", ":", "::", "T", "t", "Z",
    "z", "W", "+", "-05:00", "+0530", ".", ",", " ", "  ", "\t", "Mon", "Thu,", "Jan", "january",
    "Dec.", "GMT", "EST", "Etc/", "GMT+", "UTC-", "(", ")", "am", "PM", "/", "년", "월", "일",
    "오전", "오후", "Κυρ", "Ιούλ", "Νοέ", "július", "é", "ß", "\u{0301}", "\u{FEFF}", "😀", "\0",
    "24:00", "23:59:60", "9999", "0000", "-9999", "W53-7", "335",
];

fn junk(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(14) {
        s.push_str(PIECES[rng.below(PIECES.len())]);
    }
    s
}

/// Mutates a valid date: truncation, deletion, duplication or replacement of one char.
fn mutate(rng: &mut Rng, s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let i = rng.below(chars.len().max(1));
    let mut out: Vec<char> = chars.clone();
    match rng.below(4) {
        0 => out.truncate(i),
        1 => {
            if i < out.len() {
                out.remove(i);
            }
        }
        2 => {
            if i < out.len() {
                out.insert(i, chars[i]);
            }
        }
        _ => {
            let piece = PIECES[rng.below(PIECES.len())];
            if i < out.len() {
                out.splice(i..=i, piece.chars());
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn junk_never_panics() {
    let seeds = [
        "Sun, 16 Dec 2012 01:02:03 -0000",
        "2003-12-31T10:14:55.1234+08:00",
        "Sun Jul 15 01:16:00 +0000 2012",
        "Κυρ, 11 Ιούλ 2004 12:00:00 EST",
        "2004-július-13T9:15-05:00",
        "2004년 05월 28일  01:31:15",
        "2004-05-25 오후 11:23:17",
        "Fri, 2006/09/15 08:19:53 EDT",
        "2004-W53-6T12:00Z",
        "-03-12",
    ];
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut parsed = 0;
    let total = 6000;
    for n in 0..total {
        let text = if n % 2 == 0 {
            junk(&mut rng)
        } else {
            let seed = seeds[rng.below(seeds.len())];
            let mut t = mutate(&mut rng, seed);
            if rng.below(3) == 0 {
                t = mutate(&mut rng, &t);
            }
            t
        };
        if let Some(dt) = parse_date(&text) {
            parsed += 1;
            let t = struct_time(&dt);
            assert!((1..=9999).contains(&t[0]), "{text:?} → {t:?}");
        }
    }
    // Some mutations stay valid; most junk does not.
    assert!(parsed > 0 && parsed < total, "{parsed}");

    // Every prefix of every seed, cut at each char boundary.
    for seed in seeds {
        for (i, _) in seed.char_indices() {
            let _ = parse_date(&seed[..i]);
            let _ = parse_date(&seed[i..]);
        }
    }
}

#[test]
fn long_input_is_rejected_quickly() {
    let start = Instant::now();
    let long = "2003-12-31T10:14:55Z ".repeat(50_000);
    assert_eq!(parse_date(&long), None);
    let words = "Mon ".repeat(250_000);
    assert_eq!(parse_date(&words), None);
    // Right at the limit the work is bounded too.
    let at_limit = format!("{}{}", "1".repeat(MAX_DATE_LEN - 4), "2004");
    assert_eq!(parse_date(&at_limit), None);
    let spaced = format!("Thu, 01 Jan 2004 10:00:00 GMT{}", " (x)".repeat(50));
    assert!(spaced.trim().len() <= MAX_DATE_LEN);
    let _ = parse_date(&spaced);
    assert!(start.elapsed().as_secs() < 2, "{:?}", start.elapsed());
}
