//! Labels of the wrong width, generated: every UTF-16/UCS-2/UTF-32/UCS-4 spelling over
//! ASCII-compatible bytes (UTF-8, ASCII, windows-1252, ISO-8859-1), and ASCII-family labels
//! over UTF-16/UTF-32 bytes with and without a BOM, in three lengths, an odd and an even
//! number of bytes, and five transports (local with the label in the XML declaration; HTTP
//! with it in the charset, in both, in the declaration under a Content-Type without
//! charset, and under text/xml). Correct labels of every width ride along as controls.
//!
//! Each case asserts the exact recovered text (feed title, entry titles and summaries),
//! that the reported encoding names the charset actually used, that a label of the wrong
//! width fails as a candidate with an override recorded, and that a candidate in the
//! document's own encoding is never refused. JSON Feed bodies get the same labels through
//! the HTTP charset.
//!
//! `tools/label_width_cases.py` writes the same matrix as files, for inspection and for a
//! field-by-field comparison with feedparser.

use feed_decoder::{BozoKind, Charset, Parsed, Transport};

/// Every spelling of a UTF-16/UCS-2/UTF-32/UCS-4 label the registry knows, in several
/// cases.
const WIDE_LABELS: &[&str] = &[
    "utf-16",
    "UTF-16",
    "Utf-16",
    "utf16",
    "UTF16",
    "utf_16",
    "u16",
    "UTF-16LE",
    "utf-16le",
    "utf16le",
    "utf_16_le",
    "UTF-16BE",
    "utf-16be",
    "utf_16be",
    "ucs-2",
    "UCS-2",
    "ucs_2",
    "ucs-2le",
    "ucs-2be",
    "iso-10646-ucs-2",
    "csUnicode",
    "unicode",
    "UnicodeFEFF",
    "UnicodeLittleUnmarked",
    "UnicodeBigUnmarked",
    "utf-32",
    "UTF-32",
    "utf32",
    "utf_32",
    "u32",
    "UTF-32LE",
    "utf-32le",
    "UTF-32BE",
    "utf-32be",
    "utf_32_be",
    "ucs-4",
    "UCS-4",
    "ucs4",
    "ucs_4",
    "ucs-4le",
    "ucs-4be",
    "iso-10646-ucs-4",
    "csUCS4",
];

/// The wide labels that run through every length and transport (the rest run through
/// every byte family, small, local).
const WIDE_MATRIX: &[&str] = &[
    "utf-16", "UTF-16LE", "utf-16be", "ucs-2", "UTF-32", "ucs-4", "utf-32be",
];

/// ASCII-compatible labels.
const NARROW_LABELS: &[&str] = &[
    "utf-8",
    "UTF-8",
    "utf8",
    "us-ascii",
    "ascii",
    "iso-8859-1",
    "ISO-8859-1",
    "latin1",
    "windows-1252",
    "cp1252",
    "iso-8859-15",
    "iso-8859-2",
    "koi8-r",
    "shift_jis",
    "gb2312",
];

/// How the bytes are written.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Family {
    Utf8,
    Ascii,
    Windows1252,
    Latin1,
    /// A wide charset, with or without its BOM.
    Wide(Charset, bool),
    Utf8Bom,
}

impl Family {
    fn all() -> Vec<Family> {
        let mut all = vec![
            Family::Utf8,
            Family::Utf8Bom,
            Family::Ascii,
            Family::Windows1252,
            Family::Latin1,
        ];
        for c in [
            Charset::UTF_16LE,
            Charset::UTF_16BE,
            Charset::UTF_32LE,
            Charset::UTF_32BE,
        ] {
            all.push(Family::Wide(c, false));
            all.push(Family::Wide(c, true));
        }
        all
    }

    fn charset(self) -> Charset {
        match self {
            Family::Utf8 | Family::Utf8Bom => Charset::UTF_8,
            Family::Ascii => Charset::US_ASCII,
            Family::Windows1252 => Charset::WINDOWS_1252,
            Family::Latin1 => Charset::for_label("iso-8859-1").expect("latin1"),
            Family::Wide(c, _) => c,
        }
    }

