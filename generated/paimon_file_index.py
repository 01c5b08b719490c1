# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class PaimonFileIndex(KaitaiStruct):
    """The index of one data file, stored as `<data file>.index` beside it (named
    in the manifest entry's `_EXTRA_FILES`) or, when small, embedded in the
    manifest entry (`_EMBEDDED_FILE_INDEX`). All integers big-endian.
    
    A head lists, per column, each index type with the absolute offset (from
    the first byte of this image) and length of its payload; a start of -1
    means an empty index. The bodies follow the head. Payloads by type:
    * `bloom-filter`: the number of hash functions, then the bit set (bit i is
      bit i % 8 of byte i / 8). Probing needs Paimon's hash of the value
      (XXH64 for strings and binaries, Thomas Wang's 64-bit mix for numbers,
      dates and times), which lakestruct's reader computes.
    * `bitmap`: version 1 or 2; per distinct value the offset of a 32-bit
      Roaring bitmap of its rows (a negative offset -1 - r means the one row r).
      The values are serialized by type; this spec shows the header and the
      raw rest.
    * `bsi`: version 1, the row count, then a bit-sliced index of the
      non-negative values and one of the magnitudes of the negative values,
      each behind a presence byte: min, max, the existence bitmap (rows with a
      value) and one 32-bit Roaring bitmap per bit of (value - min), least
      significant first. Upload `roaring32.ksy` with this spec in the Web IDE.
    * other types (`range-bitmap`, ...) are shown as raw bytes.
    
    .. seealso::
       Source - https://paimon.apache.org/docs/master/concepts/spec/fileindex/
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(PaimonFileIndex, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(8)
        if not self.magic == b"\x00\x05\x4E\x4E\xD0\x1A\x35\xAE":
            raise kaitaistruct.ValidationNotEqualError(b"\x00\x05\x4E\x4E\xD0\x1A\x35\xAE", self.magic, self._io, u"/seq/0")
        self.version = self._io.read_s4be()
        if not self.version == 1:
            raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/seq/1")
        self.len_head = self._io.read_s4be()
        _ = self.len_head
        if not  ((_ >= 24) and (_ <= self._io.size())) :
            raise kaitaistruct.ValidationExprError(self.len_head, self._io, u"/seq/2")
        self._raw_head = self._io.read_bytes(self.len_head - 16)
        _io__raw_head = KaitaiStream(BytesIO(self._raw_head))
        self.head = PaimonFileIndex.Head(_io__raw_head, self, self._root)


    def _fetch_instances(self):
        pass
        self.head._fetch_instances()

    class BitSliceIndex(KaitaiStruct):
        """Paimon's BitSliceIndexRoaringBitmap: a row r has a value when it is in
        the existence bitmap, and that value is min + the sum of 2^i over the
        slices i that hold r.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BitSliceIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            if not self.version == 1:
                raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/types/bit_slice_index/seq/0")
            self.min = self._io.read_s8be()
            self.max = self._io.read_s8be()
            self.existence = roaring32.Roaring32(self._io)
            self.num_slices = self._io.read_s4be()
            if not self.num_slices >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.num_slices, self._io, u"/types/bit_slice_index/seq/4")
            if not self.num_slices <= 64:
                raise kaitaistruct.ValidationGreaterThanError(64, self.num_slices, self._io, u"/types/bit_slice_index/seq/4")
            self.slices = []
            for i in range(self.num_slices):
                self.slices.append(roaring32.Roaring32(self._io))



        def _fetch_instances(self):
            pass
            self.existence._fetch_instances()
            for i in range(len(self.slices)):
                pass
                self.slices[i]._fetch_instances()



    class BitmapIndex(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BitmapIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            self.row_count = self._io.read_s4be()
            self.num_bitmaps = self._io.read_s4be()
            self.has_null = self._io.read_u1()
            if self.has_null != 0:
                pass
                self.null_offset = self._io.read_s4be()

            self.rest = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            if self.has_null != 0:
                pass



    class BloomFilter(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BloomFilter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_hash_functions = self._io.read_s4be()
            self.bits = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass

        @property
        def num_bits(self):
            if hasattr(self, '_m_num_bits'):
                return self._m_num_bits

            self._m_num_bits = len(self.bits) * 8
            return getattr(self, '_m_num_bits', None)


    class BsiIndex(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BsiIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            if not self.version == 1:
                raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/types/bsi_index/seq/0")
            self.row_count = self._io.read_s4be()
            self.has_positive = self._io.read_u1()
            if self.has_positive != 0:
                pass
                self.positive = PaimonFileIndex.BitSliceIndex(self._io, self, self._root)

            self.has_negative = self._io.read_u1()
            if self.has_negative != 0:
                pass
                self.negative = PaimonFileIndex.BitSliceIndex(self._io, self, self._root)



        def _fetch_instances(self):
            pass
            if self.has_positive != 0:
                pass
                self.positive._fetch_instances()

            if self.has_negative != 0:
                pass
                self.negative._fetch_instances()



    class Column(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.Column, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = PaimonFileIndex.JavaUtf(self._io, self, self._root)
            self.num_indexes = self._io.read_s4be()
            if not self.num_indexes >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.num_indexes, self._io, u"/types/column/seq/1")
            self.indexes = []
            for i in range(self.num_indexes):
                self.indexes.append(PaimonFileIndex.IndexRef(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.name._fetch_instances()
            for i in range(len(self.indexes)):
                pass
                self.indexes[i]._fetch_instances()



    class Head(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.Head, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_columns = self._io.read_s4be()
            if not self.num_columns >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.num_columns, self._io, u"/types/head/seq/0")
            self.columns = []
            for i in range(self.num_columns):
                self.columns.append(PaimonFileIndex.Column(self._io, self, self._root))

            self.len_redundant = self._io.read_s4be()
            if not self.len_redundant >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.len_redundant, self._io, u"/types/head/seq/2")
            self.redundant = self._io.read_bytes(self.len_redundant)


        def _fetch_instances(self):
            pass
            for i in range(len(self.columns)):
                pass
                self.columns[i]._fetch_instances()



    class IndexRef(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.IndexRef, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.type = PaimonFileIndex.JavaUtf(self._io, self, self._root)
            self.start = self._io.read_s4be()
            self.length = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.type._fetch_instances()
            _ = self.payload
            if hasattr(self, '_m_payload'):
                pass
                _on = self.type.value
                if _on == u"bitmap":
                    pass
                    self._m_payload._fetch_instances()
                elif _on == u"bloom-filter":
                    pass
                    self._m_payload._fetch_instances()
                elif _on == u"bsi":
                    pass
                    self._m_payload._fetch_instances()
                else:
                    pass


        @property
        def is_empty(self):
            if hasattr(self, '_m_is_empty'):
                return self._m_is_empty

            self._m_is_empty = self.start == -1
            return getattr(self, '_m_is_empty', None)

        @property
        def payload(self):
            """The index's bytes (parsed for bloom filters, bitmaps and bit-sliced indexes)."""
            if hasattr(self, '_m_payload'):
                return self._m_payload

            if  ((self.start >= 0) and (self.length >= 0) and (self.start + self.length <= self._root._io.size())) :
                pass
                io = self._root._io
                _pos = io.pos()
                io.seek(self.start)
                _on = self.type.value
                if _on == u"bitmap":
                    pass
                    self._raw__m_payload = io.read_bytes(self.length)
                    _io__raw__m_payload = KaitaiStream(BytesIO(self._raw__m_payload))
                    self._m_payload = PaimonFileIndex.BitmapIndex(_io__raw__m_payload, self, self._root)
                elif _on == u"bloom-filter":
                    pass
                    self._raw__m_payload = io.read_bytes(self.length)
                    _io__raw__m_payload = KaitaiStream(BytesIO(self._raw__m_payload))
                    self._m_payload = PaimonFileIndex.BloomFilter(_io__raw__m_payload, self, self._root)
                elif _on == u"bsi":
                    pass
                    self._raw__m_payload = io.read_bytes(self.length)
                    _io__raw__m_payload = KaitaiStream(BytesIO(self._raw__m_payload))
                    self._m_payload = PaimonFileIndex.BsiIndex(_io__raw__m_payload, self, self._root)
                else:
                    pass
                    self._m_payload = io.read_bytes(self.length)
                io.seek(_pos)

            return getattr(self, '_m_payload', None)


    class JavaUtf(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.JavaUtf, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_value = self._io.read_u2be()
            self.value = (self._io.read_bytes(self.len_value)).decode(u"UTF-8")


        def _fetch_instances(self):
            pass



