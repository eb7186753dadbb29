//! The driver: namespace scopes, element names and the open elements, between the
//! events of either pass and the builder. It resolves each start tag's name and
//! attributes, closes elements as end tags come (mismatched ones included, for the
//! lenient pass), skips what is nested too deep, and hands the result over at the end.

use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

use super::attrs::dedup_attrs;
use super::builder::Builder;
use super::limits::Limit;
use super::names::{Name, NameCache, lower_in_place, lowercase_cow};
use super::ns::ns_key;
use super::scopes::Scopes;
use super::{Attr, Attrs};
use crate::bozo::{Bozo, BozoKind};
use crate::model::ParsedFeed;
use crate::parse::ParseOptions;

/// One open element as the driver sees it.
struct Open {
    name: Rc<Name>,
    scopes: usize,
}

/// Namespace resolution and event routing shared by both passes.
pub(crate) struct Driver<'o> {
    pub(super) builder: Builder,
    /// The room of the last start tag's attribute list, emptied, for the next one (one
    /// allocation per document instead of one per tag with attributes).
    spare_attrs: Vec<Attr<'static>>,
    /// The namespace declarations in scope, innermost last.
    pub(super) scopes: Scopes,
    /// Names already resolved in the current namespace scope (cleared when it changes).
    pub(super) names: NameCache,
    open: Vec<Open>,
    /// The open elements deeper than [`SHALLOW`], counted by a hash of their name, so
    /// that an end tag matching none of them is known at once.
    deep: DeepNames,
    pub(super) skipped_depth: usize,
    /// Borrowed by the whole-text passes; owned by the streaming reader, which outlives
    /// the options it was given.
    pub(super) options: Cow<'o, ParseOptions>,
    pub(super) strict: bool,
    /// The whole text is known to hold only XML characters (checked once, before the
    /// strict pass), so events need no character check of their own. False for the
    /// streaming reader, which never holds the whole text.
    pub(super) chars_checked: bool,
    /// The whole text is known to hold no carriage return, so texts need no line-end
    /// normalisation and no search for one. False for the streaming reader.
    pub(super) no_cr: bool,
    pub(super) entities: HashMap<String, String>,
    /// The text of a run of text and references ([`Driver::text_run`]), reused.
    pub(super) run: String,
    /// Where the last run [`Driver::text_run`] declined ends (an offset in the text).
    pub(super) no_run_before: usize,
    pub(super) expanded: usize,
    pub(super) bozo: Vec<Bozo>,
    /// The [`Limit`]s already recorded, as bits.
    pub(super) limits_noted: u8,
}

/// Open elements up to this depth are searched one by one when an end tag comes; the
/// deeper ones through [`DeepNames`].
const SHALLOW: usize = 32;

/// A counting filter of the names of the deep open elements (ASCII case folded, hashed
/// with a per-process random seed): a zero count means no deep element has the name.
#[derive(Default)]
struct DeepNames {
    counts: Vec<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl DeepNames {
    const BUCKETS: usize = 4096;

    fn bucket(&self, qname: &str) -> usize {
        use std::hash::{BuildHasher, Hasher};
        let mut h = self.hasher.build_hasher();
        for b in qname.bytes() {
            h.write_u8(b.to_ascii_lowercase());
        }
        (h.finish() % Self::BUCKETS as u64) as usize
    }

    fn add(&mut self, qname: &str) {
        if self.counts.is_empty() {
            self.counts = vec![0; Self::BUCKETS];
        }
        let b = self.bucket(qname);
        self.counts[b] += 1;
    }

    fn remove(&mut self, qname: &str) {
        let b = self.bucket(qname);
        if let Some(c) = self.counts.get_mut(b) {
            *c = c.saturating_sub(1);
        }
    }

    /// False only when no deep open element has this name.
    fn may_hold(&self, qname: &str) -> bool {
        self.counts.get(self.bucket(qname)).is_none_or(|&c| c > 0)
    }
}

/// An undeclared namespace prefix (strict pass only).
pub(super) struct Undeclared(pub(super) String);

/// `attrs` emptied, its room kept for attributes of another lifetime (the collection
/// reuses the allocation: same element type, nothing to move).
// `filter` would keep the lifetime; the point is a list of another one.
#[allow(clippy::unnecessary_filter_map)]
fn recycle_attrs<'b>(mut attrs: Attrs<'_>) -> Attrs<'b> {
    attrs.clear();
    attrs.into_iter().filter_map(|_| None).collect()
}

