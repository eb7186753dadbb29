//! Strictness (Python's codecs), exact error offsets, BOM/byte-order rules, borrowing.

use std::borrow::Cow;

use feed_decoder::Charset;
use feed_decoder::charset::DecodeError;

fn cs(label: &str) -> Charset {
    Charset::for_label(label).unwrap_or_else(|| panic!("label {label} unknown"))
}

fn err(offset: usize, byte: u8) -> DecodeError {
    DecodeError {
        offset,
        byte: Some(byte),
    }
}

fn truncated(offset: usize) -> DecodeError {
    DecodeError { offset, byte: None }
}

#[test]
fn windows_1252_rejects_exactly_its_five_holes() {
    for b in 0x80..=0xFFu8 {
        let input = [b'a', b'b', b'c', b];
        let got = Charset::WINDOWS_1252.decode_strict(&input);
        if [0x81, 0x8D, 0x8F, 0x90, 0x9D].contains(&b) {
            assert_eq!(got, Err(err(3, b)), "0x{b:02X}");
        } else {
            assert!(got.is_ok(), "0x{b:02X}");
        }
    }
    assert_eq!(
        Charset::WINDOWS_1252.decode_strict(b"\x80\x9f").unwrap(),
        "\u{20AC}\u{178}"
    );
    assert_eq!(err(120, 0xE9).to_string(), "byte 0xE9 at offset 120");
    assert_eq!(truncated(7).to_string(), "truncated sequence at offset 7");
}

#[test]
fn fallback_chain_falls_through_windows_1252_to_iso_8859_2() {
    let bytes = b"<title>Za\xbf\xf3\xb3\xe6 \x9d</title>";
    assert_eq!(
        Charset::WINDOWS_1252.decode_strict(bytes),
        Err(err(14, 0x9D))
    );
    let text = Charset::ISO_8859_2.decode_strict(bytes).unwrap();
    assert_eq!(text, "<title>Zażółć \u{9D}</title>");
}

#[test]
fn whatwg_holes_of_other_pages_are_errors() {
    // Python: cp1250 0x81/0x83/0x88/0x90/0x98; cp1253 0xAA; cp874 0x81; iso-8859-3 0xA5.
    for (label, b) in [
        ("windows-1250", 0x81),
        ("windows-1250", 0x98),
        ("windows-1253", 0xAA),
        ("windows-874", 0x81),
        ("iso-8859-3", 0xA5),
        ("iso-8859-7", 0xFF),
        ("iso-8859-8", 0xFF),
    ] {
        assert_eq!(
            cs(label).decode_strict(&[b'x', b]),
            Err(err(1, b)),
            "{label} 0x{b:02X}"
        );
    }
    assert_eq!(cs("windows-1251").decode_strict(b"\x98"), Err(err(0, 0x98)));
    assert!(
        cs("koi8-r")
            .decode_strict(&(0..=255).collect::<Vec<u8>>())
            .is_ok()
    );
}

#[test]
fn ascii_is_strict_and_latin1_is_true_latin1() {
    assert_eq!(
        Charset::US_ASCII.decode_strict(b"plain \x80"),
        Err(err(6, 0x80))
    );
    assert_eq!(
        Charset::US_ASCII.decode_strict(b"caf\xe9"),
        Err(err(3, 0xE9))
    );
    assert_eq!(Charset::US_ASCII.decode_lossy(b"caf\xe9"), "caf\u{FFFD}");
    let all: Vec<u8> = (0..=255).collect();
    let text = Charset::ISO_8859_1.decode_strict(&all).unwrap();
    assert!(text.chars().map(u32::from).eq(0..=255));
    assert_eq!(
        Charset::ISO_8859_1.decode_strict(b"\x80").unwrap(),
        "\u{80}"
    ); // not €
}

#[test]
fn utf8_errors_and_truncation() {
    assert_eq!(Charset::UTF_8.decode_strict(b"ab\xffcd"), Err(err(2, 0xFF)));
    assert_eq!(
        Charset::UTF_8.decode_strict(b"ab\xe2\x82"),
        Err(truncated(2))
    );
    assert_eq!(
        Charset::UTF_8.decode_strict(b"\xed\xa0\x80"),
        Err(err(0, 0xED))
    ); // surrogate
    assert_eq!(Charset::UTF_8.decode_lossy(b"a\xffb"), "a\u{FFFD}b");
}

