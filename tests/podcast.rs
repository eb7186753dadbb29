//! Podcasting 2.0: the fixtures in `feeds/parse/model/podcast_*.xml` cover every element
//! of the specification, and the typed model gives them back.

use std::collections::BTreeSet;
use std::path::Path;

use feed_decoder::model::PodcastElement;
use feed_decoder::parse::{ParseOptions, parse_str};

/// Every element of the namespace (https://podcastindex.org/namespace/1.0), by the
/// specification's spelling.
const ELEMENTS: &[&str] = &[
    "transcript",
    "locked",
    "funding",
    "chapters",
    "soundbite",
    "person",
    "location",
    "season",
    "episode",
    "trailer",
    "license",
    "alternateEnclosure",
    "source",
    "integrity",
    "guid",
    "value",
    "valueRecipient",
    "valueTimeSplit",
    "medium",
    "images",
    "image",
    "liveItem",
    "contentLink",
    "socialInteract",
    "block",
    "txt",
    "remoteItem",
    "podroll",
    "updateFrequency",
    "podping",
    "chat",
    "publisher",
];

fn collect(name: &str, elements: &[PodcastElement], seen: &mut BTreeSet<String>) {
    if !elements.is_empty() {
        seen.insert(name.to_owned());
    }
    for e in elements {
        for (child, list) in &e.children {
            collect(child, list, seen);
        }
    }
}

fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("feeds/parse/model")
        .join(name);
    std::fs::read_to_string(p).expect("fixture")
}

#[test]
fn every_element_of_the_specification_is_read_from_a_fixture() {
    let mut seen = BTreeSet::new();
    for name in [
        "podcast_channel.xml",
        "podcast_item.xml",
        "podcast_namespace_variants.xml",
    ] {
        let r = parse_str(&fixture(name), &ParseOptions::default());
        let podcasts = std::iter::once(&r.feed.podcast)
            .chain(r.entries.iter().map(|e| &e.more().podcast))
            .flatten();
        for p in podcasts {
            for (k, list) in &p.0 {
                collect(k, list, &mut seen);
            }
        }
    }
    let missing: Vec<_> = ELEMENTS.iter().filter(|e| !seen.contains(**e)).collect();
    assert!(missing.is_empty(), "not read from any fixture: {missing:?}");
}

#[test]
fn typed_access() {
    let r = parse_str(&fixture("podcast_item.xml"), &ParseOptions::default());
    let p = r.entries[0]
        .more()
        .podcast
        .as_ref()
        .expect("podcast elements");
    assert_eq!(p.text("season"), Some("3"));
    assert_eq!(
        p.first("season").and_then(|s| s.attr("name")),
        Some("Egypt")
    );
    assert_eq!(p.get("transcript").len(), 2);
    assert_eq!(p.get("nothing").len(), 0);
    let names: Vec<_> = p.get("value")[0]
        .children("valueRecipient")
        .iter()
        .filter_map(|r| r.attr("name"))
        .collect();
    assert_eq!(names, ["Alice", "Bob", "Carol"]);
    let alt = &p.get("alternateEnclosure")[0];
    assert_eq!(alt.children("source").len(), 2);
    assert_eq!(alt.children("integrity")[0].attr("type"), Some("sri"));
}

#[test]
fn broken_markup_keeps_the_podcast_elements_read_so_far() {
    let text = "<rss xmlns:podcast='https://podcastindex.org/namespace/1.0'><channel><item>\
                <title>T</title><podcast:value type='lightning'>\
                <podcast:valueRecipient name='A' split='50'/>\
                <podcast:valueRecipient name='B' split='50'>";
    let r = parse_str(text, &ParseOptions::default());
    assert!(!r.bozo.is_empty());
    assert_eq!(r.entries[0].title.as_deref(), Some("T"));
    let p = r.entries[0]
        .more()
        .podcast
        .as_ref()
        .expect("podcast elements");
    let recipients = p.get("value")[0].children("valueRecipient");
    assert_eq!(recipients.len(), 2);
    assert_eq!(recipients[1].attr("name"), Some("B"));
}
