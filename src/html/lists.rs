//! Allow-lists: facts about feedparser 6.0.14's sanitizer and URI resolver, kept as
//! sorted tables for binary search. Generated once from the published lists; edit by hand
//! only to follow feedparser.

/// HTML elements kept (feedparser's `acceptable_elements`): the source of the match in
/// [`is_acceptable_element`], and of [`super::SanitizePolicy::new`].
pub(super) const ACCEPTABLE_ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "big",
    "blockquote",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "command",
    "datagrid",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "event-source",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "i",
    "img",
    "input",
    "ins",
    "kbd",
    "keygen",
    "label",
    "legend",
    "li",
    "m",
    "map",
    "menu",
    "meter",
    "multicol",
    "nav",
    "nextid",
    "noscript",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "pre",
    "progress",
    "q",
    "s",
    "samp",
    "section",
    "select",
    "small",
    "sound",
    "source",
    "spacer",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "tr",
    "tt",
    "u",
    "ul",
    "var",
    "video",
];

/// HTML attributes kept (feedparser's `acceptable_attributes`): the source of the match
/// in [`is_acceptable_attribute`], and of [`super::SanitizePolicy::new`].
pub(super) const ACCEPTABLE_ATTRIBUTES: &[&str] = &[
    "abbr",
    "accept",
    "accept-charset",
    "accesskey",
    "action",
    "align",
    "alt",
    "autocomplete",
    "autofocus",
    "axis",
    "background",
    "balance",
    "bgcolor",
    "bgproperties",
    "border",
    "bordercolor",
    "bordercolordark",
    "bordercolorlight",
    "bottompadding",
    "cellpadding",
    "cellspacing",
    "ch",
    "challenge",
    "char",
    "charoff",
    "charset",
    "checked",
    "choff",
    "cite",
    "class",
    "clear",
    "color",
    "cols",
    "colspan",
    "compact",
    "contenteditable",
    "controls",
    "coords",
    "data",
    "datafld",
    "datapagesize",
    "datasrc",
    "datetime",
    "default",
    "delay",
    "dir",
    "disabled",
    "draggable",
    "dynsrc",
    "enctype",
    "end",
    "face",
    "for",
    "form",
    "frame",
    "galleryimg",
    "gutter",
    "headers",
    "height",
    "hidden",
    "hidefocus",
    "high",
    "href",
    "hreflang",
    "hspace",
    "icon",
    "id",
    "inputmode",
    "ismap",
    "keytype",
    "label",
    "lang",
    "leftspacing",
    "list",
    "longdesc",
    "loop",
    "loopcount",
    "loopend",
    "loopstart",
    "low",
    "lowsrc",
    "max",
    "maxlength",
    "media",
    "method",
    "min",
    "multiple",
    "name",
    "nohref",
    "noshade",
    "nowrap",
    "open",
    "optimum",
    "pattern",
    "ping",
    "point-size",
    "poster",
    "pqg",
    "preload",
    "prompt",
    "radiogroup",
    "readonly",
    "rel",
    "repeat-max",
    "repeat-min",
    "replace",
    "required",
    "rev",
    "rightspacing",
    "rows",
    "rowspan",
    "rules",
    "scope",
    "selected",
    "shape",
    "size",
    "span",
    "src",
    "start",
    "step",
    "style",
    "summary",
    "suppress",
    "tabindex",
    "target",
    "template",
    "title",
    "toppadding",
    "type",
    "unselectable",
    "urn",
    "usemap",
    "valign",
    "value",
    "variable",
    "volume",
    "vrml",
    "vspace",
    "width",
    "wrap",
    "xml:lang",
];

/// Elements dropped together with their content (feedparser's list).
pub(super) const UNACCEPTABLE_WITH_CONTENT: &[&str] = &["applet", "script", "style"];

