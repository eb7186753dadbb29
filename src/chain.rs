//! The fallback chain. SKELETON.
use crate::{Decoded, Decoder, Transport, Trail, Rfc3023Outcome, Source};
use crate::charset::Charset;

pub(crate) fn run<'a>(_decoder: &Decoder, bytes: &'a [u8], _transport: &Transport) -> Decoded<'a> {
    let text = Charset::UTF_8.decode_strict(bytes).unwrap_or_else(|_| String::from_utf8_lossy(bytes));
    Decoded {
        text,
        encoding: "utf-8".into(),
        charset: Some(Charset::UTF_8),
        bozo: Vec::new(),
        trail: Trail {
            bom: None, sniffed: None, declared: None, http_charset: None, media_type: None,
            media_class: Default::default(),
            rfc3023: Rfc3023Outcome { encoding: Some("utf-8".into()), rule: "1.0", error: None },
            tried: Vec::new(),
            chosen: Some(("utf-8".into(), Source::Rfc3023)),
        },
    }
}
