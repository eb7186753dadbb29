//! The XML parser's tests: both passes, the strict pass's own reading of events, the
//! hand-over from the strict to the lenient pass, limits and scopes.

use super::attrs::*;
use super::chars::*;
use super::doctype::*;
use super::driver::*;
use super::names::*;
use super::scopes::*;
use super::strict::*;
use super::*;
use crate::bozo::BozoKind;
use crate::parse::{ParseOptions, parse_str};
use quick_xml::Reader;
use quick_xml::events::Event;
use std::collections::HashMap;
use std::sync::Arc;

#[test]
fn both_passes_agree_on_a_well_formed_feed() {
    let rss = "<rss version='2.0'><channel><title>T</title><link>http://e/</link>\
               <item><title>a</title><pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate>\
               <enclosure url='http://e/a.mp3' length='10' type='audio/mpeg'/></item>\
               </channel></rss>";
    let strict = parse_str(rss, &ParseOptions::default());
    let lenient = parse_str_lenient(rss, &ParseOptions::default());
    assert!(strict.bozo.is_empty());
    assert_eq!(strict.feed, lenient.feed);
    assert_eq!(strict.entries, lenient.entries);
}

thread_local! {
    /// Reads text and references event by event ([`Driver::text_run`] declines).
    pub(super) static EVENT_BY_EVENT: std::cell::Cell<bool> =
        const { std::cell::Cell::new(false) };
    /// The bytes [`Driver::text_run`] looked through for a run's end.
    pub(super) static RUN_BYTES_SEEN: std::cell::Cell<usize> =
        const { std::cell::Cell::new(0) };
}

#[test]
fn short_lists_grow_one_item_at_a_time() {
    // One link, two links, three tags, one tag (tags start with room for two), six tags
    // (past four, a list grows as a `Vec` does: by doubling).
    let six: String = (0..6)
        .map(|i| format!("<category>t{i}</category>"))
        .collect();
    let rss = format!(
        "<rss version='2.0'><channel><title>T</title>\
         <item><link>http://e/1</link><category>a</category><category>b</category>\
         <category>c</category><author>a@e (A)</author></item>\
         <item><link>http://e/2</link><enclosure url='http://e/a.mp3' length='1' \
         type='audio/mpeg'/><category>a</category></item><item>{six}</item></channel></rss>"
    );
    for parsed in [
        parse_str(&rss, &ParseOptions::default()),
        parse_str_lenient(&rss, &ParseOptions::default()),
    ] {
        let counts = |room: bool| -> Vec<[usize; 3]> {
            let n = |len: usize, cap: usize| if room { cap } else { len };
            let e = &parsed.entries;
            e.iter()
                .map(|e| {
                    [
                        n(e.links.len(), e.links.capacity()),
                        n(e.tags.len(), e.tags.capacity()),
                        n(e.authors.len(), e.authors.capacity()),
                    ]
                })
                .collect()
        };
        assert_eq!(counts(false), [[1, 3, 1], [2, 1, 0], [0, 6, 0]]);
        assert_eq!(counts(true), [[1, 3, 1], [2, 2, 0], [0, 8, 0]]);
    }
}

#[test]
fn a_declined_run_is_not_looked_through_again_at_each_reference() {
    // Runs declined for their length, for a `]` at their end, for a custom entity at
    // their end: each reference of a declined run would look through the rest of it
    // again, quadratic in its length.
    let refs = "&lt;b&gt;".repeat(3 * MAX_RUN / 9);
    let dtd = "<!DOCTYPE rss [<!ENTITY c \"C\">]>";
    for tail in ["", "]", "&c;"] {
        let text = format!(
            "{dtd}<rss><channel><title>{refs}{tail}</title><description>&lt;i&gt;\
             </description></channel></rss>"
        );
        RUN_BYTES_SEEN.set(0);
        let r = parse_str(&text, &ParseOptions::default());
        let title = r.feed.title.as_deref().unwrap_or_default();
        assert!(title.starts_with("<b><b>"), "{}", &title[..20]);
        assert!(title.ends_with(if tail == "&c;" { "C" } else { ">" }) || tail == "]");
        let seen = RUN_BYTES_SEEN.get();
        assert!(
            seen <= 2 * text.len(),
            "{seen} bytes looked through for {}",
            text.len()
        );
    }
}

#[test]
fn runs_of_references_read_as_event_by_event() {
    // Pieces of text: references well-formed and not, predefined, character and
    // custom, `]`, line ends, non-ASCII, nothing.
    const PIECES: &[&str] = &[
        "a",
        " ",
        "\n",
        "é",
        "&lt;",
        "&gt;",
        "&amp;",
        "&quot;",
        "&apos;",
        "&#38;",
        "&#x3C;",
        "&#X41;",
        "&#0;",
        "&#xD800;",
        "&#1;",
        "&#;",
        "&custom;",
        "&nope;",
        "&;",
        "&lt",
        "&",
        "]",
        "]]>",
        "&amp;&amp;",
        "&#128512;",
    ];
    let mut next = crate::bytes::tests::below(0x1234_5678_9abc_def1);
    let doctype = "<!DOCTYPE rss [<!ENTITY custom \"C&amp;D\">]>";
    for _ in 0..3_000 {
        let mut run = || -> String { (0..next(8)).map(|_| PIECES[next(PIECES.len())]).collect() };
        let (a, b, c) = (run(), run(), run());
        // Between elements: whitespace (skipped where text goes nowhere), or text.
        const GAPS: &[&str] = &["", " ", "\n", "\n\t  ", "\r\n", "x", " &amp; "];
        let mut gap = || GAPS[next(GAPS.len())];
        // `~` marks a gap.
        let marked = format!(
            "{doctype}<rss version='2.0' xmlns:podcast='https://podcastindex.org/namespace/1.0'>\
             ~<channel>~<title>{a}</title>~<description>{b}</description>~<item>~\
             <title>x{c}</title>~<description>{c}<b>{a}</b></description>~<author>~\
             <name>n</name>~</author>~<podcast:person>p<podcast:img/>~<podcast:img/>~q\
             </podcast:person>~</item>~<item>~</item>~</channel>~</rss>"
        );
        let rss: String = marked
            .split('~')
            .enumerate()
            .map(|(i, part)| {
                if i == 0 {
                    part.to_owned()
                } else {
                    format!("{}{part}", gap())
                }
            })
            .collect();
        // Inline XHTML keeps each piece: never read as a run.
        let atom = format!(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
             <title type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'>{a}<b>{b}</b>\
             </div></title><summary type='html'>{c}</summary>\
             <content type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'>{b}</div>\
             </content></entry></feed>"
        );
        for text in [rss, atom] {
            let read = |by_event: bool| {
                EVENT_BY_EVENT.set(by_event);
                let r = parse_str(&text, &ParseOptions::default());
                EVENT_BY_EVENT.set(false);
                (
                    serde_json::to_value(&r.feed).expect("json"),
                    serde_json::to_value(&r.entries).expect("json"),
                    r.bozo
                        .iter()
                        .map(|b| (b.message.clone(), format!("{:?}", b.position)))
                        .collect::<Vec<_>>(),
                )
            };
            assert_eq!(read(false), read(true), "{text}");
        }
    }
}

