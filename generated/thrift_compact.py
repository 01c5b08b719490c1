# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class ThriftCompact(KaitaiStruct):
    """A Thrift struct in the compact protocol, decoded without knowing its IDL:
    every field is a header byte (`ddddtttt`: field-id delta 1..15 and wire type;
    delta 0 means a zigzag-varint i16 field id follows), then its value; a 0x00
    byte ends the struct. Booleans live in the type nibble (1 = true, 2 = false)
    and take no value bytes. i16/i32/i64 are zigzag varints (ULEB128), i8 one
    byte, double 8 bytes little-endian, binary a varint length and the bytes,
    uuid 16 bytes. Lists and sets: a header `sssstttt` (size 0..14, or 15 and a
    varint size) then the elements; maps: a varint size, then (if not empty) a
    `kkkkvvvv` type byte and the pairs.
    
    Every expression uses + - * / % only (no shifts or bit operators) so the
    values are exact in the Kaitai Web IDE's JavaScript up to 2^53.
    
    Interop quirk: parquet-mr and parquet-rs write list<bool> with element type
    1 (not 2) and false elements as 0x02; an element byte of 1 is true, any
    other value false.
    
    `finder_step` finds a field of a decoded struct by its id, so specs that
    import this one (parquet.ksy) can follow typed fields: an instance
    `f_x: {type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id
    == ID and not s.fields[_index].is_stop, _index == 0 ? -1 :
    f_x[_index - 1].found)', repeat: expr, repeat-expr: s.fields.size}` ends in
    `f_x.last.found`, the index of the field in `s.fields` (-1 if absent). The
    steps take only numbers: a user type that took the struct as a parameter
    would repeat the whole struct in the Web IDE's tree at every lookup (the IDE
    shows parameters as fields), and make "disable lazy parsing" export it
    again for each of them.
    
    Labels in the Web IDE: a field reads `#id value` (`stop` for the stop
    byte), a string or binary as its bytes in quotes (`data:str`), an integer
    in decimal (exact up to 2^53 in JavaScript).
    
    .. seealso::
       Source - https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
    """

    class WireTypes(IntEnum):
        stop = 0
        bool_true = 1
        bool_false = 2
        i8 = 3
        i16 = 4
        i32 = 5
        i64 = 6
        double = 7
        binary = 8
        list = 9
        set = 10
        map = 11
        struct = 12
        uuid = 13
    def __init__(self, _io, _parent=None, _root=None):
        super(ThriftCompact, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.fields = []
        i = 0
        while True:
            _ = ThriftCompact.CompactField((0 if i == 0 else self.fields[i - 1].field_id), self._io, self, self._root)
            self.fields.append(_)
            if _.is_stop:
                break
            i += 1


    def _fetch_instances(self):
        pass
        for i in range(len(self.fields)):
            pass
            self.fields[i]._fetch_instances()


    class CompactBinary(KaitaiStruct):
        """Binary or string: a varint length, then the bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ThriftCompact.CompactBinary, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len_data = ThriftCompact.Uvarint(self._io, self, self._root)
            self.data = self._io.read_bytes(self.len_data.value)


        def _fetch_instances(self):
            pass
            self.len_data._fetch_instances()


    class CompactField(KaitaiStruct):
        """One field of a struct, or the stop byte that ends it."""
        def __init__(self, prev_id, _io, _parent=None, _root=None):
            super(ThriftCompact.CompactField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.prev_id = prev_id
            self._read()

        def _read(self):
            self.header = self._io.read_u1()
            _ = self.header
            if not  ((_ % 16 <= 13) and ( ((_ % 16 != 0) or (_ == 0)) )) :
                raise kaitaistruct.ValidationExprError(self.header, self._io, u"/types/compact_field/seq/0")
            if  (((not (self.is_stop))) and (self.delta == 0)) :
                pass
                self.explicit_id = ThriftCompact.ZigzagVarint(self._io, self, self._root)

            if  (((not (self.is_stop))) and ((not (self.is_bool)))) :
                pass
                self.value = ThriftCompact.CompactValue(int(self.wire_type), self._io, self, self._root)



        def _fetch_instances(self):
            pass
            if  (((not (self.is_stop))) and (self.delta == 0)) :
                pass
                self.explicit_id._fetch_instances()

            if  (((not (self.is_stop))) and ((not (self.is_bool)))) :
                pass
                self.value._fetch_instances()


        @property
        def bool_value(self):
            """The value of a boolean field."""
            if hasattr(self, '_m_bool_value'):
                return self._m_bool_value

            if self.is_bool:
                pass
                self._m_bool_value = self.wire_type == ThriftCompact.WireTypes.bool_true

            return getattr(self, '_m_bool_value', None)

        @property
        def delta(self):
            """The field-id delta (0 = long form)."""
            if hasattr(self, '_m_delta'):
                return self._m_delta

            self._m_delta = self.header // 16
            return getattr(self, '_m_delta', None)

        @property
        def field_id(self):
            """The field id."""
            if hasattr(self, '_m_field_id'):
                return self._m_field_id

            self._m_field_id = (self.prev_id if self.is_stop else (self.explicit_id.value if self.delta == 0 else self.prev_id + self.delta))
            return getattr(self, '_m_field_id', None)

        @property
        def is_bool(self):
            """A boolean field (no value bytes)."""
            if hasattr(self, '_m_is_bool'):
                return self._m_is_bool

            self._m_is_bool =  ((self.wire_type == ThriftCompact.WireTypes.bool_true) or (self.wire_type == ThriftCompact.WireTypes.bool_false)) 
            return getattr(self, '_m_is_bool', None)

        @property
        def is_stop(self):
            """This is the stop byte."""
            if hasattr(self, '_m_is_stop'):
                return self._m_is_stop

            self._m_is_stop = self.header == 0
            return getattr(self, '_m_is_stop', None)

        @property
        def label(self):
            """The field's label in the Web IDE (`#id`, `stop` for the stop byte, whose `field_id` repeats the previous one)."""
            if hasattr(self, '_m_label'):
                return self._m_label

            self._m_label = (u"stop" if self.is_stop else (u"#" + str(self.field_id)) + ((u" true" if self.bool_value else u" false") if self.is_bool else u""))
            return getattr(self, '_m_label', None)

        @property
        def wire_type(self):
            """The wire type (see `wire_types`)."""
            if hasattr(self, '_m_wire_type'):
                return self._m_wire_type

            self._m_wire_type = KaitaiStream.resolve_enum(ThriftCompact.WireTypes, self.header % 16)
            return getattr(self, '_m_wire_type', None)


    class CompactList(KaitaiStruct):
        """A list or set header and its elements."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ThriftCompact.CompactList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.header = self._io.read_u1()
            _ = self.header
            if not  (( ((_ % 16 >= 1) and (_ % 16 <= 13)) ) or (_ == 0)) :
                raise kaitaistruct.ValidationExprError(self.header, self._io, u"/types/compact_list/seq/0")
            if self.header // 16 == 15:
                pass
                self.long_size = ThriftCompact.Uvarint(self._io, self, self._root)

            self.elements = []
            for i in range(self.num_elements):
                self.elements.append(ThriftCompact.CompactValue(int(self.elem_type), self._io, self, self._root))



        def _fetch_instances(self):
            pass
            if self.header // 16 == 15:
                pass
                self.long_size._fetch_instances()

            for i in range(len(self.elements)):
                pass
                self.elements[i]._fetch_instances()


        @property
        def elem_type(self):
            """Element wire type."""
            if hasattr(self, '_m_elem_type'):
                return self._m_elem_type

            self._m_elem_type = KaitaiStream.resolve_enum(ThriftCompact.WireTypes, self.header % 16)
            return getattr(self, '_m_elem_type', None)

        @property
        def num_elements(self):
            """Number of elements."""
            if hasattr(self, '_m_num_elements'):
                return self._m_num_elements

            self._m_num_elements = (self.long_size.value if self.header // 16 == 15 else self.header // 16)
            return getattr(self, '_m_num_elements', None)


    class CompactMap(KaitaiStruct):
        """A map: varint size; if not empty a key/value type byte and the pairs."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ThriftCompact.CompactMap, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.size = ThriftCompact.Uvarint(self._io, self, self._root)
            if self.size.value != 0:
                pass
                self.types = self._io.read_u1()
                _ = self.types
                if not  ((_ // 16 >= 1) and (_ // 16 <= 13) and (_ % 16 >= 1) and (_ % 16 <= 13)) :
                    raise kaitaistruct.ValidationExprError(self.types, self._io, u"/types/compact_map/seq/1")

            self.entries = []
            for i in range(self.size.value):
                self.entries.append(ThriftCompact.CompactMapEntry(self.types // 16, self.types % 16, self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.size._fetch_instances()
            if self.size.value != 0:
                pass

            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()



    class CompactMapEntry(KaitaiStruct):
        """One key/value pair of a map."""
        def __init__(self, key_type, val_type, _io, _parent=None, _root=None):
            super(ThriftCompact.CompactMapEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_type = key_type
            self.val_type = val_type
            self._read()

        def _read(self):
            self.key = ThriftCompact.CompactValue(self.key_type, self._io, self, self._root)
            self.val = ThriftCompact.CompactValue(self.val_type, self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.key._fetch_instances()
            self.val._fetch_instances()


    class CompactStruct(KaitaiStruct):
        """A struct (or union, or exception): fields until a 0x00 stop byte."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ThriftCompact.CompactStruct, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.fields = []
            i = 0
            while True:
                _ = ThriftCompact.CompactField((0 if i == 0 else self.fields[i - 1].field_id), self._io, self, self._root)
                self.fields.append(_)
                if _.is_stop:
                    break
                i += 1


        def _fetch_instances(self):
            pass
            for i in range(len(self.fields)):
                pass
                self.fields[i]._fetch_instances()



    class CompactValue(KaitaiStruct):
        """A value of a given wire type (as a field value or a collection element)."""
        def __init__(self, value_type, _io, _parent=None, _root=None):
            super(ThriftCompact.CompactValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.value_type = value_type
            self._read()

        def _read(self):
            if  ((self.value_type == int(ThriftCompact.WireTypes.bool_true)) or (self.value_type == int(ThriftCompact.WireTypes.bool_false))) :
                pass
                self.bool_byte = self._io.read_u1()

            if self.value_type == int(ThriftCompact.WireTypes.i8):
                pass
                self.byte_value = self._io.read_s1()

            if  ((self.value_type == int(ThriftCompact.WireTypes.i16)) or (self.value_type == int(ThriftCompact.WireTypes.i32)) or (self.value_type == int(ThriftCompact.WireTypes.i64))) :
                pass
                self.int_value = ThriftCompact.ZigzagVarint(self._io, self, self._root)

            if self.value_type == int(ThriftCompact.WireTypes.double):
                pass
                self.double_value = self._io.read_f8le()

            if self.value_type == int(ThriftCompact.WireTypes.binary):
                pass
                self.binary_value = ThriftCompact.CompactBinary(self._io, self, self._root)

            if  ((self.value_type == int(ThriftCompact.WireTypes.list)) or (self.value_type == int(ThriftCompact.WireTypes.set))) :
                pass
                self.list_value = ThriftCompact.CompactList(self._io, self, self._root)

            if self.value_type == int(ThriftCompact.WireTypes.map):
                pass
                self.map_value = ThriftCompact.CompactMap(self._io, self, self._root)

            if self.value_type == int(ThriftCompact.WireTypes.struct):
                pass
                self.struct_value = ThriftCompact.CompactStruct(self._io, self, self._root)

            if self.value_type == int(ThriftCompact.WireTypes.uuid):
                pass
                self.uuid_value = self._io.read_bytes(16)



        def _fetch_instances(self):
            pass
            if  ((self.value_type == int(ThriftCompact.WireTypes.bool_true)) or (self.value_type == int(ThriftCompact.WireTypes.bool_false))) :
                pass

            if self.value_type == int(ThriftCompact.WireTypes.i8):
                pass

            if  ((self.value_type == int(ThriftCompact.WireTypes.i16)) or (self.value_type == int(ThriftCompact.WireTypes.i32)) or (self.value_type == int(ThriftCompact.WireTypes.i64))) :
                pass
                self.int_value._fetch_instances()

            if self.value_type == int(ThriftCompact.WireTypes.double):
                pass

            if self.value_type == int(ThriftCompact.WireTypes.binary):
                pass
                self.binary_value._fetch_instances()

            if  ((self.value_type == int(ThriftCompact.WireTypes.list)) or (self.value_type == int(ThriftCompact.WireTypes.set))) :
                pass
                self.list_value._fetch_instances()

            if self.value_type == int(ThriftCompact.WireTypes.map):
                pass
                self.map_value._fetch_instances()

            if self.value_type == int(ThriftCompact.WireTypes.struct):
                pass
                self.struct_value._fetch_instances()

            if self.value_type == int(ThriftCompact.WireTypes.uuid):
                pass


        @property
        def bool_value(self):
            """The boolean of a collection element."""
            if hasattr(self, '_m_bool_value'):
                return self._m_bool_value

            if  ((self.value_type == int(ThriftCompact.WireTypes.bool_true)) or (self.value_type == int(ThriftCompact.WireTypes.bool_false))) :
                pass
                self._m_bool_value = self.bool_byte == 1

            return getattr(self, '_m_bool_value', None)


    class FinderStep(KaitaiStruct):
        """One step of a field lookup (reads no bytes): the index of the wanted
        field among the fields examined so far (see the spec's doc).
        """
        def __init__(self, idx, hit, prev, _io, _parent=None, _root=None):
            super(ThriftCompact.FinderStep, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self.hit = hit
            self.prev = prev
            self._read()

        def _read(self):
            pass


        def _fetch_instances(self):
            pass

        @property
        def found(self):
            """The index found up to and including this step."""
            if hasattr(self, '_m_found'):
                return self._m_found

            self._m_found = (self.idx if self.hit else self.prev)
            return getattr(self, '_m_found', None)


    class Uvarint(KaitaiStruct):
        """Unsigned LEB128 varint: 7 bits per byte, least significant group first,
        high bit set on every byte but the last. At most 10 bytes (64 bits).
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(ThriftCompact.Uvarint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.groups = []
            i = 0
            while True:
                _ = ThriftCompact.VarintGroup((0 if i == 0 else self.groups[i - 1].acc), (1 if i == 0 else self.groups[i - 1].next_multiplier), self._io, self, self._root)
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
        def too_long(self):
            """The 10th byte still had its continuation bit set (malformed)."""
            if hasattr(self, '_m_too_long'):
                return self._m_too_long

            self._m_too_long = self.groups[len(self.groups) - 1].has_next
            return getattr(self, '_m_too_long', None)

        @property
        def value(self):
            """The unsigned value (the last group's; no `last` instance, which the Web IDE would show as a second copy of that group)."""
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = self.groups[len(self.groups) - 1].acc
            return getattr(self, '_m_value', None)


    class VarintGroup(KaitaiStruct):
        """One byte of a varint, carrying the value accumulated so far."""
        def __init__(self, prev_acc, multiplier, _io, _parent=None, _root=None):
            super(ThriftCompact.VarintGroup, self).__init__(_io)
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


    class ZigzagVarint(KaitaiStruct):
        """A zigzag-encoded signed integer (i16/i32/i64) stored as a uvarint."""
        def __init__(self, _io, _parent=None, _root=None):
            super(ThriftCompact.ZigzagVarint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.raw = ThriftCompact.Uvarint(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.raw._fetch_instances()

        @property
        def value(self):
            """The signed value (n / 2 for even n, -(n + 1) / 2 for odd n)."""
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = (self.raw.value // 2 if self.raw.value % 2 == 0 else -((self.raw.value + 1) // 2))
            return getattr(self, '_m_value', None)



