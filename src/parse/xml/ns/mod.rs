//! Namespaces: the registration table and one module per namespace that has element
//! handlers of its own.
//!
//! An element's handler key is feedparser's: `prefix_local`, with the canonical prefix of
//! its namespace ([`canonical_prefix`]), or `local` alone in the core formats' namespaces.
//! [`handlers_for`] maps a key ONCE (when the driver first resolves a qualified name, see
//! `super::Name`) to the [`Handlers`] of the namespace registered under the key's prefix
//! (the text before the first `_`; no `_` means the core formats, `super::core`). Each
//! module matches only keys with its own prefix, so the builder never looks at a key of
//! another namespace.
//!
//! Adding a namespace: give its URI a prefix in [`canonical_prefix`] (most are already
//! there), write `ns/NAME.rs` with a `pub(in crate::parse::xml) static HANDLERS`, and add one
//! line to [`TABLE`]. A namespace with no line is handled generically: an element with
//! attributes keeps them as an object, any other keeps its text under its key
//! (`sy_updateperiod`, `slash_comments`, `wfw_commentrss`, …).

mod admin;
mod cc;
mod content;
mod dc;
mod dcterms;
mod feedburner;
pub(in crate::parse::xml) mod geo;
pub(in crate::parse::xml) mod georss;
pub(in crate::parse::xml) mod gml;
mod itunes;
mod media;
pub(in crate::parse::xml) mod podcast;
mod psc;
mod xhtml;

use super::builder::Builder;
use crate::parse::xml::Attrs;

/// An element handler on a start tag: true when it handled the element. A handler that
/// keeps the attributes as a dictionary may take them (they are not read afterwards).
pub(in crate::parse::xml) type StartFn = fn(&mut Builder, &str, &mut Attrs<'_>) -> bool;

/// An element handler on an end tag: true when it handled the element.
pub(in crate::parse::xml) type EndFn = fn(&mut Builder, &str) -> bool;

/// The element handlers of one namespace (feedparser's `_start_KEY` and `_end_KEY`
/// methods of one namespace mixin).
pub(crate) struct Handlers {
    /// Handles a start tag by its key.
    pub(in crate::parse::xml) start: StartFn,
    /// Handles an end tag by its key.
    pub(in crate::parse::xml) end: EndFn,
}

/// The handlers of a namespace with none: every element is handled generically.
static GENERIC: Handlers = Handlers {
    start: |_, _, _| false,
    end: |_, _| false,
};

/// The registration table: a feedparser prefix and its namespace's handlers. The empty
/// prefix is the core formats (RSS, Atom, CDF).
static TABLE: &[(&str, &Handlers)] = &[
    ("", &super::core::HANDLERS),
    ("admin", &admin::HANDLERS),
    ("cc", &cc::HANDLERS),
    ("content", &content::HANDLERS),
    ("creativecommons", &cc::HANDLERS),
    ("dc", &dc::HANDLERS),
    ("dcterms", &dcterms::HANDLERS),
    ("feedburner", &feedburner::HANDLERS),
    ("georss", &georss::HANDLERS),
    ("gml", &gml::HANDLERS),
    ("itunes", &itunes::HANDLERS),
    ("media", &media::HANDLERS),
    ("psc", &psc::HANDLERS),
    ("xhtml", &xhtml::HANDLERS),
];

/// The handlers for an element key (`dc_creator` → Dublin Core's, `title` → the core
/// formats'), by the key's prefix. Podcasting 2.0 (`podcast`) is not in the
/// table: it captures its elements and everything inside them before any handler.
pub(crate) fn handlers_for(key: &str) -> &'static Handlers {
    let prefix = key.split_once('_').map_or("", |(p, _)| p);
    TABLE
        .iter()
        .find(|(p, _)| *p == prefix)
        .map_or(&GENERIC, |(_, h)| h)
}