impl<'o> Driver<'o> {
    /// An empty attribute list with room for `n`, reusing the last start tag's.
    pub(super) fn attrs_with_capacity<'a>(&mut self, n: usize) -> Attrs<'a> {
        let mut out = recycle_attrs(std::mem::take(&mut self.spare_attrs));
        out.reserve(n);
        out
    }

    pub(super) fn new(
        options: Cow<'o, ParseOptions>,
        strict: bool,
        entities: HashMap<String, String>,
    ) -> Self {
        Driver {
            builder: Builder::new(
                options.base_language.clone(),
                options.base_uri.clone(),
                options.max_entries.max(1),
            )
            .html_options(
                options.sanitize_html,
                options.resolve_relative_uris,
                options.sanitize_policy.clone(),
            )
            .value_repair(options.value_repair)
            .unknown_budget(options.max_unknown_elements)
            .program_handlers(options.handlers.clone()),
            spare_attrs: Vec::new(),
            scopes: Scopes::default(),
            names: NameCache::default(),
            open: Vec::new(),
            deep: DeepNames::default(),
            skipped_depth: 0,
            options,
            strict,
            chars_checked: false,
            no_cr: false,
            entities,
            run: String::new(),
            no_run_before: 0,
            expanded: 0,
            bozo: Vec::new(),
            limits_noted: 0,
        }
    }

    pub(super) fn resolve(&self, prefix: Option<&str>) -> Option<&str> {
        if prefix == Some("xml") {
            return Some("http://www.w3.org/XML/1998/namespace");
        }
        self.scopes.resolve(prefix)
    }

