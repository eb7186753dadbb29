//! Recovery from damaged bytes, tested on generated documents (a natural text encoded in
//! a charset, then damaged the way real feeds are): a download cut inside a character in
//! every multi-byte charset, invalid UTF-16/UTF-32 code units, UTF-8 with runs of
//! windows-1252 at every share, and the guards that keep clean legacy text as it is.

use feed_decoder::{BozoKind, Charset, Decoder, Policy, Transport};

/// Sentences of news prose; each becomes one entry.
const JA: &[&str] = &[
    "東京で新しい美術館が開館し、週末には多くの家族連れが訪れました。",
    "気象庁によると、明日は全国的に晴れて気温が上がる見込みです。",
    "地元の商店街では、秋祭りの準備が始まっています。",
];
const ZH: &[&str] = &[
    "北京举办了新的国际展览会，吸引了来自各地的游客。",
    "气象部门预计，明天全国大部分地区天气晴朗。",
    "当地政府宣布将扩建城市公园，增加绿化面积。",
];
const TW: &[&str] = &[
    "台北舉辦了新的國際展覽會，吸引了來自各地的遊客。",
    "氣象局預計，明天全台大部分地區天氣晴朗。",
    "地方政府宣布將擴建城市公園，增加綠化面積。",
];
const KO: &[&str] = &[
    "서울에서 새로운 미술관이 문을 열었고 주말에는 많은 가족이 방문했습니다.",
    "기상청은 내일 전국이 대체로 맑고 기온이 오를 것으로 예상했습니다.",
    "지역 상인들은 가을 축제 준비를 시작했습니다.",
];
const MIXED: &[&str] = &[
    "Grüße aus Köln — „Zitat“ und mehr",
    "Новости дня: выставка открылась",
    "Ελληνικά νέα σήμερα από την Αθήνα",
    "La mairie a présenté le nouveau plan",
];
const WESTERN: &[&str] = &[
    "Don’t stop “believing” – it’s café time…",
    "Résumé of the naïve coöperation, 5 € • ™",
    "El ayuntamiento aprobó la reforma de la plaza",
    "Die Stadtwerke erhöhen die Gebühren für Fernwärme",
];

/// An RSS feed declaring `label` (none when empty) with one entry per sentence.
fn feed(label: &str, sentences: &[&str]) -> String {
    let decl = if label.is_empty() {
        String::new()
    } else {
        format!("<?xml version=\"1.0\" encoding=\"{label}\"?>\n")
    };
    let items: String = sentences
        .iter()
        .map(|s| format!("<item><title>{s}</title><description>{s} {s}</description></item>\n"))
        .collect();
    format!(
        "{decl}<rss version=\"2.0\"><channel><title>{}</title>\n{items}</channel></rss>\n",
        sentences[0]
    )
}

fn recover(bytes: &[u8]) -> feed_decoder::Decoded<'_> {
    Decoder::new().decode(bytes, &Transport::Local)
}

fn kinds(d: &feed_decoder::Decoded<'_>) -> Vec<BozoKind> {
    d.bozo.iter().map(|b| b.kind).collect()
}

/// The charsets with multi-byte characters, the label they are declared with, a text
/// they can write, and the byte-order mark written first.
fn multibyte() -> Vec<(
    &'static str,
    Charset,
    &'static [&'static str],
    &'static [u8],
)> {
    let c = |l: &str| Charset::for_label(l).unwrap();
    vec![
        ("shift_jis", c("shift_jis"), JA, b""),
        ("euc-jp", c("euc-jp"), JA, b""),
        ("gbk", c("gbk"), ZH, b""),
        ("gb18030", c("gb18030"), ZH, b""),
        ("big5", c("big5"), TW, b""),
        ("euc-kr", c("euc-kr"), KO, b""),
        ("utf-8", Charset::UTF_8, MIXED, b""),
        ("utf-16", Charset::UTF_16LE, JA, b"\xff\xfe"),
        ("utf-16", Charset::UTF_16BE, KO, b"\xfe\xff"),
        ("utf-32", Charset::UTF_32LE, ZH, b"\xff\xfe\x00\x00"),
        ("utf-32", Charset::UTF_32BE, MIXED, b"\x00\x00\xfe\xff"),
        ("ucs-4", Charset::UTF_32BE, KO, b""),
        ("utf-16", Charset::UTF_16LE, TW, b""),
    ]
}

