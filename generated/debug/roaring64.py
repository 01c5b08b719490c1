# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Roaring64(KaitaiStruct):
    """A set of 64-bit unsigned integers as a sorted list of 32-bit Roaring
    bitmaps: a u8 count, then per bitmap the high 32 bits of its values (the
    key, strictly ascending as unsigned) and a 32-bit portable bitmap of the low
    32 bits. Iceberg writes every key from 0 to the largest, with empty bitmaps
    (`3A 30 00 00 00 00 00 00`) for gaps, and reads keys only up to 2^31 - 2
    (checked by lakestruct's deletion-vector reader, not here).
    
    .. seealso::
       Source - https://github.com/RoaringBitmap/RoaringFormatSpec#extension-for-64-bit-implementations
    """
    SEQ_FIELDS = ["num_bitmaps", "bitmaps"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Roaring64, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['num_bitmaps']['start'] = self._io.pos()
        self.num_bitmaps = self._io.read_u8le()
        self._debug['num_bitmaps']['end'] = self._io.pos()
        if not self.num_bitmaps <= 4294967295:
            raise kaitaistruct.ValidationGreaterThanError(4294967295, self.num_bitmaps, self._io, u"/seq/0")
        self._debug['bitmaps']['start'] = self._io.pos()
        self._debug['bitmaps']['arr'] = []
        self.bitmaps = []
        for i in range(self.num_bitmaps):
            self._debug['bitmaps']['arr'].append({'start': self._io.pos()})
            _t_bitmaps = Roaring64.Bucket(i, self._io, self, self._root)
            try:
                _t_bitmaps._read()
            finally:
                self.bitmaps.append(_t_bitmaps)
            self._debug['bitmaps']['arr'][i]['end'] = self._io.pos()

        self._debug['bitmaps']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.bitmaps)):
            pass
            self.bitmaps[i]._fetch_instances()


    class Bucket(KaitaiStruct):
        SEQ_FIELDS = ["key", "bitmap"]
        def __init__(self, idx, _io, _parent=None, _root=None):
            super(Roaring64.Bucket, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['key']['start'] = self._io.pos()
            self.key = self._io.read_u4le()
            self._debug['key']['end'] = self._io.pos()
            _ = self.key
            if not  ((self.idx == 0) or (_ > self._parent.bitmaps[self.idx - 1].key)) :
                raise kaitaistruct.ValidationExprError(self.key, self._io, u"/types/bucket/seq/0")
            self._debug['bitmap']['start'] = self._io.pos()
            self.bitmap = roaring32.Roaring32(self._io)
            self.bitmap._read()
            self._debug['bitmap']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.bitmap._fetch_instances()



