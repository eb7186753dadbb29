//! Label resolution: XML/IANA/Python semantics, not WHATWG's.

use feed_decoder::Charset;

/// (label, canonical name it must resolve to; `None` = unknown).
const CASES: &[(&str, Option<&str>)] = &[
    // UTF family: XML meaning, not WHATWG's.
    ("utf-8", Some("utf-8")),
    ("UTF8", Some("utf-8")),
    ("utf_8", Some("utf-8")),
    ("u8", Some("utf-8")),
    ("unicode-1-1-utf-8", Some("utf-8")),
    ("utf-16", Some("utf-16")),
    ("UTF16", Some("utf-16")),
    ("u16", Some("utf-16")),
    ("ucs-2", Some("utf-16")),
    ("iso-10646-ucs-2", Some("utf-16")),
    ("csunicode", Some("utf-16")),
    ("unicode", Some("utf-16")),
    ("utf-16be", Some("utf-16be")),
    ("utf_16_le", Some("utf-16le")),
    ("unicodelittleunmarked", Some("utf-16le")),
    ("utf-32", Some("utf-32")),
    ("u32", Some("utf-32")),
    ("ucs-4", Some("utf-32")),
    ("iso-10646-ucs-4", Some("utf-32")),
    ("csucs4", Some("utf-32")),
    ("utf-32be", Some("utf-32be")),
    ("UTF_32_LE", Some("utf-32le")),
    ("ucs-4-2143", Some("ucs-4-2143")),
    ("ucs-4-3412", Some("ucs-4-3412")),
    // ASCII and Latin-1 are themselves, not windows-1252.
    ("us-ascii", Some("us-ascii")),
    ("ascii", Some("us-ascii")),
    ("ANSI_X3.4-1968", Some("us-ascii")),
    ("646", Some("us-ascii")),
    ("iso-8859-1", Some("iso-8859-1")),
    ("ISO8859-1", Some("iso-8859-1")),
    ("iso88591", Some("iso-8859-1")),
    ("latin1", Some("iso-8859-1")),
    ("latin-1", Some("iso-8859-1")),
    ("l1", Some("iso-8859-1")),
    ("csisolatin1", Some("iso-8859-1")),
    ("iso_8859-1:1987", Some("iso-8859-1")),
    ("cp819", Some("iso-8859-1")),
    ("iso-8859-9", Some("iso-8859-9")),
    ("latin5", Some("iso-8859-9")),
    ("iso-8859-11", Some("iso-8859-11")),
    ("tis-620", Some("tis-620")),
    ("iso-8859-15", Some("iso-8859-15")),
    ("csisolatin9", Some("iso-8859-15")),
    ("iso-8859-2", Some("iso-8859-2")),
    // Windows code pages under every spelling.
    ("windows-1252", Some("windows-1252")),
    ("windows_1252", Some("windows-1252")),
    ("Windows 1252", Some("windows-1252")),
    ("cp1252", Some("windows-1252")),
    ("x-cp1252", Some("windows-1252")),
    ("ms-ansi", Some("windows-1252")),
    ("dbcs", Some("windows-1252")),
    ("ms-arab", Some("windows-1256")),
    ("ms-cyrl", Some("windows-1251")),
    ("ms-ee", Some("windows-1250")),
    ("ms-greek", Some("windows-1253")),
    ("ms-hebr", Some("windows-1255")),
    ("ms-turk", Some("windows-1254")),
    ("winbaltrim", Some("windows-1257")),
    ("cp874", Some("windows-874")),
    ("windows-874", Some("windows-874")),
    // EBCDIC.
    ("ebcdic-cp-us", Some("cp037")),
    ("ebcdic_cp_us", Some("cp037")),
    ("csibm037", Some("cp037")),
    ("ibm039", Some("cp037")),
    ("ibm037", Some("cp037")),
    ("ebcdic-cp-be", Some("cp500")),
    ("ibm500", Some("cp500")),
    ("cp1047", Some("cp1047")),
    ("ibm1047", Some("cp1047")),
    ("ibm1140", Some("cp1140")),
    ("IBM01140", Some("cp1140")),
    ("win-1251", Some("windows-1251")),
    ("windows1250", Some("windows-1250")),
    ("cp-1251", Some("windows-1251")),
    ("Win_1252", Some("windows-1252")),
    ("win-9999", None),
    ("cp-no", None),
    ("ebcdic-us-37+euro", Some("cp1140")),
    ("CCSID01141", Some("cp1141")),
    ("ebcdic-de-273+euro", Some("cp1141")),
    ("cp01142", Some("cp1142")),
    ("IBM01145", Some("cp1145")),
    ("ebcdic-international-500+euro", Some("cp1148")),
    ("csibm1149", Some("cp1149")),
    ("cp273", Some("cp273")),
    ("cp875", Some("cp875")),
    ("cp1026", Some("cp1026")),
    ("cp277", Some("cp277")),
    ("cp285", Some("cp285")),
    // DOS.
    ("437", Some("cp437")),
    ("ibm437", Some("cp437")),
    ("cspc8codepage437", Some("cp437")),
    ("cspcp852", Some("cp852")),
    ("cp_is", Some("cp861")),
    ("cp737", Some("cp737")),
    ("cp775", Some("cp775")),
    ("cp856", Some("cp856")),
    ("866", Some("cp866")),
    ("ibm866", Some("cp866")),
    ("cp869", Some("cp869")),
    ("cp1125", Some("cp1125")),
    // Mac.
    ("macintosh", Some("macintosh")),
    ("csmacintosh", Some("macintosh")),
    ("mac", Some("macintosh")),
    ("macroman", Some("macintosh")),
    ("x-mac-roman", Some("macintosh")),
    ("maccentraleurope", Some("mac-latin2")),
    ("maclatin2", Some("mac-latin2")),
    ("maccyrillic", Some("mac-cyrillic")),
    ("x-mac-cyrillic", Some("mac-cyrillic")),
    ("macgreek", Some("mac-greek")),
    ("maciceland", Some("mac-iceland")),
    ("macturkish", Some("mac-turkish")),
    // KOI8, Vietnamese.
    ("koi8-r", Some("koi8-r")),
    ("cskoi8r", Some("koi8-r")),
    ("koi8-u", Some("koi8-u")),
    ("koi8-t", Some("koi8-t")),
    ("tcvn", Some("tcvn5712-1")),
    ("tcvn-5712", Some("tcvn5712-1")),
    ("TCVN5712-1", Some("tcvn5712-1")),
    ("tcvn5712-1:1993", Some("tcvn5712-1")),
    ("viscii", Some("viscii")),
    ("csviscii", Some("viscii")),
    ("viscii1.1-1", Some("viscii")),
    // CJK: encoding_rs's superset decoders.
    ("shift_jis", Some("shift_jis")),
    ("Shift-JIS", Some("shift_jis")),
    ("sjis", Some("shift_jis")),
    ("cp932", Some("shift_jis")),
    ("windows-31j", Some("shift_jis")),
    ("ms_kanji", Some("shift_jis")),
    ("euc-jp", Some("euc-jp")),
    ("iso-2022-jp", Some("iso-2022-jp")),
    ("csiso2022jp", Some("iso-2022-jp")),
    ("euc-kr", Some("euc-kr")),
    ("cp949", Some("euc-kr")),
    ("uhc", Some("euc-kr")),
    ("ks_c_5601-1987", Some("euc-kr")),
    ("gb2312", Some("gb18030")),
    ("euc-cn", Some("gb18030")),
    ("gbk", Some("gbk")),
    ("cp936", Some("gbk")),
    ("gb18030", Some("gb18030")),
    ("big5", Some("big5")),
    ("big5-hkscs", Some("big5")),
    ("cp950", Some("big5")),
    // Replacement labels and unimplemented codecs are unknown, never U+FFFD.
    ("iso-2022-kr", None),
    ("csiso2022kr", None),
    ("hz-gb-2312", None),
    ("iso-2022-cn", None),
    ("iso-2022-cn-ext", None),
    ("replacement", None),
    ("hz", None),
    ("johab", None),
    ("utf-7", None),
    ("x-user-defined", None),
    ("base64", None),
    ("rot13", None),
    // Junk.
    ("", None),
    ("   ", None),
    ("-", None),
    ("utf-8\u{e9}", None),
    ("no-such-charset", None),
    (
        "windows-1252 but longer than anything a label could ever be, really",
        None,
    ),
];

