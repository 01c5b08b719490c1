# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class AvroOcf(KaitaiStruct):
    """An Avro object container file: the magic `Obj` and byte 1, the file
    metadata (an Avro `map<bytes>`: `avro.schema`, the writer schema as JSON,
    `avro.codec`, and whatever the writer adds; Iceberg stores `schema`,
    `partition-spec`, `format-version` and `content` there), a 16-byte sync
    marker chosen by the writer, then data blocks: a record count, a byte size,
    that many bytes of records (compressed with the codec) and the sync marker
    again.
    
    Avro `long`s are zigzag varints (7 bits per byte, least significant group
    first; n / 2 for even n, -(n + 1) / 2 for odd n). A map is a sequence of
    blocks, each a count of entries and the entries, ending with a count of 0; a
    negative count -n means n entries preceded by the block's byte size.
    
    Every expression uses + - * / % only (no shifts or bit operators) so the
    values are exact in the Kaitai Web IDE's JavaScript up to 2^53.
    
    The records stay opaque here: decoding them needs the writer schema (the
    JSON in `avro.schema`) and the codec. lakestruct's reader
    (`lakestruct.avro`) checks the same framing, decompresses the blocks and
    decodes the records with fastavro.
    
    .. seealso::
       Source - https://avro.apache.org/docs/1.11.1/specification/#object-container-files
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(AvroOcf, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x4F\x62\x6A\x01":
            raise kaitaistruct.ValidationNotEqualError(b"\x4F\x62\x6A\x01", self.magic, self._io, u"/seq/0")
        self.meta_blocks = []
        i = 0
        while True:
            _ = AvroOcf.MapBlock(self._io, self, self._root)
            self.meta_blocks.append(_)
            if _.num_entries == 0:
                break
            i += 1
        self.sync = self._io.read_bytes(16)
        self.blocks = []
        i = 0
        while not self._io.is_eof():
            self.blocks.append(AvroOcf.DataBlock(self._io.pos(), self._io, self, self._root))
            i += 1



    def _fetch_instances(self):
        pass
        for i in range(len(self.meta_blocks)):
            pass
            self.meta_blocks[i]._fetch_instances()

        for i in range(len(self.blocks)):
            pass
            self.blocks[i]._fetch_instances()


    class AvroBytes(KaitaiStruct):
        """Avro bytes or string, a zigzag long length then the bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(AvroOcf.AvroBytes, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_data = AvroOcf.ZigzagLong(self._io, self, self._root)
            _ = self.len_data
            if not _.value >= 0:
                raise kaitaistruct.ValidationExprError(self.len_data, self._io, u"/types/avro_bytes/seq/0")
            self.data = self._io.read_bytes(self.len_data.value)


        def _fetch_instances(self):
            pass
            self.len_data._fetch_instances()

        @property
        def text(self):
            """The bytes as UTF-8 text."""
            if hasattr(self, '_m_text'):
                return self._m_text

            self._m_text = (self.data).decode(u"UTF-8")
            return getattr(self, '_m_text', None)


    class DataBlock(KaitaiStruct):
        """One data block, its records opaque."""
        def __init__(self, ofs_block, _io, _parent=None, _root=None):
            super(AvroOcf.DataBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.ofs_block = ofs_block
            self._read()

        def _read(self):
            self.num_objects = AvroOcf.ZigzagLong(self._io, self, self._root)
            _ = self.num_objects
            if not _.value >= 0:
                raise kaitaistruct.ValidationExprError(self.num_objects, self._io, u"/types/data_block/seq/0")
            self.len_data = AvroOcf.ZigzagLong(self._io, self, self._root)
            _ = self.len_data
            if not  ((_.value >= 0) and (self.num_objects.value <= _.value + 1)) :
                raise kaitaistruct.ValidationExprError(self.len_data, self._io, u"/types/data_block/seq/1")
            self.data = self._io.read_bytes(self.len_data.value)
            self.sync = self._io.read_bytes(16)
            if not self.sync == self._root.sync:
                raise kaitaistruct.ValidationNotEqualError(self._root.sync, self.sync, self._io, u"/types/data_block/seq/3")


        def _fetch_instances(self):
            pass
            self.num_objects._fetch_instances()
            self.len_data._fetch_instances()

        @property
        def offset(self):
            """Where the block starts in the file."""
            if hasattr(self, '_m_offset'):
                return self._m_offset

            self._m_offset = self.ofs_block
            return getattr(self, '_m_offset', None)


    class MapBlock(KaitaiStruct):
        """One block of the metadata map (a count of 0 ends the map)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(AvroOcf.MapBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.count = AvroOcf.ZigzagLong(self._io, self, self._root)
            _ = self.count
            if not  ((_.value <= self._io.size() - self._io.pos()) and (-(_.value) <= self._io.size() - self._io.pos())) :
                raise kaitaistruct.ValidationExprError(self.count, self._io, u"/types/map_block/seq/0")
            if self.count.value < 0:
                pass
                self.len_block = AvroOcf.ZigzagLong(self._io, self, self._root)

            self.entries = []
            for i in range(self.num_entries):
                self.entries.append(AvroOcf.MapEntry(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.count._fetch_instances()
            if self.count.value < 0:
                pass
                self.len_block._fetch_instances()

            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()


        @property
        def num_entries(self):
            """Number of entries in this block."""
            if hasattr(self, '_m_num_entries'):
                return self._m_num_entries

            self._m_num_entries = (-(self.count.value) if self.count.value < 0 else self.count.value)
            return getattr(self, '_m_num_entries', None)


    class MapEntry(KaitaiStruct):
        """One metadata entry, a string key and a bytes value."""
        def __init__(self, _io, _parent=None, _root=None):
            super(AvroOcf.MapEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.key = AvroOcf.AvroBytes(self._io, self, self._root)
            self.value = AvroOcf.AvroBytes(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.key._fetch_instances()
            self.value._fetch_instances()


    class Uvarint(KaitaiStruct):
        """Unsigned varint: 7 bits per byte, least significant group first, high bit
        set on every byte but the last. At most 10 bytes (64 bits).
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(AvroOcf.Uvarint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.groups = []
            i = 0
            while True:
                _ = AvroOcf.VarintGroup((0 if i == 0 else self.groups[i - 1].acc), (1 if i == 0 else self.groups[i - 1].next_multiplier), self._io, self, self._root)
                self.groups.append(_)
                if  (((not (_.has_next))) or (i >= 9)) :
                    break
                i += 1
            if self.groups[len(self.groups) - 1].has_next:
                pass
                self.overlong = self._io.read_bytes(0)
                _ = self.overlong
                if not len(_) < 0:
                    raise kaitaistruct.ValidationExprError(self.overlong, self._io, u"/types/uvarint/seq/1")



        def _fetch_instances(self):
            pass
            for i in range(len(self.groups)):
                pass
                self.groups[i]._fetch_instances()

            if self.groups[len(self.groups) - 1].has_next:
                pass


        @property
        def value(self):
            """The unsigned value."""
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = self.groups[len(self.groups) - 1].acc
            return getattr(self, '_m_value', None)


    class VarintGroup(KaitaiStruct):
        """One byte of a varint, carrying the value accumulated so far."""
        def __init__(self, prev_acc, multiplier, _io, _parent=None, _root=None):
            super(AvroOcf.VarintGroup, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.prev_acc = prev_acc
            self.multiplier = multiplier
            self._read()

        def _read(self):
            self.b = self._io.read_u1()


        def _fetch_instances(self):
            pass

        @property
        def acc(self):
            """The value including this group."""
            if hasattr(self, '_m_acc'):
                return self._m_acc

            self._m_acc = self.prev_acc + (self.b % 128) * self.multiplier
            return getattr(self, '_m_acc', None)

        @property
        def has_next(self):
            """Another byte follows."""
            if hasattr(self, '_m_has_next'):
                return self._m_has_next

            self._m_has_next = self.b >= 128
            return getattr(self, '_m_has_next', None)

        @property
        def next_multiplier(self):
            """The multiplier of the next group."""
            if hasattr(self, '_m_next_multiplier'):
                return self._m_next_multiplier

            self._m_next_multiplier = self.multiplier * 128
            return getattr(self, '_m_next_multiplier', None)


    class ZigzagLong(KaitaiStruct):
        """An Avro int or long, a zigzag-encoded unsigned varint."""
        def __init__(self, _io, _parent=None, _root=None):
            super(AvroOcf.ZigzagLong, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.raw = AvroOcf.Uvarint(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.raw._fetch_instances()

        @property
        def value(self):
            """The signed value."""
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = (self.raw.value // 2 if self.raw.value % 2 == 0 else -((self.raw.value + 1) // 2))
            return getattr(self, '_m_value', None)



