//! The Podcasting 2.0 elements, kept whole: [`Podcast`] and its [`PodcastElement`]s.

use std::collections::BTreeMap;

/// The Podcasting 2.0 elements (`https://podcastindex.org/namespace/1.0`) of a channel
/// or an item: the `podcast` key of `feed` and of each entry.
///
/// The choice: one `podcast` object, keyed by the element's local name as the
/// specification spells it (`transcript`, `valueRecipient`, `alternateEnclosure`,
/// `liveItem`, …), each holding a **list** of [`PodcastElement`]s in document order,
/// whether the specification allows one element or many: nothing repeated is ever lost
/// (feedparser keeps only the last `podcast:valueRecipient`), and every key has one
/// shape. An element is its attributes (spec spelling: `feedGuid`, `startTime`,
/// `customKey`, …), its text as `content`, and its nested elements as lists under their
/// names (`value[0].valueRecipient`, `alternateEnclosure[0].source`,
/// `liveItem[0].title`; non-`podcast:` children keep the parser's key, e.g.
/// `enclosure`, `itunes_image`).
///
/// ```json
/// "podcast": {"season": [{"name": "Egypt", "content": "3"}],
///             "transcript": [{"url": "https://ex.org/1.vtt", "type": "text/vtt"},
///                            {"url": "https://ex.org/1.srt", "type": "application/srt"}]}
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Podcast(pub BTreeMap<String, Vec<PodcastElement>>);

impl Podcast {
    /// Every element named `name` (`transcript`, `person`, …), in document order.
    #[must_use]
    pub fn get(&self, name: &str) -> &[PodcastElement] {
        self.0.get(name).map_or(&[], Vec::as_slice)
    }

    /// The first element named `name` (for the elements the specification allows once:
    /// `guid`, `locked`, `season`, `episode`, `medium`, …).
    #[must_use]
    pub fn first(&self, name: &str) -> Option<&PodcastElement> {
        self.get(name).first()
    }

    /// The text of the first element named `name`.
    #[must_use]
    pub fn text(&self, name: &str) -> Option<&str> {
        self.first(name).and_then(PodcastElement::content)
    }
}

/// One `podcast:` element (or an element nested in one): attributes, text, children.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodcastElement {
    /// The attributes, by the specification's spelling.
    pub attrs: BTreeMap<String, String>,
    /// The text, trimmed (`None` when blank).
    pub content: Option<String>,
    /// Nested elements by name, each a list in document order.
    pub children: BTreeMap<String, Vec<PodcastElement>>,
}

impl PodcastElement {
    /// An attribute's value.
    #[must_use]
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }

    /// The text.
    #[must_use]
    pub fn content(&self) -> Option<&str> {
        self.content.as_deref()
    }

    /// The nested elements named `name`.
    #[must_use]
    pub fn children(&self, name: &str) -> &[PodcastElement] {
        self.children.get(name).map_or(&[], Vec::as_slice)
    }
}