    /// The attributes of an element that declares namespaces or has prefixed attribute
    /// names: declarations go into scope (xlink ones are kept), prefixed names of known
    /// namespaces are added under feedparser's prefix, those of other namespaces (strict
    /// pass) under their local name, every key is lower-cased.
    fn namespaced_attrs<'a>(
        &mut self,
        qname: &str,
        attrs: Attrs<'a>,
    ) -> Result<(Rc<Name>, Attrs<'a>), Undeclared> {
        let scopes_before = self.scopes.len();
        let mut plain = Vec::with_capacity(attrs.len());
        let mut xlink = Vec::new();
        for (k, v) in attrs {
            if k == "xmlns" {
                self.builder
                    .track_namespace(None, &v, self.options.namespaces.as_deref());
                self.scopes.push(None, v.into_owned());
            } else if let Some(p) = k.strip_prefix("xmlns:") {
                self.builder
                    .track_namespace(Some(p), &v, self.options.namespaces.as_deref());
                if v == "http://www.w3.org/1999/xlink" {
                    xlink.push((format!("xmlns:{}", p.to_lowercase()).into(), v.clone()));
                }
                self.scopes.push(Some(p), v.into_owned());
            } else {
                plain.push((k, v));
            }
        }
        if self.scopes.len() != scopes_before {
            self.names.clear();
            if scopes_before == 0 {
                self.reuse_names();
            }
        }
        let name = self.name_for(qname)?;
        let mut out = xlink;
        // feedparser's key for each prefixed name: its namespace's prefix (`itunes:` for
        // any prefix bound to the iTunes namespace), or none for a namespace it reads
        // unprefixed (Atom, RSS 1.0, …), where `a:href` is also `href`. Those come
        // first, so that an unprefixed attribute of the same name keeps its value (`rel`
        // over `atom:rel`, as in feedparser) when the duplicates are merged.
        let mut keyed = Vec::with_capacity(plain.len());
        for (k, _) in &plain {
            let key = match k.split_once(':') {
                Some((p, _)) => match self.resolve(Some(p)) {
                    // A namespace feedparser does not know: its strict parser keys the
                    // attribute by its local name too (`thr:count` is also `count`).
                    Some(uri) => self
                        .namespace_prefix(&ns_key(uri))
                        .or(self.strict.then_some("")),
                    None if self.strict && p != "xmlns" => {
                        return Err(Undeclared(p.to_owned()));
                    }
                    None => None,
                },
                None => None,
            };
            keyed.push(key);
        }
        for ((k, v), key) in plain.iter().zip(&keyed) {
            if let (Some(""), Some((_, local))) = (key, k.split_once(':')) {
                out.push((local.to_lowercase().into(), v.clone()));
            }
        }
        for ((k, v), key) in plain.into_iter().zip(keyed) {
            if let (Some(c), Some((_, local))) = (key.filter(|c| !c.is_empty()), k.split_once(':'))
            {
                out.push((format!("{c}:{local}").to_lowercase().into(), v.clone()));
            }
            out.push((lowercase_cow(k), v));
        }
        Ok((name, out))
    }

    pub(super) fn start(&mut self, qname: &str, attrs: Attrs<'_>) -> Result<(), Undeclared> {
        if self.skipped_depth > 0 || self.open.len() >= self.options.max_depth {
            self.skipped_depth += 1;
            self.note_limit(Limit::Depth);
            return Ok(());
        }
        let scopes_before = self.scopes.len();
        let (name, out) = if attrs.iter().any(|(k, _)| k == "xmlns" || k.contains(':')) {
            match self.namespaced_attrs(qname, attrs) {
                Ok(resolved) => resolved,
                Err(undeclared) => {
                    // The element's declarations leave scope again: the driver is as it
                    // was before this start tag, which the lenient pass reads afresh.
                    self.pop_scopes(scopes_before);
                    return Err(undeclared);
                }
            }
        } else {
            // No declarations and no prefixed names: only the keys change. A root that
            // declares nothing starts with the names of a recent such feed.
            if self.open.is_empty() && scopes_before == 0 && self.names.is_empty() {
                self.reuse_names();
            }
            let name = self.name_for(qname)?;
            let mut attrs = attrs;
            for (k, _) in &mut attrs {
                lower_in_place(k);
            }
            (name, attrs)
        };
        let mut attrs = dedup_attrs(out);
        self.builder.start(&name, &mut attrs);
        self.spare_attrs = recycle_attrs(attrs);
        if self.open.len() >= SHALLOW {
            self.deep.add(&name.qname);
        }
        self.open.push(Open {
            name,
            scopes: scopes_before,
        });
        Ok(())
    }

    pub(super) fn end(&mut self, qname: &str) {
        if self.skipped_depth > 0 {
            self.skipped_depth -= 1;
            return;
        }
        // The usual case (and the only one the strict pass lets through): the end tag
        // closes the innermost element, spelled the same.
        if self.open.last().is_some_and(|o| *o.name.qname == *qname) {
            self.pop_open(true);
            return;
        }
        // Only the shallow elements can match when no deep one has this name: an end
        // tag that matches nothing costs at most SHALLOW comparisons, however deep.
        let candidates = if self.open.len() > SHALLOW && !self.deep.may_hold(qname) {
            &self.open[..SHALLOW]
        } else {
            &self.open[..]
        };
        let Some(i) = candidates
            .iter()
            .rposition(|o| o.name.qname.eq_ignore_ascii_case(qname))
        else {
            // An end tag that closes nothing open is ignored.
            return;
        };
        // Elements left open inside it are closed first (innermost first), without an
        // end tag of their own in markup content, as feedparser leaves them.
        while self.open.len() > i + 1 {
            self.pop_open(false);
        }
        self.pop_open(true);
    }

    /// Closes the innermost open element; `tagged`: by an end tag of its own (else
    /// implicitly, by an ancestor's end tag or the end of the text: inside markup content
    /// it then writes no end tag, as feedparser's loose parser writes none for an element
    /// left open there).
    fn pop_open(&mut self, tagged: bool) {
        let Some(open) = self.open.pop() else {
            return;
        };
        if self.open.len() >= SHALLOW {
            self.deep.remove(&open.name.qname);
        }
        self.builder.end(&open.name, tagged);
        self.pop_scopes(open.scopes);
        if self.open.is_empty() && self.scopes.len() == 0 {
            // The root closed (one with declarations has stashed its names already).
            self.stash_names();
        }
    }

    /// Whether an HTML void element just started inside content (lenient pass: closed at
    /// once, since HTML never closes it).
    pub(super) fn void_in_content(&self, name: &str) -> bool {
        self.builder.in_content()
            && matches!(
                name.to_ascii_lowercase().as_str(),
                "area"
                    | "br"
                    | "col"
                    | "embed"
                    | "hr"
                    | "img"
                    | "input"
                    | "param"
                    | "source"
                    | "track"
                    | "wbr"
            )
    }

    /// Closes every element still open (the lenient pass at the end of the text).
    pub(super) fn close_all(&mut self) {
        self.skipped_depth = 0;
        self.builder.closing_at_end = true;
        while !self.open.is_empty() {
            self.pop_open(false);
        }
        self.builder.closing_at_end = false;
    }

    /// Drops the namespace declarations of a closed element.
    fn pop_scopes(&mut self, to: usize) {
        if self.scopes.len() > to {
            if to == 0 {
                self.stash_names();
            }
            self.scopes.truncate(to);
            self.names.clear();
        }
    }

    pub(super) fn text(&mut self, s: &str, escape: bool) {
        if self.skipped_depth > 0 {
            return;
        }
        if !self.strict && s.contains('\r') {
            // XML line-end normalisation, which the strict pass gets from quick-xml.
            let normalized = s.replace("\r\n", "\n").replace('\r', "\n");
            self.builder.data(&normalized, escape);
        } else {
            self.builder.data(s, escape);
        }
    }

    pub(super) fn finish(self, version: Option<&str>, mut bozo: Vec<Bozo>) -> ParsedFeed {
        let Driver {
            builder, bozo: own, ..
        } = self;
        // Repairs before the markup's records: a well-formedness error stays last, the
        // `bozo_exception` feedparser reports.
        bozo.extend(builder.repaired.records());
        bozo.extend(own);
        if builder.not_base64 > 0 {
            let n = builder.not_base64;
            bozo.push(
                Bozo::new(
                    BozoKind::InvalidBase64,
                    format!(
                        "{n} content value(s) marked base64 are not base64 text; kept as published"
                    ),
                )
                // feedparser keeps them so too, silently.
                .judged(),
            );
        }
        if builder.unknown_dropped > 0 {
            bozo.push(Bozo::new(
                BozoKind::LimitExceeded,
                format!(
                    "more than {} elements without a field in the model \
                     (ParseOptions::max_unknown_elements): {} more were skipped",
                    builder.unknown_limit, builder.unknown_dropped
                ),
            ));
        }
        if builder.entries_truncated {
            let max = builder.max_entries;
            bozo.push(Bozo::new(
                BozoKind::LimitExceeded,
                format!(
                    "more than {max} entries (ParseOptions::max_entries): the first {} and \
                     the last were kept, the others dropped",
                    max - 1
                ),
            ));
        }
        let version = version.map_or_else(|| builder.version.clone(), str::to_owned);
        // The per-entry bookkeeping is done with: freed before the model is built.
        let mut builder = builder;
        builder.property_depth = hashbrown::HashMap::new();
        for open in std::mem::take(&mut builder.entries) {
            builder.finalize(open.finish());
        }
        let feed = builder.feed.finish();
        let entries = builder.done;
        ParsedFeed {
            version,
            namespaces: builder.namespaces_in_use,
            feed,
            entries,
            bozo,
            handler_calls: builder.handler_calls,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recycled_attribute_list_keeps_its_room() {
        let owner = String::from("href");
        let mut attrs: Attrs<'_> = Vec::with_capacity(7);
        attrs.push((Cow::Borrowed(&owner), Cow::Borrowed("x")));
        let before = attrs.as_ptr();
        let again: Attrs<'static> = recycle_attrs(attrs);
        assert!(again.is_empty());
        assert_eq!(again.capacity(), 7);
        assert_eq!(again.as_ptr(), before);
    }
}
