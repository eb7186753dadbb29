//! Typed reads of the iTunes podcast elements (`http://www.itunes.com/dtds/podcast-1.0.dtd`)
//! that the parser keeps under feedparser's keys in `extra` (`itunes_explicit`,
//! `itunes_duration`, …) and in `image`.

use std::time::Duration;

use serde_json::{Map, Value};

/// The iTunes elements of a feed or an entry ([`crate::Feed::itunes`],
/// [`crate::Entry::itunes`]).
///
/// ```
/// let p = feed_decoder::parse(
///     b"<rss version='2.0' xmlns:itunes='http://www.itunes.com/dtds/podcast-1.0.dtd'>\
///       <channel><title>Show</title><item><title>One</title>\
///       <itunes:duration>1:02:03</itunes:duration><itunes:explicit>yes</itunes:explicit>\
///       <itunes:episode>7</itunes:episode><itunes:image href='http://e/1.jpg'/>\
///       </item></channel></rss>",
///     &feed_decoder::Transport::Local,
/// );
/// let it = p.entries[0].itunes();
/// assert_eq!(it.duration(), Some(std::time::Duration::from_secs(3723)));
/// assert_eq!(it.explicit(), Some(true));
/// assert_eq!(it.episode(), Some(7));
/// assert_eq!(it.image(), Some("http://e/1.jpg"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Itunes<'a> {
    pub(crate) extra: &'a super::Extra,
    pub(crate) image: Option<&'a Map<String, Value>>,
}

impl<'a> Itunes<'a> {
    /// The value feedparser keeps for `itunes:NAME` (key `itunes_NAME`, lower case).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.extra
            .get(&format!("itunes_{}", name.to_ascii_lowercase()))
    }

    fn text(&self, name: &str) -> Option<&'a str> {
        self.get(name).and_then(Value::as_str)
    }

    fn number(&self, name: &str) -> Option<u32> {
        self.text(name)?.trim().parse().ok()
    }

    /// `itunes:explicit`: `Some(true)` for `yes`/`true`/`explicit`, `Some(false)` for
    /// `no`/`false`/`clean`; `None` when absent or unreadable.
    #[must_use]
    pub fn explicit(&self) -> Option<bool> {
        self.get("explicit").and_then(Value::as_bool)
    }

    /// `itunes:block` set to `yes`.
    #[must_use]
    pub fn block(&self) -> bool {
        self.get("block")
            .is_some_and(|v| v.as_i64() == Some(1) || v.as_bool() == Some(true))
    }

    /// `itunes:duration` as written (`1:02:03`, `62:03`, `3723`).
    #[must_use]
    pub fn duration_text(&self) -> Option<&'a str> {
        self.text("duration")
    }

    /// `itunes:duration` read as `[[H:]M:]S` or a number of seconds (fractions kept).
    #[must_use]
    pub fn duration(&self) -> Option<Duration> {
        parse_duration(self.duration_text()?)
    }

    /// `itunes:episode`.
    #[must_use]
    pub fn episode(&self) -> Option<u32> {
        self.number("episode")
    }

    /// `itunes:season`.
    #[must_use]
    pub fn season(&self) -> Option<u32> {
        self.number("season")
    }

    /// `itunes:episodeType` (`full`, `trailer`, `bonus`).
    #[must_use]
    pub fn episode_type(&self) -> Option<&'a str> {
        self.text("episodetype")
    }

    /// `itunes:title`.
    #[must_use]
    pub fn title(&self) -> Option<&'a str> {
        self.text("title")
    }

    /// `itunes:image`'s `href` (feedparser keeps it as `image.href`).
    #[must_use]
    pub fn image(&self) -> Option<&'a str> {
        self.image?.get("href")?.as_str()
    }
}

/// `[[H:]M:]S` (each part a number, the last may have a fraction) or plain seconds.
fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() || text.split(':').count() > 3 {
        return None;
    }
    let mut seconds = 0f64;
    for part in text.split(':') {
        let part = part.trim();
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return None;
        }
        seconds = seconds * 60.0 + part.parse::<f64>().ok()?;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations() {
        for (text, want) in [
            ("3723", Some(3723.0)),
            ("62:03", Some(3723.0)),
            ("1:02:03", Some(3723.0)),
            (" 0:00:01.5 ", Some(1.5)),
            ("", None),
            ("1:2:3:4", None),
            ("abc", None),
            ("-5", None),
            ("1::2", None),
        ] {
            assert_eq!(
                parse_duration(text),
                want.map(Duration::from_secs_f64),
                "{text:?}"
            );
        }
    }
}
