"""The Rust side of feed_decoder (type stubs)."""

from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple

Headers = Optional[Sequence[Tuple[str, str]]]

class SanitizePolicy:
    def __init__(self, lists: Mapping[str, Iterable[object]]) -> None: ...

class Options:
    def __init__(
        self,
        *,
        sanitize_html: bool = True,
        resolve_relative_uris: bool = True,
        policy: str = "recover",
        detector: bool = True,
        tld: Optional[str] = None,
        detector_prefix: Optional[int] = None,
        max_entries: Optional[int] = None,
        max_depth: Optional[int] = None,
        base_uri: Optional[str] = None,
        sanitizer: Optional[SanitizePolicy] = None,
        handlers: Optional[Tuple[Sequence[str], Sequence[str]]] = None,
        namespaces: Optional[Sequence[Tuple[str, str]]] = None,
    ) -> None: ...

class Request:
    def __init__(
        self,
        *,
        etag: Optional[str] = None,
        modified: Optional[str] = None,
        agent: Optional[str] = None,
        referrer: Optional[str] = None,
        request_headers: Headers = None,
        response_headers: Headers = None,
        timeout: Optional[float] = None,
        max_body: Optional[int] = None,
        accept: Optional[str] = None,
    ) -> None: ...

def parse_bytes(data: bytes, dict_type: type, headers: Headers, options: Options) -> Any: ...
def decode_bytes(
    data: bytes, headers: Headers, options: Options
) -> Tuple[bytes, str, List[Tuple[str, str, Optional[int], Optional[int], Optional[int], bool]]]: ...
def parse_path(path: str, dict_type: type, headers: Headers, options: Options) -> Any: ...
def fetch_url(url: str, dict_type: type, request: Request, options: Options) -> Any: ...
def parse_many(
    inputs: Sequence[Tuple[str, Any, Any]],
    dict_type: type,
    jobs: Optional[int],
    options: Options,
) -> list: ...
def parse_date(text: str) -> Optional[Any]: ...
def parse_date_format(text: str) -> Optional[Tuple[Any, str]]: ...
def filter_html(
    html: str,
    *,
    sanitize: bool,
    resolve: bool,
    base: Optional[str] = None,
    xhtml: bool = False,
    policy: Optional[SanitizePolicy] = None,
) -> str: ...
def looks_like_html(text: str, policy: Optional[SanitizePolicy] = None) -> bool: ...
def engine_info() -> dict: ...