/// CSS properties kept in `style` (feedparser's `acceptable_css_properties`).
pub(super) const CSS_PROPERTIES: &[&str] = &[
    "azimuth",
    "background-color",
    "border-bottom-color",
    "border-collapse",
    "border-color",
    "border-left-color",
    "border-right-color",
    "border-top-color",
    "clear",
    "color",
    "cursor",
    "direction",
    "display",
    "elevation",
    "float",
    "font",
    "font-family",
    "font-size",
    "font-style",
    "font-variant",
    "font-weight",
    "height",
    "letter-spacing",
    "line-height",
    "overflow",
    "pause",
    "pause-after",
    "pause-before",
    "pitch",
    "pitch-range",
    "richness",
    "speak",
    "speak-header",
    "speak-numeral",
    "speak-punctuation",
    "speech-rate",
    "stress",
    "text-align",
    "text-decoration",
    "text-indent",
    "unicode-bidi",
    "vertical-align",
    "voice-family",
    "volume",
    "white-space",
    "width",
];

/// CSS value keywords accepted for background/border/margin/padding properties.
pub(super) const CSS_KEYWORDS: &[&str] = &[
    "!important",
    "aqua",
    "auto",
    "black",
    "block",
    "blue",
    "bold",
    "both",
    "bottom",
    "brown",
    "center",
    "collapse",
    "dashed",
    "dotted",
    "fuchsia",
    "gray",
    "green",
    "italic",
    "left",
    "lime",
    "maroon",
    "medium",
    "navy",
    "none",
    "normal",
    "nowrap",
    "olive",
    "pointer",
    "purple",
    "red",
    "right",
    "silver",
    "solid",
    "teal",
    "top",
    "transparent",
    "underline",
    "white",
    "yellow",
];

/// MathML elements kept inside `<math>`.
pub(super) const MATHML_ELEMENTS: &[&str] = &[
    "annotation",
    "annotation-xml",
    "maction",
    "maligngroup",
    "malignmark",
    "math",
    "menclose",
    "merror",
    "mfenced",
    "mfrac",
    "mglyph",
    "mi",
    "mlabeledtr",
    "mlongdiv",
    "mmultiscripts",
    "mn",
    "mo",
    "mover",
    "mpadded",
    "mphantom",
    "mprescripts",
    "mroot",
    "mrow",
    "ms",
    "mscarries",
    "mscarry",
    "msgroup",
    "msline",
    "mspace",
    "msqrt",
    "msrow",
    "mstack",
    "mstyle",
    "msub",
    "msubsup",
    "msup",
    "mtable",
    "mtd",
    "mtext",
    "mtr",
    "munder",
    "munderover",
    "none",
    "semantics",
];

/// MathML attributes kept.
pub(super) const MATHML_ATTRIBUTES: &[&str] = &[
    "accent",
    "accentunder",
    "actiontype",
    "align",
    "alignmentscope",
    "altimg",
    "altimg-height",
    "altimg-valign",
    "altimg-width",
    "alttext",
    "bevelled",
    "charalign",
    "close",
    "columnalign",
    "columnlines",
    "columnspacing",
    "columnspan",
    "columnwidth",
    "crossout",
    "decimalpoint",
    "denomalign",
    "depth",
    "dir",
    "display",
    "displaystyle",
    "edge",
    "encoding",
    "equalcolumns",
    "equalrows",
    "fence",
    "fontstyle",
    "fontweight",
    "form",
    "frame",
    "framespacing",
    "groupalign",
    "height",
    "href",
    "id",
    "indentalign",
    "indentalignfirst",
    "indentalignlast",
    "indentshift",
    "indentshiftfirst",
    "indentshiftlast",
    "indenttarget",
    "infixlinebreakstyle",
    "largeop",
    "length",
    "linebreak",
    "linebreakmultchar",
    "linebreakstyle",
    "lineleading",
    "linethickness",
    "location",
    "longdivstyle",
    "lquote",
    "lspace",
    "mathbackground",
    "mathcolor",
    "mathsize",
    "mathvariant",
    "maxsize",
    "minlabelspacing",
    "minsize",
    "movablelimits",
    "notation",
    "numalign",
    "open",
    "other",
    "overflow",
    "position",
    "rowalign",
    "rowlines",
    "rowspacing",
    "rowspan",
    "rquote",
    "rspace",
    "scriptlevel",
    "scriptminsize",
    "scriptsizemultiplier",
    "selection",
    "separator",
    "separators",
    "shift",
    "side",
    "src",
    "stackalign",
    "stretchy",
    "subscriptshift",
    "superscriptshift",
    "symmetric",
    "voffset",
    "width",
    "xlink:href",
    "xlink:show",
    "xlink:type",
    "xmlns",
    "xmlns:xlink",
];