    fn bom(self) -> &'static [u8] {
        match self {
            Family::Utf8Bom => b"\xEF\xBB\xBF",
            Family::Wide(c, true) if c == Charset::UTF_16LE => b"\xFF\xFE",
            Family::Wide(c, true) if c == Charset::UTF_16BE => b"\xFE\xFF",
            Family::Wide(c, true) if c == Charset::UTF_32LE => b"\xFF\xFE\x00\x00",
            Family::Wide(_, true) => b"\x00\x00\xFE\xFF",
            _ => b"",
        }
    }

    /// Whether the bytes are an ASCII-compatible encoding without a BOM.
    fn narrow(self) -> bool {
        !matches!(self, Family::Wide(..) | Family::Utf8Bom)
    }

    fn name(self) -> String {
        match self {
            Family::Wide(c, bom) => format!("{}{}", c.name(), if bom { "-bom" } else { "" }),
            f => format!("{f:?}").to_ascii_lowercase(),
        }
    }

    /// The feed title, an entry title and an entry summary in this family's repertoire
    /// (`{i}` is the entry number). No byte of the windows-1252 and ISO-8859-1 texts is
    /// in 0xD8-0xDF, so that UTF-16 reads them without a lone surrogate.
    fn texts(self) -> [&'static str; 3] {
        match self {
            Family::Ascii => [
                "The Riverside Courier",
                "Rail line news {i}",
                "Replacement buses run every 20 minutes, item {i}.",
            ],
            Family::Windows1252 => [
                "Ça coûte 5 € — « vraiment »",
                "Déjà vu n°{i} – “naïve”",
                "Le café coûte 2 € ; l’œuvre est là, numéro {i}.",
            ],
            Family::Latin1 => [
                "Él está en España",
                "São Paulo é grande, nº {i}",
                "La mañana en Córdoba: café y música, número {i}.",
            ],
            _ => [
                "Grüße aus Köln — Новости, 日本語 😀",
                "Entrée №{i}: Ελληνικά νέα",
                "Schöne Grüße; новости дня; 今日のニュース {i} 🎉",
            ],
        }
    }

    fn encode(self, text: &str) -> Vec<u8> {
        let body = match self {
            Family::Wide(c, _) => {
                let be = c == Charset::UTF_16BE || c == Charset::UTF_32BE;
                if c == Charset::UTF_16LE || c == Charset::UTF_16BE {
                    text.encode_utf16()
                        .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                        .collect()
                } else {
                    text.chars()
                        .flat_map(|ch| {
                            let u = u32::from(ch);
                            if be { u.to_be_bytes() } else { u.to_le_bytes() }
                        })
                        .collect()
                }
            }
            f => f.charset().encode(text).expect("encodable"),
        };
        [self.bom(), &body].concat()
    }
}

/// How long the document is.
#[derive(Clone, Copy, Debug)]
enum Length {
    /// One entry, no summary: about 150 bytes.
    Tiny,
    /// Three entries with summaries: a few hundred bytes.
    Small,
    /// Thirty entries with summaries: several KB.
    Large,
}

/// Where the label is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Where {
    /// Local bytes, the label in the XML declaration.
    Local,
    /// `application/rss+xml; charset=LABEL`, a declaration without encoding.
    HttpCharset,
    /// `application/rss+xml; charset=LABEL` and the declaration too.
    HttpBoth,
    /// `application/rss+xml` without charset, the label in the declaration.
    HttpNoCharset,
    /// `text/xml` without charset (RFC 3023: us-ascii), the label in the declaration.
    TextXml,
}

const WHERE: [Where; 5] = [
    Where::Local,
    Where::HttpCharset,
    Where::HttpBoth,
    Where::HttpNoCharset,
    Where::TextXml,
];

/// The expected texts: the feed title and each entry's title and summary.
struct Expected {
    title: String,
    entries: Vec<(String, Option<String>)>,
}

