"""``FeedParserDict``: the dictionary every part of a result is made of.

A ``dict`` subclass, as in feedparser, so that ``isinstance(x, dict)``, ``json.dumps``,
``copy`` and ``pickle`` work as they always did. On top of plain item access it gives:

- attribute access: ``entry.title`` is ``entry["title"]`` (when absent, feedparser's
  ``AttributeError``: ``object has no attribute 'title'``);
- feedparser's aliases, read through to the key the result holds: ``channel`` → ``feed``,
  ``items`` → ``entries``, ``guid`` → ``id``, ``date`` → ``updated``, ``description`` →
  ``summary`` or ``subtitle``, ``url`` → ``href``, ``copyright`` → ``rights``,
  ``tagline`` → ``subtitle``, ``issued`` → ``published``, ``modified`` → ``updated`` …
  (and their ``_detail`` / ``_parsed`` forms); writing through an alias writes the key
  it stands for;
- computed keys: ``category`` (the first tag's term), ``enclosures`` (the links whose
  ``rel`` is ``enclosure``, without ``rel``) and ``license`` (the first license link);
- ``updated`` and ``updated_parsed`` fall back to ``published`` and
  ``published_parsed`` when absent, with a ``DeprecationWarning``, as feedparser 6 does.

How it stays fast: a key the dictionary holds is read by ``dict`` itself (``d[k]`` runs
no Python code); aliases and computed keys are resolved in ``__missing__``, that is only
for keys the dictionary does not hold. ``get``, ``in`` and ``__missing__`` are C methods
that do the same (the functions below are their fallbacks for ``category``, ``license``
and keys that are not strings).
Attribute access goes through class properties whose getter is C code (``entry.title``
runs no Python code): one per key of feedparser's result, and one added for every other
key the first time a result, ``__setitem__``, ``update`` or the constructor holds it (at
most ``MAX_ATTRIBUTE_KEYS``; past that, the class gets a ``__getattr__``, slower for
every attribute but complete). There is no ``__getattr__`` until then because its mere
presence makes every method call on the class allocate a bound method (``d.get(k)``
cost half as much again). Assigning a key's attribute (``entry.title = x``) writes the
key; other attributes are the instance's own, as in feedparser. A result never holds a key under an alias's name
next to the key the alias stands for, but for the rare dictionary that does (an element
named ``license`` beside a license link), the converter gives it the class
``_ShadowingFeedParserDict``, which resolves aliases first, exactly as feedparser does.
"""

import sys
import warnings

from . import _core

__all__ = ["FeedParserDict"]

_MISSING = object()


class _MissingKey(KeyError, AttributeError):
    """A key that is not there: a ``KeyError`` for ``d[k]``, an ``AttributeError`` for
    ``d.k`` (so that ``getattr(d, k, default)`` and ``hasattr`` work through the
    properties)."""

    def __str__(self):
        return KeyError.__str__(self)

#: Alias -> the key (or keys, tried in order) it reads.
_KEYMAP = {
    "channel": "feed",
    "items": "entries",
    "guid": "id",
    "date": "updated",
    "date_parsed": "updated_parsed",
    "description": ["summary", "subtitle"],
    "description_detail": ["summary_detail", "subtitle_detail"],
    "url": ["href"],
    "modified": "updated",
    "modified_parsed": "updated_parsed",
    "issued": "published",
    "issued_parsed": "published_parsed",
    "copyright": "rights",
    "copyright_detail": "rights_detail",
    "tagline": "subtitle",
    "tagline_detail": "subtitle_detail",
}

#: Keys computed from others.
_COMPUTED = ("category", "enclosures", "license")

#: Every key whose reading is not a plain lookup (the converter's list must match).
SHADOWING_KEYS = frozenset(_KEYMAP) | frozenset(_COMPUTED)


#: The module the fallback's warning is filed under: feedparser's, so that the filters
#: programs set for feedparser's own warning (``filterwarnings("ignore",
#: module="feedparser")``, pytest's ``ignore::DeprecationWarning:feedparser``) apply.
_WARNING_MODULE = "feedparser.util"


#: The fallback's warning text for each key.
_FALLBACK_TEXT = {
    key: "%r is absent; %r was given in its place (feedparser 6's temporary mapping from "
         "%r to %r). Read %r directly." % (key, fallback, key, fallback, fallback)
    for key, fallback in (("updated", "published"), ("updated_parsed", "published_parsed"))
}

#: The warning filters (and default action) under which both texts are ignored whatever
#: the reader's line: a snapshot, compared with the filters at each warning.
_IGNORED_UNDER = [None]


