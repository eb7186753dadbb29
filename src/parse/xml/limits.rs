//! The limits of [`ParseOptions`] the XML driver checks where the input grows, each
//! recorded once as a `LimitExceeded` record when the input reaches it.

use super::driver::Driver;
use crate::bozo::{Bozo, BozoKind};
use crate::parse::ParseOptions;

/// A limit of [`ParseOptions`] that the input reached.
#[derive(Clone, Copy)]
pub(super) enum Limit {
    Depth = 1,
    EntityExpansion = 2,
    Attributes = 4,
}

impl Limit {
    pub(super) fn message(self, o: &ParseOptions) -> String {
        match self {
            Limit::Depth => format!(
                "elements nested deeper than {} levels (ParseOptions::max_depth) were skipped \
                 with their content",
                o.max_depth
            ),
            Limit::Attributes => format!(
                "an element had more than {} attributes (ParseOptions::max_attributes); \
                 the rest were ignored",
                o.max_attributes
            ),
            Limit::EntityExpansion => format!(
                "internal entities expanded to more than {} bytes \
                 (ParseOptions::max_entity_expansion); references beyond it were left as written",
                o.max_entity_expansion
            ),
        }
    }
}

impl<'o> Driver<'o> {
    /// Records a limit reached (once per limit).
    pub(super) fn note_limit(&mut self, limit: Limit) {
        if self.limits_noted & limit as u8 == 0 {
            self.limits_noted |= limit as u8;
            let message = limit.message(&self.options);
            self.bozo.push(Bozo::new(BozoKind::LimitExceeded, message));
        }
    }
}
