//! Content-Encoding: gzip, deflate (zlib or raw) and brotli, decompressed here rather than
//! by the HTTP client so that a damaged stream becomes a bozo record (with the raw or the
//! partial bytes still decoded) and the decompressed-size cap is exact.

use std::io::Read;

use crate::bozo::{Bozo, BozoKind};

/// Decodes `raw` according to a `Content-Encoding` header value (codings listed in the
/// order they were applied; undone in reverse). Never more than `cap` bytes come out.
pub(crate) fn decode_content(
    raw: Vec<u8>,
    content_encoding: Option<&str>,
    cap: usize,
    bozo: &mut Vec<Bozo>,
) -> Vec<u8> {
    let Some(header) = content_encoding else {
        return raw;
    };
    let codings: Vec<String> = header
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    let mut body = raw;
    for coding in codings.iter().rev() {
        body = match coding.as_str() {
            "gzip" | "x-gzip" => one(body, "gzip", cap, bozo, |b| {
                Box::new(flate2::read::MultiGzDecoder::new(b))
            }),
            "deflate" => deflate(body, cap, bozo),
            "br" => one(body, "br", cap, bozo, |b| {
                Box::new(brotli_decompressor::Decompressor::new(b, 8192))
            }),
            other => {
                bozo.push(Bozo::new(
                    BozoKind::Transport,
                    format!("unsupported Content-Encoding {other:?}; the raw bytes are parsed"),
                ));
                return body;
            }
        };
    }
    body
}

/// What one decompression attempt gave.
enum Outcome {
    /// The whole stream, at most `cap` bytes.
    Complete(Vec<u8>),
    /// More than `cap` bytes: the first `cap`.
    Capped(Vec<u8>),
    /// An error after `Vec::len` bytes of output.
    Failed(Vec<u8>, std::io::Error),
}

fn run(reader: Box<dyn Read + '_>, cap: usize) -> Outcome {
    let mut out = Vec::new();
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    match reader.take(limit).read_to_end(&mut out) {
        Ok(_) if out.len() > cap => {
            out.truncate(cap);
            Outcome::Capped(out)
        }
        Ok(_) => Outcome::Complete(out),
        Err(e) => Outcome::Failed(out, e),
    }
}

fn one(
    raw: Vec<u8>,
    name: &str,
    cap: usize,
    bozo: &mut Vec<Bozo>,
    make: impl for<'b> Fn(&'b [u8]) -> Box<dyn Read + 'b>,
) -> Vec<u8> {
    let outcome = run(make(&raw), cap);
    finish(raw, name, cap, bozo, outcome)
}

fn finish(raw: Vec<u8>, name: &str, cap: usize, bozo: &mut Vec<Bozo>, o: Outcome) -> Vec<u8> {
    match o {
        Outcome::Complete(out) => out,
        Outcome::Capped(out) => {
            bozo.push(Bozo::new(
                BozoKind::LimitExceeded,
                format!("{name}-decompressed body exceeds the {cap}-byte cap; truncated"),
            ));
            out
        }
        Outcome::Failed(out, e) if out.is_empty() => {
            bozo.push(Bozo::new(
                BozoKind::Transport,
                format!(
                    "Content-Encoding {name} but the body is not {name} data ({e}); \
                     the {} raw bytes are parsed",
                    raw.len()
                ),
            ));
            raw
        }
        Outcome::Failed(out, e) => {
            bozo.push(Bozo::new(
                BozoKind::Transport,
                format!(
                    "{name} stream damaged after {} decompressed bytes ({e}); that part is parsed",
                    out.len()
                ),
            ));
            out
        }
    }
}