/// Every multi-byte charset, cut inside each of the last characters of the document by
/// every possible number of its bytes: the label is kept, the text is exactly the
/// complete characters before the cut, and one `CharacterDecodingError` says where.
#[test]
fn a_download_cut_inside_a_character_keeps_the_label() {
    let mut checked = 0;
    for (label, charset, sentences, bom) in multibyte() {
        let text = feed(label, sentences);
        // Cut inside the non-ASCII characters of the last sentence's description.
        let tail = text.rfind("<description>").unwrap();
        for (at, ch) in text[tail..]
            .char_indices()
            .filter(|(_, c)| !c.is_ascii())
            .step_by(3)
        {
            let at = tail + at;
            let head = charset.encode(&text[..at]).unwrap();
            let whole = charset.encode(&ch.to_string()).unwrap();
            for keep in 1..whole.len() {
                let bytes = [bom, &head, &whole[..keep]].concat();
                let d = recover(&bytes);
                let name = format!("{label}/{} cut at {at}+{keep}", charset.name());
                assert_eq!(d.charset, Some(charset), "{name}: {:?}", d.trail.tried);
                assert_eq!(d.text, &text[..at], "{name}");
                assert_eq!(kinds(&d), [BozoKind::CharacterDecodingError], "{name}");
                let offset = d.bozo[0].position.unwrap().offset.unwrap();
                assert_eq!(offset as usize, bom.len() + head.len(), "{name}");
                checked += 1;
            }
        }
    }
    assert!(checked > 150, "only {checked} cuts checked");
}

/// The feedparser policy keeps feedparser's behaviour: the cut label fails.
#[test]
fn feedparser_policy_does_not_recover_truncation() {
    let text = feed("shift_jis", JA);
    let at = text.rfind(JA[2]).unwrap();
    // The document ends after the lead byte of the sentence's first character.
    let bytes = [
        &Charset::SHIFT_JIS.encode(&text[..at]).unwrap()[..],
        &Charset::SHIFT_JIS.encode(&JA[2][..3]).unwrap()[..1],
    ]
    .concat();
    let exact = Decoder::new()
        .policy(Policy::FeedparserExact)
        .decode(&bytes, &Transport::Local);
    assert_ne!(exact.encoding, "shift_jis");
    assert!(!kinds(&exact).contains(&BozoKind::CharacterDecodingError));
    assert_eq!(recover(&bytes).encoding, "shift_jis");
}

/// A lone surrogate, an out-of-range value or an odd unit anywhere in UTF-16/UTF-32
/// whose byte order the first bytes prove: the label is kept, each bad unit is one
/// U+FFFD, the rest is intact.
#[test]
fn wide_charsets_replace_bad_units_and_keep_the_rest() {
    let cases: [(Charset, &[u8], &[u8]); 6] = [
        (Charset::UTF_16LE, b"\xff\xfe", b"\x00\xd8"),
        (Charset::UTF_16BE, b"\xfe\xff", b"\xdc\x00"),
        (Charset::UTF_16LE, b"", b"\x3d\xd8"),
        (Charset::UTF_32LE, b"\xff\xfe\x00\x00", b"\x00\x00\x11\x00"),
        (Charset::UTF_32BE, b"\x00\x00\xfe\xff", b"\x00\x00\xd8\x00"),
        (Charset::UTF_32BE, b"", b"\xff\xff\xff\xff"),
    ];
    for (charset, bom, bad) in cases {
        let label = if charset.name().starts_with("utf-16") {
            "utf-16"
        } else {
            "utf-32"
        };
        let text = feed(label, KO);
        let mid = text.find(KO[1]).unwrap() + KO[1].len() / 2;
        let mid = (0..=mid).rev().find(|&i| text.is_char_boundary(i)).unwrap();
        let bytes = [
            bom,
            &charset.encode(&text[..mid]).unwrap(),
            bad,
            &charset.encode(&text[mid..]).unwrap(),
        ]
        .concat();
        let d = recover(&bytes);
        let name = format!("{} {bad:02x?}", charset.name());
        assert_eq!(d.charset, Some(charset), "{name}");
        assert_eq!(
            d.text,
            format!("{}\u{FFFD}{}", &text[..mid], &text[mid..]),
            "{name}"
        );
        assert_eq!(kinds(&d), [BozoKind::CharacterDecodingError], "{name}");
        let at = d.bozo[0].position.unwrap().offset.unwrap() as usize;
        assert_eq!(at, bom.len() + charset.encode(&text[..mid]).unwrap().len());
        // And the parser reads every entry.
        let parsed = feed_decoder::parse(&bytes, &Transport::Local);
        assert_eq!(parsed.entries.len(), KO.len(), "{name}");
    }
}

