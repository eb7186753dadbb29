//! Namespaces a program gives a prefix of its own ([`ParseOptions::namespaces`]).

use super::*;
use crate::parse::{ElementHandlers, ExtraNamespaces};

const NEWZNAB: &str = "http://www.newznab.com/DTD/2010/feeds/attributes/";

/// A feed that binds the newznab namespace to `nzb`, and Dublin Core to `dc`.
fn feed() -> String {
    format!(
        "<rss version='2.0' xmlns:nzb='{NEWZNAB}' xmlns:dc='http://purl.org/dc/elements/1.1/'>\
         <channel><title>T</title><item><title>a</title>\
         <nzb:attr nzb:name='size' value='10'/><nzb:note>n</nzb:note>\
         <dc:creator>C</dc:creator></item></channel></rss>"
    )
}

fn with_newznab() -> ParseOptions {
    ParseOptions::default().namespaces(Some(Arc::new(ExtraNamespaces::new([
        (NEWZNAB.to_uppercase(), "newznab"),
        // A namespace this crate knows keeps its prefix.
        ("http://purl.org/dc/elements/1.1/".to_owned(), "dublin"),
    ]))))
}

#[test]
fn a_programs_prefix_keys_the_elements_and_attributes_of_its_namespace() {
    let doc = feed();
    for lenient in [false, true] {
        let parse = |o: &ParseOptions| {
            if lenient {
                parse_str_lenient(&doc, o)
            } else {
                parse_str(&doc, o)
            }
        };
        // Without the program's table: the document's prefix, as feedparser keys an
        // unknown namespace.
        let plain = parse(&ParseOptions::default());
        assert_eq!(
            plain.entries[0].extra.get("nzb_note"),
            Some(&serde_json::json!("n"))
        );
        assert_eq!(
            plain.namespaces.get("nzb").map(String::as_str),
            Some(NEWZNAB)
        );
        let r = parse(&with_newznab());
        let e = &r.entries[0];
        assert_eq!(e.extra.get("newznab_note"), Some(&serde_json::json!("n")));
        assert!(!e.extra.contains_key("nzb_note"));
        assert_eq!(e.author.as_deref(), Some("C"), "dc keeps its own keys");
        assert!(!e.extra.keys().any(|k| k.starts_with("dublin")));
        assert_eq!(
            r.namespaces.get("newznab").map(String::as_str),
            Some(NEWZNAB)
        );
        assert!(!r.namespaces.contains_key("nzb"));
        assert!(r.namespaces.contains_key("dc"));
        // A handler of the program's key is called, with the attribute keyed by the
        // program's prefix too.
        let handlers = ElementHandlers {
            start: vec!["newznab_attr".into()],
            end: Vec::new(),
        };
        let r = parse(&with_newznab().handlers(Some(Arc::new(handlers))));
        let call = &r.handler_calls[0];
        assert_eq!(call.key, "newznab_attr");
        let attrs: Vec<(&str, &str)> = call
            .attrs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert!(attrs.contains(&("newznab:name", "size")), "{attrs:?}");
        assert!(attrs.contains(&("value", "10")), "{attrs:?}");
    }
}

#[test]
fn names_resolved_with_a_programs_prefixes_are_not_reused_by_other_parses() {
    // The thread keeps the names a root's declarations resolve for its next feed: never
    // those of a parse with the program's table, nor for one.
    let doc = feed();
    for _ in 0..2 {
        let r = parse_str(&doc, &ParseOptions::default());
        assert!(r.entries[0].extra.contains_key("nzb_note"));
        let r = parse_str(&doc, &with_newznab());
        assert!(r.entries[0].extra.contains_key("newznab_note"));
    }
}

#[test]
fn the_last_prefix_given_for_a_namespace_counts() {
    let n = ExtraNamespaces::new([("http://x/", "a"), ("HTTP://X/", "b")]);
    assert_eq!(n.prefix("http://x/"), Some("b"));
    assert!(ExtraNamespaces::new(Vec::<(String, String)>::new()).is_empty());
    // An empty table is none.
    let options = ParseOptions::default().namespaces(Some(Arc::new(ExtraNamespaces::default())));
    assert!(options.namespaces.is_none());
}
