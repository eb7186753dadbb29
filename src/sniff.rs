//! Pure sniffers over the first bytes. SKELETON.

/// The byte offset just past the XML declaration at the start of `text`, if any.
#[must_use]
pub fn declaration_span(text: &str) -> Option<usize> {
    if !text.starts_with("<?xml") {
        return None;
    }
    text.find("?>").map(|i| i + 2)
}
