"""``feedparser.sanitizer``: the HTML sanitizer, and feedparser's allow-lists.

:func:`_sanitize_html` is the engine's sanitizer, the one every HTML value of a parsed
feed goes through (unless ``sanitize_html=False``): feedparser's allow-lists of
elements, attributes and CSS, ``script``, ``style`` and ``applet`` dropped with their
content, other unknown elements unwrapped, unsafe URLs emptied, and the places where
feedparser's output could still run script in a browser closed.

:class:`_HTMLSanitizer` holds those allow-lists as feedparser 6.0.14 publishes them
(sets of names), and the engine follows them as feedparser does: a program that
changes them changes what ``parse`` and :func:`_sanitize_html` keep::

    _HTMLSanitizer.acceptable_elements.update(["iframe"])      # keep video embeds
    _HTMLSanitizer.acceptable_attributes.discard("style")      # drop every style
    _HTMLSanitizer.acceptable_elements = {"p", "a", "br"}      # replace a list

An element added is kept with its acceptable attributes; one removed is unwrapped (its
text kept), or dropped with its content when it is in
``unacceptable_elements_with_end_tag``; an attribute removed is dropped; the CSS lists
decide what stays in ``style``; ``acceptable_elements`` also decides which plain RSS
texts are read as HTML. What is not an allow-list decision stays enforced whatever the
lists say: ``script`` is never kept, nor event handlers (``on*``) or ``srcdoc``; URLs
are checked (script URLs emptied, links need a safe scheme); an added element a browser
reads as raw text (``iframe``, ``style``, ``title``, ``xmp`` …) keeps no comment.

The sets notice their changes: each is a :class:`set` whose changing methods (``add``,
``update``, ``discard``, ``|=`` …) count a change, and a set assigned to the class is
copied into such a set. ``parse`` rebuilds the engine's lists only after a change, so
an unchanged module costs nothing per parse. A list replaced by another kind of
collection (a ``list``, a ``frozenset``) is read when assigned; changes made inside it
later go unnoticed.
"""

from . import _core

__all__ = ["_HTMLSanitizer", "_sanitize_html"]

#: The class attributes holding allow-lists (feedparser's names).
_LIST_NAMES = (
    "acceptable_elements", "acceptable_attributes", "unacceptable_elements_with_end_tag",
    "acceptable_css_properties", "acceptable_css_keywords", "mathml_elements",
    "mathml_attributes", "svg_elements", "svg_attributes", "acceptable_svg_properties",
)

#: How many changes the lists have seen: the engine's lists are rebuilt when it moves.
_changes = 0


def _changed():
    global _changes
    _changes += 1


class _ListSet(set):
    """A set of names that counts its changes (see the module's docs)."""

    __slots__ = ()

    def add(self, element):
        set.add(self, element)
        _changed()

    def discard(self, element):
        set.discard(self, element)
        _changed()

    def remove(self, element):
        set.remove(self, element)
        _changed()

    def pop(self):
        element = set.pop(self)
        _changed()
        return element

    def clear(self):
        set.clear(self)
        _changed()

    def update(self, *others):
        set.update(self, *others)
        _changed()

    def difference_update(self, *others):
        set.difference_update(self, *others)
        _changed()

    def intersection_update(self, *others):
        set.intersection_update(self, *others)
        _changed()

    def symmetric_difference_update(self, other):
        set.symmetric_difference_update(self, other)
        _changed()

    def __ior__(self, other):
        result = set.__ior__(self, other)
        _changed()
        return result

    def __iand__(self, other):
        result = set.__iand__(self, other)
        _changed()
        return result

    def __isub__(self, other):
        result = set.__isub__(self, other)
        _changed()
        return result

    def __ixor__(self, other):
        result = set.__ixor__(self, other)
        _changed()
        return result

    def __reduce__(self):
        return set, (list(self),)  # pickled and copied as the plain set it stands for


