"""Type stubs of feed_decoder.urls."""

from typing import Optional, Tuple, Union

ACCEPTABLE_URI_SCHEMES: Tuple[str, ...]

def convert_to_idn(url: str) -> str: ...
def _urljoin(base: str, uri: str) -> str: ...
def make_safe_absolute_uri(base: str, rel: Optional[str] = ...) -> str: ...
def resolve_relative_uris(
    html_source: Union[str, bytes],
    base_uri: Optional[str],
    encoding: Optional[str] = ...,
    type_: str = ...,
) -> str: ...
