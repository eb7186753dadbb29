"""The Python API: inputs, options, the result's shape, aliases and exceptions."""

import copy
import datetime
import io
import json
import pathlib
import pickle
import subprocess
import sys
import time
import warnings
import xml.sax

import pytest

import feed_decoder
import feed_decoder as feedparser
from feed_decoder import FeedParserDict

RSS = (
    b"<?xml version='1.0' encoding='utf-8'?>"
    b"<rss version='2.0' xmlns:dc='http://purl.org/dc/elements/1.1/'><channel>"
    b"<title>News</title><link>http://example.org/</link>"
    b"<description>All the news</description><copyright>(c) me</copyright>"
    b"<item><title>First</title><link>http://example.org/1</link>"
    b"<guid isPermaLink='false'>id-1</guid>"
    b"<description>&lt;p onclick='x()'&gt;Hi &lt;a href='/a'&gt;there&lt;/a&gt;&lt;/p&gt;</description>"
    b"<pubDate>Sun, 06 Nov 1994 08:49:37 GMT</pubDate>"
    b"<category domain='http://ex.org/cat'>tech</category><category>news</category>"
    b"<enclosure url='http://example.org/a.mp3' length='123' type='audio/mpeg'/>"
    b"<dc:creator>Ann</dc:creator>"
    b"</item></channel></rss>"
)

ATOM = (
    b"<feed xmlns='http://www.w3.org/2005/Atom' xml:lang='en'><title type='html'>T &amp;amp; U</title>"
    b"<subtitle>Sub</subtitle><rights>R</rights><id>urn:x</id>"
    b"<updated>2003-12-13T18:30:02Z</updated>"
    b"<entry><title>E</title><id>urn:e</id><published>2003-12-13T08:29:29-04:00</published>"
    b"<link rel='license' href='http://creativecommons.org/licenses/by/4.0/'/>"
    b"<link rel='alternate' href='http://example.org/e'/>"
    b"<content type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'><b>x</b></div></content>"
    b"</entry></feed>"
)


def test_result_keys_are_the_json_contracts():
    d = feedparser.parse(RSS)
    assert isinstance(d, FeedParserDict) and isinstance(d, dict)
    assert set(d) == {"bozo", "bozo_exceptions", "decoding", "encoding", "entries", "feed",
                      "headers", "namespaces", "version"}
    assert d.headers == {} and type(d.headers) is dict  # feedparser's, for local input
    assert d.bozo is False and d.bozo_exceptions == []
    assert "bozo_exception" not in d
    assert d.version == "rss20" and d.encoding == "utf-8"
    assert d.namespaces == {"dc": "http://purl.org/dc/elements/1.1/"}
    assert type(d.namespaces) is dict
    assert d.decoding.chosen.encoding == "utf-8"
    assert d.decoding["rfc3023"]["rule"]


def test_every_object_is_a_feedparserdict():
    d = feedparser.parse(RSS)
    e = d.entries[0]
    for value in (d.feed, e, e.summary_detail, e.links[0], e.tags[0], e.author_detail,
                  d.feed.title_detail, d.decoding):
        assert isinstance(value, FeedParserDict), value


def test_feedparser_aliases():
    d = feedparser.parse(RSS)
    e = d.entries[0]
    assert d.channel is d.feed and d["items"] is d.entries
    assert e.guid == e.id == "id-1"
    assert e.description == e.summary
    assert e.description_detail is e.summary_detail
    assert d.feed.description == d.feed.subtitle == "All the news"
    assert d.feed.tagline == d.feed.subtitle
    assert d.feed.tagline_detail is d.feed.subtitle_detail
    assert d.feed.copyright == d.feed.rights == "(c) me"
    assert d.feed.copyright_detail is d.feed.rights_detail
    assert e.issued == e.published and e.issued_parsed == e.published_parsed
    assert e.links[0].url == e.links[0].href
    assert e.category == "tech"
    assert [t.term for t in e.tags] == ["tech", "news"]
    assert e.enclosures == [{"href": "http://example.org/a.mp3", "length": "123",
                             "type": "audio/mpeg"}]
    assert all(isinstance(x, FeedParserDict) for x in e.enclosures)
    assert "enclosures" not in dict.keys(e)  # computed, not stored
    assert e.author == "Ann" and e.author_detail.name == "Ann"


