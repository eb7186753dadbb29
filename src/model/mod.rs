//! The feed model: one shape for RSS 0.9x/1.0/2.0, Atom 0.3/1.0, CDF and JSON Feed 1.0/1.1,
//! keyed the way feedparser keys its result.
//!
//! Plain data with public fields: the model knows no parser and no writer. The common
//! keys of feedparser's result are typed fields, listed once with their keys in
//! `model/fields.rs` (the parsers fill a field by its key, the JSON contract writes it
//! under it); every other key feedparser sets (`itunes_*`, `media_*`, `psc_chapters`,
//! unknown namespaced elements, …) is kept in `extra` ([`Extra`], a map sorted in one
//! vector), by its feedparser name, as the JSON value it has in the contract. Aliases
//! (`channel`, `items`, `guid`, `description`) and computed keys (`enclosures`,
//! `license`, `category`) are not stored; [`Entry::enclosures`] and friends compute them.
//!
//! Sized for feeds of a million entries: short strings are [`CompactString`]s (inline up
//! to 24 bytes, as most `rel`, `type`, terms, names and Atom dates are), the entry
//! fields few entries have sit in one box, [`Entry::more`] ([`EntryMore`]), and the texts
//! of a scope share their media type, language and base ([`TextMeta`]).
//!
//! In the JSON contract (the `output` stage above this one), [`Feed`] and [`Entry`] are
//! objects with feedparser's canonical keys (`title`, `title_detail`, `links`, `summary_detail`,
//! `content`, `author_detail`, `tags`, `published_parsed`, …), `extra` among them: a key
//! feedparser would not have set is absent, and `null` stands for Python's `None`.
//!
//! JSON Feed maps onto the same keys (its reader, in the `parse` stage, has the table). The
//! Podcasting 2.0 namespace is one typed `podcast` object on the feed and on each entry
//! ([`Podcast`]): every element a list, so none is lost.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
pub use compact_str::CompactString;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::bozo::Bozo;

mod extra;
mod fields;
mod itunes;
mod media;
mod podcast;
mod text;

pub use extra::Extra;
pub(crate) use fields::{entry_fields, feed_fields};
pub use itunes::Itunes;
pub use media::{Media, MediaObject};
pub use podcast::{Podcast, PodcastElement};
pub use text::{Text, TextMeta};

/// A link (`links` items; enclosures have `rel` = `enclosure`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Link {
    /// The relation (`alternate`, `self`, `enclosure`, `license`, …).
    #[serde(default)]
    pub rel: Option<CompactString>,
    /// The media type.
    #[serde(default, rename = "type")]
    pub content_type: Option<CompactString>,
    /// The target.
    #[serde(default)]
    pub href: Option<CompactString>,
    /// The title.
    #[serde(default)]
    pub title: Option<CompactString>,
    /// The length in bytes, as written.
    #[serde(default)]
    pub length: Option<CompactString>,
    /// Any other attribute (`hreflang`, …).
    #[serde(flatten)]
    pub extra: Extra,
}

impl Link {
    /// The typed field of a key of feedparser's link dictionary (`rel`, `type`, `href`,
    /// `title`, `length`); `None` for a key kept in `extra`.
    pub(crate) fn field_mut(&mut self, key: &str) -> Option<&mut Option<CompactString>> {
        Some(match key {
            "rel" => &mut self.rel,
            "type" => &mut self.content_type,
            "href" => &mut self.href,
            "title" => &mut self.title,
            "length" => &mut self.length,
            _ => return None,
        })
    }

    /// [`Link::length`] read as a number of bytes (`None` when absent or not a
    /// non-negative integer; the text is kept as written in `length`).
    #[must_use]
    pub fn length_bytes(&self) -> Option<u64> {
        self.length.as_deref()?.trim().parse().ok()
    }
}

/// An enclosure: a [`Link`] whose `rel` is `enclosure` (`href`, `length`, `type`), as
/// [`Entry::enclosures`] returns them.
pub type Enclosure = Link;

/// A person (`author_detail`, `authors`, `contributors`, `publisher_detail`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Person {
    /// The name.
    #[serde(default)]
    pub name: Option<CompactString>,
    /// The e-mail address.
    #[serde(default)]
    pub email: Option<CompactString>,
    /// The home page.
    #[serde(default)]
    pub href: Option<CompactString>,
    /// An avatar image URL (JSON Feed `avatar`).
    #[serde(default)]
    pub image: Option<CompactString>,
}

/// A category / tag / keyword.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Tag {
    /// The term.
    pub term: Option<CompactString>,
    /// The scheme or domain.
    pub scheme: Option<CompactString>,
    /// The human label.
    pub label: Option<CompactString>,
}

/// A Python `time.struct_time` in UTC:
/// `[year, month, day, hour, minute, second, weekday (Mon=0), yearday, dst=0]`: how the
/// JSON contract writes a parsed date (the date parser makes it).
pub type StructTime = [i64; 9];

