"""feedparser.sanitizer's allow-lists, changed as programs change them: ``parse`` and
``_sanitize_html`` follow them. Expected values are feedparser 6.0.14's for the same
input and the same change."""

import pytest

import feed_decoder
from feed_decoder import sanitizer
from feed_decoder.sanitizer import _HTMLSanitizer, _sanitize_html

FEED = (b'<rss version="2.0"><channel><title>T</title><item>'
        b'<title>Clip &lt;iframe src="/v/1"&gt;&lt;/iframe&gt;</title>'
        b'<description>&lt;p&gt;&lt;b&gt;Watch&lt;/b&gt; &lt;iframe src="/v/1" '
        b'onload="x()"&gt;&lt;/iframe&gt;&lt;/p&gt;</description>'
        b'</item></channel></rss>')
HEADERS = {"content-location": "http://example.com/feed/"}
EMBED = '<iframe src="http://example.com/v/1"></iframe>'


@pytest.fixture(autouse=True)
def restore_lists():
    """Every list put back as it was after each test (a copy of each, assigned back)."""
    saved = {name: set(getattr(_HTMLSanitizer, name)) for name in sanitizer._LIST_NAMES}
    yield
    for name, names in saved.items():
        setattr(_HTMLSanitizer, name, names)
    assert sanitizer._policy() is None


def entry():
    e = feed_decoder.parse(FEED, response_headers=HEADERS).entries[0]
    return e.title, e.title_detail.type, e.summary


def test_unchanged_lists_are_the_engines_own():
    assert sanitizer._policy() is None
    assert entry() == ('Clip <iframe src="/v/1"></iframe>', "text/plain",
                       "<p><b>Watch</b> </p>")


def test_an_added_element_is_kept_with_its_attributes():
    _HTMLSanitizer.acceptable_elements.update(["iframe"])
    # The title now looks like HTML (its tags are acceptable), as in feedparser.
    assert entry() == ("Clip " + EMBED, "text/html", "<p><b>Watch</b> %s</p>" % EMBED)
    assert _sanitize_html('<iframe src="https://y.test/e" onload="x()">t</iframe>') == (
        '<iframe src="https://y.test/e">t</iframe>')


def test_a_removed_element_is_unwrapped_and_a_dropped_one_loses_its_content():
    _HTMLSanitizer.acceptable_elements.discard("b")
    assert entry()[2] == "<p>Watch </p>"
    _HTMLSanitizer.acceptable_elements.remove("p")
    _HTMLSanitizer.unacceptable_elements_with_end_tag.add("p")
    assert _sanitize_html("a<p>gone</p>b<em>e</em>") == "ab<em>e</em>"
    _HTMLSanitizer.unacceptable_elements_with_end_tag -= {"script"}
    assert _sanitize_html("a<script>x = 1</script>b") == "ax = 1b"


def test_attributes_and_css():
    html = '<p class="c" id="i" style="position: fixed; color: red; width: 1px">t</p>'
    assert _sanitize_html(html) == '<p class="c" id="i" style="color: red; width: 1px;">t</p>'
    _HTMLSanitizer.acceptable_css_properties.add("position")
    _HTMLSanitizer.acceptable_css_properties.discard("color")
    assert _sanitize_html(html) == (
        '<p class="c" id="i" style="position: fixed; width: 1px;">t</p>')
    _HTMLSanitizer.acceptable_attributes.difference_update(["class", "style"])
    assert _sanitize_html(html) == '<p id="i">t</p>'
    _HTMLSanitizer.acceptable_css_keywords.add("inherit")
    _HTMLSanitizer.acceptable_attributes.add("style")
    assert _sanitize_html('<p style="border: inherit">t</p>') == (
        '<p style="border: inherit;">t</p>')


def test_svg_and_mathml_lists():
    _HTMLSanitizer.svg_elements.add("fooBar")
    _HTMLSanitizer.svg_attributes.add("bazQux")
    _HTMLSanitizer.mathml_elements.discard("mi")
    assert _sanitize_html('<svg><foobar bazqux="1" viewbox="0 0 1 1">t</foobar></svg>') == (
        '<svg xmlns="http://www.w3.org/2000/svg">'
        '<fooBar bazQux="1" viewBox="0 0 1 1">t</fooBar></svg>')
    assert _sanitize_html('<math><mi mathvariant="bold">x</mi><mn>1</mn></math>') == (
        '<math xmlns="http://www.w3.org/1998/Math/MathML">x<mn>1</mn></math>')