def test_alias_membership_get_and_setitem():
    e = feedparser.parse(RSS).entries[0]
    assert "guid" in e and "description" in e and "category" in e
    assert "license" not in e and e.get("license") is None
    assert e.get("nope", 7) == 7
    with pytest.raises(KeyError):
        e["nope"]
    with pytest.raises(AttributeError):
        e.nope
    e["guid"] = "new"
    assert dict.__getitem__(e, "id") == "new" and "guid" not in dict.keys(e)
    e["description"] = "s"
    assert dict.__getitem__(e, "summary") == "s"
    assert e.setdefault("comments", "c") == "c" and e.comments == "c"
    assert e.setdefault("comments", "d") == "c"
    assert hash(e) == id(e) and e in {e}


def test_updated_falls_back_to_published_with_a_warning():
    e = feedparser.parse(ATOM).entries[0]
    assert "updated" not in e
    with pytest.warns(DeprecationWarning):
        assert e.updated == e.published
    with pytest.warns(DeprecationWarning):
        assert e["updated_parsed"] == e.published_parsed
    d = feedparser.parse(ATOM)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert d.feed.updated == "2003-12-13T18:30:02Z"


def test_the_fallback_warning_follows_every_change_of_the_filters():
    # Once found ignored, the warning is not looked at again until the filters change:
    # each change below must be seen.
    e = feedparser.parse(ATOM).entries[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for _ in range(3):
            assert e.get("updated") == e.published
        warnings.simplefilter("error")  # a new first filter
        with pytest.raises(DeprecationWarning):
            e.get("updated")
        warnings.filterwarnings("ignore", category=DeprecationWarning)  # moved first
        assert e.get("updated_parsed") == e.published_parsed
        warnings.resetwarnings()
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(DeprecationWarning):
            e["updated"]
    with warnings.catch_warnings(record=True) as caught:  # a copy in the list's place
        warnings.simplefilter("always")
        e.get("updated")
        e.get("updated")
    assert len(caught) == 2


def test_absent_keys_through_get_in_and_item_access():
    # get, in and d[k] answer aliases, the updated fallback and enclosures without the
    # Python fallbacks; each path must agree with the others.
    e = feedparser.parse(ATOM).entries[0]
    with pytest.warns(DeprecationWarning) as caught:
        assert e.get("updated") == e.published
        assert e.get("updated_parsed", 7) == e.published_parsed
    assert [str(w.message) for w in caught] == [
        "'updated' is absent; 'published' was given in its place (feedparser 6's "
        "temporary mapping from 'updated' to 'published'). Read 'published' directly.",
        "'updated_parsed' is absent; 'published_parsed' was given in its place "
        "(feedparser 6's temporary mapping from 'updated_parsed' to 'published_parsed'). "
        "Read 'published_parsed' directly.",
    ]
    assert all(w.filename == __file__ for w in caught)  # the caller's line
    assert "updated" not in e and "updated_parsed" not in e
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning):
            e.get("updated")
        with pytest.raises(DeprecationWarning):
            e["updated"]
    assert e.get("content") is not None and e.get("comments") is None
    assert e.get("comments", 3) == 3 and "comments" not in e
    with pytest.raises(KeyError) as missing:
        e["comments"]
    assert missing.value.args == ("comments",)
    assert e.get("date") is None and "date" not in e  # an alias of an absent key
    assert e.get("issued") == e["issued"] == e.published and "issued" in e
    assert e.get(("a", 1)) is None and ("a", 1) not in e  # not a string
    with pytest.raises(TypeError):
        e.get([1])  # unhashable, as for a dict
    r = feedparser.parse(RSS).entries[0]
    assert r.get("enclosures") == r["enclosures"] == r.enclosures
    assert "enclosures" in r and r.enclosures[0] is not r.enclosures[0]
    assert "rel" not in r.get("enclosures")[0]
    bare = FeedParserDict(title="t")
    assert bare.get("enclosures") is None and "enclosures" not in bare
    hand = FeedParserDict(links=[{"rel": "enclosure", "href": "a"}, "x",
                                 FeedParserDict(rel="alternate", href="b")])
    assert hand.get("enclosures") == [{"href": "a"}]
    assert type(hand.enclosures[0]) is FeedParserDict
    odd = FeedParserDict(links=({"rel": "enclosure", "href": "a"},))  # not a list
    assert odd.enclosures == [{"href": "a"}]
    # Strings made at run time (not the interned ones) and str subclasses compare by
    # their text, as Python compares them.
    made = "".join(["enc", "losure"])
    rel = "".join(["r", "el"])

    class Text(str):
        pass

    built = FeedParserDict(links=[{rel: made, "href": "a"}, {"rel": Text("enclosure"),
                                                             "href": "b"},
                                  {"rel": "enclosures", "href": "c"}, {"rel": 1}])
    assert built.get("enclosures") == [{"href": "a"}, {"href": "b"}]


