# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32


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
    def __init__(self, _io, _parent=None, _root=None):
        super(Roaring64, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.num_bitmaps = self._io.read_u8le()
        if not self.num_bitmaps <= 4294967295:
            raise kaitaistruct.ValidationGreaterThanError(4294967295, self.num_bitmaps, self._io, u"/seq/0")
        self.bitmaps = []
        for i in range(self.num_bitmaps):
            self.bitmaps.append(Roaring64.Bucket(i, self._io, self, self._root))



    def _fetch_instances(self):
        pass
        for i in range(len(self.bitmaps)):
            pass
            self.bitmaps[i]._fetch_instances()


    class Bucket(KaitaiStruct):
        def __init__(self, idx, _io, _parent=None, _root=None):
            super(Roaring64.Bucket, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self._read()

        def _read(self):
            self.key = self._io.read_u4le()
            _ = self.key
            if not  ((self.idx == 0) or (_ > self._parent.bitmaps[self.idx - 1].key)) :
                raise kaitaistruct.ValidationExprError(self.key, self._io, u"/types/bucket/seq/0")
            self.bitmap = roaring32.Roaring32(self._io)


        def _fetch_instances(self):
            pass
            self.bitmap._fetch_instances()