def test_a_replaced_set_is_followed_and_watched():
    _HTMLSanitizer.acceptable_elements = {"p", "a"}
    assert type(_HTMLSanitizer.acceptable_elements) is sanitizer._ListSet
    html = ('<p><a href="http://e/" title="t">l</a> <b>b</b> <em>e</em></p>'
            '<script>x</script>')
    assert _sanitize_html(html) == '<p><a href="http://e/" title="t">l</a> b e</p>'
    _HTMLSanitizer.acceptable_elements.add("em")
    assert _sanitize_html(html) == '<p><a href="http://e/" title="t">l</a> b <em>e</em></p>'
    # Another kind of collection is read when assigned.
    _HTMLSanitizer.acceptable_elements = ["p", "b"]
    assert _sanitize_html(html) == "<p>l <b>b</b> e</p>"
    _HTMLSanitizer.acceptable_elements = frozenset(["b"])
    assert _sanitize_html(html) == "l <b>b</b> e"


@pytest.mark.parametrize("change", [
    lambda s: s.add("iframe"),
    lambda s: s.update(["iframe"], ("x",)),
    lambda s: s.__ior__({"iframe"}),
    lambda s: s.symmetric_difference_update({"iframe"}),
    lambda s: s.__ixor__({"iframe"}),
    lambda s: s.discard("b"),
    lambda s: s.remove("b"),
    lambda s: s.difference_update(["b"]),
    lambda s: s.__isub__({"b"}),
    lambda s: s.intersection_update(s - {"b"}),
    lambda s: s.__iand__(s - {"b"}),
    lambda s: s.clear(),
    lambda s: [s.pop() for _ in range(len(s))],
])
def test_every_change_is_seen_by_the_next_parse(change):
    before = entry()
    built = sanitizer._policy()
    assert built is None and sanitizer._policy() is built  # no rebuild without a change
    changes = sanitizer._changes
    change(_HTMLSanitizer.acceptable_elements)
    assert sanitizer._changes > changes
    policy = sanitizer._policy()
    assert policy is not None and sanitizer._policy() is policy  # built once
    after = entry()
    assert after != before
    if "iframe" in _HTMLSanitizer.acceptable_elements:
        assert EMBED in after[2]
    else:
        assert "<b>" not in after[2]


def test_the_operator_forms_rebind_the_same_watched_set():
    watched = _HTMLSanitizer.acceptable_elements
    _HTMLSanitizer.acceptable_elements |= {"iframe"}
    _HTMLSanitizer.acceptable_elements -= {"b"}
    assert _HTMLSanitizer.acceptable_elements is watched
    assert entry()[2] == "<p>Watch %s</p>" % EMBED


def test_lists_changed_back_are_the_defaults_again():
    _HTMLSanitizer.acceptable_elements.add("iframe")
    assert sanitizer._policy() is not None
    _HTMLSanitizer.acceptable_elements.discard("iframe")
    assert sanitizer._policy() is None
    assert entry()[2] == "<p><b>Watch</b> </p>"


def test_what_runs_script_stays_out_whatever_the_lists():
    # feedparser 6.0.14 keeps all of this once the lists allow it.
    _HTMLSanitizer.acceptable_elements.update(["script", "iframe"])
    _HTMLSanitizer.acceptable_attributes.update(["onclick", "srcdoc"])
    assert _sanitize_html("a<script>alert(1)</script>b") == "ab"
    assert _sanitize_html('<p onclick="x()">t</p><iframe srcdoc="&lt;b&gt;"></iframe>') == (
        "<p>t</p><iframe></iframe>")
    assert _sanitize_html('<iframe src="javascript:alert(1)"></iframe>') == (
        '<iframe src=""></iframe>')
    assert _sanitize_html(
        '<iframe src="/e"><!--</iframe><img src=x onerror=alert(1)>--></iframe>') == (
        '<iframe src="/e"></iframe>')


def test_parse_many_and_sanitize_off_follow_too():
    _HTMLSanitizer.acceptable_elements.add("iframe")
    results = feed_decoder.parse_many([FEED, FEED], response_headers=HEADERS)
    assert [r.entries[0].summary for r in results] == ["<p><b>Watch</b> %s</p>" % EMBED] * 2
    raw = feed_decoder.parse(FEED, sanitize_html=False, resolve_relative_uris=False)
    assert raw.entries[0].summary == '<p><b>Watch</b> <iframe src="/v/1" onload="x()"></iframe></p>'


def test_the_guess_of_html_follows_the_elements_list():
    guess = feed_decoder.mixin._FeedParserMixin.looks_like_html
    assert guess("<b>b</b>") and not guess("<blink>b</blink>")
    _HTMLSanitizer.acceptable_elements.add("blink")
    assert guess("<blink>b</blink>")
    _HTMLSanitizer.acceptable_elements.discard("b")
    assert not guess("<b>b</b>")