class _WatchedLists(type):
    """The class of :class:`_HTMLSanitizer`: an allow-list assigned to it is copied into
    a :class:`_ListSet` (when it is a set) and counts a change."""

    def __setattr__(cls, name, value):
        if name in _LIST_NAMES:
            if isinstance(value, (set, frozenset)) and type(value) is not _ListSet:
                value = _ListSet(value)
            super().__setattr__(name, value)
            _changed()
        else:
            super().__setattr__(name, value)

    def __delattr__(cls, name):
        super().__delattr__(name)
        if name in _LIST_NAMES:
            _changed()


class _HTMLSanitizer(metaclass=_WatchedLists):
    """feedparser's sanitizer allow-lists, as class attributes (sets of names) that the
    engine follows (see the module's docs).

    Not a parser: the engine sanitizes (:func:`_sanitize_html`), so there is no
    ``feed()``/``output()`` to call, and constructing one raises ``TypeError``.
    """

    #: HTML elements kept.
    acceptable_elements = {
        "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b",
        "big", "blockquote", "br", "button", "canvas", "caption", "center", "cite",
        "code", "col", "colgroup", "command", "datagrid", "datalist", "dd", "del",
        "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "event-source",
        "fieldset", "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3",
        "h4", "h5", "h6", "header", "hr", "i", "img", "input", "ins", "kbd", "keygen",
        "label", "legend", "li", "m", "map", "menu", "meter", "multicol", "nav",
        "nextid", "noscript", "ol", "optgroup", "option", "output", "p", "pre",
        "progress", "q", "s", "samp", "section", "select", "small", "sound", "source",
        "spacer", "span", "strike", "strong", "sub", "sup", "table", "tbody", "td",
        "textarea", "tfoot", "th", "thead", "time", "tr", "tt", "u", "ul", "var",
        "video",
    }

    #: HTML attributes kept (event handlers and ``srcdoc`` never are).
    acceptable_attributes = {
        "abbr", "accept", "accept-charset", "accesskey", "action", "align", "alt",
        "autocomplete", "autofocus", "axis", "background", "balance", "bgcolor",
        "bgproperties", "border", "bordercolor", "bordercolordark", "bordercolorlight",
        "bottompadding", "cellpadding", "cellspacing", "ch", "challenge", "char",
        "charoff", "charset", "checked", "choff", "cite", "class", "clear", "color",
        "cols", "colspan", "compact", "contenteditable", "controls", "coords", "data",
        "datafld", "datapagesize", "datasrc", "datetime", "default", "delay", "dir",
        "disabled", "draggable", "dynsrc", "enctype", "end", "face", "for", "form",
        "frame", "galleryimg", "gutter", "headers", "height", "hidden", "hidefocus",
        "high", "href", "hreflang", "hspace", "icon", "id", "inputmode", "ismap",
        "keytype", "label", "lang", "leftspacing", "list", "longdesc", "loop",
        "loopcount", "loopend", "loopstart", "low", "lowsrc", "max", "maxlength",
        "media", "method", "min", "multiple", "name", "nohref", "noshade", "nowrap",
        "open", "optimum", "pattern", "ping", "point-size", "poster", "pqg", "preload",
        "prompt", "radiogroup", "readonly", "rel", "repeat-max", "repeat-min",
        "replace", "required", "rev", "rightspacing", "rows", "rowspan", "rules",
        "scope", "selected", "shape", "size", "span", "src", "start", "step", "style",
        "summary", "suppress", "tabindex", "target", "template", "title", "toppadding",
        "type", "unselectable", "urn", "usemap", "valign", "value", "variable",
        "volume", "vrml", "vspace", "width", "wrap", "xml:lang",
    }

    #: Elements dropped with their content (every other unknown element is
    #: unwrapped, its text kept).
    unacceptable_elements_with_end_tag = {
        "applet", "script", "style",
    }

    #: CSS properties kept in ``style`` attributes.
    acceptable_css_properties = {
        "azimuth", "background-color", "border-bottom-color", "border-collapse",
        "border-color", "border-left-color", "border-right-color", "border-top-color",
        "clear", "color", "cursor", "direction", "display", "elevation", "float",
        "font", "font-family", "font-size", "font-style", "font-variant", "font-weight",
        "height", "letter-spacing", "line-height", "overflow", "pause", "pause-after",
        "pause-before", "pitch", "pitch-range", "richness", "speak", "speak-header",
        "speak-numeral", "speak-punctuation", "speech-rate", "stress", "text-align",
        "text-decoration", "text-indent", "unicode-bidi", "vertical-align",
        "voice-family", "volume", "white-space", "width",
    }

    #: CSS keywords a kept property's value may hold (besides colours and lengths).
    acceptable_css_keywords = {
        "!important", "aqua", "auto", "black", "block", "blue", "bold", "both",
        "bottom", "brown", "center", "collapse", "dashed", "dotted", "fuchsia", "gray",
        "green", "italic", "left", "lime", "maroon", "medium", "navy", "none", "normal",
        "nowrap", "olive", "pointer", "purple", "red", "right", "silver", "solid",
        "teal", "top", "transparent", "underline", "white", "yellow",
    }

    #: MathML elements kept inside ``<math>``.
    mathml_elements = {
        "annotation", "annotation-xml", "maction", "maligngroup", "malignmark", "math",
        "menclose", "merror", "mfenced", "mfrac", "mglyph", "mi", "mlabeledtr",
        "mlongdiv", "mmultiscripts", "mn", "mo", "mover", "mpadded", "mphantom",
        "mprescripts", "mroot", "mrow", "ms", "mscarries", "mscarry", "msgroup",
        "msline", "mspace", "msqrt", "msrow", "mstack", "mstyle", "msub", "msubsup",
        "msup", "mtable", "mtd", "mtext", "mtr", "munder", "munderover", "none",
        "semantics",
    }

    #: MathML attributes kept inside ``<math>``.
    mathml_attributes = {
        "accent", "accentunder", "actiontype", "align", "alignmentscope", "altimg",
        "altimg-height", "altimg-valign", "altimg-width", "alttext", "bevelled",
        "charalign", "close", "columnalign", "columnlines", "columnspacing",
        "columnspan", "columnwidth", "crossout", "decimalpoint", "denomalign", "depth",
        "dir", "display", "displaystyle", "edge", "encoding", "equalcolumns",
        "equalrows", "fence", "fontstyle", "fontweight", "form", "frame",
        "framespacing", "groupalign", "height", "href", "id", "indentalign",
        "indentalignfirst", "indentalignlast", "indentshift", "indentshiftfirst",
        "indentshiftlast", "indenttarget", "infixlinebreakstyle", "largeop", "length",
        "linebreak", "linebreakmultchar", "linebreakstyle", "lineleading",
        "linethickness", "location", "longdivstyle", "lquote", "lspace",
        "mathbackground", "mathcolor", "mathsize", "mathvariant", "maxsize",
        "minlabelspacing", "minsize", "movablelimits", "notation", "numalign", "open",
        "other", "overflow", "position", "rowalign", "rowlines", "rowspacing",
        "rowspan", "rquote", "rspace", "scriptlevel", "scriptminsize",
        "scriptsizemultiplier", "selection", "separator", "separators", "shift", "side",
        "src", "stackalign", "stretchy", "subscriptshift", "superscriptshift",
        "symmetric", "voffset", "width", "xlink:href", "xlink:show", "xlink:type",
        "xmlns", "xmlns:xlink",
    }

    #: SVG elements kept inside ``<svg>``.
    svg_elements = {
        "a", "animate", "animateColor", "animateMotion", "animateTransform", "circle",
        "defs", "desc", "ellipse", "font-face", "font-face-name", "font-face-src",
        "foreignObject", "g", "glyph", "hkern", "line", "linearGradient", "marker",
        "metadata", "missing-glyph", "mpath", "path", "polygon", "polyline",
        "radialGradient", "rect", "set", "stop", "svg", "switch", "text", "title",
        "tspan", "use",
    }

    #: SVG attributes kept inside ``<svg>``.
    svg_attributes = {
        "accent-height", "accumulate", "additive", "alphabetic", "arabic-form",
        "ascent", "attributeName", "attributeType", "baseProfile", "bbox", "begin",
        "by", "calcMode", "cap-height", "class", "color", "color-rendering", "content",
        "cx", "cy", "d", "descent", "display", "dur", "dx", "dy", "end", "fill",
        "fill-opacity", "fill-rule", "font-family", "font-size", "font-stretch",
        "font-style", "font-variant", "font-weight", "from", "fx", "fy", "g1", "g2",
        "glyph-name", "gradientUnits", "hanging", "height", "horiz-adv-x",
        "horiz-origin-x", "id", "ideographic", "k", "keyPoints", "keySplines",
        "keyTimes", "lang", "marker-end", "marker-mid", "marker-start", "markerHeight",
        "markerUnits", "markerWidth", "mathematical", "max", "min", "name", "offset",
        "opacity", "orient", "origin", "overline-position", "overline-thickness",
        "panose-1", "path", "pathLength", "points", "preserveAspectRatio", "r", "refX",
        "refY", "repeatCount", "repeatDur", "requiredExtensions", "requiredFeatures",
        "restart", "rotate", "rx", "ry", "slope", "stemh", "stemv", "stop-color",
        "stop-opacity", "strikethrough-position", "strikethrough-thickness", "stroke",
        "stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin",
        "stroke-miterlimit", "stroke-opacity", "stroke-width", "systemLanguage",
        "target", "text-anchor", "to", "transform", "type", "u1", "u2",
        "underline-position", "underline-thickness", "unicode", "unicode-range",
        "units-per-em", "values", "version", "viewBox", "visibility", "width", "widths",
        "x", "x-height", "x1", "x2", "xlink:actuate", "xlink:arcrole", "xlink:href",
        "xlink:role", "xlink:show", "xlink:title", "xlink:type", "xml:base", "xml:lang",
        "xml:space", "xmlns", "xmlns:xlink", "y", "y1", "y2", "zoomAndPan",
    }

    #: CSS properties kept in ``style`` attributes inside ``<svg>``.
    acceptable_svg_properties = {
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-linecap",
        "stroke-linejoin", "stroke-opacity", "stroke-width",
    }

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "feed_decoder's sanitizer is the engine's, not an SGML parser: call "
            "feed_decoder.sanitizer._sanitize_html(html, encoding, type) instead")


