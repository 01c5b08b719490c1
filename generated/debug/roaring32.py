# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


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
    SEQ_FIELDS = ["cookie", "cookie_high", "num_containers_field", "run_flags", "descriptors", "offsets", "containers"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Roaring32, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['cookie']['start'] = self._io.pos()
        self.cookie = self._io.read_u2le()
        self._debug['cookie']['end'] = self._io.pos()
        if not  ((self.cookie == 12346) or (self.cookie == 12347)) :
            raise kaitaistruct.ValidationNotAnyOfError(self.cookie, self._io, u"/seq/0")
        self._debug['cookie_high']['start'] = self._io.pos()
        self.cookie_high = self._io.read_u2le()
        self._debug['cookie_high']['end'] = self._io.pos()
        _ = self.cookie_high
        if not  ((self.cookie == 12347) or (_ == 0)) :
            raise kaitaistruct.ValidationExprError(self.cookie_high, self._io, u"/seq/1")
        if self.cookie == 12346:
            pass
            self._debug['num_containers_field']['start'] = self._io.pos()
            self.num_containers_field = self._io.read_u4le()
            self._debug['num_containers_field']['end'] = self._io.pos()
            if not self.num_containers_field <= 65536:
                raise kaitaistruct.ValidationGreaterThanError(65536, self.num_containers_field, self._io, u"/seq/2")

        if self.has_runs:
            pass
            self._debug['run_flags']['start'] = self._io.pos()
            self._debug['run_flags']['arr'] = []
            self.run_flags = []
            for i in range((self.num_containers + 7) // 8):
                self._debug['run_flags']['arr'].append({'start': self._io.pos()})
                self.run_flags.append(self._io.read_u1())
                self._debug['run_flags']['arr'][i]['end'] = self._io.pos()

            self._debug['run_flags']['end'] = self._io.pos()

        self._debug['descriptors']['start'] = self._io.pos()
        self._debug['descriptors']['arr'] = []
        self.descriptors = []
        for i in range(self.num_containers):
            self._debug['descriptors']['arr'].append({'start': self._io.pos()})
            _t_descriptors = Roaring32.Descriptor(i, self._io, self, self._root)
            try:
                _t_descriptors._read()
            finally:
                self.descriptors.append(_t_descriptors)
            self._debug['descriptors']['arr'][i]['end'] = self._io.pos()

        self._debug['descriptors']['end'] = self._io.pos()
        if self.has_offset_header:
            pass
            self._debug['offsets']['start'] = self._io.pos()
            self._debug['offsets']['arr'] = []
            self.offsets = []
            for i in range(self.num_containers):
                self._debug['offsets']['arr'].append({'start': self._io.pos()})
                self.offsets.append(self._io.read_u4le())
                self._debug['offsets']['arr'][i]['end'] = self._io.pos()

            self._debug['offsets']['end'] = self._io.pos()

        self._debug['containers']['start'] = self._io.pos()
        self._debug['containers']['arr'] = []
        self.containers = []
        for i in range(self.num_containers):
            self._debug['containers']['arr'].append({'start': self._io.pos()})
            _t_containers = Roaring32.Container(i, self._io, self, self._root)
            try:
                _t_containers._read()
            finally:
                self.containers.append(_t_containers)
            self._debug['containers']['arr'][i]['end'] = self._io.pos()

        self._debug['containers']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["values"]
        def __init__(self, num_values, _io, _parent=None, _root=None):
            super(Roaring32.ArrayContainer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.num_values = num_values
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['values']['start'] = self._io.pos()
            self._debug['values']['arr'] = []
            self.values = []
            for i in range(self.num_values):
                self._debug['values']['arr'].append({'start': self._io.pos()})
                self.values.append(self._io.read_u2le())
                self._debug['values']['arr'][i]['end'] = self._io.pos()

            self._debug['values']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass



    class BitmapContainer(KaitaiStruct):
        SEQ_FIELDS = ["bits"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.BitmapContainer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['bits']['start'] = self._io.pos()
            self.bits = self._io.read_bytes(8192)
            self._debug['bits']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Container(KaitaiStruct):
        SEQ_FIELDS = ["offset_check", "body"]
        def __init__(self, idx, _io, _parent=None, _root=None):
            super(Roaring32.Container, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['offset_check']['start'] = self._io.pos()
            self.offset_check = self._io.read_bytes(0)
            self._debug['offset_check']['end'] = self._io.pos()
            _ = self.offset_check
            if not  (((not (self._parent.has_offset_header))) or ((self._parent.offsets[0] == self._parent.len_header if self.idx == 0 else self._parent.offsets[self.idx] - self._parent.offsets[self.idx - 1] == self._parent.containers[self.idx - 1].len_body))) :
                raise kaitaistruct.ValidationExprError(self.offset_check, self._io, u"/types/container/seq/0")
            self._debug['body']['start'] = self._io.pos()
            _on = self.kind
            if _on == 0:
                pass
                self.body = Roaring32.ArrayContainer(self.cardinality, self._io, self, self._root)
                self.body._read()
            elif _on == 1:
                pass
                self.body = Roaring32.BitmapContainer(self._io, self, self._root)
                self.body._read()
            elif _on == 2:
                pass
                self.body = Roaring32.RunContainer(self._io, self, self._root)
                self.body._read()
            self._debug['body']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["key", "cardinality_minus_one"]
        def __init__(self, idx, _io, _parent=None, _root=None):
            super(Roaring32.Descriptor, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['key']['start'] = self._io.pos()
            self.key = self._io.read_u2le()
            self._debug['key']['end'] = self._io.pos()
            _ = self.key
            if not  ((self.idx == 0) or (_ > self._parent.descriptors[self.idx - 1].key)) :
                raise kaitaistruct.ValidationExprError(self.key, self._io, u"/types/descriptor/seq/0")
            self._debug['cardinality_minus_one']['start'] = self._io.pos()
            self.cardinality_minus_one = self._io.read_u2le()
            self._debug['cardinality_minus_one']['end'] = self._io.pos()


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
        SEQ_FIELDS = ["start", "length_minus_one"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.Run, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['start']['start'] = self._io.pos()
            self.start = self._io.read_u2le()
            self._debug['start']['end'] = self._io.pos()
            self._debug['length_minus_one']['start'] = self._io.pos()
            self.length_minus_one = self._io.read_u2le()
            self._debug['length_minus_one']['end'] = self._io.pos()
            if not self.length_minus_one <= 65535 - self.start:
                raise kaitaistruct.ValidationGreaterThanError(65535 - self.start, self.length_minus_one, self._io, u"/types/run/seq/1")


        def _fetch_instances(self):
            pass


    class RunContainer(KaitaiStruct):
        SEQ_FIELDS = ["num_runs", "runs"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.RunContainer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_runs']['start'] = self._io.pos()
            self.num_runs = self._io.read_u2le()
            self._debug['num_runs']['end'] = self._io.pos()
            self._debug['runs']['start'] = self._io.pos()
            self._debug['runs']['arr'] = []
            self.runs = []
            for i in range(self.num_runs):
                self._debug['runs']['arr'].append({'start': self._io.pos()})
                _t_runs = Roaring32.Run(self._io, self, self._root)
                try:
                    _t_runs._read()
                finally:
                    self.runs.append(_t_runs)
                self._debug['runs']['arr'][i]['end'] = self._io.pos()

            self._debug['runs']['end'] = self._io.pos()


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


