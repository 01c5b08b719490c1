# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class PaimonBinaryRow(KaitaiStruct):
    """A row as Paimon stores it inside its manifests (`_PARTITION`, `_MIN_KEY`,
    `_MAX_KEY`, the `_MIN_VALUES`/`_MAX_VALUES` of statistics): a big-endian
    arity, then the row in little-endian order (`SerializationUtils.serializeBinaryRow`).
    
    The row has a fixed part and a variable part. The fixed part is a header
    and null-bit area of `((arity + 63 + 8) / 64) * 8` bytes (byte 0 is the
    RowKind; field i is null when bit i + 8 is set, bit k being bit k % 8 of
    byte k / 8), then one 8-byte slot per field. A slot holds a fixed-size
    value at its start (BOOLEAN and TINYINT 1 byte, SMALLINT 2, INT, DATE, TIME
    and FLOAT 4, BIGINT, DOUBLE, compact DECIMAL (precision <= 18, the unscaled
    long) and compact TIMESTAMP (precision <= 3, epoch millis) 8), or a string
    or binary of at most 7 bytes inline (its bytes first, the top byte
    0x80 | length), or a reference to the variable part: the offset from the row
    start in the high 32 bits and the length (or, for a non-compact timestamp,
    the nanos of the millisecond) in the low 32 bits. The variable part holds
    longer strings and binaries, non-compact decimals (16 bytes reserved, the
    big-endian two's-complement unscaled value first), non-compact timestamps
    (8 bytes of epoch millis) and nested arrays, maps and rows, each padded to
    8 bytes.
    
    Which slot is which needs the schema's field types: this spec shows the
    slots with both readings (`inline_bytes` when the top bit is set,
    `var_bytes` when the slot points inside the variable part); lakestruct's
    reader (`lakestruct.paimon`) decodes them with the schema.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/BinaryRow.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/AbstractBinaryWriter.java
    """

    class RowKind(IntEnum):
        insert = 0
        update_before = 1
        update_after = 2
        delete = 3
    def __init__(self, _io, _parent=None, _root=None):
        super(PaimonBinaryRow, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.arity = self._io.read_s4be()
        _ = self.arity
        if not  ((_ >= 0) and (((_ + 71) // 64) * 8 + 8 * _ <= self._io.size() - 4)) :
            raise kaitaistruct.ValidationExprError(self.arity, self._io, u"/seq/0")
        self._raw_row = self._io.read_bytes_full()
        _io__raw_row = KaitaiStream(BytesIO(self._raw_row))
        self.row = PaimonBinaryRow.Row(self.arity, _io__raw_row, self, self._root)


    def _fetch_instances(self):
        pass
        self.row._fetch_instances()

    class Row(KaitaiStruct):
        def __init__(self, arity, _io, _parent=None, _root=None):
            super(PaimonBinaryRow.Row, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.arity = arity
            self._read()

        def _read(self):
            self.row_kind = KaitaiStream.resolve_enum(PaimonBinaryRow.RowKind, self._io.read_u1())
            if not isinstance(self.row_kind, PaimonBinaryRow.RowKind):
                raise kaitaistruct.ValidationNotInEnumError(self.row_kind, self._io, u"/types/row/seq/0")
            self.null_bits = self._io.read_bytes(self.len_null_bits - 1)
            self.slots = []
            for i in range(self.arity):
                self.slots.append(PaimonBinaryRow.Slot(i, self._io, self, self._root))

            self.var_part = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.slots)):
                pass
                self.slots[i]._fetch_instances()


        @property
        def len_fixed_part(self):
            """Where the variable part starts."""
            if hasattr(self, '_m_len_fixed_part'):
                return self._m_len_fixed_part

            self._m_len_fixed_part = self.len_null_bits + 8 * self.arity
            return getattr(self, '_m_len_fixed_part', None)

        @property
        def len_null_bits(self):
            """Bytes of header and null bits (a multiple of 8)."""
            if hasattr(self, '_m_len_null_bits'):
                return self._m_len_null_bits

            self._m_len_null_bits = ((self.arity + 71) // 64) * 8
            return getattr(self, '_m_len_null_bits', None)


    class Slot(KaitaiStruct):
        def __init__(self, index, _io, _parent=None, _root=None):
            super(PaimonBinaryRow.Slot, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.index = index
            self._read()

        def _read(self):
            self.low = self._io.read_u4le()
            self.high = self._io.read_u4le()


        def _fetch_instances(self):
            pass
            _ = self.inline_bytes
            if hasattr(self, '_m_inline_bytes'):
                pass

            _ = self.var_bytes
            if hasattr(self, '_m_var_bytes'):
                pass


        @property
        def inline_bytes(self):
            """The bytes of an inline string or binary."""
            if hasattr(self, '_m_inline_bytes'):
                return self._m_inline_bytes

            if  ((self.is_inline) and (self.inline_length <= 7)) :
                pass
                _pos = self._io.pos()
                self._io.seek(self._parent.len_null_bits + 8 * self.index)
                self._m_inline_bytes = self._io.read_bytes(self.inline_length)
                self._io.seek(_pos)

            return getattr(self, '_m_inline_bytes', None)

        @property
        def inline_length(self):
            """Length of an inline string or binary (the top byte without its top bit)."""
            if hasattr(self, '_m_inline_length'):
                return self._m_inline_length

            if self.is_inline:
                pass
                self._m_inline_length = (self.high - 2147483648) // 16777216

            return getattr(self, '_m_inline_length', None)

        @property
        def is_inline(self):
            """The top bit is set, as for a string or binary of at most 7 bytes stored in the slot."""
            if hasattr(self, '_m_is_inline'):
                return self._m_is_inline

            self._m_is_inline = self.high >= 2147483648
            return getattr(self, '_m_is_inline', None)

        @property
        def is_null(self):
            """The field's null bit is set: bit (index + 8) % 8 of byte (index + 8) / 8
            of the header area, taken with / and % (no bit operators, which
            JavaScript computes on 32 bits).
            """
            if hasattr(self, '_m_is_null'):
                return self._m_is_null

            self._m_is_null = (KaitaiStream.byte_array_index(self._parent.null_bits, (self.index + 8) // 8 - 1) // KaitaiStream.byte_array_index(b"\x01\x02\x04\x08\x10\x20\x40\x80", (self.index + 8) % 8)) % 2 == 1
            return getattr(self, '_m_is_null', None)

        @property
        def var_bytes(self):
            """The variable-part bytes the slot points at, when read as (offset, length)."""
            if hasattr(self, '_m_var_bytes'):
                return self._m_var_bytes

            if  (((not (self.is_inline))) and (self.high >= self._parent.len_fixed_part) and (self.high + self.low <= self._parent._io.size())) :
                pass
                _pos = self._io.pos()
                self._io.seek(self.high)
                self._m_var_bytes = self._io.read_bytes(self.low)
                self._io.seek(_pos)

            return getattr(self, '_m_var_bytes', None)



