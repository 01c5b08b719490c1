# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import thrift_compact
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Parquet(KaitaiStruct):
    """Layout: `PAR1`, the column chunks (each a sequence of pages: a Thrift
    PageHeader immediately followed by `compressed_page_size` bytes), bloom
    filters and page indexes, the Thrift FileMetaData footer, the footer length
    (int32 LE) and `PAR1` again.
    
    The footer is found from the end: `tail` holds its length and the trailing
    magic. Every Thrift structure is parsed generically with `thrift_compact`
    (imported) and then viewed through typed `*_view` types that find fields by
    their parquet-format ids (`field_finder`), so unknown fields never break the
    parse. The column chunks are walked from the footer's offsets: the first page
    is at `dictionary_page_offset` when it is set and plausible (a value of 0 is a
    known writer bug) and otherwise at `data_page_offset`; pages follow until
    `total_compressed_size` bytes (headers included) are used. Page bodies stay
    opaque (compressed).
    
    An encrypted file ends in `PARE` instead and is not described here.
    
    `tail` is a position-located instance, which the Kaitai Web IDE parses
    lazily (only when clicked) and whose errors it shows on the field, not in
    its error panel. The zero-size `tail_checked` field reads it during the root
    parse, so a wrong trailing magic or footer length fails the parse in the IDE
    as it does in lakestruct; the trailing magic is checked first, so input that
    is not Parquet (or is truncated) is reported as a missing trailing magic.
    
    .. seealso::
       Source - https://github.com/apache/parquet-format/blob/master/README.md
    
    
    .. seealso::
       Source - https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift
    """

    class BoundaryOrder(IntEnum):
        unordered = 0
        ascending = 1
        descending = 2

    class CompressionCodec(IntEnum):
        uncompressed = 0
        snappy = 1
        gzip = 2
        lzo = 3
        brotli = 4
        lz4 = 5
        zstd = 6
        lz4_raw = 7

    class Encoding(IntEnum):
        plain = 0
        group_var_int = 1
        plain_dictionary = 2
        rle = 3
        bit_packed = 4
        delta_binary_packed = 5
        delta_length_byte_array = 6
        delta_byte_array = 7
        rle_dictionary = 8
        byte_stream_split = 9
        alp = 10

    class PageType(IntEnum):
        data_page = 0
        index_page = 1
        dictionary_page = 2
        data_page_v2 = 3

    class PhysicalType(IntEnum):
        boolean = 0
        int32 = 1
        int64 = 2
        int96 = 3
        float = 4
        double = 5
        byte_array = 6
        fixed_len_byte_array = 7
    SEQ_FIELDS = ["tail_checked", "magic"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Parquet, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['tail_checked']['start'] = self._io.pos()
        self.tail_checked = self._io.read_bytes(0)
        self._debug['tail_checked']['end'] = self._io.pos()
        _ = self.tail_checked
        if not self.tail.magic == b"\x50\x41\x52\x31":
            raise kaitaistruct.ValidationExprError(self.tail_checked, self._io, u"/seq/0")
        self._debug['magic']['start'] = self._io.pos()
        self.magic = self._io.read_bytes(4)
        self._debug['magic']['end'] = self._io.pos()
        if not self.magic == b"\x50\x41\x52\x31":
            raise kaitaistruct.ValidationNotEqualError(b"\x50\x41\x52\x31", self.magic, self._io, u"/seq/1")


    def _fetch_instances(self):
        pass
        _ = self.file_meta_data
        if hasattr(self, '_m_file_meta_data'):
            pass
            self._m_file_meta_data._fetch_instances()

        _ = self.footer
        if hasattr(self, '_m_footer'):
            pass
            self._m_footer._fetch_instances()

        _ = self.tail
        if hasattr(self, '_m_tail'):
            pass
            self._m_tail._fetch_instances()


    class BloomFilter(KaitaiStruct):
        """A BloomFilterHeader and the split-block bitset it announces."""
        SEQ_FIELDS = ["header", "bitset"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Parquet.BloomFilter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['header']['start'] = self._io.pos()
            self.header = Parquet.BloomFilterHeader(self._io, self, self._root)
            self.header._read()
            self._debug['header']['end'] = self._io.pos()
            self._debug['bitset']['start'] = self._io.pos()
            self.bitset = self._io.read_bytes(self.header.view.num_bytes)
            self._debug['bitset']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.header._fetch_instances()


    class BloomFilterHeader(KaitaiStruct):
        """A BloomFilterHeader alone."""
        SEQ_FIELDS = ["raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Parquet.BloomFilterHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['raw']['start'] = self._io.pos()
            self.raw = thrift_compact.ThriftCompact.CompactStruct(self._io)
            self.raw._read()
            self._debug['raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.raw._fetch_instances()
            _ = self.view
            if hasattr(self, '_m_view'):
                pass
                self._m_view._fetch_instances()


        @property
        def view(self):
            """Typed view."""
            if hasattr(self, '_m_view'):
                return self._m_view

            self._debug['_m_view']['start'] = self._io.pos()
            self._m_view = Parquet.BloomFilterHeaderView(self.raw, self._io, self, self._root)
            self._m_view._read()
            self._debug['_m_view']['end'] = self._io.pos()
            return getattr(self, '_m_view', None)


    class BloomFilterHeaderView(KaitaiStruct):
        """BloomFilterHeader: 1 numBytes, 2 algorithm (1 BLOCK), 3 hash (1 XXHASH), 4 compression (1 UNCOMPRESSED)."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.BloomFilterHeaderView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.f_algorithm
            if hasattr(self, '_m_f_algorithm'):
                pass
                for i in range(len(self._m_f_algorithm)):
                    pass
                    self._m_f_algorithm[i]._fetch_instances()


            _ = self.f_compression
            if hasattr(self, '_m_f_compression'):
                pass
                for i in range(len(self._m_f_compression)):
                    pass
                    self._m_f_compression[i]._fetch_instances()


            _ = self.f_hash
            if hasattr(self, '_m_f_hash'):
                pass
                for i in range(len(self._m_f_hash)):
                    pass
                    self._m_f_hash[i]._fetch_instances()


            _ = self.f_num_bytes
            if hasattr(self, '_m_f_num_bytes'):
                pass
                for i in range(len(self._m_f_num_bytes)):
                    pass
                    self._m_f_num_bytes[i]._fetch_instances()



        @property
        def f_algorithm(self):
            """Field 2 (union; member 1 = split block)."""
            if hasattr(self, '_m_f_algorithm'):
                return self._m_f_algorithm

            self._debug['_m_f_algorithm']['start'] = self._io.pos()
            self._debug['_m_f_algorithm']['arr'] = []
            self._m_f_algorithm = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_algorithm']['arr'].append({'start': self._io.pos()})
                _t__m_f_algorithm = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 2) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_algorithm[i - 1].found), self._io)
                try:
                    _t__m_f_algorithm._read()
                finally:
                    self._m_f_algorithm.append(_t__m_f_algorithm)
                self._debug['_m_f_algorithm']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_algorithm']['end'] = self._io.pos()
            return getattr(self, '_m_f_algorithm', None)

        @property
        def f_compression(self):
            """Field 4 (union; member 1 = uncompressed)."""
            if hasattr(self, '_m_f_compression'):
                return self._m_f_compression

            self._debug['_m_f_compression']['start'] = self._io.pos()
            self._debug['_m_f_compression']['arr'] = []
            self._m_f_compression = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_compression']['arr'].append({'start': self._io.pos()})
                _t__m_f_compression = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 4) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_compression[i - 1].found), self._io)
                try:
                    _t__m_f_compression._read()
                finally:
                    self._m_f_compression.append(_t__m_f_compression)
                self._debug['_m_f_compression']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_compression']['end'] = self._io.pos()
            return getattr(self, '_m_f_compression', None)

        @property
        def f_hash(self):
            """Field 3 (union; member 1 = xxHash64)."""
            if hasattr(self, '_m_f_hash'):
                return self._m_f_hash

            self._debug['_m_f_hash']['start'] = self._io.pos()
            self._debug['_m_f_hash']['arr'] = []
            self._m_f_hash = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_hash']['arr'].append({'start': self._io.pos()})
                _t__m_f_hash = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_hash[i - 1].found), self._io)
                try:
                    _t__m_f_hash._read()
                finally:
                    self._m_f_hash.append(_t__m_f_hash)
                self._debug['_m_f_hash']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_hash']['end'] = self._io.pos()
            return getattr(self, '_m_f_hash', None)

        @property
        def f_num_bytes(self):
            """Field 1."""
            if hasattr(self, '_m_f_num_bytes'):
                return self._m_f_num_bytes

            self._debug['_m_f_num_bytes']['start'] = self._io.pos()
            self._debug['_m_f_num_bytes']['arr'] = []
            self._m_f_num_bytes = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_bytes']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_bytes = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_bytes[i - 1].found), self._io)
                try:
                    _t__m_f_num_bytes._read()
                finally:
                    self._m_f_num_bytes.append(_t__m_f_num_bytes)
                self._debug['_m_f_num_bytes']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_bytes']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_bytes', None)

        @property
        def num_bytes(self):
            """Size of the bitset in bytes."""
            if hasattr(self, '_m_num_bytes'):
                return self._m_num_bytes

            self._m_num_bytes = self.s.fields[self.f_num_bytes[-1].found].value.int_value.value
            return getattr(self, '_m_num_bytes', None)


    class ColumnChunkView(KaitaiStruct):
        """ColumnChunk: 3 meta_data, 4/5 offset index, 6/7 column index; its pages."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.ColumnChunkView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.bloom_filter
            if hasattr(self, '_m_bloom_filter'):
                pass
                self._m_bloom_filter._fetch_instances()

            _ = self.column_index
            if hasattr(self, '_m_column_index'):
                pass
                self._m_column_index._fetch_instances()

            _ = self.f_column_index_length
            if hasattr(self, '_m_f_column_index_length'):
                pass
                for i in range(len(self._m_f_column_index_length)):
                    pass
                    self._m_f_column_index_length[i]._fetch_instances()


            _ = self.f_column_index_offset
            if hasattr(self, '_m_f_column_index_offset'):
                pass
                for i in range(len(self._m_f_column_index_offset)):
                    pass
                    self._m_f_column_index_offset[i]._fetch_instances()


            _ = self.f_meta_data
            if hasattr(self, '_m_f_meta_data'):
                pass
                for i in range(len(self._m_f_meta_data)):
                    pass
                    self._m_f_meta_data[i]._fetch_instances()


            _ = self.f_offset_index_length
            if hasattr(self, '_m_f_offset_index_length'):
                pass
                for i in range(len(self._m_f_offset_index_length)):
                    pass
                    self._m_f_offset_index_length[i]._fetch_instances()


            _ = self.f_offset_index_offset
            if hasattr(self, '_m_f_offset_index_offset'):
                pass
                for i in range(len(self._m_f_offset_index_offset)):
                    pass
                    self._m_f_offset_index_offset[i]._fetch_instances()


            _ = self.meta_data
            if hasattr(self, '_m_meta_data'):
                pass
                self._m_meta_data._fetch_instances()

            _ = self.offset_index
            if hasattr(self, '_m_offset_index'):
                pass
                self._m_offset_index._fetch_instances()

            _ = self.pages
            if hasattr(self, '_m_pages'):
                pass
                self._m_pages._fetch_instances()


        @property
        def bloom_filter(self):
            """The chunk's split-block bloom filter."""
            if hasattr(self, '_m_bloom_filter'):
                return self._m_bloom_filter

            if  (((not (self.encrypted))) and (self.meta_data.has_bloom_filter)) :
                pass
                _pos = self._io.pos()
                self._io.seek(self.meta_data.bloom_filter_offset)
                self._debug['_m_bloom_filter']['start'] = self._io.pos()
                self._m_bloom_filter = Parquet.BloomFilter(self._io, self, self._root)
                self._m_bloom_filter._read()
                self._debug['_m_bloom_filter']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_bloom_filter', None)

        @property
        def column_index(self):
            """The chunk's ColumnIndex (per-page min/max/null pages)."""
            if hasattr(self, '_m_column_index'):
                return self._m_column_index

            if self.has_column_index:
                pass
                _pos = self._io.pos()
                self._io.seek(self.s.fields[self.f_column_index_offset[-1].found].value.int_value.value)
                self._debug['_m_column_index']['start'] = self._io.pos()
                self._raw__m_column_index = self._io.read_bytes(self.s.fields[self.f_column_index_length[-1].found].value.int_value.value)
                _io__raw__m_column_index = KaitaiStream(BytesIO(self._raw__m_column_index))
                self._m_column_index = Parquet.ColumnIndex(_io__raw__m_column_index, self, self._root)
                self._m_column_index._read()
                self._debug['_m_column_index']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_column_index', None)

        @property
        def encrypted(self):
            """No plaintext metadata (an encrypted column); its pages are not walked."""
            if hasattr(self, '_m_encrypted'):
                return self._m_encrypted

            self._m_encrypted = (not (self.f_meta_data[-1].found >= 0))
            return getattr(self, '_m_encrypted', None)

        @property
        def f_column_index_length(self):
            """Field 7."""
            if hasattr(self, '_m_f_column_index_length'):
                return self._m_f_column_index_length

            self._debug['_m_f_column_index_length']['start'] = self._io.pos()
            self._debug['_m_f_column_index_length']['arr'] = []
            self._m_f_column_index_length = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_column_index_length']['arr'].append({'start': self._io.pos()})
                _t__m_f_column_index_length = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 7) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_column_index_length[i - 1].found), self._io)
                try:
                    _t__m_f_column_index_length._read()
                finally:
                    self._m_f_column_index_length.append(_t__m_f_column_index_length)
                self._debug['_m_f_column_index_length']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_column_index_length']['end'] = self._io.pos()
            return getattr(self, '_m_f_column_index_length', None)

        @property
        def f_column_index_offset(self):
            """Field 6."""
            if hasattr(self, '_m_f_column_index_offset'):
                return self._m_f_column_index_offset

            self._debug['_m_f_column_index_offset']['start'] = self._io.pos()
            self._debug['_m_f_column_index_offset']['arr'] = []
            self._m_f_column_index_offset = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_column_index_offset']['arr'].append({'start': self._io.pos()})
                _t__m_f_column_index_offset = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 6) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_column_index_offset[i - 1].found), self._io)
                try:
                    _t__m_f_column_index_offset._read()
                finally:
                    self._m_f_column_index_offset.append(_t__m_f_column_index_offset)
                self._debug['_m_f_column_index_offset']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_column_index_offset']['end'] = self._io.pos()
            return getattr(self, '_m_f_column_index_offset', None)

        @property
        def f_meta_data(self):
            """Field 3 (absent for encrypted columns)."""
            if hasattr(self, '_m_f_meta_data'):
                return self._m_f_meta_data

            self._debug['_m_f_meta_data']['start'] = self._io.pos()
            self._debug['_m_f_meta_data']['arr'] = []
            self._m_f_meta_data = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_meta_data']['arr'].append({'start': self._io.pos()})
                _t__m_f_meta_data = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_meta_data[i - 1].found), self._io)
                try:
                    _t__m_f_meta_data._read()
                finally:
                    self._m_f_meta_data.append(_t__m_f_meta_data)
                self._debug['_m_f_meta_data']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_meta_data']['end'] = self._io.pos()
            return getattr(self, '_m_f_meta_data', None)

        @property
        def f_offset_index_length(self):
            """Field 5."""
            if hasattr(self, '_m_f_offset_index_length'):
                return self._m_f_offset_index_length

            self._debug['_m_f_offset_index_length']['start'] = self._io.pos()
            self._debug['_m_f_offset_index_length']['arr'] = []
            self._m_f_offset_index_length = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_offset_index_length']['arr'].append({'start': self._io.pos()})
                _t__m_f_offset_index_length = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 5) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_offset_index_length[i - 1].found), self._io)
                try:
                    _t__m_f_offset_index_length._read()
                finally:
                    self._m_f_offset_index_length.append(_t__m_f_offset_index_length)
                self._debug['_m_f_offset_index_length']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_offset_index_length']['end'] = self._io.pos()
            return getattr(self, '_m_f_offset_index_length', None)

        @property
        def f_offset_index_offset(self):
            """Field 4."""
            if hasattr(self, '_m_f_offset_index_offset'):
                return self._m_f_offset_index_offset

            self._debug['_m_f_offset_index_offset']['start'] = self._io.pos()
            self._debug['_m_f_offset_index_offset']['arr'] = []
            self._m_f_offset_index_offset = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_offset_index_offset']['arr'].append({'start': self._io.pos()})
                _t__m_f_offset_index_offset = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 4) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_offset_index_offset[i - 1].found), self._io)
                try:
                    _t__m_f_offset_index_offset._read()
                finally:
                    self._m_f_offset_index_offset.append(_t__m_f_offset_index_offset)
                self._debug['_m_f_offset_index_offset']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_offset_index_offset']['end'] = self._io.pos()
            return getattr(self, '_m_f_offset_index_offset', None)

        @property
        def has_column_index(self):
            """The chunk has a ColumnIndex."""
            if hasattr(self, '_m_has_column_index'):
                return self._m_has_column_index

            self._m_has_column_index =  ((self.f_column_index_offset[-1].found >= 0) and (self.f_column_index_length[-1].found >= 0)) 
            return getattr(self, '_m_has_column_index', None)

        @property
        def has_offset_index(self):
            """The chunk has an OffsetIndex."""
            if hasattr(self, '_m_has_offset_index'):
                return self._m_has_offset_index

            self._m_has_offset_index =  ((self.f_offset_index_offset[-1].found >= 0) and (self.f_offset_index_length[-1].found >= 0)) 
            return getattr(self, '_m_has_offset_index', None)

        @property
        def meta_data(self):
            """The column metadata."""
            if hasattr(self, '_m_meta_data'):
                return self._m_meta_data

            if self.f_meta_data[-1].found >= 0:
                pass
                self._debug['_m_meta_data']['start'] = self._io.pos()
                self._m_meta_data = Parquet.ColumnMetaDataView(self.s.fields[self.f_meta_data[-1].found].value.struct_value, self._io, self, self._root)
                self._m_meta_data._read()
                self._debug['_m_meta_data']['end'] = self._io.pos()

            return getattr(self, '_m_meta_data', None)

        @property
        def offset_index(self):
            """The chunk's OffsetIndex (page locations)."""
            if hasattr(self, '_m_offset_index'):
                return self._m_offset_index

            if self.has_offset_index:
                pass
                _pos = self._io.pos()
                self._io.seek(self.s.fields[self.f_offset_index_offset[-1].found].value.int_value.value)
                self._debug['_m_offset_index']['start'] = self._io.pos()
                self._raw__m_offset_index = self._io.read_bytes(self.s.fields[self.f_offset_index_length[-1].found].value.int_value.value)
                _io__raw__m_offset_index = KaitaiStream(BytesIO(self._raw__m_offset_index))
                self._m_offset_index = Parquet.OffsetIndex(_io__raw__m_offset_index, self, self._root)
                self._m_offset_index._read()
                self._debug['_m_offset_index']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_offset_index', None)

        @property
        def pages(self):
            """The pages of this chunk."""
            if hasattr(self, '_m_pages'):
                return self._m_pages

            if (not (self.encrypted)):
                pass
                _pos = self._io.pos()
                self._io.seek(self.meta_data.ofs_first_page)
                self._debug['_m_pages']['start'] = self._io.pos()
                self._m_pages = Parquet.PageRun(self.meta_data.ofs_first_page + self.meta_data.total_compressed_size, self._io, self, self._root)
                self._m_pages._read()
                self._debug['_m_pages']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_pages', None)


    class ColumnIndex(KaitaiStruct):
        """ColumnIndex: 1 null_pages, 2 min_values, 3 max_values, 4 boundary_order, 5 null_counts."""
        SEQ_FIELDS = ["raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Parquet.ColumnIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['raw']['start'] = self._io.pos()
            self.raw = thrift_compact.ThriftCompact.CompactStruct(self._io)
            self.raw._read()
            self._debug['raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.raw._fetch_instances()
            _ = self.f_boundary_order
            if hasattr(self, '_m_f_boundary_order'):
                pass
                for i in range(len(self._m_f_boundary_order)):
                    pass
                    self._m_f_boundary_order[i]._fetch_instances()


            _ = self.f_max_values
            if hasattr(self, '_m_f_max_values'):
                pass
                for i in range(len(self._m_f_max_values)):
                    pass
                    self._m_f_max_values[i]._fetch_instances()


            _ = self.f_min_values
            if hasattr(self, '_m_f_min_values'):
                pass
                for i in range(len(self._m_f_min_values)):
                    pass
                    self._m_f_min_values[i]._fetch_instances()


            _ = self.f_null_counts
            if hasattr(self, '_m_f_null_counts'):
                pass
                for i in range(len(self._m_f_null_counts)):
                    pass
                    self._m_f_null_counts[i]._fetch_instances()


            _ = self.f_null_pages
            if hasattr(self, '_m_f_null_pages'):
                pass
                for i in range(len(self._m_f_null_pages)):
                    pass
                    self._m_f_null_pages[i]._fetch_instances()



        @property
        def boundary_order(self):
            """Ordering of min/max across pages."""
            if hasattr(self, '_m_boundary_order'):
                return self._m_boundary_order

            if self.f_boundary_order[-1].found >= 0:
                pass
                self._m_boundary_order = KaitaiStream.resolve_enum(Parquet.BoundaryOrder, self.raw.fields[self.f_boundary_order[-1].found].value.int_value.value)

            return getattr(self, '_m_boundary_order', None)

        @property
        def f_boundary_order(self):
            """Field 4."""
            if hasattr(self, '_m_f_boundary_order'):
                return self._m_f_boundary_order

            self._debug['_m_f_boundary_order']['start'] = self._io.pos()
            self._debug['_m_f_boundary_order']['arr'] = []
            self._m_f_boundary_order = []
            for i in range(len(self.raw.fields)):
                self._debug['_m_f_boundary_order']['arr'].append({'start': self._io.pos()})
                _t__m_f_boundary_order = thrift_compact.ThriftCompact.FinderStep(i,  ((self.raw.fields[i].field_id == 4) and ((not (self.raw.fields[i].is_stop)))) , (-1 if i == 0 else self.f_boundary_order[i - 1].found), self._io)
                try:
                    _t__m_f_boundary_order._read()
                finally:
                    self._m_f_boundary_order.append(_t__m_f_boundary_order)
                self._debug['_m_f_boundary_order']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_boundary_order']['end'] = self._io.pos()
            return getattr(self, '_m_f_boundary_order', None)

        @property
        def f_max_values(self):
            """Field 3 (list<binary>)."""
            if hasattr(self, '_m_f_max_values'):
                return self._m_f_max_values

            self._debug['_m_f_max_values']['start'] = self._io.pos()
            self._debug['_m_f_max_values']['arr'] = []
            self._m_f_max_values = []
            for i in range(len(self.raw.fields)):
                self._debug['_m_f_max_values']['arr'].append({'start': self._io.pos()})
                _t__m_f_max_values = thrift_compact.ThriftCompact.FinderStep(i,  ((self.raw.fields[i].field_id == 3) and ((not (self.raw.fields[i].is_stop)))) , (-1 if i == 0 else self.f_max_values[i - 1].found), self._io)
                try:
                    _t__m_f_max_values._read()
                finally:
                    self._m_f_max_values.append(_t__m_f_max_values)
                self._debug['_m_f_max_values']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_max_values']['end'] = self._io.pos()
            return getattr(self, '_m_f_max_values', None)

        @property
        def f_min_values(self):
            """Field 2 (list<binary>)."""
            if hasattr(self, '_m_f_min_values'):
                return self._m_f_min_values

            self._debug['_m_f_min_values']['start'] = self._io.pos()
            self._debug['_m_f_min_values']['arr'] = []
            self._m_f_min_values = []
            for i in range(len(self.raw.fields)):
                self._debug['_m_f_min_values']['arr'].append({'start': self._io.pos()})
                _t__m_f_min_values = thrift_compact.ThriftCompact.FinderStep(i,  ((self.raw.fields[i].field_id == 2) and ((not (self.raw.fields[i].is_stop)))) , (-1 if i == 0 else self.f_min_values[i - 1].found), self._io)
                try:
                    _t__m_f_min_values._read()
                finally:
                    self._m_f_min_values.append(_t__m_f_min_values)
                self._debug['_m_f_min_values']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_min_values']['end'] = self._io.pos()
            return getattr(self, '_m_f_min_values', None)

        @property
        def f_null_counts(self):
            """Field 5 (list<i64>)."""
            if hasattr(self, '_m_f_null_counts'):
                return self._m_f_null_counts

            self._debug['_m_f_null_counts']['start'] = self._io.pos()
            self._debug['_m_f_null_counts']['arr'] = []
            self._m_f_null_counts = []
            for i in range(len(self.raw.fields)):
                self._debug['_m_f_null_counts']['arr'].append({'start': self._io.pos()})
                _t__m_f_null_counts = thrift_compact.ThriftCompact.FinderStep(i,  ((self.raw.fields[i].field_id == 5) and ((not (self.raw.fields[i].is_stop)))) , (-1 if i == 0 else self.f_null_counts[i - 1].found), self._io)
                try:
                    _t__m_f_null_counts._read()
                finally:
                    self._m_f_null_counts.append(_t__m_f_null_counts)
                self._debug['_m_f_null_counts']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_null_counts']['end'] = self._io.pos()
            return getattr(self, '_m_f_null_counts', None)

        @property
        def f_null_pages(self):
            """Field 1 (list<bool>; element type 1 or 2 in the wild)."""
            if hasattr(self, '_m_f_null_pages'):
                return self._m_f_null_pages

            self._debug['_m_f_null_pages']['start'] = self._io.pos()
            self._debug['_m_f_null_pages']['arr'] = []
            self._m_f_null_pages = []
            for i in range(len(self.raw.fields)):
                self._debug['_m_f_null_pages']['arr'].append({'start': self._io.pos()})
                _t__m_f_null_pages = thrift_compact.ThriftCompact.FinderStep(i,  ((self.raw.fields[i].field_id == 1) and ((not (self.raw.fields[i].is_stop)))) , (-1 if i == 0 else self.f_null_pages[i - 1].found), self._io)
                try:
                    _t__m_f_null_pages._read()
                finally:
                    self._m_f_null_pages.append(_t__m_f_null_pages)
                self._debug['_m_f_null_pages']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_null_pages']['end'] = self._io.pos()
            return getattr(self, '_m_f_null_pages', None)

        @property
        def num_pages(self):
            """Number of pages."""
            if hasattr(self, '_m_num_pages'):
                return self._m_num_pages

            self._m_num_pages = (self.raw.fields[self.f_null_pages[-1].found].value.list_value.num_elements if self.f_null_pages[-1].found >= 0 else 0)
            return getattr(self, '_m_num_pages', None)


    class ColumnMetaDataView(KaitaiStruct):
        """ColumnMetaData: 1 type, 4 codec, 5 num_values, 7 total_compressed_size, 9 data_page_offset, 11 dictionary_page_offset, 14 bloom_filter_offset."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.ColumnMetaDataView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.f_bloom_filter_offset
            if hasattr(self, '_m_f_bloom_filter_offset'):
                pass
                for i in range(len(self._m_f_bloom_filter_offset)):
                    pass
                    self._m_f_bloom_filter_offset[i]._fetch_instances()


            _ = self.f_codec
            if hasattr(self, '_m_f_codec'):
                pass
                for i in range(len(self._m_f_codec)):
                    pass
                    self._m_f_codec[i]._fetch_instances()


            _ = self.f_data_page_offset
            if hasattr(self, '_m_f_data_page_offset'):
                pass
                for i in range(len(self._m_f_data_page_offset)):
                    pass
                    self._m_f_data_page_offset[i]._fetch_instances()


            _ = self.f_dictionary_page_offset
            if hasattr(self, '_m_f_dictionary_page_offset'):
                pass
                for i in range(len(self._m_f_dictionary_page_offset)):
                    pass
                    self._m_f_dictionary_page_offset[i]._fetch_instances()


            _ = self.f_num_values
            if hasattr(self, '_m_f_num_values'):
                pass
                for i in range(len(self._m_f_num_values)):
                    pass
                    self._m_f_num_values[i]._fetch_instances()


            _ = self.f_total_compressed_size
            if hasattr(self, '_m_f_total_compressed_size'):
                pass
                for i in range(len(self._m_f_total_compressed_size)):
                    pass
                    self._m_f_total_compressed_size[i]._fetch_instances()


            _ = self.f_type
            if hasattr(self, '_m_f_type'):
                pass
                for i in range(len(self._m_f_type)):
                    pass
                    self._m_f_type[i]._fetch_instances()



        @property
        def bloom_filter_offset(self):
            """Offset of the bloom filter header."""
            if hasattr(self, '_m_bloom_filter_offset'):
                return self._m_bloom_filter_offset

            self._m_bloom_filter_offset = (self.s.fields[self.f_bloom_filter_offset[-1].found].value.int_value.value if self.has_bloom_filter else 0)
            return getattr(self, '_m_bloom_filter_offset', None)

        @property
        def codec(self):
            """Compression codec."""
            if hasattr(self, '_m_codec'):
                return self._m_codec

            if self.f_codec[-1].found >= 0:
                pass
                self._m_codec = KaitaiStream.resolve_enum(Parquet.CompressionCodec, self.s.fields[self.f_codec[-1].found].value.int_value.value)

            return getattr(self, '_m_codec', None)

        @property
        def data_page_offset(self):
            """Offset of the first data page."""
            if hasattr(self, '_m_data_page_offset'):
                return self._m_data_page_offset

            self._m_data_page_offset = self.s.fields[self.f_data_page_offset[-1].found].value.int_value.value
            return getattr(self, '_m_data_page_offset', None)

        @property
        def dictionary_page_offset(self):
            """Offset of the dictionary page (-1 when absent; 0 is a writer bug)."""
            if hasattr(self, '_m_dictionary_page_offset'):
                return self._m_dictionary_page_offset

            self._m_dictionary_page_offset = (self.s.fields[self.f_dictionary_page_offset[-1].found].value.int_value.value if self.f_dictionary_page_offset[-1].found >= 0 else -1)
            return getattr(self, '_m_dictionary_page_offset', None)

        @property
        def f_bloom_filter_offset(self):
            """Field 14."""
            if hasattr(self, '_m_f_bloom_filter_offset'):
                return self._m_f_bloom_filter_offset

            self._debug['_m_f_bloom_filter_offset']['start'] = self._io.pos()
            self._debug['_m_f_bloom_filter_offset']['arr'] = []
            self._m_f_bloom_filter_offset = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_bloom_filter_offset']['arr'].append({'start': self._io.pos()})
                _t__m_f_bloom_filter_offset = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 14) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_bloom_filter_offset[i - 1].found), self._io)
                try:
                    _t__m_f_bloom_filter_offset._read()
                finally:
                    self._m_f_bloom_filter_offset.append(_t__m_f_bloom_filter_offset)
                self._debug['_m_f_bloom_filter_offset']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_bloom_filter_offset']['end'] = self._io.pos()
            return getattr(self, '_m_f_bloom_filter_offset', None)

        @property
        def f_codec(self):
            """Field 4."""
            if hasattr(self, '_m_f_codec'):
                return self._m_f_codec

            self._debug['_m_f_codec']['start'] = self._io.pos()
            self._debug['_m_f_codec']['arr'] = []
            self._m_f_codec = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_codec']['arr'].append({'start': self._io.pos()})
                _t__m_f_codec = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 4) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_codec[i - 1].found), self._io)
                try:
                    _t__m_f_codec._read()
                finally:
                    self._m_f_codec.append(_t__m_f_codec)
                self._debug['_m_f_codec']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_codec']['end'] = self._io.pos()
            return getattr(self, '_m_f_codec', None)

        @property
        def f_data_page_offset(self):
            """Field 9."""
            if hasattr(self, '_m_f_data_page_offset'):
                return self._m_f_data_page_offset

            self._debug['_m_f_data_page_offset']['start'] = self._io.pos()
            self._debug['_m_f_data_page_offset']['arr'] = []
            self._m_f_data_page_offset = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_data_page_offset']['arr'].append({'start': self._io.pos()})
                _t__m_f_data_page_offset = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 9) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_data_page_offset[i - 1].found), self._io)
                try:
                    _t__m_f_data_page_offset._read()
                finally:
                    self._m_f_data_page_offset.append(_t__m_f_data_page_offset)
                self._debug['_m_f_data_page_offset']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_data_page_offset']['end'] = self._io.pos()
            return getattr(self, '_m_f_data_page_offset', None)

        @property
        def f_dictionary_page_offset(self):
            """Field 11."""
            if hasattr(self, '_m_f_dictionary_page_offset'):
                return self._m_f_dictionary_page_offset

            self._debug['_m_f_dictionary_page_offset']['start'] = self._io.pos()
            self._debug['_m_f_dictionary_page_offset']['arr'] = []
            self._m_f_dictionary_page_offset = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_dictionary_page_offset']['arr'].append({'start': self._io.pos()})
                _t__m_f_dictionary_page_offset = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 11) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_dictionary_page_offset[i - 1].found), self._io)
                try:
                    _t__m_f_dictionary_page_offset._read()
                finally:
                    self._m_f_dictionary_page_offset.append(_t__m_f_dictionary_page_offset)
                self._debug['_m_f_dictionary_page_offset']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_dictionary_page_offset']['end'] = self._io.pos()
            return getattr(self, '_m_f_dictionary_page_offset', None)

        @property
        def f_num_values(self):
            """Field 5."""
            if hasattr(self, '_m_f_num_values'):
                return self._m_f_num_values

            self._debug['_m_f_num_values']['start'] = self._io.pos()
            self._debug['_m_f_num_values']['arr'] = []
            self._m_f_num_values = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_values']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_values = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 5) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_values[i - 1].found), self._io)
                try:
                    _t__m_f_num_values._read()
                finally:
                    self._m_f_num_values.append(_t__m_f_num_values)
                self._debug['_m_f_num_values']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_values']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_values', None)

        @property
        def f_total_compressed_size(self):
            """Field 7."""
            if hasattr(self, '_m_f_total_compressed_size'):
                return self._m_f_total_compressed_size

            self._debug['_m_f_total_compressed_size']['start'] = self._io.pos()
            self._debug['_m_f_total_compressed_size']['arr'] = []
            self._m_f_total_compressed_size = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_total_compressed_size']['arr'].append({'start': self._io.pos()})
                _t__m_f_total_compressed_size = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 7) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_total_compressed_size[i - 1].found), self._io)
                try:
                    _t__m_f_total_compressed_size._read()
                finally:
                    self._m_f_total_compressed_size.append(_t__m_f_total_compressed_size)
                self._debug['_m_f_total_compressed_size']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_total_compressed_size']['end'] = self._io.pos()
            return getattr(self, '_m_f_total_compressed_size', None)

        @property
        def f_type(self):
            """Field 1."""
            if hasattr(self, '_m_f_type'):
                return self._m_f_type

            self._debug['_m_f_type']['start'] = self._io.pos()
            self._debug['_m_f_type']['arr'] = []
            self._m_f_type = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_type']['arr'].append({'start': self._io.pos()})
                _t__m_f_type = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_type[i - 1].found), self._io)
                try:
                    _t__m_f_type._read()
                finally:
                    self._m_f_type.append(_t__m_f_type)
                self._debug['_m_f_type']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_type']['end'] = self._io.pos()
            return getattr(self, '_m_f_type', None)

        @property
        def has_bloom_filter(self):
            """A bloom filter is stored."""
            if hasattr(self, '_m_has_bloom_filter'):
                return self._m_has_bloom_filter

            self._m_has_bloom_filter = self.f_bloom_filter_offset[-1].found >= 0
            return getattr(self, '_m_has_bloom_filter', None)

        @property
        def num_values(self):
            """Number of values (nulls included)."""
            if hasattr(self, '_m_num_values'):
                return self._m_num_values

            if self.f_num_values[-1].found >= 0:
                pass
                self._m_num_values = self.s.fields[self.f_num_values[-1].found].value.int_value.value

            return getattr(self, '_m_num_values', None)

        @property
        def ofs_first_page(self):
            """Where the chunk starts."""
            if hasattr(self, '_m_ofs_first_page'):
                return self._m_ofs_first_page

            self._m_ofs_first_page = (self.dictionary_page_offset if  ((self.dictionary_page_offset >= 4) and ( ((self.dictionary_page_offset < self.data_page_offset) or (self.data_page_offset < 4)) ))  else self.data_page_offset)
            return getattr(self, '_m_ofs_first_page', None)

        @property
        def total_compressed_size(self):
            """Bytes of the chunk as stored, page headers included."""
            if hasattr(self, '_m_total_compressed_size'):
                return self._m_total_compressed_size

            self._m_total_compressed_size = self.s.fields[self.f_total_compressed_size[-1].found].value.int_value.value
            return getattr(self, '_m_total_compressed_size', None)

        @property
        def type(self):
            """Physical type."""
            if hasattr(self, '_m_type'):
                return self._m_type

            if self.f_type[-1].found >= 0:
                pass
                self._m_type = KaitaiStream.resolve_enum(Parquet.PhysicalType, self.s.fields[self.f_type[-1].found].value.int_value.value)

            return getattr(self, '_m_type', None)


    class DataPageHeaderV2View(KaitaiStruct):
        """DataPageHeaderV2: 1 num_values, 2 num_nulls, 3 num_rows, 4 encoding, 5/6 level byte lengths, 7 is_compressed."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.DataPageHeaderV2View, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.f_definition_levels_byte_length
            if hasattr(self, '_m_f_definition_levels_byte_length'):
                pass
                for i in range(len(self._m_f_definition_levels_byte_length)):
                    pass
                    self._m_f_definition_levels_byte_length[i]._fetch_instances()


            _ = self.f_encoding
            if hasattr(self, '_m_f_encoding'):
                pass
                for i in range(len(self._m_f_encoding)):
                    pass
                    self._m_f_encoding[i]._fetch_instances()


            _ = self.f_is_compressed
            if hasattr(self, '_m_f_is_compressed'):
                pass
                for i in range(len(self._m_f_is_compressed)):
                    pass
                    self._m_f_is_compressed[i]._fetch_instances()


            _ = self.f_num_nulls
            if hasattr(self, '_m_f_num_nulls'):
                pass
                for i in range(len(self._m_f_num_nulls)):
                    pass
                    self._m_f_num_nulls[i]._fetch_instances()


            _ = self.f_num_rows
            if hasattr(self, '_m_f_num_rows'):
                pass
                for i in range(len(self._m_f_num_rows)):
                    pass
                    self._m_f_num_rows[i]._fetch_instances()


            _ = self.f_num_values
            if hasattr(self, '_m_f_num_values'):
                pass
                for i in range(len(self._m_f_num_values)):
                    pass
                    self._m_f_num_values[i]._fetch_instances()


            _ = self.f_repetition_levels_byte_length
            if hasattr(self, '_m_f_repetition_levels_byte_length'):
                pass
                for i in range(len(self._m_f_repetition_levels_byte_length)):
                    pass
                    self._m_f_repetition_levels_byte_length[i]._fetch_instances()



        @property
        def definition_levels_byte_length(self):
            """Bytes of definition levels (never compressed)."""
            if hasattr(self, '_m_definition_levels_byte_length'):
                return self._m_definition_levels_byte_length

            self._m_definition_levels_byte_length = self.s.fields[self.f_definition_levels_byte_length[-1].found].value.int_value.value
            return getattr(self, '_m_definition_levels_byte_length', None)

        @property
        def encoding(self):
            """Value encoding."""
            if hasattr(self, '_m_encoding'):
                return self._m_encoding

            self._m_encoding = KaitaiStream.resolve_enum(Parquet.Encoding, self.s.fields[self.f_encoding[-1].found].value.int_value.value)
            return getattr(self, '_m_encoding', None)

        @property
        def f_definition_levels_byte_length(self):
            """Field 5."""
            if hasattr(self, '_m_f_definition_levels_byte_length'):
                return self._m_f_definition_levels_byte_length

            self._debug['_m_f_definition_levels_byte_length']['start'] = self._io.pos()
            self._debug['_m_f_definition_levels_byte_length']['arr'] = []
            self._m_f_definition_levels_byte_length = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_definition_levels_byte_length']['arr'].append({'start': self._io.pos()})
                _t__m_f_definition_levels_byte_length = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 5) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_definition_levels_byte_length[i - 1].found), self._io)
                try:
                    _t__m_f_definition_levels_byte_length._read()
                finally:
                    self._m_f_definition_levels_byte_length.append(_t__m_f_definition_levels_byte_length)
                self._debug['_m_f_definition_levels_byte_length']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_definition_levels_byte_length']['end'] = self._io.pos()
            return getattr(self, '_m_f_definition_levels_byte_length', None)

        @property
        def f_encoding(self):
            """Field 4."""
            if hasattr(self, '_m_f_encoding'):
                return self._m_f_encoding

            self._debug['_m_f_encoding']['start'] = self._io.pos()
            self._debug['_m_f_encoding']['arr'] = []
            self._m_f_encoding = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_encoding']['arr'].append({'start': self._io.pos()})
                _t__m_f_encoding = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 4) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_encoding[i - 1].found), self._io)
                try:
                    _t__m_f_encoding._read()
                finally:
                    self._m_f_encoding.append(_t__m_f_encoding)
                self._debug['_m_f_encoding']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_encoding']['end'] = self._io.pos()
            return getattr(self, '_m_f_encoding', None)

        @property
        def f_is_compressed(self):
            """Field 7."""
            if hasattr(self, '_m_f_is_compressed'):
                return self._m_f_is_compressed

            self._debug['_m_f_is_compressed']['start'] = self._io.pos()
            self._debug['_m_f_is_compressed']['arr'] = []
            self._m_f_is_compressed = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_is_compressed']['arr'].append({'start': self._io.pos()})
                _t__m_f_is_compressed = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 7) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_is_compressed[i - 1].found), self._io)
                try:
                    _t__m_f_is_compressed._read()
                finally:
                    self._m_f_is_compressed.append(_t__m_f_is_compressed)
                self._debug['_m_f_is_compressed']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_is_compressed']['end'] = self._io.pos()
            return getattr(self, '_m_f_is_compressed', None)

        @property
        def f_num_nulls(self):
            """Field 2."""
            if hasattr(self, '_m_f_num_nulls'):
                return self._m_f_num_nulls

            self._debug['_m_f_num_nulls']['start'] = self._io.pos()
            self._debug['_m_f_num_nulls']['arr'] = []
            self._m_f_num_nulls = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_nulls']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_nulls = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 2) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_nulls[i - 1].found), self._io)
                try:
                    _t__m_f_num_nulls._read()
                finally:
                    self._m_f_num_nulls.append(_t__m_f_num_nulls)
                self._debug['_m_f_num_nulls']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_nulls']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_nulls', None)

        @property
        def f_num_rows(self):
            """Field 3."""
            if hasattr(self, '_m_f_num_rows'):
                return self._m_f_num_rows

            self._debug['_m_f_num_rows']['start'] = self._io.pos()
            self._debug['_m_f_num_rows']['arr'] = []
            self._m_f_num_rows = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_rows']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_rows = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_rows[i - 1].found), self._io)
                try:
                    _t__m_f_num_rows._read()
                finally:
                    self._m_f_num_rows.append(_t__m_f_num_rows)
                self._debug['_m_f_num_rows']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_rows']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_rows', None)

        @property
        def f_num_values(self):
            """Field 1."""
            if hasattr(self, '_m_f_num_values'):
                return self._m_f_num_values

            self._debug['_m_f_num_values']['start'] = self._io.pos()
            self._debug['_m_f_num_values']['arr'] = []
            self._m_f_num_values = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_values']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_values = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_values[i - 1].found), self._io)
                try:
                    _t__m_f_num_values._read()
                finally:
                    self._m_f_num_values.append(_t__m_f_num_values)
                self._debug['_m_f_num_values']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_values']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_values', None)

        @property
        def f_repetition_levels_byte_length(self):
            """Field 6."""
            if hasattr(self, '_m_f_repetition_levels_byte_length'):
                return self._m_f_repetition_levels_byte_length

            self._debug['_m_f_repetition_levels_byte_length']['start'] = self._io.pos()
            self._debug['_m_f_repetition_levels_byte_length']['arr'] = []
            self._m_f_repetition_levels_byte_length = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_repetition_levels_byte_length']['arr'].append({'start': self._io.pos()})
                _t__m_f_repetition_levels_byte_length = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 6) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_repetition_levels_byte_length[i - 1].found), self._io)
                try:
                    _t__m_f_repetition_levels_byte_length._read()
                finally:
                    self._m_f_repetition_levels_byte_length.append(_t__m_f_repetition_levels_byte_length)
                self._debug['_m_f_repetition_levels_byte_length']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_repetition_levels_byte_length']['end'] = self._io.pos()
            return getattr(self, '_m_f_repetition_levels_byte_length', None)

        @property
        def is_compressed(self):
            """The values section is compressed (default true)."""
            if hasattr(self, '_m_is_compressed'):
                return self._m_is_compressed

            self._m_is_compressed = (self.s.fields[self.f_is_compressed[-1].found].bool_value if self.f_is_compressed[-1].found >= 0 else True)
            return getattr(self, '_m_is_compressed', None)

        @property
        def num_nulls(self):
            """Nulls."""
            if hasattr(self, '_m_num_nulls'):
                return self._m_num_nulls

            self._m_num_nulls = self.s.fields[self.f_num_nulls[-1].found].value.int_value.value
            return getattr(self, '_m_num_nulls', None)

        @property
        def num_rows(self):
            """Rows."""
            if hasattr(self, '_m_num_rows'):
                return self._m_num_rows

            self._m_num_rows = self.s.fields[self.f_num_rows[-1].found].value.int_value.value
            return getattr(self, '_m_num_rows', None)

        @property
        def num_values(self):
            """Values (nulls included)."""
            if hasattr(self, '_m_num_values'):
                return self._m_num_values

            self._m_num_values = self.s.fields[self.f_num_values[-1].found].value.int_value.value
            return getattr(self, '_m_num_values', None)

        @property
        def repetition_levels_byte_length(self):
            """Bytes of repetition levels (never compressed)."""
            if hasattr(self, '_m_repetition_levels_byte_length'):
                return self._m_repetition_levels_byte_length

            self._m_repetition_levels_byte_length = self.s.fields[self.f_repetition_levels_byte_length[-1].found].value.int_value.value
            return getattr(self, '_m_repetition_levels_byte_length', None)


    class DataPageHeaderView(KaitaiStruct):
        """DataPageHeader: 1 num_values, 2 encoding, 3 definition_level_encoding, 4 repetition_level_encoding."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.DataPageHeaderView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.f_definition_level_encoding
            if hasattr(self, '_m_f_definition_level_encoding'):
                pass
                for i in range(len(self._m_f_definition_level_encoding)):
                    pass
                    self._m_f_definition_level_encoding[i]._fetch_instances()


            _ = self.f_encoding
            if hasattr(self, '_m_f_encoding'):
                pass
                for i in range(len(self._m_f_encoding)):
                    pass
                    self._m_f_encoding[i]._fetch_instances()


            _ = self.f_num_values
            if hasattr(self, '_m_f_num_values'):
                pass
                for i in range(len(self._m_f_num_values)):
                    pass
                    self._m_f_num_values[i]._fetch_instances()


            _ = self.f_repetition_level_encoding
            if hasattr(self, '_m_f_repetition_level_encoding'):
                pass
                for i in range(len(self._m_f_repetition_level_encoding)):
                    pass
                    self._m_f_repetition_level_encoding[i]._fetch_instances()



        @property
        def definition_level_encoding(self):
            """Definition-level encoding."""
            if hasattr(self, '_m_definition_level_encoding'):
                return self._m_definition_level_encoding

            self._m_definition_level_encoding = KaitaiStream.resolve_enum(Parquet.Encoding, self.s.fields[self.f_definition_level_encoding[-1].found].value.int_value.value)
            return getattr(self, '_m_definition_level_encoding', None)

        @property
        def encoding(self):
            """Value encoding."""
            if hasattr(self, '_m_encoding'):
                return self._m_encoding

            self._m_encoding = KaitaiStream.resolve_enum(Parquet.Encoding, self.s.fields[self.f_encoding[-1].found].value.int_value.value)
            return getattr(self, '_m_encoding', None)

        @property
        def f_definition_level_encoding(self):
            """Field 3."""
            if hasattr(self, '_m_f_definition_level_encoding'):
                return self._m_f_definition_level_encoding

            self._debug['_m_f_definition_level_encoding']['start'] = self._io.pos()
            self._debug['_m_f_definition_level_encoding']['arr'] = []
            self._m_f_definition_level_encoding = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_definition_level_encoding']['arr'].append({'start': self._io.pos()})
                _t__m_f_definition_level_encoding = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_definition_level_encoding[i - 1].found), self._io)
                try:
                    _t__m_f_definition_level_encoding._read()
                finally:
                    self._m_f_definition_level_encoding.append(_t__m_f_definition_level_encoding)
                self._debug['_m_f_definition_level_encoding']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_definition_level_encoding']['end'] = self._io.pos()
            return getattr(self, '_m_f_definition_level_encoding', None)

        @property
        def f_encoding(self):
            """Field 2."""
            if hasattr(self, '_m_f_encoding'):
                return self._m_f_encoding

            self._debug['_m_f_encoding']['start'] = self._io.pos()
            self._debug['_m_f_encoding']['arr'] = []
            self._m_f_encoding = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_encoding']['arr'].append({'start': self._io.pos()})
                _t__m_f_encoding = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 2) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_encoding[i - 1].found), self._io)
                try:
                    _t__m_f_encoding._read()
                finally:
                    self._m_f_encoding.append(_t__m_f_encoding)
                self._debug['_m_f_encoding']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_encoding']['end'] = self._io.pos()
            return getattr(self, '_m_f_encoding', None)

        @property
        def f_num_values(self):
            """Field 1."""
            if hasattr(self, '_m_f_num_values'):
                return self._m_f_num_values

            self._debug['_m_f_num_values']['start'] = self._io.pos()
            self._debug['_m_f_num_values']['arr'] = []
            self._m_f_num_values = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_values']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_values = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_values[i - 1].found), self._io)
                try:
                    _t__m_f_num_values._read()
                finally:
                    self._m_f_num_values.append(_t__m_f_num_values)
                self._debug['_m_f_num_values']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_values']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_values', None)

        @property
        def f_repetition_level_encoding(self):
            """Field 4."""
            if hasattr(self, '_m_f_repetition_level_encoding'):
                return self._m_f_repetition_level_encoding

            self._debug['_m_f_repetition_level_encoding']['start'] = self._io.pos()
            self._debug['_m_f_repetition_level_encoding']['arr'] = []
            self._m_f_repetition_level_encoding = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_repetition_level_encoding']['arr'].append({'start': self._io.pos()})
                _t__m_f_repetition_level_encoding = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 4) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_repetition_level_encoding[i - 1].found), self._io)
                try:
                    _t__m_f_repetition_level_encoding._read()
                finally:
                    self._m_f_repetition_level_encoding.append(_t__m_f_repetition_level_encoding)
                self._debug['_m_f_repetition_level_encoding']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_repetition_level_encoding']['end'] = self._io.pos()
            return getattr(self, '_m_f_repetition_level_encoding', None)

        @property
        def num_values(self):
            """Values in the page (nulls included)."""
            if hasattr(self, '_m_num_values'):
                return self._m_num_values

            self._m_num_values = self.s.fields[self.f_num_values[-1].found].value.int_value.value
            return getattr(self, '_m_num_values', None)

        @property
        def repetition_level_encoding(self):
            """Repetition-level encoding."""
            if hasattr(self, '_m_repetition_level_encoding'):
                return self._m_repetition_level_encoding

            self._m_repetition_level_encoding = KaitaiStream.resolve_enum(Parquet.Encoding, self.s.fields[self.f_repetition_level_encoding[-1].found].value.int_value.value)
            return getattr(self, '_m_repetition_level_encoding', None)


    class DictionaryPageHeaderView(KaitaiStruct):
        """DictionaryPageHeader: 1 num_values, 2 encoding, 3 is_sorted."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.DictionaryPageHeaderView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.f_encoding
            if hasattr(self, '_m_f_encoding'):
                pass
                for i in range(len(self._m_f_encoding)):
                    pass
                    self._m_f_encoding[i]._fetch_instances()


            _ = self.f_num_values
            if hasattr(self, '_m_f_num_values'):
                pass
                for i in range(len(self._m_f_num_values)):
                    pass
                    self._m_f_num_values[i]._fetch_instances()



        @property
        def encoding(self):
            """PLAIN or PLAIN_DICTIONARY."""
            if hasattr(self, '_m_encoding'):
                return self._m_encoding

            self._m_encoding = KaitaiStream.resolve_enum(Parquet.Encoding, self.s.fields[self.f_encoding[-1].found].value.int_value.value)
            return getattr(self, '_m_encoding', None)

        @property
        def f_encoding(self):
            """Field 2."""
            if hasattr(self, '_m_f_encoding'):
                return self._m_f_encoding

            self._debug['_m_f_encoding']['start'] = self._io.pos()
            self._debug['_m_f_encoding']['arr'] = []
            self._m_f_encoding = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_encoding']['arr'].append({'start': self._io.pos()})
                _t__m_f_encoding = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 2) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_encoding[i - 1].found), self._io)
                try:
                    _t__m_f_encoding._read()
                finally:
                    self._m_f_encoding.append(_t__m_f_encoding)
                self._debug['_m_f_encoding']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_encoding']['end'] = self._io.pos()
            return getattr(self, '_m_f_encoding', None)

        @property
        def f_num_values(self):
            """Field 1."""
            if hasattr(self, '_m_f_num_values'):
                return self._m_f_num_values

            self._debug['_m_f_num_values']['start'] = self._io.pos()
            self._debug['_m_f_num_values']['arr'] = []
            self._m_f_num_values = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_values']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_values = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_values[i - 1].found), self._io)
                try:
                    _t__m_f_num_values._read()
                finally:
                    self._m_f_num_values.append(_t__m_f_num_values)
                self._debug['_m_f_num_values']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_values']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_values', None)

        @property
        def num_values(self):
            """Dictionary entries."""
            if hasattr(self, '_m_num_values'):
                return self._m_num_values

            self._m_num_values = self.s.fields[self.f_num_values[-1].found].value.int_value.value
            return getattr(self, '_m_num_values', None)


    class FileMetaDataView(KaitaiStruct):
        """FileMetaData: 1 version, 2 schema, 3 num_rows, 4 row_groups, 6 created_by."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.FileMetaDataView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.f_created_by
            if hasattr(self, '_m_f_created_by'):
                pass
                for i in range(len(self._m_f_created_by)):
                    pass
                    self._m_f_created_by[i]._fetch_instances()


            _ = self.f_num_rows
            if hasattr(self, '_m_f_num_rows'):
                pass
                for i in range(len(self._m_f_num_rows)):
                    pass
                    self._m_f_num_rows[i]._fetch_instances()


            _ = self.f_row_groups
            if hasattr(self, '_m_f_row_groups'):
                pass
                for i in range(len(self._m_f_row_groups)):
                    pass
                    self._m_f_row_groups[i]._fetch_instances()


            _ = self.f_schema
            if hasattr(self, '_m_f_schema'):
                pass
                for i in range(len(self._m_f_schema)):
                    pass
                    self._m_f_schema[i]._fetch_instances()


            _ = self.f_version
            if hasattr(self, '_m_f_version'):
                pass
                for i in range(len(self._m_f_version)):
                    pass
                    self._m_f_version[i]._fetch_instances()


            _ = self.row_groups
            if hasattr(self, '_m_row_groups'):
                pass
                for i in range(len(self._m_row_groups)):
                    pass
                    self._m_row_groups[i]._fetch_instances()



        @property
        def created_by(self):
            """The writer."""
            if hasattr(self, '_m_created_by'):
                return self._m_created_by

            if self.f_created_by[-1].found >= 0:
                pass
                self._m_created_by = (self.s.fields[self.f_created_by[-1].found].value.binary_value.data).decode(u"UTF-8")

            return getattr(self, '_m_created_by', None)

        @property
        def f_created_by(self):
            """Field 6."""
            if hasattr(self, '_m_f_created_by'):
                return self._m_f_created_by

            self._debug['_m_f_created_by']['start'] = self._io.pos()
            self._debug['_m_f_created_by']['arr'] = []
            self._m_f_created_by = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_created_by']['arr'].append({'start': self._io.pos()})
                _t__m_f_created_by = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 6) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_created_by[i - 1].found), self._io)
                try:
                    _t__m_f_created_by._read()
                finally:
                    self._m_f_created_by.append(_t__m_f_created_by)
                self._debug['_m_f_created_by']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_created_by']['end'] = self._io.pos()
            return getattr(self, '_m_f_created_by', None)

        @property
        def f_num_rows(self):
            """Field 3."""
            if hasattr(self, '_m_f_num_rows'):
                return self._m_f_num_rows

            self._debug['_m_f_num_rows']['start'] = self._io.pos()
            self._debug['_m_f_num_rows']['arr'] = []
            self._m_f_num_rows = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_rows']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_rows = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_rows[i - 1].found), self._io)
                try:
                    _t__m_f_num_rows._read()
                finally:
                    self._m_f_num_rows.append(_t__m_f_num_rows)
                self._debug['_m_f_num_rows']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_rows']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_rows', None)

        @property
        def f_row_groups(self):
            """Field 4."""
            if hasattr(self, '_m_f_row_groups'):
                return self._m_f_row_groups

            self._debug['_m_f_row_groups']['start'] = self._io.pos()
            self._debug['_m_f_row_groups']['arr'] = []
            self._m_f_row_groups = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_row_groups']['arr'].append({'start': self._io.pos()})
                _t__m_f_row_groups = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 4) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_row_groups[i - 1].found), self._io)
                try:
                    _t__m_f_row_groups._read()
                finally:
                    self._m_f_row_groups.append(_t__m_f_row_groups)
                self._debug['_m_f_row_groups']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_row_groups']['end'] = self._io.pos()
            return getattr(self, '_m_f_row_groups', None)

        @property
        def f_schema(self):
            """Field 2."""
            if hasattr(self, '_m_f_schema'):
                return self._m_f_schema

            self._debug['_m_f_schema']['start'] = self._io.pos()
            self._debug['_m_f_schema']['arr'] = []
            self._m_f_schema = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_schema']['arr'].append({'start': self._io.pos()})
                _t__m_f_schema = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 2) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_schema[i - 1].found), self._io)
                try:
                    _t__m_f_schema._read()
                finally:
                    self._m_f_schema.append(_t__m_f_schema)
                self._debug['_m_f_schema']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_schema']['end'] = self._io.pos()
            return getattr(self, '_m_f_schema', None)

        @property
        def f_version(self):
            """Field 1."""
            if hasattr(self, '_m_f_version'):
                return self._m_f_version

            self._debug['_m_f_version']['start'] = self._io.pos()
            self._debug['_m_f_version']['arr'] = []
            self._m_f_version = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_version']['arr'].append({'start': self._io.pos()})
                _t__m_f_version = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_version[i - 1].found), self._io)
                try:
                    _t__m_f_version._read()
                finally:
                    self._m_f_version.append(_t__m_f_version)
                self._debug['_m_f_version']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_version']['end'] = self._io.pos()
            return getattr(self, '_m_f_version', None)

        @property
        def num_row_groups(self):
            """Number of row groups."""
            if hasattr(self, '_m_num_row_groups'):
                return self._m_num_row_groups

            self._m_num_row_groups = (self.s.fields[self.f_row_groups[-1].found].value.list_value.num_elements if self.f_row_groups[-1].found >= 0 else 0)
            return getattr(self, '_m_num_row_groups', None)

        @property
        def num_rows(self):
            """Number of rows."""
            if hasattr(self, '_m_num_rows'):
                return self._m_num_rows

            if self.f_num_rows[-1].found >= 0:
                pass
                self._m_num_rows = self.s.fields[self.f_num_rows[-1].found].value.int_value.value

            return getattr(self, '_m_num_rows', None)

        @property
        def num_schema_elements(self):
            """Number of schema elements (depth-first, root first)."""
            if hasattr(self, '_m_num_schema_elements'):
                return self._m_num_schema_elements

            self._m_num_schema_elements = (self.s.fields[self.f_schema[-1].found].value.list_value.num_elements if self.f_schema[-1].found >= 0 else 0)
            return getattr(self, '_m_num_schema_elements', None)

        @property
        def row_groups(self):
            """The row groups."""
            if hasattr(self, '_m_row_groups'):
                return self._m_row_groups

            self._debug['_m_row_groups']['start'] = self._io.pos()
            self._debug['_m_row_groups']['arr'] = []
            self._m_row_groups = []
            for i in range(self.num_row_groups):
                self._debug['_m_row_groups']['arr'].append({'start': self._io.pos()})
                _t__m_row_groups = Parquet.RowGroupView(self.s.fields[self.f_row_groups[-1].found].value.list_value.elements[i].struct_value, self._io, self, self._root)
                try:
                    _t__m_row_groups._read()
                finally:
                    self._m_row_groups.append(_t__m_row_groups)
                self._debug['_m_row_groups']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_row_groups']['end'] = self._io.pos()
            return getattr(self, '_m_row_groups', None)

        @property
        def version(self):
            """Format version (1 or 2)."""
            if hasattr(self, '_m_version'):
                return self._m_version

            if self.f_version[-1].found >= 0:
                pass
                self._m_version = self.s.fields[self.f_version[-1].found].value.int_value.value

            return getattr(self, '_m_version', None)


    class FooterTail(KaitaiStruct):
        """The last 8 bytes of the file, read first to find the footer."""
        SEQ_FIELDS = ["magic_checked", "len_footer"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Parquet.FooterTail, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['magic_checked']['start'] = self._io.pos()
            self.magic_checked = self._io.read_bytes(0)
            self._debug['magic_checked']['end'] = self._io.pos()
            _ = self.magic_checked
            if not self.magic == b"\x50\x41\x52\x31":
                raise kaitaistruct.ValidationExprError(self.magic_checked, self._io, u"/types/footer_tail/seq/0")
            self._debug['len_footer']['start'] = self._io.pos()
            self.len_footer = self._io.read_s4le()
            self._debug['len_footer']['end'] = self._io.pos()
            if not self.len_footer >= 1:
                raise kaitaistruct.ValidationLessThanError(1, self.len_footer, self._io, u"/types/footer_tail/seq/1")
            if not self.len_footer <= self._io.size() - 12:
                raise kaitaistruct.ValidationGreaterThanError(self._io.size() - 12, self.len_footer, self._io, u"/types/footer_tail/seq/1")


        def _fetch_instances(self):
            pass
            _ = self.magic
            if hasattr(self, '_m_magic'):
                pass


        @property
        def magic(self):
            """Trailing magic `PAR1`, the last 4 bytes (an encrypted footer has `PARE`)."""
            if hasattr(self, '_m_magic'):
                return self._m_magic

            _pos = self._io.pos()
            self._io.seek(self._io.size() - 4)
            self._debug['_m_magic']['start'] = self._io.pos()
            self._m_magic = self._io.read_bytes(4)
            self._debug['_m_magic']['end'] = self._io.pos()
            if not self._m_magic == b"\x50\x41\x52\x31":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x41\x52\x31", self._m_magic, self._io, u"/types/footer_tail/instances/magic")
            self._io.seek(_pos)
            return getattr(self, '_m_magic', None)


    class OffsetIndex(KaitaiStruct):
        """OffsetIndex: 1 page_locations (PageLocation: 1 offset, 2 compressed_page_size incl. header, 3 first_row_index)."""
        SEQ_FIELDS = ["raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Parquet.OffsetIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['raw']['start'] = self._io.pos()
            self.raw = thrift_compact.ThriftCompact.CompactStruct(self._io)
            self.raw._read()
            self._debug['raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.raw._fetch_instances()
            _ = self.f_page_locations
            if hasattr(self, '_m_f_page_locations'):
                pass
                for i in range(len(self._m_f_page_locations)):
                    pass
                    self._m_f_page_locations[i]._fetch_instances()


            _ = self.page_locations
            if hasattr(self, '_m_page_locations'):
                pass
                for i in range(len(self._m_page_locations)):
                    pass
                    self._m_page_locations[i]._fetch_instances()



        @property
        def f_page_locations(self):
            """Field 1."""
            if hasattr(self, '_m_f_page_locations'):
                return self._m_f_page_locations

            self._debug['_m_f_page_locations']['start'] = self._io.pos()
            self._debug['_m_f_page_locations']['arr'] = []
            self._m_f_page_locations = []
            for i in range(len(self.raw.fields)):
                self._debug['_m_f_page_locations']['arr'].append({'start': self._io.pos()})
                _t__m_f_page_locations = thrift_compact.ThriftCompact.FinderStep(i,  ((self.raw.fields[i].field_id == 1) and ((not (self.raw.fields[i].is_stop)))) , (-1 if i == 0 else self.f_page_locations[i - 1].found), self._io)
                try:
                    _t__m_f_page_locations._read()
                finally:
                    self._m_f_page_locations.append(_t__m_f_page_locations)
                self._debug['_m_f_page_locations']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_page_locations']['end'] = self._io.pos()
            return getattr(self, '_m_f_page_locations', None)

        @property
        def num_pages(self):
            """Number of pages."""
            if hasattr(self, '_m_num_pages'):
                return self._m_num_pages

            self._m_num_pages = (self.raw.fields[self.f_page_locations[-1].found].value.list_value.num_elements if self.f_page_locations[-1].found >= 0 else 0)
            return getattr(self, '_m_num_pages', None)

        @property
        def page_locations(self):
            """The page locations."""
            if hasattr(self, '_m_page_locations'):
                return self._m_page_locations

            self._debug['_m_page_locations']['start'] = self._io.pos()
            self._debug['_m_page_locations']['arr'] = []
            self._m_page_locations = []
            for i in range(self.num_pages):
                self._debug['_m_page_locations']['arr'].append({'start': self._io.pos()})
                _t__m_page_locations = Parquet.PageLocationView(self.raw.fields[self.f_page_locations[-1].found].value.list_value.elements[i].struct_value, self._io, self, self._root)
                try:
                    _t__m_page_locations._read()
                finally:
                    self._m_page_locations.append(_t__m_page_locations)
                self._debug['_m_page_locations']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_page_locations']['end'] = self._io.pos()
            return getattr(self, '_m_page_locations', None)


    class Page(KaitaiStruct):
        """A page header and its stored (possibly compressed) bytes."""
        SEQ_FIELDS = ["header", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Parquet.Page, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['header']['start'] = self._io.pos()
            self.header = thrift_compact.ThriftCompact.CompactStruct(self._io)
            self.header._read()
            self._debug['header']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self.body = self._io.read_bytes(self.view.compressed_page_size)
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.header._fetch_instances()
            _ = self.view
            if hasattr(self, '_m_view'):
                pass
                self._m_view._fetch_instances()


        @property
        def view(self):
            """Typed view of the header."""
            if hasattr(self, '_m_view'):
                return self._m_view

            self._debug['_m_view']['start'] = self._io.pos()
            self._m_view = Parquet.PageHeaderView(self.header, self._io, self, self._root)
            self._m_view._read()
            self._debug['_m_view']['end'] = self._io.pos()
            return getattr(self, '_m_view', None)


    class PageHeaderView(KaitaiStruct):
        """PageHeader: 1 type, 2 uncompressed_page_size, 3 compressed_page_size, 4 crc, 5 data_page_header, 7 dictionary_page_header, 8 data_page_header_v2."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.PageHeaderView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.data_page_header
            if hasattr(self, '_m_data_page_header'):
                pass
                self._m_data_page_header._fetch_instances()

            _ = self.data_page_header_v2
            if hasattr(self, '_m_data_page_header_v2'):
                pass
                self._m_data_page_header_v2._fetch_instances()

            _ = self.dictionary_page_header
            if hasattr(self, '_m_dictionary_page_header'):
                pass
                self._m_dictionary_page_header._fetch_instances()

            _ = self.f_compressed_page_size
            if hasattr(self, '_m_f_compressed_page_size'):
                pass
                for i in range(len(self._m_f_compressed_page_size)):
                    pass
                    self._m_f_compressed_page_size[i]._fetch_instances()


            _ = self.f_crc
            if hasattr(self, '_m_f_crc'):
                pass
                for i in range(len(self._m_f_crc)):
                    pass
                    self._m_f_crc[i]._fetch_instances()


            _ = self.f_data_page_header
            if hasattr(self, '_m_f_data_page_header'):
                pass
                for i in range(len(self._m_f_data_page_header)):
                    pass
                    self._m_f_data_page_header[i]._fetch_instances()


            _ = self.f_data_page_header_v2
            if hasattr(self, '_m_f_data_page_header_v2'):
                pass
                for i in range(len(self._m_f_data_page_header_v2)):
                    pass
                    self._m_f_data_page_header_v2[i]._fetch_instances()


            _ = self.f_dictionary_page_header
            if hasattr(self, '_m_f_dictionary_page_header'):
                pass
                for i in range(len(self._m_f_dictionary_page_header)):
                    pass
                    self._m_f_dictionary_page_header[i]._fetch_instances()


            _ = self.f_type
            if hasattr(self, '_m_f_type'):
                pass
                for i in range(len(self._m_f_type)):
                    pass
                    self._m_f_type[i]._fetch_instances()


            _ = self.f_uncompressed_page_size
            if hasattr(self, '_m_f_uncompressed_page_size'):
                pass
                for i in range(len(self._m_f_uncompressed_page_size)):
                    pass
                    self._m_f_uncompressed_page_size[i]._fetch_instances()



        @property
        def compressed_page_size(self):
            """Body size as stored (header excluded)."""
            if hasattr(self, '_m_compressed_page_size'):
                return self._m_compressed_page_size

            self._m_compressed_page_size = self.s.fields[self.f_compressed_page_size[-1].found].value.int_value.value
            return getattr(self, '_m_compressed_page_size', None)

        @property
        def crc(self):
            """CRC-32 of the stored body."""
            if hasattr(self, '_m_crc'):
                return self._m_crc

            if self.f_crc[-1].found >= 0:
                pass
                self._m_crc = self.s.fields[self.f_crc[-1].found].value.int_value.value

            return getattr(self, '_m_crc', None)

        @property
        def data_page_header(self):
            """DataPageHeader (v1)."""
            if hasattr(self, '_m_data_page_header'):
                return self._m_data_page_header

            if self.f_data_page_header[-1].found >= 0:
                pass
                self._debug['_m_data_page_header']['start'] = self._io.pos()
                self._m_data_page_header = Parquet.DataPageHeaderView(self.s.fields[self.f_data_page_header[-1].found].value.struct_value, self._io, self, self._root)
                self._m_data_page_header._read()
                self._debug['_m_data_page_header']['end'] = self._io.pos()

            return getattr(self, '_m_data_page_header', None)

        @property
        def data_page_header_v2(self):
            """DataPageHeaderV2."""
            if hasattr(self, '_m_data_page_header_v2'):
                return self._m_data_page_header_v2

            if self.f_data_page_header_v2[-1].found >= 0:
                pass
                self._debug['_m_data_page_header_v2']['start'] = self._io.pos()
                self._m_data_page_header_v2 = Parquet.DataPageHeaderV2View(self.s.fields[self.f_data_page_header_v2[-1].found].value.struct_value, self._io, self, self._root)
                self._m_data_page_header_v2._read()
                self._debug['_m_data_page_header_v2']['end'] = self._io.pos()

            return getattr(self, '_m_data_page_header_v2', None)

        @property
        def dictionary_page_header(self):
            """DictionaryPageHeader."""
            if hasattr(self, '_m_dictionary_page_header'):
                return self._m_dictionary_page_header

            if self.f_dictionary_page_header[-1].found >= 0:
                pass
                self._debug['_m_dictionary_page_header']['start'] = self._io.pos()
                self._m_dictionary_page_header = Parquet.DictionaryPageHeaderView(self.s.fields[self.f_dictionary_page_header[-1].found].value.struct_value, self._io, self, self._root)
                self._m_dictionary_page_header._read()
                self._debug['_m_dictionary_page_header']['end'] = self._io.pos()

            return getattr(self, '_m_dictionary_page_header', None)

        @property
        def f_compressed_page_size(self):
            """Field 3."""
            if hasattr(self, '_m_f_compressed_page_size'):
                return self._m_f_compressed_page_size

            self._debug['_m_f_compressed_page_size']['start'] = self._io.pos()
            self._debug['_m_f_compressed_page_size']['arr'] = []
            self._m_f_compressed_page_size = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_compressed_page_size']['arr'].append({'start': self._io.pos()})
                _t__m_f_compressed_page_size = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_compressed_page_size[i - 1].found), self._io)
                try:
                    _t__m_f_compressed_page_size._read()
                finally:
                    self._m_f_compressed_page_size.append(_t__m_f_compressed_page_size)
                self._debug['_m_f_compressed_page_size']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_compressed_page_size']['end'] = self._io.pos()
            return getattr(self, '_m_f_compressed_page_size', None)

        @property
        def f_crc(self):
            """Field 4."""
            if hasattr(self, '_m_f_crc'):
                return self._m_f_crc

            self._debug['_m_f_crc']['start'] = self._io.pos()
            self._debug['_m_f_crc']['arr'] = []
            self._m_f_crc = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_crc']['arr'].append({'start': self._io.pos()})
                _t__m_f_crc = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 4) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_crc[i - 1].found), self._io)
                try:
                    _t__m_f_crc._read()
                finally:
                    self._m_f_crc.append(_t__m_f_crc)
                self._debug['_m_f_crc']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_crc']['end'] = self._io.pos()
            return getattr(self, '_m_f_crc', None)

        @property
        def f_data_page_header(self):
            """Field 5."""
            if hasattr(self, '_m_f_data_page_header'):
                return self._m_f_data_page_header

            self._debug['_m_f_data_page_header']['start'] = self._io.pos()
            self._debug['_m_f_data_page_header']['arr'] = []
            self._m_f_data_page_header = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_data_page_header']['arr'].append({'start': self._io.pos()})
                _t__m_f_data_page_header = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 5) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_data_page_header[i - 1].found), self._io)
                try:
                    _t__m_f_data_page_header._read()
                finally:
                    self._m_f_data_page_header.append(_t__m_f_data_page_header)
                self._debug['_m_f_data_page_header']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_data_page_header']['end'] = self._io.pos()
            return getattr(self, '_m_f_data_page_header', None)

        @property
        def f_data_page_header_v2(self):
            """Field 8."""
            if hasattr(self, '_m_f_data_page_header_v2'):
                return self._m_f_data_page_header_v2

            self._debug['_m_f_data_page_header_v2']['start'] = self._io.pos()
            self._debug['_m_f_data_page_header_v2']['arr'] = []
            self._m_f_data_page_header_v2 = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_data_page_header_v2']['arr'].append({'start': self._io.pos()})
                _t__m_f_data_page_header_v2 = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 8) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_data_page_header_v2[i - 1].found), self._io)
                try:
                    _t__m_f_data_page_header_v2._read()
                finally:
                    self._m_f_data_page_header_v2.append(_t__m_f_data_page_header_v2)
                self._debug['_m_f_data_page_header_v2']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_data_page_header_v2']['end'] = self._io.pos()
            return getattr(self, '_m_f_data_page_header_v2', None)

        @property
        def f_dictionary_page_header(self):
            """Field 7."""
            if hasattr(self, '_m_f_dictionary_page_header'):
                return self._m_f_dictionary_page_header

            self._debug['_m_f_dictionary_page_header']['start'] = self._io.pos()
            self._debug['_m_f_dictionary_page_header']['arr'] = []
            self._m_f_dictionary_page_header = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_dictionary_page_header']['arr'].append({'start': self._io.pos()})
                _t__m_f_dictionary_page_header = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 7) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_dictionary_page_header[i - 1].found), self._io)
                try:
                    _t__m_f_dictionary_page_header._read()
                finally:
                    self._m_f_dictionary_page_header.append(_t__m_f_dictionary_page_header)
                self._debug['_m_f_dictionary_page_header']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_dictionary_page_header']['end'] = self._io.pos()
            return getattr(self, '_m_f_dictionary_page_header', None)

        @property
        def f_type(self):
            """Field 1."""
            if hasattr(self, '_m_f_type'):
                return self._m_f_type

            self._debug['_m_f_type']['start'] = self._io.pos()
            self._debug['_m_f_type']['arr'] = []
            self._m_f_type = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_type']['arr'].append({'start': self._io.pos()})
                _t__m_f_type = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_type[i - 1].found), self._io)
                try:
                    _t__m_f_type._read()
                finally:
                    self._m_f_type.append(_t__m_f_type)
                self._debug['_m_f_type']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_type']['end'] = self._io.pos()
            return getattr(self, '_m_f_type', None)

        @property
        def f_uncompressed_page_size(self):
            """Field 2."""
            if hasattr(self, '_m_f_uncompressed_page_size'):
                return self._m_f_uncompressed_page_size

            self._debug['_m_f_uncompressed_page_size']['start'] = self._io.pos()
            self._debug['_m_f_uncompressed_page_size']['arr'] = []
            self._m_f_uncompressed_page_size = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_uncompressed_page_size']['arr'].append({'start': self._io.pos()})
                _t__m_f_uncompressed_page_size = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 2) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_uncompressed_page_size[i - 1].found), self._io)
                try:
                    _t__m_f_uncompressed_page_size._read()
                finally:
                    self._m_f_uncompressed_page_size.append(_t__m_f_uncompressed_page_size)
                self._debug['_m_f_uncompressed_page_size']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_uncompressed_page_size']['end'] = self._io.pos()
            return getattr(self, '_m_f_uncompressed_page_size', None)

        @property
        def type(self):
            """Page type."""
            if hasattr(self, '_m_type'):
                return self._m_type

            self._m_type = KaitaiStream.resolve_enum(Parquet.PageType, self.s.fields[self.f_type[-1].found].value.int_value.value)
            return getattr(self, '_m_type', None)

        @property
        def uncompressed_page_size(self):
            """Body size after decompression (header excluded)."""
            if hasattr(self, '_m_uncompressed_page_size'):
                return self._m_uncompressed_page_size

            self._m_uncompressed_page_size = self.s.fields[self.f_uncompressed_page_size[-1].found].value.int_value.value
            return getattr(self, '_m_uncompressed_page_size', None)


    class PageLocationView(KaitaiStruct):
        """PageLocation: 1 offset, 2 compressed_page_size (header included), 3 first_row_index."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.PageLocationView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.f_compressed_page_size
            if hasattr(self, '_m_f_compressed_page_size'):
                pass
                for i in range(len(self._m_f_compressed_page_size)):
                    pass
                    self._m_f_compressed_page_size[i]._fetch_instances()


            _ = self.f_first_row_index
            if hasattr(self, '_m_f_first_row_index'):
                pass
                for i in range(len(self._m_f_first_row_index)):
                    pass
                    self._m_f_first_row_index[i]._fetch_instances()


            _ = self.f_offset
            if hasattr(self, '_m_f_offset'):
                pass
                for i in range(len(self._m_f_offset)):
                    pass
                    self._m_f_offset[i]._fetch_instances()



        @property
        def compressed_page_size(self):
            """Header plus stored body size."""
            if hasattr(self, '_m_compressed_page_size'):
                return self._m_compressed_page_size

            self._m_compressed_page_size = self.s.fields[self.f_compressed_page_size[-1].found].value.int_value.value
            return getattr(self, '_m_compressed_page_size', None)

        @property
        def f_compressed_page_size(self):
            """Field 2."""
            if hasattr(self, '_m_f_compressed_page_size'):
                return self._m_f_compressed_page_size

            self._debug['_m_f_compressed_page_size']['start'] = self._io.pos()
            self._debug['_m_f_compressed_page_size']['arr'] = []
            self._m_f_compressed_page_size = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_compressed_page_size']['arr'].append({'start': self._io.pos()})
                _t__m_f_compressed_page_size = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 2) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_compressed_page_size[i - 1].found), self._io)
                try:
                    _t__m_f_compressed_page_size._read()
                finally:
                    self._m_f_compressed_page_size.append(_t__m_f_compressed_page_size)
                self._debug['_m_f_compressed_page_size']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_compressed_page_size']['end'] = self._io.pos()
            return getattr(self, '_m_f_compressed_page_size', None)

        @property
        def f_first_row_index(self):
            """Field 3."""
            if hasattr(self, '_m_f_first_row_index'):
                return self._m_f_first_row_index

            self._debug['_m_f_first_row_index']['start'] = self._io.pos()
            self._debug['_m_f_first_row_index']['arr'] = []
            self._m_f_first_row_index = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_first_row_index']['arr'].append({'start': self._io.pos()})
                _t__m_f_first_row_index = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_first_row_index[i - 1].found), self._io)
                try:
                    _t__m_f_first_row_index._read()
                finally:
                    self._m_f_first_row_index.append(_t__m_f_first_row_index)
                self._debug['_m_f_first_row_index']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_first_row_index']['end'] = self._io.pos()
            return getattr(self, '_m_f_first_row_index', None)

        @property
        def f_offset(self):
            """Field 1."""
            if hasattr(self, '_m_f_offset'):
                return self._m_f_offset

            self._debug['_m_f_offset']['start'] = self._io.pos()
            self._debug['_m_f_offset']['arr'] = []
            self._m_f_offset = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_offset']['arr'].append({'start': self._io.pos()})
                _t__m_f_offset = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_offset[i - 1].found), self._io)
                try:
                    _t__m_f_offset._read()
                finally:
                    self._m_f_offset.append(_t__m_f_offset)
                self._debug['_m_f_offset']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_offset']['end'] = self._io.pos()
            return getattr(self, '_m_f_offset', None)

        @property
        def first_row_index(self):
            """First row of the page within the row group."""
            if hasattr(self, '_m_first_row_index'):
                return self._m_first_row_index

            self._m_first_row_index = self.s.fields[self.f_first_row_index[-1].found].value.int_value.value
            return getattr(self, '_m_first_row_index', None)

        @property
        def offset(self):
            """Absolute offset of the page header."""
            if hasattr(self, '_m_offset'):
                return self._m_offset

            self._m_offset = self.s.fields[self.f_offset[-1].found].value.int_value.value
            return getattr(self, '_m_offset', None)


    class PageRun(KaitaiStruct):
        """Pages from the current position until `end` (headers and bodies)."""
        SEQ_FIELDS = ["pages"]
        def __init__(self, end, _io, _parent=None, _root=None):
            super(Parquet.PageRun, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.end = end
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['pages']['start'] = self._io.pos()
            self._debug['pages']['arr'] = []
            self.pages = []
            i = 0
            while True:
                self._debug['pages']['arr'].append({'start': self._io.pos()})
                _t_pages = Parquet.Page(self._io, self, self._root)
                try:
                    _t_pages._read()
                finally:
                    _ = _t_pages
                    self.pages.append(_)
                self._debug['pages']['arr'][len(self.pages) - 1]['end'] = self._io.pos()
                if self._io.pos() >= self.end:
                    break
                i += 1
            self._debug['pages']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.pages)):
                pass
                self.pages[i]._fetch_instances()



    class ParquetPageHeader(KaitaiStruct):
        """A PageHeader on its own (to parse one page header at offset 0)."""
        SEQ_FIELDS = ["raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Parquet.ParquetPageHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['raw']['start'] = self._io.pos()
            self.raw = thrift_compact.ThriftCompact.CompactStruct(self._io)
            self.raw._read()
            self._debug['raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.raw._fetch_instances()
            _ = self.view
            if hasattr(self, '_m_view'):
                pass
                self._m_view._fetch_instances()


        @property
        def view(self):
            """Typed view."""
            if hasattr(self, '_m_view'):
                return self._m_view

            self._debug['_m_view']['start'] = self._io.pos()
            self._m_view = Parquet.PageHeaderView(self.raw, self._io, self, self._root)
            self._m_view._read()
            self._debug['_m_view']['end'] = self._io.pos()
            return getattr(self, '_m_view', None)


    class RowGroupView(KaitaiStruct):
        """RowGroup: 1 columns, 2 total_byte_size, 3 num_rows."""
        SEQ_FIELDS = []
        def __init__(self, s, _io, _parent=None, _root=None):
            super(Parquet.RowGroupView, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.s = s
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.columns
            if hasattr(self, '_m_columns'):
                pass
                for i in range(len(self._m_columns)):
                    pass
                    self._m_columns[i]._fetch_instances()


            _ = self.f_columns
            if hasattr(self, '_m_f_columns'):
                pass
                for i in range(len(self._m_f_columns)):
                    pass
                    self._m_f_columns[i]._fetch_instances()


            _ = self.f_num_rows
            if hasattr(self, '_m_f_num_rows'):
                pass
                for i in range(len(self._m_f_num_rows)):
                    pass
                    self._m_f_num_rows[i]._fetch_instances()



        @property
        def columns(self):
            """The column chunks (schema leaf order)."""
            if hasattr(self, '_m_columns'):
                return self._m_columns

            self._debug['_m_columns']['start'] = self._io.pos()
            self._debug['_m_columns']['arr'] = []
            self._m_columns = []
            for i in range(self.num_columns):
                self._debug['_m_columns']['arr'].append({'start': self._io.pos()})
                _t__m_columns = Parquet.ColumnChunkView(self.s.fields[self.f_columns[-1].found].value.list_value.elements[i].struct_value, self._io, self, self._root)
                try:
                    _t__m_columns._read()
                finally:
                    self._m_columns.append(_t__m_columns)
                self._debug['_m_columns']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_columns']['end'] = self._io.pos()
            return getattr(self, '_m_columns', None)

        @property
        def f_columns(self):
            """Field 1."""
            if hasattr(self, '_m_f_columns'):
                return self._m_f_columns

            self._debug['_m_f_columns']['start'] = self._io.pos()
            self._debug['_m_f_columns']['arr'] = []
            self._m_f_columns = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_columns']['arr'].append({'start': self._io.pos()})
                _t__m_f_columns = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 1) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_columns[i - 1].found), self._io)
                try:
                    _t__m_f_columns._read()
                finally:
                    self._m_f_columns.append(_t__m_f_columns)
                self._debug['_m_f_columns']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_columns']['end'] = self._io.pos()
            return getattr(self, '_m_f_columns', None)

        @property
        def f_num_rows(self):
            """Field 3."""
            if hasattr(self, '_m_f_num_rows'):
                return self._m_f_num_rows

            self._debug['_m_f_num_rows']['start'] = self._io.pos()
            self._debug['_m_f_num_rows']['arr'] = []
            self._m_f_num_rows = []
            for i in range(len(self.s.fields)):
                self._debug['_m_f_num_rows']['arr'].append({'start': self._io.pos()})
                _t__m_f_num_rows = thrift_compact.ThriftCompact.FinderStep(i,  ((self.s.fields[i].field_id == 3) and ((not (self.s.fields[i].is_stop)))) , (-1 if i == 0 else self.f_num_rows[i - 1].found), self._io)
                try:
                    _t__m_f_num_rows._read()
                finally:
                    self._m_f_num_rows.append(_t__m_f_num_rows)
                self._debug['_m_f_num_rows']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_f_num_rows']['end'] = self._io.pos()
            return getattr(self, '_m_f_num_rows', None)

        @property
        def num_columns(self):
            """Number of column chunks."""
            if hasattr(self, '_m_num_columns'):
                return self._m_num_columns

            self._m_num_columns = (self.s.fields[self.f_columns[-1].found].value.list_value.num_elements if self.f_columns[-1].found >= 0 else 0)
            return getattr(self, '_m_num_columns', None)

        @property
        def num_rows(self):
            """Rows in this group."""
            if hasattr(self, '_m_num_rows'):
                return self._m_num_rows

            if self.f_num_rows[-1].found >= 0:
                pass
                self._m_num_rows = self.s.fields[self.f_num_rows[-1].found].value.int_value.value

            return getattr(self, '_m_num_rows', None)


    @property
    def file_meta_data(self):
        """Typed view of the footer."""
        if hasattr(self, '_m_file_meta_data'):
            return self._m_file_meta_data

        self._debug['_m_file_meta_data']['start'] = self._io.pos()
        self._m_file_meta_data = Parquet.FileMetaDataView(self.footer, self._io, self, self._root)
        self._m_file_meta_data._read()
        self._debug['_m_file_meta_data']['end'] = self._io.pos()
        return getattr(self, '_m_file_meta_data', None)

    @property
    def footer(self):
        """The FileMetaData, generically decoded (a plaintext footer of an encrypted file is followed by a 28-byte signature, ignored)."""
        if hasattr(self, '_m_footer'):
            return self._m_footer

        _pos = self._io.pos()
        self._io.seek(self.ofs_footer)
        self._debug['_m_footer']['start'] = self._io.pos()
        self._raw__m_footer = self._io.read_bytes(self.tail.len_footer)
        _io__raw__m_footer = KaitaiStream(BytesIO(self._raw__m_footer))
        self._m_footer = thrift_compact.ThriftCompact.CompactStruct(_io__raw__m_footer)
        self._m_footer._read()
        self._debug['_m_footer']['end'] = self._io.pos()
        self._io.seek(_pos)
        return getattr(self, '_m_footer', None)

    @property
    def ofs_footer(self):
        """Absolute offset of the Thrift FileMetaData."""
        if hasattr(self, '_m_ofs_footer'):
            return self._m_ofs_footer

        self._m_ofs_footer = (self._io.size() - 8) - self.tail.len_footer
        return getattr(self, '_m_ofs_footer', None)

    @property
    def tail(self):
        """The last 8 bytes (footer length, trailing magic)."""
        if hasattr(self, '_m_tail'):
            return self._m_tail

        _pos = self._io.pos()
        self._io.seek(self._io.size() - 8)
        self._debug['_m_tail']['start'] = self._io.pos()
        self._m_tail = Parquet.FooterTail(self._io, self, self._root)
        self._m_tail._read()
        self._debug['_m_tail']['end'] = self._io.pos()
        self._io.seek(_pos)
        return getattr(self, '_m_tail', None)


