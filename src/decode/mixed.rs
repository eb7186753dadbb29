//! A UTF-8 document with pasted runs of windows-1252: read as UTF-8 wherever its bytes
//! are valid UTF-8 and as windows-1252 in between, with the evidence that decides whether
//! that reading is the document's (how many plausible multi-byte sequences, how many and
//! how long the invalid runs).

use super::detect;

/// Valid multi-byte UTF-8 sequences a document needs before its invalid runs are read
/// as pasted windows-1252 (fewer is line noise).
const MIN_UTF8_SEQUENCES: usize = 3;

/// A run of this many invalid bytes is a word of a legacy script rather than a stray
/// windows-1252 character or two.
const LONG_RUN: usize = 5;

/// How many invalid runs a [`Mixed`] message lists by byte range.
const LISTED_RUNS: usize = 8;

/// A UTF-8 document read as UTF-8 wherever its bytes are valid UTF-8, with every run of
/// invalid bytes read as windows-1252 (a CMS pasting windows-1252 into UTF-8). An
/// incomplete sequence at the very end is dropped as truncation.
pub(super) struct Mixed {
    pub(super) text: String,
    /// Valid multi-byte sequences that decode to plausible text (see [`Mixed::of`]),
    /// three- and four-byte ones counting twice.
    pub(super) points: usize,
    /// How many such sequences.
    seqs: usize,
    /// Runs of invalid bytes and their total length.
    pub(super) runs: usize,
    bytes: usize,
    /// Invalid bytes in runs of [`LONG_RUN`] bytes or more (words of a legacy script,
    /// not a pasted quote or accented letter).
    long_bytes: usize,
    /// The first [`LISTED_RUNS`] runs, as byte ranges of the body.
    pub(super) ranges: Vec<(usize, usize)>,
    /// Where an incomplete final sequence starts, when there is one.
    truncated_at: Option<usize>,
}

impl Mixed {
    /// Reads `body` so, or `None` when there is nothing invalid to read or no valid
    /// multi-byte UTF-8 at all (then it is not a UTF-8 document). A two-byte sequence
    /// counts only when it decodes to a Latin, Greek, Cyrillic, Armenian, Hebrew or Arabic
    /// character: the sequences windows-1252 text forms by chance (a capital letter and a
    /// symbol, `ß’`) decode to C1 controls or rarer scripts.
    ///
    /// With `mostly`, only a reading with four times as many points as runs is wanted:
    /// the scan stops as soon as that is out of reach (a legacy document).
    pub(super) fn of(body: &[u8], mostly: bool) -> Option<Mixed> {
        let mut m = Mixed {
            text: String::with_capacity(body.len() + body.len() / 8),
            points: 0,
            seqs: 0,
            runs: 0,
            bytes: 0,
            long_bytes: 0,
            ranges: Vec::new(),
            truncated_at: None,
        };
        let mut at = 0;
        let mut last_run_end = usize::MAX;
        let mut run_len = 0;
        let end_run = |m: &mut Mixed, run_len: &mut usize| {
            if *run_len >= LONG_RUN {
                m.long_bytes += *run_len;
            }
            *run_len = 0;
        };
        loop {
            let rest = &body[at..];
            let (ok, err) = match std::str::from_utf8(rest) {
                Ok(s) => (s, None),
                Err(e) => (
                    std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
                    Some(e),
                ),
            };
            let (points, seqs) = utf8_points(ok.as_bytes());
            m.points += points;
            m.seqs += seqs;
            m.text.push_str(ok);
            at += ok.len();
            if !ok.is_empty() {
                end_run(&mut m, &mut run_len);
            }
            let Some(e) = err else { break };
            let Some(len) = e.error_len() else {
                // An incomplete sequence at the very end: truncation.
                m.truncated_at = Some(at);
                break;
            };
            if at == last_run_end {
                if let Some(r) = m.ranges.last_mut().filter(|r| r.1 == at) {
                    r.1 = at + len;
                }
            } else {
                m.runs += 1;
                if m.ranges.len() < LISTED_RUNS {
                    m.ranges.push((at, at + len));
                }
            }
            m.bytes += len;
            run_len += len;
            m.text.push_str(
                &encoding_rs::WINDOWS_1252
                    .decode_without_bom_handling(&body[at..at + len])
                    .0,
            );
            at += len;
            last_run_end = at;
            if m.points == 0 && m.runs > 256 || mostly && m.runs > 64 && m.runs * 4 >= m.points {
                return None; // clearly a legacy document: stop scanning
            }
        }
        end_run(&mut m, &mut run_len);
        (m.points > 0 && m.runs > 0).then_some(m)
    }

    /// Whether reading the document so is at least as plausible as reading all of it as
    /// windows-1252: at least [`MIN_UTF8_SEQUENCES`] plausible UTF-8 sequences, invalid
    /// runs that are mostly short (stray windows-1252 characters, not words of a CJK or
    /// Cyrillic legacy charset), and no more marks of mojibake.
    pub(super) fn plausible(&self, body: &[u8]) -> bool {
        if self.seqs < MIN_UTF8_SEQUENCES || self.long_bytes * 4 > self.bytes {
            return false;
        }
        let legacy = encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(body)
            .0;
        let mine = detect::marks(&self.text, false).anomalies;
        let theirs = detect::marks(&legacy, true).anomalies;
        mine <= theirs
    }

    /// The record's message; `base` is added to the byte offsets (the BOM's length).
    pub(super) fn describe(&self, base: usize) -> String {
        let mut msg = format!(
            "{} run(s) of bytes that are not UTF-8 ({} bytes) read as windows-1252, the rest as UTF-8; at bytes ",
            self.runs, self.bytes
        );
        let listed: Vec<String> = self
            .ranges
            .iter()
            .map(|&(a, b)| format!("{}-{}", a + base, b + base - 1))
            .collect();
        msg.push_str(&listed.join(", "));
        if self.runs > self.ranges.len() {
            msg.push_str(", …");
        }
        if let Some(t) = self.truncated_at {
            msg.push_str(&format!(
                "; an incomplete sequence at the end (byte {}) is dropped",
                t + base
            ));
        }
        msg
    }
}

/// Points of UTF-8 evidence in valid UTF-8 `bytes` (see [`Mixed::of`]), and how many
/// sequences gave them.
fn utf8_points(bytes: &[u8]) -> (usize, usize) {
    let (mut points, mut seqs) = (0, 0);
    let mut i = 0;
    while let Some(k) = bytes[i..].iter().position(|&b| b >= 0xC0) {
        let at = i + k;
        let lead = bytes[at];
        let p = match lead {
            // U+0080–U+009F are C1 controls; U+00A0–U+05FF and U+0600–U+06FF are Latin,
            // Greek, Cyrillic, Armenian, Hebrew and Arabic.
            0xC2 => usize::from(bytes.get(at + 1).is_some_and(|&b| b >= 0xA0)),
            0xC3..=0xDB => 1,
            0xC0..=0xDF => 0,
            _ => 2,
        };
        points += p;
        seqs += usize::from(p > 0);
        i = at + 1;
    }
    (points, seqs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_noise_is_not_plausible_mixed_utf8() {
        // feedparser's line-noise case: too little evidence for a UTF-8 reading with
        // windows-1252 strays (the decoder keeps the fallback, see decode/tests.rs).
        let noise = b"<rss><description>\xe2\x80\x99<>\xe2\x80\x9d\xa9</description></rss>";
        assert!(Mixed::of(noise, false).is_none_or(|m| !m.plausible(noise)));
    }
}
