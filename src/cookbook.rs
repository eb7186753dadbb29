//! Recipes: the common tasks, each a tested example.
//!
//! ## Read a file and go through its entries
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! # let dir = std::env::temp_dir().join(format!("fd-cookbook-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("feed.xml");
//! # std::fs::write(&path, "<rss version='2.0'><channel><title>News</title>\
//! #   <item><title>First</title><link>http://example.com/1</link></item>\
//! #   <item><title>Second</title></item></channel></rss>")?;
//! let parsed = feed_decoder::parse_file(&path)?;
//! println!("{} ({})", parsed.feed.title.as_deref().unwrap_or("untitled"), parsed.version);
//! for entry in &parsed.entries {
//!     let title = entry.title.as_deref().unwrap_or("(no title)");
//!     let link = entry.link.as_deref().unwrap_or("");
//!     println!("- {title} {link}");
//! }
//! assert_eq!(parsed.entries.len(), 2);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! ## Dates
//!
//! Every `*_parsed` field holds a `chrono::DateTime<Utc>`; [`Entry::best_date`] picks
//! the published date, else the updated one, else the created one. The text as written
//! stays beside it.
//!
//! ```
//! let p = feed_decoder::parse(
//!     b"<feed xmlns='http://www.w3.org/2005/Atom'><title>t</title>\
//!       <entry><title>a</title><updated>2024-02-29T12:00:00+01:00</updated></entry></feed>",
//!     &feed_decoder::Transport::Local,
//! );
//! let e = &p.entries[0];
//! assert_eq!(e.updated.as_deref(), Some("2024-02-29T12:00:00+01:00"));
//! let when = e.best_date().expect("a date");
//! assert_eq!(when.to_rfc3339(), "2024-02-29T11:00:00+00:00");
//! ```
//!
//! ## Enclosures (podcasts)
//!
//! ```
//! let p = feed_decoder::parse(
//!     b"<rss version='2.0'><channel><item><title>Episode 1</title>\
//!       <enclosure url='http://example.com/1.mp3' length='12345' type='audio/mpeg'/>\
//!       </item></channel></rss>",
//!     &feed_decoder::Transport::Local,
//! );
//! let audio: Vec<_> = p.entries[0].enclosures().collect();
//! assert_eq!(audio[0].href.as_deref(), Some("http://example.com/1.mp3"));
//! assert_eq!(audio[0].content_type.as_deref(), Some("audio/mpeg"));
//! assert_eq!(audio[0].length_bytes(), Some(12345));
//! ```
//!
//! iTunes and Media RSS fields have typed readers: [`Entry::itunes`], [`Entry::media`].
//!
//! ## What was wrong with the feed
//!
//! Nothing is ever refused: problems are [`Bozo`] records, decoding first, then markup,
//! each with a kind (feedparser's name for it) and, where it has one, a position.
//!
//! ```
//! use feed_decoder::{BozoKind, Transport};
//! let p = feed_decoder::parse(
//!     b"<rss version='2.0'><channel><title>Fish &amp; Chips &bogus;</title>\
//!       <item><title>still read</title></item></channel></rss>",
//!     &Transport::Local,
//! );
//! assert!(p.is_bozo());
//! let broken = p.bozo.iter().find(|b| b.kind == BozoKind::NotWellFormed).unwrap();
//! assert_eq!(broken.kind.feedparser_name(), "SAXParseException");
//! assert!(broken.position.is_some_and(|at| at.line == Some(1)));
//! // The lenient pass still read the feed.
//! assert_eq!(p.entries[0].title.as_deref(), Some("still read"));
//! ```
//!
//! ## Decode only
//!
//! ```
//! use feed_decoder::{Decoder, Policy, Transport};
//! let bytes = b"<?xml version='1.0' encoding='koi8-r'?><rss><channel><title>\xf0\xd2\xc9\xd7\xc5\xd4</title></channel></rss>";
//! let decoded = Decoder::new().policy(Policy::Recover).decode(bytes, &Transport::Local);
//! assert_eq!(decoded.encoding, "koi8-r");
//! assert!(decoded.text.contains("Привет"));
//! ```
//!
//! ## Fetch with a conditional GET (feature `http`)
//!
//! Keep the validators of the last response and send them back: an unchanged feed then
//! costs a `304 Not Modified` and no parse.
//!
//! ```no_run
//! # #[cfg(feature = "http")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use feed_decoder::{FetchOptions, fetch_blocking};
//!
//! let url = "https://example.com/feed.xml";
//! let first = fetch_blocking(url, &FetchOptions::new())?;
//! let (etag, modified) = first
//!     .http
//!     .as_ref()
//!     .map(|h| (h.etag.clone(), h.modified.clone()))
//!     .unwrap_or_default();
//! if let Some(parsed) = first.parse() {
//!     println!("{} entries", parsed.entries.len());
//! }
//!
//! // Later:
//! let mut options = FetchOptions::new();
//! if let Some(etag) = etag {
//!     options = options.etag(etag);
//! }
//! if let Some(modified) = modified {
//!     options = options.modified(modified);
//! }
//! let again = fetch_blocking(url, &options)?;
//! if again.not_modified() {
//!     println!("unchanged");
//! }
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "http"))]
//! # fn main() {}
//! ```
//!
//! ## The JSON contract
//!
//! [`Parsed`] serializes to the object `feed-decoder --json` prints (feedparser's keys,
//! plus the `decoding` trail):
//!
//! ```
//! let p = feed_decoder::parse(b"<rss version='2.0'><channel><title>t</title></channel></rss>",
//!                             &feed_decoder::Transport::Local);
//! let v = serde_json::to_value(&p).unwrap();
//! assert_eq!(v["feed"]["title"], "t");
//! assert_eq!(v["bozo"], false);
//! assert_eq!(v["version"], "rss20");
//! ```
//!
//! [`crate::output`] writes it without building it ([`crate::output::write_json`], with
//! extra top-level keys), and [`crate::output::Contract`] hands the same object, extra
//! keys included, to any `serde` serializer.

#[allow(unused_imports)]
use crate::{Bozo, Entry, Parsed};
