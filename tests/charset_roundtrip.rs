//! Round trips: a known text encoded in every charset of `Charset::all()` decodes back.

use feed_decoder::Charset;

const XML: &str = "<?xml version=\"1.0\"?><rss><title a='b'>Feed &amp; title #1: [x] {y} (z) ~!|\\^`@$%*+,-./;=?_</title>\n\r\t</rss>";
const SAMPLE: &str = "Café naïve Ærøskøbing Zażółć gęślą jaźń Şişli Ğ ı € £ ¥ © ® ™ « » – — … • \
    Ωμέγα αβγ Привет Ђура Ґанок Қазақ שלום مرحبا ไทย Tiếng Việt Ạ ữ ₫ ♥ ░ ▓ █ ┼ \
    ۱۲۳ ، ؛ ؟ ° ± ½ ¼ 日本語 ｶﾀｶﾅ 한국어 中文简体 繁體中文 😀 𝄞";

fn ascii_compatible_or_ebcdic(c: Charset) -> bool {
    c.is_ascii_compatible() || c.is_ebcdic()
}

#[test]
fn known_text_round_trips_in_every_charset() {
    let mut report = Vec::new();
    for &c in Charset::all() {
        // The markup skeleton must be encodable in every ASCII-compatible or EBCDIC charset.
        if ascii_compatible_or_ebcdic(c) {
            let bytes = c
                .encode(XML)
                .unwrap_or_else(|| panic!("{c}: markup not encodable"));
            assert_eq!(c.decode_strict(&bytes).unwrap(), XML, "{c}");
        }
        // The sample, keeping the characters the charset can represent.
        let kept: String = SAMPLE
            .chars()
            .filter(|&ch| c.encode(ch.encode_utf8(&mut [0; 4])).is_some())
            .collect();
        let non_ascii = kept.chars().filter(|ch| !ch.is_ascii()).count();
        if c != Charset::US_ASCII {
            assert!(
                non_ascii >= 3,
                "{c}: only {non_ascii} non-ASCII sample characters encodable"
            );
        }
        let bytes = c.encode(&kept).unwrap();
        assert_eq!(c.decode_strict(&bytes).unwrap(), kept, "{c}");
        assert_eq!(c.decode_lossy(&bytes), kept, "{c}");
        report.push(format!("{c}: {non_ascii}"));
    }
    eprintln!(
        "non-ASCII sample characters per charset: {}",
        report.join(", ")
    );
}

#[test]
fn unicode_charsets_round_trip_everything() {
    for c in [
        Charset::UTF_8,
        Charset::UTF_16BE,
        Charset::UTF_16LE,
        Charset::UTF_16,
        Charset::UTF_32BE,
        Charset::UTF_32LE,
        Charset::UTF_32,
        Charset::UCS_4_2143,
        Charset::UCS_4_3412,
        Charset::for_label("gb18030").unwrap(),
    ] {
        let bytes = c.encode(SAMPLE).unwrap();
        assert_eq!(c.decode_strict(&bytes).unwrap(), SAMPLE, "{c}");
    }
    // The unordered forms write a big-endian BOM.
    assert_eq!(Charset::UTF_16.encode("a").unwrap(), b"\xfe\xff\x00a");
    assert_eq!(
        Charset::UTF_32.encode("a").unwrap(),
        b"\x00\x00\xfe\xff\x00\x00\x00a"
    );
    assert_eq!(Charset::UCS_4_2143.encode("a").unwrap(), b"\x00\x00a\x00");
    assert_eq!(Charset::UCS_4_3412.encode("a").unwrap(), b"\x00a\x00\x00");
}

#[test]
fn every_defined_byte_of_every_single_byte_charset_round_trips() {
    for &c in Charset::all().iter().filter(|c| c.is_single_byte()) {
        let defined: Vec<u8> = (0..=255u8)
            .filter(|&b| c.decode_strict(&[b]).is_ok())
            .collect();
        let text = c.decode_strict(&defined).unwrap();
        assert_eq!(text.chars().count(), defined.len(), "{c}");
        let again = c
            .encode(&text)
            .unwrap_or_else(|| panic!("{c}: decoded text not encodable"));
        assert_eq!(c.decode_strict(&again).unwrap(), text, "{c}");
    }
}

#[test]
fn unmappable_characters_are_none() {
    assert_eq!(Charset::US_ASCII.encode("é"), None);
    assert_eq!(Charset::ISO_8859_1.encode("€"), None);
    assert_eq!(Charset::WINDOWS_1252.encode("\u{81}"), None); // a hole is not encodable
    assert_eq!(Charset::CP037.encode("日"), None);
    assert_eq!(Charset::for_label("shift_jis").unwrap().encode("😀"), None);
    assert_eq!(Charset::for_label("gbk").unwrap().encode("😀"), None);
    assert_eq!(Charset::WINDOWS_1252.encode("€").unwrap(), b"\x80");
    assert_eq!(Charset::CP037.encode("A\n").unwrap(), b"\xc1\x25");
}