/// A UTF-8 feed with `pasted` of its `n` entries in windows-1252, declared as `label`.
fn mixed_feed(n: usize, pasted: usize, label: &str) -> (Vec<u8>, String) {
    let mut bytes = Vec::new();
    let mut want = String::new();
    let head = if label.is_empty() {
        String::new()
    } else {
        format!("<?xml version=\"1.0\" encoding=\"{label}\"?>")
    };
    let open = format!("{head}<rss version=\"2.0\"><channel><title>Mixed</title>\n");
    bytes.extend_from_slice(open.as_bytes());
    want.push_str(&open);
    let cp1252 = Charset::for_label("windows-1252").unwrap();
    for i in 0..n {
        // Spread the pasted entries over the feed.
        let legacy = i * pasted / n != (i + 1) * pasted / n;
        let item = if legacy {
            format!(
                "<item><title>{}</title></item>\n",
                WESTERN[i % WESTERN.len()]
            )
        } else {
            format!("<item><title>{}</title></item>\n", MIXED[i % MIXED.len()])
        };
        if legacy {
            bytes.extend_from_slice(&cp1252.encode(&item).unwrap());
        } else {
            bytes.extend_from_slice(item.as_bytes());
        }
        want.push_str(&item);
    }
    bytes.extend_from_slice(b"</channel></rss>\n");
    want.push_str("</channel></rss>\n");
    (bytes, want)
}

/// Whatever the share of pasted windows-1252, the valid UTF-8 stays UTF-8 and only the
/// invalid runs are read as windows-1252, recorded with their byte ranges.
#[test]
fn mixed_utf8_and_windows_1252_at_every_share() {
    for label in ["utf-8", ""] {
        for pasted in 1..20 {
            let (bytes, want) = mixed_feed(20, pasted, label);
            let d = recover(&bytes);
            let name = format!("{pasted}/20 pasted, label {label:?}");
            assert_eq!(d.encoding, "utf-8", "{name}");
            assert_eq!(d.text, want, "{name}");
            assert_eq!(kinds(&d), [BozoKind::CharacterDecodingError], "{name}");
            let msg = &d.bozo[0].message;
            assert!(msg.contains("read as windows-1252"), "{name}: {msg}");
            // The first listed range starts at the first byte that is not UTF-8.
            let first = std::str::from_utf8(&bytes).unwrap_err().valid_up_to();
            assert!(msg.contains(&format!("at bytes {first}-")), "{name}: {msg}");
        }
    }
}

/// Legacy text that forms a valid UTF-8 sequence or two by chance (a capital and a
/// symbol: `ß’`, `Ã©`, `Ð»`), Cyrillic or CJK legacy bytes: never read as mixed UTF-8.
#[test]
fn legacy_documents_are_not_read_as_mixed_utf8() {
    let cp1252 = Charset::for_label("windows-1252").unwrap();
    let western = format!(
        "<rss version=\"2.0\"><channel><title>Straß’ und Café Ã©</title>{}</channel></rss>",
        WESTERN
            .iter()
            .map(|t| format!("<item><title>{t}</title></item>"))
            .collect::<String>()
    );
    let bytes = cp1252.encode(&western).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err());
    let d = recover(&bytes);
    assert_eq!(d.text, western);
    assert!(!kinds(&d).contains(&BozoKind::CharacterDecodingError));

    for (label, sentences) in [
        ("windows-1251", MIXED[1..2].repeat(6)),
        ("shift_jis", JA.repeat(2)),
        ("big5", TW.repeat(2)),
        ("euc-kr", KO.repeat(2)),
        ("gbk", ZH.repeat(2)),
    ] {
        let c = Charset::for_label(label).unwrap();
        let text = feed("", &sentences);
        let bytes = c.encode(&text).unwrap();
        let d = recover(&bytes);
        assert_eq!(d.text, text, "unlabelled {label}: read as {}", d.encoding);
        assert!(
            !kinds(&d).contains(&BozoKind::CharacterDecodingError),
            "{label}"
        );
    }
}

