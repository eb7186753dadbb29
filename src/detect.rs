//! chardetng, fed a bounded prefix, and the script family of a charset (used to decide
//! whether a guess contradicts a label strongly enough to override it).

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};

use crate::charset::Charset;

/// Bytes fed to chardetng per step.
const CHUNK: usize = 4096;

/// chardetng's guess for `bytes`, looking at no more than `limit` bytes and stopping
/// early once `enough` non-ASCII bytes were fed (past that the guess no longer changes in
/// practice, and feeding more only costs time); `None` when that prefix is
/// pure ASCII without ISO-2022 escapes (chardetng would only echo its default).
/// Returns the guess and the number of non-ASCII bytes fed.
pub(crate) fn guess(
    bytes: &[u8],
    limit: usize,
    enough: usize,
    tld: Option<&[u8]>,
) -> Option<(&'static encoding_rs::Encoding, usize)> {
    let prefix = &bytes[..bytes.len().min(limit)];
    let first = encoding_rs::Encoding::ascii_valid_up_to(prefix);
    let esc = memchr::memchr(0x1B, &prefix[..first]).is_some();
    if first == prefix.len() && !esc {
        return None;
    }
    let mut det = EncodingDetector::new(Iso2022JpDetection::Allow);
    let mut non_ascii = 0;
    let mut fed = 0;
    while fed < prefix.len() && non_ascii < enough {
        let end = (fed + CHUNK).min(prefix.len());
        let chunk = &prefix[fed..end];
        non_ascii += chunk.iter().filter(|&&b| b >= 0x80).count();
        fed = end;
        det.feed(chunk, fed == bytes.len());
    }
    Some((
        refine(det.guess(tld, Utf8Detection::Allow), &prefix[..fed]),
        non_ascii,
    ))
}

/// The bytes at which KOI8-U and KOI8-R differ (Ukrainian letters vs box drawing).
const KOI8_U_ONLY: [u8; 8] = [0xA4, 0xA6, 0xA7, 0xAD, 0xB4, 0xB6, 0xB7, 0xBD];

/// A chardetng guess refined for reporting: KOI8-U on bytes that never touch the
/// positions where it differs from KOI8-R decodes exactly as KOI8-R, the far more common
/// label (and the one chardet reports).
fn refine(guess: &'static encoding_rs::Encoding, bytes: &[u8]) -> &'static encoding_rs::Encoding {
    if guess == encoding_rs::KOI8_U && !bytes.iter().any(|b| KOI8_U_ONLY.contains(b)) {
        encoding_rs::KOI8_R
    } else {
        guess
    }
}

/// The name chardet (and so feedparser) reports for a chardetng guess.
pub(crate) fn chardet_name(e: &'static encoding_rs::Encoding) -> &'static str {
    use encoding_rs::*;
    match e {
        e if e == BIG5 => "Big5",
        e if e == EUC_JP => "EUC-JP",
        e if e == EUC_KR => "EUC-KR",
        e if e == GBK => "GB2312",
        e if e == GB18030 => "GB18030",
        e if e == SHIFT_JIS => "SHIFT_JIS",
        e if e == ISO_2022_JP => "ISO-2022-JP",
        e if e == KOI8_R => "KOI8-R",
        e if e == KOI8_U => "KOI8-U",
        e if e == IBM866 => "IBM866",
        e if e == X_MAC_CYRILLIC => "MacCyrillic",
        e if e == WINDOWS_874 => "TIS-620",
        e if e == WINDOWS_1252 => "Windows-1252",
        e if e == UTF_8 => "utf-8",
        e => e.name(),
    }
}

/// A coarse writing-system family of a charset, to tell a real contradiction (Cyrillic
/// bytes labelled Latin) from a near miss (windows-1250 vs windows-1252).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Script {
    Latin,
    Cyrillic,
    Greek,
    Hebrew,
    Arabic,
    Thai,
    ChineseSimplified,
    ChineseTraditional,
    Japanese,
    Korean,
    Other,
}

pub(crate) fn script(c: Charset) -> Script {
    let n = c.name();
    let has = |s: &str| n.contains(s);
    if ["1251", "koi8", "8859-5", "866", "cyrillic", "855", "1125"]
        .iter()
        .any(|s| has(s))
    {
        Script::Cyrillic
    } else if ["1253", "8859-7", "greek", "737", "869", "875"]
        .iter()
        .any(|s| has(s))
    {
        Script::Greek
    } else if ["1255", "8859-8", "hebrew", "862", "856"]
        .iter()
        .any(|s| has(s))
    {
        Script::Hebrew
    } else if ["1256", "8859-6", "arabic", "864"].iter().any(|s| has(s)) {
        Script::Arabic
    } else if ["874", "tis", "8859-11"].iter().any(|s| has(s)) {
        Script::Thai
    } else if ["gb", "hz"].iter().any(|s| has(s)) {
        Script::ChineseSimplified
    } else if has("big5") {
        Script::ChineseTraditional
    } else if ["jis", "euc-jp", "932"].iter().any(|s| has(s)) {
        Script::Japanese
    } else if ["euc-kr", "949", "johab"].iter().any(|s| has(s)) {
        Script::Korean
    } else if c.is_single_byte() {
        Script::Latin
    } else {
        Script::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn koi8_u_without_ukrainian_letters_is_koi8_r() {
        let (russian, _, _) = encoding_rs::KOI8_R.encode("Новости дня");
        assert_eq!(refine(encoding_rs::KOI8_U, &russian), encoding_rs::KOI8_R);
        let (ukrainian, _, _) = encoding_rs::KOI8_U.encode("Україна і світ");
        assert_eq!(refine(encoding_rs::KOI8_U, &ukrainian), encoding_rs::KOI8_U);
        assert_eq!(refine(encoding_rs::BIG5, &russian), encoding_rs::BIG5);
    }

    #[test]
    fn ascii_only_gives_no_guess() {
        assert_eq!(
            guess(b"<rss><title>plain</title></rss>", 1024, 512, None),
            None
        );
    }

    #[test]
    fn cyrillic_is_recognised_and_bounded() {
        let text =
            "Новости дня: в Москве открылась новая выставка современного искусства. ".repeat(4);
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
        let (g, n) = guess(&bytes, 64, 512, None).unwrap();
        assert_eq!(g, encoding_rs::WINDOWS_1251);
        assert!(n <= 64, "looked past the limit: {n}");
        let long = bytes.repeat(200);
        let (_, n) = guess(&long, usize::MAX, 512, None).unwrap();
        assert!(n < 512 + CHUNK, "kept feeding after enough evidence: {n}");
        assert_eq!(script(Charset::for_encoding(g)), Script::Cyrillic);
    }

    #[test]
    fn iso_2022_jp_escapes_count_as_evidence() {
        let (bytes, _, _) = encoding_rs::ISO_2022_JP.encode("<title>日本語のニュース</title>");
        let (g, _) = guess(&bytes, 4096, 512, Some(b"jp")).unwrap();
        assert_eq!(g, encoding_rs::ISO_2022_JP);
    }
}
