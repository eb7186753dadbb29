//! Hostile feed shapes, generated at a given size, and a plain feed to compare them with.
//! Shared by `tests/hostile.rs` (bounded sizes, result and relative time) and
//! `benches/hostile.rs` (each shape against the plain feed of the same size).

#![allow(dead_code)]

use std::fmt::Write;

const HEAD: &str =
    "<?xml version='1.0' encoding='utf-8'?>\n<rss version='2.0'><channel><title>t</title>";
const TAIL: &str = "</channel></rss>\n";

/// A markup error early in the channel: the strict pass stops there and the lenient
/// pass reads the whole document.
const BREAK: &str = "<x>&bogus;</x>";

/// One hostile shape: how to make it of about `size` bytes.
pub struct Shape {
    pub name: &'static str,
    pub make: fn(usize) -> String,
}

/// Every shape, well-formed ones first, then the same through the lenient pass.
pub const SHAPES: &[Shape] = &[
    Shape {
        name: "distinct-children",
        make: |n| distinct_children(n, false),
    },
    Shape {
        name: "distinct-attributes",
        make: |n| distinct_attributes(n, false),
    },
    Shape {
        name: "namespace-declarations",
        make: namespace_declarations,
    },
    Shape {
        name: "namespace-prefixes",
        make: namespace_prefixes,
    },
    Shape {
        name: "nested-namespaces",
        make: nested_namespaces,
    },
    Shape {
        name: "channel-children",
        make: channel_children,
    },
    Shape {
        name: "long-line",
        make: long_line,
    },
    Shape {
        name: "empty-entries",
        make: empty_entries,
    },
    Shape {
        name: "entity-references",
        make: entity_references,
    },
    Shape {
        name: "xhtml-content",
        make: xhtml_content,
    },
    Shape {
        name: "lenient-children",
        make: |n| distinct_children(n, true),
    },
    Shape {
        name: "lenient-attributes",
        make: |n| distinct_attributes(n, true),
    },
    Shape {
        name: "lenient-duplicate-attributes",
        make: duplicate_attributes,
    },
    Shape {
        name: "lenient-unclosed",
        make: unclosed,
    },
    Shape {
        name: "lenient-unmatched-ends",
        make: unmatched_ends,
    },
];

fn wrap(body: &str, broken: bool) -> String {
    let mut s = String::with_capacity(body.len() + 200);
    s.push_str(HEAD);
    if broken {
        s.push_str(BREAK);
    }
    s.push_str(body);
    s.push_str(TAIL);
    s
}

/// A plain RSS 2.0 feed of about `size` bytes: items with a title, link, description,
/// date and guid.
pub fn plain(size: usize) -> String {
    let mut body = String::with_capacity(size + 300);
    let mut i = 0;
    while body.len() < size {
        let _ = writeln!(
            body,
            "<item><title>Item {i}</title><link>http://example.com/{i}</link>\
             <description>Some text for item {i} &amp; more</description>\
             <pubDate>Mon, 06 Sep 2010 00:01:00 +0000</pubDate>\
             <guid>http://example.com/{i}</guid></item>"
        );
        i += 1;
    }
    wrap(&body, false)
}

/// Repeats `piece(i)` until `size` bytes; returns the body and the count.
fn repeat(size: usize, mut piece: impl FnMut(&mut String, usize)) -> (String, usize) {
    let mut body = String::with_capacity(size + 100);
    let mut i = 0;
    while body.len() < size {
        piece(&mut body, i);
        i += 1;
    }
    (body, i)
}

/// One item with ever new child element names (`<e0>x</e0><e1>x</e1>…`).
pub fn distinct_children(size: usize, broken: bool) -> String {
    let (body, _) = repeat(size, |b, i| {
        let _ = write!(b, "<e{i}>x</e{i}>");
    });
    wrap(&format!("<item>{body}</item>"), broken)
}

/// One element with ever new attribute names.
pub fn distinct_attributes(size: usize, broken: bool) -> String {
    let (body, _) = repeat(size, |b, i| {
        let _ = write!(b, " a{i}='v'");
    });
    wrap(&format!("<item><title{body}>x</title></item>"), broken)
}

