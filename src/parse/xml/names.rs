//! Element names resolved once: a qualified name in its namespace scope gives
//! feedparser's tag (`prefix:local`, lower-cased), its handler key (`prefix_local`) and
//! its namespace's handlers ([`Name`]). The driver keeps the names of the current scope
//! ([`NameCache`]) and hands the names resolved under a root's bindings on to the next
//! feed this thread parses with the same bindings ([`NAME_STASH`]).

use std::borrow::Cow;
use std::rc::Rc;

use super::driver::{Driver, Undeclared};
use super::ns::{self, ns_key};
use super::scopes::Bindings;

/// An element name as the builder sees it: feedparser's tag (`prefix:local`, lower-cased)
/// and handler key (`prefix_local`), computed once per qualified name and namespace
/// scope.
pub(crate) struct Name {
    pub(super) qname: Rc<str>,
    pub(crate) tag: Rc<str>,
    pub(crate) key: Rc<str>,
    pub(crate) ns: Option<&'static str>,
    /// The element handlers of the key's namespace ([`ns::handlers_for`]).
    pub(crate) handlers: &'static ns::Handlers,
    /// Where the local part of `tag` starts: after its first `:`, else 0.
    pub(super) local_at: usize,
}

impl Name {
    /// The three strings share one allocation when they are equal (a lower-case name
    /// without a prefix, the usual case).
    pub(super) fn new(qname: &str, tag: String, ns: Option<&'static str>) -> Rc<Name> {
        let tag: Rc<str> = tag.into();
        let key: Rc<str> = match tag.split_once(':') {
            Some((prefix, suffix)) if !prefix.is_empty() => format!("{prefix}_{suffix}").into(),
            Some((_, suffix)) => suffix.into(),
            None => tag.clone(),
        };
        let qname = if *qname == *tag {
            tag.clone()
        } else {
            qname.into()
        };
        let handlers = ns::handlers_for(&key);
        let local_at = tag.find(':').map_or(0, |i| i + 1);
        Rc::new(Name {
            qname,
            tag,
            key,
            ns,
            handlers,
            local_at,
        })
    }

    /// The part of `tag` before its first `:` (empty without one).
    pub(crate) fn prefix(&self) -> &str {
        &self.tag[..self.local_at.saturating_sub(1)]
    }

    /// The part of `tag` after its first `:` (all of it without one).
    pub(crate) fn local(&self) -> &str {
        &self.tag[self.local_at..]
    }
}

/// The most element names [`Driver`] keeps resolved.
const MAX_CACHED_NAMES: usize = 256;

/// Resolved element names by qualified name (foldhash, hashbrown's default: fast on
/// short names, seeded per process).
pub(super) type NameCache = hashbrown::HashMap<Box<str>, Rc<Name>>;

/// How many root scopes [`NAME_STASH`] keeps names for.
pub(super) const STASHED_SCOPES: usize = 4;

/// The most namespace bindings a root scope kept in [`NAME_STASH`] may have.
pub(super) const MAX_STASHED_BINDINGS: usize = 64;

