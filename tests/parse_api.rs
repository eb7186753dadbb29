//! The typed API and the serde shape of the model.

use feed_decoder::BozoKind;
use feed_decoder::parse::{ParseOptions, parse_str};
use serde_json::json;

const RSS: &str = r#"<rss version="2.0"><channel>
<title>Typed</title><link>http://example.com/</link>
<item><title>One</title><link>http://example.com/1</link>
<enclosure url="http://example.com/a.mp3" length="10" type="audio/mpeg"/>
<pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate></item>
</channel></rss>"#;

#[test]
fn typed_fields_are_filled() {
    let r = parse_str(RSS, &ParseOptions::default());
    assert_eq!(r.version, "rss20");
    assert_eq!(r.feed.title.as_deref(), Some("Typed"));
    let e = &r.entries[0];
    assert_eq!(e.title.as_deref(), Some("One"));
    assert_eq!(e.link.as_deref(), Some("http://example.com/1"));
    let enc: Vec<_> = e.enclosures().collect();
    assert_eq!(enc.len(), 1);
    assert_eq!(enc[0].href.as_deref(), Some("http://example.com/a.mp3"));
    assert_eq!(enc[0].length.as_deref(), Some("10"));
    assert_eq!(
        e.published.as_deref(),
        Some("Thu, 01 Jan 2004 19:48:21 GMT")
    );
    let title = e.title_detail.as_ref().expect("title_detail");
    assert_eq!(&*title.content_type, "text/plain");
    assert_eq!(title.language, None);
}

#[test]
fn dates_are_typed() {
    let r = parse_str(RSS, &ParseOptions::default());
    let e = &r.entries[0];
    let when = e.published_parsed.flatten().expect("a parsed date");
    assert_eq!(when.to_rfc3339(), "2004-01-01T19:48:21+00:00");
    assert_eq!(e.published_date(), Some(when));
    assert_eq!(e.best_date(), Some(when));
    // The JSON contract still has Python's struct_time.
    let v = serde_json::to_value(e).expect("json");
    assert_eq!(
        v["published_parsed"],
        serde_json::json!([2004, 1, 1, 19, 48, 21, 3, 1, 0])
    );
}

#[test]
fn serde_shape_uses_feedparser_keys() {
    let r = parse_str(RSS, &ParseOptions::default());
    let feed = serde_json::to_value(&r.feed).unwrap();
    assert_eq!(
        feed["title_detail"],
        json!({"type": "text/plain", "language": null, "base": "", "value": "Typed"})
    );
    assert_eq!(
        feed["links"][0],
        json!({"rel": "alternate", "type": "text/html", "href": "http://example.com/"})
    );
    // Absent keys are omitted, aliases are not emitted.
    assert!(feed.get("subtitle").is_none());
    assert!(feed.get("channel").is_none());
    let entry = serde_json::to_value(&r.entries[0]).unwrap();
    assert!(entry.get("guid").is_none());
    assert!(entry.get("description").is_none());
    assert_eq!(entry["links"][1]["rel"], "enclosure");
}

#[test]
fn extra_keys_round_trip() {
    let text = r#"<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><itunes:explicit>clean</itunes:explicit></channel></rss>"#;
    let r = parse_str(text, &ParseOptions::default());
    assert_eq!(r.feed.extra.get("itunes_explicit"), Some(&json!(false)));
}