/// SVG elements kept inside `<svg>` (lower-cased; [`SVG_CASED`] restores camel case).
pub(super) const SVG_ELEMENTS: &[&str] = &[
    "a",
    "animate",
    "animatecolor",
    "animatemotion",
    "animatetransform",
    "circle",
    "defs",
    "desc",
    "ellipse",
    "font-face",
    "font-face-name",
    "font-face-src",
    "foreignobject",
    "g",
    "glyph",
    "hkern",
    "line",
    "lineargradient",
    "marker",
    "metadata",
    "missing-glyph",
    "mpath",
    "path",
    "polygon",
    "polyline",
    "radialgradient",
    "rect",
    "set",
    "stop",
    "svg",
    "switch",
    "text",
    "title",
    "tspan",
    "use",
];

/// SVG attributes kept (lower-cased; [`SVG_CASED`] restores camel case).
pub(super) const SVG_ATTRIBUTES: &[&str] = &[
    "accent-height",
    "accumulate",
    "additive",
    "alphabetic",
    "arabic-form",
    "ascent",
    "attributename",
    "attributetype",
    "baseprofile",
    "bbox",
    "begin",
    "by",
    "calcmode",
    "cap-height",
    "class",
    "color",
    "color-rendering",
    "content",
    "cx",
    "cy",
    "d",
    "descent",
    "display",
    "dur",
    "dx",
    "dy",
    "end",
    "fill",
    "fill-opacity",
    "fill-rule",
    "font-family",
    "font-size",
    "font-stretch",
    "font-style",
    "font-variant",
    "font-weight",
    "from",
    "fx",
    "fy",
    "g1",
    "g2",
    "glyph-name",
    "gradientunits",
    "hanging",
    "height",
    "horiz-adv-x",
    "horiz-origin-x",
    "id",
    "ideographic",
    "k",
    "keypoints",
    "keysplines",
    "keytimes",
    "lang",
    "marker-end",
    "marker-mid",
    "marker-start",
    "markerheight",
    "markerunits",
    "markerwidth",
    "mathematical",
    "max",
    "min",
    "name",
    "offset",
    "opacity",
    "orient",
    "origin",
    "overline-position",
    "overline-thickness",
    "panose-1",
    "path",
    "pathlength",
    "points",
    "preserveaspectratio",
    "r",
    "refx",
    "refy",
    "repeatcount",
    "repeatdur",
    "requiredextensions",
    "requiredfeatures",
    "restart",
    "rotate",
    "rx",
    "ry",
    "slope",
    "stemh",
    "stemv",
    "stop-color",
    "stop-opacity",
    "strikethrough-position",
    "strikethrough-thickness",
    "stroke",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-opacity",
    "stroke-width",
    "systemlanguage",
    "target",
    "text-anchor",
    "to",
    "transform",
    "type",
    "u1",
    "u2",
    "underline-position",
    "underline-thickness",
    "unicode",
    "unicode-range",
    "units-per-em",
    "values",
    "version",
    "viewbox",
    "visibility",
    "width",
    "widths",
    "x",
    "x-height",
    "x1",
    "x2",
    "xlink:actuate",
    "xlink:arcrole",
    "xlink:href",
    "xlink:role",
    "xlink:show",
    "xlink:title",
    "xlink:type",
    "xml:base",
    "xml:lang",
    "xml:space",
    "xmlns",
    "xmlns:xlink",
    "y",
    "y1",
    "y2",
    "zoomandpan",
];

