//! Namespace declarations in scope, and the bindings they make.

use std::collections::HashMap;

/// Namespace bindings: each prefix in scope (`None`: the default namespace) and its URI.
pub(super) type Bindings = Vec<(Option<Box<str>>, Box<str>)>;

/// Namespace declarations in scope: the order they were made (to undo them when their
/// element closes) and, per prefix, the stack of URIs bound to it, so that resolving a
/// prefix costs one hash lookup however many declarations are in scope.
#[derive(Default)]
pub(super) struct Scopes {
    /// The prefix of each declaration, in document order (`None`: the default namespace).
    pub(super) order: Vec<Option<Box<str>>>,
    pub(super) default: Vec<String>,
    pub(super) prefixed: HashMap<Box<str>, Vec<String>>,
}

impl Scopes {
    pub(super) fn len(&self) -> usize {
        self.order.len()
    }

    pub(super) fn push(&mut self, prefix: Option<&str>, uri: String) {
        match prefix {
            None => self.default.push(uri),
            Some(p) => self.prefixed.entry(p.into()).or_default().push(uri),
        }
        self.order.push(prefix.map(Into::into));
    }

    pub(super) fn resolve(&self, prefix: Option<&str>) -> Option<&str> {
        match prefix {
            None => self.default.last(),
            Some(p) => self.prefixed.get(p).and_then(|s| s.last()),
        }
        .map(String::as_str)
    }

    /// Every prefix in scope (`None`: the default namespace) and the URI bound to it.
    pub(super) fn bindings(&self) -> Bindings {
        let mut out: Bindings = self
            .prefixed
            .iter()
            .filter_map(|(p, stack)| Some((Some(p.clone()), stack.last()?.as_str().into())))
            .collect();
        if let Some(uri) = self.default.last() {
            out.push((None, uri.as_str().into()));
        }
        out
    }

    /// How many prefixes (and the default namespace) are bound.
    pub(super) fn bound(&self) -> usize {
        self.prefixed.len() + usize::from(!self.default.is_empty())
    }

    /// Whether exactly `bindings` are in scope.
    pub(super) fn binds(&self, bindings: &Bindings) -> bool {
        self.bound() == bindings.len()
            && bindings
                .iter()
                .all(|(p, uri)| self.resolve(p.as_deref()) == Some(&**uri))
    }

    /// Undoes the declarations made after the first `to`.
    pub(super) fn truncate(&mut self, to: usize) {
        while self.order.len() > to {
            match self.order.pop().flatten() {
                None => {
                    self.default.pop();
                }
                Some(p) => {
                    if let Some(stack) = self.prefixed.get_mut(&p) {
                        stack.pop();
                        if stack.is_empty() {
                            self.prefixed.remove(&p);
                        }
                    }
                }
            }
        }
    }
}