/// `deflate` as servers send it: zlib-wrapped per RFC 9110, or raw DEFLATE as some old
/// servers do. The zlib form is tried first.
fn deflate(raw: Vec<u8>, cap: usize, bozo: &mut Vec<Bozo>) -> Vec<u8> {
    match run(Box::new(flate2::read::ZlibDecoder::new(&raw[..])), cap) {
        Outcome::Failed(out, _) if out.is_empty() => {
            let o = run(Box::new(flate2::read::DeflateDecoder::new(&raw[..])), cap);
            finish(raw, "deflate", cap, bozo, o)
        }
        o => finish(raw, "deflate", cap, bozo, o),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_round_trip_and_identity() {
        let mut b = Vec::new();
        assert_eq!(
            decode_content(gzip(b"<rss/>"), Some("gzip"), 100, &mut b),
            b"<rss/>"
        );
        assert_eq!(
            decode_content(b"x".to_vec(), Some("identity"), 100, &mut b),
            b"x"
        );
        assert_eq!(decode_content(b"x".to_vec(), None, 100, &mut b), b"x");
        assert!(b.is_empty());
    }

    #[test]
    fn bomb_is_capped_exactly() {
        let mut b = Vec::new();
        let out = decode_content(gzip(&vec![0u8; 1 << 20]), Some("gzip"), 1000, &mut b);
        assert_eq!(out.len(), 1000);
        assert_eq!(b[0].kind, BozoKind::LimitExceeded);
    }

    #[test]
    fn not_gzip_keeps_raw_and_truncated_keeps_part() {
        let mut b = Vec::new();
        assert_eq!(
            decode_content(b"<rss/>".to_vec(), Some("gzip"), 100, &mut b),
            b"<rss/>"
        );
        assert_eq!(b[0].kind, BozoKind::Transport);
        let data = vec![b'a'; 50_000];
        let mut z = gzip(&data);
        z.truncate(z.len() - 10);
        let mut b = Vec::new();
        let out = decode_content(z, Some("gzip"), 100_000, &mut b);
        assert!(!out.is_empty() && out.len() <= data.len());
        assert_eq!(b[0].kind, BozoKind::Transport);
    }

    #[test]
    fn deflate_zlib_and_raw() {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(b"zlib").unwrap();
        let mut r = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        r.write_all(b"raw").unwrap();
        let mut b = Vec::new();
        assert_eq!(
            decode_content(z.finish().unwrap(), Some("deflate"), 100, &mut b),
            b"zlib"
        );
        assert_eq!(
            decode_content(r.finish().unwrap(), Some("Deflate"), 100, &mut b),
            b"raw"
        );
        assert!(b.is_empty(), "{b:?}");
    }

    /// A brotli stream holding `data` in one uncompressed meta-block (RFC 7932 §9.2),
    /// built by hand since only a decompressor is a dependency.
    fn brotli_stored(data: &[u8]) -> Vec<u8> {
        let l = data.len() - 1;
        assert!(l < 1 << 16);
        // WBITS=0 (16), ISLAST=0, MNIBBLES=4, MLEN-1 (16 bits), ISUNCOMPRESSED=1, pad.
        let mut out = vec![
            ((l & 0xF) << 4) as u8,
            ((l >> 4) & 0xFF) as u8,
            (((l >> 12) & 0xF) | 0x10) as u8,
        ];
        out.extend_from_slice(data);
        out.push(0x03); // ISLAST=1, ISLASTEMPTY=1
        out
    }

    #[test]
    fn brotli_stored_block_and_bad_brotli() {
        let mut b = Vec::new();
        assert_eq!(
            decode_content(brotli_stored(b"<rss/>"), Some("br"), 100, &mut b),
            b"<rss/>"
        );
        assert!(b.is_empty(), "{b:?}");
        let out = decode_content(brotli_stored(&[b'a'; 5000]), Some("br"), 1000, &mut b);
        assert_eq!(out.len(), 1000);
        assert_eq!(b[0].kind, BozoKind::LimitExceeded);
    }

    #[test]
    fn unknown_coding_is_bozo() {
        let mut b = Vec::new();
        assert_eq!(
            decode_content(b"x".to_vec(), Some("zstd"), 100, &mut b),
            b"x"
        );
        assert_eq!(b.len(), 1);
    }
}
