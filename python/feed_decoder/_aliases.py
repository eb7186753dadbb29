"""Imports of this package's submodules through another name for the package.

Programs written for feedparser import its submodules: ``import feedparser.http``,
``from feedparser.sanitizer import _sanitize_html``, ``mock.patch("feedparser.http.get")``.
With ``sys.modules["feedparser"] = feed_decoder`` the import system would load such a
name from this package's files a second time, as a separate module: a patch of
``feedparser.http.get`` would then never be seen by ``parse``, and the extension module
cannot be loaded twice at all. The finder installed here (first on ``sys.meta_path``)
answers an import of ``ALIAS.NAME``, where ``ALIAS`` is this package (or one of its
modules) under another name, with the module already loaded as
``feed_decoder.NAME``: ``feedparser.http is feed_decoder.http``.

It answers too for a package of its own that stands in for feedparser by re-exporting
this one (``from feed_decoder import *`` and ``from feed_decoder import http, util``):
``import feedparser.util`` gives the module its ``util`` attribute holds, when that is
one of this package's modules.
"""

import importlib
import importlib.machinery
import sys
import types

_PACKAGE = __name__.rpartition(".")[0]


def _real_name(module):
    """The name ``module`` was loaded as, when it is this package or one of its
    modules; else ``None``."""
    try:
        name = module.__name__
    except Exception:  # an arbitrary object someone put in sys.modules
        return None
    if isinstance(name, str) and (name == _PACKAGE or name.startswith(_PACKAGE + ".")):
        return name
    return None


class _Loader:
    """Gives the import system the module already loaded, unchanged."""

    def __init__(self, module):
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        # The import system has just set the module's __spec__ to the alias's.
        module.__spec__ = self.spec


class _Finder:
    """Finds ``ALIAS.NAME`` when ``sys.modules[ALIAS]`` is this package under another
    name (see the module's documentation)."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        parent, dot, child = fullname.rpartition(".")
        if not dot:
            return None
        parent_module = sys.modules.get(parent)
        real = _real_name(parent_module)
        if real is None:
            # A module of another name re-exporting one of this package's modules (read
            # from its namespace as it stands: no attribute hook of an unrelated module
            # is run).
            try:
                held = vars(parent_module).get(child)
            except TypeError:  # no namespace (absent, or an odd object)
                return None
            if not isinstance(held, types.ModuleType) or _real_name(held) is None:
                return None
            return importlib.machinery.ModuleSpec(fullname, _Loader(held))
        if real == parent:
            return None
        name = real + "." + child
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            raise ModuleNotFoundError("No module named %r" % fullname, name=fullname) from None
        return importlib.machinery.ModuleSpec(fullname, _Loader(module))


def install():
    """Puts the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