fn expected(family: Family, length: Length) -> Expected {
    let [title, entry, summary] = family.texts();
    let (n, with_summary) = match length {
        Length::Tiny => (1, false),
        Length::Small => (3, true),
        Length::Large => (30, true),
    };
    let entries = (1..=n)
        .map(|i| {
            let i = i.to_string();
            let summary = match length {
                Length::Large => format!("{} {}", summary, summary).replace("{i}", &i),
                _ => summary.replace("{i}", &i),
            };
            (entry.replace("{i}", &i), with_summary.then_some(summary))
        })
        .collect();
    Expected {
        title: title.to_owned(),
        entries,
    }
}

/// The RSS document for `expected`, with `label` in the declaration when given.
fn document(expected: &Expected, label: Option<&str>) -> String {
    let mut doc = match label {
        Some(l) => format!("<?xml version=\"1.0\" encoding=\"{l}\"?>\n"),
        None => "<?xml version=\"1.0\"?>\n".to_owned(),
    };
    doc.push_str(&format!(
        "<rss version=\"2.0\"><channel><title>{}</title><link>http://example.com/</link>\n",
        expected.title
    ));
    for (title, summary) in &expected.entries {
        doc.push_str(&format!("<item><title>{title}</title>"));
        if let Some(s) = summary {
            doc.push_str(&format!("<description>{s}</description>"));
        }
        doc.push_str("</item>\n");
    }
    doc.push_str("</channel></rss>\n");
    doc
}

/// One generated case.
struct Case {
    name: String,
    label: Option<&'static str>,
    family: Family,
    bytes: Vec<u8>,
    transport: Transport,
    expected: Expected,
}

/// The cases for one label, family, length and transport: for ASCII-compatible bytes an
/// odd and an even number of them (UTF-16 reads only an even number without error).
fn cases(label: Option<&'static str>, family: Family, length: Length, place: Where) -> Vec<Case> {
    let expected = expected(family, length);
    let in_declaration = match place {
        Where::HttpCharset => None,
        _ => label,
    };
    let transport = match (place, label) {
        (Where::Local, _) => Transport::Local,
        (Where::HttpCharset | Where::HttpBoth, Some(l)) => {
            Transport::content_type(&format!("application/rss+xml; charset={l}"))
        }
        (Where::HttpCharset | Where::HttpBoth, None) | (Where::HttpNoCharset, _) => {
            Transport::content_type("application/rss+xml")
        }
        (Where::TextXml, _) => Transport::content_type("text/xml"),
    };
    let doc = document(&expected, in_declaration);
    let mut docs = vec![doc.clone()];
    if family.narrow() {
        docs.push(format!("{doc}\n"));
    }
    docs.into_iter()
        .map(|doc| {
            let bytes = family.encode(&doc);
            Case {
                name: format!(
                    "{}/{}/{length:?}/{place:?}/{} bytes",
                    label.unwrap_or("(none)"),
                    family.name(),
                    bytes.len()
                ),
                label,
                family,
                transport: transport.clone(),
                bytes,
                expected: Expected {
                    title: expected.title.clone(),
                    entries: expected.entries.clone(),
                },
            }
        })
        .collect()
}

/// Whether `label` read as its own charset (unordered labels in the family's byte
/// order) gives exactly the document's text: a correct label.
fn label_is_right(label: &str, family: Family, bytes: &[u8]) -> bool {
    let Some(c) = Charset::for_label(label) else {
        return false;
    };
    let c = c.with_byte_order_of(family.charset());
    let body = &bytes[family.bom().len()..];
    let truth = family.charset().decode_strict(body).expect("own charset");
    c.decode_strict(body).is_ok_and(|t| t == truth)
}

