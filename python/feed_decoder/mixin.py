"""``feedparser.mixin``: the namespaces feedparser knows, and the prefixes it gives them.

An element of a known namespace gets its key from the namespace's prefix here, whatever
prefix the document declares (``<dc:creator>`` under any prefix bound to
``http://purl.org/dc/elements/1.1/`` is ``dc_creator``); the core formats' namespaces
have the empty prefix (``title``, not ``atom_title``). An element of any other
namespace is keyed with the prefix the document declares for it, so the arXiv API's
``<arxiv:primary_category>`` is ``arxiv_primary_category`` and OpenSearch's
``<opensearch:totalResults>`` is ``opensearch_totalresults``.

:attr:`_FeedParserMixin.namespaces` is that table (feedparser's, and the Podcasting 2.0
namespace this engine reads), for programs that read it or add to it. A namespace a
program adds (``namespaces["http://www.newznab.com/DTD/2010/feeds/attributes/"] =
"newznab"``, as Usenet programs do) keys its elements and attributes by the program's
prefix, whatever prefix the document binds, and ``namespaces`` in the result lists it
under that prefix, as in feedparser. As in feedparser, the table is read at the first
parse into ``_FeedParserMixin._matchnamespaces`` (by lower-cased URI), which later
parses read: add a namespace before parsing, or to that copy. The engine keeps its own
copy of the known namespaces, compiled in: changing the prefix of one of those does not
change what ``parse`` returns.

Programs that read elements feedparser does not know add handlers to this class, as
they do to feedparser's (``_FeedParserMixin._start_newznab_attr = handler``, a
Usenet indexer's ``<newznab:attr name=… value=…/>``): ``parse`` calls them as
feedparser does, for every element of such a key the engine reads no field from, in
document order, once the document is read. A start handler gets the start tag's
attributes (a dict) and takes the element over (it is not stored under its key); an
end handler's ``self.pop(key)`` returns the element's text and stores it, as
feedparser's does. ``self`` stands in for feedparser's parser: ``_get_context()``
(also ``_getContext()``, feedparser 5's name) is the feed, entry, image, text input
or source dictionary the element is in; ``push``, ``pop``, ``popContent``, ``_save``,
``feeddata``, ``entries``, ``inentry``, ``infeed``, ``baseuri``, ``lang`` and
``encoding`` are there too. A handler that raises ``AttributeError`` leaves the
element to the default, as in feedparser; any other exception propagates. Handlers of
elements the engine reads fields from (``_end_updated``) are not called.

:meth:`_FeedParserMixin.looks_like_html` is feedparser's guess whether plain text is
really HTML, for programs that make it themselves.
"""

__all__ = ["_FeedParserMixin"]


