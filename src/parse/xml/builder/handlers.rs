//! Elements the program handles itself ([`crate::parse::ParseOptions::handlers`]): the
//! calls feedparser would make to the `_start_…`/`_end_…` methods a program adds to its
//! parser class, recorded as [`HandlerCall`]s instead of storing the element under its
//! key, for the program's handlers to be called with once the parse is done.

use super::{Builder, Ctx};
use crate::model::{HandlerCall, HandlerContext};
use crate::parse::xml::Attrs;

impl Builder {
    /// Sets the elements the program handles itself.
    pub(crate) fn program_handlers(
        mut self,
        handlers: Option<std::sync::Arc<crate::parse::ElementHandlers>>,
    ) -> Self {
        self.handlers = handlers.filter(|h| !h.start.is_empty() || !h.end.is_empty());
        self
    }

    /// Where feedparser's `_get_context()` points now.
    fn handler_context(&self) -> HandlerContext {
        // The open entry's index: the final ones come first.
        let entry = || (self.final_count() + self.entries.len()).saturating_sub(1);
        match self.ctx_kind() {
            Ctx::Feed => HandlerContext::Feed,
            Ctx::Entry => HandlerContext::Entry(entry()),
            Ctx::Image => HandlerContext::Image,
            Ctx::TextInput => HandlerContext::TextInput,
            Ctx::Source => HandlerContext::Source(entry()),
        }
    }

    /// The start tag of an element this crate reads nothing from: when the program
    /// handles its start, the call is recorded and the element left to it (`true`).
    pub(in crate::parse::xml) fn program_start(&mut self, key: &str, attrs: &Attrs<'_>) -> bool {
        if !self.handlers.as_ref().is_some_and(|h| h.has(key, false)) {
            return false;
        }
        // Each call spends one of the budget of keys without a field, as the element
        // would have (a million such elements cannot make the calls cost many times
        // their size).
        if !self.spend_unknown() {
            return true;
        }
        let call = HandlerCall {
            key: key.to_owned(),
            end: false,
            context: self.handler_context(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            text: None,
        };
        self.handler_calls.push(call);
        true
    }

    /// The end tag of an element this crate reads nothing from: when the program handles
    /// its end, the call is recorded with the element's text, which is not stored
    /// (`true`); the text is the one `self.pop(key)` would return, or none when the
    /// element was left to a start handler.
    pub(in crate::parse::xml) fn program_end(&mut self, key: &str) -> bool {
        if !self.handlers.as_ref().is_some_and(|h| h.has(key, true)) {
            return false;
        }
        let open = self.stack.last().is_some_and(|e| e.name == key);
        if !self.spend_unknown() {
            if open {
                self.stack.pop();
            }
            return true;
        }
        let text = if open {
            self.stack
                .pop()
                .map(|e| super::super::text::trim_value(&e.text).to_owned())
        } else {
            None
        };
        let call = HandlerCall {
            key: key.to_owned(),
            end: true,
            context: self.handler_context(),
            attrs: Vec::new(),
            text,
        };
        self.handler_calls.push(call);
        true
    }
}