thread_local! {
    /// The names the last feeds parsed on this thread resolved under their root's
    /// namespace bindings, with those bindings, most recent first. Feeds of one batch
    /// mostly come from a few generators that declare the same namespaces: a feed whose
    /// root binds the same URIs as one of these starts with its names instead of
    /// resolving each again. At most [`STASHED_SCOPES`] caches of at most
    /// [`MAX_CACHED_NAMES`] names each.
    pub(super) static NAME_STASH: std::cell::RefCell<Vec<(Bindings, NameCache)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `s` lower-cased, reusing the string when it has nothing to lower.
pub(crate) fn lowercase_owned(mut s: String) -> String {
    if s.is_ascii() {
        s.make_ascii_lowercase();
        s
    } else {
        s.to_lowercase()
    }
}

/// [`lowercase_owned`] of a name or value that may be borrowed: it stays borrowed when it
/// has nothing to lower.
pub(crate) fn lowercase_cow(s: Cow<'_, str>) -> Cow<'_, str> {
    match s {
        Cow::Borrowed(b) => lowercase(b),
        Cow::Owned(o) => Cow::Owned(lowercase_owned(o)),
    }
}

/// `s` lower-cased, borrowed when it has nothing to lower.
pub(crate) fn lowercase(s: &str) -> Cow<'_, str> {
    if has_upper(s) {
        Cow::Owned(s.to_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether `s` may have something to lower: an ASCII capital or a non-ASCII character
/// (one pass over the bytes).
#[inline]
fn has_upper(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii())
}

/// [`lowercase_cow`] in place: nothing moves when there is nothing to lower (most
/// attribute names).
#[inline]
pub(crate) fn lower_in_place(s: &mut Cow<'_, str>) {
    if has_upper(s) {
        *s = lowercase_cow(std::mem::take(s));
    }
}

impl<'o> Driver<'o> {
    /// [`ns::prefix_for`] with the options' namespaces.
    pub(super) fn namespace_prefix(&self, uri_key: &str) -> Option<&str> {
        ns::prefix_for(uri_key, self.options.namespaces.as_deref())
    }

    /// Computes feedparser's tag for a qualified name in the current scope. `Err` holds
    /// an undeclared prefix.
    fn tag_for(&self, qname: &str) -> Result<(String, Option<&'static str>), String> {
        let (given, local) = match qname.split_once(':') {
            Some((p, l)) if !p.is_empty() => (Some(p), l),
            _ => (None, qname),
        };
        let uri = self.resolve(given);
        if given.is_some() && uri.is_none() {
            return Err(given.unwrap_or_default().to_owned());
        }
        let lower = ns_key(uri.unwrap_or(""));
        let mut tag = String::with_capacity(qname.len() + 8);
        match self.namespace_prefix(&lower) {
            Some(p) if !p.is_empty() => {
                tag.push_str(p);
                tag.make_ascii_lowercase();
                tag.push(':');
            }
            Some(_) => {}
            None => {
                if let Some(g) = given {
                    tag.push_str(&lowercase(g));
                    tag.push(':');
                }
            }
        }
        tag.push_str(&lowercase(local));
        let special = match uri {
            Some("http://www.w3.org/1998/Math/MathML") => {
                Some("http://www.w3.org/1998/Math/MathML")
            }
            Some("http://www.w3.org/2000/svg") => Some("http://www.w3.org/2000/svg"),
            _ => None,
        };
        Ok((tag, special))
    }

    /// The name of `qname` in the current scope, from the cache when possible.
    pub(super) fn name_for(&mut self, qname: &str) -> Result<Rc<Name>, Undeclared> {
        if let Some(n) = self.names.get(qname) {
            return Ok(n.clone());
        }
        match self.tag_for(qname) {
            Ok((tag, ns)) => {
                let name = Name::new(qname, tag, ns);
                if self.names.len() >= MAX_CACHED_NAMES {
                    // Bounded, whatever the hash: a feed with endless distinct names (or
                    // crafted collisions) only loses the cache.
                    self.names.clear();
                }
                self.names.insert(qname.into(), name.clone());
                Ok(name)
            }
            Err(prefix) if self.strict => Err(Undeclared(prefix)),
            Err(_) => Ok(Name::new(qname, qname.to_lowercase(), None)),
        }
    }

    /// Keeps the names resolved under the root's declarations for the next feed this
    /// thread parses ([`NAME_STASH`]).
    pub(super) fn stash_names(&mut self) {
        // A root with more declarations than any feed needs (a hostile one) is not
        // kept: the stash outlives the feed.
        // Names keyed through a program's namespaces are that parse's only.
        if self.names.is_empty()
            || self.scopes.bound() > MAX_STASHED_BINDINGS
            || self.options.namespaces.is_some()
        {
            return;
        }
        let names = std::mem::take(&mut self.names);
        let bindings = self.scopes.bindings();
        NAME_STASH.with(|stash| {
            let mut stash = stash.borrow_mut();
            stash.retain(|(b, _)| *b != bindings);
            if stash.len() >= STASHED_SCOPES {
                stash.pop();
            }
            stash.insert(0, (bindings, names));
        });
    }

    /// Takes the names a recent feed resolved, when its root bound every prefix (and the
    /// default namespace) to what this root binds them to: a name is a function of the
    /// qualified name and the URI its prefix is bound to, nothing else (and of the
    /// program's namespaces: a parse with some reuses no names).
    pub(super) fn reuse_names(&mut self) {
        if self.options.namespaces.is_some() {
            return;
        }
        NAME_STASH.with(|stash| {
            let mut stash = stash.borrow_mut();
            if let Some(i) = stash.iter().position(|(b, _)| self.scopes.binds(b)) {
                self.names = stash.remove(i).1;
            }
        });
    }
}
