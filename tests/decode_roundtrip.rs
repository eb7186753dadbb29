//! Round trips through the whole decoding pipeline: a known text, declared and encoded in
//! a charset, must come back exactly, reported under the declared label, with no bozo.

use feed_decoder::{Charset, Decoder, Policy, Transport};

/// A feed declaring `label` whose title is `title`.
fn feed(label: &str, title: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"{label}\"?>\n<rss version=\"2.0\"><channel>\
         <title>{title}</title><item><title>{title}</title></item></channel></rss>\n"
    )
}

/// The characters a single-byte charset maps its high bytes to (its repertoire), as a
/// sample text; `None` for multi-byte charsets.
fn repertoire(c: Charset) -> Option<String> {
    if !c.is_single_byte() || !c.is_ascii_compatible() {
        return None;
    }
    let text: String = (0x80u8..=0xFF)
        .filter_map(|b| c.decode_strict(&[b]).ok().map(|s| s.into_owned()))
        .flat_map(|s| s.chars().collect::<Vec<_>>())
        .filter(|&ch| !ch.is_control() && !"<>&".contains(ch))
        .collect();
    Some(text)
}

/// Every charset of the registry round-trips its own repertoire (single-byte) or a
/// multilingual sample (the rest) under the feedparser policy, where nothing but the
/// declaration decides.
#[test]
fn every_charset_round_trips_under_its_own_name() {
    let mut checked = 0;
    let multilingual = "Grüße Новости Ελληνικά 日本語 中文 한국어";
    for &c in Charset::all() {
        let sample = repertoire(c).unwrap_or_else(|| {
            multilingual
                .split(' ')
                .filter(|w| c.encode(w).is_some())
                .collect::<Vec<_>>()
                .join(" ")
        });
        let doc = feed(c.name(), &sample);
        let Some(bytes) = c.encode(&doc) else {
            panic!("{}: cannot encode its own sample {sample:?}", c.name());
        };
        let d = Decoder::new()
            .policy(Policy::FeedparserExact)
            .decode(&bytes, &Transport::Local);
        // An unordered UTF-16/UTF-32 label decodes with the byte order its BOM gives.
        let used = d.charset.expect("a charset");
        let want = if c.byte_order_unspecified() {
            c.with_byte_order_of(used)
        } else {
            c
        };
        assert_eq!(
            used,
            want,
            "{}: decoded as {used:?} ({:?})",
            c.name(),
            d.trail.tried
        );
        assert!(d.bozo.is_empty(), "{}: {:?}", c.name(), d.bozo);
        assert!(d.text.contains(&sample), "{}: sample lost", c.name());
        checked += 1;
    }
    assert!(checked >= 90, "only {checked} charsets checked");
}

/// Western European prose under the Western default labels is never taken for a
/// Central European, Turkish or Baltic page.
#[test]
fn western_prose_keeps_its_western_label() {
    let texts = [
        "Le président a annoncé mercredi une réforme des retraites. Les syndicats déçus préparent une grève générale à Paris et à Lyon.",
        "Die Bundesregierung hat am Mittwoch neue Maßnahmen beschlossen. Für Bürger ändert sich künftig einiges bei der Steuererklärung.",
        "El Gobierno aprobó el miércoles una reforma educativa. Los sindicatos critican que la financiación no llegará hasta el próximo año.",
        "O governo português anunciou ontem novas medidas económicas. A oposição criticou a decisão e pediu explicações ao ministro.",
        "Il governo ha approvato mercoledì la riforma delle pensioni. I sindacati hanno già annunciato uno sciopero generale più lungo.",
        "Regeringen presenterade på onsdagen ett nytt förslag om skatter. Oppositionen är kritisk och kräver en ändring före årsskiftet.",
        "Regeringen fremlagde onsdag et nyt forslag om skatter. Oppositionen er kritisk og kræver ændringer før årsskiftet på Ærø.",
        "De regering heeft woensdag een nieuw voorstel gepresenteerd. De oppositie is kritisch over de financiële gevolgen ervan.",
        "Hallitus esitteli keskiviikkona uuden veroehdotuksen. Oppositio vaatii muutoksia ennen vuodenvaihdetta ja kritisoi päätöstä.",
        "Ríkisstjórnin kynnti nýjar aðgerðir á miðvikudag. Stjórnarandstaðan gagnrýndi ákvörðunina harðlega í þinginu í gær.",
    ];
    for label in ["windows-1252", "iso-8859-1", "iso-8859-15"] {
        let c = Charset::for_label(label).unwrap();
        for text in texts {
            let bytes = c.encode(&feed(label, text)).expect("encodable");
            let d = feed_decoder::decode(&bytes, &Transport::Local);
            assert_eq!(d.encoding, label, "{text}: {:?}", d.trail.tried);
            assert!(d.bozo.is_empty(), "{label} {text}: {:?}", d.bozo);
        }
    }
}