#[test]
fn entry_limit_is_reported() {
    let items = "<item><title>x</title></item>".repeat(5);
    let text = format!("<rss version='2.0'><channel>{items}</channel></rss>");
    let r = parse_str(&text, &ParseOptions::default().max_entries(2));
    assert_eq!(r.entries.len(), 2);
    assert!(r.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
}

#[test]
fn entity_expansion_is_bounded() {
    let text = "<!DOCTYPE rss [<!ENTITY a \"aaaaaaaaaa\">]><rss version='2.0'><channel><title>&a;&a;&a;&a;</title></channel></rss>";
    let r = parse_str(text, &ParseOptions::default().max_entity_expansion(25));
    assert!(r.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
}

#[test]
fn external_entities_are_never_expanded() {
    let text = "<!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><rss version='2.0'><channel><title>&x;</title></channel></rss>";
    let r = parse_str(text, &ParseOptions::default());
    assert_eq!(r.feed.title.as_deref(), Some("&x;"));
    assert!(r.bozo.iter().any(|b| b.kind == BozoKind::NotWellFormed));
}

#[test]
fn bozo_positions_are_line_and_column() {
    let text = "<rss version='2.0'>\n<channel>\n  <title>a &nbsp; b</title>\n</channel></rss>";
    let r = parse_str(text, &ParseOptions::default());
    let p = r.bozo[0].position.expect("position");
    assert_eq!(p.line, Some(3));
    assert!(p.column.is_some_and(|c| c > 1));
}

#[test]
fn hostile_inputs_stay_linear() {
    let n = 20_000;
    let inputs = [
        format!("<rss><channel>{}", "<a b=\"".repeat(n)),
        format!("<rss><channel><title>{}</title>", "&aaaaaaaa".repeat(n)),
        format!("<rss><channel>{}", "<x>".repeat(n)),
        format!("<rss><channel>{}", "</y>".repeat(n)),
        format!(
            "<rss><channel><item>{}</item>",
            (0..n)
                .map(|i| format!("<category>c{i}</category>"))
                .collect::<String>()
        ),
        format!("<rss><channel><item>{}</item>", "<!--".repeat(n)),
        format!(
            "<rss><channel>{}</channel></rss>",
            "<item><title>t</title></item>".repeat(n)
        ),
    ];
    let start = std::time::Instant::now();
    for text in &inputs {
        let _ = parse_str(text, &ParseOptions::default());
    }
    // Generous: a quadratic path would take minutes here, even unoptimised.
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

/// UTF-8 read as windows-1252 and encoded again, in two fields of one feed given as
/// character references (so the bytes are ASCII and only the values show it): under
/// Recover both fields are repaired alike, never one of them, and the repair feedparser
/// does not make (the windows-1252 marks) is named in a record; FeedparserExact repairs
/// only the Latin-1-only one, silently, as feedparser does.
#[test]
fn double_encoded_fields_are_repaired_alike() {
    let feed = "<rss version='2.0'><channel><item><title>Caf&#195;&#169;</title>\
                <description>It&#226;&#8364;&#8482;s</description></item></channel></rss>";
    let recover = feed_decoder::parse(feed.as_bytes(), &feed_decoder::Transport::Local);
    let e = &recover.entries[0];
    assert_eq!(e.title.as_deref(), Some("Café"));
    assert_eq!(e.summary.as_deref(), Some("It\u{2019}s"));
    let messages: Vec<_> = recover
        .bozo
        .iter()
        .map(|b| (b.kind, b.message.as_str()))
        .collect();
    assert_eq!(
        messages,
        [(
            BozoKind::DoubleEncoded,
            "description in entries: 1 value(s) read as UTF-8 encoded twice and repaired \
             (the first: \"It\u{e2}\u{20ac}\u{2122}s\" became \"It\u{2019}s\")"
        )]
    );
    let exact = feed_decoder::parse_with(
        &feed_decoder::Decoder::new().policy(feed_decoder::Policy::FeedparserExact),
        &feed_decoder::parse::ParseOptions::default(),
        feed.as_bytes(),
        &feed_decoder::Transport::Local,
    );
    let e = &exact.entries[0];
    assert_eq!(e.title.as_deref(), Some("Café"));
    assert_eq!(e.summary.as_deref(), Some("It\u{e2}\u{20ac}\u{2122}s"));
    assert!(exact.bozo.is_empty(), "{:?}", exact.bozo);
}

/// A UTF-8 document written double-encoded throughout, whose no-break spaces and `à`
/// lost their second byte to a plain space on the way (`sats)Â through`, `voilÃ  tout`,
/// as a CMS that normalises spaces leaves them): those remnants are no sign of a
/// producer that writes UTF-8 right, so the values are repaired as feedparser repairs
/// them (`Grupo FÃ³rmula`), and with the windows-1252 marks under Recover (`Youâ€™re`);
/// a value holding a remnant cannot be read back and stays as published, as in
/// feedparser.
#[test]
fn double_encoding_remnants_before_a_space_are_no_clean_text() {
    let doc = "<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel>\
               <title>Podcasts Â news</title>\
               <item><title>RSS.com and Grupo FÃ³rmula</title>\
               <description>Youâ€™re here</description></item>\
               <item><title>voilÃ  tout</title><description>paid in sats)Â through Lightning</description></item>\
               </channel></rss>";
    let r = feed_decoder::parse(doc.as_bytes(), &feed_decoder::Transport::Local);
    assert_eq!(
        r.entries[0].title.as_deref(),
        Some("RSS.com and Grupo Fórmula")
    );
    assert_eq!(r.entries[0].summary.as_deref(), Some("You\u{2019}re here"));
    assert_eq!(r.entries[1].title.as_deref(), Some("voilÃ  tout"));
    assert_eq!(
        r.entries[1].summary.as_deref(),
        Some("paid in sats)Â through Lightning")
    );
    assert_eq!(r.feed.title.as_deref(), Some("Podcasts Â news"));
    let kinds: Vec<_> = r.bozo.iter().map(|b| b.kind).collect();
    assert_eq!(kinds, [BozoKind::DoubleEncoded], "{:?}", r.bozo);
}

/// Some text's UTF-8 read as windows-1252 (`CafÃ©`, `Itâ€™s`, `ÐœÐ¾ÑÐºÐ²Ð°`) in one entry title,
/// for texts in several scripts, in three kinds of document:
///
/// - UTF-8 bytes whose feed title holds correct non-ASCII text: the producer writes
///   UTF-8 right, so the value is as intended and left as published, without a record,
///   by Recover; FeedparserExact repairs it when feedparser does (Latin-1 only), silently.
/// - ASCII bytes, the value as character references (nothing else to go by): repaired;
///   a record names the field when the repair needed a windows-1252 mark.
/// - windows-1252 bytes with that text's UTF-8 bytes in the value (not Unicode bytes, so
///   the clean text beside it is no evidence): repaired as feedparser repairs it.
#[test]
fn double_encoded_values_are_repaired_only_without_clean_text_beside_them() {
    use feed_decoder::{Decoder, Policy, Transport, parse_with};
    let texts = [
        "Café crème",
        "It’s “quoted” — ok",
        "Grüße aus Köln",
        "Москва",
        "Ελλάδα",
        "日本語のニュース",
        "naïve façade",
    ];
    let exact = Decoder::new().policy(Policy::FeedparserExact);
    let options = ParseOptions::default();
    for text in texts {
        let (double, _, _) = encoding_rs::WINDOWS_1252.decode(text.as_bytes());
        let double = double.into_owned();
        assert_ne!(double, text);
        // feedparser's own repair: every character one byte (Latin-1).
        let latin1 = double.chars().all(|c| u32::from(c) <= 0xff);
        let doc = |channel: &str, item: &str| {
            format!(
                "<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel>\
                 <title>{channel}</title><item><title>{item}</title></item></channel></rss>"
            )
        };
        let kinds = |p: &feed_decoder::Parsed<'_>| -> Vec<BozoKind> {
            p.bozo.iter().map(|b| b.kind).collect()
        };

        // Correct UTF-8 beside it: left as published.
        let clean = doc("Zürich et Genève", &double);
        let r = feed_decoder::parse(clean.as_bytes(), &Transport::Local);
        assert_eq!(r.entries[0].title.as_deref(), Some(&*double), "{text}");
        assert!(r.bozo.is_empty(), "{text}: {:?}", r.bozo);
        let r = parse_with(&exact, &options, clean.as_bytes(), &Transport::Local);
        let want = if latin1 { text } else { &*double };
        assert_eq!(
            r.entries[0].title.as_deref(),
            Some(want),
            "{text} (FeedparserExact)"
        );
        assert!(r.bozo.is_empty(), "{text}: {:?}", r.bozo);

        // Only references: repaired, and said when it took a windows-1252 mark.
        let refs: String = double
            .chars()
            .map(|c| format!("&#{};", u32::from(c)))
            .collect();
        let ascii = doc("ASCII only", &refs);
        let r = feed_decoder::parse(ascii.as_bytes(), &Transport::Local);
        assert_eq!(r.entries[0].title.as_deref(), Some(text), "{text}");
        if latin1 {
            assert!(r.bozo.is_empty(), "{text}: {:?}", r.bozo);
        } else {
            assert_eq!(kinds(&r), [BozoKind::DoubleEncoded], "{text}");
            let message = &r.bozo[0].message;
            assert!(
                message.starts_with("title in entries: 1 value(s)"),
                "{message}"
            );
            assert!(message.contains(&format!("became {text:?}")), "{message}");
        }

        // windows-1252 bytes around the text's UTF-8 bytes, read as declared
        // (FeedparserExact): feedparser's repair, as in feedparser. (Not for a text
        // whose UTF-8 holds a byte windows-1252 leaves undefined, such as the 0x9D of
        // `”`: windows-1252 then fails, and another charset reads the document.)
        if text
            .bytes()
            .any(|b| matches!(b, 0x81 | 0x8d | 0x8f | 0x90 | 0x9d))
        {
            continue;
        }
        let legacy = legacy_around(text);
        let r = parse_with(&exact, &options, &legacy, &Transport::Local);
        assert_eq!(r.decoded.encoding, "windows-1252", "{text}");
        assert!(
            r.feed
                .title
                .as_deref()
                .unwrap()
                .starts_with("Zürich, Genève")
        );
        assert_eq!(
            r.entries[0].title.as_deref(),
            Some(want),
            "{text} (windows-1252)"
        );
        assert!(r.bozo.is_empty(), "{text}: {:?}", r.bozo);
    }

    // Under Recover too the evidence counts only in a document decoded from Unicode
    // bytes: in windows-1252 text the clean `Zürich` says nothing of the UTF-8 bytes
    // inside, which are repaired (ß is 0x9F, a windows-1252 mark: said).
    let legacy = legacy_around("Grüße aus Köln");
    let r = feed_decoder::parse(&legacy, &Transport::Local);
    assert_eq!(r.decoded.encoding, "windows-1252");
    assert_eq!(r.entries[0].title.as_deref(), Some("Grüße aus Köln"));
    let kinds: Vec<BozoKind> = r.bozo.iter().map(|b| b.kind).collect();
    assert_eq!(kinds, [BozoKind::DoubleEncoded]);
}

/// A windows-1252 feed whose one entry title is `text`'s UTF-8 bytes.
fn legacy_around(text: &str) -> Vec<u8> {
    let (channel, _, _) = encoding_rs::WINDOWS_1252
        .encode("Zürich, Genève et Bâle : les élèves découvrent la région, ses musées.");
    let mut doc =
        b"<?xml version='1.0' encoding='windows-1252'?><rss version='2.0'><channel><title>"
            .to_vec();
    doc.extend_from_slice(&channel);
    doc.extend_from_slice(b"</title><item><title>");
    doc.extend_from_slice(text.as_bytes());
    doc.extend_from_slice(b"</title></item></channel></rss>");
    doc
}

#[test]
fn parse_owned_gives_what_parse_gives() {
    use feed_decoder::{Decoder, Transport};
    let utf8 = "<rss version='2.0'><channel><title>Café</title><item><title>é</title></item></channel></rss>";
    let mut with_bom = b"\xef\xbb\xbf".to_vec();
    with_bom.extend_from_slice(utf8.as_bytes());
    let legacy = b"<?xml version='1.0' encoding='windows-1251'?><rss><channel><title>\xcd\xee\xe2\xee\xf1\xf2\xe8</title></channel></rss>".to_vec();
    let json =
        br#"{"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": []}"#.to_vec();
    for (bytes, transport) in [
        (utf8.as_bytes().to_vec(), Transport::Local),
        (with_bom, Transport::Local),
        (legacy, Transport::content_type("application/xml")),
        (json, Transport::content_type("application/feed+json")),
        (b"\xff\xfe<\x00".to_vec(), Transport::Local),
        (Vec::new(), Transport::Local),
    ] {
        let want = feed_decoder::parse_with(
            &Decoder::default(),
            &ParseOptions::default(),
            &bytes,
            &transport,
        )
        .into_owned();
        let got = feed_decoder::parse_owned(
            &Decoder::default(),
            &ParseOptions::default(),
            bytes.clone(),
            &transport,
        );
        assert_eq!(got, want, "{bytes:?}");
    }
}

#[test]
fn lists_are_plain_vectors_and_an_empty_list_keeps_its_key() {
    let r = parse_str(RSS, &ParseOptions::default());
    let e = &r.entries[0];
    // Links are a `Vec`: indexed and iterated directly, the enclosure among them.
    assert_eq!(e.links.len(), 2);
    assert_eq!(e.links[1].rel.as_deref(), Some("enclosure"));
    assert!(e.tags.is_empty() && e.authors.is_empty() && e.content.is_empty());
    assert_eq!(e.links(), e.links.as_slice());

    // A link started inside an entry's image that never becomes a link: feedparser
    // reports `links: []`; the typed list is empty and the JSON keeps the key.
    let odd = r#"<rss version="2.0"><channel><item><category>c
        <image><url>http://example.com/i.png</url><link>http://example.com/</link></image>
        </category></item></channel></rss>"#;
    let r = parse_str(odd, &ParseOptions::default());
    let e = &r.entries[0];
    assert!(e.links.is_empty());
    let v = serde_json::to_value(e).expect("serializes");
    assert_eq!(v["links"], json!([]));
    assert_eq!(v["tags"][0]["term"], "c");
    // Without a link element at all, there is no `links` key.
    let plain = parse_str(
        r#"<rss version="2.0"><channel><item><title>t</title></item></channel></rss>"#,
        &ParseOptions::default(),
    );
    let v = serde_json::to_value(&plain.entries[0]).expect("serializes");
    assert!(v.get("links").is_none(), "{v}");
}

/// A text construct and its `_detail` hold one string, not two copies, in RSS and Atom,
/// in the feed and in entries; a detail stored without its plain key (a deeper element
/// lost on precedence) stays a value of its own.
#[test]
fn text_and_detail_share_one_string() {
    use std::sync::Arc;
    let rss = "<rss version='2.0'><channel><title>Feed</title><description>About</description>\
               <item><title>One</title><description>&lt;b&gt;Sum&lt;/b&gt;</description></item>\
               </channel></rss>";
    let atom = "<feed xmlns='http://www.w3.org/2005/Atom'><title>Feed</title>\
                <subtitle>About</subtitle><rights>Mine</rights><entry><title>One</title>\
                <summary type='html'>&lt;b&gt;Sum&lt;/b&gt;</summary></entry></feed>";
    for xml in [rss, atom] {
        let r = parse_str(xml, &ParseOptions::default());
        let f = &r.feed;
        let e = &r.entries[0];
        let pairs = [
            (f.title.as_ref(), f.title_detail.as_ref(), "Feed"),
            (f.subtitle.as_ref(), f.subtitle_detail.as_ref(), "About"),
            (e.title.as_ref(), e.title_detail.as_ref(), "One"),
            (e.summary.as_ref(), e.summary_detail.as_ref(), "<b>Sum</b>"),
        ];
        for (plain, detail, text) in pairs {
            let (plain, detail) = (plain.expect(text), detail.expect(text));
            assert_eq!(&**plain, text, "{xml}");
            assert!(
                Arc::ptr_eq(plain, &detail.value),
                "{text} is copied in {xml}"
            );
        }
    }
    let r = parse_str(atom, &ParseOptions::default());
    let rights = r.feed.rights_detail.as_ref().expect("rights_detail");
    assert!(Arc::ptr_eq(
        r.feed.rights.as_ref().expect("rights"),
        &rights.value
    ));
    // A JSON Feed's text constructs too.
    let jf = br#"{"version":"https://jsonfeed.org/version/1.1","title":"Feed","items":[
        {"id":"1","title":"One","summary":"Sum","content_html":"<p>Body</p>"}]}"#;
    let p = feed_decoder::parse(jf, &feed_decoder::Transport::Local);
    let e = &p.entries[0];
    for (plain, detail) in [
        (p.feed.title.as_ref(), p.feed.title_detail.as_ref()),
        (e.title.as_ref(), e.title_detail.as_ref()),
        (e.summary.as_ref(), e.summary_detail.as_ref()),
    ] {
        let (plain, detail) = (plain.expect("plain"), detail.expect("detail"));
        assert!(
            Arc::ptr_eq(plain, &detail.value),
            "{plain} is copied in the JSON Feed"
        );
    }
    // The JSON contract still writes both.
    let json = serde_json::to_value(&r.entries[0]).expect("json");
    assert_eq!(json["summary"], "<b>Sum</b>");
    assert_eq!(json["summary_detail"]["value"], "<b>Sum</b>");
}

