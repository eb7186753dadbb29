//! The HTML filter on arbitrary markup. Invariant: re-parsed by an HTML5 parser
//! (html5ever, through scraper), alone and embedded in a page, sanitized output holds no
//! script-capable element, no event-handler attribute and no script URL.
//!
//! The first input byte picks the options: sanitize (always, so the invariant applies),
//! resolve or not, HTML or XHTML, and a base URI.
#![no_main]

use feed_decoder::html::{HtmlFilter, Markup};
use libfuzzer_sys::fuzz_target;
use scraper::{Html, Node};

const ACTIVE: &[&str] = &[
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta",
    "link", "style", "handler", "listener", "param", "portal", "import",
];
const URL_ATTRS: &[&str] = &[
    "href", "src", "action", "formaction", "background", "poster", "xlink:href", "data",
    "codebase", "dynsrc", "lowsrc", "cite", "longdesc", "usemap", "classid", "srcset",
];

fn check(page: &str, output: &str) {
    let doc = Html::parse_fragment(page);
    for node in doc.tree.nodes() {
        let Node::Element(e) = node.value() else { continue };
        let name = e.name().to_ascii_lowercase();
        assert!(!ACTIVE.contains(&name.as_str()), "<{name}> in {output:?}");
        for (attr, value) in e.attrs() {
            let attr = attr.to_ascii_lowercase();
            assert!(!attr.starts_with("on"), "{attr} in {output:?}");
            let url: String = value
                .trim_matches(|c: char| c <= ' ')
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect::<String>()
                .to_ascii_lowercase();
            if URL_ATTRS.contains(&attr.as_str()) {
                assert!(
                    !url.starts_with("javascript:") && !url.starts_with("vbscript:"),
                    "script URL {value:?} in {output:?}"
                );
                assert!(
                    !url.starts_with("data:")
                        || (url.starts_with("data:image/") && !url.starts_with("data:image/svg"))
                        || url.starts_with("data:audio/")
                        || url.starts_with("data:video/"),
                    "data URL {value:?} in {output:?}"
                );
            }
            if attr == "style" {
                assert!(
                    !["expression", "url(", "javascript", "behavior", "binding"]
                        .iter()
                        .any(|p| url.contains(p)),
                    "style {value:?} in {output:?}"
                );
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let input = String::from_utf8_lossy(rest);
    let markup = if selector & 1 != 0 { Markup::Xhtml } else { Markup::Html };
    let base = match (selector >> 1) & 3 {
        0 => None,
        1 => Some("http://example.com/a/b"),
        2 => Some("javascript:alert(1)"),
        _ => Some("relative/base"),
    };
    let filter = HtmlFilter::new()
        .resolve(selector & 0x08 != 0)
        .base(base)
        .markup(markup);
    let output = filter.apply(&input);
    check(&output, &output);
    check(&format!("<div>{output}</div><p title=\"x\">after</p>"), &output);
});