#[test]
fn names_of_one_feed_serve_the_next_only_under_the_same_bindings() {
    // Prefix `x` bound to Dublin Core: `x:creator` is the author.
    let dc = "<rss xmlns:x='http://purl.org/dc/elements/1.1/'><channel><item>\
              <x:creator>A</x:creator></item></channel></rss>";
    // The same prefix bound elsewhere: an element of its own.
    let other = "<rss xmlns:x='http://example.com/x'><channel><item>\
                 <x:creator>B</x:creator></item></channel></rss>";
    // Extra binding: not the same scope either.
    let more = "<rss xmlns:x='http://purl.org/dc/elements/1.1/' \
                xmlns:y='http://example.com/y'><channel><item><x:creator>C</x:creator>\
                <y:a>D</y:a></item></channel></rss>";
    // No declaration at the root: an undeclared prefix (lenient pass), and the
    // prefix declared on the item only.
    let none = "<rss><channel><item><x:creator>E</x:creator><title>t</title></item>\
                </channel></rss>";
    let nested = "<rss><channel><item xmlns:x='http://purl.org/dc/elements/1.1/'>\
                  <x:creator>F</x:creator><title>u</title></item></channel></rss>";
    let feeds = [dc, other, more, none, nested];
    let entry = |text: &str| {
        let r = parse_str(text, &ParseOptions::default());
        let mut v = serde_json::to_value(&r.entries[0]).expect("json");
        v["bozo"] = r.bozo.len().into();
        v
    };
    // Each feed parsed alone, on a thread of its own (no stash).
    let alone: Vec<serde_json::Value> = feeds
        .iter()
        .map(|t| {
            let t = (*t).to_owned();
            std::thread::spawn(move || entry(&t))
                .join()
                .expect("thread")
        })
        .collect();
    assert_eq!(alone[0]["author"], "A");
    assert_eq!(alone[1]["x_creator"], "B");
    assert!(alone[1].get("author").is_none());
    assert_eq!(alone[2]["y_a"], "D");
    assert_eq!(alone[3]["bozo"], 1);
    assert!(alone[3].get("author").is_none());
    assert_eq!(alone[4]["author"], "F");
    assert_eq!(alone[4]["bozo"], 0);
    // One after the other on this thread, in every order: the same results.
    for order in [
        [0, 1, 2, 3, 4],
        [1, 0, 2, 4, 3],
        [3, 4, 2, 0, 1],
        [4, 3, 0, 2, 1],
        [0, 3, 4, 1, 2],
    ] {
        for _ in 0..2 {
            for &i in &order {
                assert_eq!(entry(feeds[i]), alone[i], "feed {i}");
            }
        }
    }
    // A root without declarations keeps its names for the next such feed.
    entry(none);
    assert!(NAME_STASH.with(|s| {
        s.borrow()
            .first()
            .is_some_and(|(b, n)| b.is_empty() && !n.is_empty())
    }));
    // A feed with the same bindings as a recent one starts with its names; the
    // stash stays bounded.
    entry(dc);
    let first = NAME_STASH.with(|s| s.borrow().first().map(|(_, n)| n.len()));
    assert!(first.is_some_and(|n| n > 0));
    for i in 0..10 {
        let t = format!("<rss xmlns:z{i}='http://example.com/{i}'><channel/></rss>");
        entry_or_none(&t);
    }
    NAME_STASH.with(|s| assert_eq!(s.borrow().len(), STASHED_SCOPES));
    // A root with more declarations than that is not kept.
    let many: String = (0..=MAX_STASHED_BINDINGS)
        .map(|i| format!(" xmlns:p{i}='http://example.com/many/{i}'"))
        .collect();
    entry(&format!(
        "<rss{many}><channel><item><title>t</title></item></channel></rss>"
    ));
    NAME_STASH.with(|s| {
        assert!(
            s.borrow()
                .iter()
                .all(|(b, _)| b.len() <= MAX_STASHED_BINDINGS)
        );
    });
}

fn entry_or_none(text: &str) {
    let r = parse_str(text, &ParseOptions::default());
    assert!(r.entries.is_empty());
}

#[test]
fn xml_names_are_checked_as_by_characters() {
    // The definition the byte table shortcuts: by characters, any non-ASCII one
    // allowed.
    let by_chars = |s: &str| {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':' || !c.is_ascii())
            && chars
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | ':') || !c.is_ascii())
    };
    let mut next = crate::bytes::tests::below(0x5851_f42d_4c95_7f2d);
    const PIECES: &[&str] = &[
        "a", "Z", "_", ":", "-", ".", "0", "9", "é", "中", " ", "=", "&", "\u{7f}", "\u{a0}", "/",
    ];
    for _ in 0..20_000 {
        let len = next(6);
        let s: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
        assert_eq!(is_xml_name(&s), by_chars(&s), "{s:?}");
    }
}

#[test]
fn safe_entities_are_read() {
    let dt = scan_doctype(
        "<!DOCTYPE rss [\n<!ENTITY foo \"bar\">\n<!ENTITY c \"&#169;\">\n<!ENTITY x \"&a;&b;\">]>\n<rss/>",
    );
    assert_eq!(dt.entities.get("foo").map(String::as_str), Some("bar"));
    assert_eq!(dt.entities.get("c").map(String::as_str), Some("&#169;"));
    assert!(!dt.entities.contains_key("x"));
}

#[test]
fn netscape_doctype_is_rss091n() {
    let dt = scan_doctype(
        "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"x\"><rss/>",
    );
    assert_eq!(dt.version, Some("rss091n"));
}

#[test]
fn strict_then_lenient() {
    let ok = parse_str(
        "<rss version='2.0'><channel><title>t</title></channel></rss>",
        &ParseOptions::default(),
    );
    assert!(ok.bozo.is_empty());
    assert_eq!(ok.version, "rss20");
    assert_eq!(ok.feed.title.as_deref(), Some("t"));
    let bad = parse_str(
        "<rss version='2.0'><channel><title>a&nbsp;b</title></channel></rss>",
        &ParseOptions::default(),
    );
    assert_eq!(bad.bozo.len(), 1);
    assert_eq!(bad.bozo[0].kind, BozoKind::NotWellFormed);
    assert_eq!(bad.feed.title.as_deref(), Some("a\u{a0}b"));
}

