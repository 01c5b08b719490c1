# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Roaring32(KaitaiStruct):
    """A set of 32-bit unsigned integers. Values are grouped by their high 16 bits
    (the container key); each container holds the low 16 bits of its values as
    an array (up to 4096 sorted u2), a bitmap (8 KiB, value v is bit v % 8 of
    byte v / 8) or runs (pairs of start and length - 1).
    
    Layout: cookie, then the descriptive header (key and cardinality - 1 of
    every container), the offset header (the byte offset of every container from
    the cookie), then the containers in key order.
    * Cookie 12346 (`3A 30 00 00`): no run containers; a u4 container count
      follows (0 for an empty bitmap), and the offset header is always present.
    * Cookie 12347 in the low 16 bits: the high 16 bits hold the container count
      minus one; a bitset of `ceil(count / 8)` bytes marks run containers (bit i
      of byte i / 8, least significant first); the offset header is present only
      when there are at least 4 containers.
    A container that is not a run container is an array when its cardinality is
    at most 4096 and a bitmap otherwise.
    
    Checked here: the cookie, the container count, container keys strictly
    ascending, every offset equal to where the container actually starts, and
    runs that end at or before 65535. lakestruct's reader adds the rules this
    spec cannot express (array values ascending, bitmap popcount and run lengths
    equal to the cardinality, runs sorted and not adjacent).
    
    .. seealso::
       Source - https://github.com/RoaringBitmap/RoaringFormatSpec
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Roaring32, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.cookie = self._io.read_u2le()
        if not  ((self.cookie == 12346) or (self.cookie == 12347)) :
            raise kaitaistruct.ValidationNotAnyOfError(self.cookie, self._io, u"/seq/0")
        self.cookie_high = self._io.read_u2le()
        _ = self.cookie_high
        if not  ((self.cookie == 12347) or (_ == 0)) :
            raise kaitaistruct.ValidationExprError(self.cookie_high, self._io, u"/seq/1")
        if self.cookie == 12346:
            pass
            self.num_containers_field = self._io.read_u4le()
            if not self.num_containers_field <= 65536:
                raise kaitaistruct.ValidationGreaterThanError(65536, self.num_containers_field, self._io, u"/seq/2")

        if self.has_runs:
            pass
            self.run_flags = []
            for i in range((self.num_containers + 7) // 8):
                self.run_flags.append(self._io.read_u1())


        self.descriptors = []
        for i in range(self.num_containers):
            self.descriptors.append(Roaring32.Descriptor(i, self._io, self, self._root))

        if self.has_offset_header:
            pass
            self.offsets = []
            for i in range(self.num_containers):
                self.offsets.append(self._io.read_u4le())


        self.containers = []
        for i in range(self.num_containers):
            self.containers.append(Roaring32.Container(i, self._io, self, self._root))



    def _fetch_instances(self):
        pass
        if self.cookie == 12346:
            pass

        if self.has_runs:
            pass
            for i in range(len(self.run_flags)):
                pass


        for i in range(len(self.descriptors)):
            pass
            self.descriptors[i]._fetch_instances()

        if self.has_offset_header:
            pass
            for i in range(len(self.offsets)):
                pass


        for i in range(len(self.containers)):
            pass
            self.containers[i]._fetch_instances()


    class ArrayContainer(KaitaiStruct):
        def __init__(self, num_values, _io, _parent=None, _root=None):
            super(Roaring32.ArrayContainer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.num_values = num_values
            self._read()

        def _read(self):
            self.values = []
            for i in range(self.num_values):
                self.values.append(self._io.read_u2le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass



    class BitmapContainer(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.BitmapContainer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.bits = self._io.read_bytes(8192)


        def _fetch_instances(self):
            pass


    class Container(KaitaiStruct):
        def __init__(self, idx, _io, _parent=None, _root=None):
            super(Roaring32.Container, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self._read()

        def _read(self):
            self.offset_check = self._io.read_bytes(0)
            _ = self.offset_check
            if not  (((not (self._parent.has_offset_header))) or ((self._parent.offsets[0] == self._parent.len_header if self.idx == 0 else self._parent.offsets[self.idx] - self._parent.offsets[self.idx - 1] == self._parent.containers[self.idx - 1].len_body))) :
                raise kaitaistruct.ValidationExprError(self.offset_check, self._io, u"/types/container/seq/0")
            _on = self.kind
            if _on == 0:
                pass
                self.body = Roaring32.ArrayContainer(self.cardinality, self._io, self, self._root)
            elif _on == 1:
                pass
                self.body = Roaring32.BitmapContainer(self._io, self, self._root)
            elif _on == 2:
                pass
                self.body = Roaring32.RunContainer(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            _on = self.kind
            if _on == 0:
                pass
                self.body._fetch_instances()
            elif _on == 1:
                pass
                self.body._fetch_instances()
            elif _on == 2:
                pass
                self.body._fetch_instances()

        @property
        def cardinality(self):
            """Number of values, from the descriptive header."""
            if hasattr(self, '_m_cardinality'):
                return self._m_cardinality

            self._m_cardinality = self._parent.descriptors[self.idx].cardinality
            return getattr(self, '_m_cardinality', None)

        @property
        def is_run(self):
            """Whether the run-flag bitset marks this container."""
            if hasattr(self, '_m_is_run'):
                return self._m_is_run

            self._m_is_run =  ((self._parent.has_runs) and ((self._parent.run_flags[self.idx // 8] >> self.idx % 8) % 2 == 1)) 
            return getattr(self, '_m_is_run', None)

        @property
        def key(self):
            """The container key (high 16 bits of its values), from the descriptive header."""
            if hasattr(self, '_m_key'):
                return self._m_key

            self._m_key = self._parent.descriptors[self.idx].key
            return getattr(self, '_m_key', None)

        @property
        def kind(self):
            """0 = array, 1 = bitmap, 2 = run."""
            if hasattr(self, '_m_kind'):
                return self._m_kind

            self._m_kind = (2 if self.is_run else (0 if self.cardinality <= 4096 else 1))
            return getattr(self, '_m_kind', None)

        @property
        def len_body(self):
            """Size of the container in bytes."""
            if hasattr(self, '_m_len_body'):
                return self._m_len_body

            self._m_len_body = (2 * self.cardinality if self.kind == 0 else (8192 if self.kind == 1 else 2 + 4 * self.body.num_runs))
            return getattr(self, '_m_len_body', None)


    class Descriptor(KaitaiStruct):
        def __init__(self, idx, _io, _parent=None, _root=None):
            super(Roaring32.Descriptor, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self._read()

        def _read(self):
            self.key = self._io.read_u2le()
            _ = self.key
            if not  ((self.idx == 0) or (_ > self._parent.descriptors[self.idx - 1].key)) :
                raise kaitaistruct.ValidationExprError(self.key, self._io, u"/types/descriptor/seq/0")
            self.cardinality_minus_one = self._io.read_u2le()


        def _fetch_instances(self):
            pass

        @property
        def cardinality(self):
            """Number of values in the container (1 to 65536)."""
            if hasattr(self, '_m_cardinality'):
                return self._m_cardinality

            self._m_cardinality = self.cardinality_minus_one + 1
            return getattr(self, '_m_cardinality', None)


    class Run(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.Run, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.start = self._io.read_u2le()
            self.length_minus_one = self._io.read_u2le()
            if not self.length_minus_one <= 65535 - self.start:
                raise kaitaistruct.ValidationGreaterThanError(65535 - self.start, self.length_minus_one, self._io, u"/types/run/seq/1")


        def _fetch_instances(self):
            pass


    class RunContainer(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.RunContainer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_runs = self._io.read_u2le()
            self.runs = []
            for i in range(self.num_runs):
                self.runs.append(Roaring32.Run(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.runs)):
                pass
                self.runs[i]._fetch_instances()



    @property
    def has_offset_header(self):
        """Whether the offset header is present."""
        if hasattr(self, '_m_has_offset_header'):
            return self._m_has_offset_header

        self._m_has_offset_header =  (((not (self.has_runs))) or (self.num_containers >= 4)) 
        return getattr(self, '_m_has_offset_header', None)

    @property
    def has_runs(self):
        """Whether the run-flag bitset (and maybe run containers) is present."""
        if hasattr(self, '_m_has_runs'):
            return self._m_has_runs

        self._m_has_runs = self.cookie == 12347
        return getattr(self, '_m_has_runs', None)

    @property
    def len_header(self):
        """Bytes from the cookie to the first container."""
        if hasattr(self, '_m_len_header'):
            return self._m_len_header

        self._m_len_header = ((4 + ((self.num_containers + 7) // 8 if self.has_runs else 4)) + 4 * self.num_containers) + (4 * self.num_containers if self.has_offset_header else 0)
        return getattr(self, '_m_len_header', None)

    @property
    def num_containers(self):
        """Number of containers."""
        if hasattr(self, '_m_num_containers'):
            return self._m_num_containers

        self._m_num_containers = (self.cookie_high + 1 if self.has_runs else self.num_containers_field)
        return getattr(self, '_m_num_containers', None)