def _ignored():
    """Whether ``warnings`` would ignore the fallback's warning right now, decided once
    per state of the filters as ``warnings.warn_explicit`` decides it (the first filter
    whose text, category and module match gives the action; else the default action).
    Reading ``updated`` from every entry of an RSS feed otherwise paid the whole
    filter walk per read (3.5 against 0.4 microseconds)."""
    filters = warnings.filters
    state = (tuple(filters), warnings.defaultaction)
    if _IGNORED_UNDER[0] == state:
        return True
    for text in _FALLBACK_TEXT.values():
        action = warnings.defaultaction
        for act, msg, cat, mod, lineno in filters:
            if lineno:
                return False  # a filter of one line: left to warnings, line by line
            if ((msg is None or msg.match(text)) and issubclass(DeprecationWarning, cat)
                    and (mod is None or (mod == _WARNING_MODULE if isinstance(mod, str)
                                         else mod.match(_WARNING_MODULE)))):
                action = act
                break
        if action != "ignore":
            return False
    _IGNORED_UNDER[0] = state
    return True


def _warn_fallback(key, depth):
    """Warns that ``key`` (``updated`` or ``updated_parsed``) was read through its
    ``published`` counterpart. The file and line shown are the reader's, ``depth``
    frames up (the frame of this function is 0), and so is the registry that shows a
    warning once per line; the module the filters match is ``_WARNING_MODULE``, and
    the text names feedparser's "temporary mapping", which filters on its message
    match. Returns True when the filters ignore the warning whatever the line (the C
    lookup then skips this call until the filters change)."""
    if _ignored():
        return True
    try:
        frame = sys._getframe(depth)
    except ValueError:  # called from no Python code at all
        frame = None
    if frame is None:
        filename, lineno, registry = "sys", 1, None
    else:
        filename, lineno = frame.f_code.co_filename, frame.f_lineno
        registry = frame.f_globals.setdefault("__warningregistry__", {})
    warnings.warn_explicit(_FALLBACK_TEXT[key], DeprecationWarning, filename, lineno,
                           module=_WARNING_MODULE, registry=registry)
    return False


def _resolve(d, key):
    """What ``key`` stands for in ``d`` beyond a plain lookup, or ``_MISSING``."""
    if key == "category":
        # The first tag's term; a first tag without one leaves ``category`` absent.
        tags = dict.get(d, "tags")
        if tags and isinstance(tags[0], dict) and "term" in tags[0]:
            return tags[0]["term"]
        return _MISSING
    if key == "enclosures":
        links = dict.get(d, "links", _MISSING)
        if links is _MISSING:
            return _MISSING
        return [
            FeedParserDict((k, v) for k, v in link.items() if k != "rel")
            for link in links
            if isinstance(link, dict) and link.get("rel") == "enclosure"
        ]
    if key == "license":
        for link in dict.get(d, "links") or ():
            if isinstance(link, dict) and link.get("rel") == "license" and "href" in link:
                return link["href"]
        return _MISSING
    if key == "updated" or key == "updated_parsed":
        value = dict.get(d, "published" + key[7:], _MISSING)
        if value is not _MISSING:
            _warn_fallback(key, 3)  # 1: this, 2: __missing__ or a fallback, 3: the reader
        return value
    real = _KEYMAP.get(key, _MISSING) if isinstance(key, str) else _MISSING
    if real is _MISSING:
        return _MISSING
    if isinstance(real, list):
        for k in real:
            value = dict.get(d, k, _MISSING)
            if value is not _MISSING:
                return value
        return _MISSING
    return dict.get(d, real, _MISSING)


class FeedParserDict(dict):
    """A ``dict`` with feedparser's attribute access, aliases and computed keys."""

    #: Alias -> the key (or keys, tried in order) it reads, as in feedparser.
    keymap = _KEYMAP

    def __missing__(self, key):
        value = _resolve(self, key)
        if value is _MISSING:
            if key == "category":
                raise _MissingKey("object doesn't have key 'category'")
            raise _MissingKey(key)
        return value

    # ``get`` and ``__contains__`` are C methods (see the end of this module): a key the
    # dictionary holds is answered in C, any other by ``_get_missing`` and
    # ``_contains_missing``.

    def __init__(self, *args, **kwargs):
        dict.__init__(self, *args, **kwargs)
        _register_all(self)

    def update(self, *args, **kwargs):
        dict.update(self, *args, **kwargs)
        _register_all(self)

    def __setitem__(self, key, value):
        real = _KEYMAP.get(key, key) if isinstance(key, str) else key
        if isinstance(real, list):
            real = real[0]
        dict.__setitem__(self, real, value)
        if real not in _registered:
            _register_attribute(real)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
            return default
        return self[key]

    def __hash__(self):
        # feedparser's dictionaries are hashable by identity; code keeps them in sets.
        return id(self)

    def __reduce_ex__(self, protocol):
        # As a dict subclass pickles and copies by default (its class, subclasses
        # included, made without calling __init__; its instance attributes kept), with
        # the items put back as they are (not through __setitem__, which would move a
        # key held under an alias's name to the key the alias stands for).
        return (_rebuild, (type(self), dict(self), getattr(self, "__dict__", None) or None))


