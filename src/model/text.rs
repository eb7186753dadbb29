//! [`Text`]: a text construct's details, whose media type, language and base sit in one
//! value shared by every text of the same scope ([`TextMeta`]).
//!
//! An entry has three or four texts (`title_detail`, `summary_detail`, `content`, …),
//! and nearly all the texts of a feed carry one of a few (type, language, base)
//! combinations. Held inline, those three took 48 of a text's 88 bytes and three
//! reference counts; shared, a text is 24 bytes and one count.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::Deserialize;

/// What a text construct's details say besides the text, shared by the texts that say
/// the same (an entry has three or four texts, and nearly all the texts of a feed carry
/// one of a few combinations).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct TextMeta {
    /// The media type: `text/plain`, `text/html`, `application/xhtml+xml`, ….
    #[serde(rename = "type")]
    pub content_type: Arc<str>,
    /// The `xml:lang` in effect (`null` when none).
    #[serde(default)]
    pub language: Option<Arc<str>>,
    /// The `xml:base` in effect (empty when none).
    #[serde(default)]
    pub base: Arc<str>,
    /// Atom `content/@src`.
    #[serde(default)]
    pub src: Option<String>,
}

/// A text construct's details (feedparser's `*_detail` and `content` items): the text,
/// and its [`TextMeta`], whose fields read (and write) through the text itself
/// (`text.content_type`, `text.language`, …). A write to a shared one copies it first.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "Flat")]
pub struct Text {
    meta: Arc<TextMeta>,
    /// The text (markup for HTML and XHTML types, unsanitized). Shared with the plain
    /// field of a `*_detail` (`summary` and `summary_detail.value` are one string).
    pub value: Arc<str>,
}

impl Text {
    /// A text with its own details.
    #[must_use]
    pub fn new(meta: TextMeta, value: Arc<str>) -> Self {
        Text::shared(Arc::new(meta), value)
    }

    /// A text whose details are shared with other texts.
    #[must_use]
    pub fn shared(meta: Arc<TextMeta>, value: Arc<str>) -> Self {
        Text { meta, value }
    }

    /// The shared details.
    #[must_use]
    pub fn meta(&self) -> &Arc<TextMeta> {
        &self.meta
    }
}

impl Deref for Text {
    type Target = TextMeta;

    fn deref(&self) -> &TextMeta {
        &self.meta
    }
}

impl DerefMut for Text {
    /// The details to change: copied first when other texts share them.
    fn deref_mut(&mut self) -> &mut TextMeta {
        Arc::make_mut(&mut self.meta)
    }
}

/// A text as the JSON contract writes it: its details and its value side by side.
#[derive(Deserialize)]
struct Flat {
    #[serde(flatten)]
    meta: TextMeta,
    value: Arc<str>,
}

impl From<Flat> for Text {
    fn from(f: Flat) -> Self {
        Text::new(f.meta, f.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_are_shared_until_one_is_changed() {
        let meta = Arc::new(TextMeta {
            content_type: "text/html".into(),
            language: Some("en".into()),
            base: "http://example.org/".into(),
            src: None,
        });
        let a = Text::shared(Arc::clone(&meta), "<p>a</p>".into());
        let mut b = Text::shared(Arc::clone(&meta), "<p>b</p>".into());
        assert!(Arc::ptr_eq(a.meta(), b.meta()));
        assert_eq!(&*b.content_type, "text/html");
        b.language = None;
        assert!(!Arc::ptr_eq(a.meta(), b.meta()));
        assert_eq!(a.language.as_deref(), Some("en"));
        assert_eq!(b.language, None);
        assert_eq!(&*b.base, "http://example.org/");
        assert_eq!(std::mem::size_of::<Text>(), 24);
    }

    #[test]
    fn reads_the_contract_shape() {
        let t: Text = serde_json::from_str(
            r#"{"base":"","language":null,"type":"text/plain","value":"v","src":"s"}"#,
        )
        .unwrap();
        assert_eq!(&*t.value, "v");
        assert_eq!(&*t.content_type, "text/plain");
        assert_eq!(t.src.as_deref(), Some("s"));
        assert_eq!(t.language, None);
        let equal = Text::new((*t.meta).clone(), "v".into());
        assert_eq!(t, equal);
    }
}
