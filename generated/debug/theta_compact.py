# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class ThetaCompact(KaitaiStruct):
    """A compact Theta sketch: a set of retained 63-bit hash values below a
    threshold `theta`, from which the number of distinct items fed to the sketch
    is estimated as `retained / (theta / 2^63-1)`. This is the payload of an
    Iceberg Puffin `apache-datasketches-theta-v1` blob (default seed 9001).
    
    Every multi-byte field is little-endian. The first 8 bytes (the first
    "preamble long") are shared by all versions: byte 0 holds the number of
    preamble longs (bits 0-5) and a resize factor (bits 6-7, unused in compact
    sketches), byte 1 the serial version, byte 2 the family id (3 = compact).
    What follows depends on the serial version:
    
    * 3 (current, uncompressed): flags in byte 5, seed hash in bytes 6-7; one
      preamble long = empty or single item, two = exact mode with a count at
      byte 8, three = estimation mode with theta at byte 16; then the hashes as
      unsigned 64-bit integers.
    * 4 (compressed, ordered only): entry width in byte 3, the byte length of
      the count in byte 4; theta (when two preamble longs), the count, then the
      deltas between consecutive ordered hashes, bit-packed MSB first with
      `entry_bits` bits each. Kaitai cannot express bit fields of a width read
      from the data, so the deltas are kept as opaque bytes here
      (`lakestruct.sketches` decodes them).
    * 1 and 2 (legacy, still read by DataSketches C++): always ordered; version 1
      has no seed hash and always three preamble longs; version 2 has the seed
      hash but no flags.
    
    Values above 2^53 (hashes, theta) lose precision in JavaScript, and so in
    the Web IDE, which shows 2^63-1 as 0x8000000000000000; the Python parser is
    exact. For the IDE, `theta_text` and `entries_exact` read the same bytes
    again as two 32-bit halves and show them exactly, as decimal strings
    (`u8_exact`).
    
    .. seealso::
       Source - https://github.com/apache/datasketches-java/blob/main/src/main/java/org/apache/datasketches/theta/PreambleUtil.java
    
    
    .. seealso::
       Source - https://github.com/apache/datasketches-cpp/blob/master/theta/include/theta_sketch_impl.hpp
    """
    SEQ_FIELDS = ["resize_factor", "pre_longs", "serial_version", "family"]
    def __init__(self, _io, _parent=None, _root=None):
        super(ThetaCompact, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['resize_factor']['start'] = self._io.pos()
        self.resize_factor = self._io.read_bits_int_be(2)
        self._debug['resize_factor']['end'] = self._io.pos()
        self._debug['pre_longs']['start'] = self._io.pos()
        self.pre_longs = self._io.read_bits_int_be(6)
        self._debug['pre_longs']['end'] = self._io.pos()
        self._debug['serial_version']['start'] = self._io.pos()
        self.serial_version = self._io.read_u1()
        self._debug['serial_version']['end'] = self._io.pos()
        if not  ((self.serial_version == 1) or (self.serial_version == 2) or (self.serial_version == 3) or (self.serial_version == 4)) :
            raise kaitaistruct.ValidationNotAnyOfError(self.serial_version, self._io, u"/seq/2")
        self._debug['family']['start'] = self._io.pos()
        self.family = self._io.read_u1()
        self._debug['family']['end'] = self._io.pos()
        if not self.family == 3:
            raise kaitaistruct.ValidationNotEqualError(3, self.family, self._io, u"/seq/3")


    def _fetch_instances(self):
        pass
        _ = self.body
        if hasattr(self, '_m_body'):
            pass
            _on = self.serial_version
            if _on == 1:
                pass
                self._m_body._fetch_instances()
            elif _on == 2:
                pass
                self._m_body._fetch_instances()
            elif _on == 3:
                pass
                self._m_body._fetch_instances()
            elif _on == 4:
                pass
                self._m_body._fetch_instances()


    class BodyV1(KaitaiStruct):
        """Serial version 1 (legacy): always three preamble longs, no seed hash, no
        flags; always ordered. Empty when there are no hashes and theta is 1.0.
        """
        SEQ_FIELDS = ["unused", "num_entries", "unused2", "theta_long", "entries"]
        def __init__(self, _io, _parent=None, _root=None):
            super(ThetaCompact.BodyV1, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['unused']['start'] = self._io.pos()
            self.unused = self._io.read_bytes(5)
            self._debug['unused']['end'] = self._io.pos()
            self._debug['num_entries']['start'] = self._io.pos()
            self.num_entries = self._io.read_u4le()
            self._debug['num_entries']['end'] = self._io.pos()
            if not self.num_entries <= ((self._io.size() - self._io.pos()) - 12) // 8:
                raise kaitaistruct.ValidationGreaterThanError(((self._io.size() - self._io.pos()) - 12) // 8, self.num_entries, self._io, u"/types/body_v1/seq/1")
            self._debug['unused2']['start'] = self._io.pos()
            self.unused2 = self._io.read_bytes(4)
            self._debug['unused2']['end'] = self._io.pos()
            self._debug['theta_long']['start'] = self._io.pos()
            self.theta_long = self._io.read_u8le()
            self._debug['theta_long']['end'] = self._io.pos()
            self._debug['entries']['start'] = self._io.pos()
            self._debug['entries']['arr'] = []
            self.entries = []
            for i in range(self.num_entries):
                self._debug['entries']['arr'].append({'start': self._io.pos()})
                self.entries.append(self._io.read_u8le())
                self._debug['entries']['arr'][i]['end'] = self._io.pos()

            self._debug['entries']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.entries)):
                pass

            _ = self.entries_exact
            if hasattr(self, '_m_entries_exact'):
                pass
                for i in range(len(self._m_entries_exact)):
                    pass
                    self._m_entries_exact[i]._fetch_instances()


            _ = self.theta_exact
            if hasattr(self, '_m_theta_exact'):
                pass
                self._m_theta_exact._fetch_instances()


        @property
        def entries_exact(self):
            """The hashes again, each shown exactly (`u8_exact`); click to read them in the Web IDE."""
            if hasattr(self, '_m_entries_exact'):
                return self._m_entries_exact

            _pos = self._io.pos()
            self._io.seek(24)
            self._debug['_m_entries_exact']['start'] = self._io.pos()
            self._debug['_m_entries_exact']['arr'] = []
            self._m_entries_exact = []
            for i in range(self.num_entries):
                self._debug['_m_entries_exact']['arr'].append({'start': self._io.pos()})
                _t__m_entries_exact = ThetaCompact.U8Exact(self._io, self, self._root)
                try:
                    _t__m_entries_exact._read()
                finally:
                    self._m_entries_exact.append(_t__m_entries_exact)
                self._debug['_m_entries_exact']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_entries_exact']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_entries_exact', None)

        @property
        def theta_exact(self):
            """The bytes of `theta_long` again, shown exactly (`u8_exact`)."""
            if hasattr(self, '_m_theta_exact'):
                return self._m_theta_exact

            _pos = self._io.pos()
            self._io.seek(16)
            self._debug['_m_theta_exact']['start'] = self._io.pos()
            self._m_theta_exact = ThetaCompact.U8Exact(self._io, self, self._root)
            self._m_theta_exact._read()
            self._debug['_m_theta_exact']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_theta_exact', None)

        @property
        def theta_text(self):
            """Theta as an exact decimal string, for the Web IDE (JavaScript rounds it)."""
            if hasattr(self, '_m_theta_text'):
                return self._m_theta_text

            self._m_theta_text = self.theta_exact.text
            return getattr(self, '_m_theta_text', None)


    class BodyV2(KaitaiStruct):
        """Serial version 2 (legacy): seed hash but no flags; always ordered. One
        preamble long = empty; two = exact mode (empty if no hashes); three =
        theta stored (empty if no hashes and theta is 1.0).
        """
        SEQ_FIELDS = ["unused", "seed_hash", "num_entries", "unused2", "theta_long", "entries"]
        def __init__(self, _io, _parent=None, _root=None):
            super(ThetaCompact.BodyV2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['unused']['start'] = self._io.pos()
            self.unused = self._io.read_bytes(3)
            self._debug['unused']['end'] = self._io.pos()
            self._debug['seed_hash']['start'] = self._io.pos()
            self.seed_hash = self._io.read_u2le()
            self._debug['seed_hash']['end'] = self._io.pos()
            if self._root.pre_longs >= 2:
                pass
                self._debug['num_entries']['start'] = self._io.pos()
                self.num_entries = self._io.read_u4le()
                self._debug['num_entries']['end'] = self._io.pos()
                if not self.num_entries <= (((self._io.size() - self._io.pos()) - 4) - (8 if self._root.pre_longs >= 3 else 0)) // 8:
                    raise kaitaistruct.ValidationGreaterThanError((((self._io.size() - self._io.pos()) - 4) - (8 if self._root.pre_longs >= 3 else 0)) // 8, self.num_entries, self._io, u"/types/body_v2/seq/2")

            if self._root.pre_longs >= 2:
                pass
                self._debug['unused2']['start'] = self._io.pos()
                self.unused2 = self._io.read_bytes(4)
                self._debug['unused2']['end'] = self._io.pos()

            if self._root.pre_longs >= 3:
                pass
                self._debug['theta_long']['start'] = self._io.pos()
                self.theta_long = self._io.read_u8le()
                self._debug['theta_long']['end'] = self._io.pos()

            self._debug['entries']['start'] = self._io.pos()
            self._debug['entries']['arr'] = []
            self.entries = []
            for i in range((self.num_entries if self._root.pre_longs >= 2 else 0)):
                self._debug['entries']['arr'].append({'start': self._io.pos()})
                self.entries.append(self._io.read_u8le())
                self._debug['entries']['arr'][i]['end'] = self._io.pos()

            self._debug['entries']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            if self._root.pre_longs >= 2:
                pass

            if self._root.pre_longs >= 2:
                pass

            if self._root.pre_longs >= 3:
                pass

            for i in range(len(self.entries)):
                pass

            _ = self.entries_exact
            if hasattr(self, '_m_entries_exact'):
                pass
                for i in range(len(self._m_entries_exact)):
                    pass
                    self._m_entries_exact[i]._fetch_instances()


            _ = self.theta_exact
            if hasattr(self, '_m_theta_exact'):
                pass
                self._m_theta_exact._fetch_instances()


        @property
        def entries_exact(self):
            """The hashes again, each shown exactly (`u8_exact`); click to read them in the Web IDE."""
            if hasattr(self, '_m_entries_exact'):
                return self._m_entries_exact

            _pos = self._io.pos()
            self._io.seek(self._root.pre_longs * 8)
            self._debug['_m_entries_exact']['start'] = self._io.pos()
            self._debug['_m_entries_exact']['arr'] = []
            self._m_entries_exact = []
            for i in range((self.num_entries if self._root.pre_longs >= 2 else 0)):
                self._debug['_m_entries_exact']['arr'].append({'start': self._io.pos()})
                _t__m_entries_exact = ThetaCompact.U8Exact(self._io, self, self._root)
                try:
                    _t__m_entries_exact._read()
                finally:
                    self._m_entries_exact.append(_t__m_entries_exact)
                self._debug['_m_entries_exact']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_entries_exact']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_entries_exact', None)

        @property
        def theta_exact(self):
            """The bytes of `theta_long` again, shown exactly (`u8_exact`)."""
            if hasattr(self, '_m_theta_exact'):
                return self._m_theta_exact

            if self._root.pre_longs >= 3:
                pass
                _pos = self._io.pos()
                self._io.seek(16)
                self._debug['_m_theta_exact']['start'] = self._io.pos()
                self._m_theta_exact = ThetaCompact.U8Exact(self._io, self, self._root)
                self._m_theta_exact._read()
                self._debug['_m_theta_exact']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_theta_exact', None)

        @property
        def theta_text(self):
            """Theta as an exact decimal string, for the Web IDE (JavaScript rounds it)."""
            if hasattr(self, '_m_theta_text'):
                return self._m_theta_text

            self._m_theta_text = (self.theta_exact.text if self._root.pre_longs >= 3 else u"9223372036854775807")
            return getattr(self, '_m_theta_text', None)


    class BodyV3(KaitaiStruct):
        """Serial version 3. The preamble has `pre_longs` longs: 1 = empty (8
        bytes) or a single hash (16 bytes); 2 = exact mode (theta = 1.0);
        3 = estimation mode, or non-empty without hashes.
        """
        SEQ_FIELDS = ["lg_nom_longs", "lg_arr_longs", "flags", "seed_hash", "num_entries", "p", "theta_long", "entries"]
        def __init__(self, _io, _parent=None, _root=None):
            super(ThetaCompact.BodyV3, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['lg_nom_longs']['start'] = self._io.pos()
            self.lg_nom_longs = self._io.read_u1()
            self._debug['lg_nom_longs']['end'] = self._io.pos()
            self._debug['lg_arr_longs']['start'] = self._io.pos()
            self.lg_arr_longs = self._io.read_u1()
            self._debug['lg_arr_longs']['end'] = self._io.pos()
            self._debug['flags']['start'] = self._io.pos()
            self.flags = ThetaCompact.Flags(self._io, self, self._root)
            self.flags._read()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['seed_hash']['start'] = self._io.pos()
            self.seed_hash = self._io.read_u2le()
            self._debug['seed_hash']['end'] = self._io.pos()
            if self._root.pre_longs >= 2:
                pass
                self._debug['num_entries']['start'] = self._io.pos()
                self.num_entries = self._io.read_u4le()
                self._debug['num_entries']['end'] = self._io.pos()
                if not self.num_entries <= (((self._io.size() - self._io.pos()) - 4) - (8 if self._root.pre_longs >= 3 else 0)) // 8:
                    raise kaitaistruct.ValidationGreaterThanError((((self._io.size() - self._io.pos()) - 4) - (8 if self._root.pre_longs >= 3 else 0)) // 8, self.num_entries, self._io, u"/types/body_v3/seq/4")

            if self._root.pre_longs >= 2:
                pass
                self._debug['p']['start'] = self._io.pos()
                self.p = self._io.read_f4le()
                self._debug['p']['end'] = self._io.pos()

            if self._root.pre_longs >= 3:
                pass
                self._debug['theta_long']['start'] = self._io.pos()
                self.theta_long = self._io.read_u8le()
                self._debug['theta_long']['end'] = self._io.pos()

            self._debug['entries']['start'] = self._io.pos()
            self._debug['entries']['arr'] = []
            self.entries = []
            for i in range(self.num_retained):
                self._debug['entries']['arr'].append({'start': self._io.pos()})
                self.entries.append(self._io.read_u8le())
                self._debug['entries']['arr'][i]['end'] = self._io.pos()

            self._debug['entries']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.flags._fetch_instances()
            if self._root.pre_longs >= 2:
                pass

            if self._root.pre_longs >= 2:
                pass

            if self._root.pre_longs >= 3:
                pass

            for i in range(len(self.entries)):
                pass

            _ = self.entries_exact
            if hasattr(self, '_m_entries_exact'):
                pass
                for i in range(len(self._m_entries_exact)):
                    pass
                    self._m_entries_exact[i]._fetch_instances()


            _ = self.theta_exact
            if hasattr(self, '_m_theta_exact'):
                pass
                self._m_theta_exact._fetch_instances()


        @property
        def entries_exact(self):
            """The hashes again, each shown exactly (`u8_exact`); click to read them in the Web IDE."""
            if hasattr(self, '_m_entries_exact'):
                return self._m_entries_exact

            _pos = self._io.pos()
            self._io.seek(self._root.pre_longs * 8)
            self._debug['_m_entries_exact']['start'] = self._io.pos()
            self._debug['_m_entries_exact']['arr'] = []
            self._m_entries_exact = []
            for i in range(self.num_retained):
                self._debug['_m_entries_exact']['arr'].append({'start': self._io.pos()})
                _t__m_entries_exact = ThetaCompact.U8Exact(self._io, self, self._root)
                try:
                    _t__m_entries_exact._read()
                finally:
                    self._m_entries_exact.append(_t__m_entries_exact)
                self._debug['_m_entries_exact']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_entries_exact']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_entries_exact', None)

        @property
        def num_retained(self):
            """Number of hashes stored: 0 when empty, 1 with one preamble long
            (a single-item sketch), else `num_entries`.
            """
            if hasattr(self, '_m_num_retained'):
                return self._m_num_retained

            self._m_num_retained = ((0 if self.flags.empty else self.num_entries) if self._root.pre_longs >= 2 else (0 if  ((self.flags.empty) or (self._root.pre_longs == 0))  else 1))
            return getattr(self, '_m_num_retained', None)

        @property
        def theta(self):
            """Theta as a 64-bit integer (2^63-1 = 1.0 unless stored)."""
            if hasattr(self, '_m_theta'):
                return self._m_theta

            self._m_theta = (self.theta_long if self._root.pre_longs >= 3 else 9223372036854775807)
            return getattr(self, '_m_theta', None)

        @property
        def theta_exact(self):
            """The bytes of `theta_long` again, shown exactly (`u8_exact`)."""
            if hasattr(self, '_m_theta_exact'):
                return self._m_theta_exact

            if self._root.pre_longs >= 3:
                pass
                _pos = self._io.pos()
                self._io.seek(16)
                self._debug['_m_theta_exact']['start'] = self._io.pos()
                self._m_theta_exact = ThetaCompact.U8Exact(self._io, self, self._root)
                self._m_theta_exact._read()
                self._debug['_m_theta_exact']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_theta_exact', None)

        @property
        def theta_text(self):
            """Theta as an exact decimal string, for the Web IDE (JavaScript rounds it)."""
            if hasattr(self, '_m_theta_text'):
                return self._m_theta_text

            self._m_theta_text = (self.theta_exact.text if self._root.pre_longs >= 3 else u"9223372036854775807")
            return getattr(self, '_m_theta_text', None)


    class BodyV4(KaitaiStruct):
        """Serial version 4: an ordered compact sketch whose hashes are stored as
        deltas (`hash[i] - hash[i-1]`, with `hash[-1] = 0`), each packed into
        `entry_bits` bits, MSB first, as one continuous bit stream; a block of 8
        deltas takes exactly `entry_bits` bytes and the last byte is zero-padded.
        """
        SEQ_FIELDS = ["entry_bits", "num_entries_bytes", "flags", "seed_hash", "theta_long", "num_entries_le", "deltas"]
        def __init__(self, _io, _parent=None, _root=None):
            super(ThetaCompact.BodyV4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['entry_bits']['start'] = self._io.pos()
            self.entry_bits = self._io.read_u1()
            self._debug['entry_bits']['end'] = self._io.pos()
            if not self.entry_bits >= 1:
                raise kaitaistruct.ValidationLessThanError(1, self.entry_bits, self._io, u"/types/body_v4/seq/0")
            if not self.entry_bits <= 63:
                raise kaitaistruct.ValidationGreaterThanError(63, self.entry_bits, self._io, u"/types/body_v4/seq/0")
            self._debug['num_entries_bytes']['start'] = self._io.pos()
            self.num_entries_bytes = self._io.read_u1()
            self._debug['num_entries_bytes']['end'] = self._io.pos()
            if not self.num_entries_bytes >= 1:
                raise kaitaistruct.ValidationLessThanError(1, self.num_entries_bytes, self._io, u"/types/body_v4/seq/1")
            if not self.num_entries_bytes <= 4:
                raise kaitaistruct.ValidationGreaterThanError(4, self.num_entries_bytes, self._io, u"/types/body_v4/seq/1")
            self._debug['flags']['start'] = self._io.pos()
            self.flags = ThetaCompact.Flags(self._io, self, self._root)
            self.flags._read()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['seed_hash']['start'] = self._io.pos()
            self.seed_hash = self._io.read_u2le()
            self._debug['seed_hash']['end'] = self._io.pos()
            if self._root.pre_longs >= 2:
                pass
                self._debug['theta_long']['start'] = self._io.pos()
                self.theta_long = self._io.read_u8le()
                self._debug['theta_long']['end'] = self._io.pos()

            self._debug['num_entries_le']['start'] = self._io.pos()
            self._debug['num_entries_le']['arr'] = []
            self.num_entries_le = []
            for i in range(self.num_entries_bytes):
                self._debug['num_entries_le']['arr'].append({'start': self._io.pos()})
                self.num_entries_le.append(self._io.read_u1())
                self._debug['num_entries_le']['arr'][i]['end'] = self._io.pos()

            self._debug['num_entries_le']['end'] = self._io.pos()
            self._debug['deltas']['start'] = self._io.pos()
            self.deltas = self._io.read_bytes((self.entry_bits * self.num_entries + 7) // 8)
            self._debug['deltas']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.flags._fetch_instances()
            if self._root.pre_longs >= 2:
                pass

            for i in range(len(self.num_entries_le)):
                pass

            _ = self.theta_exact
            if hasattr(self, '_m_theta_exact'):
                pass
                self._m_theta_exact._fetch_instances()


        @property
        def num_entries(self):
            """The retained count."""
            if hasattr(self, '_m_num_entries'):
                return self._m_num_entries

            self._m_num_entries = ((self.num_entries_le[0] + (self.num_entries_le[1] * 256 if self.num_entries_bytes > 1 else 0)) + (self.num_entries_le[2] * 65536 if self.num_entries_bytes > 2 else 0)) + (self.num_entries_le[3] * 16777216 if self.num_entries_bytes > 3 else 0)
            return getattr(self, '_m_num_entries', None)

        @property
        def theta(self):
            """Theta as a 64-bit integer (2^63-1 = 1.0 unless stored)."""
            if hasattr(self, '_m_theta'):
                return self._m_theta

            self._m_theta = (self.theta_long if self._root.pre_longs >= 2 else 9223372036854775807)
            return getattr(self, '_m_theta', None)

        @property
        def theta_exact(self):
            """The bytes of `theta_long` again, shown exactly (`u8_exact`)."""
            if hasattr(self, '_m_theta_exact'):
                return self._m_theta_exact

            if self._root.pre_longs >= 2:
                pass
                _pos = self._io.pos()
                self._io.seek(8)
                self._debug['_m_theta_exact']['start'] = self._io.pos()
                self._m_theta_exact = ThetaCompact.U8Exact(self._io, self, self._root)
                self._m_theta_exact._read()
                self._debug['_m_theta_exact']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_theta_exact', None)

        @property
        def theta_text(self):
            """Theta as an exact decimal string, for the Web IDE (JavaScript rounds it)."""
            if hasattr(self, '_m_theta_text'):
                return self._m_theta_text

            self._m_theta_text = (self.theta_exact.text if self._root.pre_longs >= 2 else u"9223372036854775807")
            return getattr(self, '_m_theta_text', None)


    class Flags(KaitaiStruct):
        """The flags byte (byte 5) of serial versions 3 and 4."""
        SEQ_FIELDS = ["reserved", "single_item", "ordered", "compact", "empty", "read_only", "big_endian"]
        def __init__(self, _io, _parent=None, _root=None):
            super(ThetaCompact.Flags, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['reserved']['start'] = self._io.pos()
            self.reserved = self._io.read_bits_int_be(2)
            self._debug['reserved']['end'] = self._io.pos()
            self._debug['single_item']['start'] = self._io.pos()
            self.single_item = self._io.read_bits_int_be(1) != 0
            self._debug['single_item']['end'] = self._io.pos()
            self._debug['ordered']['start'] = self._io.pos()
            self.ordered = self._io.read_bits_int_be(1) != 0
            self._debug['ordered']['end'] = self._io.pos()
            self._debug['compact']['start'] = self._io.pos()
            self.compact = self._io.read_bits_int_be(1) != 0
            self._debug['compact']['end'] = self._io.pos()
            self._debug['empty']['start'] = self._io.pos()
            self.empty = self._io.read_bits_int_be(1) != 0
            self._debug['empty']['end'] = self._io.pos()
            self._debug['read_only']['start'] = self._io.pos()
            self.read_only = self._io.read_bits_int_be(1) != 0
            self._debug['read_only']['end'] = self._io.pos()
            self._debug['big_endian']['start'] = self._io.pos()
            self.big_endian = self._io.read_bits_int_be(1) != 0
            self._debug['big_endian']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class U8Exact(KaitaiStruct):
        """An unsigned 64-bit little-endian integer read as two 32-bit halves and
        shown as an exact decimal string: with `value = hi * 2^32 + lo` and
        `2^32 = 4294 * 10^6 + 967296`, the six low decimal digits and the rest
        come from products below 2^53, which JavaScript numbers hold exactly.
        """
        SEQ_FIELDS = ["lo", "hi"]
        def __init__(self, _io, _parent=None, _root=None):
            super(ThetaCompact.U8Exact, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['lo']['start'] = self._io.pos()
            self.lo = self._io.read_u4le()
            self._debug['lo']['end'] = self._io.pos()
            self._debug['hi']['start'] = self._io.pos()
            self.hi = self._io.read_u4le()
            self._debug['hi']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def bottom(self):
            """The value's last six decimal digits."""
            if hasattr(self, '_m_bottom'):
                return self._m_bottom

            self._m_bottom = self.low6 % 1000000
            return getattr(self, '_m_bottom', None)

        @property
        def low6(self):
            """The value minus `hi * 4294 * 10^6` (below 2^53)."""
            if hasattr(self, '_m_low6'):
                return self._m_low6

            self._m_low6 = self.hi * 967296 + self.lo
            return getattr(self, '_m_low6', None)

        @property
        def text(self):
            """The value in decimal, exactly."""
            if hasattr(self, '_m_text'):
                return self._m_text

            self._m_text = (str(self.bottom) if self.top == 0 else str(self.top) + str(self.bottom + 1000000)[1:7])
            return getattr(self, '_m_text', None)

        @property
        def top(self):
            """The value's decimal digits above the last six."""
            if hasattr(self, '_m_top'):
                return self._m_top

            self._m_top = self.hi * 4294 + self.low6 // 1000000
            return getattr(self, '_m_top', None)


    @property
    def body(self):
        """The rest of the sketch from byte 3, laid out by serial version. (An
        instance rather than a sequence field so that a reader can check
        `pre_longs` against the serial version before reading further.)
        """
        if hasattr(self, '_m_body'):
            return self._m_body

        _pos = self._io.pos()
        self._io.seek(3)
        self._debug['_m_body']['start'] = self._io.pos()
        _on = self.serial_version
        if _on == 1:
            pass
            self._m_body = ThetaCompact.BodyV1(self._io, self, self._root)
            self._m_body._read()
        elif _on == 2:
            pass
            self._m_body = ThetaCompact.BodyV2(self._io, self, self._root)
            self._m_body._read()
        elif _on == 3:
            pass
            self._m_body = ThetaCompact.BodyV3(self._io, self, self._root)
            self._m_body._read()
        elif _on == 4:
            pass
            self._m_body = ThetaCompact.BodyV4(self._io, self, self._root)
            self._m_body._read()
        self._debug['_m_body']['end'] = self._io.pos()
        self._io.seek(_pos)
        return getattr(self, '_m_body', None)