/// CSS properties kept in `style` inside SVG.
pub(super) const SVG_PROPERTIES: &[&str] = &[
    "fill",
    "fill-opacity",
    "fill-rule",
    "stroke",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-opacity",
    "stroke-width",
];

/// SVG element and attribute names whose canonical spelling is camel case, by their
/// lower-cased form.
pub(super) const SVG_CASED: &[(&str, &str)] = &[
    ("animatecolor", "animateColor"),
    ("animatemotion", "animateMotion"),
    ("animatetransform", "animateTransform"),
    ("attributename", "attributeName"),
    ("attributetype", "attributeType"),
    ("baseprofile", "baseProfile"),
    ("calcmode", "calcMode"),
    ("foreignobject", "foreignObject"),
    ("gradientunits", "gradientUnits"),
    ("keypoints", "keyPoints"),
    ("keysplines", "keySplines"),
    ("keytimes", "keyTimes"),
    ("lineargradient", "linearGradient"),
    ("markerheight", "markerHeight"),
    ("markerunits", "markerUnits"),
    ("markerwidth", "markerWidth"),
    ("pathlength", "pathLength"),
    ("preserveaspectratio", "preserveAspectRatio"),
    ("radialgradient", "radialGradient"),
    ("refx", "refX"),
    ("refy", "refY"),
    ("repeatcount", "repeatCount"),
    ("repeatdur", "repeatDur"),
    ("requiredextensions", "requiredExtensions"),
    ("requiredfeatures", "requiredFeatures"),
    ("systemlanguage", "systemLanguage"),
    ("viewbox", "viewBox"),
    ("zoomandpan", "zoomAndPan"),
];

