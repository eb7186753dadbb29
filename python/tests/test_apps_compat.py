"""What applications written for feedparser rely on beyond the parsed values: the filters
they set on its warning, the reader they swap in for ``api._open_resource``, the result
of an empty document, and the ways they put this package in feedparser's place."""

import http.server
import io
import os
import subprocess
import sys
import textwrap
import threading
import urllib.error
import warnings
from unittest import mock

import pytest

import feed_decoder
import feed_decoder as feedparser
from feed_decoder import FeedParserDict

RSS = (b"<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel><title>T</title>"
       b"<item><title>One</title><pubDate>Wed, 01 Jan 2025 12:00:00 GMT</pubDate></item>"
       b"</channel></rss>")


def run_python(tmp_path, code):
    """Runs ``code`` in a new interpreter, away from the source folder (which ``-c`` would
    put first on the path, where the package has no built extension)."""
    subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=True, cwd=tmp_path)


# The ways a program puts this package in feedparser's place.


def test_urls_is_loaded_on_first_use_as_itself(tmp_path):
    run_python(tmp_path, """
        import feed_decoder
        assert feed_decoder.urls.__name__ == "feed_decoder.urls"
        assert feed_decoder.urls.make_safe_absolute_uri("http://e.org/a/", "b") \\
            == "http://e.org/a/b"
        assert feed_decoder.http.__name__ == "feed_decoder.http"
    """)
