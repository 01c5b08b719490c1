# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32
import collections


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
    SEQ_FIELDS = ["magic", "version", "len_head", "head"]
    def __init__(self, _io, _parent=None, _root=None):
        super(PaimonFileIndex, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['magic']['start'] = self._io.pos()
        self.magic = self._io.read_bytes(8)
        self._debug['magic']['end'] = self._io.pos()
        if not self.magic == b"\x00\x05\x4E\x4E\xD0\x1A\x35\xAE":
            raise kaitaistruct.ValidationNotEqualError(b"\x00\x05\x4E\x4E\xD0\x1A\x35\xAE", self.magic, self._io, u"/seq/0")
        self._debug['version']['start'] = self._io.pos()
        self.version = self._io.read_s4be()
        self._debug['version']['end'] = self._io.pos()
        if not self.version == 1:
            raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/seq/1")
        self._debug['len_head']['start'] = self._io.pos()
        self.len_head = self._io.read_s4be()
        self._debug['len_head']['end'] = self._io.pos()
        _ = self.len_head
        if not  ((_ >= 24) and (_ <= self._io.size())) :
            raise kaitaistruct.ValidationExprError(self.len_head, self._io, u"/seq/2")
        self._debug['head']['start'] = self._io.pos()
        self._raw_head = self._io.read_bytes(self.len_head - 16)
        _io__raw_head = KaitaiStream(BytesIO(self._raw_head))
        self.head = PaimonFileIndex.Head(_io__raw_head, self, self._root)
        self.head._read()
        self._debug['head']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        self.head._fetch_instances()

    class BitSliceIndex(KaitaiStruct):
        """Paimon's BitSliceIndexRoaringBitmap: a row r has a value when it is in
        the existence bitmap, and that value is min + the sum of 2^i over the
        slices i that hold r.
        """
        SEQ_FIELDS = ["version", "min", "max", "existence", "num_slices", "slices"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BitSliceIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u1()
            self._debug['version']['end'] = self._io.pos()
            if not self.version == 1:
                raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/types/bit_slice_index/seq/0")
            self._debug['min']['start'] = self._io.pos()
            self.min = self._io.read_s8be()
            self._debug['min']['end'] = self._io.pos()
            self._debug['max']['start'] = self._io.pos()
            self.max = self._io.read_s8be()
            self._debug['max']['end'] = self._io.pos()
            self._debug['existence']['start'] = self._io.pos()
            self.existence = roaring32.Roaring32(self._io)
            self.existence._read()
            self._debug['existence']['end'] = self._io.pos()
            self._debug['num_slices']['start'] = self._io.pos()
            self.num_slices = self._io.read_s4be()
            self._debug['num_slices']['end'] = self._io.pos()
            if not self.num_slices >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.num_slices, self._io, u"/types/bit_slice_index/seq/4")
            if not self.num_slices <= 64:
                raise kaitaistruct.ValidationGreaterThanError(64, self.num_slices, self._io, u"/types/bit_slice_index/seq/4")
            self._debug['slices']['start'] = self._io.pos()
            self._debug['slices']['arr'] = []
            self.slices = []
            for i in range(self.num_slices):
                self._debug['slices']['arr'].append({'start': self._io.pos()})
                _t_slices = roaring32.Roaring32(self._io)
                try:
                    _t_slices._read()
                finally:
                    self.slices.append(_t_slices)
                self._debug['slices']['arr'][i]['end'] = self._io.pos()

            self._debug['slices']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.existence._fetch_instances()
            for i in range(len(self.slices)):
                pass
                self.slices[i]._fetch_instances()



    class BitmapIndex(KaitaiStruct):
        SEQ_FIELDS = ["version", "row_count", "num_bitmaps", "has_null", "null_offset", "rest"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BitmapIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u1()
            self._debug['version']['end'] = self._io.pos()
            self._debug['row_count']['start'] = self._io.pos()
            self.row_count = self._io.read_s4be()
            self._debug['row_count']['end'] = self._io.pos()
            self._debug['num_bitmaps']['start'] = self._io.pos()
            self.num_bitmaps = self._io.read_s4be()
            self._debug['num_bitmaps']['end'] = self._io.pos()
            self._debug['has_null']['start'] = self._io.pos()
            self.has_null = self._io.read_u1()
            self._debug['has_null']['end'] = self._io.pos()
            if self.has_null != 0:
                pass
                self._debug['null_offset']['start'] = self._io.pos()
                self.null_offset = self._io.read_s4be()
                self._debug['null_offset']['end'] = self._io.pos()

            self._debug['rest']['start'] = self._io.pos()
            self.rest = self._io.read_bytes_full()
            self._debug['rest']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            if self.has_null != 0:
                pass



    class BloomFilter(KaitaiStruct):
        SEQ_FIELDS = ["num_hash_functions", "bits"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BloomFilter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_hash_functions']['start'] = self._io.pos()
            self.num_hash_functions = self._io.read_s4be()
            self._debug['num_hash_functions']['end'] = self._io.pos()
            self._debug['bits']['start'] = self._io.pos()
            self.bits = self._io.read_bytes_full()
            self._debug['bits']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def num_bits(self):
            if hasattr(self, '_m_num_bits'):
                return self._m_num_bits

            self._m_num_bits = len(self.bits) * 8
            return getattr(self, '_m_num_bits', None)


    class BsiIndex(KaitaiStruct):
        SEQ_FIELDS = ["version", "row_count", "has_positive", "positive", "has_negative", "negative"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.BsiIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u1()
            self._debug['version']['end'] = self._io.pos()
            if not self.version == 1:
                raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/types/bsi_index/seq/0")
            self._debug['row_count']['start'] = self._io.pos()
            self.row_count = self._io.read_s4be()
            self._debug['row_count']['end'] = self._io.pos()
            self._debug['has_positive']['start'] = self._io.pos()
            self.has_positive = self._io.read_u1()
            self._debug['has_positive']['end'] = self._io.pos()
            if self.has_positive != 0:
                pass
                self._debug['positive']['start'] = self._io.pos()
                self.positive = PaimonFileIndex.BitSliceIndex(self._io, self, self._root)
                self.positive._read()
                self._debug['positive']['end'] = self._io.pos()

            self._debug['has_negative']['start'] = self._io.pos()
            self.has_negative = self._io.read_u1()
            self._debug['has_negative']['end'] = self._io.pos()
            if self.has_negative != 0:
                pass
                self._debug['negative']['start'] = self._io.pos()
                self.negative = PaimonFileIndex.BitSliceIndex(self._io, self, self._root)
                self.negative._read()
                self._debug['negative']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if self.has_positive != 0:
                pass
                self.positive._fetch_instances()

            if self.has_negative != 0:
                pass
                self.negative._fetch_instances()



    class Column(KaitaiStruct):
        SEQ_FIELDS = ["name", "num_indexes", "indexes"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.Column, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self.name = PaimonFileIndex.JavaUtf(self._io, self, self._root)
            self.name._read()
            self._debug['name']['end'] = self._io.pos()
            self._debug['num_indexes']['start'] = self._io.pos()
            self.num_indexes = self._io.read_s4be()
            self._debug['num_indexes']['end'] = self._io.pos()
            if not self.num_indexes >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.num_indexes, self._io, u"/types/column/seq/1")
            self._debug['indexes']['start'] = self._io.pos()
            self._debug['indexes']['arr'] = []
            self.indexes = []
            for i in range(self.num_indexes):
                self._debug['indexes']['arr'].append({'start': self._io.pos()})
                _t_indexes = PaimonFileIndex.IndexRef(self._io, self, self._root)
                try:
                    _t_indexes._read()
                finally:
                    self.indexes.append(_t_indexes)
                self._debug['indexes']['arr'][i]['end'] = self._io.pos()

            self._debug['indexes']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.name._fetch_instances()
            for i in range(len(self.indexes)):
                pass
                self.indexes[i]._fetch_instances()



    class Head(KaitaiStruct):
        SEQ_FIELDS = ["num_columns", "columns", "len_redundant", "redundant"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.Head, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_columns']['start'] = self._io.pos()
            self.num_columns = self._io.read_s4be()
            self._debug['num_columns']['end'] = self._io.pos()
            if not self.num_columns >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.num_columns, self._io, u"/types/head/seq/0")
            self._debug['columns']['start'] = self._io.pos()
            self._debug['columns']['arr'] = []
            self.columns = []
            for i in range(self.num_columns):
                self._debug['columns']['arr'].append({'start': self._io.pos()})
                _t_columns = PaimonFileIndex.Column(self._io, self, self._root)
                try:
                    _t_columns._read()
                finally:
                    self.columns.append(_t_columns)
                self._debug['columns']['arr'][i]['end'] = self._io.pos()

            self._debug['columns']['end'] = self._io.pos()
            self._debug['len_redundant']['start'] = self._io.pos()
            self.len_redundant = self._io.read_s4be()
            self._debug['len_redundant']['end'] = self._io.pos()
            if not self.len_redundant >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.len_redundant, self._io, u"/types/head/seq/2")
            self._debug['redundant']['start'] = self._io.pos()
            self.redundant = self._io.read_bytes(self.len_redundant)
            self._debug['redundant']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.columns)):
                pass
                self.columns[i]._fetch_instances()



    class IndexRef(KaitaiStruct):
        SEQ_FIELDS = ["type", "start", "length"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.IndexRef, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['type']['start'] = self._io.pos()
            self.type = PaimonFileIndex.JavaUtf(self._io, self, self._root)
            self.type._read()
            self._debug['type']['end'] = self._io.pos()
            self._debug['start']['start'] = self._io.pos()
            self.start = self._io.read_s4be()
            self._debug['start']['end'] = self._io.pos()
            self._debug['length']['start'] = self._io.pos()
            self.length = self._io.read_s4be()
            self._debug['length']['end'] = self._io.pos()


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
                self._debug['_m_payload']['start'] = io.pos()
                _on = self.type.value
                if _on == u"bitmap":
                    pass
                    self._raw__m_payload = io.read_bytes(self.length)
                    _io__raw__m_payload = KaitaiStream(BytesIO(self._raw__m_payload))
                    self._m_payload = PaimonFileIndex.BitmapIndex(_io__raw__m_payload, self, self._root)
                    self._m_payload._read()
                elif _on == u"bloom-filter":
                    pass
                    self._raw__m_payload = io.read_bytes(self.length)
                    _io__raw__m_payload = KaitaiStream(BytesIO(self._raw__m_payload))
                    self._m_payload = PaimonFileIndex.BloomFilter(_io__raw__m_payload, self, self._root)
                    self._m_payload._read()
                elif _on == u"bsi":
                    pass
                    self._raw__m_payload = io.read_bytes(self.length)
                    _io__raw__m_payload = KaitaiStream(BytesIO(self._raw__m_payload))
                    self._m_payload = PaimonFileIndex.BsiIndex(_io__raw__m_payload, self, self._root)
                    self._m_payload._read()
                else:
                    pass
                    self._m_payload = io.read_bytes(self.length)
                self._debug['_m_payload']['end'] = io.pos()
                io.seek(_pos)

            return getattr(self, '_m_payload', None)


    class JavaUtf(KaitaiStruct):
        SEQ_FIELDS = ["len_value", "value"]
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonFileIndex.JavaUtf, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_value']['start'] = self._io.pos()
            self.len_value = self._io.read_u2be()
            self._debug['len_value']['end'] = self._io.pos()
            self._debug['value']['start'] = self._io.pos()
            self.value = (self._io.read_bytes(self.len_value)).decode(u"UTF-8")
            self._debug['value']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass



