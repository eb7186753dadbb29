//! Unit tests for the charset registry (the internals: tables, partners, labels).

use super::*;

/// Every encoding_rs partner decodes every byte its table defines to the same character,
/// so "hole scan + encoding_rs" is exactly "table decode".
#[test]
fn whatwg_partners_agree_with_tables() {
    let mut bad = Vec::new();
    for t in &tables::TABLES {
        let Some(e) = t.whatwg else { continue };
        for b in 0..=255u8 {
            let expected = table_char(t, b).map(String::from);
            let is_hole = b >= 0x80 && t.holes & (1u128 << (b - 0x80)) != 0;
            assert_eq!(
                is_hole,
                expected.is_none(),
                "{} hole mask at 0x{b:02X}",
                t.name
            );
            if let Some(expected) = expected {
                let one = [b];
                let got = e.decode_without_bom_handling_and_without_replacement(&one);
                if got.as_deref() != Some(expected.as_str()) {
                    bad.push(format!(
                        "{} 0x{b:02X}: table {expected:?}, encoding_rs {got:?}",
                        t.name
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "partner mismatches:\n{}", bad.join("\n"));
}

/// Table decoding and partner decoding agree on a whole 256-byte input too.
#[test]
fn partner_and_table_decode_agree_on_all_bytes() {
    for t in &tables::TABLES {
        let defined: Vec<u8> = (0..=255u8)
            .filter(|&b| table_char(t, b).is_some())
            .collect();
        let via_table = table_strict(t, &defined).unwrap();
        if let Some(e) = t.whatwg {
            assert_eq!(whatwg_strict(e, &defined).unwrap(), via_table, "{}", t.name);
        }
        assert_eq!(via_table.chars().count(), defined.len(), "{}", t.name);
    }
}

#[test]
fn labels_are_sorted_unique_and_normalized() {
    for w in tables::LABELS.windows(2) {
        assert!(w[0].0 < w[1].0, "{} !< {}", w[0].0, w[1].0);
    }
    for (k, _) in &tables::LABELS {
        assert_eq!(
            normalize(k).as_deref(),
            Some(*k),
            "label key {k} is not normalised"
        );
    }
}

#[test]
fn normalize_follows_python() {
    assert_eq!(normalize("Windows-1252").as_deref(), Some("windows_1252"));
    assert_eq!(normalize("  utf--8 ").as_deref(), Some("utf_8"));
    assert_eq!(normalize("-latin 1-").as_deref(), Some("latin_1"));
    assert_eq!(
        normalize("ISO_8859-1:1987").as_deref(),
        Some("iso_8859_1_1987")
    );
    assert_eq!(normalize("viscii1.1-1").as_deref(), Some("viscii1.1_1"));
    assert_eq!(normalize("---"), None);
    assert_eq!(normalize("utf-8\u{e9}"), None);
}

#[test]
fn find_hole_is_exact_at_every_position() {
    let holes = tables::TABLES[usize::from(tables::T_WINDOWS_1252)].holes;
    for len in 0..40 {
        for pos in 0..len {
            let mut v = vec![b'a'; len];
            v[pos] = 0x9D;
            if pos + 1 < len {
                v[pos + 1] = 0x81;
            }
            assert_eq!(find_hole(&v, holes), Some(pos), "len {len} pos {pos}");
        }
        assert_eq!(find_hole(&vec![0xE9; len], holes), None);
    }
    assert_eq!(find_hole(&[0x81], 0), None);
}

#[test]
fn locate_error_handles_output_chunks() {
    // A tiny output buffer forces many OutputFull rounds before the error.
    let mut v = "日本語テキスト".repeat(500).into_bytes();
    let sjis = encoding_rs::SHIFT_JIS
        .encode(std::str::from_utf8(&v).unwrap())
        .0
        .into_owned();
    v = sjis;
    let at = v.len() - 10;
    v[at] = 0xFF; // never valid in Shift_JIS
    for chunk in [16, 64, 1000, 1 << 16] {
        let err = locate_error(encoding_rs::SHIFT_JIS, &v, chunk);
        assert_eq!(
            err,
            DecodeError {
                offset: at,
                byte: Some(0xFF)
            },
            "chunk {chunk}"
        );
    }
}

#[test]
fn tables_have_expected_flags() {
    let t = |name: &str| tables::TABLES.iter().find(|t| t.name == name).unwrap();
    assert!(t("cp037").ebcdic && !t("cp037").ascii_compatible);
    assert!(t("cp1047").ebcdic);
    assert!(t("tcvn5712-1").ascii_compatible && !t("tcvn5712-1").ascii_identity);
    assert!(t("viscii").ascii_compatible && !t("viscii").ascii_identity);
    assert!(t("cp437").ascii_identity && t("cp437").whatwg.is_none());
    assert!(t("windows-1252").whatwg.is_some());
    assert_eq!(t("windows-1252").holes.count_ones(), 5);
}

/// The word-at-a-time hole scan agrees with a byte-by-byte scan for every hole mask in
/// the tables and every byte value at every position of a block.
#[test]
fn find_hole_matches_naive_scan() {
    let naive = |bytes: &[u8], holes: u128| {
        bytes
            .iter()
            .position(|&b| b >= 0x80 && holes & (1u128 << (b - 0x80)) != 0)
    };
    let mut masks: Vec<u128> = tables::TABLES.iter().map(|t| t.holes).collect();
    masks.extend([1, 1 << 127, u128::MAX, (1 << 127) | 1, 0x1_0000_0000]);
    for holes in masks {
        for b in 0..=255u8 {
            for pos in [0, 7, 8, 31, 32, 33, 63, 64, 70] {
                let mut v = vec![b'a'; 72];
                v[pos] = b;
                v[71] = 0xC0;
                assert_eq!(
                    find_hole(&v, holes),
                    naive(&v, holes),
                    "mask {holes:x} byte {b:02x} pos {pos}"
                );
            }
        }
    }
}

/// The registry's facts for charsets whose names say little or mislead (they used to be
/// guessed from name substrings, which read all of the first seven as Latin).
#[test]
fn facts_of_code_pages() {
    use Script::*;
    // (label, script, western, EBCDIC)
    let rows = [
        ("cp424", Hebrew, false, true),
        ("cp720", Arabic, false, false),
        ("cp1006", Arabic, false, false),
        ("kz1048", Cyrillic, false, false),
        ("ptcp154", Cyrillic, false, false),
        ("mac-ukrainian", Cyrillic, false, false),
        ("mac-farsi", Arabic, false, false),
        ("windows-1252", Latin, true, false),
        ("iso-8859-1", Latin, true, false),
        ("iso-8859-15", Latin, true, false),
        ("windows-1250", Latin, false, false),
        ("koi8-r", Cyrillic, false, false),
        ("cp037", Latin, false, true),
        ("cp875", Greek, false, true),
        ("iso-8859-8", Hebrew, false, false),
        ("windows-874", Thai, false, false),
        ("shift_jis", Japanese, false, false),
        ("big5", ChineseTraditional, false, false),
        ("utf-8", Unicode, false, false),
    ];
    for (label, script, western, ebcdic) in rows {
        let c = Charset::for_label(label).unwrap_or_else(|| panic!("{label} unknown"));
        assert_eq!(c.script(), script, "{label} script");
        assert_eq!(c.is_western(), western, "{label} western");
        assert_eq!(c.is_ebcdic(), ebcdic, "{label} EBCDIC");
    }
}

#[test]
fn siblings_and_euro_twins() {
    let cs = |l: &str| Charset::for_label(l).unwrap();
    assert_eq!(cs("windows-1252").sibling(), Some(Charset::ISO_8859_1));
    assert_eq!(Charset::ISO_8859_1.sibling(), Some(cs("windows-1252")));
    assert_eq!(cs("iso-8859-2").sibling(), Some(cs("windows-1250")));
    assert_eq!(cs("tis-620").sibling(), Some(cs("windows-874")));
    assert_eq!(cs("koi8-r").sibling(), None);
    assert!(cs("windows-1250").has_c1_text() && !cs("iso-8859-2").has_c1_text());
    assert_eq!(cs("cp037").euro_twin(), Some(cs("cp1140")));
    assert_eq!(cs("cp871").euro_twin(), Some(cs("cp1149")));
    assert_eq!(cs("cp1140").euro_twin(), None);
    assert_eq!(cs("windows-1252").euro_twin(), None);
    assert!(cs("koi8-r").reads_russian_like(cs("koi8-u")));
    assert!(cs("kz1048").reads_russian_like(cs("windows-1251")));
    assert!(cs("cp1125").reads_russian_like(cs("cp866")));
    assert!(!cs("koi8-r").reads_russian_like(cs("windows-1251")));
    assert!(!cs("iso-8859-5").reads_russian_like(cs("windows-1251")));
    assert!(!cs("windows-1252").reads_russian_like(cs("iso-8859-1")));
}

/// The generated facts hang together: every charset has a script, siblings pair up in the
/// same script with the C1 text on the Windows side, and a euro twin is an EBCDIC page
/// that differs from its base only where the base has `¤` and the twin `€` (give or take
/// the few bytes in which glibc's and IBM's tables of one page disagree).
#[test]
fn facts_are_consistent() {
    for &c in Charset::all() {
        assert_ne!(c.script(), Script::Other, "{c} has no script");
        if let Some(s) = c.sibling() {
            assert_eq!(s.sibling(), Some(c), "{c} sibling not mutual");
            assert_eq!(s.script(), c.script(), "{c} sibling script");
            assert_ne!(s.has_c1_text(), c.has_c1_text(), "{c} sibling C1");
        }
        if let Some(t) = c.euro_twin() {
            assert!(c.is_ebcdic() && t.is_ebcdic(), "{c} twin not EBCDIC");
            let all: Vec<u8> = (0..=255).collect();
            let (a, b) = (c.decode_lossy(&all), t.decode_lossy(&all));
            let at = a.chars().position(|ch| ch == '¤').unwrap();
            assert_eq!(b.chars().nth(at), Some('€'), "{c} twin");
            let differ = a.chars().zip(b.chars()).filter(|(x, y)| x != y).count();
            assert!(differ <= 3, "{c} and {t} differ in {differ} bytes");
        }
    }
}

#[test]
fn single_byte_decode_is_encoding_rs_decode_below_and_above_the_exact_length_size() {
    // Every byte windows-1253 defines, in a text long enough for the counting path and
    // in one short enough for the one-shot path; then one it leaves undefined.
    let e = encoding_rs::WINDOWS_1253;
    let defined = |b: u8| {
        e.decode_without_bom_handling_and_without_replacement(&[b])
            .is_some()
    };
    let sample: Vec<u8> = (0u8..=255).filter(|&b| defined(b)).collect();
    let hole = (0u8..=255)
        .find(|&b| !defined(b))
        .expect("windows-1253 has holes");
    for size in [EXACT_LENGTH_FROM / 2, EXACT_LENGTH_FROM * 2 + 7] {
        let bytes: Vec<u8> = sample.iter().copied().cycle().take(size).collect();
        let want = e.decode_without_bom_handling(&bytes).0;
        let strict = single_byte_decode(e, &bytes, false).expect("decodes");
        assert_eq!(strict, want, "{size}");
        let spare = strict.capacity_hint() - strict.len();
        assert!(
            spare <= strict.len() / 8 + 64,
            "{size}: {spare} bytes of spare room"
        );
        let mut holed = bytes.clone();
        holed[size - 3] = hole;
        assert!(single_byte_decode(e, &holed, false).is_none(), "{size}");
        let lossy = single_byte_decode(e, &holed, true).expect("always");
        assert_eq!(lossy, e.decode_without_bom_handling(&holed).0, "{size}");
        assert!(lossy.contains('\u{FFFD}'));
    }
}

#[test]
fn multi_byte_decode_is_encoding_rs_decode_and_grows_as_needed() {
    // Text of every width these charsets map to: ASCII, two-byte CJK, halfwidth katakana
    // (one Shift_JIS or two EUC-JP bytes, three of UTF-8), Hangul, a supplementary
    // character (four bytes of GB18030 or UTF-16).
    let text = "<item>Feed 12 東京都の新しい公園 ｶﾀｶﾅ 서울 北京 𠀋</item>\n";
    for e in [
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::EUC_KR,
        encoding_rs::GBK,
        encoding_rs::GB18030,
        encoding_rs::BIG5,
        encoding_rs::UTF_16LE,
        encoding_rs::UTF_16BE,
    ] {
        // The one-shot path for some, the growing one for the others (each is slow in a
        // debug build); halfwidth katakana alone, the widest growth, in Shift_JIS.
        let large = [
            encoding_rs::SHIFT_JIS,
            encoding_rs::GB18030,
            encoding_rs::BIG5,
            encoding_rs::UTF_16LE,
        ];
        let cases: &[(usize, bool)] = if e == encoding_rs::SHIFT_JIS {
            &[
                (EXACT_LENGTH_FROM + 4096, false),
                (EXACT_LENGTH_FROM + 4096, true),
            ]
        } else if large.contains(&e) {
            &[(EXACT_LENGTH_FROM + 4096, false)]
        } else {
            &[(EXACT_LENGTH_FROM / 8, false)]
        };
        for &(size, katakana_only) in cases {
            let unit = if katakana_only { "ｶﾀｶﾅ" } else { text };
            let source: String = unit.repeat(size / unit.len() + 1);
            let (bytes, _, _) = if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE {
                let units: Vec<u8> = source
                    .encode_utf16()
                    .flat_map(|u| {
                        if e == encoding_rs::UTF_16LE {
                            u.to_le_bytes()
                        } else {
                            u.to_be_bytes()
                        }
                    })
                    .collect();
                (std::borrow::Cow::Owned(units), e, false)
            } else {
                e.encode(&source)
            };
            let want = e.decode_without_bom_handling(&bytes).0;
            if want.contains('\u{FFFD}') {
                continue; // a charset that cannot write this text
            }
            let strict = multi_byte_decode(e, &bytes, false).expect("decodes");
            assert_eq!(strict, want, "{} {size}", e.name());
            let spare = strict.capacity_hint() - strict.len();
            assert!(
                spare <= strict.len() / 8 + 64,
                "{}: {spare} bytes of spare room",
                e.name()
            );
            // A malformed sequence near the end: no strict text; the lossy one is
            // encoding_rs's.
            let mut broken = bytes.to_vec();
            let at = broken.len() - 9;
            broken[at] = 0xFF;
            broken[at + 1] = 0xFF;
            let lossy = multi_byte_decode(e, &broken, true).expect("always");
            assert_eq!(
                lossy,
                e.decode_without_bom_handling(&broken).0,
                "{} {size}",
                e.name()
            );
            if e.decode_without_bom_handling_and_without_replacement(&broken)
                .is_none()
            {
                assert!(
                    multi_byte_decode(e, &broken, false).is_none(),
                    "{} {size}",
                    e.name()
                );
            }
        }
    }
    // All ASCII: the bytes themselves.
    let ascii = b"<rss>plain</rss>".repeat(EXACT_LENGTH_FROM / 8);
    assert!(matches!(
        multi_byte_decode(encoding_rs::SHIFT_JIS, &ascii, false),
        Some(std::borrow::Cow::Borrowed(_))
    ));
}

/// The capacity of an owned text (its length when borrowed).
trait CapacityHint {
    fn capacity_hint(&self) -> usize;
}

impl CapacityHint for std::borrow::Cow<'_, str> {
    fn capacity_hint(&self) -> usize {
        match self {
            std::borrow::Cow::Owned(s) => s.capacity(),
            std::borrow::Cow::Borrowed(s) => s.len(),
        }
    }
}