#[test]
fn line_ends_in_text_and_cdata_read_as_newlines() {
    let rss = "<rss version='2.0'><channel><title>a\r\nb\rc\nd</title>\
               <description><![CDATA[x\r\ny\rz]]></description></channel></rss>";
    let r = parse_str(rss, &ParseOptions::default().sanitize_html(false));
    assert!(r.bozo.is_empty());
    assert_eq!(r.feed.title.as_deref(), Some("a\nb\nc\nd"));
    assert_eq!(r.feed.subtitle.as_deref(), Some("x\ny\nz"));
}

#[test]
fn inline_xhtml_writes_void_elements_as_the_sanitizer_does() {
    let atom = "<feed xmlns='http://www.w3.org/2005/Atom'><entry><content type='xhtml'>\
                <div xmlns='http://www.w3.org/1999/xhtml'><p>a<br/>b<command/>c<hr></hr>\
                </p></div></content></entry></feed>";
    let options = ParseOptions::default().sanitize_html(false);
    let r = parse_str(atom, &options);
    assert_eq!(
        &*r.entries[0].content[0].value,
        "<p>a<br />b<command />c<hr /></p>"
    );
}

#[test]
fn non_xml_chars_are_found_by_bytes() {
    for s in [
        "",
        "plain",
        "tab\tnl\ncr\r",
        "日本語 ＡＢ \u{fffd}",
        &"x".repeat(100),
    ] {
        assert_eq!(first_non_xml_char(s), None, "{s:?}");
    }
    let long = format!("{}\u{c}", "y".repeat(70));
    for (s, c) in [
        ("a\u{1}b", '\u{1}'),
        ("\u{1f}", '\u{1f}'),
        ("ab\u{fffe}", '\u{fffe}'),
        ("\u{ff21}\u{ffff}", '\u{ffff}'),
        (long.as_str(), '\u{c}'),
    ] {
        assert_eq!(first_non_xml_char(s), Some(c), "{s:?}");
        assert_eq!(s.chars().find(|&c| !is_xml_char(c)), Some(c));
    }
}

#[test]
fn cdata_end_is_found_in_the_same_pass() {
    let pad = "z".repeat(30);
    for (s, end) in [
        ("a]]>b".to_owned(), true),
        ("a]] >b".to_owned(), false),
        ("]]".to_owned(), false),
        // Across a 32-byte block boundary.
        (format!("{pad}]]>"), true),
        (format!("{}]]>", "z".repeat(31)), true),
        (format!("{pad}x]"), false),
    ] {
        assert_eq!(scan_text(&s, true), (None, end), "{s:?}");
        assert_eq!(scan_text(&s, false), (None, false), "{s:?}");
        assert_eq!(s.contains("]]>"), end);
        assert_eq!(holds_cdata_end(&s), end, "{s:?}");
    }
    // An invalid character is reported first, wherever the `]]>` is.
    assert_eq!(scan_text("]]>\u{1}", true).0, Some('\u{1}'));
    assert_eq!(scan_text("\u{1}]]>", true).0, Some('\u{1}'));
}

/// The strict pass's stop (message and offset) on `text`.
fn strict_stop(text: &str) -> Option<(String, usize)> {
    let dt = scan_doctype(text);
    strict_pass(text, &ParseOptions::default(), &dt, None)
        .err()
        .map(|s| (s.message, s.offset))
}

#[test]
fn whole_text_character_check_stops_where_the_event_checks_do() {
    // `]]>` in text is caught whether or not the whole text passed its character
    // check; a non-XML character anywhere makes every event check itself, so the
    // stop is where the character is (text, CDATA, attribute value).
    let end = "<rss><channel><title>a ]]> b</title></channel></rss>";
    let (m, at) = strict_stop(end).expect("`]]>` in text must stop the strict pass");
    assert!(m.contains("]]>"), "{m}");
    assert!(at <= end.find("]]>").unwrap(), "{at}");
    for (text, bad) in [
        (
            "<rss><channel><title>a\u{1}b</title></channel></rss>",
            "\u{1}",
        ),
        (
            "<rss><channel><title><![CDATA[x\u{b}]]></title></channel></rss>",
            "\u{b}",
        ),
        (
            "<rss><channel><link href=\"a\u{1f}\"/></channel></rss>",
            "\u{1f}",
        ),
        (
            "<rss><channel><title>x\u{fffe}</title></channel></rss>",
            "\u{fffe}",
        ),
    ] {
        assert!(first_non_xml_char(text).is_some());
        let (m, at) = strict_stop(text).unwrap_or_else(|| panic!("{text:?} passed"));
        assert!(m.contains("U+"), "{text:?}: {m}");
        assert!(at <= text.find(bad).unwrap(), "{text:?}: {at}");
        // The same document without the character passes.
        assert_eq!(strict_stop(&text.replace(bad, "")), None, "{text:?}");
    }
}

/// The events of `text` with their positions, as quick-xml reads them (`own` false)
/// or with text and CDATA inside the root taken by [`own_event`] (`own` true), as
/// the strict pass reads them; up to the first error, or the first text holding
/// `]]>` inside the root, where the strict pass stops.
fn event_trail(text: &str, own: bool) -> Vec<String> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    reader.config_mut().check_comments = true;
    let mut depth = 0usize;
    let mut trail = Vec::new();
    let mut open = OwnOpen::default();
    loop {
        let pos = reader.buffer_position();
        let mine = if own && depth > 0 {
            own_event(text, &mut reader, &mut open)
        } else {
            None
        };
        let read = match mine {
            Some(Own::Event(ev, len)) => {
                std::io::BufRead::consume(&mut reader.stream(), len);
                Ok(ev)
            }
            // Reported where quick-xml reports it: at the tag's `<`.
            Some(Own::Error(e)) => Err((pos, e)),
            None => reader
                .read_event()
                .map_err(|e| (reader.error_position(), e)),
        };
        match read {
            Ok(Event::Eof) => break,
            Ok(ev) => {
                match ev {
                    Event::Start(_) => depth += 1,
                    Event::End(_) => depth = depth.saturating_sub(1),
                    _ => {}
                }
                let stops = depth > 0 && matches!(&ev, Event::Text(t) if holds_cdata_end(t));
                trail.push(format!("{pos} {ev:?}"));
                if stops {
                    return trail;
                }
            }
            Err((at, e)) => {
                // The strict pass stops here (where quick-xml is left does not
                // matter).
                trail.push(format!("{at} error {e}"));
                return trail;
            }
        }
    }
    trail.push(format!("end {}", reader.buffer_position()));
    trail
}