/// Void elements: serialized as `<x />`, never closed.
#[cfg_attr(not(test), allow(dead_code))] // `is_void` is the lookup; this, its source
pub(super) const NO_END_TAG: &[&str] = &[
    "area", "base", "basefont", "br", "col", "command", "embed", "frame", "hr", "img", "input",
    "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// URI schemes allowed in links (feedparser's `ACCEPTABLE_URI_SCHEMES`).
#[cfg_attr(not(test), allow(dead_code))] // `is_uri_scheme` is the lookup; this, its source
pub(super) const URI_SCHEMES: &[&str] = &[
    "aim", "callto", "cvs", "facetime", "feed", "file", "ftp", "git", "gopher", "gtalk", "h323",
    "hdl", "http", "https", "imap", "irc", "irc6", "ircs", "itms", "magnet", "mailto", "mms",
    "msnim", "news", "nntp", "prospero", "rsync", "rtsp", "rtspu", "sftp", "shttp", "sip", "sips",
    "skype", "smb", "snews", "ssh", "svn", "svn+ssh", "telnet", "wais", "ymsg",
];

/// (element, attribute) pairs whose value is a URI resolved against the base
/// (feedparser's `relative_uris`).
pub(super) const RELATIVE_URIS: &[(&str, &str)] = &[
    ("a", "href"),
    ("applet", "codebase"),
    ("area", "href"),
    ("audio", "src"),
    ("blockquote", "cite"),
    ("body", "background"),
    ("del", "cite"),
    ("form", "action"),
    ("frame", "longdesc"),
    ("frame", "src"),
    ("head", "profile"),
    ("iframe", "longdesc"),
    ("iframe", "src"),
    ("img", "longdesc"),
    ("img", "src"),
    ("img", "usemap"),
    ("input", "src"),
    ("input", "usemap"),
    ("ins", "cite"),
    ("link", "href"),
    ("object", "classid"),
    ("object", "codebase"),
    ("object", "data"),
    ("object", "usemap"),
    ("q", "cite"),
    ("script", "src"),
    ("source", "src"),
    ("video", "poster"),
    ("video", "src"),
];

/// Membership in [`ACCEPTABLE_ELEMENTS`], compiled to a match (faster than a search).
pub(super) fn is_acceptable_element(name: &str) -> bool {
    matches!(
        name,
        "a" | "abbr"
            | "acronym"
            | "address"
            | "area"
            | "article"
            | "aside"
            | "audio"
            | "b"
            | "big"
            | "blockquote"
            | "br"
            | "button"
            | "canvas"
            | "caption"
            | "center"
            | "cite"
            | "code"
            | "col"
            | "colgroup"
            | "command"
            | "datagrid"
            | "datalist"
            | "dd"
            | "del"
            | "details"
            | "dfn"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "em"
            | "event-source"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "font"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hr"
            | "i"
            | "img"
            | "input"
            | "ins"
            | "kbd"
            | "keygen"
            | "label"
            | "legend"
            | "li"
            | "m"
            | "map"
            | "menu"
            | "meter"
            | "multicol"
            | "nav"
            | "nextid"
            | "noscript"
            | "ol"
            | "optgroup"
            | "option"
            | "output"
            | "p"
            | "pre"
            | "progress"
            | "q"
            | "s"
            | "samp"
            | "section"
            | "select"
            | "small"
            | "sound"
            | "source"
            | "spacer"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "table"
            | "tbody"
            | "td"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "time"
            | "tr"
            | "tt"
            | "u"
            | "ul"
            | "var"
            | "video"
    )
}

/// Membership in [`NO_END_TAG`], compiled to a match: the HTML void elements, written
/// `<br />` and never closed (by the sanitizer, and by the parser in inline XHTML).
pub(crate) fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "basefont"
            | "br"
            | "col"
            | "command"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "isindex"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Membership in [`ACCEPTABLE_ATTRIBUTES`], compiled to a match (every attribute of
/// every HTML element is looked up).
pub(super) fn is_acceptable_attribute(name: &str) -> bool {
    matches!(
        name,
        "abbr"
            | "accept"
            | "accept-charset"
            | "accesskey"
            | "action"
            | "align"
            | "alt"
            | "autocomplete"
            | "autofocus"
            | "axis"
            | "background"
            | "balance"
            | "bgcolor"
            | "bgproperties"
            | "border"
            | "bordercolor"
            | "bordercolordark"
            | "bordercolorlight"
            | "bottompadding"
            | "cellpadding"
            | "cellspacing"
            | "ch"
            | "challenge"
            | "char"
            | "charoff"
            | "charset"
            | "checked"
            | "choff"
            | "cite"
            | "class"
            | "clear"
            | "color"
            | "cols"
            | "colspan"
            | "compact"
            | "contenteditable"
            | "controls"
            | "coords"
            | "data"
            | "datafld"
            | "datapagesize"
            | "datasrc"
            | "datetime"
            | "default"
            | "delay"
            | "dir"
            | "disabled"
            | "draggable"
            | "dynsrc"
            | "enctype"
            | "end"
            | "face"
            | "for"
            | "form"
            | "frame"
            | "galleryimg"
            | "gutter"
            | "headers"
            | "height"
            | "hidden"
            | "hidefocus"
            | "high"
            | "href"
            | "hreflang"
            | "hspace"
            | "icon"
            | "id"
            | "inputmode"
            | "ismap"
            | "keytype"
            | "label"
            | "lang"
            | "leftspacing"
            | "list"
            | "longdesc"
            | "loop"
            | "loopcount"
            | "loopend"
            | "loopstart"
            | "low"
            | "lowsrc"
            | "max"
            | "maxlength"
            | "media"
            | "method"
            | "min"
            | "multiple"
            | "name"
            | "nohref"
            | "noshade"
            | "nowrap"
            | "open"
            | "optimum"
            | "pattern"
            | "ping"
            | "point-size"
            | "poster"
            | "pqg"
            | "preload"
            | "prompt"
            | "radiogroup"
            | "readonly"
            | "rel"
            | "repeat-max"
            | "repeat-min"
            | "replace"
            | "required"
            | "rev"
            | "rightspacing"
            | "rows"
            | "rowspan"
            | "rules"
            | "scope"
            | "selected"
            | "shape"
            | "size"
            | "span"
            | "src"
            | "start"
            | "step"
            | "style"
            | "summary"
            | "suppress"
            | "tabindex"
            | "target"
            | "template"
            | "title"
            | "toppadding"
            | "type"
            | "unselectable"
            | "urn"
            | "usemap"
            | "valign"
            | "value"
            | "variable"
            | "volume"
            | "vrml"
            | "vspace"
            | "width"
            | "wrap"
            | "xml:lang"
    )
}

/// The elements whose content a browser reads as raw text or RCDATA (comments and tags
/// in it are text, up to the element's own end tag), as a static name. Of these the
/// sanitizer keeps `noscript` and `textarea`, and `title` inside SVG, which a browser
/// reads as HTML's `title` when an HTML element before it ended the SVG (`<svg><p>`);
/// feedparser's lists keep none of the others; one a [`super::SanitizePolicy`] keeps is
/// read the same way.
#[inline]
pub(super) fn raw_text_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "iframe" => "iframe",
        "noembed" => "noembed",
        "noframes" => "noframes",
        "noscript" => "noscript",
        "plaintext" => "plaintext",
        "style" => "style",
        "textarea" => "textarea",
        "title" => "title",
        "xmp" => "xmp",
        _ => return None,
    })
}

