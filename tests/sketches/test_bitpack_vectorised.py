"""The vectorised v4 delta unpacker agrees with the block-wise reference and round-trips pack()."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lakestruct.sketches import bitpack


@given(st.integers(1, 63).flatmap(lambda bits: st.tuples(st.just(bits), st.lists(st.integers(0, 2**bits - 1), max_size=70))))
def test_unpack_array_equals_unpack(case: tuple[int, list[int]]) -> None:
    bits, values = case
    packed = bitpack.pack(values, bits)
    assert len(packed) == bitpack.packed_size(len(values), bits)
    assert bitpack.unpack_array(packed, len(values), bits).tolist() == bitpack.unpack(packed, len(values), bits) == values