#[test]
fn a_names_prefix_and_local_part_split_at_its_first_colon() {
    for (tag, prefix, local) in [
        ("title", "", "title"),
        ("dc:creator", "dc", "creator"),
        (":odd", "", "odd"),
        ("a:b:c", "a", "b:c"),
        ("trailing:", "trailing", ""),
    ] {
        let name = Name::new(tag, tag.to_owned(), None);
        assert_eq!((name.prefix(), name.local()), (prefix, local), "{tag}");
    }
}

#[test]
fn own_text_and_cdata_events_are_quick_xmls() {
    // Pieces that make up random documents: text (with multi-byte characters, line
    // ends, stray `]]>` and `>`), references (good, dangling), CDATA (closed and not),
    // comments, PIs, elements, and a few broken constructs.
    const PIECES: &[&str] = &[
        "plain text ",
        "Köln – € 日本 ",
        "\r\nline\rends\n",
        "a ]]> b",
        "x ] y ]]z ]",
        " > ",
        "&amp;",
        "&#x41;",
        "&unknown;",
        "& ",
        "&amp",
        "<![CDATA[raw <b>&amp;</b> ]] ]]>",
        "<![CDATA[]]>",
        "<![CDATA[never closed",
        "<!-- comment -->",
        "<!-- bad -- comment -->",
        "<?pi data?>",
        "<x>",
        "</x>",
        "<y a='1'/>",
        "<z>text</z>",
        "</wrong>",
        "<",
        "<![CDAT",
        // Tags as quick-xml reads them: quoted `>`, spaces, odd names, unclosed.
        "<q a='>' b=\"'>\">",
        "</q  \n>",
        "<x/ >",
        "<x\n/>",
        "< x>",
        "<>",
        "</>",
        "</x a='>'>",
        "<u a=\"never closed>",
        "<u a='never closed>",
        "<a:b xmlns:a='urn:a'>",
        "</a:b>",
        "<?pi?>",
    ];
    let mut next = crate::bytes::tests::below(0x9e37_79b9_7f4a_7c15_u64);
    let mut docs: Vec<String> = vec![
        "<rss>text<![CDATA[c]]>&amp;tail</rss>".into(),
        "\u{feff}<rss>x</rss>".into(),
        "<a>unclosed text".into(),
        "<a><![CDATA[x]]></a>junk".into(),
    ];
    for _ in 0..3000 {
        let mut d = String::from("<root>");
        for _ in 0..next(12) {
            d.push_str(PIECES[next(PIECES.len())]);
        }
        if next(4) > 0 {
            d.push_str("</root>");
        }
        docs.push(d);
    }
    for d in &docs {
        assert_eq!(event_trail(d, true), event_trail(d, false), "{d:?}");
    }
    // The strict pass takes these events for its own: it reads text, CDATA and
    // their errors where it did before.
    let r = parse_str(
        "<rss><channel><title>a &amp; b</title><description><![CDATA[<p>x</p>]]>\
         </description></channel></rss>",
        &ParseOptions::default(),
    );
    assert!(r.bozo.is_empty(), "{:?}", r.bozo);
    assert_eq!(r.feed.title.as_deref(), Some("a & b"));
    assert_eq!(r.feed.subtitle.as_deref(), Some("<p>x</p>"));
}

#[test]
fn split_attributes_reads_as_quick_xml_or_declines() {
    // Pieces of attribute lists, well-formed and not: names (repeated, odd, empty),
    // `=` with and without whitespace, both quotes, unclosed and missing values,
    // values holding the other quote, `>`, `&`, whitespace and multi-byte text.
    const PIECES: &[&str] = &[
        " a=\"1\"",
        " b='2'",
        "\tc = \"x y\"",
        "\n\rd=\"it's\"",
        " e='say \"hi\"'",
        " a=\"again\"",
        " f=\"&amp;\"",
        " g=\"Köln €\"",
        " h=\"\"",
        "i=\"no space\"",
        " j",
        " k=",
        " l=\"open",
        " m=bare",
        " =\"v\"",
        " n\"=\"1\"",
        " xml:lang=\"en\"",
        "  ",
        " o=\"a>b\"",
        " p =\t'q'",
    ];
    let mut next = crate::bytes::tests::below(0x2545_f491_4f6c_dd1d_u64);
    let mut agreed = 0;
    for round in 0..5000 {
        let count = if round % 50 == 0 { 20 } else { next(6) };
        let raw: String = (0..count).map(|_| PIECES[next(PIECES.len())]).collect();
        let content = format!("t{raw}");
        let e = quick_xml::events::BytesStart::from_content(content.as_str(), 1);
        let mut attrs = e.attributes();
        attrs.with_checks(true);
        let quick: Result<Vec<(String, String)>, _> = attrs
            .map(|a| a.map(|a| (a.key.0.to_owned(), a.value.into_owned())))
            .collect();
        let mut found = [("", ""); PLAIN_ATTRIBUTES];
        if let Some(n) = split_attributes(e.attributes_raw(), &mut found) {
            let ours: Vec<(String, String)> = found[..n]
                .iter()
                .map(|&(k, v)| (k.to_owned(), v.to_owned()))
                .collect();
            assert_eq!(quick.as_ref().ok(), Some(&ours), "{raw:?}");
            agreed += 1;
        }
    }
    // Most lists are read here, not all declined.
    assert!(agreed > 1000, "{agreed}");
    // quick-xml words what this declines.
    let text = "<rss a='1' a='2'><channel/></rss>";
    let (m, _) = strict_stop(text).expect("duplicate attribute");
    assert!(m.starts_with("duplicate attribute: "), "{m}");
}