def _rebuild(cls, items, attributes):
    """A ``FeedParserDict`` (or subclass) made again from its pickled parts."""
    d = cls.__new__(cls)
    dict.update(d, items)
    _register_all(d)
    if attributes:
        d.__dict__.update(attributes)
    return d


def _get_missing(self, key, default=None):
    """``get`` for a key the dictionary does not hold."""
    value = _resolve(self, key)
    return default if value is _MISSING else value


def _contains_missing(self, key):
    """``in`` for a key the dictionary does not hold."""
    if key == "updated" or key == "updated_parsed":
        return False
    try:
        return _resolve(self, key) is not _MISSING
    except TypeError:  # an unhashable key
        return False


_core.install_fast_methods(FeedParserDict, _get_missing, _contains_missing,
                           FeedParserDict.__dict__["__missing__"], _MissingKey,
                           _warn_fallback)
FeedParserDict.has_key = FeedParserDict.__contains__

#: Keys read as attributes through C-level properties: feedparser's result keys and
#: aliases (not the names of ``dict``'s own methods, which attributes keep).
_PROPERTY_KEYS = (
    # the result
    "bozo", "bozo_exception", "bozo_exceptions", "encoding", "version", "namespaces",
    "headers", "href", "status", "etag", "modified", "modified_parsed", "feed", "entries",
    "decoding",
    # feed and entries
    "title", "title_detail", "link", "links", "subtitle", "subtitle_detail", "summary",
    "summary_detail", "content", "id", "guidislink", "author", "author_detail", "authors",
    "contributors", "publisher", "publisher_detail", "rights", "rights_detail", "info",
    "info_detail", "language", "generator", "generator_detail", "docs", "ttl", "icon",
    "logo", "image", "textinput", "cloud", "comments", "source", "tags", "published",
    "published_parsed", "updated", "updated_parsed", "created", "created_parsed",
    "expired", "expired_parsed", "where", "podcast",
    # details, links, persons, tags
    "type", "base", "value", "src", "rel", "length", "name", "email", "term", "scheme",
    "label", "width", "height", "url",
    # aliases and computed keys
    "channel", "guid", "date", "date_parsed", "description", "description_detail",
    "issued", "issued_parsed", "copyright", "copyright_detail", "tagline",
    "tagline_detail", "category", "enclosures", "license",
)


def _key_property(key):
    def set_key(self, value):
        self[key] = value

    def del_key(self):
        del self[key]

    # `d[key]`, in C; an absent key raises feedparser's AttributeError.
    return property(_core.key_getter(key), set_key, del_key,
                    "The %r key (or what it stands for)." % key)


#: Most keys given a property of their own (a feed of a million distinct element names
#: must not grow the class for good).
MAX_ATTRIBUTE_KEYS = 4096

#: Keys whose attribute is served (a property, a method of ``dict``, a class attribute).
_registered = set()


def _fallback_getattr(self, key):
    try:
        return self[key]
    except KeyError:
        raise AttributeError("object has no attribute '%s'" % key) from None


def _register_attribute(key):
    """Makes ``d.<key>`` read ``d[key]`` on every ``FeedParserDict``."""
    if key in _registered or not isinstance(key, str):
        return
    if len(_registered) >= MAX_ATTRIBUTE_KEYS:
        if "__getattr__" not in FeedParserDict.__dict__:
            FeedParserDict.__getattr__ = _fallback_getattr
        return
    _registered.add(key)
    if not key.startswith("__") and not hasattr(FeedParserDict, key):
        setattr(FeedParserDict, key, _key_property(key))


def _register_all(d):
    for key in dict.keys(d):
        if key not in _registered:
            _register_attribute(key)


for _key in _PROPERTY_KEYS:
    _register_attribute(_key)
del _key
for _key in dir(FeedParserDict):
    _registered.add(_key)
del _key


class _ShadowingFeedParserDict(FeedParserDict):
    """A ``FeedParserDict`` that holds a key under an alias's (or computed key's) name:
    aliases are resolved first, as in feedparser, then the key it holds."""

    def __getitem__(self, key):
        if key in SHADOWING_KEYS:
            value = _resolve(self, key)
            if value is not _MISSING:
                return value
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key):
        if key in SHADOWING_KEYS and _resolve(self, key) is not _MISSING:
            return True
        return dict.__contains__(self, key) or _contains_missing(self, key)

    has_key = __contains__
