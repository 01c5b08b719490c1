# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32
from . import roaring64
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class DeletionVectorFile(KaitaiStruct):
    """A file of deletion vectors back to back after a format version byte 1.
    Delta Lake (`deletion_vector_<uuid>.bin`): every entry is a 64-bit DV, the
    same bytes as an Iceberg `deletion-vector-v1` blob; the `_delta_log`
    descriptor's `offset` points at the entry's size field (1 for the first) and
    its `sizeInBytes` equals that field. Apache Paimon (`index/index-*`): entries
    are 64-bit DVs (`deletion-vectors.bitmap64`) or, by default, 32-bit DVs with
    magic `5E 43 F2 D0` and a 32-bit portable Roaring bitmap (positions at most
    2^31 - 1); `DeletionVectorMeta` records the size field's offset and, as
    length, the size field's value for 32-bit entries and the whole entry for
    64-bit ones.
    
    Each entry: big-endian size of magic + bitmap, the magic, the bitmap
    (little-endian inside), a big-endian CRC-32 of magic + bitmap (shown, not
    verified here: lakestruct's readers check it).
    
    .. seealso::
       Source - https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-format
    
    
    .. seealso::
       Source - https://paimon.apache.org/docs/master/concepts/spec/tableindex/
    """
    SEQ_FIELDS = ["version", "entries"]
    def __init__(self, _io, _parent=None, _root=None):
        super(DeletionVectorFile, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['version']['start'] = self._io.pos()
        self.version = self._io.read_u1()
        self._debug['version']['end'] = self._io.pos()
        if not self.version == 1:
            raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/seq/0")
        self._debug['entries']['start'] = self._io.pos()
        self._debug['entries']['arr'] = []
        self.entries = []
        i = 0
        while not self._io.is_eof():
            self._debug['entries']['arr'].append({'start': self._io.pos()})
            _t_entries = DeletionVectorFile.Entry(self._io, self, self._root)
            try:
                _t_entries._read()
            finally:
                self.entries.append(_t_entries)
            self._debug['entries']['arr'][len(self.entries) - 1]['end'] = self._io.pos()
            i += 1

        self._debug['entries']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.entries)):
            pass
            self.entries[i]._fetch_instances()


    class Entry(KaitaiStruct):
        SEQ_FIELDS = ["len_body", "magic", "bitmap", "crc"]
        def __init__(self, _io, _parent=None, _root=None):
            super(DeletionVectorFile.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = self._io.read_s4be()
            self._debug['len_body']['end'] = self._io.pos()
            if not self.len_body >= 4:
                raise kaitaistruct.ValidationLessThanError(4, self.len_body, self._io, u"/types/entry/seq/0")
            self._debug['magic']['start'] = self._io.pos()
            self.magic = self._io.read_u4be()
            self._debug['magic']['end'] = self._io.pos()
            if not  ((self.magic == 3520280932) or (self.magic == 1581511376)) :
                raise kaitaistruct.ValidationNotAnyOfError(self.magic, self._io, u"/types/entry/seq/1")
            self._debug['bitmap']['start'] = self._io.pos()
            _on = self.magic
            if _on == 1581511376:
                pass
                self._raw_bitmap = self._io.read_bytes(self.len_body - 4)
                _io__raw_bitmap = KaitaiStream(BytesIO(self._raw_bitmap))
                self.bitmap = roaring32.Roaring32(_io__raw_bitmap)
                self.bitmap._read()
            elif _on == 3520280932:
                pass
                self._raw_bitmap = self._io.read_bytes(self.len_body - 4)
                _io__raw_bitmap = KaitaiStream(BytesIO(self._raw_bitmap))
                self.bitmap = roaring64.Roaring64(_io__raw_bitmap)
                self.bitmap._read()
            else:
                pass
                self.bitmap = self._io.read_bytes(self.len_body - 4)
            self._debug['bitmap']['end'] = self._io.pos()
            self._debug['crc']['start'] = self._io.pos()
            self.crc = self._io.read_u4be()
            self._debug['crc']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _on = self.magic
            if _on == 1581511376:
                pass
                self.bitmap._fetch_instances()
            elif _on == 3520280932:
                pass
                self.bitmap._fetch_instances()
            else:
                pass

        @property
        def is_roaring64(self):
            """Whether this is a 64-bit DV."""
            if hasattr(self, '_m_is_roaring64'):
                return self._m_is_roaring64

            self._m_is_roaring64 = self.magic == 3520280932
            return getattr(self, '_m_is_roaring64', None)