#[test]
fn attribute_values_are_borrowed_only_when_unchanged() {
    let mut d = Driver::new(Cow::Owned(ParseOptions::default()), true, HashMap::new());
    let v = strict_attr_value(Cow::Borrowed("http://e/a?b=1"), &mut d).unwrap();
    assert!(matches!(v, Cow::Borrowed("http://e/a?b=1")));
    for (raw, want) in [
        ("a&amp;b", "a&b"),
        ("a\tb\nc\r\nd", "a b c d"),
        ("&#x41;&lt;", "A<"),
    ] {
        let v = strict_attr_value(Cow::Borrowed(raw), &mut d).unwrap();
        assert!(matches!(v, Cow::Owned(_)), "{raw:?}");
        assert_eq!(v, want);
    }
    assert!(strict_attr_value(Cow::Borrowed("a<b"), &mut d).is_err());
    assert!(strict_attr_value(Cow::Borrowed("a&b"), &mut d).is_err());
    // Upper-case names are lowered, lower-case ones stay borrowed.
    assert!(matches!(
        lowercase_cow(Cow::Borrowed("href")),
        Cow::Borrowed("href")
    ));
    assert_eq!(lowercase_cow(Cow::Borrowed("HRef")), "href");
    assert_eq!(lowercase_cow(Cow::Borrowed("ÄB")), "äb");
}