def test_get_takes_one_or_two_arguments_as_dict_get_does():
    e = feedparser.parse(RSS).entries[0]
    assert e.get("title", 1) == e.get("title") == e["title"]
    assert e.get("nope", None) is None and e.get("nope", "d") == "d"
    for args, message in (((), "get expected at least 1 argument, got 0"),
                          (("a", 1, 2), "get expected at most 2 arguments, got 3")):
        with pytest.raises(TypeError, match=message):
            e.get(*args)
        with pytest.raises(TypeError, match=message):
            {}.get(*args)
    with pytest.raises(TypeError):
        e.get(key="title")


def test_absent_attribute_is_feedparsers_attribute_error():
    d = feedparser.parse(RSS)
    e = d.entries[0]
    for obj, key in ((d, "status"), (e, "expired"), (e, "license"), (d.feed, "nope")):
        with pytest.raises(AttributeError) as info:
            getattr(obj, key)
        assert not isinstance(info.value, KeyError)
        assert "object has no attribute '%s'" % key in str(info.value)
        assert getattr(obj, key, 7) == 7 and not hasattr(obj, key)
    with pytest.raises(KeyError):
        d["status"]
    # An attribute the class serves through a property reads the key, aliases included.
    assert e.guid == e["id"] and d.channel is d["feed"]
    # Errors other than an absent key pass through (here a warning made an error).
    # (`updated` of an entry with only `published` warns that it reads `published`.)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(DeprecationWarning):
            e.updated


def test_license_and_empty_category():
    d = feedparser.parse(ATOM)
    e = d.entries[0]
    assert e.license == "http://creativecommons.org/licenses/by/4.0/"
    with pytest.raises(KeyError):
        e["category"]
    with pytest.raises(AttributeError):
        e.category
    assert "category" not in e
    assert e.content[0].type == "application/xhtml+xml"
    assert e.content[0].value == "<b>x</b>"


def test_dates_are_struct_times_in_utc():
    d = feedparser.parse(ATOM)
    p = d.entries[0].published_parsed
    assert isinstance(p, time.struct_time)
    assert tuple(p) == (2003, 12, 13, 12, 29, 29, 5, 347, 0)
    assert tuple(d.feed.updated_parsed)[:6] == (2003, 12, 13, 18, 30, 2)
    assert feedparser.parse(b"<rss><channel><item><pubDate>not a date</pubDate></item>"
                            b"</channel></rss>").entries[0].published_parsed is None


def test_html_is_sanitized_and_resolved_against_the_base():
    d = feedparser.parse(RSS, response_headers={"content-location": "http://example.org/f"})
    assert d.entries[0].summary == '<p>Hi <a href="http://example.org/a">there</a></p>'
    raw = feedparser.parse(RSS, sanitize_html=False, resolve_relative_uris=False)
    assert "onclick" in raw.entries[0].summary and "href='/a'" in raw.entries[0].summary


def test_module_settings_are_read_at_each_call():
    try:
        feedparser.SANITIZE_HTML = 0
        assert "onclick" in feedparser.parse(RSS).entries[0].summary
        assert "onclick" not in feedparser.parse(RSS, sanitize_html=True).entries[0].summary
    finally:
        feedparser.SANITIZE_HTML = 1
    assert "onclick" not in feedparser.parse(RSS).entries[0].summary
    headers = {"content-location": "http://example.org/f"}
    try:
        feedparser.RESOLVE_RELATIVE_URIS = 0
        assert 'href="/a"' in feedparser.parse(RSS, response_headers=headers).entries[0].summary
    finally:
        feedparser.RESOLVE_RELATIVE_URIS = 1
    assert 'href="http://example.org/a"' in feedparser.parse(
        RSS, response_headers=headers).entries[0].summary