#[test]
fn html5_names_undeclared_in_xml_are_read_with_whatwgs_table() {
    // XML declares none of these: the lenient pass reads them as a browser would,
    // two-code-point names and those beyond U+00FF included.
    let r = parse_str(
        "<rss version=\"2.0\"><channel><title>&Vcy;&acy;&rcy; &Abreve;&lstrok; &fjlig; &lang;&bopf;</title></channel></rss>",
        &ParseOptions::default(),
    );
    // `&lang;` keeps its HTML 4 meaning, which feedparser uses (HTML5 moved it).
    assert_eq!(r.feed.title.as_deref(), Some("Вар Ăł fj \u{2329}\u{1d553}"));
}

/// Attributes written with a prefix bound to a namespace feedparser reads unprefixed
/// (Atom 1.0, Atom 0.3, RSS 1.0) are read as the unprefixed ones, whatever the prefix,
/// whether the element's own name is prefixed, and in both the strict and the lenient
/// pass; an unprefixed attribute of the same name keeps its value (`rel` over
/// `atom:rel`), and the prefixed keys stay in the link's dictionary.
#[test]
fn attributes_prefixed_with_the_feed_namespace_read_unprefixed() {
    use feed_decoder::{Transport, output::to_json, parse};
    let spaces = [
        ("http://www.w3.org/2005/Atom", "", "atom10"),
        ("http://purl.org/atom/ns#", " version=\"0.3\"", "atom03"),
    ];
    // (prefix of the element names, prefix of the attributes)
    let prefixes = [("a", "a"), ("", "atom"), ("x", "y")];
    for (ns, root_attrs, version) in spaces {
        for (ep, ap) in prefixes {
            for broken in [false, true] {
                let el = |n: &str| {
                    if ep.is_empty() {
                        n.to_owned()
                    } else {
                        format!("{ep}:{n}")
                    }
                };
                let decl = if ep.is_empty() {
                    format!("xmlns=\"{ns}\" xmlns:{ap}=\"{ns}\"")
                } else if ep == ap {
                    format!("xmlns:{ep}=\"{ns}\"")
                } else {
                    format!("xmlns:{ep}=\"{ns}\" xmlns:{ap}=\"{ns}\"")
                };
                let doc = format!(
                    "<{r} {decl}{root_attrs}><{t} {ap}:type=\"html\">&lt;b&gt;T&lt;/b&gt;</{t}>\
                     <{l} {ap}:href=\"http://example.com/\" {ap}:rel=\"alternate\" {ap}:type=\"text/html\"/>\
                     <{i}><{id}>1</{id}>\
                     <{l} {ap}:rel=\"enclosure\" {ap}:href=\"http://example.com/a.mp3\" {ap}:length=\"10\" {ap}:type=\"audio/mpeg\"/>\
                     <{l} {ap}:rel=\"self\" rel=\"alternate\" href=\"http://example.com/1\"/>\
                     <{c} {ap}:term=\"t\" {ap}:scheme=\"s\" {ap}:label=\"L\"/></{i}>{tail}",
                    r = el("feed"),
                    t = el("title"),
                    l = el("link"),
                    i = el("entry"),
                    id = el("id"),
                    c = el("category"),
                    // An unclosed root sends the document to the lenient pass.
                    tail = if broken {
                        String::new()
                    } else {
                        format!("</{}>", el("feed"))
                    },
                );
                let v = to_json(&parse(doc.as_bytes(), &Transport::Local));
                let case = format!("{version} {ep:?} {ap:?} broken={broken}");
                assert_eq!(v["version"], version, "{case}");
                assert_eq!(v["bozo"], broken, "{case}");
                assert_eq!(v["feed"]["title"], "<b>T</b>", "{case}");
                assert_eq!(v["feed"]["title_detail"]["type"], "text/html", "{case}");
                assert_eq!(v["feed"]["link"], "http://example.com/", "{case}");
                let link = &v["feed"]["links"][0];
                assert_eq!(link["type"], "text/html", "{case}");
                assert_eq!(link[format!("{ap}:href")], "http://example.com/", "{case}");
                let e = &v["entries"][0];
                let enclosure = &e["links"][0];
                assert_eq!(enclosure["rel"], "enclosure", "{case}");
                assert_eq!(enclosure["href"], "http://example.com/a.mp3", "{case}");
                assert_eq!(enclosure["length"], "10", "{case}");
                assert_eq!(enclosure["type"], "audio/mpeg", "{case}");
                assert_eq!(e["links"][1]["rel"], "alternate", "{case}");
                assert_eq!(e["links"][1][format!("{ap}:rel")], "self", "{case}");
                assert_eq!(e["link"], "http://example.com/1", "{case}");
                assert_eq!(
                    e["tags"],
                    json!([{"term": "t", "scheme": "s", "label": "L"}]),
                    "{case}"
                );
            }
        }
    }
}