/// The prefix feedparser keys a namespace by (its URI lower-cased, as [`ns_key`] gives
/// it): this crate's table ([`canonical_prefix`]), then the program's
/// ([`crate::parse::ParseOptions::namespaces`]).
pub(crate) fn prefix_for<'a>(
    uri_lower: &str,
    extra: Option<&'a crate::parse::ExtraNamespaces>,
) -> Option<&'a str> {
    canonical_prefix(uri_lower).or_else(|| extra.and_then(|n| n.prefix(uri_lower)))
}

/// Known namespace URIs (lower-cased) and the prefix feedparser gives them.
pub(crate) fn canonical_prefix(uri_lower: &str) -> Option<&'static str> {
    Some(match uri_lower {
        ""
        | "http://backend.userland.com/rss"
        | "http://blogs.law.harvard.edu/tech/rss"
        | "http://purl.org/rss/1.0/"
        | "http://my.netscape.com/rdf/simple/0.9/"
        | "http://example.com/newformat#"
        | "http://example.com/necho"
        | "http://purl.org/echo/"
        | "uri/of/echo/namespace#"
        | "http://purl.org/pie/"
        | "http://purl.org/atom/ns#"
        | "http://www.w3.org/2005/atom"
        | "http://purl.org/rss/1.0/modules/rss091#" => "",
        "http://webns.net/mvcb/" => "admin",
        "http://purl.org/rss/1.0/modules/aggregation/" => "ag",
        "http://purl.org/rss/1.0/modules/annotate/" => "annotate",
        "http://media.tangent.org/rss/1.0/" => "audio",
        "http://backend.userland.com/blogchannelmodule" => "blogChannel",
        "http://creativecommons.org/ns#license" | "http://web.resource.org/cc/" => "cc",
        "http://cyber.law.harvard.edu/rss/creativecommonsrssmodule.html"
        | "http://backend.userland.com/creativecommonsrssmodule" => "creativeCommons",
        "http://purl.org/rss/1.0/modules/company" => "co",
        "http://purl.org/rss/1.0/modules/content/" => "content",
        "http://my.theinfo.org/changed/1.0/rss/" => "cp",
        "http://purl.org/dc/elements/1.1/" => "dc",
        "http://purl.org/dc/terms/" => "dcterms",
        "http://purl.org/rss/1.0/modules/email/" => "email",
        "http://purl.org/rss/1.0/modules/event/" => "ev",
        "http://rssnamespace.org/feedburner/ext/1.0" => "feedburner",
        "http://freshmeat.net/rss/fm/" => "fm",
        "http://xmlns.com/foaf/0.1/" => "foaf",
        "http://www.w3.org/2003/01/geo/wgs84_pos#" => "geo",
        "http://www.georss.org/georss" => "georss",
        "http://www.opengis.net/gml" => "gml",
        "http://postneo.com/icbm/" => "icbm",
        "http://purl.org/rss/1.0/modules/image/" => "image",
        "http://www.itunes.com/dtds/podcast-1.0.dtd"
        | "http://example.com/dtds/podcast-1.0.dtd" => "itunes",
        "http://purl.org/rss/1.0/modules/link/" => "l",
        "http://search.yahoo.com/mrss" | "http://search.yahoo.com/mrss/" => "media",
        "http://madskills.com/public/xml/rss/module/pingback/" => "pingback",
        "http://prismstandard.org/namespaces/1.2/basic/" => "prism",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#" => "rdf",
        "http://www.w3.org/2000/01/rdf-schema#" => "rdfs",
        "http://purl.org/rss/1.0/modules/reference/" => "ref",
        "http://purl.org/rss/1.0/modules/richequiv/" => "reqv",
        "http://purl.org/rss/1.0/modules/search/" => "search",
        "http://purl.org/rss/1.0/modules/slash/" => "slash",
        "http://schemas.xmlsoap.org/soap/envelope/" => "soap",
        "http://purl.org/rss/1.0/modules/servicestatus/" => "ss",
        "http://hacks.benhammersley.com/rss/streaming/" => "str",
        "http://purl.org/rss/1.0/modules/subscription/" => "sub",
        "http://purl.org/rss/1.0/modules/syndication/" => "sy",
        "http://schemas.pocketsoap.com/rss/mydescmodule/" => "szf",
        "http://purl.org/rss/1.0/modules/taxonomy/" => "taxo",
        "http://purl.org/rss/1.0/modules/threading/" => "thr",
        "http://purl.org/rss/1.0/modules/textinput/" => "ti",
        "http://madskills.com/public/xml/rss/module/trackback/" => "trackback",
        "http://wellformedweb.org/commentapi/" => "wfw",
        "http://purl.org/rss/1.0/modules/wiki/" => "wiki",
        "http://www.w3.org/1999/xhtml" => "xhtml",
        "http://www.w3.org/1999/xlink" => "xlink",
        "http://www.w3.org/xml/1998/namespace" => "xml",
        "http://podlove.org/simple-chapters" => "psc",
        "https://podcastindex.org/namespace/1.0"
        | "http://podcastindex.org/namespace/1.0"
        | "https://podcastindex.org/namespace/1.0/"
        | "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md" => {
            "podcast"
        }
        _ => return None,
    })
}