#[test]
fn entry_limit_overwrites_the_last_entry() {
    let text = "<rss><channel><item><title>A</title></item><item><title>B</title></item>\
                <item><title>C</title></item></channel></rss>";
    let r = parse_str(text, &ParseOptions::default().max_entries(2));
    let titles: Vec<_> = r.entries.iter().map(|e| e.title.as_deref()).collect();
    assert_eq!(titles, [Some("A"), Some("C")]);
    assert!(r.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
    let one = parse_str(text, &ParseOptions::default().max_entries(1));
    assert_eq!(one.entries.len(), 1);
    assert_eq!(one.entries[0].title.as_deref(), Some("C"));
}

#[test]
fn depth_limit() {
    let deep = format!("<rss>{}{}</rss>", "<a>".repeat(50), "</a>".repeat(50));
    let r = parse_str(&deep, &ParseOptions::default().max_depth(10));
    assert!(r.bozo.iter().any(|b| b.kind == BozoKind::LimitExceeded));
}

#[test]
fn known_elements_never_spend_the_unknown_element_budget() {
    let rss = "<rss version='2.0' xmlns:dc='http://purl.org/dc/elements/1.1/' \
               xmlns:content='http://purl.org/rss/1.0/modules/content/'><channel>\
               <title>T</title><link>http://e/</link><description>d</description>\
               <language>en</language><ttl>5</ttl><image><url>http://e/i</url></image>\
               <item><title>a</title><link>http://e/1</link><description>x</description>\
               <pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate><guid>g</guid>\
               <author>a@e (A)</author><category>c</category><comments>http://e/c</comments>\
               <enclosure url='http://e/a.mp3' length='1' type='audio/mpeg'/>\
               <dc:creator>D</dc:creator><content:encoded>&lt;p&gt;c</content:encoded>\
               </item></channel></rss>";
    let atom = "<feed xmlns='http://www.w3.org/2005/Atom'><title>T</title><id>i</id>\
                <updated>2004-01-01T00:00:00Z</updated><entry><title>a</title><id>e</id>\
                <link href='http://e/1'/><summary>s</summary><content>c</content>\
                <author><name>A</name></author><published>2004-01-01T00:00:00Z</published>\
                <category term='t'/></entry></feed>";
    for doc in [rss, atom] {
        let full = parse_str(doc, &ParseOptions::default());
        let none = parse_str(doc, &ParseOptions::default().max_unknown_elements(0));
        assert!(none.bozo.is_empty(), "{:?}", none.bozo);
        assert_eq!(none.feed, full.feed);
        assert_eq!(none.entries, full.entries);
    }
}

#[test]
fn unknown_elements_beyond_the_budget_are_skipped_and_counted() {
    let children: String = (0..5).map(|i| format!("<e{i}>x</e{i}>")).collect();
    for broken in ["", "<x>&bogus;</x>"] {
        let doc = format!(
            "<rss version='2.0'><channel>{broken}<title>t</title><c0 a='1'/>\
             <item><title>a</title>{children}<e0>again</e0></item></channel></rss>"
        );
        // The broken variant's <x> is an unknown element of the channel too.
        let budget = if broken.is_empty() { 3 } else { 4 };
        let r = parse_str(&doc, &ParseOptions::default().max_unknown_elements(budget));
        // The channel's c0 (attributes only) and the item's e0, e1 are kept; e2..e4
        // are skipped; a repeated e0 is no new key.
        assert!(r.feed.extra.contains_key("c0"), "{broken}");
        let e = &r.entries[0];
        assert_eq!(e.title.as_deref(), Some("a"));
        assert_eq!(
            e.extra.get("e0"),
            Some(&serde_json::json!("again")),
            "{broken}"
        );
        assert!(e.extra.contains_key("e1"));
        assert!(!e.extra.contains_key("e2") && !e.extra.contains_key("e4"));
        let limit: Vec<_> = r
            .bozo
            .iter()
            .filter(|b| b.kind == BozoKind::LimitExceeded)
            .collect();
        assert_eq!(limit.len(), 1, "{broken}: {:?}", r.bozo);
        assert!(
            limit[0].message.contains("3 more were skipped"),
            "{}",
            limit[0].message
        );
    }
}

#[test]
fn attribute_limit_keeps_the_first_ones_in_both_passes() {
    // The enclosure's url comes first and is kept; 40 more attributes, then a
    // type that lies beyond the limit of 8.
    let many: String = (0..40).map(|i| format!(" a{i}='v'")).collect();
    for broken in ["", "<x>&bogus;</x>"] {
        let feed = format!(
            "<rss version='2.0'><channel>{broken}<item><enclosure url='http://e/a.mp3'\
             {many} type='audio/mpeg'/></item></channel></rss>"
        );
        let r = parse_str(&feed, &ParseOptions::default().max_attributes(8));
        let limits: Vec<_> = r
            .bozo
            .iter()
            .filter(|b| b.kind == BozoKind::LimitExceeded)
            .collect();
        assert_eq!(limits.len(), 1, "{broken}: {:?}", r.bozo);
        assert!(limits[0].message.contains("more than 8 attributes"));
        let links = &r.entries[0].links;
        assert_eq!(links[0].href.as_deref(), Some("http://e/a.mp3"), "{broken}");
        assert_eq!(links[0].content_type, None, "{broken}");
        // The default keeps them all.
        let r = parse_str(&feed, &ParseOptions::default());
        let links = &r.entries[0].links;
        assert_eq!(links[0].content_type.as_deref(), Some("audio/mpeg"));
    }
}

#[test]
fn an_attribute_of_an_unknown_namespace_is_also_keyed_by_its_local_name() {
    // feedparser's strict parser: `thr:count` is also `count`; an unprefixed attribute
    // keeps its value over a namespaced one of the same local name (`rel`). The lenient
    // pass (feedparser's loose parser) keys attributes as written only.
    let feed = |broken: &str| {
        format!(
            "<feed xmlns='http://www.w3.org/2005/Atom' \
             xmlns:thr='http://purl.org/syndication/thread/1.0' xmlns:x='http://e/x'>{broken}\
             <entry><link rel='replies' href='http://e/p#c' thr:count='5'/>\
             <link rel='alternate' href='http://e/p' x:rel='other' x:foo='bar'/></entry></feed>"
        )
    };
    let r = parse_str(&feed(""), &ParseOptions::default());
    let links = &r.entries[0].links;
    let extra = |i: usize, k: &str| links[i].extra.get(k).and_then(|v| v.as_str());
    assert_eq!(extra(0, "count"), Some("5"));
    assert_eq!(extra(0, "thr:count"), Some("5"));
    assert_eq!(links[1].rel.as_deref(), Some("alternate"));
    assert_eq!(extra(1, "x:rel"), Some("other"));
    assert_eq!(extra(1, "foo"), Some("bar"));
    let r = parse_str(&feed("<x>&bogus;</x>"), &ParseOptions::default());
    let links = &r.entries[0].links;
    assert_eq!(
        links[0].extra.get("thr:count").and_then(|v| v.as_str()),
        Some("5")
    );
    assert!(!links[0].extra.contains_key("count"), "{:?}", links[0]);
}

mod handover_tests {
    use super::*;

    /// Well-formed feeds with the constructs a hand-over must carry: namespaces, inline
    /// XHTML, CDATA, references, `xml:base`, line ends in text.
    const FEEDS: &[&str] = &[
        "<?xml version='1.0'?>\n<rss version='2.0' xmlns:dc='http://purl.org/dc/elements/1.1/'\n\
         xmlns:content='http://purl.org/rss/1.0/modules/content/'><channel>\n\
         <title>T &amp; U</title><link>http://e/</link><description>d</description>\n\
         <item><title>a&#233;</title><link>http://e/1</link><dc:creator>Ann</dc:creator>\n\
         <description>&lt;p&gt;x &lt;a href=\"/r\"&gt;l&lt;/a&gt;&lt;/p&gt;</description>\n\
         <content:encoded><![CDATA[<p>c <b>b</b></p>]]></content:encoded>\n\
         <enclosure url='http://e/a.mp3' length='10' type='audio/mpeg'/>\n\
         <category domain='http://e/t'>k</category></item>\n\
         <item><title>b</title><guid isPermaLink='true'>http://e/2</guid></item>\n\
         </channel></rss>\n",
        "<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://e/b/' xml:lang='en'>\n\
         <title type='html'>&lt;b&gt;T&lt;/b&gt;</title><id>urn:f</id>\n\
         <entry><title>e1</title><id>urn:1</id><link href='x'/>\n\
         <content type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'><p>h <a href='y'>y</a>\n\
         </p></div></content><author><name>N</name></author>\n\
         <updated>2004-01-01T00:00:00Z</updated></entry>\n\
         <entry><title type='text'>e2</title><summary>s\r\nt</summary>\n\
         <category term='c' label='L M'/></entry></feed>",
    ];

    /// Ways of breaking a feed at byte `at`.
    fn broken(feed: &str, at: usize) -> Vec<String> {
        let (a, b) = feed.split_at(at);
        vec![
            a.to_owned(),
            format!("{a}&nbsp;{b}"),
            format!("{a}<{b}"),
            format!("{a}&{b}"),
            format!("{a}</nope>{b}"),
            format!("{a}<x a='1' a='2'/>{b}"),
            format!("{a}\u{1}{b}"),
            format!("{a}<?xml version='1.0'?>{b}"),
            format!("{a}<u:x/>{b}"),
        ]
    }

    /// An undeclared prefix on a start tag that declares others: its declarations are
    /// taken back before the lenient pass reads the tag again.
    fn undeclared(feed: &str, at: usize) -> Vec<String> {
        let (a, b) = feed.split_at(at);
        vec![
            format!("{a}<u:x xmlns:v='urn:v' xmlns='urn:w' v:a='1'>{b}"),
            format!("{a}<x xmlns:dc='urn:other' u:a='1'/><dc:creator>c</dc:creator>{b}"),
            format!("{a}<u:x xmlns='urn:w'/><title>t</title><dc:creator>c</dc:creator>{b}"),
        ]
    }

    fn assert_same_reading(text: &str, options: &ParseOptions) {
        let handed = parse_str(text, options);
        let fresh = parse_str_lenient(text, options);
        assert_eq!(handed.feed, fresh.feed, "{text:?}");
        assert_eq!(handed.entries, fresh.entries, "{text:?}");
        assert_eq!(handed.version, fresh.version, "{text:?}");
        assert_eq!(handed.namespaces, fresh.namespaces, "{text:?}");
    }

    /// Going on from where the strict pass stopped gives what the lenient pass gives from
    /// the start, whatever the break and wherever it is.
    #[test]
    fn the_lenient_pass_resumes_where_the_strict_pass_stopped() {
        let options = ParseOptions::default();
        let (mut resumed, mut undeclared_resumed) = (0, 0);
        for feed in FEEDS {
            assert!(parse_str(feed, &options).bozo.is_empty(), "{feed}");
            for at in (0..=feed.len()).filter(|&i| feed.is_char_boundary(i)) {
                for text in broken(feed, at) {
                    let body = text.as_str();
                    let dt = scan_doctype(body);
                    if let Err(s) = strict_pass(body, &options, &dt, None) {
                        resumed += usize::from(s.resume.is_some());
                    }
                    assert_same_reading(body, &options);
                }
                for text in undeclared(feed, at) {
                    let body = text.as_str();
                    let dt = scan_doctype(body);
                    // Where the insertion falls inside a processing instruction or a
                    // comment the document is well-formed: nothing is handed over.
                    if let Err(s) = strict_pass(body, &options, &dt, None) {
                        undeclared_resumed += usize::from(
                            s.resume.is_some() && s.kind == BozoKind::UndeclaredNamespace,
                        );
                        assert_same_reading(body, &options);
                    }
                }
            }
        }
        assert!(resumed > 1000, "{resumed}");
        assert!(undeclared_resumed > 300, "{undeclared_resumed}");
    }

    /// The one difference from a lenient pass from the start: attribute values read
    /// before the break are normalized as XML says.
    #[test]
    fn attribute_values_before_the_break_are_normalized() {
        let text = "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
                    <category term='c' label='L\nM'/></entry><entry>&nbsp;</entry></feed>";
        let options = ParseOptions::default();
        let handed = parse_str(text, &options);
        assert_eq!(handed.bozo.len(), 1);
        assert_eq!(handed.entries.len(), 2);
        assert_eq!(handed.entries[0].tags[0].label.as_deref(), Some("L M"));
        let fresh = parse_str_lenient(text, &options);
        assert_eq!(fresh.entries[0].tags[0].label.as_deref(), Some("L\nM"));
    }
}

mod bound_tests {
    use super::*;

    fn attrs(names: &[&str]) -> Attrs<'static> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| ((*n).to_owned().into(), i.to_string().into()))
            .collect()
    }

    #[test]
    fn later_duplicate_attributes_win_in_the_first_place() {
        for n in [3usize, 40] {
            let mut names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
            names.push("a1".into());
            names.push("b".into());
            names.push("a0".into());
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let out = dedup_attrs(attrs(&refs));
            assert_eq!(out.len(), n + 1, "n = {n}");
            assert_eq!(out[0], ("a0".into(), (n + 2).to_string().into()));
            assert_eq!(out[1], ("a1".into(), n.to_string().into()));
            assert_eq!(out[n], ("b".into(), (n + 1).to_string().into()));
            let unique = attrs(&refs[..n]);
            assert_eq!(dedup_attrs(unique.clone()), unique);
        }
    }

    fn limit_messages(r: &ParsedFeed) -> Vec<&str> {
        r.bozo
            .iter()
            .filter(|b| b.kind == BozoKind::LimitExceeded)
            .map(|b| b.message.as_str())
            .collect()
    }

    #[test]
    fn an_exhausted_entity_budget_is_a_limit_not_an_undefined_entity() {
        let refs = "&e;".repeat(10);
        let text = format!(
            "<!DOCTYPE rss [<!ENTITY e \"abcd\">]><rss version='2.0'><channel>\
             <title>{refs}</title><item><title a='{refs}'>x</title></item></channel></rss>"
        );
        let r = parse_str(&text, &ParseOptions::default().max_entity_expansion(20));
        assert!(
            !r.bozo.iter().any(|b| b.kind == BozoKind::NotWellFormed),
            "{:?}",
            r.bozo
        );
        let limits = limit_messages(&r);
        assert_eq!(limits.len(), 1, "{limits:?}");
        assert!(limits[0].contains("max_entity_expansion"), "{}", limits[0]);
        assert!(limits[0].contains("20 bytes"), "{}", limits[0]);
        assert_eq!(
            r.feed.title.as_deref(),
            Some("abcdabcdabcdabcdabcd&e;&e;&e;&e;&e;")
        );
        // The same in the lenient pass.
        let broken = text.replace("<item>", "<item>&nbsp;<x>");
        let r = parse_str(&broken, &ParseOptions::default().max_entity_expansion(20));
        assert!(limit_messages(&r)[0].contains("max_entity_expansion"));
        assert_eq!(
            r.feed.title.as_deref(),
            Some("abcdabcdabcdabcdabcd&e;&e;&e;&e;&e;")
        );
    }

    #[test]
    fn every_limit_reached_is_recorded_once_with_its_name() {
        let text = format!(
            "<!DOCTYPE rss [<!ENTITY e \"abcd\">]><rss version='2.0'><channel>\
             <title>&e;&e;</title>{}{}{}</channel></rss>",
            "<item><a><b><c><d>deep</d></c></b></a></item>".repeat(3),
            "<item/>".repeat(5),
            "<item><title>last</title></item>"
        );
        let o = ParseOptions::default()
            .max_entity_expansion(5)
            .max_depth(5)
            .max_entries(4);
        let r = parse_str(&text, &o);
        let limits = limit_messages(&r);
        assert_eq!(limits.len(), 3, "{limits:?}");
        for name in ["max_depth", "max_entity_expansion", "max_entries"] {
            assert!(
                limits.iter().any(|m| m.contains(name)),
                "{name}: {limits:?}"
            );
        }
        assert!(limits.iter().any(|m| m.contains("more than 4 entries")));
        assert_eq!(r.entries.len(), 4);
        assert_eq!(r.entries[3].title.as_deref(), Some("last"));
    }

    #[test]
    fn scopes_shadow_and_unwind() {
        let mut s = Scopes::default();
        s.push(None, "d0".into());
        s.push(Some("a"), "a0".into());
        let mark = s.len();
        s.push(Some("a"), "a1".into());
        s.push(None, "d1".into());
        s.push(Some("b"), "b0".into());
        assert_eq!(s.resolve(Some("a")), Some("a1"));
        assert_eq!(s.resolve(None), Some("d1"));
        s.truncate(mark);
        assert_eq!(s.resolve(Some("a")), Some("a0"));
        assert_eq!(s.resolve(None), Some("d0"));
        assert_eq!(s.resolve(Some("b")), None);
        assert!(s.prefixed.len() == 1);
    }
}