/// Custom allow-lists reach every HTML value of a parse, through every entry point, and
/// the guess whether plain RSS text is HTML; feedparser 6.0.14 with
/// `_HTMLSanitizer.acceptable_elements` changed alike gives the same values.
#[test]
fn a_sanitize_policy_reaches_every_html_value() {
    use feed_decoder::html::{AllowList, SanitizePolicy};
    use feed_decoder::{Decoder, FeedReader, Headers, StreamItem, Transport, parse_with};
    use std::sync::Arc;

    let rss = br#"<rss version="2.0"><channel><title>T</title><item><title>Clip &lt;iframe src="/v/1"&gt;&lt;/iframe&gt;</title>
<description>&lt;p&gt;&lt;b&gt;Watch&lt;/b&gt; &lt;iframe src="/v/1" onload="x()"&gt;&lt;/iframe&gt;&lt;/p&gt;</description></item></channel></rss>"#;
    let transport =
        Transport::Http(Headers::new().with("Content-Location", "http://example.com/feed/"));
    let entry = |options: &ParseOptions| {
        let r = parse_with(&Decoder::default(), options, rss, &transport);
        let e = r.entries[0].clone();
        let ty = e.title_detail.as_ref().map(|t| t.content_type.to_string());
        let text = |v: Option<std::sync::Arc<str>>| v.map(|v| v.to_string());
        (text(e.title), ty, text(e.summary))
    };
    let clip = r#"Clip <iframe src="http://example.com/v/1"></iframe>"#;
    let some = |s: &str| Some(s.to_owned());

    let default = ParseOptions::default();
    assert_eq!(
        entry(&default),
        (
            some(r#"Clip <iframe src="/v/1"></iframe>"#),
            some("text/plain"),
            some("<p><b>Watch</b> </p>")
        )
    );
    let iframe = SanitizePolicy::new().allow(AllowList::Elements, ["iframe"]);
    let with_iframe = default
        .clone()
        .sanitize_policy(Some(Arc::new(iframe.clone())));
    assert_eq!(
        entry(&with_iframe),
        (
            some(clip),
            some("text/html"),
            some(r#"<p><b>Watch</b> <iframe src="http://example.com/v/1"></iframe></p>"#)
        )
    );
    let no_b = default.clone().sanitize_policy(Some(Arc::new(
        iframe.clone().deny(AllowList::Elements, ["b"]),
    )));
    assert_eq!(
        entry(&no_b).2,
        some(r#"<p>Watch <iframe src="http://example.com/v/1"></iframe></p>"#)
    );

    // The streaming reader.
    let mut reader = FeedReader::new(&rss[..], &transport, with_iframe.clone()).expect("reader");
    let streamed = reader.find_map(|item| match item {
        StreamItem::Entry(e) => Some(e.summary),
        _ => None,
    });
    assert_eq!(
        streamed.flatten().as_deref(),
        Some(r#"<p><b>Watch</b> <iframe src="http://example.com/v/1"></iframe></p>"#)
    );

    // JSON Feed.
    let json = br#"{"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": [{"id": "1", "content_html": "<b>x</b><iframe src='https://example.com/v'></iframe>"}]}"#;
    let content = |options: &ParseOptions| {
        let r = parse_with(&Decoder::default(), options, json, &Transport::Local);
        r.entries[0].content[0].value.to_string()
    };
    assert_eq!(content(&default), "<b>x</b>");
    assert_eq!(
        content(&no_b),
        r#"x<iframe src="https://example.com/v"></iframe>"#
    );
}

/// The fields few entries have are boxed apart: an entry with none of them has no box,
/// and one that has some reads them through `more()`, written at their place in JSON.
#[test]
fn rare_fields_live_in_their_box() {
    let r = parse_str(RSS, &ParseOptions::default());
    assert!(r.entries[0].more.is_none(), "{:?}", r.entries[0].more);
    assert_eq!(r.entries[0].more().publisher, None);

    let rare = r#"<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:dcterms="http://purl.org/dc/terms/"><channel><title>t</title>
        <item><title>a</title><dc:publisher>Press</dc:publisher>
        <dc:rights>All rights</dc:rights>
        <dcterms:created>2004-01-02T03:04:05Z</dcterms:created></item>
        <item><title>b</title></item></channel></rss>"#;
    let r = parse_str(rare, &ParseOptions::default());
    let more = r.entries[0]
        .more
        .as_deref()
        .expect("a box for the rare fields");
    assert_eq!(more.publisher.as_deref(), Some("Press"));
    assert_eq!(more.rights.as_deref(), Some("All rights"));
    assert_eq!(
        more.created_parsed
            .flatten()
            .map(|d| d.to_rfc3339())
            .as_deref(),
        Some("2004-01-02T03:04:05+00:00")
    );
    assert_eq!(r.entries[0].created_date(), more.created_parsed.flatten());
    assert!(r.entries[1].more.is_none());
    let json = serde_json::to_value(&r.entries[0]).expect("json");
    assert_eq!(json["publisher"], json!("Press"));
    assert_eq!(json["publisher_detail"]["name"], json!("Press"));
    assert_eq!(json["rights_detail"]["value"], json!("All rights"));
    // And back: the dictionary shape fills the box again.
    let back = feed_decoder::model::Entry::from_dict(json.as_object().cloned().expect("map"));
    assert_eq!(back.more().publisher.as_deref(), Some("Press"));
    assert_eq!(back.more().created_parsed, more.created_parsed);
}

/// A link's attributes without a field (`hreflang`, `thr:count` …) are kept in its
/// `extra`, sorted, and come back from the dictionary shape.
#[test]
fn link_extra_round_trips() {
    let text = r#"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry>
        <link rel="alternate" href="http://e/1" zeta="z" hreflang="de" alpha="a"/>
        </entry></feed>"#;
    let r = parse_str(text, &ParseOptions::default());
    let link = &r.entries[0].links[0];
    let keys: Vec<&str> = link.extra.keys().map(String::as_str).collect();
    assert_eq!(keys, ["alpha", "hreflang", "zeta"]);
    assert_eq!(link.extra["hreflang"], json!("de"));
    let json = serde_json::to_value(&r.entries[0]).expect("json");
    assert_eq!(json["links"][0]["zeta"], json!("z"));
    let back = feed_decoder::model::Entry::from_dict(json.as_object().cloned().expect("map"));
    assert_eq!(back.links[0], *link);
    let parsed: feed_decoder::model::Link =
        serde_json::from_value(json["links"][0].clone()).expect("a link");
    assert_eq!(parsed, *link);
}

/// A document feedparser reads with its lenient parser (not well-formed from its first
/// line: a line before the XML declaration) and the same document well-formed. The
/// expected values are feedparser 6.0.14's for both.
#[test]
fn text_values_read_leniently_decode_quotes_as_feedparsers_lenient_parser() {
    let body = "<rss version='2.0' xmlns:content='http://purl.org/rss/1.0/modules/content/'>\
        <channel><title>Say &amp;quot;hi&amp;quot; &amp;apos;there&amp;apos; a&amp;#x2f;b \
        &amp;amp;quot;</title>\
        <item><title>T &amp;quot;q&amp;quot;</title>\
        <guid isPermaLink='false'>g&amp;quot;1</guid>\
        <category>c &amp;quot;x&amp;quot;</category>\
        <description>&lt;b title=&quot;t&quot;&gt;&amp;quot;bold&amp;quot;&lt;/b&gt; \
        &amp;lt;tag&amp;gt; &amp;#34;n&amp;#34; &amp;apos;a&amp;apos;</description>\
        <content:encoded><![CDATA[<p>&quot;c&quot; &apos;d&apos; &#x2F;e &amp; f</p>]]>\
        </content:encoded><enclosure url='http://e/a?x=1&amp;quot;' type='audio/mpeg'/>\
        </item></channel></rss>";
    let declaration = "<?xml version='1.0' encoding='utf-8'?>\n";
    let lenient = parse_str(&format!("\n{declaration}{body}"), &ParseOptions::default());
    let strict = parse_str(&format!("{declaration}{body}"), &ParseOptions::default());
    assert_eq!(lenient.bozo.len(), 1, "{:?}", lenient.bozo);
    assert!(strict.bozo.is_empty(), "{:?}", strict.bozo);
    let values = |p: &feed_decoder::ParsedFeed| {
        let e = &p.entries[0];
        [
            p.feed.title.as_deref().unwrap_or_default().to_owned(),
            e.title.as_deref().unwrap_or_default().to_owned(),
            e.summary.as_deref().unwrap_or_default().to_owned(),
            e.content[0].value.to_string(),
            e.id.as_deref().unwrap_or_default().to_owned(),
            e.tags[0].term.as_deref().unwrap_or_default().to_owned(),
            e.links[0].href.as_deref().unwrap_or_default().to_owned(),
        ]
    };
    // Text-valued constructs (plain text and HTML): `&quot;`, `&apos;` and `&#x2f;` of
    // the value decoded once more, before the sanitizer reads it; every other reference
    // as the document says (`&amp;quot;` in the value stays).
    assert_eq!(
        values(&lenient)[..4],
        [
            "Say \"hi\" 'there' a/b &amp;quot;",
            "T \"q\"",
            "<b title=\"t\">\"bold\"</b> &lt;tag&gt; \"n\" 'a'",
            "<p>\"c\" 'd' /e &amp; f</p>",
        ]
    );
    assert_eq!(
        values(&strict)[..4],
        [
            "Say &quot;hi&quot; &apos;there&apos; a&#x2f;b &amp;quot;",
            "T &quot;q&quot;",
            "<b title=\"t\">&quot;bold&quot;</b> &lt;tag&gt; \"n\" &apos;a&apos;",
            "<p>&quot;c&quot; &apos;d&apos; &#x2f;e &amp; f</p>",
        ]
    );
    // Other values (identifiers, terms, attributes) read the same either way (feedparser's
    // lenient parser keeps their XML references, `g&amp;quot;1`: not followed).
    assert_eq!(values(&lenient)[4..], values(&strict)[4..]);
    assert_eq!(
        values(&strict)[4..],
        ["g&quot;1", "c &quot;x&quot;", "http://e/a?x=1&quot;"]
    );
}