def test_shared_strings_are_one_object():
    e = feedparser.parse(RSS).entries[0]
    assert e.summary is e.summary_detail.value
    assert e.title is e.title_detail.value


def test_inputs_of_every_kind(tmp_path):
    path = tmp_path / "feed.xml"
    path.write_bytes(RSS)
    results = [
        feedparser.parse(RSS),
        feedparser.parse(RSS.decode("utf-8")),
        feedparser.parse(str(path)),
        feedparser.parse(path),
        feedparser.parse(bytes(str(path), "utf-8")),
        feedparser.parse(io.BytesIO(RSS)),
        feedparser.parse(io.StringIO(RSS.decode("utf-8"))),
        feedparser.parse(bytearray(RSS)),
        feedparser.parse(path.open("rb")),
    ]
    for r in results:
        assert r.feed.title == "News" and r.entries[0].title == "First", r


def test_an_object_that_is_no_document_is_a_type_error():
    # bytes(5) is five NUL bytes: an integer must not be read as a document of them.
    for bad in (5, None, 2.5, object(), [RSS]):
        with pytest.raises(TypeError, match="not " + type(bad).__name__):
            feedparser.parse(bad)
        with pytest.raises(TypeError, match="not " + type(bad).__name__):
            feedparser.parse_many([RSS, bad])
    # Buffers are documents.
    assert feedparser.parse(memoryview(RSS)).feed.title == "News"
    assert feedparser.parse_many([bytearray(RSS)])[0].feed.title == "News"


def test_a_missing_path_is_the_document_itself():
    d = feedparser.parse("/no/such/file.xml")
    assert d.bozo and isinstance(d.bozo_exception, xml.sax.SAXParseException)
    assert d.entries == [] and d.feed == {}


def test_text_keeps_its_characters_whatever_it_declares():
    text = "<?xml version='1.0' encoding='iso-8859-1'?><rss><channel><title>Café</title></channel></rss>"
    assert feedparser.parse(text).feed.title == "Café"


def test_response_headers_make_an_http_response():
    d = feedparser.parse(b"<rss version='2.0'><channel><title>\xe9</title></channel></rss>",
                         response_headers={"Content-Type": "text/xml; charset=iso-8859-1",
                                           "ETag": '"v1"',
                                           "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"})
    assert d.feed.title == "é" and d.encoding == "iso-8859-1"
    assert d.headers["content-type"] == "text/xml; charset=iso-8859-1"
    assert type(d.headers) is dict
    assert d.etag == '"v1"' and d.modified == "Sun, 06 Nov 1994 08:49:37 GMT"
    assert tuple(d.modified_parsed)[:6] == (1994, 11, 6, 8, 49, 37)


def test_bozo_exception_classes_are_feedparsers():
    assert issubclass(feedparser.CharacterEncodingOverride, feedparser.ThingsNobodyCaresAboutButMe)
    assert issubclass(feedparser.CharacterEncodingUnknown, feedparser.ThingsNobodyCaresAboutButMe)
    assert issubclass(feedparser.NonXMLContentType, feedparser.ThingsNobodyCaresAboutButMe)
    # feedparser's class is an Exception; its result reports an unbound prefix as a
    # SAXParseException: this one is both.
    assert issubclass(feedparser.UndeclaredNamespace, xml.sax.SAXParseException)
    assert str(feedparser.UndeclaredNamespace("'x' is not associated")).endswith(
        "'x' is not associated")
    with pytest.raises(feedparser.UndeclaredNamespace):
        raise feedparser.UndeclaredNamespace("made by a program")
    d = feedparser.parse(b"<?xml version='1.0' encoding='utf-8'?><rss><channel><title>\xe9"
                         b"</title></channel></rss>", response_headers={"content-type": "text/plain"})
    kinds = [type(e).__name__ for e in d.bozo_exceptions]
    assert kinds[0] == "NonXMLContentType"
    assert isinstance(d.bozo_exceptions[0], feedparser.NonXMLContentType)
    assert d.bozo_exception is d.bozo_exceptions[-1]
    assert d.bozo == 1


