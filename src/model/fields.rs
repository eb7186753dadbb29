//! The typed fields of [`super::Feed`] and [`super::Entry`], each written once, with its
//! feedparser key: a new field is one line in one of these lists.
//!
//! Each list is an "x-macro": `feed_fields!(m)` and `entry_fields!(m)` call the macro `m`
//! with the whole list, in this shape:
//!
//! ```text
//! Name {
//!     /// docs
//!     field: Type = "key",            (an optional value: `Option<Type>`)
//! }
//! lists {
//!     field: Item = "key",            (a list: `Vec<Item>`, absent when empty)
//! }
//! dates {
//!     field / field_parsed = "key", "key_parsed",   (the date as written, and parsed)
//! }
//! more NameMore {                     (optional: fields few records have)
//!     field: Type = "key",
//! }
//! more_dates {
//!     field / field_parsed = "key", "key_parsed",
//! }
//! ```
//!
//! The `more` fields live in a second struct, boxed in the first (`more`, `None` while
//! none is set): an entry that has none of them costs one pointer for them all, where
//! their own room would be a third of the entry.
//!
//! The model expands them into its structs (with `TYPED_KEYS`, `has_typed_key` and the
//! list accessors, [`super`]); the XML builder into the conversions that fill a field by
//! its key; the JSON contract into the sorted view of the fields it writes, with their
//! keys as written in JSON. Type names are resolved where the list is expanded.

/// The typed fields of [`super::Feed`] (see the [module docs](self)).
macro_rules! feed_fields {
    ($m:ident) => {
        $m! {
            /// Channel-level metadata (feedparser's `feed`).
            Feed {
                /// The title.
                title: Arc<str> = "title",
                /// The title's details.
                title_detail: Box<Text> = "title_detail",
                /// The main (alternate HTML) link.
                link: CompactString = "link",
                /// The subtitle / tagline / description.
                subtitle: Arc<str> = "subtitle",
                /// The subtitle's details.
                subtitle_detail: Box<Text> = "subtitle_detail",
                /// Copyright / rights.
                rights: Arc<str> = "rights",
                /// The rights' details.
                rights_detail: Box<Text> = "rights_detail",
                /// Atom 0.3 `info`.
                info: Arc<str> = "info",
                /// The info's details.
                info_detail: Box<Text> = "info_detail",
                /// The identifier.
                id: CompactString = "id",
                /// The author as one string.
                author: CompactString = "author",
                /// The author's details.
                author_detail: Box<Person> = "author_detail",
                /// The publisher (webMaster, dc:publisher, itunes:owner) as one string.
                publisher: CompactString = "publisher",
                /// The publisher's details.
                publisher_detail: Box<Person> = "publisher_detail",
                /// The language.
                language: CompactString = "language",
                /// The generator's name.
                generator: CompactString = "generator",
                /// The generator's details (`name`, `href`, `version`).
                generator_detail: Map<String, Value> = "generator_detail",
                /// RSS `docs`.
                docs: CompactString = "docs",
                /// RSS `ttl`, as written.
                ttl: CompactString = "ttl",
                /// Atom `icon`.
                icon: CompactString = "icon",
                /// Atom `logo`.
                logo: CompactString = "logo",
                /// The feed image (`title`, `href`, `link`, `width`, `height`, …).
                image: Map<String, Value> = "image",
                /// The text input (`title`, `name`, `link`, `description`).
                textinput: Map<String, Value> = "textinput",
                /// RSS `cloud` attributes.
                cloud: Map<String, Value> = "cloud",
                /// GeoRSS location (`type`, `coordinates`).
                location: Map<String, Value> = "where",
                /// The Podcasting 2.0 elements of the channel (see [`Podcast`]).
                podcast: Podcast = "podcast",
            }
            lists {
                /// Every link.
                links: Link = "links",
                /// Every author.
                authors: Person = "authors",
                /// Contributors.
                contributors: Person = "contributors",
                /// Categories, keywords.
                tags: Tag = "tags",
            }
            dates {
                /// The publication date, as written.
                published / published_parsed = "published", "published_parsed",
                /// The last-updated date, as written.
                updated / updated_parsed = "updated", "updated_parsed",
            }
        }
    };
}

/// The typed fields of [`super::Entry`] (see the [module docs](self)).
macro_rules! entry_fields {
    ($m:ident) => {
        $m! {
            /// One item / entry.
            Entry {
                /// The title.
                title: Arc<str> = "title",
                /// The title's details.
                title_detail: Box<Text> = "title_detail",
                /// The main (alternate HTML) link.
                link: CompactString = "link",
                /// The summary / description.
                summary: Arc<str> = "summary",
                /// The summary's details.
                summary_detail: Box<Text> = "summary_detail",
                /// The identifier (guid, atom:id, rdf:about).
                id: CompactString = "id",
                /// Whether the guid is the permalink.
                guidislink: bool = "guidislink",
                /// The author as one string.
                author: CompactString = "author",
                /// The author's details.
                author_detail: Box<Person> = "author_detail",
                /// RSS `comments`.
                comments: CompactString = "comments",
            }
            lists {
                /// Every link (enclosures included, `rel` = `enclosure`).
                links: Link = "links",
                /// Full content (content:encoded, atom:content, xhtml:body, …).
                content: Text = "content",
                /// Every author.
                authors: Person = "authors",
                /// Contributors.
                contributors: Person = "contributors",
                /// Categories, keywords.
                tags: Tag = "tags",
            }
            dates {
                /// The publication date, as written.
                published / published_parsed = "published", "published_parsed",
                /// The last-updated date, as written.
                updated / updated_parsed = "updated", "updated_parsed",
            }
            more EntryMore {
                /// The publisher as one string.
                publisher: CompactString = "publisher",
                /// The publisher's details.
                publisher_detail: Box<Person> = "publisher_detail",
                /// Rights.
                rights: Arc<str> = "rights",
                /// The rights' details.
                rights_detail: Box<Text> = "rights_detail",
                /// The source feed (`title`, `href`, `links`, …).
                source: Map<String, Value> = "source",
                /// GeoRSS location (`type`, `coordinates`).
                location: Map<String, Value> = "where",
                /// The Podcasting 2.0 elements of the item (see [`Podcast`]).
                podcast: Podcast = "podcast",
            }
            more_dates {
                /// The creation date, as written.
                created / created_parsed = "created", "created_parsed",
                /// The expiration date, as written.
                expired / expired_parsed = "expired", "expired_parsed",
            }
        }
    };
}

pub(crate) use {entry_fields, feed_fields};