/// Correctly labelled natural text must never be overridden by the evidence rules.
#[test]
fn recover_never_overrides_correct_labels_of_natural_text() {
    let cases: &[(&str, &str)] = &[
        (
            "windows-1252",
            "Ça coûte 5 € — « vraiment » déjà, naïve façade, Größe und Überraschung",
        ),
        (
            "iso-8859-1",
            "Él está en España; São Paulo é grande; Ærøskøbing ligger på Ærø",
        ),
        (
            "iso-8859-15",
            "L'œuvre coûte 20 € à Besançon, où le cœur bat",
        ),
        (
            "iso-8859-2",
            "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy",
        ),
        (
            "windows-1250",
            "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy",
        ),
        (
            "windows-1257",
            "Lietuvos žinios: Vilniuje šiandien šilta, Rīgā līst lietus",
        ),
        (
            "windows-1254",
            "Türkiye'de bugün hava güneşli; İstanbul'da çok kalabalık",
        ),
        (
            "windows-1251",
            "Новости дня: в Москве открылась новая выставка современного искусства",
        ),
        (
            "koi8-r",
            "Новости дня: в Москве открылась новая выставка современного искусства",
        ),
        (
            "koi8-u",
            "Новини дня: у Києві відкрилася нова виставка сучасного мистецтва",
        ),
        (
            "ibm866",
            "Новости дня: в Москве открылась новая выставка современного искусства",
        ),
        (
            "iso-8859-5",
            "Новости дня: в Москве открылась новая выставка современного искусства",
        ),
        (
            "windows-1253",
            "Ελληνικά νέα: σήμερα στην Αθήνα ο καιρός είναι ηλιόλουστος",
        ),
        (
            "iso-8859-7",
            "Ελληνικά νέα: σήμερα στην Αθήνα ο καιρός είναι ηλιόλουστος",
        ),
        ("windows-1255", "חדשות היום: מזג האוויר בירושלים נאה ושמשי"),
        ("windows-1256", "أخبار اليوم: الطقس في القاهرة مشمس وحار"),
        ("windows-874", "ข่าววันนี้: อากาศในกรุงเทพฯ ร้อนและมีแดดจัด"),
        (
            "shift_jis",
            "今日のニュース：東京は晴れ、気温は二十五度まで上がる見込みです",
        ),
        (
            "euc-jp",
            "今日のニュース：東京は晴れ、気温は二十五度まで上がる見込みです",
        ),
        (
            "iso-2022-jp",
            "今日のニュース：東京は晴れ、気温は二十五度まで上がる見込みです",
        ),
        ("gbk", "今日新闻：北京天气晴朗，气温将升至二十五度"),
        ("gb18030", "今日新闻：北京天气晴朗，气温将升至二十五度"),
        ("big5", "今日新聞：台北天氣晴朗，氣溫將升至二十五度"),
        (
            "euc-kr",
            "오늘의 뉴스: 서울은 맑고 기온은 이십오 도까지 오를 전망입니다",
        ),
    ];
    for &(label, text) in cases {
        let c = Charset::for_label(label).unwrap_or_else(|| panic!("{label} unknown"));
        let bytes = c
            .encode(&feed(label, text))
            .unwrap_or_else(|| panic!("{label}: cannot encode"));
        let parsed = feed_decoder::parse(&bytes, &Transport::Local);
        let d = &parsed.decoded;
        assert_eq!(d.encoding, label, "{label}: trail {:?}", d.trail.tried);
        assert!(d.bozo.is_empty(), "{label}: {:?}", d.bozo);
        assert_eq!(parsed.feed.title.as_deref(), Some(text), "{label}");
    }
}