def test_ill_formed_markup_is_a_sax_parse_exception_with_a_position():
    d = feedparser.parse(b"<rss version='2.0'><channel>\n<title>a</titl></channel></rss>")
    e = d.bozo_exception
    assert d.bozo and isinstance(e, xml.sax.SAXParseException)
    # The locator is feedparser's: its XML parser reads the text with a declaration
    # line of feedparser's in front. ``line``/``column`` are the document's.
    assert e.getLineNumber() == 3 and isinstance(e.getColumnNumber(), int)
    assert e.getMessage() == "mismatched tag" and str(e).startswith("<unknown>:3:")
    assert e.line == 2 and e.column == e.getColumnNumber() + 1
    assert e.detail.startswith("mismatched tag: ") and len(e.detail) > len("mismatched tag: ")
    assert d.feed.title == "a"  # the lenient pass still reads it


def test_sax_positions_and_messages_are_expats_in_feedparsers_text():
    # feedparser puts ``<?xml version='1.0' encoding='utf-8'?>`` (38 characters) in
    # place of the document's declaration, or on a line of its own before a document
    # without one; expat counts columns from 0. Checked against feedparser 6.0.14.
    cases = [
        # no declaration: one line more
        (b"<rss><a>&nope;</a></rss>", (2, 8), "undefined entity"),
        # a declaration: same line; on its line the column moves by its length
        (b"<?xml version='1.0'?><rss><a>&nope;</a></rss>", (1, 46), "undefined entity"),
        (b'<?xml version="1.0" encoding="utf-8"?>\n<rss><a>&nope;</a></rss>', (2, 8),
         "undefined entity"),
        # a declaration over two lines
        (b"<?xml version='1.0'\n encoding='utf-8'?>\n\n<rss><a>&nope;</a></rss>", (3, 8),
         "undefined entity"),
        # a byte order mark before it changes nothing
        (b"\xef\xbb\xbf<?xml version='1.0'?>\n<rss><a>&nope;</a></rss>", (2, 8),
         "undefined entity"),
        # a reference no `;` closes: at the first character that cannot go on with it
        (b"<rss><a>?a=1&b=2</a></rss>", (2, 14), "not well-formed (invalid token)"),
        # a character reference not as XML writes it
        (b"<rss><a>&#X41;</a></rss>", (2, 10), "not well-formed (invalid token)"),
    ]
    for data, at, message in cases:
        e = feedparser.parse(data).bozo_exception
        assert isinstance(e, xml.sax.SAXParseException), data
        assert (e.getLineNumber(), e.getColumnNumber()) == at, data
        assert e.getMessage() == message and e.args == (message,), data
        assert str(e) == "<unknown>:%d:%d: %s" % (at + (message,)), data
        assert e.detail.startswith(message + ": "), data


def test_judgements_feedparser_does_not_make_leave_its_flag_down():
    # UTF-8 bytes declared iso-8859-1: feedparser keeps iso-8859-1 (it decodes) and says
    # nothing; the engine reads UTF-8 and records the override, in bozo_exceptions only,
    # so that a program turning away feeds feedparser calls broken keeps this one.
    data = "<?xml version='1.0' encoding='iso-8859-1'?><rss version='2.0'><channel>" \
           "<title>Crème brûlée</title></channel></rss>"
    d = feedparser.parse(data.encode("utf-8"))
    assert d.feed.title == "Crème brûlée" and d.encoding == "utf-8"
    assert d.bozo is False and "bozo_exception" not in d
    (e,) = d.bozo_exceptions
    assert isinstance(e, feedparser.CharacterEncodingOverride) and e.judged
    # An encoding that does not decode the bytes is overridden by feedparser too.
    d = feedparser.parse(data.replace("iso-8859-1", "us-ascii").encode("utf-8"))
    assert d.bozo and isinstance(d.bozo_exception, feedparser.CharacterEncodingOverride)
    assert not d.bozo_exception.judged
    # With a problem feedparser reports, that one is the exception (a media type that is
    # not XML, under which the declared encoding stands).
    d = feedparser.parse(data.encode("utf-8"),
                         response_headers={"content-type": "application/octet-stream"})
    assert d.bozo and isinstance(d.bozo_exception, feedparser.NonXMLContentType)
    assert [e.judged for e in d.bozo_exceptions] == [False, True]