for _name in _LIST_NAMES:
    setattr(_HTMLSanitizer, _name, getattr(_HTMLSanitizer, _name))  # watched from now on
del _name

#: feedparser's lists, to tell the engine's defaults from changed lists.
_DEFAULTS = {name: frozenset(getattr(_HTMLSanitizer, name)) for name in _LIST_NAMES}

#: The engine's lists for the count of changes they were built at (``None``: the
#: defaults, compiled into the engine).
_built = (_changes, None)


def _names(value):
    """The names an allow-list holds (``str`` items; nothing else can match a name)."""
    return frozenset(v for v in value if isinstance(v, str))


def _policy():
    """The engine's lists for ``_HTMLSanitizer``'s as they are now: ``None`` while they
    are feedparser's, else a ``_core.SanitizePolicy``, rebuilt only after a change."""
    global _built
    changes, policy = _built
    if changes == _changes:
        return policy
    changes = _changes
    lists = {name: _names(getattr(_HTMLSanitizer, name)) for name in _LIST_NAMES}
    if any(lists[name] != _DEFAULTS[name] for name in _LIST_NAMES):
        policy = _core.SanitizePolicy(lists)
    else:
        policy = None
    _built = (changes, policy)
    return policy


def _sanitize_html(html_source, encoding=None, _type="text/html"):
    """``html_source`` made safe to display, as ``parse`` sanitizes every HTML value
    (with :class:`_HTMLSanitizer`'s lists as they are now).

    ``_type`` ``"application/xhtml+xml"`` reads the value as XHTML (a ``/>`` closes the
    element); ``encoding`` decodes ``bytes`` (default UTF-8). Surrounding white space is
    trimmed and CRLF becomes LF, as feedparser does.
    """
    if isinstance(html_source, (bytes, bytearray)):
        html_source = bytes(html_source).decode(encoding or "utf-8", "replace")
    return _core.filter_html(html_source, sanitize=True, resolve=False,
                             xhtml=_type == "application/xhtml+xml", policy=_policy())
