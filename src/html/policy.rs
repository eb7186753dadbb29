//! Allow-lists chosen by the caller: [`SanitizePolicy`].
//!
//! The sanitizer's default lists are feedparser 6.0.14's, compiled into `match`es and
//! sorted tables ([`super::lists`]); that path never looks at a policy. A policy is
//! consulted only when one is given ([`super::HtmlFilter::policy`],
//! [`crate::ParseOptions::sanitize_policy`]), through hash sets built from the defaults
//! and changed by the caller, the way programs change feedparser's
//! `_HTMLSanitizer.acceptable_elements` and its sibling sets.

use std::collections::{HashMap, HashSet};

use super::lists;

/// One of the sanitizer's allow-lists, named after the class attribute of feedparser's
/// `_HTMLSanitizer` that holds it ([`AllowList::feedparser_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AllowList {
    /// `acceptable_elements`: HTML elements kept, with their acceptable attributes. An
    /// element not on it is unwrapped (its text kept), unless it is on
    /// [`AllowList::ElementsDroppedWithContent`]. It is also the list feedparser's guess
    /// "this plain text is HTML" reads: every tag of such a text must be on it.
    Elements,
    /// `acceptable_attributes`: attributes kept on HTML elements.
    Attributes,
    /// `unacceptable_elements_with_end_tag`: elements not kept that are dropped with
    /// their content (by default `script`, `style` and `applet`).
    ElementsDroppedWithContent,
    /// `acceptable_css_properties`: CSS properties kept in `style` (compared in lower
    /// case).
    CssProperties,
    /// `acceptable_css_keywords`: the words a `background*`, `border*`, `margin*` or
    /// `padding*` declaration may hold besides colours and lengths.
    CssKeywords,
    /// `mathml_elements`: elements kept inside `<math>`.
    MathmlElements,
    /// `mathml_attributes`: attributes kept on MathML elements.
    MathmlAttributes,
    /// `svg_elements`: elements kept inside `<svg>`, compared in lower case and written
    /// as spelt here (`linearGradient`).
    SvgElements,
    /// `svg_attributes`: attributes kept on SVG elements, compared in lower case and
    /// written as spelt here (`viewBox`).
    SvgAttributes,
    /// `acceptable_svg_properties`: CSS properties also kept in `style` inside `<svg>`.
    SvgProperties,
}

impl AllowList {
    /// Every list, in the order of the variants.
    pub const ALL: [AllowList; 10] = [
        AllowList::Elements,
        AllowList::Attributes,
        AllowList::ElementsDroppedWithContent,
        AllowList::CssProperties,
        AllowList::CssKeywords,
        AllowList::MathmlElements,
        AllowList::MathmlAttributes,
        AllowList::SvgElements,
        AllowList::SvgAttributes,
        AllowList::SvgProperties,
    ];

    /// The name of feedparser's class attribute holding the list
    /// (`"acceptable_elements"`, …).
    #[must_use]
    pub const fn feedparser_name(self) -> &'static str {
        match self {
            AllowList::Elements => "acceptable_elements",
            AllowList::Attributes => "acceptable_attributes",
            AllowList::ElementsDroppedWithContent => "unacceptable_elements_with_end_tag",
            AllowList::CssProperties => "acceptable_css_properties",
            AllowList::CssKeywords => "acceptable_css_keywords",
            AllowList::MathmlElements => "mathml_elements",
            AllowList::MathmlAttributes => "mathml_attributes",
            AllowList::SvgElements => "svg_elements",
            AllowList::SvgAttributes => "svg_attributes",
            AllowList::SvgProperties => "acceptable_svg_properties",
        }
    }

    /// The list feedparser names `name` (the inverse of [`AllowList::feedparser_name`]).
    ///
    /// ```
    /// use feed_decoder::html::AllowList;
    /// assert_eq!(AllowList::from_feedparser_name("svg_elements"), Some(AllowList::SvgElements));
    /// assert_eq!(AllowList::from_feedparser_name("relative_uris"), None);
    /// ```
    #[must_use]
    pub fn from_feedparser_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.feedparser_name() == name)
    }

    /// The default names (feedparser 6.0.14's), lower case (SVG's camel case restored
    /// by [`SanitizePolicy`]).
    fn defaults(self) -> &'static [&'static str] {
        match self {
            AllowList::Elements => lists::ACCEPTABLE_ELEMENTS,
            AllowList::Attributes => lists::ACCEPTABLE_ATTRIBUTES,
            AllowList::ElementsDroppedWithContent => lists::UNACCEPTABLE_WITH_CONTENT,
            AllowList::CssProperties => lists::CSS_PROPERTIES,
            AllowList::CssKeywords => lists::CSS_KEYWORDS,
            AllowList::MathmlElements => lists::MATHML_ELEMENTS,
            AllowList::MathmlAttributes => lists::MATHML_ATTRIBUTES,
            AllowList::SvgElements => lists::SVG_ELEMENTS,
            AllowList::SvgAttributes => lists::SVG_ATTRIBUTES,
            AllowList::SvgProperties => lists::SVG_PROPERTIES,
        }
    }

    /// Whether names are compared in lower case (SVG's lists, whose names are written
    /// in camel case).
    fn folds_case(self) -> bool {
        matches!(self, AllowList::SvgElements | AllowList::SvgAttributes)
    }
}