def test_bozo_exception_is_the_problem_feedparser_would_report():
    # ``--`` in a comment (feedparser's XML parser stops there), then content marked
    # base64 that is not, which only the engine reports: feedparser's problem wins.
    data = (b"<!-- a -- b --><feed xmlns='http://www.w3.org/2005/Atom'><entry>"
            b"<title type=''>evil</title></entry></feed>")
    d = feedparser.parse(data)
    kinds = [type(e).__name__ for e in d.bozo_exceptions]
    assert kinds == ["SAXParseException", "InvalidBase64"]
    assert d.bozo_exception is d.bozo_exceptions[0] and d.bozo == 1
    assert d.entries[0].title == "evil"
    # Alone, that finding is the engine's judgement (feedparser keeps such content as
    # published, silently): in bozo_exceptions only.
    d = feedparser.parse(data[len(b"<!-- a -- b -->"):])
    assert d.bozo is False and "bozo_exception" not in d
    assert [type(e).__name__ for e in d.bozo_exceptions] == ["InvalidBase64"]
    assert d.bozo_exceptions[0].judged


def test_undeclared_namespace_and_encoding_unknown():
    d = feedparser.parse(b"<rss version='2.0'><channel>\n<x:y>1</x:y></channel></rss>")
    e = d.bozo_exception
    assert isinstance(e, feedparser.UndeclaredNamespace)
    # As feedparser's result has it: a SAXParseException, "unbound prefix", bozo 1.
    assert isinstance(e, xml.sax.SAXParseException) and d.bozo == 1
    assert e.getMessage() == "unbound prefix" and e.getLineNumber() == 3 and e.line == 2
    d = feedparser.parse(b"\x00\x01<rss>\xff\xfe\x00</rss>", response_headers={"content-type": "text/xml; charset=bogus"})
    assert d.bozo


def test_json_decode_errors_are_json_decode_errors():
    d = feedparser.parse(b'{"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [',
                         response_headers={"content-type": "application/feed+json"})
    first = d.bozo_exceptions[0]
    assert d.bozo and isinstance(first, json.JSONDecodeError)
    assert isinstance(first.lineno, int) and isinstance(first.colno, int)
    assert d.feed.title == "T"


def test_json_feed():
    doc = {"version": "https://jsonfeed.org/version/1.1", "title": "J",
           "home_page_url": "https://example.org/",
           "items": [{"id": "1", "content_html": "<p>x</p>", "date_published": "2020-01-02T03:04:05Z",
                      "tags": ["a"], "attachments": [{"url": "https://example.org/a.mp3",
                                                      "mime_type": "audio/mpeg"}]}]}
    d = feedparser.parse(json.dumps(doc).encode())
    assert d.version == "json11" and d.feed.title == "J"
    e = d.entries[0]
    assert e.id == "1" and e.category == "a"
    assert tuple(e.published_parsed)[:6] == (2020, 1, 2, 3, 4, 5)
    assert e.enclosures[0].href == "https://example.org/a.mp3"


def test_engine_options():
    title = "Новости дня и последние события в мире"
    latin = ("<?xml version='1.0' encoding='iso-8859-1'?><rss><channel><title>%s</title>"
             "</channel></rss>" % title).encode("cp1251")
    assert feedparser.parse(latin).feed.title == title
    assert feedparser.parse(latin, policy="feedparser").feed.title == title.encode("cp1251").decode("latin-1")
    with pytest.raises(ValueError):
        feedparser.parse(latin, policy="nope")
    many = b"<rss><channel>" + b"<item><title>x</title></item>" * 10 + b"</channel></rss>"
    d = feedparser.parse(many, max_entries=3)
    assert len(d.entries) == 3 and d.bozo
    assert isinstance(d.bozo_exception, feedparser.LimitExceeded)


def test_registered_date_handlers_come_first():
    from feed_decoder import datetimes
    feed = b"<rss><channel><item><pubDate>the day after</pubDate></item></channel></rss>"

    def tomorrow(text):
        return (2020, 1, 2, 0, 0, 0, 3, 2, 0) if text == "the day after" else None

    feedparser.registerDateHandler(tomorrow)
    try:
        assert tuple(feedparser.parse(feed).entries[0].published_parsed) == (2020, 1, 2, 0, 0, 0, 3, 2, 0)
        assert datetimes._parse_date("the day after")[0] == 2020
        assert datetimes._parse_date("2003-12-31T10:14:55Z")[:6] == (2003, 12, 31, 10, 14, 55)
    finally:
        datetimes._date_handlers.remove(tomorrow)
    assert feedparser.parse(feed).entries[0].published_parsed is None


