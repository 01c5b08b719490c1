# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring64
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class DeletionVectorV1(KaitaiStruct):
    """The deleted row positions of one data file: a big-endian length of magic +
    vector, the magic `D1 D3 39 64`, the vector (a 64-bit portable Roaring
    bitmap, little-endian inside) and a big-endian CRC-32 (zlib/IEEE) of magic +
    vector. In a Puffin file this is a `deletion-vector-v1` blob (never
    compressed); an Iceberg manifest locates it by `content_offset` and
    `content_size_in_bytes` (the whole blob). Delta Lake DV files and Paimon
    64-bit DV index entries hold the same bytes after a version byte.
    
    Open a bare blob here (for a DV inside a Puffin file, select the blob's byte
    range). The CRC is shown, not verified: that needs zlib's CRC-32, which
    lakestruct's reader computes (rule `deletion-vector.crc`), along with
    Iceberg's key limits (keys at most 2^31 - 2).
    
    .. seealso::
       Source - https://iceberg.apache.org/puffin-spec/#deletion-vector-v1-blob-type
    """
    SEQ_FIELDS = ["len_body", "magic", "vector", "crc"]
    def __init__(self, _io, _parent=None, _root=None):
        super(DeletionVectorV1, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['len_body']['start'] = self._io.pos()
        self.len_body = self._io.read_s4be()
        self._debug['len_body']['end'] = self._io.pos()
        _ = self.len_body
        if not _ == self._io.size() - 8:
            raise kaitaistruct.ValidationExprError(self.len_body, self._io, u"/seq/0")
        self._debug['magic']['start'] = self._io.pos()
        self.magic = self._io.read_bytes(4)
        self._debug['magic']['end'] = self._io.pos()
        if not self.magic == b"\xD1\xD3\x39\x64":
            raise kaitaistruct.ValidationNotEqualError(b"\xD1\xD3\x39\x64", self.magic, self._io, u"/seq/1")
        self._debug['vector']['start'] = self._io.pos()
        self._raw_vector = self._io.read_bytes(self.len_body - 4)
        _io__raw_vector = KaitaiStream(BytesIO(self._raw_vector))
        self.vector = roaring64.Roaring64(_io__raw_vector)
        self.vector._read()
        self._debug['vector']['end'] = self._io.pos()
        self._debug['crc']['start'] = self._io.pos()
        self.crc = self._io.read_u4be()
        self._debug['crc']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        self.vector._fetch_instances()

    @property
    def len_vector(self):
        """Size of the vector in bytes."""
        if hasattr(self, '_m_len_vector'):
            return self._m_len_vector

        self._m_len_vector = self.len_body - 4
        return getattr(self, '_m_len_vector', None)