#[test]
fn entries_leave_a_bounded_stack() {
    // An Atom `content` leaves two elements behind, as feedparser's does: kept up to a
    // bound, then dropped, with every entry read all the same.
    let feed = |n: usize| {
        format!(
            "<feed xmlns='http://www.w3.org/2005/Atom'><title>t</title>{}</feed>",
            "<entry><title>e</title><content>x</content></entry>".repeat(n)
        )
    };
    let options = ParseOptions::default();
    let text = feed(3);
    let d = strict_pass(&text, &options, &scan_doctype(&text), None)
        .ok()
        .expect("well-formed");
    // `item` and `content` for each entry.
    assert_eq!(d.builder.stack_len(), 2 * 3);
    let text = feed(5000);
    let d = strict_pass(&text, &options, &scan_doctype(&text), None)
        .ok()
        .expect("well-formed");
    let len = d.builder.stack_len();
    assert!(
        (super::builder::Builder::MAX_LEFT_BEHIND - 2..=super::builder::Builder::MAX_LEFT_BEHIND)
            .contains(&len),
        "{len}"
    );
    let r = parse_str(&text, &ParseOptions::default());
    assert_eq!(r.entries.len(), 5000);
    assert!(r.entries.iter().all(|e| e.content[0].value.as_ref() == "x"));
}

#[test]
fn markup_left_open_in_content_gets_no_end_tag_as_in_feedparser() {
    // Raw HTML makes the document ill-formed: the lenient pass keeps the markup as
    // written; the first `<p>`, closed only by the end of the description, stays open
    // (feedparser's loose parser writes no end tag for it), while a `</p>` written in
    // the text is kept.
    let r = parse_str(
        "<rss version=\"2.0\"><channel><item><description><p>A<br><p>B</p> </description>\
         </item></channel></rss>",
        &ParseOptions::default(),
    );
    assert!(!r.bozo.is_empty());
    assert_eq!(r.entries[0].summary.as_deref(), Some("<p>A<br /><p>B</p>"));
    // An element left open at the end of the text: no end tag either.
    let r = parse_str(
        "<rss version=\"2.0\"><channel><item><description><p>A <b>bold",
        &ParseOptions::default(),
    );
    assert_eq!(r.entries[0].summary.as_deref(), Some("<p>A <b>bold"));
}