def test_results_copy_and_pickle():
    d = feedparser.parse(RSS)
    for other in (copy.deepcopy(d), pickle.loads(pickle.dumps(d)), copy.copy(d)):
        assert isinstance(other, FeedParserDict) and other == d
        assert other.entries[0].guid == "id-1"
    assert json.loads(json.dumps(d, default=str))["feed"]["title"] == "News"


def test_feedparser_module_shape():
    for name in ("parse", "FeedParserDict", "registerDateHandler", "USER_AGENT", "SANITIZE_HTML",
                 "RESOLVE_RELATIVE_URIS", "__version__", "ThingsNobodyCaresAboutButMe"):
        assert hasattr(feedparser, name), name
    assert feedparser.util.FeedParserDict is FeedParserDict
    assert feedparser.api.parse is feedparser.parse
    assert feedparser.exceptions.CharacterEncodingOverride is feedparser.CharacterEncodingOverride
    # feedparser's version, this package's as a local label.
    assert feedparser.__version__ == "6.0.14+feed-decoder." + feedparser._engine_info()["version"]
    release = feedparser.__version__.split("+")[0]
    assert tuple(int(p) for p in release.split(".")) == (6, 0, 14)
    # feedparser's product token first, this engine named in the comment.
    assert feedparser.USER_AGENT.startswith("feedparser/6.0.14 (compatible; feed-decoder/")
    assert feedparser.USER_AGENT.partition(" ")[0] == "feedparser/6.0.14"
    assert (pathlib.Path(feed_decoder.__file__).parent / "py.typed").exists()


def test_parse_many_keeps_order_and_matches_parse(tmp_path):
    def inputs():
        out = []
        for i in range(40):
            doc = b"<rss><channel><title>%d</title><item><title>i%d</title></item></channel></rss>" % (i, i)
            if i % 3 == 0:
                p = tmp_path / ("%d.xml" % i)
                p.write_bytes(doc)
                out.append(str(p))
            elif i % 3 == 1:
                out.append(io.BytesIO(doc))
            else:
                out.append(doc)
        return out

    for jobs in (None, 1, 3):
        out = feedparser.parse_many(inputs(), jobs=jobs)
        assert [r.feed.title for r in out] == [str(i) for i in range(40)]
    assert feedparser.parse_many([RSS])[0] == feedparser.parse(RSS)
    assert feedparser.parse_many([]) == []


def test_the_engine_releases_the_interpreter():
    import threading

    big = b"<rss><channel>" + b"<item><title>x</title><description>" + b"y" * 200 + b"</description></item>" * 1 + b"</channel></rss>"
    big = b"<rss><channel>" + (b"<item><title>x</title><description>" + b"y" * 200 + b"</description></item>") * 60000 + b"</channel></rss>"
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.0005)

    t = threading.Thread(target=count)
    t.start()
    try:
        # The conversion to Python objects holds the interpreter; the parse does not.
        start = len(ticks)
        feed_decoder._core.parse_many([("bytes", big, None)] * 2, FeedParserDict, 2,
                                      feed_decoder._core.Options())
        during = len(ticks) - start
    finally:
        done.set()
        t.join()
    assert during > 5, during


def test_threads_parse_concurrently_with_the_same_results():
    import concurrent.futures

    docs = [RSS, ATOM, RSS.replace(b"News", b"Other"), b"<rss><channel><title>\xe9</title></channel></rss>"]
    def plain(result):
        # Exception instances compare by identity: compare their class and message.
        out = dict(result)
        out["bozo_exceptions"] = [(type(e), str(e)) for e in result.bozo_exceptions]
        out.pop("bozo_exception", None)
        return out

    expected = [plain(feedparser.parse(d)) for d in docs]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda d: plain(feedparser.parse(d)), docs * 50))
    assert got == expected * 50
    assert expected[3]["bozo_exceptions"]