/// Expands a field list of [`fields`] into the struct, its typed keys and its list
/// accessors.
macro_rules! model_struct {
    (
        $(#[$meta:meta])* $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $key:literal ),* $(,)?
        }
        lists { $( $(#[$lmeta:meta])* $lfield:ident : $lty:ty = $lkey:literal ),* $(,)? }
        dates { $( $(#[$dmeta:meta])* $dfield:ident / $dparsed:ident = $dkey:literal, $pkey:literal ),* $(,)? }
        $(
            more $more:ident { $( $(#[$mmeta:meta])* $mfield:ident : $mty:ty = $mkey:literal ),* $(,)? }
            more_dates { $( $(#[$mdmeta:meta])* $mdfield:ident / $mdparsed:ident = $mdkey:literal, $mpkey:literal ),* $(,)? }
        )?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: Option<$ty>,
            )*
            $(
                $(#[$lmeta])*
                pub $lfield: Vec<$lty>,
            )*
            $(
                $(#[$dmeta])*
                pub $dfield: Option<CompactString>,
                #[doc = concat!("`", $dkey, "_parsed`: the parsed date (UTC); `Some(None)` when the date did not parse. In JSON a Python `struct_time` (see [`StructTime`]) or `null`.")]
                pub $dparsed: Option<Option<DateTime<Utc>>>,
            )*
            $(
                #[doc = concat!("The keys few records have ([`", stringify!($more), "`]), boxed: `None` while none is set. Read them with [`", stringify!($name), "::more`].")]
                pub more: Option<Box<$more>>,
            )?
            /// Every other key feedparser sets, by its feedparser name.
            pub extra: Extra,
        }

        $(
            #[doc = concat!("The fields of [`", stringify!($name), "`] that few records have, kept in a box of their own (see [`", stringify!($name), "::more`]).")]
            #[derive(Clone, Debug, Default, PartialEq)]
            pub struct $more {
                $(
                    $(#[$mmeta])*
                    pub $mfield: Option<$mty>,
                )*
                $(
                    $(#[$mdmeta])*
                    pub $mdfield: Option<CompactString>,
                    #[doc = concat!("`", $mdkey, "_parsed`: the parsed date (UTC); `Some(None)` when the date did not parse.")]
                    pub $mdparsed: Option<Option<DateTime<Utc>>>,
                )*
            }

            impl $name {
                #[doc = concat!("The fields few records have: the boxed [`", stringify!($more), "`], or an empty one when none is set.")]
                #[must_use]
                pub fn more(&self) -> &$more {
                    static NONE: std::sync::LazyLock<$more> = std::sync::LazyLock::new(Default::default);
                    self.more.as_deref().unwrap_or(&NONE)
                }

                #[doc = concat!("The fields few records have, to set: the box is made on first use.")]
                pub fn more_mut(&mut self) -> &mut $more {
                    self.more.get_or_insert_with(Default::default)
                }
            }
        )?

        impl $name {
            /// The keys with a typed field, in the order of the field list.
            pub(crate) const TYPED_KEYS: &[&str] = &[
                $($key,)* $($lkey,)* $($dkey, $pkey,)*
                $($($mkey,)* $($mdkey, $mpkey,)*)?
            ];

            /// Whether `key` is one of [`Self::TYPED_KEYS`] (one `match`).
            pub(crate) fn has_typed_key(key: &str) -> bool {
                match key {
                    $($key => true,)*
                    $($lkey => true,)*
                    $($dkey | $pkey => true,)*
                    $($($mkey => true,)* $($mdkey | $mpkey => true,)*)?
                    _ => false,
                }
            }

            $(
                #[doc = concat!("The `", $lkey, "` list as a slice (the field itself is a `Vec`).")]
                #[must_use]
                pub fn $lfield(&self) -> &[$lty] {
                    &self.$lfield
                }
            )*
        }
    };
}

feed_fields!(model_struct);
entry_fields!(model_struct);

/// The parsed date: the parser sets it beside every date text it reads (`Some(None)` when
/// the text is no date); a model built by hand sets it itself, as the model parses
/// nothing.
fn date(parsed: Option<Option<DateTime<Utc>>>) -> Option<DateTime<Utc>> {
    parsed.flatten()
}

impl Feed {
    /// The publication date.
    #[must_use]
    pub fn published_date(&self) -> Option<DateTime<Utc>> {
        date(self.published_parsed)
    }

    /// The last-updated date.
    #[must_use]
    pub fn updated_date(&self) -> Option<DateTime<Utc>> {
        date(self.updated_parsed)
    }

    /// The best date the feed gives: published, else updated.
    #[must_use]
    pub fn best_date(&self) -> Option<DateTime<Utc>> {
        self.published_date().or_else(|| self.updated_date())
    }

    /// The iTunes podcast elements of the channel.
    #[must_use]
    pub fn itunes(&self) -> Itunes<'_> {
        Itunes {
            extra: &self.extra,
            image: self.image.as_ref(),
        }
    }
}

impl Entry {
    /// The publication date (`pubDate`, `dc:date`, `published`, `issued`, …).
    #[must_use]
    pub fn published_date(&self) -> Option<DateTime<Utc>> {
        date(self.published_parsed)
    }

    /// The last-updated date (`updated`, `modified`, `dcterms:modified`, …).
    #[must_use]
    pub fn updated_date(&self) -> Option<DateTime<Utc>> {
        date(self.updated_parsed)
    }

    /// The creation date (`created`, `dcterms:created`).
    #[must_use]
    pub fn created_date(&self) -> Option<DateTime<Utc>> {
        date(self.more().created_parsed)
    }

    /// The expiration date (`expirationDate`, `dcterms:valid` end, …).
    #[must_use]
    pub fn expired_date(&self) -> Option<DateTime<Utc>> {
        date(self.more().expired_parsed)
    }

    /// The date to sort or show the entry by: published, else updated, else created.
    #[must_use]
    pub fn best_date(&self) -> Option<DateTime<Utc>> {
        self.published_date()
            .or_else(|| self.updated_date())
            .or_else(|| self.created_date())
    }

    /// The full contents (empty when none).
    #[must_use]
    pub fn contents(&self) -> &[Text] {
        &self.content
    }

    /// The iTunes podcast elements of the item.
    #[must_use]
    pub fn itunes(&self) -> Itunes<'_> {
        Itunes {
            extra: &self.extra,
            image: self.extra.get("image").and_then(Value::as_object),
        }
    }

    /// The Media RSS elements of the item.
    #[must_use]
    pub fn media(&self) -> Media<'_> {
        Media { extra: &self.extra }
    }

    /// The enclosures: the links whose `rel` is `enclosure`.
    pub fn enclosures(&self) -> impl Iterator<Item = &Enclosure> {
        self.links()
            .iter()
            .filter(|l| l.rel.as_deref() == Some("enclosure"))
    }

    /// The license link's target (Creative Commons), if any.
    #[must_use]
    pub fn license(&self) -> Option<&str> {
        self.links()
            .iter()
            .find(|l| l.rel.as_deref() == Some("license") && l.href.is_some())
            .and_then(|l| l.href.as_deref())
    }
}

/// The result of parsing decoded text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedFeed {
    /// feedparser's version string (`rss20`, `atom10`, …; empty when unknown).
    pub version: String,
    /// Namespace prefixes as declared in the document (known namespaces under
    /// feedparser's prefix).
    pub namespaces: BTreeMap<String, String>,
    /// Channel-level metadata.
    pub feed: Feed,
    /// The entries, in document order.
    pub entries: Vec<Entry>,
    /// Markup problems, in the order found.
    pub bozo: Vec<Bozo>,
    /// The elements the parse options named as handled by the program (`handlers`), met,
    /// in document order.
    pub handler_calls: Vec<HandlerCall>,
}

/// An element a program handles itself, met: the call feedparser would have made to the
/// handler the program added to its parser class (`_start_newznab_attr(attrs)` at the
/// start tag, `_end_…()` at the end tag) for an element this crate reads no field from,
/// with what the handler gets to see, so that the program's handler can be called
/// afterwards (the Python package does). Recorded only for the element keys the parse
/// options name (`ParseOptions::handlers`); the element is then left to the
/// handler (not stored under its key as an unknown element is).
#[derive(Clone, Debug, PartialEq)]
pub struct HandlerCall {
    /// The element's key (`newznab_attr`): the handler is `_start_` or `_end_` and it.
    pub key: String,
    /// The end tag's call (`_end_…`), else the start tag's (`_start_…`).
    pub end: bool,
    /// What feedparser's `_get_context()` returns at that point.
    pub context: HandlerContext,
    /// The start tag's attributes (names lower-cased, as for an unknown element's
    /// dictionary): the start handler's argument.
    pub attrs: Vec<(String, String)>,
    /// The element's text, trimmed (what the end handler's `self.pop(key)` returns):
    /// `None` for a start tag, and for an element a start handler took over (feedparser's
    /// `pop` finds nothing of it then).
    pub text: Option<String>,
}

/// Where a [`HandlerCall`] happened: the dictionary feedparser's `_get_context()` gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HandlerContext {
    /// The feed (`feed`).
    Feed,
    /// The entry of this index (`entries[i]`).
    Entry(usize),
    /// The feed's image (`feed["image"]`).
    Image,
    /// The feed's text input (`feed["textinput"]`).
    TextInput,
    /// The source of the entry of this index (`entries[i]["source"]`).
    Source(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_key_match_is_the_list_of_typed_keys() {
        for k in Entry::TYPED_KEYS {
            assert!(Entry::has_typed_key(k), "{k}");
        }
        for k in Feed::TYPED_KEYS {
            assert!(Feed::has_typed_key(k), "{k}");
        }
        for k in ["", "\0", "titles", "Title", "itunes_author_x", "links_"] {
            let listed = Entry::TYPED_KEYS.contains(&k) || Feed::TYPED_KEYS.contains(&k);
            assert!(
                !listed && !Entry::has_typed_key(k) && !Feed::has_typed_key(k),
                "{k}"
            );
        }
    }
}