/// The sanitizer's allow-lists, as the caller wants them: feedparser's by default
/// ([`SanitizePolicy::new`]), each list changed as feedparser's sets are changed
/// (added to, removed from, replaced). The filter applies them as feedparser applies
/// its sets:
///
/// - an element added to [`AllowList::Elements`] is kept, with the attributes of
///   [`AllowList::Attributes`] (`iframe` for video embeds, its `src` resolved against
///   the base like `img src`);
/// - an element removed from it is unwrapped (its text kept), or dropped with its
///   content when it is on [`AllowList::ElementsDroppedWithContent`];
/// - an attribute removed from [`AllowList::Attributes`] is dropped, `style` included;
/// - [`AllowList::CssProperties`] and [`AllowList::CssKeywords`] decide the
///   declarations kept in `style`; the MathML and SVG lists, what is kept inside
///   `<math>` and `<svg>`.
///
/// What stays enforced whatever the lists say, as these are not allow-list decisions
/// but what keeps the output from running script:
///
/// - `script` is never kept (listed in [`AllowList::Elements`], it is treated as if it
///   were not: dropped with its content while it is on
///   [`AllowList::ElementsDroppedWithContent`], unwrapped otherwise);
/// - event handlers (attributes whose name starts with `on`) and `srcdoc` (a document
///   in an attribute) are never kept;
/// - every URL attribute is checked as without a policy: links need a scheme on
///   feedparser's list, no URL may run script, `data:` only for media;
/// - `style` keeps only declarations (no `url()`, no `expression`), and SVG animations
///   may not target `href` with a script URL nor an event handler;
/// - an added element a browser reads as raw text (`iframe`, `style`, `title`, `xmp`,
///   …) keeps no comment and has every `<` of its text escaped, as `noscript` and
///   `textarea` by default;
/// - the [`crate::html`] module's other closings (comments a browser would end
///   early, a `<` that would open an element) are the same.
///
/// Names are compared as the tokenizer writes them, in lower case: a name with capitals
/// in a list other than the SVG ones never matches (as in feedparser).
///
/// ```
/// use feed_decoder::html::{AllowList, HtmlFilter, SanitizePolicy};
///
/// let policy = SanitizePolicy::new()
///     .allow(AllowList::Elements, ["iframe"])
///     .deny(AllowList::Elements, ["b"]);
/// let html = r#"<b>Watch</b> <iframe src="https://www.youtube.com/embed/x" onload="x()"></iframe>"#;
/// let out = HtmlFilter::new().resolve(false).policy(Some(&policy)).apply(html);
/// assert_eq!(out, r#"Watch <iframe src="https://www.youtube.com/embed/x"></iframe>"#);
/// // Without the policy: feedparser's lists.
/// assert_eq!(HtmlFilter::new().resolve(false).apply(html), "<b>Watch</b>");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanitizePolicy {
    /// The lists by [`AllowList`] (as usize); SVG's in lower case.
    lists: [HashSet<Box<str>>; 10],
    /// The spelling of SVG element names that are not lower case, by their lower case.
    svg_element_case: HashMap<Box<str>, Box<str>>,
    /// The same for SVG attribute names.
    svg_attribute_case: HashMap<Box<str>, Box<str>>,
}

impl Default for SanitizePolicy {
    fn default() -> Self {
        Self::new()
    }
}

impl SanitizePolicy {
    /// feedparser 6.0.14's lists: a filter with this policy writes what it writes
    /// without one.
    #[must_use]
    pub fn new() -> Self {
        let mut p = SanitizePolicy {
            lists: Default::default(),
            svg_element_case: HashMap::new(),
            svg_attribute_case: HashMap::new(),
        };
        for list in AllowList::ALL {
            let names = list.defaults().iter().map(|&n| match list {
                AllowList::SvgElements | AllowList::SvgAttributes => super::svg_case(n),
                _ => n,
            });
            p = p.replace(list, names);
        }
        p
    }