#[test]
fn utf16_byte_order_bom_and_errors() {
    assert_eq!(
        Charset::UTF_16.decode_strict(b"\xff\xfea\x00").unwrap(),
        "a"
    );
    assert_eq!(
        Charset::UTF_16.decode_strict(b"\xfe\xff\x00a").unwrap(),
        "a"
    );
    assert_eq!(Charset::UTF_16.decode_strict(b"\x00a\x00b").unwrap(), "ab"); // no BOM: BE
    assert_eq!(
        Charset::UTF_16BE.decode_strict(b"\x00a\x00").unwrap_err(),
        truncated(2)
    );
    assert_eq!(
        Charset::UTF_16LE.decode_strict(b"a\x00b").unwrap_err(),
        truncated(2)
    );
    // Truncated surrogate pair at the end.
    assert_eq!(
        Charset::UTF_16BE
            .decode_strict(b"\x00a\xd8\x3d")
            .unwrap_err(),
        truncated(2)
    );
    // Lone high surrogate followed by a letter.
    assert_eq!(
        Charset::UTF_16BE
            .decode_strict(b"\x00a\xd8\x3d\x00b")
            .unwrap_err(),
        err(2, 0xD8)
    );
    // Lone low surrogate.
    assert_eq!(
        Charset::UTF_16LE
            .decode_strict(b"a\x00\x00\xdc")
            .unwrap_err(),
        err(2, 0x00)
    );
    // Offsets count the BOM.
    assert_eq!(
        Charset::UTF_16
            .decode_strict(b"\xff\xfea\x00\x00\xdc")
            .unwrap_err(),
        err(4, 0x00)
    );
    assert_eq!(
        Charset::UTF_16
            .decode_strict(b"\xfe\xff\x00a\x00")
            .unwrap_err(),
        truncated(4)
    );
    assert_eq!(
        Charset::UTF_16BE
            .decode_strict(b"\xd8\x3d\xde\x00")
            .unwrap(),
        "\u{1F600}"
    );
}

#[test]
fn utf32_and_ucs4_orders_bom_and_errors() {
    let a_be = [0, 0, 0, 0x41];
    assert_eq!(Charset::UTF_32BE.decode_strict(&a_be).unwrap(), "A");
    assert_eq!(
        Charset::UTF_32LE.decode_strict(&[0x41, 0, 0, 0]).unwrap(),
        "A"
    );
    assert_eq!(
        Charset::UCS_4_2143.decode_strict(&[0, 0, 0x41, 0]).unwrap(),
        "A"
    );
    assert_eq!(
        Charset::UCS_4_3412.decode_strict(&[0, 0x41, 0, 0]).unwrap(),
        "A"
    );
    assert_eq!(
        Charset::UTF_32BE
            .decode_strict(&[0, 1, 0xF6, 0x00])
            .unwrap(),
        "\u{1F600}"
    );
    assert_eq!(Charset::UTF_32.decode_strict(&a_be).unwrap(), "A"); // no BOM: BE
    assert_eq!(
        Charset::UTF_32
            .decode_strict(&[0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0])
            .unwrap(),
        "A"
    );
    assert_eq!(
        Charset::UTF_32
            .decode_strict(&[0, 0, 0xFE, 0xFF, 0, 0, 0, 0x41])
            .unwrap(),
        "A"
    );
    // Out of range, surrogate, truncated; offsets include the BOM.
    assert_eq!(
        Charset::UTF_32BE.decode_strict(&[0, 0, 0, 0x41, 0, 0x11, 0, 0]),
        Err(err(4, 0))
    );
    assert_eq!(
        Charset::UTF_32LE.decode_strict(&[0, 0xD8, 0, 0]),
        Err(err(0, 0))
    );
    assert_eq!(
        Charset::UTF_32BE.decode_strict(&[0, 0, 0xDF, 0xFF]),
        Err(err(0, 0))
    );
    assert_eq!(
        Charset::UTF_32LE.decode_strict(&[0xFF, 0xFF, 0xFF, 0xFF]),
        Err(err(0, 0xFF))
    );
    assert_eq!(
        Charset::UTF_32BE.decode_strict(&[0, 0, 0, 0x41, 0, 0]),
        Err(truncated(4))
    );
    assert_eq!(
        Charset::UTF_32.decode_strict(&[0xFF, 0xFE, 0, 0, 0x41]),
        Err(truncated(4))
    );
    assert_eq!(
        Charset::UTF_32.decode_strict(&[0xFF, 0xFE, 0, 0, 0, 0xD8, 0, 0]),
        Err(err(4, 0))
    );
    assert_eq!(
        Charset::UTF_32LE.decode_lossy(&[0x41, 0, 0, 0, 0, 0xD8, 0, 0, 1]),
        "A\u{FFFD}\u{FFFD}"
    );
}

