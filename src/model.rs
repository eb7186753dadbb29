//! The feed model: one shape for RSS 0.9x/1.0/2.0, Atom 0.3/1.0 and CDF, keyed the way
//! feedparser keys its result.
//!
//! SKELETON: replaced by the full model.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::bozo::Bozo;

/// Channel-level metadata.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Feed {
    /// The feed's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// One item / entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Entry {
    /// The entry's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// The result of parsing decoded text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedFeed {
    /// feedparser's version string (`rss20`, `atom10`, …; empty when unknown).
    pub version: String,
    /// Namespace prefixes as declared in the document.
    pub namespaces: BTreeMap<String, String>,
    /// Channel-level metadata.
    pub feed: Feed,
    /// The entries, in document order.
    pub entries: Vec<Entry>,
    /// Markup problems, in the order found.
    pub bozo: Vec<Bozo>,
}
