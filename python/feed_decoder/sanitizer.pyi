"""Type stubs of feed_decoder.sanitizer."""

from typing import Optional, Set, Union

class _ListSet(Set[str]):
    """A set of names that counts its changes (the engine follows them)."""

class _WatchedLists(type):
    def __setattr__(cls, name: str, value: object) -> None: ...
    def __delattr__(cls, name: str) -> None: ...

class _HTMLSanitizer(metaclass=_WatchedLists):
    acceptable_elements: Set[str]
    acceptable_attributes: Set[str]
    unacceptable_elements_with_end_tag: Set[str]
    acceptable_css_properties: Set[str]
    acceptable_css_keywords: Set[str]
    mathml_elements: Set[str]
    mathml_attributes: Set[str]
    svg_elements: Set[str]
    svg_attributes: Set[str]
    acceptable_svg_properties: Set[str]
    def __init__(self, *args: object, **kwargs: object) -> None: ...  # raises TypeError

def _sanitize_html(
    html_source: Union[str, bytes], encoding: Optional[str] = ..., _type: str = ...
) -> str: ...
