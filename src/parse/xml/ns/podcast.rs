//! The Podcasting 2.0 namespace (`https://podcastindex.org/namespace/1.0`, prefix
//! `podcast`): every element, repeated ones included, into the `podcast` object of the
//! channel or item it belongs to ([`crate::model::Podcast`]).
//!
//! A `podcast:` element and everything inside it is taken here before the builder's own
//! handlers see it: its attributes, its text (`content`) and its nested elements (lists
//! under their names) become one object appended to `podcast.NAME`. So a `podcast:liveItem`
//! keeps its `title`, `enclosure` and `guid` to itself instead of overwriting the
//! channel's, and every `podcast:valueRecipient` of a `podcast:value` is kept.
//!
//! Element and attribute names are given the specification's spelling (`valueRecipient`,
//! `feedGuid`) since the parser lower-cases them; unknown ones stay as parsed.

use crate::parse::xml::Attr;
use crate::parse::xml::builder::Builder;
use crate::parse::xml::dict::{Key, Map, Value, jv};

/// The elements being read, innermost last.
#[derive(Default)]
pub(crate) struct State {
    stack: Vec<Node>,
}

impl State {
    /// Whether a `podcast:` element is being read (it takes the text).
    pub(in crate::parse::xml) fn reading(&self) -> bool {
        !self.stack.is_empty()
    }
}

struct Node {
    name: Key,
    attrs: Map,
    text: String,
}

/// The specification's spelling of a lower-cased element name.
fn element_name(local: &str) -> Key {
    Key::Borrowed(match local {
        "alternateenclosure" => "alternateEnclosure",
        "valuerecipient" => "valueRecipient",
        "valuetimesplit" => "valueTimeSplit",
        "liveitem" => "liveItem",
        "contentlink" => "contentLink",
        "socialinteract" => "socialInteract",
        "remoteitem" => "remoteItem",
        "updatefrequency" => "updateFrequency",
        "transcript" => "transcript",
        "chapters" => "chapters",
        "person" => "person",
        "location" => "location",
        "season" => "season",
        "episode" => "episode",
        "soundbite" => "soundbite",
        "funding" => "funding",
        "locked" => "locked",
        "guid" => "guid",
        "value" => "value",
        "source" => "source",
        "integrity" => "integrity",
        "trailer" => "trailer",
        "license" => "license",
        "images" => "images",
        "image" => "image",
        "txt" => "txt",
        "podroll" => "podroll",
        "medium" => "medium",
        "block" => "block",
        "podping" => "podping",
        "chat" => "chat",
        "publisher" => "publisher",
        other => return Key::Owned(other.to_owned()),
    })
}

/// The specification's spelling of a lower-cased attribute name.
fn attr_name(name: &str) -> Key {
    Key::Borrowed(match name {
        "customkey" => "customKey",
        "customvalue" => "customValue",
        "feedguid" => "feedGuid",
        "itemguid" => "itemGuid",
        "feedurl" => "feedUrl",
        "starttime" => "startTime",
        "remotestarttime" => "remoteStartTime",
        "remotepercentage" => "remotePercentage",
        "accountid" => "accountId",
        "accounturl" => "accountUrl",
        "usespodping" => "usesPodping",
        "contenttype" => "contentType",
        "url" => "url",
        "type" => "type",
        "href" => "href",
        other => return Key::Owned(other.to_owned()),
    })
}

/// The name a nested element is kept under: a `podcast:` one by its specification
/// name, any other by the parser's key (`title`, `enclosure`, `itunes_image`).
fn child_name(key: &str) -> Key {
    match key.strip_prefix("podcast_") {
        Some(local) => element_name(local),
        None => Key::Owned(key.to_owned()),
    }
}

impl State {
    fn capturing(&self) -> bool {
        !self.stack.is_empty()
    }
}

/// A start tag: taken (true) when it is a `podcast:` element or inside one.
pub(in crate::parse::xml) fn start(b: &mut Builder, key: &str, attrs: &[Attr<'_>]) -> bool {
    let name = if b.podcast.capturing() {
        child_name(key)
    } else {
        match key.strip_prefix("podcast_") {
            Some(local) => element_name(local),
            None => return false,
        }
    };
    let mut map = Map::with_capacity(attrs.len() + 1);
    for (k, v) in attrs {
        if k.starts_with("xmlns") {
            continue;
        }
        map.insert(attr_name(k), Value::String(v.to_string()));
    }
    b.podcast.stack.push(Node {
        name,
        attrs: map,
        text: String::new(),
    });
    true
}

/// Text: taken (true) inside a `podcast:` element.
pub(in crate::parse::xml) fn text(b: &mut Builder, text: &str) -> bool {
    match b.podcast.stack.last_mut() {
        Some(node) => {
            node.text.push_str(text);
            true
        }
        None => false,
    }
}

/// An end tag: taken (true) inside a `podcast:` element. The finished element goes into
/// its parent, or into `podcast.NAME` of the current channel or item.
pub(in crate::parse::xml) fn end(b: &mut Builder) -> bool {
    let Some(node) = b.podcast.stack.pop() else {
        return false;
    };
    let Node {
        name,
        mut attrs,
        text,
    } = node;
    let text = crate::parse::xml::builder::trim_py(&text);
    if !text.is_empty() {
        // An attribute called `content` (none in the specification) keeps its place.
        attrs
            .entry(Key::Borrowed("content"))
            .or_insert_with(|| Value::String(text.to_owned()));
    }
    let element = Value::Object(attrs);
    let target = match b.podcast.stack.last_mut() {
        Some(parent) => &mut parent.attrs,
        None => {
            let p = b.ctx().value_or_insert("podcast".into(), jv!({}));
            if !p.is_object() {
                *p = jv!({});
            }
            p.as_object_mut().expect("object")
        }
    };
    let list = target.entry(name).or_insert_with(|| jv!([]));
    if list.as_array().is_none() {
        // An attribute named like a child element (not in the specification): kept as
        // the list's first element, as its text.
        let attr = std::mem::replace(list, jv!([]));
        if let Some(a) = list.as_array_mut() {
            a.push(jv!({ "content": attr }));
        }
    }
    if let Some(a) = list.as_array_mut() {
        a.push(element);
    }
    true
}
