//! Parsing decoded text into the feed model with quick-xml: a strict pass, then a lenient
//! recovery pass when the markup is broken.
//!
//! SKELETON: replaced by the full parser.

use crate::model::ParsedFeed;

/// Options for [`parse_str`].
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ParseOptions {}

/// Parses decoded feed text. Never fails: problems become bozo records.
#[must_use]
pub fn parse_str(text: &str, options: &ParseOptions) -> ParsedFeed {
    let _ = (text, options);
    ParsedFeed::default()
}
