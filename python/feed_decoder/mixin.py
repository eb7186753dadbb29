"""``feedparser.mixin``: the namespaces feedparser knows, and the prefixes it gives them.

An element of a known namespace gets its key from the namespace's prefix here, whatever
prefix the document declares (``<dc:creator>`` under any prefix bound to
``http://purl.org/dc/elements/1.1/`` is ``dc_creator``); the core formats' namespaces
have the empty prefix (``title``, not ``atom_title``). An element of any other
namespace is keyed with the prefix the document declares for it, so the arXiv API's
``<arxiv:primary_category>`` is ``arxiv_primary_category`` and OpenSearch's
``<opensearch:totalResults>`` is ``opensearch_totalresults``.

:attr:`_FeedParserMixin.namespaces` is that table (feedparser's, and the Podcasting 2.0
namespace this engine reads), for programs that read it or add to it (as programs
reading the arXiv API do). The engine keeps its own copy, compiled in:
changing this dictionary, or adding ``_start_*``/``_end_*`` methods to the class, does
not change what ``parse`` returns.

:meth:`_FeedParserMixin.looks_like_html` is feedparser's guess whether plain text is
really HTML, for programs that make it themselves.
"""

__all__ = ["_FeedParserMixin"]


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