    /// A policy whose every list is empty: nothing but text survives sanitizing.
    #[must_use]
    pub fn empty() -> Self {
        SanitizePolicy {
            lists: Default::default(),
            svg_element_case: HashMap::new(),
            svg_attribute_case: HashMap::new(),
        }
    }

    /// `names` added to `list` (feedparser's `set.update`).
    #[must_use]
    pub fn allow<I, S>(mut self, list: AllowList, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for name in names {
            self.insert(list, name.as_ref());
        }
        self
    }

    /// `names` removed from `list` (feedparser's `set.difference_update`). A name is
    /// matched as [`SanitizePolicy::contains`] matches it.
    #[must_use]
    pub fn deny<I, S>(mut self, list: AllowList, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for name in names {
            let name = name.as_ref();
            if list.folds_case() {
                let lower = name.to_lowercase();
                self.lists[list as usize].remove(lower.as_str());
                self.case_map(list).remove(lower.as_str());
            } else {
                self.lists[list as usize].remove(name);
            }
        }
        self
    }

    /// `list` replaced by `names` (feedparser's `_HTMLSanitizer.x = {...}`).
    #[must_use]
    pub fn replace<I, S>(mut self, list: AllowList, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.lists[list as usize].clear();
        if list.folds_case() {
            self.case_map(list).clear();
        }
        self.allow(list, names)
    }

    /// Whether `list` holds `name` (in lower case for SVG's lists, exactly for the
    /// others).
    #[must_use]
    pub fn contains(&self, list: AllowList, name: &str) -> bool {
        if list.folds_case() && name.bytes().any(|c| c.is_ascii_uppercase() || c >= 0x80) {
            return self.lists[list as usize].contains(name.to_lowercase().as_str());
        }
        self.lists[list as usize].contains(name)
    }

    /// The names of `list`, sorted, as spelt when added (SVG's camel case).
    #[must_use]
    pub fn names(&self, list: AllowList) -> Vec<&str> {
        let mut out: Vec<&str> = self.lists[list as usize]
            .iter()
            .map(|n| self.cased(list, n))
            .collect();
        out.sort_unstable();
        out
    }

    fn insert(&mut self, list: AllowList, name: &str) {
        if list.folds_case() {
            let lower = name.to_lowercase();
            if lower != name {
                self.case_map(list)
                    .insert(lower.as_str().into(), name.into());
            }
            self.lists[list as usize].insert(lower.into());
        } else {
            self.lists[list as usize].insert(name.into());
        }
    }

    fn case_map(&mut self, list: AllowList) -> &mut HashMap<Box<str>, Box<str>> {
        if list == AllowList::SvgElements {
            &mut self.svg_element_case
        } else {
            &mut self.svg_attribute_case
        }
    }

    /// `lower`'s spelling in `list`: camel case for SVG names added so, else itself.
    fn cased<'s>(&'s self, list: AllowList, lower: &'s str) -> &'s str {
        let map = match list {
            AllowList::SvgElements => &self.svg_element_case,
            AllowList::SvgAttributes => &self.svg_attribute_case,
            _ => return lower,
        };
        map.get(lower).map_or(lower, |s| s)
    }

    /// Whether an HTML element is kept (on [`AllowList::Elements`], and not `script`).
    pub(super) fn keeps_element(&self, name: &str) -> bool {
        name != "script" && self.lists[AllowList::Elements as usize].contains(name)
    }

    /// Whether the names of a list hold an attribute, never an event handler nor
    /// `srcdoc`.
    pub(super) fn keeps_attribute(&self, list: AllowList, key: &str) -> bool {
        !(key.starts_with("on") || key == "srcdoc") && self.lists[list as usize].contains(key)
    }

    /// Whether `name` (lower case) is on `list`, without folding.
    pub(super) fn has(&self, list: AllowList, name: &str) -> bool {
        self.lists[list as usize].contains(name)
    }
}

/// The vocabulary an element is kept from: it decides the attribute list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Vocabulary {
    Html,
    Mathml,
    Svg,
}

