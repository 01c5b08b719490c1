"""``lakestruct.source.local_path``: the one reading of ``file:`` URIs that table metadata writes. The oracle is the
standard library's RFC 8089 reading (``urllib.request.url2pathname`` of the URI's path, for an empty or ``localhost``
host); a URI naming another host, and anything not ``file:``, stay as given."""

from __future__ import annotations

from urllib.parse import urlsplit
from urllib.request import url2pathname

from hypothesis import given
from hypothesis import strategies as st

from lakestruct.source import local_path

segment = st.text(alphabet="abcXYZ019_-.", min_size=1, max_size=6)


@given(parts=st.lists(segment, min_size=1, max_size=4), form=st.sampled_from(["file:/", "file:///", "file://localhost/"]))
def test_file_uris_name_local_paths(parts: list[str], form: str) -> None:
    uri = form + "/".join(parts)
    assert local_path(uri) == url2pathname(urlsplit(uri).path) == "/" + "/".join(parts)


def test_what_is_not_a_local_file_uri_is_kept() -> None:
    for x in ("s3://bucket/t/data/f.parquet", "file://otherhost/x", "/plain/path", "relative/x", "gs://b/k"):
        assert local_path(x) == x