def test_the_alias_table_is_the_converters():
    from feed_decoder import util

    table = feedparser._engine_info()["shadowing"]
    expected = {k: (v if isinstance(v, list) else [v]) for k, v in util._KEYMAP.items()}
    expected.update({"category": ["tags"], "enclosures": ["links"], "license": ["links"]})
    assert table == expected
    assert set(table) == util.SHADOWING_KEYS


def test_a_key_under_an_alias_name_yields_to_what_the_alias_reads():
    from feed_decoder import util

    feed = (b"<feed xmlns='http://www.w3.org/2005/Atom' xmlns:media='http://search.yahoo.com/mrss/'>"
            b"<entry><title>t</title><media:license>Own words</media:license>%s</entry></feed>")
    alone = feedparser.parse(feed % b"").entries[0]
    assert type(alone) is FeedParserDict and alone.license == "Own words"
    both = feedparser.parse(feed % b"<link rel='license' href='http://e/l'/>").entries[0]
    assert isinstance(both, FeedParserDict) and type(both) is util._ShadowingFeedParserDict
    assert both.license == both["license"] == both.get("license") == "http://e/l"
    assert dict.__getitem__(both, "license") == "Own words"


def test_attributes_read_keys_and_assigning_writes_them():
    e = feedparser.parse(RSS).entries[0]
    assert e.title == "First" and getattr(e, "nope", 5) == 5 and not hasattr(e, "updated_x")
    assert getattr(e, "comments", None) is None and not hasattr(e, "comments")
    e.title = "Second"
    assert e["title"] == "Second"
    e.description = "d"
    assert e.summary == "d"
    del e.title
    assert "title" not in e
    assert e.items is not None and callable(e.items)  # dict's method, as in feedparser


def test_the_http_and_urls_submodules_load_when_first_used(tmp_path):
    # Parsing needs no urllib.request (about 10 MB and 50 ms to import); feedparser.http
    # is there all the same, and a replaced http.get is still what parse calls.
    code = (
        "import sys, feed_decoder as fp\n"
        "assert 'urllib.request' not in sys.modules and 'ssl' not in sys.modules\n"
        "d = fp.parse(b'<rss><channel><title>t</title></channel></rss>')\n"
        "assert d.feed.title == 't' and 'urllib.request' not in sys.modules\n"
        "assert fp.http.get is fp.http._get and 'urllib.request' in sys.modules\n"
        "import feed_decoder.http as h; assert h is fp.http\n"
        "assert fp.urls.__name__ == 'feed_decoder.urls' and fp.urls.make_safe_absolute_uri\n"
        "fp.http.get = lambda *a: b'<rss><channel><title>g</title></channel></rss>'\n"
        "assert fp.parse('http://example.invalid/').feed.title == 'g'\n"
        "try:\n"
        "    fp.nothing\n"
        "except AttributeError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('no AttributeError')\n"
    )
    # Run away from the source folder, which `-c` would put first on the path.
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)


def test_the_collector_skips_dictionaries_of_plain_values():
    import gc
    import weakref

    d = feedparser.parse(RSS)
    e = d.entries[0]
    # Details, links, tags hold only strings: untracked, as a plain dict of them would be.
    for plain in (e.title_detail, e.summary_detail, e.links[0], e.tags[0], e.author_detail):
        assert not gc.is_tracked(plain), plain
    assert not gc.is_tracked(e.published_parsed)  # a struct_time of integers
    assert gc.is_tracked(e) and gc.is_tracked(d.feed)  # they hold lists and dicts
    detail = e.title_detail
    detail["loop"] = [detail]  # a container stored later: tracked again
    assert gc.is_tracked(detail)
    ref = weakref.ref(detail)
    del d, e, detail
    gc.collect()
    assert ref() is None  # the cycle was collected


def test_the_collector_is_paused_only_while_a_result_is_built():
    import gc

    doc = b"<rss version='2.0'><channel><title>t</title><item><title>a</title></item></channel></rss>"
    assert gc.isenabled()
    for data in (doc, b"<rss><channel><title>cut", b"\xff\xfe\x00"):
        feed_decoder.parse(data)
        assert gc.isenabled()
    gc.disable()
    try:
        feed_decoder.parse(doc)
        assert not gc.isenabled()  # a collector the program turned off stays off
    finally:
        gc.enable()