#[test]
fn cjk_errors_have_exact_offsets() {
    let cases: &[(&str, &[u8], DecodeError)] = &[
        ("shift_jis", b"ab\x82\xa0\xff", err(4, 0xFF)),
        ("shift_jis", b"ab\x82\xa0\x82", truncated(4)),
        ("shift_jis", b"ab\x82\x20x", err(2, 0x82)),
        ("euc-jp", b"a\xa4\xa2\xa4", truncated(3)),
        ("euc-jp", b"a\xa4\xa2\xff", err(3, 0xFF)),
        ("euc-kr", b"abc\xb0\xa1\xff\xff", err(5, 0xFF)),
        ("gbk", b"x\xc4\xe3\x81", truncated(3)),
        ("gbk", b"x\xc4\xe3\xff", err(3, 0xFF)),
        ("gb18030", b"x\xc4\xe3\x81\x30\x81", truncated(3)),
        ("big5", b"x\xa4\x40\x80\x40", err(3, 0x80)),
        ("iso-2022-jp", b"a\x1b$B\x30\x21\x1b(Bb\x80", err(10, 0x80)),
    ];
    for (label, bytes, expected) in cases {
        assert_eq!(
            cs(label).decode_strict(bytes),
            Err(*expected),
            "{label} {bytes:?}"
        );
    }
    assert_eq!(
        cs("shift_jis").decode_strict(b"\x93\xfa\x96\x7b").unwrap(),
        "日本"
    );
    assert_eq!(
        cs("gb2312").decode_strict(b"\xc4\xe3\xba\xc3").unwrap(),
        "你好"
    );
}

#[test]
fn ebcdic_and_glibc_pages() {
    let cp037 = Charset::CP037;
    assert_eq!(
        cp037
            .decode_strict(b"\xc8\x85\x93\x93\x96\x40\x4c\x61\x6e")
            .unwrap(),
        "Hello </>"
    );
    assert_eq!(cp037.decode_strict(b"\x25\x15").unwrap(), "\n\u{85}");
    assert_eq!(
        cs("cp1047").decode_strict(b"\x25\x15\xad\xbd").unwrap(),
        "\n\u{85}[]"
    );
    assert_eq!(cs("cp500").decode_strict(b"\x4a\x5a").unwrap(), "[]");
    assert_eq!(cs("cp1140").decode_strict(b"\x9f").unwrap(), "€");
    assert_eq!(cs("cp273").decode_strict(b"\x4a").unwrap(), "Ä");
    assert_eq!(
        cs("tcvn").decode_strict(b"Ti\xd5ng Vi\xd6t").unwrap(),
        "Tiếng Việt"
    );
    assert_eq!(
        cs("viscii").decode_strict(b"Ti\xaang Vi\xaet").unwrap(),
        "Tiếng Việt"
    );
    assert_eq!(cs("viscii").decode_strict(b"\x80").unwrap(), "\u{1EA0}");
    assert_eq!(cs("cp437").decode_strict(b"\x80\xdb").unwrap(), "Ç█");
}

