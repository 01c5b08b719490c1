"""``max_positions`` is checked the same by both twins (fuzz round two, "also found"): a negative limit meant "no
limit" to the compiled twin (its sentinel for None is -1) and ``LimitError`` to the pure one. Both now refuse it as a
caller's mistake (``UsageError``), through the public decoders and when a twin is called directly."""

from __future__ import annotations

import numpy as np
import pytest

from lakestruct.errors import LimitError, UsageError
from lakestruct.roaring import HAVE_C, decode_roaring32, decode_roaring64, encode32, encode64
from lakestruct.roaring import _decode as pure

IMPLS = ["python", "c"] if HAVE_C else ["python"]
VALUES = np.array([1, 5, 70_000], dtype=np.uint64)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("limit", [-1, -2, -(2**40)])
def test_a_negative_limit_is_a_usage_error(impl: str, limit: int) -> None:
    for decode, data in ((decode_roaring64, encode64(VALUES)), (decode_roaring32, encode32(VALUES.astype(np.uint32)))):
        with pytest.raises(UsageError, match="max_positions"):
            decode(data, max_positions=limit, impl=impl)  # type: ignore[operator]


@pytest.mark.parametrize("impl", IMPLS)
def test_zero_and_none_keep_their_meaning(impl: str) -> None:
    data = encode64(VALUES)
    with pytest.raises(LimitError) as ei:
        decode_roaring64(data, max_positions=0, impl=impl)  # type: ignore[arg-type]
    assert ei.value.rule == "roaring.max-positions"
    assert decode_roaring64(data, max_positions=None, impl=impl).tolist() == VALUES.tolist()  # type: ignore[arg-type]
    assert decode_roaring64(encode64(np.array([], dtype=np.uint64)), max_positions=0, impl=impl).size == 0  # type: ignore[arg-type]


def test_the_twins_called_directly() -> None:
    data = encode64(VALUES)
    with pytest.raises(UsageError):
        pure.decode64(data, max_positions=-1)
    with pytest.raises(UsageError):
        pure.decode32(encode32(VALUES.astype(np.uint32)), max_positions=-3)
    if HAVE_C:
        from lakestruct.roaring import _decode_c  # type: ignore[attr-defined]

        assert _decode_c.decode64(data, 0, "", False, False, -1).tolist() == VALUES.tolist()  # -1: its None
        with pytest.raises(UsageError):
            _decode_c.decode64(data, 0, "", False, False, -2)