fn check(case: &Case) {
    let name = &case.name;
    let p: Parsed<'_> = feed_decoder::parse(&case.bytes, &case.transport);
    let d = &p.decoded;
    let trail = || format!("{:?} {:?}", d.trail.tried, p.bozo);
    // The text.
    assert_eq!(p.version, "rss20", "{name}: {}", trail());
    assert_eq!(
        p.feed.title.as_deref(),
        Some(case.expected.title.as_str()),
        "{name}: {}",
        trail()
    );
    assert_eq!(p.entries.len(), case.expected.entries.len(), "{name}");
    for (e, (title, summary)) in p.entries.iter().zip(&case.expected.entries) {
        assert_eq!(e.title.as_deref(), Some(title.as_str()), "{name}");
        assert_eq!(e.summary.as_deref(), summary.as_deref(), "{name}");
    }
    // The reported encoding is the charset actually used, and that charset reads the
    // bytes to the text the parser was given.
    let used = d.charset.unwrap_or_else(|| panic!("{name}: no charset"));
    let reported = Charset::for_label(&d.encoding).map(|c| c.with_byte_order_of(used));
    assert_eq!(reported, Some(used), "{name}: reported {}", d.encoding);
    let body = &case.bytes[case.family.bom().len()..];
    assert_eq!(
        used.decode_strict(body).ok().as_deref(),
        Some(d.text.as_ref()),
        "{name}: {} does not give the decoded text",
        used.name()
    );
    match case.family {
        Family::Wide(c, _) => assert_eq!(used, c, "{name}: {}", trail()),
        Family::Utf8 | Family::Utf8Bom => assert_eq!(used, Charset::UTF_8, "{name}"),
        _ => assert!(used.is_ascii_compatible(), "{name}: {}", used.name()),
    }
    // A change of encoding is recorded.
    let first = &d.trail.tried[0];
    let overridden = p
        .bozo
        .iter()
        .any(|b| b.kind == BozoKind::CharacterEncodingOverride);
    if d.trail
        .chosen
        .as_ref()
        .is_some_and(|(l, _)| *l != first.label)
    {
        assert!(overridden, "{name}: {}", trail());
    }
    // A first candidate of the wrong width fails, whether it decodes or not.
    let width = |c: Charset| c.is_ascii_compatible();
    if let Some(c) = Charset::for_label(&first.label)
        && width(c) != width(case.family.charset())
        && case.family.bom().is_empty()
    {
        assert!(!first.ok, "{name}: {}", trail());
        assert!(overridden, "{name}: {}", trail());
    }
    // A candidate in the document's own encoding is never refused for its text.
    for t in &d.trail.tried {
        let own = Charset::for_label(&t.label)
            .is_some_and(|c| c.with_byte_order_of(case.family.charset()) == case.family.charset());
        let refused = t
            .detail
            .as_deref()
            .is_some_and(|w| w.contains("cannot start a document"));
        assert!(!(own && refused), "{name}: {}", trail());
    }
    // A correct label, locally: nothing to record.
    if let Some(label) = case.label
        && matches!(case.transport, Transport::Local)
        && label_is_right(label, case.family, &case.bytes)
    {
        assert!(p.bozo.is_empty(), "{name}: {}", trail());
        assert_eq!(
            d.trail.chosen.as_ref().map(|c| c.1.as_str()),
            Some("rfc3023")
        );
    }
}

fn run(cases: impl IntoIterator<Item = Case>) -> usize {
    let mut n = 0;
    for case in cases {
        check(&case);
        n += 1;
    }
    n
}

#[test]
fn every_wide_label_spelling_resolves_to_a_wide_charset() {
    for label in WIDE_LABELS {
        let c = Charset::for_label(label).unwrap_or_else(|| panic!("{label} unknown"));
        assert!(c.is_wide(), "{label}: {}", c.name());
    }
    for label in NARROW_LABELS {
        let c = Charset::for_label(label).unwrap_or_else(|| panic!("{label} unknown"));
        assert!(c.is_ascii_compatible(), "{label}");
    }
}

/// Every spelling over every byte family, small, local.
#[test]
fn every_wide_spelling_over_every_byte_family() {
    let n = run(WIDE_LABELS.iter().flat_map(|&label| {
        Family::all()
            .into_iter()
            .flat_map(move |f| cases(Some(label), f, Length::Small, Where::Local))
    }));
    assert_eq!(n, WIDE_LABELS.len() * 17);
}

/// A few wide labels over every family, length and transport.
#[test]
fn wide_labels_in_every_length_and_transport() {
    let n = run(WIDE_MATRIX.iter().flat_map(|&label| {
        Family::all().into_iter().flat_map(move |f| {
            [Length::Tiny, Length::Small, Length::Large]
                .into_iter()
                .flat_map(move |len| {
                    WHERE
                        .into_iter()
                        .flat_map(move |w| cases(Some(label), f, len, w))
                })
        })
    }));
    assert_eq!(n, WIDE_MATRIX.len() * 17 * 3 * 5);
}

