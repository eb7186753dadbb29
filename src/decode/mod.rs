//! Decoding: bytes plus their transport in, Unicode text and the whole decision trail
//! out. One stage per module, each depending only on the stages before it:
//!
//! ```text
//! sniff, media_type (TransportFacts), charset ─► rfc3023 ─► detect, markup_start ─► chain ─► Decoder
//! ```
//!
//! 1. [`sniff`]: the byte order mark, the XML 1.0 Appendix F family of the first four
//!    bytes, and the XML declaration read through that family ([`sniff::Sniffed`]).
//! 2. [`media_type`]: the HTTP `Content-Type`, classified as RFC 3023 sees it
//!    ([`media_type::MediaClass`]).
//! 3. [`rfc3023`]: the strict algorithm and feedparser's reported encoding
//!    ([`Rfc3023Outcome`]).
//! 4. `detect` (private): chardetng's guess, script families and marks of mojibake;
//!    `letters` (private): whether a code page's reading is natural text, letter by
//!    letter inside words, against the other pages of its family.
//! 5. `markup_start` (private): whether a candidate's text can start a document at all
//!    (markup within its first characters), the one look at markup decoding takes.
//! 6. `chain` (private): the fallback order, the one place that knows it; it produces
//!    [`Decoded`] with its [`Trail`] of [`Attempt`]s.
//!
//! [`TransportFacts`] is the transport read once (media type, charset, language,
//! location); [`Decoder`] holds the options and runs the chain.
//!
//! Before all this, [`mod@format`] decides on the bytes whether a body is XML or JSON (the
//! format switch: the first character, then the media type), and decodes a JSON body
//! as RFC 8259 says instead ([`format::decode_json`]), with the same records and trail.

mod chain;
pub(crate) mod detect;
pub mod format;
mod letters;
pub(crate) mod markup_start;
pub mod media_type;
mod mixed;
pub mod rfc3023;
pub mod sniff;
mod transport_facts;

pub(crate) use chain::upfront_bozo;
pub use chain::{Attempt, Decoded, Policy, Source, Trail};
pub use rfc3023::Rfc3023Outcome;
pub use transport_facts::TransportFacts;

use crate::transport::Transport;

/// Options for decoding; [`Decoder::default`] is what [`crate::decode()`] uses.
///
/// ```
/// use feed_decoder::{Decoder, Policy, Transport};
/// let decoder = Decoder::new().detector(true).tld("jp").policy(Policy::Recover);
/// let decoded = decoder.decode(b"<rss><channel><title>caf\xc3\xa9</title></channel></rss>", &Transport::Local);
/// assert_eq!(decoded.encoding, "utf-8");
/// assert!(decoded.text.contains("café"));
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct Decoder {
    pub(crate) detector: bool,
    pub(crate) tld: Option<Vec<u8>>,
    pub(crate) policy: Policy,
    pub(crate) detector_prefix: usize,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder {
            detector: true,
            tld: None,
            policy: Policy::Recover,
            detector_prefix: 64 * 1024,
        }
    }
}

impl Decoder {
    /// The default options (detector on, no TLD hint, [`Policy::Recover`], 64 KiB
    /// detector prefix).
    pub fn new() -> Self {
        Decoder::default()
    }

    /// Whether chardetng is consulted in the fallback chain. Default: `true`.
    pub fn detector(mut self, on: bool) -> Self {
        self.detector = on;
        self
    }

    /// A top-level-domain hint for chardetng (`"jp"`, `"ru"`, …), e.g. from the feed's
    /// URL. Case and a leading dot are ignored; anything that is not a plain ASCII label
    /// is dropped (chardetng would panic on it). Default: none.
    pub fn tld(mut self, tld: &str) -> Self {
        let t = tld.trim().trim_start_matches('.').to_ascii_lowercase();
        self.tld = (!t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
            .then(|| t.into_bytes());
        self
    }

    /// The policy for labels that decode but are contradicted by the bytes. Default:
    /// [`Policy::Recover`].
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// How many bytes chardetng may look at (at least 1 KiB). Default: 64 KiB.
    pub fn detector_prefix(mut self, bytes: usize) -> Self {
        self.detector_prefix = bytes.max(1024);
        self
    }

    /// Decodes `bytes` that arrived by `transport`. Never fails: problems are bozo
    /// records, and when no candidate decodes the text is lossy UTF-8.
    pub fn decode<'a>(&self, bytes: &'a [u8], transport: &Transport) -> Decoded<'a> {
        self.decode_with_facts(bytes, &TransportFacts::of(transport))
    }

    /// Decodes `bytes` whose transport was read already (see [`TransportFacts::of`]).
    pub fn decode_with_facts<'a>(&self, bytes: &'a [u8], facts: &TransportFacts) -> Decoded<'a> {
        chain::run(&self.options(), bytes, facts)
    }

    /// The options as the chain reads them.
    fn options(&self) -> chain::Options<'_> {
        chain::Options {
            detector: self.detector,
            tld: self.tld.as_deref(),
            policy: self.policy,
            detector_prefix: self.detector_prefix,
        }
    }
}

#[cfg(test)]
mod tests;