/// A decoded text holds no worst-case spare capacity: encoding_rs reserves three bytes of
/// UTF-8 per input byte of a single-byte charset, and a large feed would otherwise keep
/// that reservation (three times its size) for as long as it is parsed. Checked for
/// WHATWG-backed charsets, a charset decoded from our own table, and the lossy path.
#[test]
fn decoded_text_keeps_no_worst_case_capacity() {
    let body = "<item><title>Grüße aus Köln</title></item>\n".repeat(2_000);
    let cases = [
        ("windows-1252", false),
        ("iso-8859-15", false),
        ("cp437", false),
        ("windows-1252", true),
        ("cp437", true),
    ];
    for (label, lossy) in cases {
        let charset = Charset::for_label(label).expect(label);
        let mut bytes =
            format!("<?xml version=\"1.0\" encoding=\"{label}\"?>\n<rss><channel>").into_bytes();
        bytes.extend(charset.encode(&body).expect(label));
        bytes.extend_from_slice(b"</channel></rss>");
        if lossy {
            // Undefined in Python's windows-1252; cp437 defines every byte.
            bytes.push(0x81);
        }
        let text = if lossy {
            charset.decode_lossy(&bytes)
        } else {
            charset.decode_strict(&bytes).expect(label)
        };
        let std::borrow::Cow::Owned(s) = text else {
            panic!("{label}: non-ASCII input cannot be borrowed");
        };
        assert!(s.contains("Grüße aus Köln"), "{label}");
        assert!(
            s.capacity() <= s.len() + s.len() / 8 + 64,
            "{label} (lossy: {lossy}): {} bytes of capacity for {} bytes of text",
            s.capacity(),
            s.len()
        );
    }
}

/// A whole-document decode of a single-byte charset (sized exactly before decoding, so
/// that no worst-case reservation is touched) reads every byte as the charset reads it
/// alone: every byte value, in pseudo-random documents with ASCII runs of every length
/// (the length count skips ASCII sixteen bytes at a time), strict and lossy, and keeps
/// no spare capacity to speak of.
#[test]
fn single_byte_decodes_read_each_byte_alone() {
    let labels = [
        "windows-1251",
        "koi8-r",
        "iso-8859-7",
        "windows-1255",
        "windows-874",
        "ibm866",
        "macintosh",
        "iso-8859-2",
        "windows-1252",
        "cp437",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for label in labels {
        let charset = Charset::for_label(label).expect(label);
        let alone: Vec<Option<String>> = (0..=255u8)
            .map(|b| charset.decode_strict(&[b]).ok().map(|t| t.into_owned()))
            .collect();
        let lossy_alone: Vec<String> = (0..=255u8)
            .map(|b| charset.decode_lossy(&[b]).into_owned())
            .collect();
        for round in 0..40 {
            let mut bytes = Vec::new();
            while bytes.len() < 3_000 {
                let r = next();
                if r % 3 == 0 {
                    // An ASCII run of 0 to 40 bytes.
                    bytes.extend((0..r % 41).map(|i| b'a' + (i % 26) as u8));
                } else {
                    bytes.push((r >> 8) as u8);
                }
            }
            if round == 0 {
                bytes.extend(0..=255u8);
            }
            let lossy: String = bytes
                .iter()
                .map(|&b| lossy_alone[usize::from(b)].as_str())
                .collect();
            assert_eq!(charset.decode_lossy(&bytes), lossy, "{label}");
            let strict: Option<String> = bytes
                .iter()
                .map(|&b| alone[usize::from(b)].clone())
                .collect();
            let ours = charset.decode_strict(&bytes).ok();
            assert_eq!(ours.as_deref(), strict.as_deref(), "{label}");
            // The defined bytes only: a strict decode that succeeds.
            let defined: Vec<u8> = bytes
                .iter()
                .copied()
                .filter(|&b| alone[usize::from(b)].is_some())
                .collect();
            let expected: String = defined
                .iter()
                .map(|&b| alone[usize::from(b)].as_deref().unwrap_or_default())
                .collect();
            let std::borrow::Cow::Owned(s) = charset.decode_strict(&defined).expect(label) else {
                panic!("{label}: non-ASCII input cannot be borrowed");
            };
            assert_eq!(s, expected, "{label}");
            assert!(
                s.capacity() <= s.len() + s.len() / 8 + 64,
                "{label}: {} for {}",
                s.capacity(),
                s.len()
            );
        }
    }
}