/// ASCII-family labels over UTF-16/UTF-32 bytes with and without a BOM, and, as
/// controls, over the ASCII-compatible families they read right.
#[test]
fn narrow_labels_over_wide_bytes_and_right_ones() {
    let mut wrong = 0;
    let mut right = 0;
    for &label in NARROW_LABELS {
        for f in Family::all() {
            for len in [Length::Tiny, Length::Small, Length::Large] {
                for w in WHERE {
                    for case in cases(Some(label), f, len, w) {
                        if f.narrow() || f == Family::Utf8Bom {
                            if !label_is_right(label, f, &case.bytes) {
                                continue;
                            }
                            right += 1;
                        } else {
                            wrong += 1;
                        }
                        check(&case);
                    }
                }
            }
        }
    }
    assert_eq!(wrong, NARROW_LABELS.len() * 8 * 3 * 5);
    assert!(right >= 300, "{right}");
}

/// No label at all: each family on its own (the first bytes decide).
#[test]
fn unlabelled_families() {
    let n = run(Family::all().into_iter().flat_map(|f| {
        [Length::Tiny, Length::Small, Length::Large]
            .into_iter()
            .flat_map(move |len| cases(None, f, len, Where::Local))
    }));
    assert_eq!(n, 17 * 3);
}

/// JSON Feed bodies with each label as the HTTP charset (RFC 8259: the charset has no
/// meaning, the bytes decide; a fallback that cannot start a JSON text is passed over).
#[test]
fn json_feeds_with_every_label() {
    let mut n = 0;
    for family in Family::all() {
        let expected = expected(family, Length::Small);
        let mut json = format!(
            "{{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"{}\", \"items\": [",
            expected.title
        );
        for (i, (title, summary)) in expected.entries.iter().enumerate() {
            if i > 0 {
                json.push_str(", ");
            }
            json.push_str(&format!(
                "{{\"id\": \"{i}\", \"title\": \"{title}\", \"summary\": \"{}\"}}",
                summary.as_deref().unwrap_or_default()
            ));
        }
        json.push_str("]}\n");
        for pad in ["", " "] {
            let bytes = family.encode(&format!("{json}{pad}"));
            let labels = WIDE_LABELS.iter().chain(NARROW_LABELS).map(|&l| Some(l));
            for label in std::iter::once(None).chain(labels) {
                if let Some(l) = label
                    && family.narrow()
                    && Charset::for_label(l).is_some_and(|c| c.is_ascii_compatible())
                    && !label_is_right(l, family, &bytes)
                {
                    continue; // a sibling code page: another matter
                }
                let transport = Transport::content_type(&match label {
                    Some(l) => format!("application/feed+json; charset={l}"),
                    None => "application/feed+json".to_owned(),
                });
                let name = format!(
                    "json/{}/{}/{}",
                    label.unwrap_or("(none)"),
                    family.name(),
                    bytes.len()
                );
                let p = feed_decoder::parse(&bytes, &transport);
                assert_eq!(p.version, "json11", "{name}: {:?}", p.decoded.trail.tried);
                assert_eq!(
                    p.feed.title.as_deref(),
                    Some(expected.title.as_str()),
                    "{name}"
                );
                assert_eq!(p.entries.len(), expected.entries.len(), "{name}");
                for (e, (title, summary)) in p.entries.iter().zip(&expected.entries) {
                    assert_eq!(e.title.as_deref(), Some(title.as_str()), "{name}");
                    assert_eq!(e.summary.as_deref(), summary.as_deref(), "{name}");
                }
                let used = p.decoded.charset.expect("a charset");
                let reported =
                    Charset::for_label(&p.decoded.encoding).map(|c| c.with_byte_order_of(used));
                assert_eq!(reported, Some(used), "{name}");
                n += 1;
            }
        }
    }
    assert!(n > 800, "{n}");
}