class _MatchTable(dict):
    """A ``dict`` that notes when it is changed (so that each parse need not compare the
    namespace table with its first state)."""

    __slots__ = ("changed",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.changed = True

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.changed = True

    def __delitem__(self, key):
        super().__delitem__(key)
        self.changed = True

    def __ior__(self, other):
        self.update(other)
        return self

    def _changing(name):
        method = getattr(dict, name)

        def changing(self, *args, **kwargs):
            self.changed = True
            return method(self, *args, **kwargs)

        changing.__name__ = name
        changing.__doc__ = method.__doc__
        return changing

    update = _changing("update")
    setdefault = _changing("setdefault")
    pop = _changing("pop")
    popitem = _changing("popitem")
    clear = _changing("clear")
    del _changing


class _FeedParserMixin:
    """feedparser's parser class, reduced to its namespace table and its guess of
    HTML."""

    @staticmethod
    def looks_like_html(s):
        """Whether ``s`` reads as HTML, as the engine guesses of every plain value: it
        has a closing tag or an entity reference, every tag is an element of the
        sanitizer's allow-list (``_HTMLSanitizer.acceptable_elements``) and every named
        entity an HTML one (``AT&T`` and ``2 < 3`` are text; ``<b>b</b>`` and
        ``&copy;`` are HTML)."""
        from . import _core
        from .sanitizer import _policy

        return _core.looks_like_html(s, _policy())

    #: feedparser 5's name of :meth:`looks_like_html`.
    lookslikehtml = looks_like_html

    #: feedparser's copy of :attr:`namespaces` by lower-cased URI, made at the first
    #: parse (and read from then on).
    _matchnamespaces = _MatchTable()

    #: Namespace URI -> the prefix of its elements' keys.
    namespaces = {
        "": "",
        "http://backend.userland.com/rss": "",
        "http://blogs.law.harvard.edu/tech/rss": "",
        "http://purl.org/rss/1.0/": "",
        "http://my.netscape.com/rdf/simple/0.9/": "",
        "http://example.com/newformat#": "",
        "http://example.com/necho": "",
        "http://purl.org/echo/": "",
        "uri/of/echo/namespace#": "",
        "http://purl.org/pie/": "",
        "http://purl.org/atom/ns#": "",
        "http://www.w3.org/2005/Atom": "",
        "http://purl.org/rss/1.0/modules/rss091#": "",
        "http://webns.net/mvcb/": "admin",
        "http://purl.org/rss/1.0/modules/aggregation/": "ag",
        "http://purl.org/rss/1.0/modules/annotate/": "annotate",
        "http://media.tangent.org/rss/1.0/": "audio",
        "http://backend.userland.com/blogChannelModule": "blogChannel",
        "http://creativecommons.org/ns#license": "cc",
        "http://web.resource.org/cc/": "cc",
        "http://cyber.law.harvard.edu/rss/creativeCommonsRssModule.html": "creativeCommons",
        "http://backend.userland.com/creativeCommonsRssModule": "creativeCommons",
        "http://purl.org/rss/1.0/modules/company": "co",
        "http://purl.org/rss/1.0/modules/content/": "content",
        "http://my.theinfo.org/changed/1.0/rss/": "cp",
        "http://purl.org/dc/elements/1.1/": "dc",
        "http://purl.org/dc/terms/": "dcterms",
        "http://purl.org/rss/1.0/modules/email/": "email",
        "http://purl.org/rss/1.0/modules/event/": "ev",
        "http://rssnamespace.org/feedburner/ext/1.0": "feedburner",
        "http://freshmeat.net/rss/fm/": "fm",
        "http://xmlns.com/foaf/0.1/": "foaf",
        "http://www.w3.org/2003/01/geo/wgs84_pos#": "geo",
        "http://www.georss.org/georss": "georss",
        "http://www.opengis.net/gml": "gml",
        "http://postneo.com/icbm/": "icbm",
        "http://purl.org/rss/1.0/modules/image/": "image",
        "http://www.itunes.com/DTDs/PodCast-1.0.dtd": "itunes",
        "http://example.com/DTDs/PodCast-1.0.dtd": "itunes",
        "http://purl.org/rss/1.0/modules/link/": "l",
        "http://search.yahoo.com/mrss": "media",
        "http://search.yahoo.com/mrss/": "media",
        "http://madskills.com/public/xml/rss/module/pingback/": "pingback",
        "http://prismstandard.org/namespaces/1.2/basic/": "prism",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
        "http://www.w3.org/2000/01/rdf-schema#": "rdfs",
        "http://purl.org/rss/1.0/modules/reference/": "ref",
        "http://purl.org/rss/1.0/modules/richequiv/": "reqv",
        "http://purl.org/rss/1.0/modules/search/": "search",
        "http://purl.org/rss/1.0/modules/slash/": "slash",
        "http://schemas.xmlsoap.org/soap/envelope/": "soap",
        "http://purl.org/rss/1.0/modules/servicestatus/": "ss",
        "http://hacks.benhammersley.com/rss/streaming/": "str",
        "http://purl.org/rss/1.0/modules/subscription/": "sub",
        "http://purl.org/rss/1.0/modules/syndication/": "sy",
        "http://schemas.pocketsoap.com/rss/myDescModule/": "szf",
        "http://purl.org/rss/1.0/modules/taxonomy/": "taxo",
        "http://purl.org/rss/1.0/modules/threading/": "thr",
        "http://purl.org/rss/1.0/modules/textinput/": "ti",
        "http://madskills.com/public/xml/rss/module/trackback/": "trackback",
        "http://wellformedweb.org/commentAPI/": "wfw",
        "http://purl.org/rss/1.0/modules/wiki/": "wiki",
        "http://www.w3.org/1999/xhtml": "xhtml",
        "http://www.w3.org/1999/xlink": "xlink",
        "http://www.w3.org/XML/1998/namespace": "xml",
        "http://podlove.org/simple-chapters": "psc",
        "https://podcastindex.org/namespace/1.0": "podcast",
        "http://podcastindex.org/namespace/1.0": "podcast",
        "https://podcastindex.org/namespace/1.0/": "podcast",
        "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
            "podcast",
    }


#: How many names the class holds as defined here: more means a program added some.
_OWN_NAMES = len(vars(_FeedParserMixin))

#: The namespace table as defined here, by lower-cased URI.
_OWN_MATCH = {uri.lower(): prefix for uri, prefix in _FeedParserMixin.namespaces.items()}


def _program_namespaces():
    """The ``(uri, prefix)`` pairs a program added to (or changed in) the namespace
    table, or ``None``. The table is feedparser's: :attr:`_FeedParserMixin.namespaces`
    as it is at the first parse, copied then into
    :attr:`_FeedParserMixin._matchnamespaces` by lower-cased URI (feedparser reads the
    copy, so a namespace added after the first parse counts only when added there too).
    The engine keys the elements and attributes of such a namespace by the program's
    prefix; a namespace it knows already keeps its own prefix."""
    match = _FeedParserMixin._matchnamespaces
    if not isinstance(match, dict):
        return None
    tracked = type(match) is _MatchTable
    if tracked and not match.changed:
        return _last_namespaces[0]
    if not match:
        for uri, prefix in _FeedParserMixin.namespaces.items():
            if isinstance(uri, str):
                match[uri.lower()] = prefix
    pairs = None
    if len(match) != len(_OWN_MATCH) or match != _OWN_MATCH:
        pairs = tuple((uri, prefix) for uri, prefix in match.items()
                      if isinstance(uri, str) and isinstance(prefix, str)
                      and _OWN_MATCH.get(uri) != prefix) or None
    if tracked:
        match.changed = False
        _last_namespaces[0] = pairs
    return pairs


#: What :func:`_program_namespaces` found when the table last changed.
_last_namespaces = [None]


def _program_handlers():
    """The element keys of the ``_start_*``/``_end_*`` methods a program added to
    :class:`_FeedParserMixin`, lower-cased as the engine keys elements, as
    ``(start_keys, end_keys)``, or ``None`` when there is none (a program's own subclass
    is not seen: feedparser calls the methods of its own class only)."""
    names = vars(_FeedParserMixin)
    if len(names) <= _OWN_NAMES:
        return None
    start, end = [], []
    for name in names:
        if name.startswith("_start_") and len(name) > 7:
            start.append(name[7:].lower())
        elif name.startswith("_end_") and len(name) > 5:
            end.append(name[5:].lower())
    if not start and not end:
        return None
    return (tuple(sorted(start)), tuple(sorted(end)))


def _method(prefix, key):
    """The program's handler ``prefix + key``, matched without regard to case."""
    names = vars(_FeedParserMixin)
    name = prefix + key
    if name in names:
        return name
    for other in names:
        if other.lower() == name:
            return other
    return None


class _HandlerSelf(_FeedParserMixin):
    """What a program's element handler gets as ``self``, standing in for feedparser's
    parser at the element: the dictionary it is in, and the element's text for ``pop``."""

    def __init__(self, result):
        self.feeddata = result["feed"]
        self.entries = result["entries"]
        self.baseuri = result.get("href") or ""
        self.lang = None
        self.encoding = result.get("encoding")
        self.version = result.get("version")
        self.namespaces_in_use = result.get("namespaces", {})
        self.inentry = self.infeed = self.insource = 0
        self._context = self.feeddata
        self._element = None
        self._text = None

    def _at(self, context):
        where = context[0]
        self.inentry = int(where in ("entries", "source"))
        self.infeed = int(not self.inentry)
        self.insource = int(where == "source")
        if where in ("entries", "source") and context[1] < len(self.entries):
            entry = self.entries[context[1]]
            if where == "source":
                return entry.setdefault("source", type(entry)())
            return entry
        if where in ("image", "textinput"):
            return self.feeddata.setdefault(where, type(self.feeddata)())
        return self.feeddata

    def _get_context(self):
        return self._context

    _getContext = _get_context

    def push(self, element, expecting):
        """feedparser starts collecting an element's text here: the engine did."""

    def pop(self, element, strip_whitespace=1):
        """The element's text, stored under its key in the context as feedparser's
        ``pop`` stores it; ``None`` for any other element, or a second time."""
        if element != self._element or self._text is None:
            return None
        text, self._text = self._text, None
        self._context[element] = text
        return text

    popContent = pop

    def _save(self, key, value, overwrite=False):
        context = self._get_context()
        if overwrite:
            context[key] = value
        else:
            context.setdefault(key, value)

    def _call(self, key, end, context, attrs, text):
        self._context = self._at(context)
        self._element, self._text = key, text
        name = _method("_end_" if end else "_start_", key)
        if name is None:
            return
        attrs_d = dict(attrs)
        try:
            if end:
                getattr(self, name)()
            else:
                getattr(self, name)(attrs_d)
        except AttributeError:
            # feedparser's default for an element without a handler: a start tag's
            # attributes as the element's dictionary, an end tag's text as its value.
            if end:
                self.pop(key)
            elif attrs_d:
                self._context[key] = type(self.feeddata)(attrs_d)


def _call_handlers(result, calls):
    """Calls the program's element handlers for the calls the engine recorded:
    ``(key, end, context, attrs, text)`` tuples in document order."""
    self = _HandlerSelf(result)
    for call in calls:
        self._call(*call)
