# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Puffin(KaitaiStruct):
    """A Puffin file holds arbitrary blobs (Theta sketches, deletion vectors, ...)
    followed by a footer whose JSON payload describes each blob (type, fields,
    snapshot id, sequence number, offset, length, codec, properties).
    
    Layout: `Magic Blob_1 ... Blob_n Footer`, where
    `Footer = Magic FooterPayload FooterPayloadSize Flags Magic`.
    
    The footer is found from the end of the file: the last 12 bytes hold the
    payload size, the flags and the trailing magic. The payload is opaque here
    because it may be LZ4-compressed (flags byte 0 bit 0); when it is not, the
    `payload_text` instance shows it as UTF-8 JSON.
    
    All 4-byte integers are signed two's complement, little-endian.
    
    The footer tail and the footer are position-located instances, which the
    Kaitai Web IDE parses lazily (only when clicked) and whose errors it shows on
    the field, not in its error panel. The zero-size `footer_checked` field reads
    them during the root parse, so a wrong trailing magic, payload size, flags
    byte or footer magic fails the parse in the IDE as it does in lakestruct. The
    trailing magic is checked first (as Iceberg Java does), so truncated or
    non-Puffin input is reported as a missing trailing magic, not as a
    meaningless payload size.
    
    .. seealso::
       Source - https://iceberg.apache.org/puffin-spec/
    """
    SEQ_FIELDS = ["footer_checked", "magic"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Puffin, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['footer_checked']['start'] = self._io.pos()
        self.footer_checked = self._io.read_bytes(0)
        self._debug['footer_checked']['end'] = self._io.pos()
        _ = self.footer_checked
        if not  ((self.tail.magic == b"\x50\x46\x41\x31") and (self.footer.magic == b"\x50\x46\x41\x31")) :
            raise kaitaistruct.ValidationExprError(self.footer_checked, self._io, u"/seq/0")
        self._debug['magic']['start'] = self._io.pos()
        self.magic = self._io.read_bytes(4)
        self._debug['magic']['end'] = self._io.pos()
        if not self.magic == b"\x50\x46\x41\x31":
            raise kaitaistruct.ValidationNotEqualError(b"\x50\x46\x41\x31", self.magic, self._io, u"/seq/1")


    def _fetch_instances(self):
        pass
        _ = self.blob_region
        if hasattr(self, '_m_blob_region'):
            pass

        _ = self.footer
        if hasattr(self, '_m_footer'):
            pass
            self._m_footer._fetch_instances()

        _ = self.tail
        if hasattr(self, '_m_tail'):
            pass
            self._m_tail._fetch_instances()


    class Flags(KaitaiStruct):
        SEQ_FIELDS = ["reserved0", "payload_compressed", "reserved1", "reserved2", "reserved3"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Puffin.Flags, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['reserved0']['start'] = self._io.pos()
            self.reserved0 = self._io.read_bits_int_be(7)
            self._debug['reserved0']['end'] = self._io.pos()
            if not self.reserved0 == 0:
                raise kaitaistruct.ValidationNotEqualError(0, self.reserved0, self._io, u"/types/flags/seq/0")
            self._debug['payload_compressed']['start'] = self._io.pos()
            self.payload_compressed = self._io.read_bits_int_be(1) != 0
            self._debug['payload_compressed']['end'] = self._io.pos()
            self._debug['reserved1']['start'] = self._io.pos()
            self.reserved1 = self._io.read_u1()
            self._debug['reserved1']['end'] = self._io.pos()
            if not self.reserved1 == 0:
                raise kaitaistruct.ValidationNotEqualError(0, self.reserved1, self._io, u"/types/flags/seq/2")
            self._debug['reserved2']['start'] = self._io.pos()
            self.reserved2 = self._io.read_u1()
            self._debug['reserved2']['end'] = self._io.pos()
            if not self.reserved2 == 0:
                raise kaitaistruct.ValidationNotEqualError(0, self.reserved2, self._io, u"/types/flags/seq/3")
            self._debug['reserved3']['start'] = self._io.pos()
            self.reserved3 = self._io.read_u1()
            self._debug['reserved3']['end'] = self._io.pos()
            if not self.reserved3 == 0:
                raise kaitaistruct.ValidationNotEqualError(0, self.reserved3, self._io, u"/types/flags/seq/4")


        def _fetch_instances(self):
            pass


    class Footer(KaitaiStruct):
        SEQ_FIELDS = ["magic", "payload"]
        def __init__(self, len_payload, _io, _parent=None, _root=None):
            super(Puffin.Footer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.len_payload = len_payload
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['magic']['start'] = self._io.pos()
            self.magic = self._io.read_bytes(4)
            self._debug['magic']['end'] = self._io.pos()
            if not self.magic == b"\x50\x46\x41\x31":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x46\x41\x31", self.magic, self._io, u"/types/footer/seq/0")
            self._debug['payload']['start'] = self._io.pos()
            self.payload = self._io.read_bytes(self.len_payload)
            self._debug['payload']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.payload_text
            if hasattr(self, '_m_payload_text'):
                pass


        @property
        def payload_text(self):
            """The payload as text, when it is not compressed: read again from its
            bytes, so that it shows even when the footer's magic is wrong (a value
            instance over `payload` failed there, `payload` being unread).
            """
            if hasattr(self, '_m_payload_text'):
                return self._m_payload_text

            if (not (self._root.tail.flags.payload_compressed)):
                pass
                _pos = self._io.pos()
                self._io.seek((self._io.size() - 12) - self.len_payload)
                self._debug['_m_payload_text']['start'] = self._io.pos()
                self._m_payload_text = (self._io.read_bytes(self.len_payload)).decode(u"UTF-8")
                self._debug['_m_payload_text']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_payload_text', None)


    class FooterTail(KaitaiStruct):
        SEQ_FIELDS = ["magic_checked", "len_payload", "flags"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Puffin.FooterTail, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['magic_checked']['start'] = self._io.pos()
            self.magic_checked = self._io.read_bytes(0)
            self._debug['magic_checked']['end'] = self._io.pos()
            _ = self.magic_checked
            if not self.magic == b"\x50\x46\x41\x31":
                raise kaitaistruct.ValidationExprError(self.magic_checked, self._io, u"/types/footer_tail/seq/0")
            self._debug['len_payload']['start'] = self._io.pos()
            self.len_payload = self._io.read_s4le()
            self._debug['len_payload']['end'] = self._io.pos()
            if not self.len_payload >= 0:
                raise kaitaistruct.ValidationLessThanError(0, self.len_payload, self._io, u"/types/footer_tail/seq/1")
            if not self.len_payload <= self._io.size() - 20:
                raise kaitaistruct.ValidationGreaterThanError(self._io.size() - 20, self.len_payload, self._io, u"/types/footer_tail/seq/1")
            self._debug['flags']['start'] = self._io.pos()
            self.flags = Puffin.Flags(self._io, self, self._root)
            self.flags._read()
            self._debug['flags']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.flags._fetch_instances()
            _ = self.magic
            if hasattr(self, '_m_magic'):
                pass


        @property
        def magic(self):
            """Trailing magic `PFA1`, the last 4 bytes of the file."""
            if hasattr(self, '_m_magic'):
                return self._m_magic

            _pos = self._io.pos()
            self._io.seek(self._io.size() - 4)
            self._debug['_m_magic']['start'] = self._io.pos()
            self._m_magic = self._io.read_bytes(4)
            self._debug['_m_magic']['end'] = self._io.pos()
            if not self._m_magic == b"\x50\x46\x41\x31":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x46\x41\x31", self._m_magic, self._io, u"/types/footer_tail/instances/magic")
            self._io.seek(_pos)
            return getattr(self, '_m_magic', None)


    @property
    def blob_region(self):
        """The bytes between the header magic and the footer. Blobs are located by
        the `offset` and `length` of their metadata in the footer payload.
        """
        if hasattr(self, '_m_blob_region'):
            return self._m_blob_region

        if self.tail_ok:
            pass
            _pos = self._io.pos()
            self._io.seek(4)
            self._debug['_m_blob_region']['start'] = self._io.pos()
            self._m_blob_region = self._io.read_bytes(self.ofs_footer - 4)
            self._debug['_m_blob_region']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_blob_region', None)

    @property
    def footer(self):
        """The footer, from its leading magic to the end of the payload."""
        if hasattr(self, '_m_footer'):
            return self._m_footer

        if self.tail_ok:
            pass
            _pos = self._io.pos()
            self._io.seek(self.ofs_footer)
            self._debug['_m_footer']['start'] = self._io.pos()
            self._m_footer = Puffin.Footer(self.tail.len_payload, self._io, self, self._root)
            self._m_footer._read()
            self._debug['_m_footer']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_footer', None)

    @property
    def ofs_footer(self):
        """Absolute offset of the footer (its leading magic)."""
        if hasattr(self, '_m_ofs_footer'):
            return self._m_ofs_footer

        if self.tail_ok:
            pass
            self._m_ofs_footer = ((self._io.size() - 12) - self.tail.len_payload) - 4

        return getattr(self, '_m_ofs_footer', None)

    @property
    def tail(self):
        """The fixed 12-byte end of the footer (payload size, flags, magic)."""
        if hasattr(self, '_m_tail'):
            return self._m_tail

        _pos = self._io.pos()
        self._io.seek(self._io.size() - 12)
        self._debug['_m_tail']['start'] = self._io.pos()
        self._m_tail = Puffin.FooterTail(self._io, self, self._root)
        self._m_tail._read()
        self._debug['_m_tail']['end'] = self._io.pos()
        self._io.seek(_pos)
        return getattr(self, '_m_tail', None)

    @property
    def tail_ok(self):
        """The tail's payload size fits the file. After a parse error the Web IDE
        still shows the tree, with `tail` read only partly; the instances below
        are absent then, instead of showing offsets computed from a missing size
        (NaN) or failing on a missing field.
        """
        if hasattr(self, '_m_tail_ok'):
            return self._m_tail_ok

        self._m_tail_ok =  ((self.tail.len_payload >= 0) and (self.tail.len_payload <= self._io.size() - 20)) 
        return getattr(self, '_m_tail_ok', None)