#[test]
fn values_are_trimmed_as_python_strips_them_but_for_u0085() {
    // feedparser strips every value with `str.strip()`: Unicode spaces too (a trailing
    // no-break space, an ideographic space). `&#133;` stays: it becomes `…` (windows-1252
    // 0x85), content a title may end with.
    for (title, want) in [
        ("Title&#xa0;", "Title"),
        ("&#x3000;見出し&#x3000;", "見出し"),
        ("\u{2003}Em\u{2003}", "Em"),
        ("Read more&#133;", "Read more…"),
        ("  plain \t", "plain"),
    ] {
        let r = parse_str(
            &format!("<rss version=\"2.0\"><channel><title>{title}</title></channel></rss>"),
            &ParseOptions::default(),
        );
        assert_eq!(r.feed.title.as_deref(), Some(want), "{title}");
    }
}

#[test]
fn an_element_the_end_of_the_text_cuts_off_before_any_text_has_no_value() {
    // A truncated download ending in `<title>`: the entry has no title (not an empty
    // one), as in feedparser; one cut off after some text keeps it.
    let r = parse_str(
        "<rss version=\"2.0\"><channel><title>T</title><item><title>A</title></item>\
         <item><title>",
        &ParseOptions::default(),
    );
    assert_eq!(r.entries.len(), 2);
    assert_eq!(r.entries[0].title.as_deref(), Some("A"));
    assert_eq!(r.entries[1].title, None);
    assert_eq!(r.entries[1].title_detail, None);
    let r = parse_str(
        "<rss version=\"2.0\"><channel><item><title>Cut he",
        &ParseOptions::default(),
    );
    assert_eq!(r.entries[0].title.as_deref(), Some("Cut he"));
    // Closed in the text, an empty element keeps its empty value.
    let r = parse_str(
        "<rss version=\"2.0\"><channel><item><title></title></item></channel></rss>",
        &ParseOptions::default(),
    );
    assert_eq!(r.entries[0].title.as_deref(), Some(""));
}

#[test]
fn elements_the_program_handles_become_calls_instead_of_keys() {
    use crate::model::{HandlerCall, HandlerContext};
    use crate::parse::ElementHandlers;
    let rss = "<rss version='2.0' xmlns:newznab='http://www.newznab.com/DTD/2010/feeds/attributes/'>\
               <channel><title>T</title><newznab:response offset='0' total='2'/>\
               <item><title>a</title><newznab:attr name='size' value='10'/>\
               <newznab:attr name='category' value='5000'/><newznab:note> n </newznab:note></item>\
               <item><title>b</title><newznab:attr name='size' value='20'/></item>\
               </channel></rss>";
    // Without handlers: unknown elements are keys (the last attribute dictionary wins).
    let plain = parse_str(rss, &ParseOptions::default());
    assert!(plain.handler_calls.is_empty());
    assert!(plain.entries[0].extra.contains_key("newznab_attr"));
    let handlers = ElementHandlers {
        start: vec!["newznab_attr".into(), "newznab_response".into()],
        end: vec!["newznab_note".into(), "newznab_attr".into()],
    };
    let options = ParseOptions::default().handlers(Some(Arc::new(handlers)));
    for r in [parse_str(rss, &options), parse_str_lenient(rss, &options)] {
        let calls = &r.handler_calls;
        let call =
            |key: &str, end, context, attrs: &[(&str, &str)], text: Option<&str>| HandlerCall {
                key: key.into(),
                end,
                context,
                attrs: attrs
                    .iter()
                    .map(|(k, v)| ((*k).into(), (*v).into()))
                    .collect(),
                text: text.map(Into::into),
            };
        assert_eq!(
            *calls,
            [
                call(
                    "newznab_response",
                    false,
                    HandlerContext::Feed,
                    &[("offset", "0"), ("total", "2")],
                    None
                ),
                call(
                    "newznab_attr",
                    false,
                    HandlerContext::Entry(0),
                    &[("name", "size"), ("value", "10")],
                    None
                ),
                call("newznab_attr", true, HandlerContext::Entry(0), &[], None),
                call(
                    "newznab_attr",
                    false,
                    HandlerContext::Entry(0),
                    &[("name", "category"), ("value", "5000")],
                    None
                ),
                call("newznab_attr", true, HandlerContext::Entry(0), &[], None),
                call(
                    "newznab_note",
                    true,
                    HandlerContext::Entry(0),
                    &[],
                    Some("n")
                ),
                call(
                    "newznab_attr",
                    false,
                    HandlerContext::Entry(1),
                    &[("name", "size"), ("value", "20")],
                    None
                ),
                call("newznab_attr", true, HandlerContext::Entry(1), &[], None),
            ]
        );
        // Left to the handlers: not stored; the rest as without them.
        assert!(!r.feed.extra.contains_key("newznab_response"));
        for e in &r.entries {
            assert!(!e.extra.contains_key("newznab_attr") && !e.extra.contains_key("newznab_note"));
        }
        assert_eq!(r.entries[1].title.as_deref(), Some("b"));
    }
    // Each call spends one of the budget of keys without a field (as does the feed's
    // `newznab:response`, stored under its key): past it, none is recorded, the skipped
    // ones are counted.
    let handlers = ElementHandlers {
        start: vec!["newznab_attr".into()],
        end: vec!["newznab_attr".into()],
    };
    let options = ParseOptions::default()
        .handlers(Some(Arc::new(handlers)))
        .max_unknown_elements(4);
    let r = parse_str(rss, &options);
    assert_eq!(r.handler_calls.len(), 3);
    assert!(
        r.bozo
            .iter()
            .any(|b| b.kind == BozoKind::LimitExceeded && b.message.contains("skipped")),
        "{:?}",
        r.bozo
    );
    // Elements this crate reads a field from are its own: no call.
    let handlers = ElementHandlers {
        start: vec!["title".into()],
        end: vec!["title".into()],
    };
    let r = parse_str(
        rss,
        &ParseOptions::default().handlers(Some(Arc::new(handlers))),
    );
    assert!(r.handler_calls.is_empty());
    assert_eq!(r.entries[0].title.as_deref(), Some("a"));
}

mod expat;
mod namespaces;
