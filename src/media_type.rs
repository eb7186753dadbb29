//! HTTP Content-Type parsing and RFC 3023 classification. SKELETON.

/// How RFC 3023 classifies a media type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MediaClass {
    /// No transport metadata at all (local bytes).
    #[default]
    Local,
    /// An HTTP response without a Content-Type header.
    Missing,
}