/// Membership in [`URI_SCHEMES`], compiled to a match (every link the sanitizer keeps
/// is looked up).
pub(super) fn is_uri_scheme(scheme: &str) -> bool {
    matches!(
        scheme,
        "aim"
            | "callto"
            | "cvs"
            | "facetime"
            | "feed"
            | "file"
            | "ftp"
            | "git"
            | "gopher"
            | "gtalk"
            | "h323"
            | "hdl"
            | "http"
            | "https"
            | "imap"
            | "irc"
            | "irc6"
            | "ircs"
            | "itms"
            | "magnet"
            | "mailto"
            | "mms"
            | "msnim"
            | "news"
            | "nntp"
            | "prospero"
            | "rsync"
            | "rtsp"
            | "rtspu"
            | "sftp"
            | "shttp"
            | "sip"
            | "sips"
            | "skype"
            | "smb"
            | "snews"
            | "ssh"
            | "svn"
            | "svn+ssh"
            | "telnet"
            | "wais"
            | "ymsg"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_agree_with_the_tables() {
        for e in super::ACCEPTABLE_ELEMENTS {
            assert!(super::is_acceptable_element(e), "{e}");
        }
        for e in super::NO_END_TAG {
            assert!(super::is_void(e), "{e}");
        }
        for a in super::ACCEPTABLE_ATTRIBUTES {
            assert!(super::is_acceptable_attribute(a), "{a}");
            for other in [format!("{a}x"), a[1..].to_owned()] {
                assert_eq!(
                    super::is_acceptable_attribute(&other),
                    super::ACCEPTABLE_ATTRIBUTES.contains(&&*other),
                    "{other}"
                );
            }
        }
        for s in super::URI_SCHEMES {
            assert!(super::is_uri_scheme(s), "{s}");
            let longer = format!("{s}s");
            assert_eq!(
                super::is_uri_scheme(&longer),
                super::URI_SCHEMES.contains(&&*longer)
            );
        }
        for e in ["script", "style", "x", "", "A", "svg", "math"] {
            assert_eq!(
                super::is_acceptable_element(e),
                super::ACCEPTABLE_ELEMENTS.contains(&e),
                "{e}"
            );
            assert_eq!(super::is_void(e), super::NO_END_TAG.contains(&e), "{e}");
            assert_eq!(
                super::is_uri_scheme(e),
                super::URI_SCHEMES.contains(&e),
                "{e}"
            );
        }
    }
}