/// The allow-lists the filter consults, one implementation per source: [`Compiled`]
/// (feedparser's, compiled into `match`es and sorted tables) and a [`SanitizePolicy`]'s
/// hash sets. The filter's tag handlers are built once for each (the filter asks once
/// per tag which lists it has), so that the default path looks the compiled-in tables
/// up directly.
pub(super) trait Lists: Copy {
    /// The policy the CSS filter reads (`None`: the compiled-in lists).
    fn policy(&self) -> Option<&SanitizePolicy>;
    /// Whether an HTML element is kept.
    fn keeps_element(self, name: &str) -> bool;
    /// Whether an element not kept is dropped with its content (by its local name).
    fn drops_content(self, local: &str) -> bool;
    /// Whether an element is kept inside `<math>`.
    fn is_mathml_element(self, name: &str) -> bool;
    /// Whether an element is kept inside `<svg>`.
    fn is_svg_element(self, name: &str) -> bool;
    /// The written spelling of an SVG element name (camel case where it has one).
    fn svg_element_case(self, lower: &str) -> String;
    /// The written spelling of an SVG attribute name.
    fn svg_attribute_case(self, lower: &str) -> String;
    /// The test of the attributes kept on an element of `vocabulary`, chosen once per
    /// tag.
    fn attributes(self, vocabulary: Vocabulary) -> impl Fn(&str) -> bool;
    /// The name of a kept element whose content a browser reads as raw text (see
    /// [`lists::raw_text_name`]).
    fn raw_text_name(self, name: &str) -> Option<&'static str>;
    /// Whether a start tag without attributes, outside SVG and MathML, is written back
    /// as it is: an element kept whose content is not raw text.
    fn keeps_plainly(self, name: &str) -> bool {
        self.keeps_element(name) && self.raw_text_name(name).is_none()
    }
}

/// feedparser's lists, compiled in.
#[derive(Clone, Copy)]
pub(super) struct Compiled;

impl Lists for Compiled {
    fn policy(&self) -> Option<&SanitizePolicy> {
        None
    }
    fn keeps_element(self, name: &str) -> bool {
        lists::is_acceptable_element(name)
    }
    fn drops_content(self, local: &str) -> bool {
        lists::UNACCEPTABLE_WITH_CONTENT.contains(&local)
    }
    fn is_mathml_element(self, name: &str) -> bool {
        super::contains(lists::MATHML_ELEMENTS, name)
    }
    fn is_svg_element(self, name: &str) -> bool {
        super::contains(lists::SVG_ELEMENTS, name)
    }
    fn svg_element_case(self, lower: &str) -> String {
        super::svg_case(lower).to_owned()
    }
    fn svg_attribute_case(self, lower: &str) -> String {
        super::svg_case(lower).to_owned()
    }
    fn attributes(self, vocabulary: Vocabulary) -> impl Fn(&str) -> bool {
        let test: fn(&str) -> bool = match vocabulary {
            Vocabulary::Html => lists::is_acceptable_attribute,
            Vocabulary::Mathml => |key| super::contains(lists::MATHML_ATTRIBUTES, key),
            Vocabulary::Svg => |key| super::contains(lists::SVG_ATTRIBUTES, key),
        };
        test
    }
    fn raw_text_name(self, name: &str) -> Option<&'static str> {
        // Of the raw-text elements, the compiled-in lists keep these three only.
        match name {
            "noscript" => Some("noscript"),
            "textarea" => Some("textarea"),
            "title" => Some("title"),
            _ => None,
        }
    }
    fn keeps_plainly(self, name: &str) -> bool {
        // `title` is kept inside SVG only.
        lists::is_acceptable_element(name) && !matches!(name, "noscript" | "textarea")
    }
}

impl Lists for &SanitizePolicy {
    fn policy(&self) -> Option<&SanitizePolicy> {
        Some(*self)
    }
    fn keeps_element(self, name: &str) -> bool {
        SanitizePolicy::keeps_element(self, name)
    }
    fn drops_content(self, local: &str) -> bool {
        self.has(AllowList::ElementsDroppedWithContent, local)
    }
    fn is_mathml_element(self, name: &str) -> bool {
        self.has(AllowList::MathmlElements, name)
    }
    fn is_svg_element(self, name: &str) -> bool {
        self.has(AllowList::SvgElements, name)
    }
    fn svg_element_case(self, lower: &str) -> String {
        self.cased(AllowList::SvgElements, lower).to_owned()
    }
    fn svg_attribute_case(self, lower: &str) -> String {
        self.cased(AllowList::SvgAttributes, lower).to_owned()
    }
    fn attributes(self, vocabulary: Vocabulary) -> impl Fn(&str) -> bool {
        let list = match vocabulary {
            Vocabulary::Html => AllowList::Attributes,
            Vocabulary::Mathml => AllowList::MathmlAttributes,
            Vocabulary::Svg => AllowList::SvgAttributes,
        };
        move |key| self.keeps_attribute(list, key)
    }
    fn raw_text_name(self, name: &str) -> Option<&'static str> {
        lists::raw_text_name(name)
    }
}
