//! Typed reads of the Media RSS elements (`http://search.yahoo.com/mrss/`) that the
//! parser keeps under feedparser's keys in `extra` (`media_content`, `media_thumbnail`,
//! `media_credit`, `media_player`, …).

use serde_json::{Map, Value};

/// The Media RSS elements of an entry ([`crate::Entry::media`]).
///
/// ```
/// let p = feed_decoder::parse(
///     b"<rss version='2.0' xmlns:media='http://search.yahoo.com/mrss/'><channel>\
///       <item><title>Clip</title>\
///       <media:content url='http://e/v.mp4' type='video/mp4' fileSize='1000' width='640'/>\
///       <media:thumbnail url='http://e/t.jpg' width='120' height='90'/>\
///       </item></channel></rss>",
///     &feed_decoder::Transport::Local,
/// );
/// let media = p.entries[0].media();
/// let video = media.contents().next().unwrap();
/// assert_eq!(video.url(), Some("http://e/v.mp4"));
/// assert_eq!(video.content_type(), Some("video/mp4"));
/// assert_eq!(video.file_size(), Some(1000));
/// assert_eq!(video.width(), Some(640));
/// assert_eq!(media.thumbnails().next().unwrap().height(), Some(90));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Media<'a> {
    pub(crate) extra: &'a super::Extra,
}

impl<'a> Media<'a> {
    /// The value feedparser keeps for `media:NAME` (key `media_NAME`, lower case).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.extra
            .get(&format!("media_{}", name.to_ascii_lowercase()))
    }

    /// The objects of `media:NAME`: a list of them, or one.
    fn objects(&self, name: &str) -> impl Iterator<Item = MediaObject<'a>> + use<'a> {
        let v = self.get(name);
        let list = v.and_then(Value::as_array).map(Vec::as_slice);
        let one = v.and_then(Value::as_object);
        list.unwrap_or_default()
            .iter()
            .filter_map(Value::as_object)
            .chain(one)
            .map(MediaObject)
    }

    /// `media:content` items (also those inside `media:group`), in document order.
    pub fn contents(&self) -> impl Iterator<Item = MediaObject<'a>> + use<'a> {
        self.objects("content")
    }

    /// `media:thumbnail` items.
    pub fn thumbnails(&self) -> impl Iterator<Item = MediaObject<'a>> + use<'a> {
        self.objects("thumbnail")
    }

    /// `media:credit` items (`content`, `role`, `scheme`).
    pub fn credits(&self) -> impl Iterator<Item = MediaObject<'a>> + use<'a> {
        self.objects("credit")
    }

    /// `media:player` (`url`, `width`, `height`).
    #[must_use]
    pub fn player(&self) -> Option<MediaObject<'a>> {
        self.objects("player").next()
    }

    /// `media:rating` (`content`, `scheme`).
    #[must_use]
    pub fn rating(&self) -> Option<MediaObject<'a>> {
        self.objects("rating").next()
    }
}

/// One Media RSS object: its attributes (feedparser lower-cases their names) and, for
/// elements with text, `content`.
#[derive(Clone, Copy, Debug)]
pub struct MediaObject<'a>(pub &'a Map<String, Value>);

impl<'a> MediaObject<'a> {
    /// An attribute (lower-case name) or `content`, as text.
    #[must_use]
    pub fn attr(&self, name: &str) -> Option<&'a str> {
        self.0.get(name)?.as_str()
    }

    fn number(&self, name: &str) -> Option<u64> {
        self.attr(name)?.trim().parse().ok()
    }

    /// `url`.
    #[must_use]
    pub fn url(&self) -> Option<&'a str> {
        self.attr("url")
    }

    /// `type` (a media type).
    #[must_use]
    pub fn content_type(&self) -> Option<&'a str> {
        self.attr("type")
    }

    /// `medium` (`image`, `audio`, `video`, `document`, `executable`).
    #[must_use]
    pub fn medium(&self) -> Option<&'a str> {
        self.attr("medium")
    }

    /// `fileSize` in bytes.
    #[must_use]
    pub fn file_size(&self) -> Option<u64> {
        self.number("filesize")
    }

    /// `duration` in seconds.
    #[must_use]
    pub fn duration_seconds(&self) -> Option<u64> {
        self.number("duration")
    }

    /// `width` in pixels.
    #[must_use]
    pub fn width(&self) -> Option<u64> {
        self.number("width")
    }

    /// `height` in pixels.
    #[must_use]
    pub fn height(&self) -> Option<u64> {
        self.number("height")
    }

    /// The element's text (`media:credit`, `media:rating`, …).
    #[must_use]
    pub fn content(&self) -> Option<&'a str> {
        self.attr("content")
    }
}