#[test]
fn labels_resolve_as_xml_and_python_do() {
    let mut failures = Vec::new();
    for &(label, expected) in CASES {
        let got = Charset::for_label(label).map(Charset::name);
        if got != expected {
            failures.push(format!("{label:?}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn case_whitespace_and_punctuation_do_not_matter() {
    for label in [
        "WINDOWS-1252",
        " windows-1252\t",
        "windows__1252",
        "Windows.1252",
        "-windows-1252-",
    ] {
        assert_eq!(
            Charset::for_label(label),
            Some(Charset::WINDOWS_1252),
            "{label:?}"
        );
    }
}

#[test]
fn every_canonical_name_resolves_to_itself() {
    for &cs in Charset::all() {
        assert_eq!(Charset::for_label(cs.name()), Some(cs), "{cs}");
        assert_eq!(cs.to_string(), cs.name());
        assert_eq!(format!("{cs:?}"), format!("Charset({})", cs.name()));
    }
}

#[test]
fn all_is_distinct_and_names_are_lower_case() {
    let all = Charset::all();
    let names: std::collections::HashSet<_> = all.iter().map(|c| c.name()).collect();
    assert_eq!(names.len(), all.len());
    for name in names {
        assert_eq!(name, name.to_ascii_lowercase());
    }
    assert!(all.len() >= 90, "only {} charsets", all.len());
}

#[test]
fn consts_have_their_names() {
    let cases = [
        (Charset::UTF_8, "utf-8"),
        (Charset::UTF_16BE, "utf-16be"),
        (Charset::UTF_16LE, "utf-16le"),
        (Charset::UTF_16, "utf-16"),
        (Charset::UTF_32BE, "utf-32be"),
        (Charset::UTF_32LE, "utf-32le"),
        (Charset::UTF_32, "utf-32"),
        (Charset::UCS_4_2143, "ucs-4-2143"),
        (Charset::UCS_4_3412, "ucs-4-3412"),
        (Charset::US_ASCII, "us-ascii"),
        (Charset::ISO_8859_1, "iso-8859-1"),
        (Charset::WINDOWS_1252, "windows-1252"),
        (Charset::ISO_8859_2, "iso-8859-2"),
        (Charset::CP037, "cp037"),
        (Charset::SHIFT_JIS, "shift_jis"),
    ];
    for (cs, name) in cases {
        assert_eq!(cs.name(), name);
    }
}

#[test]
fn for_encoding_maps_to_strict_equivalents() {
    use encoding_rs as e;
    assert_eq!(
        Charset::for_encoding(e::WINDOWS_1252),
        Charset::WINDOWS_1252
    );
    assert_eq!(Charset::for_encoding(e::ISO_8859_2), Charset::ISO_8859_2);
    assert_eq!(Charset::for_encoding(e::UTF_8), Charset::UTF_8);
    assert_eq!(Charset::for_encoding(e::UTF_16LE), Charset::UTF_16LE);
    assert_eq!(Charset::for_encoding(e::SHIFT_JIS), Charset::SHIFT_JIS);
    assert_eq!(Charset::for_encoding(e::GBK).name(), "gbk");
    assert_eq!(Charset::for_encoding(e::BIG5).name(), "big5");
    assert_eq!(Charset::for_encoding(e::IBM866).name(), "cp866");
    assert_eq!(Charset::for_encoding(e::KOI8_U).name(), "koi8-u");
    assert_eq!(Charset::for_encoding(e::ISO_8859_8_I).name(), "iso-8859-8");
    // Every WHATWG encoding except the two pseudo-encodings lands in the registry.
    for enc in [
        e::BIG5,
        e::EUC_JP,
        e::EUC_KR,
        e::GB18030,
        e::GBK,
        e::IBM866,
        e::ISO_2022_JP,
        e::ISO_8859_10,
        e::ISO_8859_13,
        e::ISO_8859_14,
        e::ISO_8859_15,
        e::ISO_8859_16,
        e::ISO_8859_2,
        e::ISO_8859_3,
        e::ISO_8859_4,
        e::ISO_8859_5,
        e::ISO_8859_6,
        e::ISO_8859_7,
        e::ISO_8859_8,
        e::ISO_8859_8_I,
        e::KOI8_R,
        e::KOI8_U,
        e::SHIFT_JIS,
        e::UTF_16BE,
        e::UTF_16LE,
        e::UTF_8,
        e::MACINTOSH,
        e::WINDOWS_1250,
        e::WINDOWS_1251,
        e::WINDOWS_1252,
        e::WINDOWS_1253,
        e::WINDOWS_1254,
        e::WINDOWS_1255,
        e::WINDOWS_1256,
        e::WINDOWS_1257,
        e::WINDOWS_1258,
        e::WINDOWS_874,
        e::X_MAC_CYRILLIC,
    ] {
        let cs = Charset::for_encoding(enc);
        assert!(Charset::all().contains(&cs), "{}", enc.name());
    }
}

#[test]
fn properties() {
    let get = |l: &str| Charset::for_label(l).unwrap();
    assert!(Charset::UTF_16.byte_order_unspecified());
    assert!(Charset::UTF_32.byte_order_unspecified());
    assert!(!Charset::UTF_16BE.byte_order_unspecified());
    assert_eq!(
        Charset::UTF_16.with_byte_order_of(Charset::UTF_16LE),
        Charset::UTF_16LE
    );
    assert_eq!(
        Charset::UTF_32.with_byte_order_of(Charset::UCS_4_3412),
        Charset::UCS_4_3412
    );
    assert_eq!(
        Charset::UTF_16.with_byte_order_of(Charset::UTF_32LE),
        Charset::UTF_16
    );
    assert_eq!(
        Charset::WINDOWS_1252.with_byte_order_of(Charset::UTF_16LE),
        Charset::WINDOWS_1252
    );
    for l in [
        "us-ascii",
        "iso-8859-1",
        "windows-1252",
        "cp437",
        "koi8-r",
        "tcvn",
        "viscii",
        "shift_jis",
        "utf-8",
    ] {
        assert!(get(l).is_ascii_compatible(), "{l}");
    }
    for l in [
        "cp037",
        "cp500",
        "utf-16",
        "utf-16le",
        "utf-32",
        "iso-2022-jp",
    ] {
        assert!(!get(l).is_ascii_compatible(), "{l}");
    }
    for l in [
        "us-ascii",
        "iso-8859-1",
        "windows-1252",
        "cp037",
        "cp1047",
        "macintosh",
        "tcvn",
        "koi8-u",
    ] {
        assert!(get(l).is_single_byte(), "{l}");
    }
    for l in [
        "utf-8",
        "utf-16",
        "utf-32be",
        "shift_jis",
        "gb18030",
        "big5",
    ] {
        assert!(!get(l).is_single_byte(), "{l}");
    }
    for l in [
        "cp037", "cp500", "cp1047", "cp1140", "cp273", "cp875", "cp1026", "cp1141", "cp1149",
    ] {
        assert!(get(l).is_ebcdic(), "{l}");
    }
    assert!(!get("cp437").is_ebcdic());
}