/// A correct legacy label on complete natural text is never overridden or repaired.
#[test]
fn correct_multibyte_labels_stay() {
    for (label, charset, sentences, bom) in multibyte() {
        if !bom.is_empty() || charset.name().starts_with("utf") {
            continue;
        }
        for n in [1, sentences.len()] {
            let text = feed(label, &sentences[..n]);
            let bytes = charset.encode(&text).unwrap();
            let d = recover(&bytes);
            assert_eq!(d.charset, Some(charset), "{label} with {n} entries");
            assert!(d.bozo.is_empty(), "{label}: {:?}", d.bozo);
            assert_eq!(d.text, text);
        }
    }
}

/// `&#133;` (U+0085, which windows-1252 reads as `…`) at the end of a title survives
/// the trimming of the value; so do the other C1 references. A `&#160;` at an edge is
/// trimmed, as feedparser's `str.strip()` trims it.
#[test]
fn c1_references_at_the_edges_of_a_value_survive() {
    let doc = "<rss version=\"2.0\"><channel><title>Wait for it&#133;</title>\
               <item><title>&#147;Quoted&#148;&#133;  </title>\
               <description>Price &#128;5&#133;</description></item>\
               <item><title>&#160;Indented</title></item></channel></rss>";
    let parsed = feed_decoder::parse(doc.as_bytes(), &Transport::Local);
    assert_eq!(parsed.feed.title.as_deref(), Some("Wait for it…"));
    let e = &parsed.entries;
    assert_eq!(e[0].title.as_deref(), Some("“Quoted”…"));
    assert_eq!(e[0].summary.as_deref(), Some("Price €5…"));
    assert_eq!(e[1].title.as_deref(), Some("Indented"));
}

/// Atom content marked base64 that is plain text stays as published, with one
/// `InvalidBase64` record; real base64 is decoded.
#[test]
fn content_that_is_not_base64_is_kept_as_text() {
    let doc = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title>\
               <entry><title>a</title><content mode=\"base64\" type=\"text/plain\">\
               Just words that were never encoded</content></entry>\
               <entry><title>b</title><content mode=\"base64\" type=\"text/html\">\
               PHA+SGVsbG8gPGI+d29ybGQ8L2I+PC9wPg==</content></entry>\
               <entry><title>c</title><content type=\"application/octet-stream\">abcd efgh</content></entry>\
               </feed>";
    let parsed = feed_decoder::parse(doc.as_bytes(), &Transport::Local);
    let values: Vec<&str> = parsed
        .entries
        .iter()
        .map(|e| &*e.content[0].value)
        .collect();
    assert_eq!(
        values,
        [
            "Just words that were never encoded",
            "<p>Hello <b>world</b></p>",
            "abcd efgh"
        ]
    );
    let records: Vec<_> = parsed
        .bozo
        .iter()
        .filter(|b| b.kind == BozoKind::InvalidBase64)
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    assert!(records[0].message.starts_with("2 content"));
}

/// An RSS 1.1 document (root `Channel` in RSS 1.1's namespace) is `rss11`, not CDF.
#[test]
fn rss_1_1_is_not_cdf() {
    let doc = "<?xml version=\"1.0\"?><Channel xmlns=\"http://purl.org/net/rss1.1#\" \
               xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" rdf:about=\"http://example.org/\">\
               <title>RSS 1.1</title><link>http://example.org/</link><description>d</description>\
               <items rdf:parseType=\"Collection\"><item rdf:about=\"http://example.org/1\">\
               <title>One</title><link>http://example.org/1</link></item></items></Channel>";
    let parsed = feed_decoder::parse(doc.as_bytes(), &Transport::Local);
    assert_eq!(parsed.version, "rss11");
    assert_eq!(parsed.entries[0].title.as_deref(), Some("One"));
    // A CDF channel is still CDF.
    let cdf = "<CHANNEL HREF=\"http://example.org/\"><TITLE>c</TITLE></CHANNEL>";
    assert_eq!(
        feed_decoder::parse(cdf.as_bytes(), &Transport::Local).version,
        "cdf"
    );
}
