# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32
from . import roaring64
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class PaimonDvIndex(KaitaiStruct):
    """A Paimon `index/index-<uuid>-<n>` file of type DELETION_VECTORS: a version
    byte 1, then one entry per data file, back to back. Paimon writes a file of
    just the version byte for a bucket with no deletion vectors.
    
    An entry is a big-endian size S (of magic + bitmap), the magic, the bitmap,
    and a big-endian CRC-32 of magic + bitmap:
    * 32-bit (`BitmapDeletionVector`, the default): magic `5E 43 F2 D0`
      (1581511376), a 32-bit portable Roaring bitmap; positions at most 2^31 - 1.
    * 64-bit (`Bitmap64DeletionVector`, `deletion-vectors.bitmap64`): magic
      `D1 D3 39 64`, a 64-bit portable Roaring bitmap; the entry is byte for
      byte an Iceberg `deletion-vector-v1` blob.
    
    The index manifest's `DeletionVectorMeta` locates an entry by the offset
    of its size field and a length that spans different bytes for the two
    kinds: S for a 32-bit entry (magic + bitmap), S + 8 for a 64-bit one (the
    whole entry). `meta_offset` and `meta_length` show both as Paimon records
    them. The CRC is shown, not verified (lakestruct's reader checks it).
    
    .. seealso::
       Source - https://paimon.apache.org/docs/master/concepts/spec/tableindex/
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/master/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java
    """
    SEQ_FIELDS = ["version", "entries"]
    def __init__(self, _io, _parent=None, _root=None):
        super(PaimonDvIndex, self).__init__(_io)
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
            _t_entries = PaimonDvIndex.Entry(self._io.pos(), self._io, self, self._root)
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
        def __init__(self, meta_offset, _io, _parent=None, _root=None):
            super(PaimonDvIndex.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.meta_offset = meta_offset
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = self._io.read_s4be()
            self._debug['len_body']['end'] = self._io.pos()
            _ = self.len_body
            if not  ((_ >= 4) and (_ + 4 <= self._io.size() - self._io.pos())) :
                raise kaitaistruct.ValidationExprError(self.len_body, self._io, u"/types/entry/seq/0")
            self._debug['magic']['start'] = self._io.pos()
            self.magic = self._io.read_u4be()
            self._debug['magic']['end'] = self._io.pos()
            if not  ((self.magic == 1581511376) or (self.magic == 3520280932)) :
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
        def bits(self):
            """32 or 64."""
            if hasattr(self, '_m_bits'):
                return self._m_bits

            self._m_bits = (64 if self.is_64bit else 32)
            return getattr(self, '_m_bits', None)

        @property
        def is_64bit(self):
            """A 64-bit entry."""
            if hasattr(self, '_m_is_64bit'):
                return self._m_is_64bit

            self._m_is_64bit = self.magic == 3520280932
            return getattr(self, '_m_is_64bit', None)

        @property
        def meta_length(self):
            """The length DeletionVectorMeta records for this entry (S + 8 for 64-bit, S for 32-bit)."""
            if hasattr(self, '_m_meta_length'):
                return self._m_meta_length

            self._m_meta_length = (self.len_body + 8 if self.is_64bit else self.len_body)
            return getattr(self, '_m_meta_length', None)



