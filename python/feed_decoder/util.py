"""``FeedParserDict``: the dictionary every part of a result is made of.

A ``dict`` subclass, as in feedparser, so that ``isinstance(x, dict)``, ``json.dumps``,
``copy`` and ``pickle`` work as they always did. On top of plain item access it gives:

- attribute access: ``entry.title`` is ``entry["title"]`` (``AttributeError`` when absent);
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
"""

import warnings

__all__ = ["FeedParserDict"]

_MISSING = object()


class FeedParserDict(dict):
    """A ``dict`` with feedparser's attribute access, aliases and computed keys."""

    #: Alias -> the key (or keys, tried in order) it reads.
    keymap = {
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

    def _lookup(self, key):
        """The value ``key`` stands for, or ``_MISSING``."""
        if key == "category":
            tags = dict.get(self, "tags")
            if not tags:
                return _MISSING
            first = tags[0]
            return first.get("term") if isinstance(first, dict) else _MISSING
        if key == "enclosures":
            links = dict.get(self, "links", _MISSING)
            if links is _MISSING:
                return _MISSING
            return [
                FeedParserDict((k, v) for k, v in link.items() if k != "rel")
                for link in links
                if isinstance(link, dict) and link.get("rel") == "enclosure"
            ]
        if key == "license":
            for link in dict.get(self, "links") or ():
                if isinstance(link, dict) and link.get("rel") == "license" and "href" in link:
                    return link["href"]
            return dict.get(self, key, _MISSING)
        if key in ("updated", "updated_parsed"):
            value = dict.get(self, key, _MISSING)
            if value is _MISSING:
                fallback = "published" + key[len("updated"):]
                value = dict.get(self, fallback, _MISSING)
                if value is not _MISSING:
                    warnings.warn(
                        "%r is absent; %r was given in its place (feedparser 6's "
                        "fallback). Read %r directly." % (key, fallback, fallback),
                        DeprecationWarning,
                        stacklevel=4,
                    )
            return value
        real = self.keymap.get(key, key)
        if isinstance(real, list):
            for k in real:
                value = dict.get(self, k, _MISSING)
                if value is not _MISSING:
                    return value
            return dict.get(self, key, _MISSING)
        value = dict.get(self, real, _MISSING)
        if value is _MISSING and real != key:
            value = dict.get(self, key, _MISSING)
        return value

    def __getitem__(self, key):
        value = self._lookup(key)
        if value is _MISSING:
            if key == "category":
                raise KeyError("object doesn't have key 'category'")
            raise KeyError(key)
        return value

    def __contains__(self, key):
        if key in ("updated", "updated_parsed"):
            return dict.__contains__(self, key)
        try:
            return self._lookup(key) is not _MISSING
        except TypeError:  # an unhashable key
            return False

    has_key = __contains__

    def get(self, key, default=None):
        value = self._lookup(key)
        return default if value is _MISSING else value

    def __setitem__(self, key, value):
        real = self.keymap.get(key, key)
        if isinstance(real, list):
            real = real[0]
        dict.__setitem__(self, real, value)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
            return default
        return self[key]

    def __getattr__(self, key):
        # Only called when normal attribute lookup fails.
        if key.startswith("__") and key.endswith("__"):
            raise AttributeError(key)
        value = self._lookup(key)
        if value is _MISSING:
            raise AttributeError("object has no attribute '%s'" % key)
        return value

    def __hash__(self):
        # feedparser's dictionaries are hashable by identity; code keeps them in sets.
        return id(self)

    def __reduce__(self):
        return (type(self), (dict(self),))