/// One element with the same hundred attribute names over and over (lenient pass).
pub fn duplicate_attributes(size: usize) -> String {
    let (body, _) = repeat(size, |b, i| {
        let _ = write!(b, " a{}='v{i}'", i % 100);
    });
    wrap(&format!("<item><title{body}>x</title></item>"), true)
}

/// One element declaring ever new namespace prefixes.
pub fn namespace_declarations(size: usize) -> String {
    let (body, _) = repeat(size, |b, i| {
        let _ = write!(b, " xmlns:p{i}='http://example.com/ns/{i}'");
    });
    wrap(&format!("<item><title{body}>x</title></item>"), false)
}

/// The root declares many prefixes; the item's children use them all, in turn.
pub fn namespace_prefixes(size: usize) -> String {
    let prefixes = (size / 200).max(1);
    let mut decls = String::new();
    for i in 0..prefixes {
        let _ = write!(decls, " xmlns:p{i}='http://example.com/ns/{i}'");
    }
    let (body, _) = repeat(size.saturating_sub(decls.len()), |b, i| {
        let p = i % prefixes;
        let _ = write!(b, "<p{p}:x>y</p{p}:x>");
    });
    format!(
        "<?xml version='1.0'?>\n<rss version='2.0'{decls}><channel><title>t</title>\
         <item>{body}</item>{TAIL}"
    )
}

/// Elements nested as deep as the input allows, each declaring its own prefix.
pub fn nested_namespaces(size: usize) -> String {
    let (open, n) = repeat(size / 2, |b, i| {
        let _ = write!(b, "<p{i}:x xmlns:p{i}='http://example.com/ns/{i}'>");
    });
    let mut close = String::with_capacity(size / 2);
    for i in (0..n).rev() {
        let _ = write!(close, "</p{i}:x>");
    }
    wrap(&format!("<item>{open}{close}</item>"), false)
}

/// The channel itself with ever new child element names.
pub fn channel_children(size: usize) -> String {
    let (body, _) = repeat(size, |b, i| {
        let _ = write!(b, "<c{i}>x</c{i}>");
    });
    wrap(&body, false)
}

/// One item whose title is a single line of `size` bytes.
pub fn long_line(size: usize) -> String {
    let word = "lorem ipsum &amp; dolor sit amet ";
    let text = word.repeat(size / word.len() + 1);
    wrap(&format!("<item><title>{text}</title></item>"), false)
}

/// Ever more empty items.
pub fn empty_entries(size: usize) -> String {
    let (body, _) = repeat(size, |b, _| b.push_str("<item/>"));
    wrap(&body, false)
}

/// A description made of character and entity references only.
pub fn entity_references(size: usize) -> String {
    let (body, _) = repeat(size, |b, i| {
        b.push_str(if i % 2 == 0 { "&amp;" } else { "&#233;" });
    });
    wrap(
        &format!("<item><description>{body}</description></item>"),
        false,
    )
}

/// Atom-style XHTML content with many sibling elements carrying attributes.
pub fn xhtml_content(size: usize) -> String {
    let (body, _) = repeat(size, |b, i| {
        let _ = write!(b, "<p class='c{i}' title='t'>para <b>{i}</b></p>");
    });
    wrap(
        &format!(
            "<item><content:encoded xmlns:content='http://purl.org/rss/1.0/modules/content/'>\
             <![CDATA[{body}]]></content:encoded><description>{}</description></item>",
            body.replace('<', "&lt;")
        ),
        false,
    )
}

/// Elements opened and never closed (lenient pass, depth limit).
pub fn unclosed(size: usize) -> String {
    let (body, _) = repeat(size, |b, i| {
        let _ = write!(b, "<u{}>t", i % 50);
    });
    wrap(&format!("<item>{body}</item>"), true)
}

/// Elements nested 400 deep, then end tags that match none of them, then the real ends
/// (lenient pass).
pub fn unmatched_ends(size: usize) -> String {
    let mut open = String::new();
    let mut close = String::new();
    for i in 0..400 {
        let _ = write!(open, "<d{}>", i % 7);
    }
    for i in (0..400).rev() {
        let _ = write!(close, "</d{}>", i % 7);
    }
    let (body, _) = repeat(size.saturating_sub(open.len() * 2), |b, i| {
        let _ = write!(b, "</z{}>", i % 1000);
    });
    wrap(
        &format!("<item>{open}{body}{close}<title>after</title></item>"),
        true,
    )
}