/// Normalises a namespace URI the way feedparser does (any backend.userland.com/rss URI
/// is one namespace).
/// The lower-cased, normalised form of a namespace URI used to look up its prefix
/// (allocates only when the URI needs changing).
pub(crate) fn ns_key(uri: &str) -> std::borrow::Cow<'_, str> {
    if uri.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) {
        let lower = uri.to_lowercase();
        if lower.contains("backend.userland.com/rss") {
            return "http://backend.userland.com/rss".into();
        }
        return lower.into();
    }
    if uri.contains("backend.userland.com/rss") {
        return "http://backend.userland.com/rss".into();
    }
    uri.into()
}

pub(crate) fn normalize_ns(uri: &str) -> (String, String) {
    let lower = uri.to_lowercase();
    if lower.contains("backend.userland.com/rss") {
        let u = "http://backend.userland.com/rss".to_owned();
        return (u.clone(), u);
    }
    (uri.to_owned(), lower)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{ParseOptions, parse_str};

    #[test]
    fn keys_go_to_the_namespace_of_their_prefix() {
        let is = |key, h: &Handlers| std::ptr::eq(handlers_for(key), h);
        assert!(is("title", &crate::parse::xml::core::HANDLERS));
        assert!(is("dc_creator", &dc::HANDLERS));
        assert!(is("dcterms_valid", &dcterms::HANDLERS));
        assert!(is("creativecommons_license", &cc::HANDLERS));
        assert!(is("cc_license", &cc::HANDLERS));
        assert!(is("media_content", &media::HANDLERS));
        assert!(is("sy_updateperiod", &GENERIC));
        // A prefix is the text before the first `_`, whatever follows.
        assert!(is("itunes_new_feed_url", &itunes::HANDLERS));
    }

    #[test]
    fn each_prefix_is_registered_once() {
        for (i, (p, _)) in TABLE.iter().enumerate() {
            assert!(!p.contains('_'), "{p}");
            assert!(TABLE[i + 1..].iter().all(|(q, _)| q != p), "{p}");
        }
    }

    #[test]
    fn registered_and_generic_namespaces_in_one_feed() {
        let r = parse_str(
            "<rss xmlns:dc='http://purl.org/dc/elements/1.1/' \
             xmlns:sy='http://purl.org/rss/1.0/modules/syndication/'><channel>\
             <dc:creator>A</dc:creator><sy:updatePeriod>hourly</sy:updatePeriod>\
             </channel></rss>",
            &ParseOptions::default(),
        );
        let feed = serde_json::to_value(&r.feed).unwrap();
        assert_eq!(feed["author"], "A");
        assert_eq!(feed["authors"][0]["name"], "A");
        assert_eq!(feed["sy_updateperiod"], "hourly");
    }
}