#[test]
fn table_pages_report_exact_offsets() {
    // Find every undefined byte of every table page and check it is reported where it is.
    let mut checked = 0;
    for &c in Charset::all() {
        if !c.is_single_byte() || !c.is_ascii_compatible() {
            continue;
        }
        for b in 0x80..=0xFFu8 {
            if c.decode_strict(&[b]).is_err() {
                let input = [b'a', b'b', b'c', b'd', b'e', b, b'f', b];
                assert_eq!(c.decode_strict(&input), Err(err(5, b)), "{c} 0x{b:02X}");
                assert_eq!(c.decode_lossy(&input), "abcde\u{FFFD}f\u{FFFD}", "{c}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} undefined bytes checked");
}

#[test]
fn valid_input_borrows() {
    let ascii = b"<rss version=\"2.0\"><title>plain</title></rss>";
    for label in [
        "utf-8",
        "us-ascii",
        "iso-8859-1",
        "windows-1252",
        "iso-8859-2",
        "cp437",
        "koi8-u",
        "shift_jis",
        "euc-kr",
    ] {
        assert!(
            matches!(cs(label).decode_strict(ascii), Ok(Cow::Borrowed(_))),
            "{label}"
        );
        assert!(
            matches!(cs(label).decode_lossy(ascii), Cow::Borrowed(_)),
            "{label}"
        );
    }
    let utf8 = "Café 日本".as_bytes();
    assert!(matches!(
        Charset::UTF_8.decode_strict(utf8),
        Ok(Cow::Borrowed(_))
    ));
}

#[test]
fn lossy_matches_strict_on_valid_input_and_replaces_holes() {
    assert_eq!(
        Charset::WINDOWS_1252.decode_lossy(b"a\x81b\x80"),
        "a\u{FFFD}b€"
    );
    assert_eq!(
        Charset::UTF_16.decode_lossy(b"\xff\xfea\x00\x00"),
        "a\u{FFFD}"
    );
    assert_eq!(cs("cp037").decode_lossy(b"\xc1"), "A");
}

/// Errors far into large inputs (beyond encoding_rs's output chunks) and in slices that
/// start mid-input are reported at their exact position.
#[test]
fn chunked_offsets_are_exact() {
    let body = "Ünïcödé feed text, 日本語 — ".repeat(8000);
    let cases: &[(&str, &[u8])] = &[
        ("windows-1252", b"\x81"),
        ("shift_jis", b"\xff"),
        ("euc-jp", b"\xff"),
        ("utf-8", b"\xff"),
        ("cp856", b"\x9b"),
        ("cp424", b"\x70"),
        ("iso-8859-3", b"\xa5"),
        ("utf-16le", b"\x00\xdc"),
        ("utf-32be", b"\x00\x11\x00\x00"),
        ("gb18030", b"\xff"),
        ("big5", b"\x80"),
    ];
    for &(label, bad) in cases {
        let c = cs(label);
        let text: String = body
            .chars()
            .filter(|&ch| c.encode(&ch.to_string()).is_some())
            .collect();
        let mut bytes = c.encode(&text).unwrap();
        let at = bytes.len() - 7 * (bytes.len() / 100);
        // Keep the bad sequence on a character boundary of the encoded text.
        let at = (0..=at)
            .rev()
            .find(|&i| c.decode_strict(&bytes[..i]).is_ok())
            .unwrap();
        bytes.splice(at..at, bad.iter().copied());
        assert!(bytes.len() > 100_000, "{label}");
        assert_eq!(c.decode_strict(&bytes), Err(err(at, bad[0])), "{label}");
        for start in [1usize, 4096, 65_537, at.saturating_sub(3)] {
            let start = (0..=start)
                .rev()
                .find(|&i| c.decode_strict(&bytes[i..at]).is_ok())
                .unwrap();
            assert_eq!(
                c.decode_strict(&bytes[start..]),
                Err(err(at - start, bad[0])),
                "{label} from {start}"
            );
        }
    }
}

/// Pseudo-random bytes through every charset: no panics; an error's prefix is valid and
/// its byte is the byte at its offset; lossy equals strict when strict succeeds.
#[test]
fn no_panics_and_consistent_errors_on_random_input() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for &c in Charset::all() {
        for round in 0..200 {
            let len = (next() % 64) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next();
                    // Mostly ASCII sometimes, fully random otherwise.
                    if round % 2 == 0 && r % 4 != 0 {
                        (r >> 8) as u8 & 0x7F
                    } else {
                        (r >> 8) as u8
                    }
                })
                .collect();
            let lossy = c.decode_lossy(&bytes);
            match c.decode_strict(&bytes) {
                Ok(text) => assert_eq!(text, lossy, "{c} {bytes:?}"),
                Err(e) => {
                    assert!(e.offset < bytes.len(), "{c} {bytes:?} {e}");
                    if let Some(b) = e.byte {
                        assert_eq!(bytes[e.offset], b, "{c} {bytes:?}");
                    }
                    assert!(
                        c.decode_strict(&bytes[..e.offset]).is_ok(),
                        "{c} prefix {bytes:?} {e}"
                    );
                    assert!(lossy.contains('\u{FFFD}'), "{c} {bytes:?}");
                }
            }
        }
    }
}
