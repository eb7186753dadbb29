//! The strict pass against expat, the XML parser feedparser uses: what it rejects, and
//! the name and place it gives each problem.

use super::*;

#[test]
fn strict_pass_rejects_what_expat_rejects() {
    for bad in [
        "<rss><1a/></rss>",
        "<rss>]]></rss>",
        "<rss a='\u{1}'/>",
        "<rss>\u{c}</rss>",
        "<rss/><x/>",
        "text<rss/>",
        "<rss>",
    ] {
        let r = parse_str(bad, &ParseOptions::default());
        assert!(
            r.bozo
                .iter()
                .any(|b| b.kind == BozoKind::NotWellFormed && b.position.is_some()),
            "{bad:?} passed the strict pass"
        );
    }
}

#[test]
fn character_references_are_read_strictly_as_xml_writes_them() {
    use super::text::strict_char_ref;
    for (body, c) in [
        ("#65", 'A'),
        ("#x41", 'A'),
        ("#x1F600", '😀'),
        ("#0009", '\t'),
    ] {
        assert_eq!(strict_char_ref(body), Ok(c), "{body}");
    }
    // Not well-formed, at the first wrong character (bytes past the `&`, as expat).
    for (body, at) in [
        ("#X41", 2),
        ("#x", 3),
        ("#", 2),
        ("#+65", 2),
        ("#x+41", 3),
        ("#-1", 2),
        ("#6 5", 3),
        ("#x4G", 4),
        ("65", 1),
        ("amp", 1),
    ] {
        assert_eq!(
            strict_char_ref(body),
            Err(("not well-formed (invalid token)", at)),
            "{body}"
        );
    }
    for body in ["#0", "#1", "#xFFFE", "#xD800", "#1114112", "#99999999999"] {
        assert_eq!(
            strict_char_ref(body),
            Err(("reference to invalid character number", 0)),
            "{body}"
        );
    }
    // The lenient pass still reads `&#X41;` as feedparser's own parser does.
    let r = parse_str(
        "<rss><channel><title>&#X41;</title></channel></rss>",
        &ParseOptions::default(),
    );
    assert_eq!(r.feed.title.as_deref(), Some("A"));
    assert!(r.bozo.iter().any(|b| b.kind == BozoKind::NotWellFormed));
}

#[test]
fn duplicate_attributes_stop_the_strict_pass_in_expats_name_and_quick_xmls_words() {
    for (count, dup_of, at) in [
        (2, 0, 1),
        (16, 3, 15),
        (17, 0, 16),
        (40, 5, 30),
        (40, 20, 39),
    ] {
        let mut tag = String::from("<rss");
        for i in 0..count {
            let name = if i == at { dup_of } else { i };
            tag.push_str(&format!(" a{name}=\"{i}\""));
        }
        tag.push('>');
        // quick-xml's own check, on the same tag.
        let mut reader = Reader::from_str(&tag);
        let Ok(Event::Start(e)) = reader.read_event() else {
            panic!("{tag}")
        };
        let err = e
            .attributes()
            .find_map(Result::err)
            .expect("quick-xml finds the duplicate");
        let text = format!("{tag}</rss>");
        let (m, _) = strict_stop(&text).unwrap_or_else(|| panic!("{text} passed"));
        assert_eq!(m, format!("duplicate attribute: {err}"), "{text}");
        // Without the duplicate, the same tag passes.
        let unique = text.replacen(&format!(" a{dup_of}=\"{at}\""), " zz=\"\"", 1);
        assert_eq!(strict_stop(&unique), None, "{unique}");
    }
}

#[test]
fn the_strict_pass_names_its_stops_as_expat_does_and_where_it_does() {
    // (document, expat's name of the problem, the offset Python's `xml.sax` reports,
    // where this crate reports the same one).
    for (text, name, at) in [
        // An end tag closing the wrong element: at its name, past `</`, inside the
        // root (read by this crate) and at the root (read by quick-xml).
        (
            "<rss><channel><title>t</channel></rss>",
            "mismatched tag",
            Some(24),
        ),
        ("<rss><channel>\n  </rss>", "mismatched tag", Some(19)),
        ("<rss></feed>", "mismatched tag", Some(7)),
        // A stray end tag after the root: past its `<`.
        (
            "<rss></rss></b>",
            "not well-formed (invalid token)",
            Some(12),
        ),
        ("<rss><channel><title>x", "no element found", Some(22)),
        ("<rss><a>&foo;</a></rss>", "undefined entity", Some(8)),
        // A reference `;` does not close: at the first character that cannot go on
        // with it; at the `&` when the text ends first.
        (
            "<rss><a>?a=1&b=2&c</a></rss>",
            "not well-formed (invalid token)",
            Some(14),
        ),
        (
            "<rss><a>&#12 </a></rss>",
            "not well-formed (invalid token)",
            Some(12),
        ),
        ("<rss><a>&ab", "unclosed token", Some(8)),
        // A character reference XML does not write so (at its first wrong character),
        // and one to no XML character (at its `&`).
        (
            "<rss><a>&#X41;</a></rss>",
            "not well-formed (invalid token)",
            Some(10),
        ),
        (
            "<rss><a>&#x+41;</a></rss>",
            "not well-formed (invalid token)",
            Some(11),
        ),
        (
            "<rss a='&#x+41;'/>",
            "not well-formed (invalid token)",
            None,
        ),
        (
            "<rss><a>&#1114112;</a></rss>",
            "reference to invalid character number",
            Some(8),
        ),
        (
            "<rss><a>&#0;</a></rss>",
            "reference to invalid character number",
            Some(8),
        ),
        // expat reports the end of the input; this crate where the section starts.
        ("<rss><![CDATA[x", "unclosed CDATA section", None),
        ("<rss><!-- x", "unclosed token", Some(5)),
        ("<rss></rss>junk", "junk after document element", Some(11)),
        // Names are case-sensitive: a lower-case doctype (an HTML page's) is no
        // declaration.
        ("<!doctype html><html/>", "syntax error", Some(0)),
        ("\n<!Doctype rss><rss/>", "syntax error", Some(1)),
        ("<rss><x:y/></rss>", "unbound prefix", None),
    ] {
        let (m, offset) = strict_stop(text).unwrap_or_else(|| panic!("{text} passed"));
        assert!(m.starts_with(name), "{text}: {m}");
        if let Some(at) = at {
            assert_eq!(offset, at, "{text}: {m}");
        }
    }
    assert_eq!(strict_stop("<!DOCTYPE rss><rss/>"), None);
    // quick-xml's words follow the name, without its own heading.
    let (m, _) = strict_stop("<rss><channel><title>t</channel></rss>").unwrap();
    assert_eq!(
        m,
        "mismatched tag: expected `</title>`, but `</channel>` was found"
    );
}

#[test]
fn a_lower_case_doctype_is_bozo_and_the_feed_is_read_all_the_same() {
    let r = parse_str(
        "<?xml version=\"1.0\"?>\n<!doctype rss><rss version=\"2.0\"><channel><title>T</title>\
         <item><title>a</title></item></channel></rss>",
        &ParseOptions::default(),
    );
    assert!(!r.bozo.is_empty(), "not well-formed");
    assert!(
        r.bozo[0].message.starts_with("syntax error"),
        "{}",
        r.bozo[0].message
    );
    assert_eq!(r.feed.title.as_deref(), Some("T"));
    assert_eq!(r.entries.len(), 1);
}
